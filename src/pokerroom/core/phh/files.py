"""Reading and writing PHH files: TOML in (``load``, ``loads``), TOML out (``dumps``).

A .phh file is one hand; a .phhs file holds tables ``[1]``, ``[2]``, ... (index = the
table key). The text is read by ``tomltext.loads`` (a fast reader of the TOML PHH files
use, tomllib for the rest); every field we model is checked here, every action line is
parsed (so a bad line is an error of the file, not of its replay), and any other field
stays in ``HandHistory.extra`` and is written back.
"""

from __future__ import annotations

import datetime
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, overload

from pokerroom.core.phh import tomltext
from pokerroom.core.phh.grammar import Action, Chips, PHHError, _number, parse_action

_VARIANT_FIELDS = {  # required besides variant, antes, starting_stacks and actions
    **dict.fromkeys(("NT", "PT", "NS", "PO", "N2L1D"), ("blinds_or_straddles", "min_bet")),
    **dict.fromkeys(("FT", "FO/8", "F2L3D", "FB"), ("blinds_or_straddles", "small_bet", "big_bet")),
    **dict.fromkeys(("F7S", "F7S/8", "FR"), ("bring_in", "small_bet", "big_bet")),
}
_S, _N, _BOOL = "a string", "a non-negative number", "true or false"
_SS, _NS = "an array of strings", "an array of non-negative numbers"
_FIELDS = {  # field -> what it must be, in the order dumps writes them
    "variant": _S, "ante_trimming_status": _BOOL, "antes": _NS, "blinds_or_straddles": _NS,
    "bring_in": _N, "small_bet": _N, "big_bet": _N, "min_bet": _N, "starting_stacks": _NS, "actions": _SS,
    "author": _S, "event": _S, "hand": "an integer or a string", "players": _SS, "finishing_stacks": _NS,
}


@dataclass
class HandHistory:
    """One PHH hand; chips are ints (floats only for fractional chips)."""

    variant: str
    antes: list[Chips]
    starting_stacks: list[Chips]
    actions: list[str]
    blinds_or_straddles: list[Chips] | None = None
    min_bet: Chips | None = None
    small_bet: Chips | None = None
    big_bet: Chips | None = None
    bring_in: Chips | None = None
    finishing_stacks: list[Chips] | None = None
    players: list[str] | None = None
    hand: int | str | None = None
    ante_trimming_status: bool | None = None
    author: str | None = None
    event: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # every other field, as read


# ---------------------------------------------------------------------------- reading

_INT_ONLY = frozenset((int,))


def _convert(kind: str, v: object) -> Any:
    """``v`` as the field must be (``kind``, a value of ``_FIELDS``), or ValueError. Arrays of
    whole non-negative numbers come back as they are; floats that are whole become ints."""
    if kind == _NS:
        if not isinstance(v, list):
            raise ValueError(v)
        for x in v:
            if type(x) is not int or x < 0:
                return [_non_negative(y) for y in v]
        return v
    if kind == _SS:
        if not isinstance(v, list):
            raise ValueError(v)
        for x in v:
            if not isinstance(x, str):
                raise ValueError(x)
        return v
    if kind == _S:
        if not isinstance(v, str):
            raise ValueError(v)
        return v
    if kind == _N:
        return _non_negative(v)
    if kind == _BOOL:
        if not isinstance(v, bool):
            raise ValueError(v)
        return v
    if isinstance(v, bool) or not isinstance(v, int | str):  # the hand's number or name
        raise ValueError(v)
    return v


def _non_negative(v: object) -> Chips:
    value = _number(v)
    if value < 0:
        raise ValueError(v)
    return value


