"""Hold'em equity (pokerroom.core.equity): the exact preflop figure, exhaustive runs checked
against a brute force with itertools and evaluate_ints, Monte Carlo against exact values,
ties, dead cards and input errors."""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import numpy as np
import pytest

from pokerroom.core import equity as equity_module
from pokerroom.core.cards import Card, parse_cards
from pokerroom.core.equity import EquityError, EquityResult, equity, stud_equity
from pokerroom.core.evaluator import evaluate_ints


def brute_splits(hands: list[str], board: str = "", dead: str = "") -> list[list[int]]:
    """splits[h][k] by brute force: every completion of the board, one hand at a time."""
    holes = [parse_cards(h) for h in hands]
    known = parse_cards(board)
    used = {*known, *parse_cards(dead), *(c for h in holes for c in h)}
    deck = [c for c in range(52) if c not in used]
    splits = [[0] * (len(hands) + 1) for _ in hands]
    for extra in itertools.combinations(deck, 5 - len(known)):
        values = [evaluate_ints((*h, *known, *extra)) for h in holes]
        best = max(values)
        k = values.count(best)
        for h, v in enumerate(values):
            if v == best:
                splits[h][k] += 1
    return splits


def check_against_brute(r: EquityResult, hands: list[str], board: str = "", dead: str = "") -> None:
    splits = brute_splits(hands, board, dead)
    known, gone = len(parse_cards(board)), len(parse_cards(dead))
    boards = comb(52 - 2 * len(hands) - known - gone, 5 - known)
    assert [list(s) for s in r.splits] == splits
    assert r.boards == boards and r.exact
    for h, s in enumerate(splits):
        assert r.win[h] == s[1] / boards
        assert r.tie[h] == sum(s[2:]) / boards
        assert r.shares[h] == sum(Fraction(n, k) for k, n in enumerate(s) if k) / boards
        assert r.equity[h] == float(r.shares[h])
    assert sum(r.shares) == 1


# ---------------------------------------------------------------------------- exact values


def test_aks_vs_queens_preflop_exhaustive() -> None:
    r = equity(["AhKh", "QsQd"])
    assert r.exact and r.boards == 1_712_304
    assert round(r.equity[0], 6) == 0.462145
    assert round(r.equity[1], 6) == 0.537855
    assert sum(r.shares) == 1
    (_, win0, tie0), (_, win1, tie1) = r.splits
    assert tie0 == tie1 and win0 + win1 + tie0 == r.boards
    assert r.shares[0] == Fraction(2 * win0 + tie0, 2 * r.boards)  # win + tie/2 heads-up
    assert r.std_error == (0.0, 0.0)


@pytest.mark.parametrize(
    ("hands", "board", "dead"),
    [
        (["AhKh", "QsQd"], "Jh7h2c", ""),  # flop
        (["AhKh", "QsQd"], "Jh7h2c9s", ""),  # turn
        (["AhKh", "QsQd"], "Jh7h2c9sTh", ""),  # river
        (["AsKs", "7d7c", "JhTh"], "Qs8h2d", ""),  # three-way flop
        (["AsKs", "7d7c", "JhTh"], "Qs8h2d5c", ""),  # three-way turn
        (["AcAd", "KcKd", "5h4h", "9s9c"], "2h3hJd", "Ah Qh"),  # four-way, dead cards
        (["AsKd", "AcKh", "QsJs"], "2c3d4h", ""),  # two-way and three-way (A-5 on board) splits
    ],
)
def test_exhaustive_matches_brute_force(hands: list[str], board: str, dead: str) -> None:
    check_against_brute(equity(hands, board, dead), hands, board, dead)
    if len(hands) == 3 and hands[0] == "AsKd":
        r = equity(hands, board, dead)
        assert r.splits[0][2] > 0 and r.splits[0][3] > 0 and r.splits[2][3] > 0


def test_nine_hands_with_dead_cards_turn_matches_brute_force() -> None:
    hands = ["2c2d", "3c3d", "4c4d", "5c5d", "6c6d", "7c7d", "8c8d", "9c9d", "TcTd"]
    board, dead = "AsKsQsJh", "2h3h4h"
    check_against_brute(equity(hands, board, dead), hands, board, dead)


