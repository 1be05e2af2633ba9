"""Cards: value objects that parse and print themselves, and a deck the caller orders.

A card is an ``int`` from 0 to 51: ``4 * rank + suit`` with rank 0 = deuce ... 12 = ace
and suit 0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades (the scheme phevaluator uses).

>>> Card('As')
Card('As')
>>> int(Card('As')), Card('2c') == 0
(51, True)
>>> parse_cards('Ac Kd'), parse_cards('AcKd')
((Card('Ac'), Card('Kd')), (Card('Ac'), Card('Kd')))
>>> format_cards(parse_cards('Td9d'))
'Td9d'
>>> Card('1x')
Traceback (most recent call last):
...
pokerroom.core.cards.CardError: bad card '1x': rank must be one of 23456789TJQKA, suit one of cdhs

The core never shuffles: a hand is given a deck order. ``seeded_deck`` is a helper
for tests and simulations that want a reproducible order; the room shuffles with
``secrets`` in its shell.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from operator import itemgetter as _pick
from typing import Final, cast

RANKS: Final = "23456789TJQKA"
SUITS: Final = "cdhs"
RANK_NAMES: Final = (
    "deuce", "trey", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS: Final = "♣♦♥♠"


class CardError(ValueError):
    """A card, or a list of cards, could not be parsed or is not allowed here."""


class Card(int):
    """One of the 52 cards, an int 0..51 that prints as 'As'.

    Use ``Card('As')`` or ``Card(51)``; both give the same shared instance.
    """

    __slots__ = ()

    def __new__(cls, value: str | int) -> Card:
        if isinstance(value, Card):
            return value
        if isinstance(value, str):
            return _parse_one(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 52:
            return _CARDS[value]
        raise CardError(f"bad card {value!r}: expected a string like 'As' or an int 0..51")

    @property
    def rank(self) -> int:
        """0 = deuce ... 12 = ace."""
        return int(self) >> 2

    @property
    def suit(self) -> int:
        """0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades."""
        return int(self) & 3

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Card('{_TEXT[self]}')"

    def __format__(self, spec: str) -> str:
        return format(_TEXT[self], spec)

    def pretty(self) -> str:
        """The card with a suit symbol: 'A♠'."""
        return RANKS[self.rank] + SUIT_SYMBOLS[self.suit]


_TEXT: Final = tuple(RANKS[i >> 2] + SUITS[i & 3] for i in range(52))
_CARDS: Final[tuple[Card, ...]] = tuple(int.__new__(Card, i) for i in range(52))
_BY_TEXT: Final = {t: _CARDS[i] for i, t in enumerate(_TEXT)}
FULL_DECK: Final[tuple[Card, ...]] = _CARDS
_VALID: Final = frozenset(range(52))
_INT_TYPES: Final = frozenset((Card, int))


def _parse_one(text: str) -> Card:
    t = text.strip()
    if len(t) == 2:
        card = _BY_TEXT.get(t[0].upper() + t[1].lower())
        if card is not None:
            return card
    raise CardError(
        f"bad card {text!r}: rank must be one of {RANKS}, suit one of {SUITS}"
    )


def parse_cards(text: str | Iterable[str | int]) -> tuple[Card, ...]:
    """Parse 'Ac Kd', 'AcKd', 'Ac,Kd' or an iterable of cards; reject duplicates."""
    if not isinstance(text, str) and not hasattr(text, "__iter__"):
        raise CardError(f"cannot read cards from {text!r}: expected a string like 'AcKd' or a list of cards")
    if isinstance(text, str):
        compact = "".join(text.replace(",", " ").split())
        if len(compact) % 2:
            raise CardError(f"bad cards {text!r}: each card is two characters like 'As'")
        cards = tuple(_parse_one(compact[i : i + 2]) for i in range(0, len(compact), 2))
    else:
        cards = tuple(Card(c) for c in text)
    if len(set(cards)) != len(cards):
        raise CardError(f"bad cards {format_cards(cards)!r}: a card appears twice")
    return cards


def format_cards(cards: Iterable[int], sep: str = "") -> str:
    """'AcKd' (or with a separator)."""
    return sep.join(_TEXT[c] for c in cards)


def check_deck(deck: Sequence[int | str], need: int) -> tuple[Card, ...]:
    """Validate a caller-ordered deck: distinct real cards, at least ``need`` of them."""
    try:
        raw = tuple(deck)
        fine = _INT_TYPES.issuperset(map(type, raw)) and _VALID.issuperset(raw)
    except TypeError:
        raise CardError(f"bad deck {deck!r}: expected a sequence of cards") from None
    # not plain card numbers: convert, which raises CardError naming a bad card
    cards = cast("tuple[int, ...]", raw) if fine else tuple(Card(c) for c in raw)
    if len(set(cards)) != len(cards):
        raise CardError("bad deck: a card appears twice")
    if len(cards) < need:
        raise CardError(f"bad deck: {len(cards)} cards, this hand may need {need}")
    return _pick(*cards)(_CARDS) if len(cards) > 1 else (_CARDS[cards[0]],)


def stacked_deck(top: str | Iterable[str | int]) -> tuple[Card, ...]:
    """A full deck with ``top`` on top in that order and the other cards after it, in
    card order: a rigged deal for tests and examples.

    >>> format_cards(stacked_deck('AsKs')[:4])
    'AsKs2c2d'
    """
    first = parse_cards(top)
    if len(set(first)) != len(first):
        raise CardError("bad deck: a card appears twice")
    rest = [c for c in _CARDS if c not in set(first)]
    return first + tuple(rest)


def seeded_deck(seed: int | str | None = None) -> tuple[Card, ...]:
    """A reproducible deck order for tests and simulations (never for real play)."""
    order = list(_CARDS)
    random.Random(seed).shuffle(order)
    return tuple(order)
