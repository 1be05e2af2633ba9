"""What the writers share: the error, the hand they read (``FinishedHand``), who may see
which cards (D6, D12), and the forced bets as PHH and PokerStars name them."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol

from pokerroom.core.cards import Card
from pokerroom.core.events import Posted
from pokerroom.core.structures import Game
from pokerroom.table.record import FinishedHand as RecordedHand

LIVE_BLINDS = ("small_blind", "big_blind", "blind")
STRADDLE = "straddle"  # D10


class HistoryError(ValueError):
    """A hand history that cannot be written (a live hand, names or seats that do not fit),
    or a stored one that cannot be read back (``restore``, ``full_history``,
    ``stored_text``: not what the server writes)."""


@contextmanager
def reading(what: str) -> Iterator[None]:
    """Reading back what the server stored: anything that is not what it writes (a damaged
    row, a history edited by hand) is a HistoryError saying so, the one error the readers
    document, never a KeyError or a CardError from deep inside one of them."""
    try:
        yield
    except HistoryError:
        raise
    except (LookupError, TypeError, ValueError, AttributeError, RecursionError) as e:
        raise HistoryError(f"{what} is not as the server stores it ({type(e).__name__}: {e})") from None


class FinishedHand(RecordedHand, Protocol):
    """What the writers read of a hand: a core ``Hand``, or a ``StoredHand`` rebuilt from
    its ``snapshot``; what the previous-hand record reads (table.record.FinishedHand),
    and more."""

    @property
    def game(self) -> Game: ...
    @property
    def n(self) -> int: ...
    @property
    def stacks(self) -> Sequence[int]: ...
    @property
    def winnings(self) -> Sequence[int]: ...
    @property
    def big_blind_position(self) -> int: ...
    @property
    def complete(self) -> bool: ...


def visible_players(hand: FinishedHand, viewer: int | None = None, reveal_all: bool = False) -> set[int]:
    """The players whose hole cards a history written for ``viewer`` shows (D6)."""
    if reveal_all:
        return set(range(hand.n))
    shown = set(hand.reached_showdown)
    if viewer is not None:
        shown.add(viewer)
    return shown


def check(hand: FinishedHand, names: Sequence[str], seats: Sequence[int], viewer: int | None) -> None:
    if not hand.complete:
        raise HistoryError("a hand history is written once the hand is over")
    if len(names) != hand.n or len(seats) != hand.n:
        raise HistoryError(
            f"{hand.n} players need {hand.n} names and seats, got {len(names)} and {len(seats)}"
        )
    if len(set(seats)) != hand.n:
        raise HistoryError(f"two players in one seat: {list(seats)}")
    if viewer is not None and (type(viewer) is not int or not 0 <= viewer < hand.n):
        raise HistoryError(f"viewer {viewer!r} is not a player of this hand")


def shows_after(
    hand: FinishedHand, reveals: Mapping[int, Sequence[Card]] | None
) -> list[tuple[int, list[Card]]]:
    """The shows after the hand (D12) as (player, the cards he showed, in his hole order),
    checked; a player who reached the showdown is left out (D6 reveals his hand already)."""
    out: list[tuple[int, list[Card]]] = []
    for p, cards in (reveals or {}).items():
        if type(p) is not int or not 0 <= p < hand.n:
            raise HistoryError(f"a show after the hand by {p!r}, not a player of this hand")
        holes = hand.holes[p]
        if not cards or any(c not in holes for c in cards):
            raise HistoryError(f"player {p} shows {cards_text(cards)}, not his cards {cards_text(holes)}")
        if p not in hand.reached_showdown:
            out.append((p, [c for c in holes if c in cards]))
    return out


def cards_text(cards: Iterable[Card | None]) -> str:
    return "".join("??" if c is None else str(c) for c in cards)


def spaced(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


# ---------------------------------------------------------------------------- forced bets


@dataclass
class Forced:
    """What each player was due, in PHH order (not reversed heads-up)."""

    antes: list[int]
    dead: list[int]
    blinds: list[int]
    extra_live: list[int]  # live blinds besides the small and the big blind
    standard: bool  # the big and small blinds sit where PHH puts them


def forced_bets(hand: FinishedHand) -> Forced:
    game, n = hand.game, hand.n
    antes, dead, blinds, extra_live = [0] * n, [0] * n, [0] * n, [0] * n
    broke = [False] * n  # all in on an ante or a dead blind
    for e in hand.events:
        if type(e) is not Posted:
            continue
        p = e.player
        if e.kind == "ante":
            antes[p] = max(e.amount, game.ante) if e.all_in else e.amount
            broke[p] = broke[p] or e.all_in
        elif e.kind == "dead":
            dead[p] = e.amount
            broke[p] = broke[p] or e.all_in
        elif e.kind == STRADDLE:  # D10: the player after the big blind, the third PHH entry
            blinds[p] = 2 * game.big_blind if e.all_in else e.amount
        elif e.kind in LIVE_BLINDS:
            due = e.amount
            if e.all_in:
                due = game.small_blind if e.kind == "small_blind" else game.big_blind
            blinds[p] = due
            if e.kind == "blind":
                extra_live[p] = due
    if game.stud_game:
        return Forced(antes, dead, blinds, extra_live, True)
    bb = hand.big_blind_position
    sb = 1 - bb if n == 2 else (bb - 1) % n
    standard = bb == (0 if n == 2 else 1) and not any(extra_live)
    # a blind the player could not post at all (nothing left after his ante) was still due
    if game.big_blind and not blinds[bb] and broke[bb]:
        blinds[bb] = game.big_blind
    if standard and game.small_blind and not blinds[sb] and broke[sb]:
        blinds[sb] = game.small_blind
    return Forced(antes, dead, blinds, extra_live, standard)


def utc_time(started_at: float) -> datetime.datetime:
    """A hand's start in UTC, to the second (both texts write whole seconds)."""
    return datetime.datetime.fromtimestamp(started_at, tz=datetime.UTC).replace(microsecond=0)

