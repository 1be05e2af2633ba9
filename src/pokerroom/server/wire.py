"""Turning the engine's and the table's values into JSON: cards as 'As', events as
objects with a ``type``, dataclasses and named tuples as objects.

This is on the server's hot path (every event of every table goes through it once), so
the common cases come first: plain scalars, then named tuples (the core's events)."""

from __future__ import annotations

import json
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any

from pokerroom.core.cards import Card

_SCALARS = frozenset({int, str, bool, float, type(None)})
# compact; non-ASCII escaped, so no text can break a frame's UTF-8
_encode = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def jsonable(value: Any) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is Card:
        return str(value)
    if isinstance(value, tuple):
        if hasattr(value, "_fields"):
            return {f: jsonable(v) for f, v in zip(value._fields, value, strict=True)}
        return [jsonable(v) for v in value]
    if kind is list or isinstance(value, set | frozenset):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, Enum):
        return value.value
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in fields(value)}
    return value


def event_json(event: Any) -> dict[str, Any]:
    """An event (core or table) as a JSON object: {"type": "Acted", "player": 3, ...}."""
    return {"type": type(event).__name__, **jsonable(event)}


def record_json(record: Any) -> dict[str, Any]:
    """A previous-hand record (table/record.py) with its events typed like event messages."""
    data: dict[str, Any] = jsonable(record)
    data["events"] = [event_json(e) for e in record.events]
    return data


def event_item(version: int, event: Any) -> str:
    """One item of an ``events`` message (protocol.VersionedEvent) as JSON text."""
    return _encode({"version": version, "event": event_json(event)})


def events_text(table: str, items: list[str]) -> str:
    """The ``events`` server message (protocol.EventsMessage) from items made by
    ``event_item``, built as text without a model: the watchers of a table share it."""
    return f'{{"type":"events","table":{_encode(table)},"events":[{",".join(items)}]}}'