def test_three_way_preflop_exhaustive_is_consistent() -> None:
    r = equity(["AsAh", "KsKh", "7c8c"], dead="Ad")
    assert r.exact
    assert r.boards == comb(45, 5) and sum(r.shares) == 1
    # the same deal with clubs and diamonds swapped, and the hands in another order
    swapped = equity(["8d7d", "AsAh", "KhKs"], dead="Ac")
    assert swapped.splits == (r.splits[2], r.splits[0], r.splits[1])
    mc = equity(["AsAh", "KsKh", "7c8c"], dead="Ad", samples=100_000, seed=2)
    for e, m, se in zip(r.equity, mc.equity, mc.std_error, strict=True):
        assert abs(m - e) < 4 * se


def test_dead_cards_change_the_count_and_the_odds() -> None:
    live = equity(["AhKh", "QsQd"], board="Jh7h2c")
    dead = equity(["AhKh", "QsQd"], board="Jh7h2c", dead="3h4h5h6h")  # four hearts gone
    assert live.boards == 990 and dead.boards == 41 * 40 // 2
    assert dead.equity[0] < live.equity[0]
    assert dead.dead == parse_cards("3h4h5h6h")
    check_against_brute(dead, ["AhKh", "QsQd"], "Jh7h2c", "3h4h5h6h")


def test_dead_cards_preflop_heads_up_board_count() -> None:
    r = equity(["AhKh", "QsQd"], dead="Qc Ac")
    assert r.boards == 1_370_754  # C(46, 5)
    assert r.equity[0] < 0.462145  # an ace is gone
    assert round(sum(r.equity), 12) == 1


# ---------------------------------------------------------------------------- ties


def test_the_board_plays_everyone_splits() -> None:
    r = equity(["2c3d", "4h5d", "2s3c"], board="AsKsQsJsTs")
    assert r.boards == 1 and r.exact
    assert r.splits == ((0, 0, 0, 1),) * 3
    assert r.win == (0.0, 0.0, 0.0) and r.tie == (1.0, 1.0, 1.0)
    assert r.shares == (Fraction(1, 3),) * 3


def test_two_of_three_split_the_pot() -> None:
    r = equity(["Th3c", "Td4c", "2c2d"], board="AsKsQdJc2h")  # two broadway straights, trips
    assert r.splits == ((0, 0, 1, 0), (0, 0, 1, 0), (0, 0, 0, 0))
    assert r.equity == (0.5, 0.5, 0.0) and r.tie == (1.0, 1.0, 0.0)


def test_split_pots_preflop_same_hand_two_suits() -> None:
    r = equity(["AsKd", "AcKh"])
    (_, w0, t0), (_, w1, t1) = r.splits
    assert t0 == t1 > r.boards // 2  # mostly split
    assert w0 == w1  # symmetric: only flushes decide
    assert r.equity == (0.5, 0.5)


def test_complete_board_with_samples_is_exact() -> None:
    r = equity(["AhKh", "QsQd"], board="Jh7h2c9sTh", samples=1000, seed=1)
    assert r.exact and r.boards == 1 and r.equity == (1.0, 0.0)  # AhKh makes a flush


# ---------------------------------------------------------------------------- Monte Carlo


def test_monte_carlo_is_near_the_exact_value_and_repeatable() -> None:
    r = equity(["AhKh", "QsQd"], samples=200_000, seed=7)
    assert not r.exact and r.boards == 200_000
    assert 0 < r.std_error[0] < 0.0015
    assert abs(r.equity[0] - 0.462145) < 4 * r.std_error[0]
    assert abs(r.equity[0] - 0.462145) < 0.005
    assert r == equity(["AhKh", "QsQd"], samples=200_000, seed=7)
    assert r.splits != equity(["AhKh", "QsQd"], samples=200_000, seed=8).splits
    assert sum(r.shares) == 1


def test_monte_carlo_three_way_flop_matches_exhaustive() -> None:
    hands, board = ["AsKs", "7d7c", "JhTh"], "Qs8h2d"
    exact = equity(hands, board)
    mc = equity(hands, board, samples=100_000, seed=3)
    for e, m, se in zip(exact.equity, mc.equity, mc.std_error, strict=True):
        assert abs(m - e) < max(4 * se, 1e-9)
    assert mc.boards == 100_000 and not mc.exact


