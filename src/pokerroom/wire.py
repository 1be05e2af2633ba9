"""Turning the engine's and the table's values into JSON: cards as 'As', events as
objects with a ``type`` (the event's wire name, ``WIRE_NAMES``: stable, whatever the
Python class is called), dataclasses and named tuples as objects.

This is on the server's hot path (every event of every table goes through it once), so
the common cases come first: plain scalars, then named tuples (the core's events)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import fields, is_dataclass
from enum import Enum
from json.encoder import encode_basestring as _encode_plain_str  # strings as pydantic writes them
from json.encoder import encode_basestring_ascii as _encode_str  # what _encode writes strings with
from typing import Any, TypeVar

from pokerroom import protocol as p
from pokerroom.core import events as core
from pokerroom.core.cards import Card
from pokerroom.table import events as tables
from pokerroom.table.view import GameChangedInfo, HandStartedInfo

# Every event class a client may get, and its ``type`` on the wire. The names are the
# protocol's, written out here so that renaming a class cannot change the wire; an event
# class not named here is refused (``wire_name``). The room's own events (the deal's
# commitment, chat) are named where they are defined, with ``wire_event``.
WIRE_NAMES: dict[type, str] = {
    core.Posted: "Posted",
    core.HoleDealt: "HoleDealt",
    core.BoardDealt: "BoardDealt",
    core.Acted: "Acted",
    core.UncalledReturned: "UncalledReturned",
    core.Reshuffled: "Reshuffled",
    core.StreetEnded: "StreetEnded",
    core.Shown: "Shown",
    core.Mucked: "Mucked",
    core.PotAwarded: "PotAwarded",
    core.HandEnded: "HandEnded",
    tables.Seated: "Seated",
    tables.ChipsAdded: "ChipsAdded",
    tables.Left: "Left",
    tables.SatOut: "SatOut",
    tables.SatIn: "SatIn",
    tables.BlindMissed: "BlindMissed",
    tables.PostRequested: "PostRequested",
    GameChangedInfo: "GameChanged",  # sent with the game as data (table.view.with_game_info),
    HandStartedInfo: "HandStarted",  # never as the table's GameChanged and HandStarted
    tables.TurnStarted: "TurnStarted",
    tables.TimedOut: "TimedOut",
    tables.CardsRevealed: "CardsRevealed",
    tables.WaitingChanged: "WaitingChanged",
    tables.HandFinished: "HandFinished",
}
_T = TypeVar("_T", bound=type)


def wire_event(name: str) -> Callable[[_T], _T]:
    """Name an event class on the wire: ``@wire_event("ChatLine")`` over its definition."""

    def register(kind: _T) -> _T:
        if WIRE_NAMES.get(kind, name) != name or (name in WIRE_NAMES.values() and kind not in WIRE_NAMES):
            raise ValueError(f"the wire name {name!r} is taken")
        WIRE_NAMES[kind] = name
        return kind

    return register


def wire_name(kind: type) -> str:
    """The ``type`` an event of class ``kind`` has on the wire."""
    name = WIRE_NAMES.get(kind)
    if name is None:
        raise TypeError(f"{kind.__name__} has no wire name: add it to wire.WIRE_NAMES")
    return name


_SCALARS = frozenset({int, str, bool, float, type(None)})
# compact; non-ASCII escaped, so no text can break a frame's UTF-8
_encode = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def jsonable(value: Any) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is Card:
        return str(value)
    names = _DATACLASS_FIELDS.get(kind)
    if names is not None:  # a dataclass seen before (the previous-hand record's)
        return {name: jsonable(getattr(value, name)) for name in names}
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
        names = _DATACLASS_FIELDS[kind] = tuple(f.name for f in fields(value))
        return {name: jsonable(getattr(value, name)) for name in names}
    return value


_DATACLASS_FIELDS: dict[type, tuple[str, ...]] = {}  # dataclass -> its fields' names, in order


def event_json(event: Any) -> dict[str, Any]:
    """An event (core or table) as a JSON object: {"type": "Acted", "player": 3, ...}."""
    kind = type(event)
    names = getattr(kind, "_fields", None)
    if not isinstance(event, tuple) or type(names) is not tuple:
        return {"type": wire_name(kind), **jsonable(event)}
    data: dict[str, Any] = {"type": wire_name(kind)}
    for name, value in zip(names, event, strict=True):  # jsonable(event), field by field
        data[name] = value if type(value) in _SCALARS else jsonable(value)
    return data


def record_json(record: Any) -> dict[str, Any]:
    """A previous-hand record (table/record.py) with its events typed like event messages:
    ``jsonable(record)`` with its "events" made by ``event_json`` (and only by it)."""
    names = _DATACLASS_FIELDS.get(type(record))
    if names is None:
        data: dict[str, Any] = jsonable(record)  # and now the cache knows it, if a dataclass
        data["events"] = [event_json(e) for e in record.events]
        return data
    data = {}
    for name in names:
        value = getattr(record, name)
        data[name] = [event_json(e) for e in value] if name == "events" else jsonable(value)
    if "events" not in data:
        data["events"] = [event_json(e) for e in record.events]
    return data


def event_item(version: int, event: Any) -> str:
    """One item of an ``events`` message (protocol.VersionedEvent) as JSON text: the text
    of ``_encode({"version": version, "event": event_json(event)})``, written field by
    field for the named tuples events are (their fields are mostly numbers and words) by
    a function made once per event class (``_item_writer``)."""
    writer = _WRITERS.get(type(event))
    if writer is None:
        writer = _WRITERS[type(event)] = _item_writer(event)
    return writer(version, event)


def _encoded_item(version: int, event: Any) -> str:
    return _encode({"version": version, "event": event_json(event)})


def _item_writer(event: Any) -> Callable[[int, Any], str]:
    """For a named tuple's class, a function that writes its items as ``_encoded_item``
    does: '{"version":7,"event":{"type":"Acted","player":' + _text(player) + ... + '}}'
    (the keys are JSON texts made here, in Python literals; the values go through
    ``_text``). Other events are written by ``_encoded_item``."""
    kind = type(event)
    names = getattr(kind, "_fields", None)
    if (
        not isinstance(event, tuple)
        or type(names) is not tuple
        or not names
        or "type" in names
        or not all(type(n) is str for n in names)
    ):
        return _encoded_item
    head = ',"event":{"type":' + _encode_str(wire_name(kind))
    pieces = [repr('{"version":'), "_version(version)", repr(head)]
    for i, name in enumerate(names):  # numbers (most fields) written in place, the rest by _text
        pieces += [repr("," + _encode_str(name) + ":"), f"(_int(_{i}) if type(_{i}) is int else _text(_{i}))"]
    pieces.append(repr("}}"))
    unpack = ", ".join(f"_{i}" for i in range(len(names)))
    source = f"def write(version, event):\n    {unpack}, = event\n    return {' + '.join(pieces)}\n"
    scope: dict[str, Any] = {"_text": _text, "_version": int.__repr__, "_int": int.__repr__}
    exec(source, scope)  # the class's names are in it as string literals only
    writer: Callable[[int, Any], str] = scope["write"]
    return writer


def _text(value: Any) -> str:
    """``value`` as ``_encode`` writes it."""
    kind = type(value)
    if kind is int:
        return int.__repr__(value)
    if kind is str:
        return _encode_str(value)
    if kind is bool:
        return "true" if value else "false"
    if value is None:
        return "null"
    if kind is Card:
        return '"' + str(value) + '"'  # two ASCII characters, nothing to escape
    if kind is tuple:  # cards, seats, (seat, stack) pairs
        return "[" + ",".join(map(_text, value)) + "]"
    if kind is float and value - value == 0:  # finite
        return float.__repr__(value)
    return _encode(jsonable(value))


_WRITERS: dict[type, Callable[[int, Any], str]] = {}  # event class -> its item writer


def _plain(value: Any) -> str:
    """``value`` as pydantic's ``model_dump_json`` writes it (strings unescaped beyond
    JSON's needs, as ``encode_basestring`` leaves them); ``_NotPlain`` for what it might
    write otherwise (a float out of the range where it prints as Python does, a type of
    value not met in a your_turn message)."""
    kind = type(value)
    if kind is int:
        return int.__repr__(value)
    if kind is str:
        return _encode_plain_str(value)
    if kind is bool:
        return "true" if value else "false"
    if value is None:
        return "null"
    if kind is list or kind is tuple:
        return "[" + ",".join(map(_plain, value)) + "]"
    if kind is float and (value == 0.0 or 1e-4 <= abs(value) < 1e15):
        return float.__repr__(value)
    raise _NotPlain


class _NotPlain(Exception):
    pass


def your_turn_text(
    table: str,
    legal: tuple[Any, ...],
    deadline: float,
    game: str,
    street: str,
    cards: list[str | None],
    up: list[bool],
    board: list[str],
    pot: int,
    stack: int,
    players: int,
    opponents_up: list[list[str]],
) -> str | None:
    """The ``your_turn`` message (protocol.YourTurn) as its ``model_dump_json()`` writes it,
    byte for byte, without a model per turn; ``legal`` is the engine's Legal (a named
    tuple of numbers and booleans, written as ``jsonable`` makes it). None for values it
    does not write the same way (the caller makes the model then)."""
    try:
        writer = _LEGAL_WRITERS.get(type(legal))
        if writer is None:
            writer = _LEGAL_WRITERS[type(legal)] = _legal_writer(type(legal))
        if type(pot) is not int or type(stack) is not int or type(players) is not int:
            return None  # as pydantic's int fields would take them: the model's business
        others = (
            "[" + ",".join(["[]"] * len(opponents_up)) + "]"  # hold'em: no up cards
            if not any(opponents_up)
            else "[" + ",".join(map(_plain_list, opponents_up)) + "]"
        )
        return (
            f'{{"type":"your_turn","table":{_encode_plain_str(table)},"legal":{writer(legal)},'
            f'"deadline":{_plain(float(deadline))},"game":{_plain(game)},"street":{_plain(street)},'
            f'"cards":{_plain_list(cards)},"up":{_plain_list(up)},"board":{_plain_list(board)},'
            f'"pot":{pot},"stack":{stack},"players":{players},"opponents_up":{others}}}'
        )
    except _NotPlain:
        return None


def _plain_list(values: Any) -> str:
    """A list as ``_plain`` writes it; lists of words or of booleans in one go."""
    kinds = set(map(type, values))
    if kinds <= _WORDS:
        return "[" + ",".join(map(_encode_plain_str, values)) + "]"
    if kinds <= _BOOLEANS:
        return "[" + ",".join(["true" if v else "false" for v in values]) + "]"
    return _plain(values)


_WORDS = frozenset({str})
_BOOLEANS = frozenset({bool})


def _legal_writer(kind: type) -> Callable[[Any], str]:
    """For the Legal named tuple: a function writing it as ``_plain(jsonable(legal))`` does,
    with its numbers and booleans written in place and anything else left to ``_plain``."""
    names = kind._fields  # type: ignore[attr-defined]
    if not names:
        return lambda legal: "{}"
    value = (
        '(_int(_{0}) if type(_{0}) is int else "true" if _{0} is True else "false" if _{0} is False'
        ' else "null" if _{0} is None else _plain(_{0}))'
    )
    pieces = []
    for i, name in enumerate(names):
        key = ("{" if i == 0 else ",") + _encode_plain_str(name) + ":"
        pieces += [repr(key), value.format(i)]
    unpack = ", ".join(f"_{i}" for i in range(len(names)))
    source = f"def write(legal):\n    {unpack}, = legal\n    return {' + '.join(pieces)} + '}}'\n"
    scope: dict[str, Any] = {"_plain": _plain, "_int": int.__repr__}
    exec(source, scope)  # the class's names are in it as string literals only
    writer: Callable[[Any], str] = scope["write"]
    return writer


_LEGAL_WRITERS: dict[type, Callable[[Any], str]] = {}


def events_text(table: str, items: list[str]) -> str:
    """The ``events`` server message (protocol.EventsMessage) from items made by
    ``event_item``, built as text without a model: the watchers of a table share it."""
    return f'{{"type":"events","table":{_encode(table)},"events":[{",".join(items)}]}}'


def view_model(view: Any) -> p.TableView:
    """A table view (table.view.TableView) as the ``snapshot`` message's model."""
    return p.TableView.model_validate(jsonable(view))


def record_model(record: Any) -> p.HandRecord:
    """A previous-hand record (table.record.HandRecord) as the ``previous_hand`` message's model."""
    return p.HandRecord.model_validate(record_json(record))
