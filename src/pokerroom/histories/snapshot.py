"""The hand as stored: ``snapshot`` makes a finished hand's facts plain JSON values when
it ends (cheap: no text is written), ``restore`` rebuilds them as a ``StoredHand`` that
the writers take in place of the engine's ``Hand`` and that gives the same texts byte
for byte."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any

from pokerroom.core.cards import Card
from pokerroom.core.events import (
    Acted,
    BoardDealt,
    Event,
    HandEnded,
    HoleDealt,
    Mucked,
    Posted,
    PotAwarded,
    Reshuffled,
    Shown,
    StreetEnded,
    UncalledReturned,
)
from pokerroom.core.structures import Game, Structure
from pokerroom.histories.common import FinishedHand, HistoryError, reading

# ---------------------------------------------------------------------------- snapshots
#
# The server does not write the texts when a hand ends: it stores ``snapshot(hand)``, the
# hand's JSON-ready facts, and writes the .phh or .txt a reader may see when he asks for it
# (``stored_text``). A snapshot holds everything the writers read:
#
#   {"v": 1, "game": {Game's fields, "structure": "NL"}, "n", "big_blind_position",
#    "starting_stacks", "stacks", "winnings", "folded", "holes": ["AsKd", ...],
#    "face_up": [[false, false, true], ...], "board": "KsQs4c", "reached_showdown",
#    "shown", "mucked" (sorted player lists), "complete", "events": [[tag, fields...]]}
#
# Each event is its tag and its fields in order, cards as text ("As", "KsQs4c"):
# "post", "hole", "board", "act", "uncalled", "street", "show", "muck", "pot", "end",
# "reshuffle". ``restore`` rebuilds the same core events and Game as a ``StoredHand``.

SNAPSHOT_VERSION = 1


def _card_text(cards: Iterable[Card]) -> str:
    return "".join(map(str, cards))


def _parse_text(text: str) -> tuple[Card, ...]:
    return tuple(Card(text[i:i + 2]) for i in range(0, len(text), 2))


@lru_cache(maxsize=256)
def _game_fields(game: Game) -> tuple[tuple[str, Any], ...]:
    return tuple(
        (f.name, getattr(game, f.name).value if f.name == "structure" else getattr(game, f.name))
        for f in fields(game)
    )


@lru_cache(maxsize=256)
def _game_of(items: tuple[tuple[str, Any], ...]) -> Game:
    values = dict(items)
    values["structure"] = Structure(values["structure"])
    return Game(**values)


def _encode_event(e: Event) -> list[Any]:
    t = type(e)
    if t is HoleDealt:
        assert isinstance(e, HoleDealt)
        return ["hole", e.player, None if e.card is None else str(e.card), e.face_up]
    if t is Acted:
        return ["act", *e]
    if t is Posted:
        return ["post", *e]
    if t is BoardDealt:
        assert isinstance(e, BoardDealt)
        return ["board", e.street, _card_text(e.cards)]
    if t is StreetEnded:
        return ["street", *e]
    if t is UncalledReturned:
        return ["uncalled", *e]
    if t is Shown:
        assert isinstance(e, Shown)
        return ["show", e.player, _card_text(e.cards), e.forced]
    if t is Mucked:
        assert isinstance(e, Mucked)
        return ["muck", e.player, _card_text(e.cards)]
    if t is PotAwarded:
        assert isinstance(e, PotAwarded)
        return ["pot", e.pot, e.amount, list(e.eligible), list(e.winners), list(e.shares), e.value]
    if t is HandEnded:
        assert isinstance(e, HandEnded)
        return ["end", list(e.stacks), list(e.net)]
    if t is Reshuffled:
        return ["reshuffle", *e]
    raise HistoryError(f"no snapshot for the event {e!r}")


def _decode_event(row: Sequence[Any]) -> Event:
    tag = row[0]
    if tag == "hole":
        _, player, card, face_up = row
        return HoleDealt(player, None if card is None else Card(card), face_up)
    if tag == "act":
        return Acted(*row[1:])
    if tag == "post":
        return Posted(*row[1:])
    if tag == "board":
        return BoardDealt(row[1], _parse_text(row[2]))
    if tag == "street":
        return StreetEnded(*row[1:])
    if tag == "uncalled":
        return UncalledReturned(*row[1:])
    if tag == "show":
        return Shown(row[1], _parse_text(row[2]), row[3])
    if tag == "muck":
        return Mucked(row[1], _parse_text(row[2]))
    if tag == "pot":
        _, pot, amount, eligible, winners, shares, value = row
        return PotAwarded(pot, amount, tuple(eligible), tuple(winners), tuple(shares), value)
    if tag == "end":
        return HandEnded(tuple(row[1]), tuple(row[2]))
    if tag == "reshuffle":
        return Reshuffled(*row[1:])
    raise HistoryError(f"unknown event {tag!r} in a hand snapshot")


def snapshot(hand: FinishedHand) -> dict[str, Any]:
    """The hand as plain JSON values (lists, strings, numbers): everything ``to_phh`` and
    ``to_pokerstars`` read, for ``restore`` to rebuild. Cheap: no text is written."""
    return {
        "v": SNAPSHOT_VERSION,
        "game": dict(_game_fields(hand.game)),
        "n": hand.n,
        "big_blind_position": hand.big_blind_position,
        "starting_stacks": list(hand.starting_stacks),
        "stacks": list(hand.stacks),
        "winnings": list(hand.winnings),
        "folded": list(hand.folded),
        "holes": [_card_text(h) for h in hand.holes],
        "face_up": [list(f) for f in hand.face_up],
        "board": _card_text(hand.board),
        "reached_showdown": sorted(hand.reached_showdown),
        "shown": sorted(hand.shown),
        "mucked": sorted(hand.mucked),
        "complete": hand.complete,
        "events": [_encode_event(e) for e in hand.events],
    }


@dataclass(frozen=True, slots=True)
class StoredHand:
    """A finished hand rebuilt from its ``snapshot``: read-only, and what the writers need
    of a ``Hand`` (the same core events, cards and Game)."""

    game: Game
    n: int
    events: tuple[Event, ...]
    holes: tuple[tuple[Card, ...], ...]
    face_up: tuple[tuple[bool, ...], ...]
    board: tuple[Card, ...]
    starting_stacks: tuple[int, ...]
    stacks: tuple[int, ...]
    winnings: tuple[int, ...]
    folded: tuple[bool, ...]
    reached_showdown: frozenset[int]
    shown: frozenset[int]
    mucked: frozenset[int]
    big_blind_position: int
    complete: bool


def restore(data: Mapping[str, Any]) -> StoredHand:
    """The hand a ``snapshot`` (or its JSON read back) describes."""
    with reading("a hand snapshot"):
        if data.get("v") != SNAPSHOT_VERSION:
            raise HistoryError(f"a hand snapshot of version {data.get('v')!r}, not {SNAPSHOT_VERSION}")
        return StoredHand(
            game=_game_of(tuple(data["game"].items())),
            n=data["n"],
            events=tuple(_decode_event(row) for row in data["events"]),
            holes=tuple(_parse_text(h) for h in data["holes"]),
            face_up=tuple(tuple(f) for f in data["face_up"]),
            board=_parse_text(data["board"]),
            starting_stacks=tuple(data["starting_stacks"]),
            stacks=tuple(data["stacks"]),
            winnings=tuple(data["winnings"]),
            folded=tuple(data["folded"]),
            reached_showdown=frozenset(data["reached_showdown"]),
            shown=frozenset(data["shown"]),
            mucked=frozenset(data["mucked"]),
            big_blind_position=data["big_blind_position"],
            complete=data["complete"],
        )

