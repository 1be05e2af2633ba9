"""The hold'em acceptance cases of RULE-CASES.md (cases 1-3 and 9-37) and decisions D1, D2,
D3, D5 and D6, each played on the real engine with the exact amounts the case states.

Where the case text and the engine disagree, the case is right (RULE-CASES.md is the
project's rule book); such tests stay and fail until the engine is fixed.

Players are in PHH order: 0 is the first seat left of the button (the small blind), the
last index is the button; heads-up, 0 is the big blind and 1 the button (small blind).
Letters in the cases (A, B, C, ...) are mapped to indices in each test.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from pokerroom.core.cards import parse_cards
from pokerroom.core.events import (
    BoardDealt,
    PotAwarded,
    Shown,
    StreetEnded,
    UncalledReturned,
)
from pokerroom.core.hand import Hand, IllegalAction
from pokerroom.core.structures import Game
from tests.core.helpers import NL12, check_down, deal, events_of, play, show_all, showdown_log, stacked_deck

# --- helpers (stacked decks and scripted play: helpers.py) ---------------------------


def options(hand: Hand) -> dict[str, object]:
    """What the actor may do, in the words of the cases."""
    legal = hand.legal_actions()
    return {
        "player": legal.player, "fold": legal.fold, "check": legal.check, "call": legal.call,
        "min_to": legal.min_to, "max_to": legal.max_to,
    }


def facing(player: int, call: int, min_to: int | None, max_to: int | None) -> dict[str, object]:
    """The options of a player facing a bet: fold, call ``call``, raise to min_to..max_to."""
    return {
        "player": player, "fold": True, "check": False, "call": call, "min_to": min_to, "max_to": max_to,
    }


def unraised(player: int, min_to: int | None, max_to: int | None) -> dict[str, object]:
    """The options of a player with nothing to call: check, or bet/raise min_to..max_to."""
    return {"player": player, "fold": False, "check": True, "call": 0, "min_to": min_to, "max_to": max_to}


def may_only_call_or_fold(hand: Hand, player: int, call: int) -> None:
    assert options(hand) == facing(player, call=call, min_to=None, max_to=None)


def awards(hand: Hand) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...]]]:
    """(pot index, amount, winners, shares) in the order the pots were awarded."""
    return [(a.pot, a.amount, a.winners, a.shares) for a in events_of(hand, PotAwarded)]


# --- A. Blinds and seating -----------------------------------------------------------------


def test_case_1_everyone_folds_to_the_big_blind_H9() -> None:
    """Case 1 (H9, H12): NL 1/2, everyone folds to the big blind: he wins without showing,
    +1 (the small blind's chip); no board is dealt."""
    h = Hand(NL12, [100] * 4, stacked_deck(4))
    play(h, "2 fold; 3 fold; 0 fold")
    assert h.complete
    assert h.stacks == [99, 101, 100, 100]
    assert showdown_log(h) == [] and h.board == [] and events_of(h, BoardDealt) == []
    assert h.result().net == (-1, 1, 0, 0)


def test_case_1_big_blinds_own_two_come_back_uncalled() -> None:
    """Case 1: "he takes the SB's 1, and his own 2 comes back as uncalled (not raked)":
    the pot he wins is the small blind's 1; his whole big blind of 2 is returned."""
    h = Hand(NL12, [100] * 4, stacked_deck(4))
    play(h, "2 fold; 3 fold; 0 fold")
    assert events_of(h, UncalledReturned) == [UncalledReturned(1, 2)]
    assert awards(h) == [(0, 1, (1,), (1,))]
    assert h.stacks == [99, 101, 100, 100]


def test_case_2_big_blind_option_H10() -> None:
    """Case 2 (H10): NL 1/2, UTG and the button call, the SB completes: the BB may check
    (then the SB acts first on the flop) or raise to at least 4."""
    h = Hand(NL12, [100] * 4, stacked_deck(4))
    play(h, "2 call; 3 call; 0 call")
    assert options(h) == unraised(1, min_to=4, max_to=100)
    play(h, "1 check")
    assert (h.street, h.actor, h.pot) == (1, 0, 8)

    h = Hand(NL12, [100] * 4, stacked_deck(4))
    play(h, "2 call; 3 call; 0 call")
    with pytest.raises(IllegalAction):
        h.bet_raise(3)
    play(h, "1 raise 4")
    assert options(h) == facing(2, call=2, min_to=6, max_to=100)


def test_case_3_heads_up_button_posts_small_blind_acts_first_H4() -> None:
    """Case 3 (H4): heads-up NL 1/2: the button posts 1 and acts first preflop (fold,
    call 1, or raise to 4 or more); then the BB checks or raises; on every later street
    the BB acts first."""
    h = Hand(NL12, [100, 100], stacked_deck(2))
    assert h.bets == [2, 1]
    assert options(h) == facing(1, call=1, min_to=4, max_to=100)
    play(h, "1 call")
    assert options(h) == unraised(0, min_to=4, max_to=100)
    play(h, "0 check")
    for street in (1, 2, 3):
        assert (h.street, h.actor) == (street, 0)
        play(h, "0 check; 1 check")
    assert h.phase == "showdown"


# --- B. No limit ---------------------------------------------------------------------------


def test_case_9_minimum_raise_L2() -> None:
    """Case 9 (L2): NL 1/2: UTG raises to 6, so the next raise is to at least 10; the
    minimum flop bet is 2."""
    h = Hand(NL12, [100] * 6, stacked_deck(6))
    play(h, "2 raise 6")
    assert options(h)["min_to"] == 10
    with pytest.raises(IllegalAction):
        h.bet_raise(9)
    play(h, "3 call; 4 fold; 5 fold; 0 fold; 1 fold")
    assert h.street == 1 and h.actor == 2
    assert (options(h)["min_to"], options(h)["max_to"]) == (2, 94)


def test_case_9_minimum_raise_follows_the_last_raise() -> None:
    """Case 9 (L2): 100/200 flop: 600, then 1600, then 3600: D's minimum raise is to 5600."""
    h = Hand(Game.no_limit(100, 200), [100_000] * 5, stacked_deck(5))
    play(h, "2 call; 3 call; 4 call; 0 call; 1 check")
    assert options(h)["min_to"] == 200
    play(h, "0 bet 600")
    assert options(h)["min_to"] == 1200
    play(h, "1 raise 1600")
    assert options(h)["min_to"] == 2600
    play(h, "2 raise 3600")
    assert options(h) == facing(3, call=3600, min_to=5600, max_to=99_800)


def case_10() -> Hand:
    """Blinds 2000/4000; PHH 0 SB, 1 BB, 2 A, 3 B, 4 C (button, 7500 chips).
    A calls, B folds, C is all-in for 7500, SB folds."""
    h = Hand(Game.no_limit(2000, 4000), [100_000, 100_000, 100_000, 100_000, 7500], stacked_deck(5))
    play(h, "2 call; 3 fold; 4 raise 7500; 0 fold")
    assert h.stacks[4] == 0
    return h


def test_case_10_short_all_in_preflop_big_blind_options_L2_D2() -> None:
    """Case 10 (TDA 47 Ex3): the BB may fold, call, or raise to at least 11500."""
    h = case_10()
    assert options(h) == facing(1, call=3500, min_to=11_500, max_to=100_000)


def test_case_10a_big_blind_calls_A_may_only_call_3500_or_fold() -> None:
    """Case 10 (a): the BB calls: A may only call 3500 or fold (PK wrongly lets A raise)."""
    h = case_10()
    play(h, "1 call")
    may_only_call_or_fold(h, 2, 3500)
    with pytest.raises(IllegalAction) as info:
        h.bet_raise(11_500)
    assert info.value.code == "cannot_raise"


def test_case_10b_big_blind_raises_A_may_raise_to_15500() -> None:
    """Case 10 (b): the BB raises to 11500: A may raise again, minimum to 15500."""
    h = case_10()
    play(h, "1 raise 11500")
    assert options(h) == facing(2, call=7500, min_to=15_500, max_to=100_000)


def test_case_11_short_all_in_postflop_L2_D2() -> None:
    """Case 11: 50/100: A bets 100, B calls, C is all-in for 150. A and B may only call or
    fold; D, yet to act, may raise, minimum to 250."""
    # PHH 0 A, 1 B, 2 C (250 chips), 3 D; all limp preflop
    h = Hand(Game.no_limit(50, 100), [5000, 5000, 250, 5000], stacked_deck(4))
    play(h, "2 call; 3 call; 0 call; 1 check")
    play(h, "0 bet 100; 1 call; 2 raise 150")
    assert h.stacks[2] == 0
    assert options(h) == facing(3, call=150, min_to=250, max_to=4900)
    play(h, "3 call")
    may_only_call_or_fold(h, 0, 50)
    play(h, "0 call")
    may_only_call_or_fold(h, 1, 50)
    play(h, "1 call")
    assert h.street == 2


def case_12() -> Hand:
    """50/100 flop: PHH 0 A, 1 B (125 behind on the flop), 2 C, 3 D (200), 4 E.
    A bets 100, B all-in 125, C calls, D all-in 200, E calls."""
    h = Hand(Game.no_limit(50, 100), [5000, 225, 5000, 300, 5000], stacked_deck(5))
    play(h, "2 call; 3 call; 4 call; 0 call; 1 check")
    play(h, "0 bet 100; 1 raise 125; 2 call; 3 raise 200; 4 call")
    assert h.stacks[1] == h.stacks[3] == 0
    return h


def test_case_12_short_all_ins_add_up_to_a_full_raise() -> None:
    """Case 12 (TDA 47 Ex1): A now faces a full 100 raise and may raise, minimum to 300."""
    h = case_12()
    assert options(h) == facing(0, call=100, min_to=300, max_to=4900)


def test_case_12_if_A_calls_C_faces_75_call_or_fold() -> None:
    """Case 12: if A calls, C faces only 75 more: call or fold."""
    h = case_12()
    play(h, "0 call")
    may_only_call_or_fold(h, 2, 75)


def test_case_12_if_A_raises_to_300_C_may_raise_again() -> None:
    """Case 12: if A raises to 300, C may raise again."""
    h = case_12()
    play(h, "0 raise 300")
    assert options(h) == facing(2, call=175, min_to=400, max_to=4900)


def test_case_13_minimum_raise_stays_at_last_full_raise() -> None:
    """Case 13 (TDA 47 Ex2): A bets 300; all-ins of 500, 650 and 800 follow; E calls. F may
    call 800 or raise to at least 1100."""
    # PHH 0 A, 1 B, 2 C, 3 D (the three all-ins), 4 E, 5 F; all limp 100 preflop
    h = Hand(Game.no_limit(50, 100), [5000, 600, 750, 900, 5000, 5000], stacked_deck(6))
    play(h, "2 call; 3 call; 4 call; 5 call; 0 call; 1 check")
    play(h, "0 bet 300; 1 raise 500; 2 raise 650; 3 raise 800; 4 call")
    assert h.stacks[1:4] == [0, 0, 0]
    assert options(h) == facing(5, call=800, min_to=1100, max_to=4900)


def test_case_14_all_in_for_less_than_the_big_blind() -> None:
    """Case 14: 50/100: A is all-in for 20 on the flop. B may fold, call 20, or raise to at
    least 120."""
    h = Hand(Game.no_limit(50, 100), [120, 5000, 5000], stacked_deck(3))
    play(h, "2 call; 0 call; 1 check")
    assert (options(h)["min_to"], options(h)["max_to"]) == (20, 20)  # all in for less is allowed
    play(h, "0 bet 20")
    assert options(h) == facing(1, call=20, min_to=120, max_to=4900)


def test_case_15_short_big_blind_call_is_the_full_big_blind_D3() -> None:
    """Case 15 (D3): 50/100; the BB has 60 and posts all of it. UTG must call 100 (not 60)
    or raise to at least 200."""
    h = Hand(Game.no_limit(50, 100), [1000, 60, 1000, 1000], stacked_deck(4))
    assert h.bets == [50, 60, 0, 0] and h.stacks[1] == 0
    assert options(h) == facing(2, call=100, min_to=200, max_to=1000)


def test_case_15_only_UTG_calls_main_pot_170_and_40_back() -> None:
    """Case 15: if only UTG calls and the SB folds: main pot 170, and UTG gets 40 back."""
    h = deal(Game.no_limit(50, 100), [1000, 60, 1000, 1000], [None, "AsAd", "7c2d", None], "Kh9s5c3d2h")
    play(h, "2 call; 3 fold; 0 fold")
    assert events_of(h, UncalledReturned) == [UncalledReturned(2, 40)]
    assert events_of(h, StreetEnded)[0] == StreetEnded(0, 170)
    assert h.complete  # no more betting is possible: the board runs out
    assert awards(h) == [(0, 170, (1,), (170,))]
    assert h.stacks == [950, 170, 940, 1000]


def test_case_16_big_blind_option_after_short_all_in() -> None:
    """Case 16 (TDA 43 Ex2): 50/100: UTG is all-in for 150; everyone calls. The BB may still
    raise, minimum to 250."""
    h = Hand(Game.no_limit(50, 100), [1000, 1000, 150, 1000], stacked_deck(4))
    play(h, "2 raise 150; 3 call; 0 call")
    assert h.stacks[2] == 0
    assert options(h) == facing(1, call=50, min_to=250, max_to=1000)


# --- C. Pot limit --------------------------------------------------------------------------

PL12 = Game.pot_limit(1, 2)


def test_case_17_pot_limit_preflop_UTG_4_to_7_L3() -> None:
    """Case 17 (L3): PL 1/2, 6-max: UTG minimum 4, maximum 7."""
    h = Hand(PL12, [200] * 6, stacked_deck(6))
    assert options(h) == facing(2, call=2, min_to=4, max_to=7)


def test_case_17_after_UTG_makes_it_7() -> None:
    """Case 17: after UTG makes it 7: next player minimum 12, maximum 24; the SB can go
    to 23 at most."""
    h = Hand(PL12, [200] * 6, stacked_deck(6))
    play(h, "2 raise 7")
    assert (options(h)["min_to"], options(h)["max_to"]) == (12, 24)
    play(h, "3 fold; 4 fold; 5 fold")
    assert h.actor == 0
    assert (options(h)["min_to"], options(h)["max_to"]) == (12, 23)


def test_case_17_after_a_raise_and_a_call_or_one_limp() -> None:
    """Case 17: after UTG 7 and one call, the next maximum is 31. After one limp, the
    maximum is 9."""
    h = Hand(PL12, [200] * 6, stacked_deck(6))
    play(h, "2 raise 7; 3 call")
    assert options(h)["max_to"] == 31
    h = Hand(PL12, [200] * 6, stacked_deck(6))
    play(h, "2 call")
    assert (options(h)["min_to"], options(h)["max_to"]) == (4, 9)


def test_case_18_pot_limit_postflop_pot_100() -> None:
    """Case 18 (L3): postflop, pot 100. A bets 50: B may raise to between 100 and 250. If B
    calls, C's maximum is 300."""
    # PL 5/10, four players each put in 25 preflop: pot 100; PHH 0 A, 1 B, 2 C, 3 D
    h = Hand(Game.pot_limit(5, 10), [500] * 4, stacked_deck(4))
    play(h, "2 raise 25; 3 call; 0 call; 1 call")
    assert (h.street, h.pot, h.actor) == (1, 100, 0)
    assert options(h)["max_to"] == 100
    play(h, "0 bet 50")
    assert (options(h)["player"], options(h)["min_to"], options(h)["max_to"]) == (1, 100, 250)
    play(h, "1 call")
    assert (options(h)["player"], options(h)["min_to"], options(h)["max_to"]) == (2, 100, 300)


def test_case_19_antes_are_dead_money() -> None:
    """Case 19: blinds 10/20 plus 6 antes of 5: UTG's pot-limit maximum is 100; the
    no-limit minimum raise is still to 40; antes never count toward a call."""
    h = Hand(Game.pot_limit(10, 20, ante=5), [1000] * 6, stacked_deck(6))
    assert h.pot == 60
    assert options(h) == facing(2, call=20, min_to=40, max_to=100)
    h = Hand(Game.no_limit(10, 20, ante=5), [1000] * 6, stacked_deck(6))
    assert options(h) == facing(2, call=20, min_to=40, max_to=995)
    play(h, "2 call; 3 call; 4 call; 5 call; 0 call")
    assert h.stacks == [975, 975, 975, 975, 975, 975]


def test_case_20_pot_limit_dead_small_blind_counts_as_full() -> None:
    """Case 20 (TDA 54-B/C): PL 100/200 with a dead small blind (no small blind posted;
    the big blind is the first seat left of the button, as in case 5): the first
    player's maximum is 700, as if full blinds were in. After the flop the real pot
    counts."""
    h = Hand(Game.pot_limit(100, 200), [10_000] * 4, stacked_deck(4), blinds=[200, 0, 0, 0])
    assert h.pot == 200 and h.actor == 1
    assert (options(h)["call"], options(h)["min_to"], options(h)["max_to"]) == (200, 400, 700)
    play(h, "1 call; 2 fold; 3 fold; 0 check")
    assert (h.street, h.pot, h.actor) == (1, 400, 0)
    assert (options(h)["min_to"], options(h)["max_to"]) == (200, 400)


def test_case_20_pot_limit_short_big_blind_counts_as_full() -> None:
    """Case 20: PL 100/200, a big blind who posts only 100: the first player's maximum is
    700. After the flop the real pot counts."""
    h = Hand(Game.pot_limit(100, 200), [10_000, 100, 10_000, 10_000], stacked_deck(4))
    assert h.bets == [100, 100, 0, 0]
    assert (options(h)["call"], options(h)["min_to"], options(h)["max_to"]) == (200, 400, 700)
    play(h, "2 call; 3 fold; 0 call")
    assert (h.street, h.pot, h.actor) == (1, 500, 0)
    assert (options(h)["min_to"], options(h)["max_to"]) == (200, 500)


# --- D. Fixed limit ------------------------------------------------------------------------

FL24 = Game.fixed_limit(2, 4)  # blinds 1/2
FL1020 = Game.fixed_limit(10, 20)  # blinds 5/10


def fixed(hand: Hand, to: int) -> None:
    """The only bet or raise allowed is to ``to``."""
    assert (options(hand)["min_to"], options(hand)["max_to"]) == (to, to)
    for wrong in (to - 1, to + 1):
        assert not hand.can_bet_raise(wrong)


def capped(hand: Hand) -> None:
    assert (options(hand)["min_to"], options(hand)["max_to"]) == (None, None)
    with pytest.raises(IllegalAction) as info:
        hand.bet_raise(hand.level + 2)
    assert info.value.code == "cannot_raise"


def test_case_21_fixed_limit_bet_sizes_and_cap_L1_D1() -> None:
    """Case 21 (L1, D1): FL 2/4, blinds 1/2. Preflop the BB is the first bet: raises go to
    4 and 6, and 8 is the cap. Flop: 2, 4, 6, 8. Turn: 4, 8, 12, 16."""
    h = Hand(FL24, [100] * 5, stacked_deck(5))
    for p, to in ((2, 4), (3, 6), (4, 8)):
        assert h.actor == p
        fixed(h, to)
        h.bet_raise(to)
    assert h.actor == 0
    capped(h)  # a fifth bet preflop is refused (PK allows it)
    play(h, "0 call; 1 call; 2 call; 3 call")
    assert h.street == 1
    for p, to in ((0, 2), (1, 4), (2, 6), (3, 8)):
        assert h.actor == p
        fixed(h, to)
        h.bet_raise(to)
    capped(h)
    play(h, "4 call; 0 call; 1 call; 2 call")
    assert h.street == 2
    for p, to in ((0, 4), (1, 8), (2, 12), (3, 16)):
        assert h.actor == p
        fixed(h, to)
        h.bet_raise(to)
    capped(h)
    play(h, "4 call; 0 call; 1 call; 2 call")
    assert h.street == 3
    fixed(h, 4)


def test_case_22_check_raise_and_cap() -> None:
    """Case 22: A checks, B bets 2, A raises to 4, C to 6, B to 8 (cap). A and C may only
    call or fold. (Seat order A, C, B: C checked before B's bet.)"""
    # PHH 0 A, 1 C, 2 B
    h = Hand(FL24, [100] * 3, stacked_deck(3))
    play(h, "2 call; 0 call; 1 check")
    play(h, "0 check; 1 check; 2 bet 2")
    fixed(h, 4)
    play(h, "0 raise 4; 1 raise 6; 2 raise 8")
    may_only_call_or_fold(h, 0, 4)
    play(h, "0 call")
    may_only_call_or_fold(h, 1, 2)
    play(h, "1 call")
    assert h.street == 2


def heads_up_flop(game: Game) -> Hand:
    h = Hand(game, [100, 100], stacked_deck(2))
    play(h, "1 call; 0 check")
    return h


def test_case_23_heads_up_cap_D1() -> None:
    """Case 23 (D1): two players bet 2, 4, 6, 8: a fifth bet is refused, also heads-up."""
    h = heads_up_flop(FL24)
    for p, to in ((0, 2), (1, 4), (0, 6), (1, 8)):
        assert h.actor == p
        fixed(h, to)
        h.bet_raise(to)
    may_only_call_or_fold(h, 0, 2)
    with pytest.raises(IllegalAction) as info:
        h.bet_raise(10)
    assert info.value.code == "cannot_raise" and "cap" in str(info.value)


def test_case_23_heads_up_preflop_cap_D1() -> None:
    """Case 23 (D1): heads-up preflop the BB is the first bet: 4, 6, 8, then no more."""
    h = Hand(FL24, [100, 100], stacked_deck(2))
    play(h, "1 raise 4; 0 raise 6; 1 raise 8")
    may_only_call_or_fold(h, 0, 2)


def test_D1_heads_up_uncapped_setting_allows_more_raises() -> None:
    """D1: ``heads_up_uncapped`` (off by default) lifts the cap when two players are left;
    with three players the cap still holds."""
    assert FL24.cap == 4 and not FL24.heads_up_uncapped
    game = Game.fixed_limit(2, 4, heads_up_uncapped=True)
    h = heads_up_flop(game)
    for p, to in ((0, 2), (1, 4), (0, 6), (1, 8), (0, 10), (1, 12), (0, 14)):
        assert h.actor == p
        fixed(h, to)
        h.bet_raise(to)
    fixed(h, 16)
    h = Hand(game, [100] * 3, stacked_deck(3))
    play(h, "2 raise 4; 0 raise 6; 1 raise 8")
    may_only_call_or_fold(h, 2, 4)


def test_D1_cap_setting() -> None:
    """D1: the cap is four bets by default; a table may set another number."""
    h = Hand(Game.fixed_limit(2, 4, cap=3), [100] * 4, stacked_deck(4))
    play(h, "2 raise 4; 3 raise 6")
    capped(h)


def case_24_25(c_all_in_to: int) -> Hand:
    """FL 10/20 (blinds 5/10), turn; PHH 0 A, 1 B, 2 C, 3 D. A bets 20, B calls, C goes
    all-in to ``c_all_in_to``."""
    h = Hand(FL1020, [500, 500, 10 + c_all_in_to, 500], stacked_deck(4))
    play(h, "2 call; 3 call; 0 call; 1 check")
    play(h, "0 check; 1 check; 2 check; 3 check")
    assert h.street == 2
    fixed(h, 20)
    play(h, "0 bet 20; 1 call")
    fixed(h, c_all_in_to)  # all in for less than a raise to 40
    h.bet_raise(c_all_in_to)
    assert h.stacks[2] == 0
    return h


def test_case_24_half_bet_rule_not_reopened_D2() -> None:
    """Case 24 (D2): C is all-in for 29 (a raise of 9, under half a bet). D, who has not
    acted, may fold, call 29, or complete to 40; if D calls, A and B may only call 9 or
    fold."""
    h = case_24_25(29)
    assert options(h) == facing(3, call=29, min_to=40, max_to=40)
    play(h, "3 call")
    may_only_call_or_fold(h, 0, 9)
    play(h, "0 call")
    may_only_call_or_fold(h, 1, 9)
    play(h, "1 call")
    assert h.street == 3


def test_case_24_completion_reopens_cap_20_40_60_80() -> None:
    """Case 24: a completion to 40 lets A and B raise again. Cap: 20, 40, 60, 80."""
    h = case_24_25(29)
    play(h, "3 raise 40")
    fixed(h, 60)
    play(h, "0 raise 60")
    fixed(h, 80)
    play(h, "1 raise 80")
    may_only_call_or_fold(h, 3, 40)
    play(h, "3 call")
    may_only_call_or_fold(h, 0, 20)


def test_case_25_half_bet_rule_reopens_D2() -> None:
    """Case 25 (D2): C is all-in for 30 (a raise of 10 = half a bet): a full raise, so A
    may raise to 50 (PK refuses). Cap: 20, 30, 50, 70."""
    h = case_24_25(30)
    assert options(h) == facing(3, call=30, min_to=50, max_to=50)
    play(h, "3 call")
    assert options(h) == facing(0, call=10, min_to=50, max_to=50)
    play(h, "0 raise 50")
    fixed(h, 70)
    play(h, "1 raise 70")
    may_only_call_or_fold(h, 3, 40)
    play(h, "3 call")
    may_only_call_or_fold(h, 0, 20)


def fl_flop(a_stack_on_flop: int) -> Hand:
    """FL 10/20 flop, PHH 0 A (``a_stack_on_flop`` behind), 1 B, 2 C, 3 D; all limped."""
    h = Hand(FL1020, [10 + a_stack_on_flop, 500, 500, 500], stacked_deck(4))
    play(h, "2 call; 3 call; 0 call; 1 check")
    assert h.street == 1 and h.actor == 0
    return h


def test_case_26_all_in_bet_for_less_than_half() -> None:
    """Case 26: 10/20 flop: A bets all-in for 4: B may fold, call 4, or complete to 10
    (then 20, 30, 40)."""
    h = fl_flop(4)
    fixed(h, 4)
    play(h, "0 bet 4")
    assert options(h) == facing(1, call=4, min_to=10, max_to=10)
    play(h, "1 raise 10")
    fixed(h, 20)
    play(h, "2 raise 20")
    fixed(h, 30)
    play(h, "3 raise 30")
    fixed(h, 40)
    play(h, "1 raise 40")
    may_only_call_or_fold(h, 2, 20)


def test_case_26_all_in_bet_of_half_a_bet_counts_as_full() -> None:
    """Case 26: A bets all-in for 6 (half a bet or more): it counts as a full bet, so B
    may raise to 16."""
    h = fl_flop(6)
    play(h, "0 bet 6")
    assert options(h) == facing(1, call=6, min_to=16, max_to=16)


def test_case_27_short_all_in_preflop_fixed_limit() -> None:
    """Case 27: 10/20: UTG is all-in for 14; the others call. The BB may call 4, fold, or
    complete to 20. A completion lets the callers act again."""
    h = Hand(FL1020, [500, 500, 14, 500, 500], stacked_deck(5))
    fixed(h, 14)
    play(h, "2 raise 14; 3 call; 4 call; 0 call")
    assert options(h) == facing(1, call=4, min_to=20, max_to=20)
    play(h, "1 raise 20")
    assert options(h) == facing(3, call=6, min_to=30, max_to=30)


# --- E. Pots -------------------------------------------------------------------------------


def case_28(holes: Sequence[str]) -> Hand:
    """NL 15/30; PHH 0 A (SB, 50), 1 E (BB, 1000), 2 B (120), 3 C (300), 4 D (button, 500).
    B all-in 120, C all-in 300, D calls 300, A calls all-in 50, E (30 in) folds."""
    h = deal(Game.no_limit(15, 30), [50, 1000, 120, 300, 500], holes, "2c7d9hJs3c")
    play(h, "2 raise 120; 3 raise 300; 4 call; 0 call; 1 fold")
    return h


def test_case_28_side_pots_H13() -> None:
    """Case 28 (H13): main pot 230 (A, B, C, D), side pot 1 210 (B, C, D), side pot 2 360
    (C, D); D keeps his other 200. A > D > B > C: A wins 230, D wins 570. Each pot is
    split on its own, last-formed first."""
    h = case_28(["AsAd", "4h5h", "QsQd", "8c6d", "KsKd"])
    assert h.complete
    assert [(a.pot, a.amount, a.eligible) for a in events_of(h, PotAwarded)] == [
        (2, 360, (3, 4)), (1, 210, (2, 3, 4)), (0, 230, (0, 2, 3, 4)),
    ]
    assert awards(h) == [(2, 360, (4,), (360,)), (1, 210, (4,), (210,)), (0, 230, (0,), (230,))]
    assert h.stacks == [230, 970, 0, 0, 770]


def test_case_28_side_pots_tie_for_the_main_pot() -> None:
    """Case 28: if A and D tie, they split the main pot 115 each and D wins both side pots."""
    h = case_28(["AhJd", "4h5h", "QhTd", "8c6d", "AsJc"])
    assert awards(h) == [(2, 360, (4,), (360,)), (1, 210, (4,), (210,)), (0, 230, (0, 4), (115, 115))]
    assert h.stacks == [115, 970, 0, 0, 885]


def test_case_29_uncalled_bet_returned_before_showdown_H12() -> None:
    """Case 29 (H12): river: A bets 500, B calls all-in for 200. A gets 300 back before the
    showdown; it is not part of any pot."""
    # heads-up NL 1/2: PHH 0 A (big blind), 1 B (button, 200 behind on the river)
    h = deal(NL12, [1000, 202], ["7c2d", "AsAd"], "Kh9s5c3d4h")
    play(h, "1 call; 0 check; 0 check; 1 check; 0 check; 1 check")
    play(h, "0 bet 500; 1 call")
    assert h.complete
    returned = [i for i, e in enumerate(h.events) if type(e) is UncalledReturned]
    shown = [i for i, e in enumerate(h.events) if type(e) is Shown]
    assert [h.events[i] for i in returned] == [UncalledReturned(0, 300)]
    assert returned[0] < shown[0]
    assert showdown_log(h) == [("shown", 0, True), ("shown", 1, True)]
    assert awards(h) == [(0, 404, (1,), (404,))]
    assert h.stacks == [798, 404]


def test_case_30_short_small_blind_heads_up() -> None:
    """Case 30: heads-up 50/100: the button has 70 and calls all-in. The BB gets 30 back,
    nobody acts again, and the board runs out."""
    h = deal(Game.no_limit(50, 100), [1000, 70], ["7c2d", "AsAd"], "Kh9s5c3d4h")
    assert h.bets == [100, 50]
    assert options(h) == facing(1, call=20, min_to=None, max_to=None)
    play(h, "1 call")
    assert events_of(h, UncalledReturned) == [UncalledReturned(0, 30)]
    assert h.complete and len(h.board) == 5
    assert awards(h) == [(0, 140, (1,), (140,))]
    assert h.stacks == [930, 140]


def case_31() -> Hand:
    """NL 1/2; PHH 0 A (SB, 10 chips), 1 B (BB), 2 C (button). C raises to 10, A calls
    all-in, B calls."""
    h = deal(NL12, [10, 200, 200], ["AsAd", "KsKd", "QsQd"], "2c7d9hJs3c")
    play(h, "2 raise 10; 0 call; 1 call")
    assert h.stacks[0] == 0
    return h


def test_case_31_all_in_cards_stay_down_while_others_bet() -> None:
    """Case 31 (TDA 16): while B and C bet into a side pot the cards stay face down; the
    first to act is the first player left of the button who is not all-in (B)."""
    h = case_31()
    assert (h.street, h.actor) == (1, 1)
    play(h, "1 bet 20; 2 call")
    assert (h.street, h.actor) == (2, 1)
    assert showdown_log(h) == []
    from pokerroom.core import views
    assert views.view(h, 1).seats[0].cards == (None, None)


def test_case_31_no_more_betting_all_hands_face_up_then_board() -> None:
    """Case 31: once no more betting is possible, all hands are turned face up (all-in
    hands cannot be mucked) and the rest of the board is dealt."""
    h = case_31()
    play(h, "1 bet 20; 2 call; 1 check; 2 bet 40; 1 fold")
    assert h.complete
    assert showdown_log(h) == [("shown", 2, True), ("shown", 0, True)]
    last_shown = max(i for i, e in enumerate(h.events) if type(e) is Shown)
    river = next(i for i, e in enumerate(h.events) if type(e) is BoardDealt and e.street == 3)
    assert last_shown < river
    assert events_of(h, UncalledReturned) == [UncalledReturned(2, 40)]
    assert awards(h) == [(1, 40, (2,), (40,)), (0, 30, (0,), (30,))]
    assert h.stacks == [30, 170, 210]


def test_case_31_all_in_hand_is_shown_by_force_at_the_river() -> None:
    """Case 31: the all-in hand at a checked-down river is tabled (forced), never mucked."""
    h = case_31()
    check_down(h)
    assert showdown_log(h)[0] == ("shown", 0, True)
    assert h.actor == 1
    play(h, "1 muck")
    play(h, "2 muck")
    assert h.complete


def test_case_32_odd_chips_hold_em_D5() -> None:
    """Case 32 (C4, D5): NL 1/2: S1 BTN, S2 SB, S3 BB, S4 UTG. UTG makes it 7, BTN and SB
    call, BB folds. Board A♠K♠Q♠J♠T♠; pot 23: SB gets 8, UTG 8, BTN 7."""
    # PHH 0 S2 (SB), 1 S3 (BB), 2 S4 (UTG), 3 S1 (button)
    h = deal(NL12, [100] * 4, ["2c3d", "4c5d", "6c7d", "8c9d"], "AsKsQsJsTs")
    play(h, "2 raise 7; 3 call; 0 call; 1 fold")
    assert h.pot == 23
    check_down(h)
    show_all(h)
    assert awards(h) == [(0, 23, (0, 2, 3), (8, 8, 7))]
    assert h.stacks == [101, 98, 101, 100]


def test_case_32_odd_chip_skips_a_folded_seat_left_of_the_button_D5() -> None:
    """Case 32 (D5): odd chips go to winners only (PS wrongly gives them to the seat left of
    the dealer even if it folded): the SB folds, pot 22 split three ways: BB 8, UTG 7,
    BTN 7."""
    h = deal(NL12, [100] * 4, ["2c3d", "4c5d", "6c7d", "8c9d"], "AsKsQsJsTs")
    play(h, "2 raise 7; 3 call; 0 fold; 1 call")
    check_down(h)
    show_all(h)
    assert awards(h) == [(0, 22, (1, 2, 3), (8, 7, 7))]
    assert h.stacks == [99, 101, 100, 100]


def test_D5_odd_chips_worked_out_pot_by_pot() -> None:
    """D5: one odd chip to each winner in turn from the first seat left of the button, pot
    by pot. NL 1/2, PHH 0 (SB, 5 chips), 1, 2, 3 (button). UTG raises to 8, the button
    calls, the SB calls all-in for 5, the BB calls; flop: 1 bets 4, 2 calls, 3 folds.
    Main pot 20 (0, 1, 2): 7, 7, 6; side pot 17 (1, 2): 9, 8. A royal flush on board."""
    h = deal(NL12, [5, 100, 100, 100], ["2c3d", "4c5d", "6c7d", "8c9d"], "AsKsQsJsTs")
    play(h, "2 raise 8; 3 call; 0 call; 1 call")
    play(h, "1 bet 4; 2 call; 3 fold")
    check_down(h)
    show_all(h)
    assert awards(h) == [(1, 17, (1, 2), (9, 8)), (0, 20, (0, 1, 2), (7, 7, 6))]
    assert h.stacks == [7, 104, 102, 92]


# --- F. Showdown ---------------------------------------------------------------------------


def river(holes: Sequence[str], board: str = "2h7s9dJc4s") -> Hand:
    """NL 1/2, PHH 0 A, 1 B, 2 C (button), everyone limps and checks to the river."""
    h = deal(NL12, [100] * 3, holes, board)
    play(h, "2 call; 0 call; 1 check")
    play(h, "0 check; 1 check; 2 check; 0 check; 1 check; 2 check")
    assert h.street == 3
    return h


def test_case_33_river_raiser_shows_first_caller_may_muck_H14() -> None:
    """Case 33 (H14): river: A bets, B raises, A calls. B shows first; A may muck a losing
    hand."""
    h = river(["2c3d", "AhAd", "KcKd"])
    play(h, "0 bet 10; 1 raise 30; 2 fold; 0 call")
    assert showdown_log(h) == [("shown", 1, True)]
    assert h.actor == 0 and h.legal_actions().muck and h.legal_actions().show
    play(h, "0 muck")
    assert h.complete
    assert showdown_log(h) == [("shown", 1, True), ("mucked", 0, None)]
    assert h.stacks == [68, 134, 98]


def test_case_33_a_bettor_who_was_called_must_show() -> None:
    """Case 33: A bets, B calls: A, the bettor who was called, is shown by force; B may
    muck."""
    h = river(["2c3d", "AhAd", "KcKd"])
    play(h, "0 bet 10; 1 call; 2 fold")
    assert showdown_log(h) == [("shown", 0, True)]
    assert h.actor == 1 and h.legal_actions().muck
    play(h, "1 show")
    assert h.stacks == [88, 114, 98]


def test_case_33_checked_river_first_live_seat_left_of_button_shows_first() -> None:
    """Case 33: if the river is checked through, the first live seat left of the button
    shows first (here the small blind folded, so the big blind)."""
    h = deal(NL12, [100] * 3, ["2c3d", "AhAd", "KcKd"], "2h7s9dJc4s")
    play(h, "2 call; 0 fold; 1 check")
    check_down(h)
    assert h.phase == "showdown" and h.actor == 1
    assert h.legal_actions().muck  # nobody bet: no one is forced
    play(h, "1 show; 2 muck")
    assert showdown_log(h) == [("shown", 1, False), ("mucked", 2, None)]
    assert h.stacks == [99, 103, 98]


def test_case_33_uncalled_bettor_wins_without_showing() -> None:
    """Case 33: an uncalled bettor wins without showing."""
    h = river(["2c3d", "AhAd", "KcKd"])
    play(h, "0 bet 10; 1 fold; 2 fold")
    assert h.complete and showdown_log(h) == []
    assert awards(h) == [(0, 6, (0,), (6,))]
    assert events_of(h, PotAwarded)[0].value is None
    assert h.stacks == [104, 98, 98]


def test_case_34_board_of_quads_with_an_ace_everyone_splits() -> None:
    """Case 34 (C3): board 9♠9♥9♦9♣A♠: every live hand splits; an ace in the hand adds
    nothing."""
    h = river(["AhKd", "KhQd", "2c3c"], "9s9h9d9cAs")
    check_down(h)
    show_all(h)
    assert awards(h) == [(0, 6, (0, 1, 2), (2, 2, 2))]
    assert h.stacks == [100, 100, 100]


# --- G. Hand ranking (through the engine's showdown) -------------------------------------


def heads_up_showdown(board: str, hand0: str, hand1: str) -> list[int]:
    """Heads-up NL 1/2 check-down, both hands shown; the final stacks."""
    h = deal(NL12, [100, 100], [hand0, hand1], board)
    check_down(h)
    show_all(h)
    assert h.complete
    return h.stacks


def test_case_35_wheel_loses_to_six_high_straight_C2() -> None:
    """Case 35 (C2): board 2♣3♦4♥5♠K♣: A♦7♠ (five-high straight) loses to 6♥Q♣."""
    assert heads_up_showdown("2c3d4h5sKc", "Ad7s", "6hQc") == [98, 102]


def test_case_35_no_wraparound_straight() -> None:
    """Case 35: K-A-2-3-4 is not a straight: A♠Q♦ on K♣2♣3♦4♥9♠ is ace-high and loses to
    a pair of nines."""
    assert heads_up_showdown("Kc2c3d4h9s", "AsQd", "9h8d") == [98, 102]


def test_case_35_steel_wheel() -> None:
    """Case 35: board 3♥4♥5♥K♣K♦: A♥2♥ beats K♠K♥ (four kings); 6♥7♥ beats A♥2♥."""
    board = "3h4h5hKcKd"
    assert heads_up_showdown(board, "Ah2h", "KsKh") == [102, 98]
    assert heads_up_showdown(board, "Ah2h", "6h7h") == [98, 102]
    h = deal(NL12, [100] * 3, ["Ah2h", "KsKh", "6h7h"], board)
    check_down(h)
    show_all(h)
    assert awards(h) == [(0, 6, (2,), (6,))]


def test_case_36_kickers() -> None:
    """Case 36 (C3): board A♠K♦7♣4♥2♠: A♥Q♣ beats A♦J♠. Board K♠K♦Q♣J♥9♠: A♣2♦ and A♥8♠
    split, because only the best five cards count."""
    assert heads_up_showdown("AsKd7c4h2s", "AhQc", "AdJs") == [102, 98]
    assert heads_up_showdown("KsKdQcJh9s", "Ac2d", "Ah8s") == [100, 100]


def test_case_37_suits_never_break_ties() -> None:
    """Case 37 (C2): board Q♣J♦T♠3♥2♣: A♠K♠ and A♥K♥ split. Board A♥K♥9♥5♥2♥: Q♥3♣ beats
    4♥7♠, which beats J♣J♦ (that hand plays the board)."""
    assert heads_up_showdown("QcJdTs3h2c", "AsKs", "AhKh") == [100, 100]
    board = "AhKh9h5h2h"
    assert heads_up_showdown(board, "Qh3c", "4h7s") == [102, 98]
    assert heads_up_showdown(board, "4h7s", "JcJd") == [102, 98]
    h = deal(NL12, [100] * 3, ["JcJd", "4h7s", "Qh3c"], board)
    check_down(h)
    show_all(h)
    assert awards(h) == [(0, 6, (2,), (6,))]


# --- Decisions ----------------------------------------------------------------------------


def test_D2_same_half_raise_all_in_reopens_in_fixed_limit_not_in_no_limit() -> None:
    """D2: an all-in raise of exactly half a bet reopens the betting in fixed limit (half-bet
    rule) but not in no limit or pot limit (full-raise rule, TDA 47). Flop, bet 20, all-in
    to 30; the bettor gets the action back."""
    for game, reopened in (
        (Game.fixed_limit(20, 40), True),
        (Game.no_limit(10, 20), False),
        (Game.pot_limit(10, 20), False),
    ):
        # PHH 0 bettor, 1 caller, 2 all-in (50 chips: 20 preflop, 30 on the flop)
        h = Hand(game, [1000, 1000, 50], stacked_deck(3))
        play(h, "2 call; 0 call; 1 check")
        play(h, "0 bet 20; 1 call; 2 raise 30")
        assert h.stacks[2] == 0 and h.actor == 0
        legal = h.legal_actions()
        assert (legal.min_to is not None) == reopened, game.structure
        if reopened:
            assert (legal.min_to, legal.max_to) == (50, 50)


def test_D3_short_big_blind_in_fixed_limit() -> None:
    """D3: FL 10/20 (blinds 5/10), the big blind has 6: UTG calls the full 10 or raises
    to 20."""
    h = Hand(FL1020, [500, 6, 500, 500], stacked_deck(4))
    assert h.bets == [5, 6, 0, 0]
    assert options(h) == facing(2, call=10, min_to=20, max_to=20)
    play(h, "2 call; 3 call; 0 call")
    assert h.street == 1  # the all-in big blind has no option


def test_D6_previous_hand_shows_showdown_hands_only() -> None:
    """D6 (case 49): after the hand, every hand that reached the showdown, shown or mucked,
    is revealed to everyone; a hand folded earlier never is; during the hand a mucked hand
    stays hidden; undealt board cards are never shown."""
    from pokerroom.core import views
    h = deal(NL12, [100] * 4, ["2c3d", "AhAd", "KcKd", "QcQd"], "2h7s9dJc4s")
    play(h, "2 call; 3 call; 0 fold; 1 check")
    check_down(h)
    assert h.actor == 1
    play(h, "1 show; 2 muck")
    assert not h.complete
    assert views.view(h, 3).seats[2].cards == (None, None)  # mucked, hand still live
    assert views.view(h, 3).seats[1].cards == tuple(h.holes[1])
    play(h, "3 muck")
    assert h.complete
    for viewer in (None, 0, 1, 2, 3):
        v = views.view(h, viewer)
        for p in (1, 2, 3):
            assert v.seats[p].cards == tuple(h.holes[p])
        if viewer != 0:
            assert v.seats[0].cards == (None, None)


def test_D6_no_undealt_board_cards() -> None:
    """D6 (case 49): a hand won on the flop shows only the flop: no rabbit hunting."""
    from pokerroom.core import views
    h = Hand(NL12, [100] * 3, stacked_deck(3, board="2h7s9dJc4s"))
    play(h, "2 call; 0 call; 1 check; 0 bet 2; 1 fold; 2 fold")
    assert h.complete
    for viewer in (None, 0, 1, 2):
        assert views.view(h, viewer).board == tuple(parse_cards("2h7s9d"))
    assert [e.street for e in events_of(h, BoardDealt)] == [1]
