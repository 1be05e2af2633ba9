"""Frozen events: everything a hand does, each event saying who may see it.

Events are immutable named tuples (cheap to make, safe to share). ``audience(event)``
is ``None`` when everyone may see the event, or the one player who may see it whole;
anyone else gets ``redact(event)``, the same event with the hidden cards taken out.
Players are indexed in PHH order: 0 is the first seat left of the button.
"""

from __future__ import annotations

from typing import NamedTuple

from pokerroom.core.cards import Card


class Posted(NamedTuple):
    """A forced bet: 'ante', 'small_blind', 'big_blind', 'blind' (another live blind),
    'straddle' (a live straddle of twice the big blind, D10), 'dead' (dead money, such as a
    missed small blind), or 'bring_in'."""

    player: int
    kind: str
    amount: int
    all_in: bool


class HoleDealt(NamedTuple):
    """A card dealt to a player; ``card`` is None in the copy others see of a down card."""

    player: int
    card: Card | None
    face_up: bool = False


class BoardDealt(NamedTuple):
    """Community cards for a street (1 flop, 2 turn, 3 river)."""

    street: int
    cards: tuple[Card, ...]


class Acted(NamedTuple):
    """A betting decision: 'fold', 'check', 'call', 'bet', 'raise', in stud 'bring_in'
    and 'complete', or 'protected' (all-in protection on a timeout, D7: the player stays in
    for what he committed, the rest of his stack set aside until the hand ends).

    ``amount`` is what the player added, ``to`` their total bet on this street after it.
    """

    player: int
    action: str
    amount: int
    to: int
    all_in: bool


class UncalledReturned(NamedTuple):
    """The part of a bet nobody called goes back to its owner (H12)."""

    player: int
    amount: int


class Reshuffled(NamedTuple):
    """Stud card shortage (S9, D4): the burned cards were shuffled into the stub before
    dealing ``street``; ``cards`` is how many the stub holds now."""

    street: int
    cards: int


class StreetEnded(NamedTuple):
    """A betting round is over; ``pot`` is everything in the middle now."""

    street: int
    pot: int


class Shown(NamedTuple):
    """A player's hole cards turned face up at showdown (``forced``: all-in or called bettor)."""

    player: int
    cards: tuple[Card, ...]
    forced: bool


class Mucked(NamedTuple):
    """A player gave up at showdown without showing; others see no cards until the hand
    is over, when the previous-hand record reveals it (D6)."""

    player: int
    cards: tuple[Card, ...]


class PotAwarded(NamedTuple):
    """A pot (0 = main) and who won it; ``value`` is the winning hand's strength, or None
    when the pot was not contested. ``shares`` go with ``winners`` (odd chips included)."""

    pot: int
    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...]
    shares: tuple[int, ...]
    value: int | None


class HandEnded(NamedTuple):
    """The hand is over: final stacks and each player's net result."""

    stacks: tuple[int, ...]
    net: tuple[int, ...]


Event = (
    Posted | HoleDealt | BoardDealt | Acted | UncalledReturned | StreetEnded | Shown | Mucked
    | PotAwarded | HandEnded | Reshuffled
)


def audience(event: Event) -> int | None:
    """None if every viewer may see the whole event, else the one player who may."""
    if type(event) is HoleDealt and not event.face_up:
        return event.player
    if type(event) is Mucked:
        return event.player
    return None


def redact(event: Event) -> Event:
    """The copy of ``event`` for viewers outside its audience."""
    if type(event) is HoleDealt:
        return event._replace(card=None)
    if type(event) is Mucked:
        return event._replace(cards=())
    return event


def for_viewer(event: Event, viewer: int | None) -> Event:
    """The event as ``viewer`` (a player index, or None for an observer) may see it."""
    who = audience(event)
    return event if who is None or who == viewer else redact(event)
