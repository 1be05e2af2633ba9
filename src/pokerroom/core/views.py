"""What one player, or an observer, may see of a hand (R2, D6).

A player sees their own hole cards; everyone sees the board, bets, stacks, stud up cards
and the hands turned face up. Hands that reached the showdown, shown or mucked, are revealed to
everyone once the hand is over (D6: "show previous hand"); hands folded earlier never
are, and undealt cards are never shown (no rabbit hunting, case 49).

>>> from pokerroom.core.cards import parse_cards
>>> from pokerroom.core.hand import Hand
>>> from pokerroom.core.structures import Game
>>> hand = Hand(Game.no_limit(1, 2), [100, 100], parse_cards('AsKs 2c7d QhJh 2h3h TsQs 8c 4h 9c 5d'))
>>> view(hand, 0).seats[0].cards, view(hand, 0).seats[1].cards
((Card('As'), Card('2c')), (None, None))
>>> view(hand, None).seats[0].cards
(None, None)
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerroom.core.cards import Card
from pokerroom.core.events import Event, for_viewer
from pokerroom.core.hand import COMPLETE, Hand, IllegalAction, Legal
from pokerroom.core.pots import Pot


@dataclass(frozen=True, slots=True)
class SeatView:
    player: int
    stack: int
    bet: int
    folded: bool
    all_in: bool
    cards: tuple[Card | None, ...]
    shown: bool


@dataclass(frozen=True, slots=True)
class HandView:
    viewer: int | None
    street: int
    phase: str
    board: tuple[Card, ...]
    pot: int
    pots: tuple[Pot, ...]
    seats: tuple[SeatView, ...]
    actor: int | None
    legal: Legal | None
    events: tuple[Event, ...]


def visible_holes(hand: Hand, viewer: int | None) -> set[int]:
    """The players whose hole cards ``viewer`` may see now."""
    visible = set(hand.shown)
    if viewer is not None:
        visible.add(viewer)
    if hand.phase == COMPLETE:
        visible |= hand.reached_showdown
    return visible


def _cards(hand: Hand, p: int, visible: bool) -> tuple[Card | None, ...]:
    """Player p's cards in deal order; stud up cards are seen by everyone (R2)."""
    if visible:
        return tuple(hand.holes[p])
    up = hand.face_up[p]
    return tuple(c if up and up[k] else None for k, c in enumerate(hand.holes[p]))


def events_for(hand: Hand, viewer: int | None) -> tuple[Event, ...]:
    """The hand's events as ``viewer`` may see them (None: an observer)."""
    if hand.phase == COMPLETE:
        revealed = hand.reached_showdown | ({viewer} if viewer is not None else set())
        return tuple(
            e if getattr(e, "player", None) in revealed else for_viewer(e, viewer)
            for e in hand.events
        )
    return tuple(for_viewer(e, viewer) for e in hand.events)


def view(hand: Hand, viewer: int | None) -> HandView:
    """The hand projected for one player (an index) or an observer (None)."""
    if viewer is not None and (type(viewer) is not int or not 0 <= viewer < hand.n):
        raise IllegalAction("bad_viewer", f"viewer {viewer!r} is not a player of this hand")
    visible = visible_holes(hand, viewer)
    seats = tuple(
        SeatView(
            player=p,
            stack=hand.stacks[p],
            bet=hand.bets[p],
            folded=hand.folded[p],
            all_in=hand.stacks[p] == 0 and not hand.folded[p],
            cards=_cards(hand, p, p in visible),
            shown=p in hand.shown,
        )
        for p in range(hand.n)
    )
    legal = hand.legal_actions() if viewer is not None and viewer == hand.actor else None
    return HandView(
        viewer=viewer,
        street=hand.street,
        phase=hand.phase,
        board=tuple(hand.board),
        pot=hand.pot,
        pots=tuple(hand.pots()),
        seats=seats,
        actor=hand.actor,
        legal=legal,
        events=events_for(hand, viewer),
    )
