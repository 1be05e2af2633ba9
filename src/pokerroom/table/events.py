"""What a table tells its players, besides the hand's own events.

Table events are frozen named tuples, all public (nothing in them is secret). The hand's
events (``pokerroom.core.events``) come in the same stream with their player fields
turned into seat numbers, so a hole card's audience is its seat; the hand's final
``HandEnded`` is replaced by ``HandFinished``, which says the same by seat.
"""

from __future__ import annotations

from typing import NamedTuple

from pokerroom.core.cards import Card
from pokerroom.core.events import Event


class Seated(NamedTuple):
    """A player sat down with ``stack`` chips taken from his balance (the buy-in)."""

    seat: int
    player: str
    stack: int


class ChipsAdded(NamedTuple):
    """A player added ``amount`` chips from his balance between hands."""

    seat: int
    player: str
    amount: int
    stack: int


class Left(NamedTuple):
    """A player's seat is free; ``stack`` chips go back to his balance. ``reason``:
    'left', 'sat_out_too_long'."""

    seat: int
    player: str
    stack: int
    reason: str


class SatOut(NamedTuple):
    """A player sits out from the next hand. ``reason``: 'asked', 'big_blind' (asked to
    sit out at his next big blind), 'timeouts', 'declined' (did not post), 'busted'."""

    seat: int
    player: str
    reason: str


class SatIn(NamedTuple):
    """A player who sat out is back; ``owes`` says what he must post or wait for:
    'nothing', 'big_blind', 'big_and_small_blind' or 'small_blind'."""

    seat: int
    player: str
    owes: str


class BlindMissed(NamedTuple):
    """A sitting-out player missed a blind (H7): 'small' or 'big' (which owes both)."""

    seat: int
    player: str
    blind: str


class PostRequested(NamedTuple):
    """A player who does not post automatically is asked to post before the deal."""

    seat: int
    player: str
    blind: int
    dead: int
    ante: int
    deadline: float


class GameChanged(NamedTuple):
    """A mixed table switched games (L4): from this hand on, ``game``."""

    game: str
    stage: int


class HandStarted(NamedTuple):
    """A hand is dealt. ``seats`` are the players in it, in the hand's order."""

    number: int
    game: str
    button: int
    small_blind: int | None  # the seat that posted the small blind; None: no small blind
    big_blind: int | None  # None in stud
    seats: tuple[int, ...]


class TurnStarted(NamedTuple):
    """The clock runs for ``seat`` until ``deadline`` (action time plus time bank)."""

    seat: int
    started: float
    deadline: float
    time_bank: float


class TimedOut(NamedTuple):
    """The clock ran out and the table acted for the player (R1, D7): 'check', 'fold',
    'protected', 'bring_in', 'show', 'muck', or 'declined' (a blind not posted)."""

    seat: int
    player: str
    action: str


class CardsRevealed(NamedTuple):
    """After hand ``number``, a player showed some or all of his hidden cards to everyone
    (D12: the winner nobody called, or a player who folded)."""

    number: int
    seat: int
    player: str
    cards: tuple[Card, ...]


class HandFinished(NamedTuple):
    """The hand is over: by seat, the final stack and the net result."""

    number: int
    stacks: tuple[tuple[int, int], ...]
    net: tuple[tuple[int, int], ...]


class WaitingChanged(NamedTuple):
    """The table's waiting list changed (waiting.py): ``waiting``, the names in order;
    ``offers``, (player, until when) of the free seats held for them; ``offered``, those
    whose offer is new (the room tells them wherever they are)."""

    waiting: tuple[str, ...]
    offers: tuple[tuple[str, float], ...]
    offered: tuple[str, ...]


TableEvent = (
    Seated | ChipsAdded | Left | SatOut | SatIn | BlindMissed | PostRequested | GameChanged
    | HandStarted | TurnStarted | TimedOut | HandFinished | CardsRevealed | WaitingChanged
)
AnyEvent = TableEvent | Event
