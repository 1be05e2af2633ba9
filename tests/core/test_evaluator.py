"""Tests for the high-hand evaluator: rules C2 (ranking) and C3 (best five, cards speak),
RULE-CASES 34-37, and an independent slow reference evaluator written here.

C4 (splitting the pot) belongs to the engine, not to the evaluator.
"""

from __future__ import annotations

import enum
import random
import re
from collections import Counter, namedtuple
from collections.abc import Callable, Sequence
from itertools import combinations, combinations_with_replacement, pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.core.cards import Card, parse_cards
from pokerroom.core.evaluator import (
    CATEGORY_NAMES,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    MAX_VALUE,
    ONE_PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    EvaluatorError,
    _checked,
    _loop_value,
    _text_value,
    best_five,
    category,
    describe,
    evaluate,
    evaluate_ints,
)

# --- an independent, slow reference evaluator ----------------------------------------------


def ref5(cards: Sequence[int]) -> tuple[int, ...]:
    """Classic rank counting for exactly five cards: (category, tie-break ranks...)."""
    ranks = [c // 4 for c in cards]
    by_count = Counter(ranks)
    order = sorted(by_count, key=lambda r: (by_count[r], r), reverse=True)
    pattern = sorted(by_count.values(), reverse=True)
    is_flush = len({c % 4 for c in cards}) == 1
    top = None
    if len(by_count) == 5:
        low_to_high = sorted(ranks)
        if low_to_high[4] - low_to_high[0] == 4:
            top = low_to_high[4]
        elif low_to_high == [0, 1, 2, 3, 12]:  # A-2-3-4-5: the ace plays low
            top = 3
    if top is not None and is_flush:
        return (8, top)
    if pattern == [4, 1]:
        return (7, *order)
    if pattern == [3, 2]:
        return (6, *order)
    if is_flush:
        return (5, *order)
    if top is not None:
        return (4, top)
    if pattern == [3, 1, 1]:
        return (3, *order)
    if pattern == [2, 2, 1]:
        return (2, *order)
    if pattern == [2, 1, 1, 1]:
        return (1, *order)
    return (0, *order)


def ref_best(cards: Sequence[int]) -> tuple[int, ...]:
    """Best of all five-card subsets, by the reference."""
    return max(ref5(five) for five in combinations(cards, 5))


def assert_same_order(pairs: list[tuple[int, tuple[int, ...]]]) -> None:
    """Values and reference tuples order the hands identically.

    Sorting by value and checking neighbours is enough: for every pair of hands,
    value < value' iff ref < ref', and value == value' iff ref == ref'.
    """
    pairs = sorted(pairs)
    for (v1, r1), (v2, r2) in pairwise(pairs):
        if v1 == v2:
            assert r1 == r2, (v1, r1, r2)
        else:
            assert r1 < r2, (v1, r1, v2, r2)


def v(text: str) -> int:
    return evaluate(text)


# --- all five-card hands -------------------------------------------------------------------

HANDS_PER_CLASS = {  # how many of the 2,598,960 hands fall in one value of each category
    HIGH_CARD: 4**5 - 4, ONE_PAIR: 6 * 4**3, TWO_PAIR: 6 * 6 * 4, THREE_OF_A_KIND: 4 * 4 * 4,
    STRAIGHT: 4**5 - 4, FLUSH: 4, FULL_HOUSE: 4 * 6, FOUR_OF_A_KIND: 4, STRAIGHT_FLUSH: 4,
}


def test_all_2598960_five_card_hands_give_7462_values_and_the_known_category_counts() -> None:
    per_value = Counter(map(evaluate_ints, combinations(range(52), 5)))
    assert sum(per_value.values()) == 2_598_960
    assert len(per_value) == 7462
    assert min(per_value) == 1 and max(per_value) == MAX_VALUE == 7462
    per_category: Counter[int] = Counter()
    for value, hands in per_value.items():
        assert hands == HANDS_PER_CLASS[category(value)], describe(value)
        per_category[category(value)] += hands
    assert per_category == {
        STRAIGHT_FLUSH: 40, FOUR_OF_A_KIND: 624, FULL_HOUSE: 3_744, FLUSH: 5_108,
        STRAIGHT: 10_200, THREE_OF_A_KIND: 54_912, TWO_PAIR: 123_552, ONE_PAIR: 1_098_240,
        HIGH_CARD: 1_302_540,
    }


def test_c2_one_hand_per_class_orders_exactly_like_the_reference() -> None:
    """C2: all 7462 classes (each rank multiset, plus flushes), in the reference's order."""
    hands = []
    for multiset in combinations_with_replacement(range(13), 5):
        if Counter(multiset).most_common(1)[0][1] > 4:
            continue
        seen: Counter[int] = Counter()
        hand = []
        for r in multiset:
            hand.append(4 * r + seen[r])
            seen[r] += 1
        if len(seen) == 5:
            hands.append(hand[:])  # all clubs: a flush (or straight flush)
            hand[-1] += 1  # one diamond: not a flush
        hands.append(hand)
    pairs = [(evaluate_ints(h), ref5(h)) for h in hands]
    assert sorted(p[0] for p in pairs) == list(range(1, 7463))
    assert_same_order(pairs)
    for value, ref in pairs:
        assert category(value) == ref[0]


# --- six and seven cards against the reference ----------------------------------------------


def random_hands(n_cards: int, count: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    hands = [rng.sample(range(52), n_cards) for _ in range(count)]
    # plus hands from small decks (few ranks, few suits): many flushes, quads, straight flushes
    for _ in range(count // 4):
        ranks = rng.sample(range(13), rng.randint(3, 7))
        suits = rng.sample(range(4), rng.randint(1, 4))
        deck = [4 * r + s for r in ranks for s in suits]
        if len(deck) >= n_cards:
            hands.append(rng.sample(deck, n_cards))
    return hands


@pytest.mark.parametrize("n_cards", [5, 6, 7])
def test_c3_best_five_of_n_equals_max_over_subsets_and_orders_like_the_reference(
    n_cards: int,
) -> None:
    """C3: the value of 6 or 7 cards is that of their best five; order agrees with C2 ref."""
    hands = random_hands(n_cards, 20_000, seed=1000 + n_cards)
    pairs = []
    for hand in hands:
        value = evaluate_ints(hand)
        assert value == max(evaluate_ints(five) for five in combinations(hand, 5))
        pairs.append((value, ref_best(hand)))
    assert_same_order(pairs)
    assert {category(v) for v, _ in pairs} == set(range(9))


def test_c3_random_pairs_of_seven_card_hands_compare_like_the_reference() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        a, b = rng.sample(range(52), 7), rng.sample(range(52), 7)
        va, vb, ra, rb = evaluate_ints(a), evaluate_ints(b), ref_best(a), ref_best(b)
        assert (va > vb, va == vb, va < vb) == (ra > rb, ra == rb, ra < rb)


# --- C2: ranking order ---------------------------------------------------------------------


def test_c2_categories_rank_high_to_low() -> None:
    ladder = [
        "7s5d4c3h2d",  # high card
        "2s2d3c4h5d",  # pair (no straight with a pair)
        "2s2d3c3h4d",  # two pair
        "2s2d2c3h4d",  # trips
        "As2d3c4h5d",  # wheel: the lowest straight
        "2s3d4c5h6d",
        "TsJdQcKhAd",  # ace-high straight
        "2s3s4s5s7s",  # the lowest flush
        "AsKsQsJs9s",
        "2s2d2c3h3d",  # full house
        "AsAdAcKhKd",
        "2s2d2c2h3d",  # quads
        "AsAdAcAhKd",
        "As2s3s4s5s",  # steel wheel: the lowest straight flush
        "9sTsJsQsKs",
        "TsJsQsKsAs",  # royal flush
    ]
    values = [v(h) for h in ladder]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert values[0] == 1 and values[-1] == MAX_VALUE
    assert [CATEGORY_NAMES[category(x)] for x in values[::2]] == [
        "High card", "Two pair", "Straight", "Straight", "Flush", "Full house",
        "Four of a kind", "Straight flush",
    ]


def test_c2_ace_is_high_and_low_only_in_the_wheel() -> None:
    assert v("AsKd9c5h3d") > v("KsQdJc9h8d")  # ace high beats king high
    assert v("AsAd9c5h3d") > v("KsKdQcJh9d")
    assert category(v("As2d3c4h5d")) == STRAIGHT
    assert v("As2d3c4h5d") < v("2s3d4c5h6d")  # the wheel is five high
    assert category(v("KcAd2c3d4h")) == HIGH_CARD  # K-A-2-3-4 does not wrap around
    assert category(v("QcKdAc2d3h")) == HIGH_CARD


def test_c2_suits_never_break_ties() -> None:
    assert v("AsKsQsJs9s") == v("AhKhQhJh9h")
    assert v("AsKdQcJh9s") == v("AhKcQdJs9d")
    assert v("8s8d8c4h4s") == v("8h8d8c4d4c")
    rng = random.Random(37)
    for _ in range(2000):
        hand = rng.sample(range(52), 7)
        relabel = rng.sample(range(4), 4)
        assert evaluate_ints([4 * (c // 4) + relabel[c % 4] for c in hand]) == evaluate_ints(hand)


def test_c2_kickers_and_second_pairs() -> None:
    assert v("KsKdQcJh9s") > v("KhKcQdJs8d")
    assert v("AsAd5c5h2s") > v("KsKdQcQh2d")  # top pair first
    assert v("AsAd5c5hKs") > v("AhAc5d5sQd")  # then the kicker
    assert v("2s2d2cAhKs") < v("3s3d3c4h2s")


# --- C3: best five of seven, cards speak -------------------------------------------------------


def test_c3_cards_speak_the_hidden_hand_is_found() -> None:
    """C3: whatever a player thinks they hold, the best five are found."""
    board = "Th9d8c2h2s"
    assert describe(v(board + "7s6c")) == "Straight, ten high"  # not "a pair of deuces"
    assert describe(v(board + "JsQd")) == "Straight, queen high"  # the higher straight
    assert describe(v("AhKh5h9h2c" + "QhQs")) == "Flush, ace high"  # not a pair of queens
    assert describe(v("7h7d7c" + "2s2d" + "3s3d")) == "Full house, sevens full of treys"
    assert describe(v("7h7d7c" + "8s8d8c" + "As")) == "Full house, eights full of sevens"
    assert describe(v("QhQdQcQs" + "2d2c" + "3s")) == "Four of a kind, queens"


def test_c3_the_board_plays() -> None:
    board = "AsKdQcJh9s"
    assert v(board + "2c3d") == v(board + "4h5h") == v(board)
    assert best_five(board + "2c3d") == parse_cards("AsKdQcJh9s")


def test_c3_six_cards() -> None:
    assert describe(v("2c3d4h5s6dAs")) == "Straight, six high"
    assert describe(v("2c2d4h4s6d6s")) == "Two pair, sixes and fours"


# --- RULE-CASES 34-37 ------------------------------------------------------------------------


def test_case_34_quad_board_with_an_ace_every_hand_splits() -> None:
    """Case 34: board 9♠9♥9♦9♣A♠; every live hand splits, an ace in the hand adds nothing."""
    board = "9s9h9d9cAs"
    values = {v(board + hole) for hole in ("AhKd", "KsKh", "2c3d", "QhJh", "AdAc")}
    assert values == {v(board)}
    assert describe(v(board)) == "Four of a kind, nines"


def test_case_35_wheel_loses_to_six_high_and_king_ace_deuce_is_no_straight() -> None:
    """Case 35: board 2♣3♦4♥5♠K♣: A♦7♠ (five high) loses to 6♥Q♣ (six high)."""
    board = "2c3d4h5sKc"
    wheel, six_high = v(board + "Ad7s"), v(board + "6hQc")
    assert describe(wheel) == "Straight, five high"
    assert describe(six_high) == "Straight, six high"
    assert six_high > wheel
    assert category(v("Kc2c3d4hAs")) == HIGH_CARD  # K-A-2-3-4 is not a straight
    assert describe(v("Kc2c3d4h9sAdQs")) == "High card, ace"


def test_case_35_steel_wheel_beats_quads_and_loses_to_seven_high_straight_flush() -> None:
    """Case 35: board 3♥4♥5♥K♣K♦: A♥2♥ beats K♠K♥; 6♥7♥ beats A♥2♥."""
    board = "3h4h5hKcKd"
    steel, quads, seven_high = v(board + "Ah2h"), v(board + "KsKh"), v(board + "6h7h")
    assert describe(steel) == "Straight flush, five high"
    assert describe(quads) == "Four of a kind, kings"
    assert describe(seven_high) == "Straight flush, seven high"
    assert quads < steel < seven_high


def test_case_36_kickers() -> None:
    """Case 36: board A♠K♦7♣4♥2♠: A♥Q♣ beats A♦J♠; board K♠K♦Q♣J♥9♠: A♣2♦ and A♥8♠ split."""
    assert v("AsKd7c4h2s" + "AhQc") > v("AsKd7c4h2s" + "AdJs")
    board = "KsKdQcJh9s"
    assert v(board + "Ac2d") == v(board + "Ah8s")  # only the best five cards count
    assert describe(v(board + "Ac2d")) == "One pair, kings"


def test_case_37_suits_do_not_matter() -> None:
    """Case 37: board Q♣J♦T♠3♥2♣: A♠K♠ and A♥K♥ split.

    Board A♥K♥9♥5♥2♥: Q♥3♣ beats 4♥7♠, which beats J♣J♦ (that hand plays the board).
    """
    assert v("QcJdTs3h2c" + "AsKs") == v("QcJdTs3h2c" + "AhKh")
    board = "AhKh9h5h2h"
    queen, four, jacks = v(board + "Qh3c"), v(board + "4h7s"), v(board + "JcJd")
    assert queen > four > jacks == v(board)
    assert describe(jacks) == "Flush, ace high"


# --- describe, best_five, category -------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "text"),
    [
        ("9c8d7h6s5c", "Straight, nine high"),
        ("KsKdKc7h7s", "Full house, kings full of sevens"),
        ("AsAd4c4h9s", "Two pair, aces and fours"),
        ("As9s7s4s2s", "Flush, ace high"),
        ("QsQdQcQh2s", "Four of a kind, queens"),
        ("JsJd9c4h2s", "One pair, jacks"),
        ("KsJd9c4h2s", "High card, king"),
        ("As2s3s4s5s", "Straight flush, five high"),
        ("TsJsQsKsAs", "Royal flush"),
        ("TdJdQdKdAd9d8d", "Royal flush"),
        ("9hTsJsQsKs", "Straight, king high"),
        ("6s6d6c4h2s", "Three of a kind, sixes"),
        ("2s2d9c4h3s", "One pair, deuces"),
        ("7s5d4c3h2d", "High card, seven"),
    ],
)
def test_describe(hand: str, text: str) -> None:
    assert describe(v(hand)) == text


@pytest.mark.parametrize(
    ("hand", "best"),
    [
        ("Ks9dJc4hJs", "JsJcKs9d4h"),  # the pair first, then kickers high to low
        ("2c3d4h5sKcAd7s", "5s4h3d2cAd"),  # a wheel: 5-4-3-2-A
        ("Ah2h3h4h5hKcKd", "5h4h3h2hAh"),
        ("7c7d7h2s2dAcKc", "7h7d7c2s2d"),  # trips before the pair
        ("2s2d9c9hAsKd5c", "9h9c2s2dAs"),  # two pair: high pair, low pair, kicker
        ("AhKh9h5h2h4h7s", "AhKh9h5h4h"),
        ("QhQdQcQs2d2cAs", "QsQhQdQcAs"),
        ("6s5d4c3h2dAc", "6s5d4c3h2d"),  # the six-high straight, not the wheel
        ("TsJsQsKsAs9s", "AsKsQsJsTs"),
    ],
)
def test_best_five(hand: str, best: str) -> None:
    five = best_five(hand)
    assert five == parse_cards(best)
    assert all(isinstance(c, Card) for c in five)


def test_best_five_is_a_subset_with_the_same_value() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        hand = rng.sample(range(52), rng.choice((5, 6, 7)))
        five = best_five(hand)
        assert len(five) == 5 and set(five) <= set(hand)
        assert evaluate(five) == evaluate_ints(hand)


def test_category_boundaries() -> None:
    assert [category(x) for x in (1, 1277, 1278, 4137, 4138, 7452, 7453, 7462)] == [
        0, 0, 1, 1, 2, 7, 8, 8,
    ]
    assert CATEGORY_NAMES == (
        "High card", "One pair", "Two pair", "Three of a kind", "Straight", "Flush",
        "Full house", "Four of a kind", "Straight flush",
    )


@pytest.mark.parametrize("bad", [0, 7463, -1, True, 3.0, "12"])
def test_bad_values(bad: object) -> None:
    with pytest.raises(EvaluatorError, match="bad hand value"):
        category(bad)  # type: ignore[arg-type]
    with pytest.raises(EvaluatorError):
        describe(bad)  # type: ignore[arg-type]


# --- input forms and errors ------------------------------------------------------------------


def test_all_input_forms_agree() -> None:
    cards = parse_cards("AsKdQcJh9s8d2c")
    ints = [int(c) for c in cards]
    forms: list[object] = [
        cards, list(cards), ints, tuple(ints), [str(c) for c in cards],
        "AsKdQcJh9s8d2c", "As Kd Qc Jh 9s 8d 2c", "as,kd,qc,jh,9s,8d,2c",
        ["As", 45, Card("Qc"), "Jh", 31, "8d", 0],
    ]
    expected = evaluate_ints(ints)
    for form in forms:
        assert evaluate(form) == expected  # type: ignore[arg-type]
    assert evaluate_ints(cards) == expected


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ("AsKdQcJh", "5, 6 or 7 cards, got 4"),
        ("AsKdQcJh9s8d2c3c", "5, 6 or 7 cards, got 8"),
        ("", "5, 6 or 7 cards, got 0"),
        ([], "5, 6 or 7 cards, got 0"),
        ("AsAsQcJh9s", "appears twice"),
        ([51, 51, 0, 1, 2], "appears twice"),
        ("AsKdQcJh1s", "bad card '1s'"),
        ("AsKdQcJhXx", "bad card"),
        ("AsKdQcJh9", "two characters"),
        ([51, 50, 49, 48, 52], "bad card 52"),
        ([51, 50, 49, 48, -1], "bad card -1"),
        ([51, 50, 49, 48, True], "bad card True"),
        ([51, 50, 49, 48, 2.0], "bad card 2.0"),
        (["AsKd", "Qc", "Jh", "9s"], "bad card 'AsKd'"),
        (5, "cannot read cards"),
        (None, "cannot read cards"),
    ],
)
def test_errors(cards: object, message: str) -> None:
    with pytest.raises(EvaluatorError, match=message) as info:
        evaluate(cards)  # type: ignore[arg-type]
    assert isinstance(info.value, ValueError)
    with pytest.raises(EvaluatorError, match=message):
        best_five(cards)  # type: ignore[arg-type]


# --- evaluate's fast path: the same values and the same errors as the full parse -------------


def slow_evaluate(cards: object) -> int:
    """What evaluate() did before its fast path: parse everything, then evaluate."""
    return evaluate_ints(_checked(cards))  # type: ignore[arg-type]


def outcome(fn: Callable[[object], int], cards: object) -> tuple[str, object]:
    try:
        return ("value", fn(cards))
    except Exception as exc:  # the exact class and message must match
        return (type(exc).__name__, str(exc))


def assert_as_before(cards: object) -> None:
    assert outcome(evaluate, cards) == outcome(slow_evaluate, cards), cards  # type: ignore[arg-type]


class Small(enum.IntEnum):
    DEUCE_CLUBS = 0
    ACE_SPADES = 51


class MyInt(int):
    pass


Pair = namedtuple("Pair", "a b c d e")

HAND = parse_cards("AsKdQcJh9s8d2c")  # Cards 51, 45, 40, 39, 31, 26, 0


@pytest.mark.parametrize(
    "cards",
    [
        HAND, list(HAND), HAND[:5], HAND[:6], list(HAND[:5]), tuple(map(int, HAND)), list(map(int, HAND)),
        (HAND[0], 45, HAND[2], 39, 31), [0, 1, 2, 3, 4, 5, 6], (48, 49, 50, 51, 44, 45, 46),
        parse_cards("AhKhQhJhTh9h8h"), parse_cards("2c3c4c5c6c7c8c"),  # flushes on both paths
        # declined by the fast path, accepted by the parse
        (*HAND[:6], "2c"), ("As", 45, Card("Qc"), "Jh", 31), (MyInt(51), 45, 40, 39, 31),
        (Small.ACE_SPADES, Small.DEUCE_CLUBS, 4, 8, 12), Pair(51, 45, 40, 39, 31),
        iter(HAND), (c for c in HAND), dict.fromkeys(HAND), "AsKdQcJh9s8d2c",
        # errors: count, repeats, range, types
        (), [], HAND[:4], list(HAND[:4]), (*HAND, Card("3c")), [*HAND, 1], (0, 1, 2, 3, 4, 5, 6, 7),
        (51, 51, 0, 1, 2), [51, 51, 0, 1, 2], (*HAND[:6], HAND[0]), (0, 0, 0, 0, 0, 0, 0), (5, 5, 5, 5, 5),
        (51, 50, 49, 48, 52), (51, 50, 49, 48, -1), (51, 50, 49, 48, -52), (51, 50, 49, 48, -53),
        (51, 50, 49, 48, 2**64), (51, 50, 49, 48, -(2**64)), [51, 50, 49, 48, 2**200],
        (51, 50, 49, 48, True), [False, 50, 49, 48, 47], (51, 50, 49, 48, 2.0), (51.0, 50, 49, 48, 47),
        (51, 50, 49, 48, np.int64(2)), (51, 50, 49, 48, None), (51, 50, 49, 48, "2x"),
        (51, 51, 49, 48, 52), (51, 51, 49, 48), (52, 52, 52, 52, 52), ["AsKd", "Qc", "Jh", "9s"],
        (51, 50, 49, 48, MyInt(52)), (51, 50, 49, 48, MyInt(51)), [HAND, HAND], 5, None, 2.5,
    ],
)
def test_fast_path_gives_the_same_value_or_error_as_the_full_parse(cards: object) -> None:
    if hasattr(cards, "__next__"):  # an iterator is consumed: compare on two fresh copies
        items = list(HAND)
        assert outcome(evaluate, iter(items)) == outcome(slow_evaluate, iter(items))
    else:
        assert_as_before(cards)


def test_fast_path_errors_read_as_before() -> None:
    for cards, message in [
        ((51, 51, 0, 1, 2), "bad cards 'AsAs2c2d2h': a card appears twice"),
        ((51, 50, 49, 48, 52), "bad card 52: expected a string like 'As' or an int 0..51"),
        ((51, 50, 49, 48, -1), "bad card -1: expected"),
        ((51, 50, 49, 48, True), "bad card True: expected"),
        ((51, 50, 49, 48), "a hand has 5, 6 or 7 cards, got 4: 'AsAhAdAc'"),
        ((*HAND, Card("3c")), "a hand has 5, 6 or 7 cards, got 8: 'AsKdQcJh9s8d2c3c'"),
    ]:
        with pytest.raises(EvaluatorError, match=re.escape(message)):
            evaluate(cards)


def test_fast_path_on_random_hands_of_every_form() -> None:
    rng = random.Random(11)
    for _ in range(5000):
        ints = rng.sample(range(52), rng.choice((5, 6, 7)))
        cards = [Card(c) for c in ints]
        expected = evaluate_ints(ints)
        mixed = [c if rng.random() < 0.5 else int(c) for c in cards]
        for form in (ints, tuple(ints), cards, tuple(cards), mixed, tuple(mixed)):
            assert evaluate(form) == expected
        assert _loop_value(tuple(cards)) == _loop_value(tuple(ints)) == expected


def test_the_loop_form_declines_what_the_parse_must_handle() -> None:
    """_loop_value is the compiled fast path; run here too, whichever mode is in use."""
    assert _loop_value(tuple(HAND)) == evaluate(HAND)
    for declined in [
        (), HAND[:4], (*HAND, Card("3c")), (51, 51, 0, 1, 2), (51, 50, 49, 48, 52), (51, 50, 49, 48, -1),
        (51, 50, 49, 48, 2**64), (51, 50, 49, 48, True), (51, 50, 49, 48, 2.0), (51, 50, 49, 48, "2c"),
        (51, 50, 49, 48, MyInt(3)), (51, 50, 49, 48, Small.DEUCE_CLUBS), (51, 50, 49, 48, np.int64(2)),
    ]:
        assert _loop_value(declined) == 0, declined


ELEMENTS = st.one_of(
    st.integers(-3, 55), st.sampled_from(list(HAND)), st.booleans(), st.sampled_from([2.0, 51.0, "As", "2c"]),
    st.integers(-(2**70), 2**70), st.builds(MyInt, st.integers(-1, 53)),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(ELEMENTS, max_size=9), st.booleans())
def test_fast_path_matches_the_full_parse_on_any_list_or_tuple(items: list[object], as_tuple: bool) -> None:
    assert_as_before(tuple(items) if as_tuple else items)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=7))
def test_fast_path_matches_the_full_parse_on_card_numbers(ints: list[int]) -> None:
    assert_as_before(ints)
    assert_as_before(tuple(Card(c) for c in ints))
    value = _loop_value(tuple(ints))
    assert value == (evaluate_ints(ints) if len(set(ints)) == len(ints) else 0)


# --- card strings: the same values and errors as the full parse --------------------------------


class MyStr(str):
    pass


TEXT = [str(c) for c in HAND]  # 'As', 'Kd', 'Qc', 'Jh', '9s', '8d', '2c'
KELVIN = "\u212a"  # its lower case is 'k', its upper case itself: the parse refuses it as a rank


@pytest.mark.parametrize(
    "cards",
    [
        TEXT, tuple(TEXT), TEXT[:5], TEXT[:6], [t.lower() for t in TEXT], [t.upper() for t in TEXT],
        ["aS", "kD", "qC", "jH", "9S"], "".join(TEXT), "".join(TEXT[:5]).lower(), "".join(TEXT[:6]).upper(),
        "AhKhQhJhTh9h8h", ["2c", "3c", "4c", "5c", "6c", "7c", "8c"], ("Td", "9d", "8d", "7d", "6d"),
        # declined by the fast path, accepted by the parse
        [" As", "Kd", "Qc", "Jh", "9s"], ["As\n", "Kd", "Qc", "Jh", "9s"], "As Kd Qc Jh 9s", "As,Kd,Qc,Jh,9s",
        " AsKdQcJh9s", [MyStr("As"), "Kd", "Qc", "Jh", "9s"], ["As", 45, "Qc", "Jh", 31], MyStr("AsKdQcJh9s"),
        # errors: repeats, bad cards, counts, types
        ["As", "As", "Qc", "Jh", "9s"], ["as", "AS", "Qc", "Jh", "9s"], "AsAsQcJh9s", "asASQcJh9s8d",
        ["As", "Kd", "Qc", "Jh", "1s"], "AsKdQcJh1s", ["As", "Kd", "Qc", "Jh", "Xx"],
        ["As", "Kd", "Qc", "Jh", ""],
        ["As", "Kd", "Qc", "Jh", "9sx"], ["A", "s", "K", "d", "Q"], ["As", "Kd", "Qc", "Jh", KELVIN + "s"],
        "AsKdQcJh" + KELVIN + "s", ["As", "Kd", "Qc", "Jh", "9\u017f"], ["As", "Kd", "Qc", "Jh"], "AsKdQcJh9",
        "AsKdQcJh9s8d2c3c", [*TEXT, "3c"], "AsKdQcJh9s8d2", ["As", "Kd", "Qc", "Jh", None],
        ["As", "Kd", "Qc", "Jh", ["9s"]],
        ["As", "Kd", "Qc", "Jh", b"9s"], "\u0410sKdQcJh9s",
    ],
)
def test_strings_give_the_same_value_or_error_as_the_full_parse(cards: object) -> None:
    assert_as_before(cards)


def test_strings_errors_read_as_before() -> None:
    for cards, message in [
        (["As", "As", "Qc", "Jh", "9s"], "bad cards 'AsAsQcJh9s': a card appears twice"),
        ("AsKdQcJh1s", "bad card '1s': rank must be one of 23456789TJQKA, suit one of cdhs"),
        (["As", "Kd", "Qc", "Jh", "9sx"], "bad card '9sx': rank must be one of"),
        ("AsKdQcJh9", "each card is two characters"),
        (["As", "Kd", "Qc", "Jh"], "a hand has 5, 6 or 7 cards, got 4: 'AsKdQcJh'"),
    ]:
        with pytest.raises(EvaluatorError, match=re.escape(message)):
            evaluate(cards)


def test_strings_on_random_hands_in_every_spelling() -> None:
    rng = random.Random(12)
    for _ in range(3000):
        ints = rng.sample(range(52), rng.choice((5, 6, 7)))
        expected = evaluate_ints(ints)
        text = [str(Card(c)) for c in ints]
        spelled = [
            (t[0].lower() if rng.random() < 0.5 else t[0]) + (t[1].upper() if rng.random() < 0.5 else t[1])
            for t in text
        ]
        for form in (text, tuple(text), spelled, tuple(spelled), "".join(text), "".join(spelled)):
            assert evaluate(form) == expected, form
        assert _text_value(tuple(spelled)) == expected


def test_the_text_loop_declines_what_the_parse_must_handle() -> None:
    """_text_value is the compiled fast path for strings; run here too, whichever mode is in use."""
    assert _text_value(tuple(TEXT)) == evaluate(HAND)
    for declined in [
        (), tuple(TEXT[:4]), (*TEXT, "3c"), ("As", "As", "Qc", "Jh", "9s"), ("As", "Kd", "Qc", "Jh", "1s"),
        ("As", "Kd", "Qc", "Jh", " 9s"), ("As", "Kd", "Qc", "Jh", 31), ("As", "Kd", "Qc", "Jh", Card("9s")),
        ("As", "Kd", "Qc", "Jh", MyStr("9s")), ("As", "Kd", "Qc", "Jh", None), tuple(HAND),
    ]:
        assert _text_value(declined) == 0, declined


TEXT_ELEMENTS = st.one_of(
    st.sampled_from(TEXT),
    st.sampled_from(["as", "AS", "aS", "2C", "tD", "Th", "1s", "Xx", "", "A", "9sx", " 2c", "2c ",
                     "\u212as"]),
    st.text(max_size=3), st.integers(0, 51),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(TEXT_ELEMENTS, max_size=8), st.booleans())
def test_strings_match_the_full_parse_on_any_list_or_text(items: list[object], as_text: bool) -> None:
    if as_text:
        assert_as_before("".join(str(i) for i in items))
    else:
        assert_as_before(items)