def _from_table(table: dict[str, Any]) -> tuple[HandHistory, list[Action]]:
    """The hand of a TOML table, checked, and its action lines parsed (for its replay)."""
    variant = table.get("variant")
    required = ("variant", "antes", "starting_stacks", "actions", *_VARIANT_FIELDS.get(str(variant), ()))
    missing = [k for k in required if k not in table]
    if missing:
        raise PHHError(f"missing required field(s): {', '.join(missing)}")
    values, extra = {}, {}
    for key, v in table.items():
        kind = _FIELDS.get(key)
        if kind is None:
            extra[key] = v
            continue
        try:
            values[key] = _convert(kind, v)
        except ValueError:
            raise PHHError(f"{key} must be {kind}, got {v!r}") from None
    stacks: list[Chips] = values["starting_stacks"]
    n = len(stacks)
    if n < 2 or not all(s > 0 for s in stacks):
        raise PHHError(f"starting_stacks must be at least two positive numbers, got {stacks}")
    for key in ("antes", "blinds_or_straddles", "finishing_stacks", "players"):
        value = values.get(key)
        if value is not None and len(value) != n:
            raise PHHError(f"{key} has {len(value)} entries for {n} players")
    texts: list[str] = values["actions"]
    acts = [parse_action(text) for text in texts]
    for i, a in enumerate(acts):
        actor, target = a.actor, a.target
        if (actor is not None and actor >= n) or (target is not None and target >= n):
            raise PHHError(f"actions[{i}] {texts[i]!r}: there are only {n} players")
    return HandHistory(**values, extra=extra), acts


# (table index, the hand or its error, its parsed actions: empty for an error)
_Items = list[tuple[int | None, HandHistory | PHHError, list[Action]]]


def _parse(text: str, multi: bool) -> _Items:
    try:
        doc = tomltext.loads(text)
    except tomltext.TOMLDecodeError as e:
        raise PHHError(f"bad TOML: {e}") from None
    tables: list[tuple[int | None, Any]] = [(None, doc)]
    if multi:
        if not all(k.isdigit() and isinstance(t, dict) for k, t in doc.items()):
            raise PHHError("a .phhs file holds only tables [1], [2], ...")
        tables = [(int(k), t) for k, t in doc.items()]
    out: _Items = []
    for index, table in tables:
        try:
            hh, acts = _from_table(table)
            out.append((index, hh, acts))
        except PHHError as e:
            out.append((index, e if index is None else PHHError(f"[{index}]: {e}"), []))
    return out


def _first_error(items: _Items) -> list[tuple[int | None, HandHistory]]:
    if errors := [hh for _, hh, _ in items if isinstance(hh, PHHError)]:
        raise errors[0]
    return [(i, hh) for i, hh, _ in items if isinstance(hh, HandHistory)]


@overload
def loads(text: str, multi: Literal[False] = False) -> HandHistory: ...
@overload
def loads(text: str, multi: Literal[True]) -> list[tuple[int | None, HandHistory]]: ...
def loads(text: str, multi: bool = False) -> HandHistory | list[tuple[int | None, HandHistory]]:
    """One hand from .phh text or, with ``multi``, [(table index, hand), ...] from .phhs text."""
    items = _first_error(_parse(text, multi))
    return items if multi else items[0][1]


def _read(path: Path) -> _Items:
    try:
        return _parse(path.read_text(encoding="utf-8"), path.suffix == ".phhs")
    except (OSError, UnicodeDecodeError) as e:
        raise PHHError(f"cannot read the file: {getattr(e, 'strerror', None) or e}") from None


def load(path: str | Path) -> list[tuple[int | None, HandHistory]]:
    """The hands of a .phh (index None) or .phhs file (index = table key)."""
    try:
        return _first_error(_read(Path(path)))
    except PHHError as e:
        raise PHHError(f"{path}: {e}") from None



# ---------------------------------------------------------------------------- writing

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _toml(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "nan" if v != v else ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, str):
        return '"' + "".join(_ESCAPES.get(c) or (
            f"\\u{ord(c):04x}" if ord(c) < 32 or ord(c) == 127 else c) for c in v) + '"'
    if isinstance(v, datetime.date | datetime.time):
        return v.isoformat()
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    raise PHHError(f"cannot write a {type(v).__name__} value in PHH")


def dumps(hh: HandHistory) -> str:
    """A .phh TOML text for ``hh``; ``loads(dumps(hh)) == hh``."""
    lines = []
    for k, v in ({k: getattr(hh, k) for k in _FIELDS} | hh.extra).items():
        if k == "actions" and v:
            lines.append("actions = [\n" + "".join(f"  {_toml(a)},\n" for a in v) + "]")
        elif v is not None:
            lines.append(f"{k if re.fullmatch(r'[A-Za-z0-9_-]+', k) else _toml(k)} = {_toml(v)}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- replay
