"""The record of a finished hand, for "show previous hand" (H16, D6, case 49).

Every hand that reached the showdown is in it face up, shown or mucked (the seeds win over
TDA 28, D6); hands folded before the showdown never are (stud up cards, which everyone
saw, stay visible); the board holds only the cards that were dealt (no rabbit hunting).
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerroom.core.cards import Card
from pokerroom.core.evaluator import best_five, describe
from pokerroom.core.events import Event, HandEnded, PotAwarded
from pokerroom.core.hand import Hand
from pokerroom.core.views import events_for, view
from pokerroom.table.events import HandFinished


@dataclass(frozen=True)
class PlayerRecord:
    seat: int
    player: str
    starting_stack: int
    final_stack: int
    net: int
    cards: tuple[Card | None, ...]  # None: a card nobody may see
    folded: bool
    reached_showdown: bool
    mucked: bool  # reached the showdown and mucked: revealed here all the same (D6)
    hand: str | None  # the best hand, for those who reached the showdown
    best: tuple[Card, ...]  # its five cards (empty when not revealed)


@dataclass(frozen=True)
class PotRecord:
    pot: int  # 0 is the main pot
    amount: int
    winners: tuple[int, ...]  # seats
    shares: tuple[int, ...]
    hand: str | None  # the winning hand, None when nobody contested the pot


@dataclass(frozen=True)
class HandRecord:
    """One finished hand as every player at the table may see it afterwards."""

    number: int
    game: str
    button: int
    board: tuple[Card, ...]
    players: tuple[PlayerRecord, ...]
    pots: tuple[PotRecord, ...]
    events: tuple[Event, ...]  # the hand's events by seat, revealed as D6 says

    def player(self, seat: int) -> PlayerRecord:
        return next(p for p in self.players if p.seat == seat)


def to_seats(event: Event, seats: tuple[int, ...]) -> Event:
    """A core event with its player indexes turned into seat numbers."""
    if type(event) is PotAwarded:
        return event._replace(
            eligible=tuple(seats[p] for p in event.eligible),
            winners=tuple(seats[p] for p in event.winners),
        )
    player = getattr(event, "player", None)
    if player is None:
        return event
    return event._replace(player=seats[player])  # type: ignore[call-arg]


def finished(number: int, ended: HandEnded, seats: tuple[int, ...]) -> HandFinished:
    return HandFinished(
        number,
        tuple(zip(seats, ended.stacks, strict=True)),
        tuple(zip(seats, ended.net, strict=True)),
    )


def record_hand(
    number: int, game: str, button: int, hand: Hand, seats: tuple[int, ...], players: tuple[str, ...]
) -> HandRecord:
    """The previous-hand record of a completed hand whose players sat in ``seats``."""
    public = view(hand, None)
    ended = hand.result()
    people = []
    for p, seat_view in enumerate(public.seats):
        reached = p in hand.reached_showdown
        value = hand.hand_value(p) if reached else None
        best = best_five(list(hand.holes[p]) + list(hand.board)) if value is not None else ()
        people.append(PlayerRecord(
            seat=seats[p],
            player=players[p],
            starting_stack=hand.starting_stacks[p],
            final_stack=ended.stacks[p],
            net=ended.net[p],
            cards=seat_view.cards,
            folded=hand.folded[p],
            reached_showdown=reached,
            mucked=p in hand.mucked,
            hand=describe(value) if value is not None else None,
            best=best,
        ))
    pots = tuple(
        PotRecord(
            e.pot, e.amount, tuple(seats[w] for w in e.winners), e.shares,
            None if e.value is None else describe(e.value),
        )
        for e in hand.events
        if type(e) is PotAwarded
    )
    events = tuple(to_seats(e, seats) for e in events_for(hand, None) if type(e) is not HandEnded)
    return HandRecord(number, game, button, tuple(hand.board), tuple(people), pots, events)