def test_monte_carlo_samples_distinct_uniform_boards() -> None:
    rng = np.random.default_rng(11)
    picks = equity_module._sample(rng, 10, 3, 120_000)  # one 3-subset of 0..9 per column
    assert picks.shape == (3, 120_000) and picks.min() >= 0 and picks.max() <= 9
    assert all(len(set(column)) == 3 for column in picks.T[:5000].tolist())
    counts = np.bincount(np.array([100, 10, 1]) @ np.sort(picks, axis=0), minlength=1000)
    counts = counts[counts > 0]
    assert len(counts) == 120  # every 3-subset of 10 drawn, each about 1000 times
    assert counts.min() > 850 and counts.max() < 1150


@pytest.mark.parametrize(("n", "k"), [(5, 0), (5, 5), (9, 1), (12, 3), (20, 5), (47, 2)])
def test_board_combinations_match_itertools(n: int, k: int) -> None:
    subsets = equity_module._combinations(n, k)  # one subset per column
    assert [tuple(c) for c in subsets.T.tolist()] == list(itertools.combinations(range(n), k))
    assert not subsets.flags.writeable


# ---------------------------------------------------------------------------- input


def test_cards_in_any_form() -> None:
    base = equity(["AhKh", "QsQd"], board="Jh7h2c")
    assert equity([("Ah", "Kh"), "Qs Qd"], board=["Jh", "7h", "2c"]) == base
    assert equity([[Card("Ah"), Card("Kh")], [Card("Qs"), 41]], board=np.array([38, 22, 0])) == base
    assert equity(np.array([[50, 46], [43, 41]]), board="jH 7H 2C") == base
    assert base.hands == (parse_cards("AhKh"), parse_cards("QsQd"))
    assert base.board == parse_cards("Jh7h2c") and base.dead == ()


