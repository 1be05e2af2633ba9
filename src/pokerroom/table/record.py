"""The record of a finished hand, for "show previous hand" (H16, D6, case 49).

Every hand that reached the showdown is in it face up, shown or mucked (the seeds win over
TDA 28, D6); hands folded before the showdown never are (stud up cards, which everyone
saw, stay visible); the board holds only the cards that were dealt (no rabbit hunting).
Cards a player showed after the hand (D12: he won uncontested or folded, and showed one
card or all) are face up too, and listed in ``PlayerRecord.revealed``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any, Protocol

from pokerroom.core.cards import RANKS, Card
from pokerroom.core.evaluator import best_five, category, describe, evaluate_ints
from pokerroom.core.events import Event, HandEnded, HoleDealt, PotAwarded, for_viewer
from pokerroom.table.config import GameInfo, game_info
from pokerroom.table.events import HandFinished

# the hand categories (evaluator.category's 0..8) as stable keys for clients
CATEGORIES = (
    "high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
    "four_of_a_kind", "straight_flush",
)


@dataclass(frozen=True, slots=True)
class HandValue:
    """A hand's value as data, for clients to name in their language (``describe`` is the
    English, for logs): its category and the ranks of its best five cards, most important
    first (groups, then kickers; a wheel 5-4-3-2-A), as 'A', 'K', ... '2'."""

    category: str
    ranks: tuple[str, ...]


def hand_value(value: int, best: Sequence[Card]) -> HandValue:
    return HandValue(CATEGORIES[category(value)], tuple(RANKS[c.rank] for c in best))


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
    revealed: tuple[Card, ...] = ()  # the cards he showed after the hand (D12), in his hole order
    value: HandValue | None = None  # ``hand`` as data


@dataclass(frozen=True)
class PotRecord:
    pot: int  # 0 is the main pot
    amount: int
    winners: tuple[int, ...]  # seats
    shares: tuple[int, ...]
    hand: str | None  # the winning hand, None when nobody contested the pot
    value: HandValue | None = None  # ``hand`` as data


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
    game_info: GameInfo | None = None  # ``game`` as data

    def player(self, seat: int) -> PlayerRecord:
        return next(p for p in self.players if p.seat == seat)


def to_seats(event: Event, seats: tuple[int, ...]) -> Event:
    """A core event with its player indexes turned into seat numbers."""
    if type(event) is PotAwarded:
        return event._replace(
            eligible=tuple(seats[p] for p in event.eligible),
            winners=tuple(seats[p] for p in event.winners),
        )
    kind = type(event)
    at = _PLAYER_AT.get(kind)
    if at is None:
        fields: tuple[str, ...] = getattr(kind, "_fields", ())
        at = _PLAYER_AT[kind] = fields.index("player") if "player" in fields else -1
    if at < 0:
        return event
    values: list[Any] = list(event)
    player = values[at]
    if player is None:
        return event
    # event._replace(player=seats[player]), without its keyword machinery (~7 events an action)
    values[at] = seats[player]
    new: Event = tuple.__new__(kind, values)
    return new


_PLAYER_AT: dict[type, int] = {}  # event class -> index of its "player" field, -1 if none


def finished(number: int, ended: HandEnded, seats: tuple[int, ...]) -> HandFinished:
    return HandFinished(
        number,
        tuple(zip(seats, ended.stacks, strict=True)),
        tuple(zip(seats, ended.net, strict=True)),
    )


class FinishedHand(Protocol):
    """What ``record_hand`` reads of a hand that is over: a core ``Hand``, or the same hand
    rebuilt from its snapshot (server.histories.restore)."""

    @property
    def events(self) -> Sequence[Event]: ...
    @property
    def holes(self) -> Sequence[Sequence[Card]]: ...
    @property
    def face_up(self) -> Sequence[Sequence[bool]]: ...
    @property
    def board(self) -> Sequence[Card]: ...
    @property
    def starting_stacks(self) -> Sequence[int]: ...
    @property
    def folded(self) -> Sequence[bool]: ...
    @property
    def reached_showdown(self) -> AbstractSet[int]: ...
    @property
    def shown(self) -> AbstractSet[int]: ...
    @property
    def mucked(self) -> AbstractSet[int]: ...


def record_hand(
    number: int,
    game: str,
    button: int,
    hand: FinishedHand,
    seats: tuple[int, ...],
    players: tuple[str, ...],
    reveals: Mapping[int, Sequence[Card]] | None = None,
) -> HandRecord:
    """The previous-hand record of a completed hand whose players sat in ``seats``: what
    ``view(hand, None)`` and ``events_for(hand, None)`` show of it, the values of the hands
    that reached the showdown and the pots. It reads only the hand's cards and events, so
    the hand rebuilt from its stored snapshot gives the same record (the server stores no
    record: it makes it from the snapshot when a history is read). ``reveals`` maps a player
    (an index into the hand) to the cards he showed after the hand (D12): they are face up,
    in his ``cards`` and his deal events, and listed in ``revealed``."""
    ended = hand.events[-1]
    if type(ended) is not HandEnded:
        raise ValueError("a hand is recorded once it is over")
    showed: dict[int, tuple[Card, ...]] = {}
    for p, cards in (reveals or {}).items():
        if not 0 <= p < len(hand.holes) or not cards or any(c not in hand.holes[p] for c in cards):
            raise ValueError(f"player {p} shows {list(cards)!r}: not cards of his")
        showed[p] = tuple(c for c in hand.holes[p] if c in cards)
    revealed = set(hand.reached_showdown)  # D6: shown or mucked at the showdown
    visible = set(hand.shown) | revealed  # views.visible_holes of a complete hand, for nobody
    board = list(hand.board)
    people = []
    values: dict[int, HandValue] = {}  # by strength: a pot's winning hand
    for p, holes in enumerate(hand.holes):
        reached = p in revealed
        value = None
        if reached and len(holes) + len(board) >= 7:  # Hand.hand_value
            value = evaluate_ints(list(holes) + board)
        best = best_five(list(holes) + board) if value is not None else ()
        if value is not None:
            values.setdefault(value, hand_value(value, best))
        shown = showed.get(p, ())
        if p in visible:  # views._cards: stud up cards are seen by everyone (R2)
            seen: tuple[Card | None, ...] = tuple(holes)
        else:
            up = hand.face_up[p]
            seen = tuple(c if (up and up[k]) or c in shown else None for k, c in enumerate(holes))
        people.append(PlayerRecord(
            seat=seats[p],
            player=players[p],
            starting_stack=hand.starting_stacks[p],
            final_stack=ended.stacks[p],
            net=ended.net[p],
            cards=seen,
            folded=hand.folded[p],
            reached_showdown=reached,
            mucked=p in hand.mucked,
            hand=describe(value) if value is not None else None,
            best=best,
            revealed=shown,
            value=values[value] if value is not None else None,
        ))
    pots = tuple(
        PotRecord(
            e.pot, e.amount, tuple(seats[w] for w in e.winners), e.shares,
            None if e.value is None else describe(e.value),
            None if e.value is None else values.get(e.value),
        )
        for e in hand.events
        if type(e) is PotAwarded
    )
    # events_for(hand, None) of a complete hand, by seat; a card shown after the hand is seen
    events = tuple(
        to_seats(e if getattr(e, "player", None) in revealed or (
            showed and type(e) is HoleDealt and e.card in showed.get(e.player, ())
        ) else for_viewer(e, None), seats)
        for e in hand.events
        if type(e) is not HandEnded
    )
    played = getattr(hand, "game", None)  # a core Hand's and a stored hand's Game
    info = game_info(played) if played is not None else None
    return HandRecord(number, game, button, tuple(board), tuple(people), pots, events, info)

