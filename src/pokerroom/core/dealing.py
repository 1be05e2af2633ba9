"""Dealing a street as its ``Street`` describes it, from the deck in the caller's order.

The first layer of the hand (``Dealing`` <- ``Showdown`` <- ``Betting`` <- ``Hand``): the
cards. A street burns one card if it says so, deals its hole cards one round at a time to
each player still in from the dealer's left (down rounds first: H1, S3, S5, S8), then its
community cards. When the stub cannot give every player a card, the card shortage rule
applies (D4, S9, case 43): the burned cards are shuffled into the stub, and if even that
is short, one community card is dealt face up for everyone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, cast

from pokerroom.core.cards import FULL_DECK, Card, check_deck
from pokerroom.core.events import BoardDealt, Event, HoleDealt, Reshuffled
from pokerroom.core.structures import Game, GameError
from pokerroom.core.variants import Street

# Events are named tuples; their generated constructor is Python code, so the hot paths
# build them with tuple.__new__ directly, fields in declaration order (a test checks that
# every event has exactly its fields).
_NEW = tuple.__new__

# Every HoleDealt of the first ten players made once, shared by every hand (an event is an
# immutable value): a hand deals a dozen or more, and making one is a Python-level call.
_DEALT_SEATS: Final = 10
_DEALT: Final[tuple[HoleDealt, ...]] = tuple(
    _NEW(HoleDealt, (p, card, up)) for p in range(_DEALT_SEATS) for card in FULL_DECK for up in (False, True)
)


class Dealing:
    """The cards of a hand: the deck, the stub, the hole cards and the board."""

    game: Game
    n: int
    deck: tuple[Card, ...]
    street: int
    folded: list[bool]
    holes: list[list[Card]]
    face_up: list[list[bool]]  # which hole cards are up; empty lists if none ever are
    _marks_up: bool  # the variant deals up cards: face_up is kept
    board: list[Card]
    events: list[Event]
    _streets: tuple[Street, ...]
    _stock: tuple[Card, ...]  # the stub deals from here: the deck, or the deck reshuffled
    _pos: int  # next card of the stub
    _burned: list[Card]
    _reshuffle: Callable[[tuple[Card, ...]], Sequence[int]] | None

    def _deal_street(self) -> None:
        s = self._streets[self.street]
        rounds = s.down + s.up
        if not rounds:  # community cards only: the deck was checked to hold them
            pos = self._pos
            if s.burn:
                self._burned.append(self._stock[pos])
                pos += 1
            cards = self._stock[pos : pos + s.board]
            self._pos = pos + s.board
            self.board.extend(cards)
            self.events.append(_NEW(BoardDealt, (self.street, cards)))
            return
        folded = self.folded
        live = [p for p in range(self.n) if not folded[p]]
        need = s.burn + rounds * len(live) + s.board
        if len(self._stock) - self._pos < need and not self._short_deal(need):
            return
        stock, pos, ev, holes, face_up = self._stock, self._pos, self.events, self.holes, self.face_up
        marks_up = self._marks_up
        if s.burn:
            self._burned.append(stock[pos])
            pos += 1
        for r in range(rounds):
            up = r >= s.down
            for p in live:
                card = stock[pos]
                pos += 1
                holes[p].append(card)
                if marks_up:
                    face_up[p].append(up)
                if p < _DEALT_SEATS:
                    ev.append(_DEALT[2 * (p * 52 + card) + up])
                else:
                    ev.append(_NEW(HoleDealt, (p, card, up)))
        if s.board:
            cards = stock[pos : pos + s.board]
            pos += s.board
            self.board.extend(cards)
            ev.append(_NEW(BoardDealt, (self.street, cards)))
        self._pos = pos

    def _short_deal(self, need: int) -> bool:
        """The card shortage rule (D4): shuffle the burned cards into the stub (folded
        cards are never used again); True if the street can now be dealt as usual, else
        one community card is dealt face up for everyone, after a burn if one is left."""
        stock, pos, ev = self._stock, self._pos, self.events
        pool = stock[pos:] + tuple(self._burned)
        order = pool if self._reshuffle is None else permutation(self._reshuffle(pool), pool)
        self._stock = stock = order
        self._pos = pos = 0
        self._burned = []
        ev.append(_NEW(Reshuffled, (self.street, len(order))))
        if len(stock) >= need:
            return True
        if len(stock) >= 2:
            self._burned.append(stock[pos])
            pos += 1
        card = stock[pos]
        self._pos = pos + 1
        self.board.append(card)
        ev.append(_NEW(BoardDealt, (self.street, (card,))))
        return False

    def _up_cards(self) -> list[list[Card]]:
        return [
            [c for c, up in zip(h, u, strict=True) if up]
            for h, u in zip(self.holes, self.face_up, strict=True)
        ]


_CARD_TYPE = frozenset((Card,))


def checked_deck(deck: Sequence[int], need: int) -> tuple[Card, ...]:
    """The deck as Cards, checked; a deck of distinct Card objects passes as it is."""
    try:
        cards = tuple(deck)
    except TypeError:
        return check_deck(deck, need)  # says what is wrong
    if len(cards) >= need and _CARD_TYPE.issuperset(map(type, cards)) and len(set(cards)) == len(cards):
        return cast("tuple[Card, ...]", cards)
    return check_deck(deck, need)  # converts ints and strings, or says what is wrong


def permutation(order: Sequence[int], pool: tuple[Card, ...]) -> tuple[Card, ...]:
    """The reshuffled stub a caller returned, checked to be the same cards."""
    cards = tuple(Card(c) for c in order)
    if sorted(cards) != sorted(pool):
        raise GameError("the reshuffle must return the same cards in a new order")
    return cards