def test_progress_is_reported_per_chunk() -> None:
    seen: list[tuple[int, int]] = []
    equity(["AhKh", "QsQd"], samples=150_000, seed=1, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (150_000, 150_000) and len(seen) == 3
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_to_json() -> None:
    j = equity(["AhKh", "QsQd"], board="Jh7h2c", dead="2d").to_json()
    assert j["board"] == "Jh7h2c" and j["dead"] == "2d" and j["boards"] == 946 and j["exact"] is True
    hands = j["hands"]
    assert isinstance(hands, list) and [h["hand"] for h in hands] == ["AhKh", "QsQd"]
    assert set(hands[0]) == {"hand", "equity", "win", "tie", "std_error", "splits"}


@pytest.mark.parametrize(
    ("hands", "board", "dead", "options", "message"),
    [
        (["AhKh"], "", "", {}, "equity needs 2 to 9 hands, got 1"),
        (["2c2d", "3c3d", "4c4d", "5c5d", "6c6d", "7c7d", "8c8d", "9c9d", "TcTd", "JcJd"], "", "", {},
         "equity needs 2 to 9 hands, got 10"),
        ("AhKh QsQd", "", "", {}, "hands must be a list of hands"),
        (5, "", "", {}, "hands must be a list of hands"),
        (["AhKh", "QsXd"], "", "", {}, "hand 2: bad card 'Xd'"),
        (["AhKh", "QsQ"], "", "", {}, "hand 2: bad cards 'QsQ'"),
        (["AhKh", 7], "", "", {}, "hand 2: cannot read cards from 7"),
        (["AhKh", [51, 52]], "", "", {}, "hand 2: bad card 52"),
        (["AhKhQd", "QsQc"], "", "", {}, "hand 1 has 3 cards ('AhKhQd'); a hold'em hand has 2"),
        (["Ah", "QsQc"], "", "", {}, "hand 1 has 1 card ('Ah')"),
        (["AhAh", "QsQc"], "", "", {}, "hand 1: bad cards 'AhAh': a card appears twice"),
        (["AhKh", "KhQd"], "", "", {}, "Kh appears twice: in hand 1 and hand 2"),
        (["AhKh", "QsQd"], "Qs2c3c", "", {}, "Qs appears twice: in hand 2 and the board"),
        (["AhKh", "QsQd"], "2c3c", "", {}, "the board has 2 cards ('2c3c'); it has 0, 3, 4 or 5"),
        (["AhKh", "QsQd"], "2c3c4c5c6c7c", "", {}, "the board has 6 cards"),
        (["AhKh", "QsQd"], "2c3c4c", "4c", {}, "4c appears twice: in the board and the dead cards"),
        (["AhKh", "QsQd"], "", "Ah", {}, "Ah appears twice: in hand 1 and the dead cards"),
        (["2c2d", "3c3d"], "", list(range(8, 52)), {}, "only 4 cards are left, too few to complete"),
        (["AhKh", "QsQd"], "", "", {"samples": 0}, "samples must be a whole number of at least 1, got 0"),
        (["AhKh", "QsQd"], "", "", {"samples": True}, "samples must be a whole number"),
        (["AhKh", "QsQd"], "", "", {"samples": 10.0}, "samples must be a whole number"),
        (["AhKh", "QsQd"], "", "", {"samples": 10, "seed": -1}, "seed must be a whole number of at least 0"),
        (["AhKh", "QsQd"], "", "", {"samples": 10, "seed": "x"}, "seed must be a whole number"),
    ],
)
def test_bad_input_raises_equity_error(
    hands: object, board: str, dead: object, options: dict[str, object], message: str
) -> None:
    with pytest.raises(EquityError) as info:
        equity(hands, board, dead, **options)  # type: ignore[arg-type]
    assert message in str(info.value)
    assert isinstance(info.value, ValueError)


# ---------------------------------------------------------------------------- seven card stud


def brute_stud_splits(hands: list[str], dead: str = "") -> list[list[int]]:
    """splits[h][k] for stud by brute force: every completion, hand after hand."""
    known = [parse_cards(h) for h in hands]
    used = {*parse_cards(dead), *(c for h in known for c in h)}
    deck = [c for c in range(52) if c not in used]
    splits = [[0] * (len(hands) + 1) for _ in hands]

    def deal(h: int, left: list[int], done: list[tuple[int, ...]]) -> None:
        if h == len(known):
            values = [evaluate_ints(cards) for cards in done]
            best = max(values)
            k = values.count(best)
            for i, v in enumerate(values):
                if v == best:
                    splits[i][k] += 1
            return
        for extra in itertools.combinations(left, 7 - len(known[h])):
            rest = [c for c in left if c not in extra]
            deal(h + 1, rest, [*done, (*known[h], *extra)])

    deal(0, deck, [])
    return splits


@pytest.mark.parametrize(
    ("hands", "dead"),
    [
        (["AsKsQs2h3h4d", "9c9d8c8d5h5s"], ""),  # two players, 6 cards each: 40 x 39 deals
        (["AsKsQs2h3h4d", "9c9d8c8d5h5s"], "Js Ts 9s 2s 5c"),  # dead cards
        (["AsAd2c3h4hKc", "KsKd7c8h9hTd", "QcQh6s6d5c"], "2d 3d"),  # three-way, 33 x 32 x C(31, 2)
        (["3c4d5h6s7c2c", "3d4h5s6c7d2d", "3h4s5c6d7h2h"], ""),  # two- and three-way splits
    ],
)
def test_stud_exhaustive_matches_brute_force(hands: list[str], dead: str) -> None:
    r = stud_equity(hands, dead)
    splits = brute_stud_splits(hands, dead)
    assert r.exact and [list(s) for s in r.splits] == splits
    total = 1
    left = 52 - sum(len(parse_cards(h)) for h in hands) - len(parse_cards(dead))
    for h in hands:
        total *= comb(left, 7 - len(parse_cards(h)))
        left -= 7 - len(parse_cards(h))
    assert r.boards == total == sum(s[1] + sum(Fraction(n, k) for k, n in enumerate(s) if k > 1)
                                    for s in splits)
    assert sum(r.shares) == 1
    assert r.board == () and r.dead == parse_cards(dead)
    assert r.hands == tuple(parse_cards(h) for h in hands)


def test_stud_many_split_pots() -> None:
    r = stud_equity(["3c4d5h6s7c2c", "3d4h5s6c7d2d", "3h4s5c6d7h2h"])
    assert all(s[2] > 0 and s[3] > 0 for s in r.splits)


def test_stud_complete_hands_one_deal() -> None:
    r = stud_equity(["AsAd 2c3h4h5d Kc", "KsKd 7c8h9hTd Qc"], samples=10)
    assert r.exact and r.boards == 1 and r.equity == (1.0, 0.0)  # the wheel beats the kings


def test_stud_symmetric() -> None:
    r = stud_equity(["AsKs 7h 2c 3d 4h", "AhKh 7s 2d 3c 4s"])  # the same under s-h, c-d
    assert r.exact and r.boards == 40 * 39
    assert r.splits[0] == r.splits[1] and r.equity == (0.5, 0.5)
    # suits swapped clubs <-> diamonds and the players in the other order: the same deals
    a = stud_equity(["QcJc 9d 8d 2s 3s", "5d5c 5h 4s 6h"], dead="Ac")
    b = stud_equity(["5c5d 5h 4s 6h", "QdJd 9c 8c 2s 3s"], dead="Ad")
    assert a.exact and a.boards == b.boards and a.splits == (b.splits[1], b.splits[0])


def test_stud_monte_carlo_near_exhaustive_and_repeatable() -> None:
    hands = ["AsKsQd2h3h", "2c2d3c4d5s"]
    exact = stud_equity(hands)
    assert exact.exact and exact.boards == comb(42, 2) * comb(40, 2)
    mc = stud_equity(hands, samples=100_000, seed=7, limit=0)
    assert not mc.exact and mc.boards == 100_000
    for e, m, se in zip(exact.equity, mc.equity, mc.std_error, strict=True):
        assert se > 0 and abs(m - e) < 4 * se
    assert stud_equity(hands, samples=100_000, seed=7, limit=0) == mc
    assert stud_equity(hands, samples=1000, seed=8, limit=0) != stud_equity(
        hands, samples=1000, seed=9, limit=0)


def test_stud_monte_carlo_three_way_and_default_samples() -> None:
    hands = ["AsKsQd2h3h4h", "2c2d3c4d5s9s", "JcJdJh7s8s"]
    exact = stud_equity(hands, dead="Tc")
    assert exact.exact
    mc = stud_equity(hands, dead="Tc", seed=3, limit=exact.boards - 1)
    assert not mc.exact and mc.boards == 200_000
    for e, m, se in zip(exact.equity, mc.equity, mc.std_error, strict=True):
        assert abs(m - e) < 4 * se


def test_stud_early_streets_use_monte_carlo() -> None:
    r = stud_equity(["AsKs Qd", "2c2d 3h", "7h8h 9h"], seed=1, samples=20_000)
    assert not r.exact and r.boards == 20_000
    assert abs(sum(r.equity) - 1) < 1e-12


@pytest.mark.parametrize(
    ("hands", "dead", "options", "message"),
    [
        (["AsKs"], "", {}, "stud equity needs 2 to 8 hands, got 1"),
        ([f"{r}c" for r in "23456789T"], "", {}, "stud equity needs 2 to 8 hands, got 9"),
        ("AsKs QdQc", "", {}, "hands must be a list of hands"),
        (["AsKs", ""], "", {}, "hand 2 has 0 cards (''); a stud hand has 1 to 7 known cards"),
        (["AsKs", "2c3c4c5c6c7c8c9c"], "", {}, "hand 2 has 8 cards"),
        (["AsKs", "QsXd"], "", {}, "hand 2: bad card 'Xd'"),
        (["AsKs", "Ks"], "", {}, "Ks appears twice: in hand 1 and hand 2"),
        (["AsKs", "Qd"], "Qd", {}, "Qd appears twice: in hand 2 and the dead cards"),
        ([f"{r}c" for r in "2345678"] + ["9c"], "", {},
         "the hands need 48 more cards but only 44 are left; the community-card rule"),
        (["2c2d", "3c3d"], list(range(8, 52)), {}, "need 10 more cards but only 4 are left"),
        (["AsKs", "QsQd"], "", {"samples": 0}, "samples must be a whole number of at least 1"),
        (["AsKs", "QsQd"], "", {"seed": -1}, "seed must be a whole number of at least 0"),
        (["AsKs", "QsQd"], "", {"limit": -1}, "limit must be a whole number of at least 0"),
        (["AsKs", "QsQd"], "", {"limit": 1.5}, "limit must be a whole number"),
    ],
)
def test_stud_bad_input_raises_equity_error(
    hands: object, dead: object, options: dict[str, object], message: str
) -> None:
    with pytest.raises(EquityError) as info:
        stud_equity(hands, dead, **options)  # type: ignore[arg-type]
    assert message in str(info.value)
