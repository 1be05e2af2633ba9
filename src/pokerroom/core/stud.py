"""Seven Card Stud helpers: who brings in, who opens, and the showing-hand ranking.

>>> from pokerroom.core.cards import parse_cards
>>> bring_in_player([parse_cards('2h'), parse_cards('2c'), parse_cards('Ac')])  # S4, case 38
1
>>> board_rank(parse_cards('KsKd')) > board_rank(parse_cards('AsQd'))   # a pair beats ace high
True
>>> opener([parse_cards('Kh9d'), parse_cards('Ks9c')], [True, True])   # S5: tie to the left
0
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from pokerroom.core.cards import Card

# Showing-hand categories (S5, case 42): straights and flushes showing do not count.
HIGH, PAIR, TWO_PAIR, TRIPS, QUADS = 0, 1, 2, 3, 4


def board_rank(up: Sequence[Card]) -> tuple[int, ...]:
    """A comparable strength for 1-4 up cards: (category, ranks that matter, high to low).

    Quads, then trips, two pair, one pair, high cards; suits never count here.
    """
    counts = [0] * 13
    for c in up:
        counts[c >> 2] += 1
    groups = sorted(((k, r) for r, k in enumerate(counts) if k), reverse=True)
    top = groups[0][0] if groups else 0
    pairs = sum(1 for k, _ in groups if k == 2)
    if top == 4:
        category = QUADS
    elif top == 3:
        category = TRIPS
    elif pairs >= 2:
        category = TWO_PAIR
    elif top == 2:
        category = PAIR
    else:
        category = HIGH
    return (category, *(r for _, r in groups))


def bring_in_player(up_cards: Sequence[Sequence[Card]]) -> int:
    """The player with the lowest up card (S4): by rank, ace high, then by suit with
    clubs < diamonds < hearts < spades, which is simply the lowest card index."""
    lowest = min(range(len(up_cards)), key=lambda p: up_cards[p][0])
    return lowest


def opener(up_cards: Sequence[Sequence[Card]], live: Sequence[bool]) -> int:
    """The live player with the best showing hand; ties go to the player nearest the
    dealer's left, the lowest index (S5, case 42)."""
    best, best_rank = -1, cast("tuple[int, ...]", (-1,))
    for p, up in enumerate(up_cards):
        if live[p]:
            r = board_rank(up)
            if r > best_rank:
                best, best_rank = p, r
    return best


def has_open_pair(up_cards: Sequence[Sequence[Card]], live: Sequence[bool]) -> bool:
    """Whether a live player shows a pair (fourth street, S6/D8)."""
    return any(live[p] and len({c >> 2 for c in up}) < len(up) for p, up in enumerate(up_cards))


def odd_chip_order(winners: Sequence[int], top_cards: Sequence[Card]) -> list[int]:
    """Winners ordered for odd chips in stud (D5, case 45, TDA 20-B): the one whose five
    cards hold the highest card by suit first; ``top_cards`` is that card for each."""
    top = dict(zip(winners, top_cards, strict=True))
    return sorted(winners, key=lambda p: -top[p])
