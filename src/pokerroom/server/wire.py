"""Turning the engine's and the table's values into JSON: cards as 'As', events as
objects with a ``kind``, dataclasses and named tuples as objects."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any

from pokerroom.core.cards import Card


def jsonable(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return {f: jsonable(getattr(value, f)) for f in value._fields}
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, list | tuple | set | frozenset):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, Enum):
        return value.value
    return value


def event_json(event: Any) -> dict[str, Any]:
    """An event (core or table) as a JSON object: {"type": "Acted", "player": 3, ...}."""
    return {"type": type(event).__name__, **jsonable(event)}


def record_json(record: Any) -> dict[str, Any]:
    """A previous-hand record (table/record.py) with its events typed like event messages."""
    data: dict[str, Any] = jsonable(record)
    data["events"] = [event_json(e) for e in record.events]
    return data
