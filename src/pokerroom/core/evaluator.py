"""High-hand evaluator: the strength of the best five cards out of 5, 6 or 7 (rules C2, C3).

A strength is a dense ``int`` from 1 (7-5-4-3-2 offsuit, the worst hand) to 7462 (a royal
flush): higher is stronger and equal values tie. Suits never break a tie, the ace plays
high and also low in the wheel 5-4-3-2-A, and only the best five cards count.

>>> evaluate('AsKsQsJsTs'), evaluate(['7s', '5d', '4c', '3h', '2d'])
(7462, 1)
>>> v = evaluate('Ah Kd 9c 9s 4d 4h 2c')
>>> describe(v), category(v), CATEGORY_NAMES[category(v)]
('Two pair, nines and fours', 2, 'Two pair')
>>> best_five('Ah Kd 9c 9s 4d 4h 2c')
(Card('9s'), Card('9c'), Card('4h'), Card('4d'), Card('Ah'))
>>> hand = '2c3d4h5sKc' + 'Ad7s'
>>> describe(evaluate(hand)), best_five(hand)
('Straight, five high', (Card('5s'), Card('4h'), Card('3d'), Card('2c'), Card('Ad')))
>>> evaluate('2c3d4h5sKc6hQc') > evaluate(hand)
True
>>> describe(evaluate('KsKhKdKc7h'))
'Four of a kind, kings'
>>> evaluate('AsKd')
Traceback (most recent call last):
...
pokerroom.core.evaluator.EvaluatorError: a hand has 5, 6 or 7 cards, got 2: 'AsKd'

``evaluate_ints`` is the unchecked fast path the engine uses at showdown: 5-7 distinct ints
0..51 (``Card`` objects are ints too). It sums one precomputed key per card; the key holds
the card's rank in base 5 (so the sum identifies the multiset of ranks) and, in the low 16
bits, four 4-bit suit counters that start at 3 so that bit 3 of a counter is set exactly
when that suit has five or more cards. Without a flush the rank part indexes a dict of
73,775 rank multisets; with one, the 13-bit rank mask of the flush suit indexes a list. The
tables are built by this module at first use, in a fraction of a second: every 5-card
class is classified directly, and a 6- or 7-card multiset (or mask) takes the best value of
the multisets (or masks) one card smaller.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from itertools import combinations, combinations_with_replacement
from math import comb
from types import FunctionType
from typing import Any, Final, cast

from pokerroom.core.cards import RANK_NAMES, RANKS, SUITS, Card, CardError, format_cards, parse_cards

__all__ = [
    "CATEGORY_NAMES",
    "FLUSH",
    "FOUR_OF_A_KIND",
    "FULL_HOUSE",
    "HIGH_CARD",
    "MAX_VALUE",
    "ONE_PAIR",
    "STRAIGHT",
    "STRAIGHT_FLUSH",
    "THREE_OF_A_KIND",
    "TWO_PAIR",
    "EvaluatorError",
    "best_five",
    "category",
    "describe",
    "evaluate",
    "evaluate_ints",
]

HIGH_CARD: Final = 0
ONE_PAIR: Final = 1
TWO_PAIR: Final = 2
THREE_OF_A_KIND: Final = 3
STRAIGHT: Final = 4
FLUSH: Final = 5
FULL_HOUSE: Final = 6
FOUR_OF_A_KIND: Final = 7
STRAIGHT_FLUSH: Final = 8
CATEGORY_NAMES: Final = (
    "High card", "One pair", "Two pair", "Three of a kind", "Straight", "Flush",
    "Full house", "Four of a kind", "Straight flush",
)

_ACE: Final = 12
_FIVE: Final = 3
_DISTINCT: Final = comb(13, 5) - 10  # five distinct ranks that are not a straight
_CATEGORY_SIZES: Final = (
    _DISTINCT, 13 * comb(12, 3), 11 * comb(13, 2), 13 * comb(12, 2), 10, _DISTINCT,
    13 * 12, 13 * 12, 10,
)
_CATEGORY_FIRST: Final = tuple(1 + sum(_CATEGORY_SIZES[:i]) for i in range(9))
MAX_VALUE: Final = sum(_CATEGORY_SIZES)  # 7462, the royal flush

_SHAPE_CATEGORY: Final = {
    (2, 1, 1, 1): ONE_PAIR,
    (2, 2, 1): TWO_PAIR,
    (3, 1, 1): THREE_OF_A_KIND,
    (3, 2): FULL_HOUSE,
    (4, 1): FOUR_OF_A_KIND,
}

# Per-card keys: rank count in base 5 above bit 16, a suit counter in each low nibble.
_SUIT_BITS: Final = 16
_SUIT_START: Final = 0x3333
_FLUSH_BITS: Final = 0x8888
_POW5: Final = tuple(5**r for r in range(13))
_KEYS: Final = tuple((_POW5[c >> 2] << _SUIT_BITS) + (1 << 4 * (c & 3)) for c in range(52))
_key_of: Final = _KEYS.__getitem__

# Filled in place by _build_tables() at first use.
_RANK_VALUES: Final[dict[int, int]] = {}  # rank part of the key sum -> value (no flush)
_FLUSH_VALUES: Final[list[int]] = []  # 13-bit rank mask of the flush suit -> value
_CLASSES: Final[list[tuple[int, ...]]] = []  # value -> (category, ranks by importance)


class EvaluatorError(ValueError):
    """The cards given cannot be evaluated: wrong count, a duplicate or a bad card."""


def evaluate_ints(cards: Sequence[int]) -> int:
    """Strength of 5-7 distinct cards given as ints 0..51; no validation (fast path)."""
    if _COMPILED:  # a loop over native ints beats the C builtins once compiled
        k = _SUIT_START
        for c in cards:
            k += _KEY_LIST[c]
    else:
        k = sum(map(_key_of, cards), _SUIT_START)
    if k & _FLUSH_BITS:
        return _flush_value(cards, k)
    try:
        return _RANK_VALUES[k >> _SUIT_BITS]
    except KeyError:
        _build_tables()
        return _RANK_VALUES[k >> _SUIT_BITS]


def _flush_value(cards: Sequence[int], k: int) -> int:
    if not _FLUSH_VALUES:
        _build_tables()
    suit = ((k & _FLUSH_BITS).bit_length() >> 2) - 1
    mask = 0
    for c in cards:
        if c & 3 == suit:
            mask |= 1 << (c >> 2)
    return _FLUSH_VALUES[mask]


# evaluate() checks a tuple or list of Cards or plain ints on a fast path and gives every
# other input, and every input the fast path declines, to the full parse (_checked), so the
# values and the errors are those of the parse. The fast path takes the hand when it has 5 to
# 7 elements, each of type Card or int (not bool, float or another int subclass), each in
# 0..51, all distinct. Two forms of the same check:
# - compiled by mypyc (_COMPILED): one loop over native ints, a 52-bit set of seen cards;
# - interpreted: the same loop would be slow, so it is left to C builtins. A checked key is a
#   card's key shifted above a 52-bit field holding the card's own bit; summing the checked
#   keys of n cards sets n bits of that field exactly when the n cards are distinct (a
#   repeat carries). The dict is keyed by the shared Card instances (found by identity) and
#   has no other keys, so a number outside 0..51 raises KeyError; types are checked first.
_FAST_CONTAINERS: Final = frozenset((tuple, list))
_FAST_TYPES: Final = frozenset((Card, int))
_SEEN_BITS: Final = 52
_SEEN: Final = (1 << _SEEN_BITS) - 1
_CHECKED_START: Final = _SUIT_START << _SEEN_BITS
_CHECKED_KEYS: Final[dict[int, int]] = {Card(c): (_KEYS[c] << _SEEN_BITS) | (1 << c) for c in range(52)}
_checked_key_of: Final = _CHECKED_KEYS.__getitem__
_COMPILED: Final = not isinstance(_flush_value, FunctionType)  # mypyc functions are not Python's
_CARD_TYPE: Final[type[Card]] = Card  # as Finals, mypyc keeps these in C statics, typed
_KEY_LIST: Final[list[int]] = list(_KEYS)
# Card strings take the same fast paths through a dict of every spelling the parse accepts
# without stripping ('As', 'as', 'AS', 'aS'): parsing one card per call was most of the time
# of evaluate() on strings. Anything else (spaces, a bad card, a repeat) goes to the parse.
_TEXT_CARDS: Final[dict[str, int]] = {
    r + s: 4 * i + j
    for i, rank in enumerate(RANKS) for r in sorted({rank, rank.lower()})
    for j, suit in enumerate(SUITS) for s in (suit, suit.upper())
}
_CHECKED_TEXT_KEYS: Final[dict[str, int]] = {t: _CHECKED_KEYS[Card(c)] for t, c in _TEXT_CARDS.items()}
_checked_text_key_of: Final = _CHECKED_TEXT_KEYS.__getitem__


def evaluate(cards: str | Iterable[str | int]) -> int:
    """Strength 1..7462 of 5, 6 or 7 cards: ``Card``s, ints 0..51, 'As' strings or 'AsKd..'.

    Raises ``EvaluatorError`` for a wrong count, a duplicate or a bad card.
    """
    if type(cards) in _FAST_CONTAINERS:
        if _COMPILED:
            hand = tuple(cards)
            value = _loop_value(hand) or _text_value(hand)
            if value:
                return value
        elif _FAST_TYPES.issuperset(map(type, cards)):
            value = _sum_value(cards, _checked_key_of)  # type: ignore[arg-type]  # ints only
            if value:
                return value
        else:
            value = _sum_value(cards, _checked_text_key_of)  # type: ignore[arg-type]
            if value:
                return value
    elif type(cards) is str and 10 <= len(cards) <= 14:  # 'AsKd...': two characters a card
        pairs = tuple([cards[i : i + 2] for i in range(0, len(cards), 2)])
        value = _text_value(pairs) if _COMPILED else _sum_value(pairs, _checked_text_key_of)
        if value:
            return value
    return evaluate_ints(_checked(cards))


def _sum_value(hand: Sequence[Any], checked_key_of: Callable[[Any], int]) -> int:
    """The value of 5-7 distinct cards by their checked keys, else 0 (evaluate's interpreted
    fast path: C builtins do the loop; a key lookup fails for anything but a card)."""
    n = len(hand)
    try:
        k = sum(map(checked_key_of, hand), _CHECKED_START)  # KeyError: not a card
        if 5 <= n <= 7 and (k & _SEEN).bit_count() == n:  # fewer bits: a repeat
            k >>= _SEEN_BITS
            if k & _FLUSH_BITS:
                if checked_key_of is not _checked_key_of:  # strings: their card numbers
                    hand = [_TEXT_CARDS[c] for c in hand]
                return _flush_value(hand, k)
            return _RANK_VALUES[k >> _SUIT_BITS]  # KeyError: tables not built yet
    except (KeyError, TypeError):  # TypeError: an unhashable element
        pass
    return 0


def _loop_value(hand: tuple[Any, ...]) -> int:
    """The value of 5-7 distinct Cards or ints 0..51, else 0 (evaluate's compiled fast path)."""
    n = len(hand)
    if n < 5 or n > 7:
        return 0
    seen = 0
    k = _SUIT_START
    for c in hand:
        if type(c) is not _CARD_TYPE and type(c) is not int:
            return 0
        i: int = c
        if i < 0 or i > 51:
            return 0
        bit = 1 << i
        if seen & bit:
            return 0
        seen |= bit
        k += _KEY_LIST[i]
    if k & _FLUSH_BITS:
        return _flush_value(hand, k)
    return _RANK_VALUES.get(k >> _SUIT_BITS, 0)  # 0: tables not built yet


def _text_value(hand: tuple[Any, ...]) -> int:
    """The value of 5-7 distinct card strings like 'As', else 0 (the compiled fast path)."""
    n = len(hand)
    if n < 5 or n > 7:
        return 0
    seen = 0
    k = _SUIT_START
    for c in hand:
        if type(c) is not str:
            return 0
        i = _TEXT_CARDS.get(c, -1)
        if i < 0:
            return 0
        bit = 1 << i
        if seen & bit:
            return 0
        seen |= bit
        k += _KEY_LIST[i]
    if k & _FLUSH_BITS:
        return _flush_value([_TEXT_CARDS[c] for c in hand], k)
    return _RANK_VALUES.get(k >> _SUIT_BITS, 0)  # 0: tables not built yet


def _checked(cards: str | Iterable[str | int]) -> tuple[Card, ...]:
    try:
        hand = parse_cards(cards)
    except CardError as exc:
        raise EvaluatorError(str(exc)) from None
    except TypeError:
        raise EvaluatorError(f"cannot read cards from {cards!r}") from None
    if not 5 <= len(hand) <= 7:
        raise EvaluatorError(
            f"a hand has 5, 6 or 7 cards, got {len(hand)}: {format_cards(hand)!r}"
        )
    return hand


def category(value: object) -> int:
    """0 = high card ... 8 = straight flush (index into ``CATEGORY_NAMES``)."""
    if type(value) is not int or not 1 <= value <= MAX_VALUE:
        raise EvaluatorError(f"bad hand value {value!r}: expected an int 1..{MAX_VALUE}")
    return bisect_right(_CATEGORY_FIRST, value) - 1


def _plural(rank: int) -> str:
    name = RANK_NAMES[rank]
    return name + ("es" if name.endswith("x") else "s")


def describe(value: object) -> str:
    """English name of a hand value: 'Full house, kings full of sevens', 'Royal flush'."""
    cat = category(value)
    value = cast(int, value)
    if value == MAX_VALUE:
        return "Royal flush"
    if not _CLASSES:
        _build_tables()
    ranks = _CLASSES[value][1:]
    name = CATEGORY_NAMES[cat]
    if cat == HIGH_CARD:
        return f"{name}, {RANK_NAMES[ranks[0]]}"
    if cat in (STRAIGHT, FLUSH, STRAIGHT_FLUSH):
        return f"{name}, {RANK_NAMES[ranks[0]]} high"
    if cat == TWO_PAIR:
        return f"{name}, {_plural(ranks[0])} and {_plural(ranks[1])}"
    if cat == FULL_HOUSE:
        return f"{name}, {_plural(ranks[0])} full of {_plural(ranks[1])}"
    return f"{name}, {_plural(ranks[0])}"  # one pair, trips, quads


def best_five(cards: str | Iterable[str | int]) -> tuple[Card, ...]:
    """The five cards that make the best hand, most important first.

    Groups come first (quads, trips, pairs, larger groups first), then kickers high to
    low; a wheel is ordered 5-4-3-2-A. When several choices give the same value, one of
    them is returned.
    """
    hand = _checked(cards)
    target = evaluate_ints(hand)
    five = next(c for c in combinations(hand, 5) if evaluate_ints(c) == target)
    counts = [0] * 13
    for c in five:
        counts[c.rank] += 1
    ordered = sorted(five, key=lambda c: (counts[c.rank], c.rank, c.suit), reverse=True)
    wheel = ordered[0].rank == _ACE and ordered[1].rank == _FIVE
    if wheel and category(target) in (STRAIGHT, STRAIGHT_FLUSH):
        ordered.append(ordered.pop(0))  # the ace of a wheel plays low
    return tuple(ordered)


# --- table generation -------------------------------------------------------------------


def _straight_high(ranks: tuple[int, ...]) -> int:
    """High card of five distinct ranks (given high to low) if they are a straight, else -1."""
    if ranks[0] - ranks[4] == 4:
        return ranks[0]
    if ranks == (_ACE, 3, 2, 1, 0):
        return _FIVE
    return -1


def _all_classes() -> list[tuple[int, ...]]:
    """The 7462 classes of five-card hands as (category, ranks by importance), weakest first."""
    down = range(12, -1, -1)
    out: list[tuple[int, ...]] = []
    for five in combinations(down, 5):
        high = _straight_high(five)
        if high < 0:
            out += [(HIGH_CARD, *five), (FLUSH, *five)]
        else:
            out += [(STRAIGHT, high), (STRAIGHT_FLUSH, high)]
    for a in down:
        others = [r for r in down if r != a]
        out += [(ONE_PAIR, a, *kick) for kick in combinations(others, 3)]
        out += [(THREE_OF_A_KIND, a, *kick) for kick in combinations(others, 2)]
        out += [(FULL_HOUSE, a, b) for b in others]
        out += [(FOUR_OF_A_KIND, a, b) for b in others]
    for hi, lo in combinations(down, 2):
        out += [(TWO_PAIR, hi, lo, k) for k in down if k != hi and k != lo]
    out.sort()
    return out


def _class_of(ranks: Sequence[int], flush: bool) -> tuple[int, ...]:
    """Class of one five-card hand from its ranks and whether it is a flush."""
    groups = sorted(((ranks.count(r), r) for r in set(ranks)), reverse=True)
    shape = tuple(n for n, _ in groups)
    order = tuple(r for _, r in groups)
    if len(order) < 5:
        return (_SHAPE_CATEGORY[shape], *order)
    high = _straight_high(order)
    if high >= 0:
        return (STRAIGHT_FLUSH if flush else STRAIGHT, high)
    return (FLUSH if flush else HIGH_CARD, *order)


def _build_tables() -> None:
    if _CLASSES:
        return
    classes = _all_classes()
    value_of = {c: v for v, c in enumerate(classes, 1)}

    flush = [0] * (1 << 13)
    for mask in range(1 << 13):  # a mask is visited after all its sub-masks
        n = mask.bit_count()
        if n == 5:
            five = tuple(r for r in range(12, -1, -1) if mask >> r & 1)
            flush[mask] = value_of[_class_of(five, True)]
        elif 5 < n <= 7:
            flush[mask] = max(flush[mask & ~(1 << r)] for r in range(13) if mask >> r & 1)

    layer: dict[int, int] = {}
    for multiset in combinations_with_replacement(range(13), 5):
        if multiset[0] != multiset[4]:  # sorted, so this skips five of a kind
            key = sum(_POW5[r] for r in multiset)
            layer[key] = value_of[_class_of(multiset, False)]
    ranks = dict(layer)
    for _size in (6, 7):  # the best of n cards is the best of its (n-1)-card subsets
        bigger: dict[int, int] = {}
        for key, value in layer.items():
            for p in _POW5:
                if key // p % 5 < 4:
                    k = key + p
                    if bigger.get(k, 0) < value:
                        bigger[k] = value
        ranks.update(bigger)
        layer = bigger

    _FLUSH_VALUES[:] = flush
    _RANK_VALUES.update(ranks)
    _CLASSES[:] = [(), *classes]  # last: marks the tables as complete
