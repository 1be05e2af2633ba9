"""Straddles (RULE-CASES D10): the player after the big blind posts a live straddle of twice
the big blind before the deal. Preflop the call is the full straddle (a short straddle too,
as D3 says of a short big blind), the minimum raise is to twice the straddle (RRP; PokerKit
and WSOP say the big blind more), the player after the straddler acts first and the
straddler last, with the option to raise; pot limit counts the straddle as the current bet.
Only no limit and pot limit, only with 3 or more players."""

from __future__ import annotations

import pytest

from pokerroom.core.events import Acted, BoardDealt, Posted, PotAwarded, UncalledReturned
from pokerroom.core.hand import Hand, IllegalAction
from pokerroom.core.structures import Game, GameError
from tests.core.helpers import NL12, check_down, deal, events_of, play, show_all

PL12 = Game.pot_limit(1, 2)
STRADDLE6 = [1, 2, 4, 0, 0, 0]  # PHH order: small blind, big blind, straddle (UTG), ..., button


def straddled(game: Game = NL12, stacks: list[int] | None = None, holes: list[str | None] | None = None,
              board: str = "", **forced: object) -> Hand:
    stacks = stacks or [200] * 6
    blinds = [1, 2, 4] + [0] * (len(stacks) - 3)
    return deal(game, stacks, holes or [], board, blinds=blinds, **forced)  # type: ignore[arg-type]


def test_D10_the_straddle_is_posted_live_after_the_blinds() -> None:
    h = straddled()
    assert [(e.player, e.kind, e.amount, e.all_in) for e in events_of(h, Posted)] == [
        (0, "small_blind", 1, False), (1, "big_blind", 2, False), (2, "straddle", 4, False)]
    assert (h.big_blind_position, h.bets, h.pot) == (1, [1, 2, 4, 0, 0, 0], 7)


def test_D10_the_player_after_the_straddler_acts_first_and_must_call_the_straddle() -> None:
    h = straddled()
    legal = h.legal_actions()
    assert (legal.player, legal.fold, legal.check, legal.call) == (3, True, False, 4)


def test_D10_the_minimum_raise_after_a_straddle_is_to_twice_the_straddle() -> None:
    """NL 1/2, straddle 4: the first raise is to at least 8 (RRP), not 6 (PokerKit, WSOP)."""
    h = straddled()
    legal = h.legal_actions()
    assert (legal.min_to, legal.max_to) == (8, 200)
    with pytest.raises(IllegalAction) as info:
        h.bet_raise(6)
    assert info.value.code == "amount_out_of_range" and "between 8 and 200" in str(info.value)
    h.bet_raise(8)  # a full raise of 4: the next raise is to 12
    assert (h.legal_actions().player, h.legal_actions().call, h.legal_actions().min_to) == (4, 8, 12)


def test_D10_the_order_preflop_ends_with_the_straddler_then_postflop_is_as_usual() -> None:
    h = straddled()
    order = []
    while h.street == 0:
        order.append(h.actor)
        h.check_call()
    assert order == [3, 4, 5, 0, 1, 2]  # the straddler last (his option: he checks)
    assert [e.action for e in events_of(h, Acted)] == ["call"] * 5 + ["check"]
    assert (h.street, h.pot, h.actor) == (1, 24, 0)  # six times 4; the small blind opens the flop


def test_D10_the_straddler_has_the_option_when_everyone_limps() -> None:
    h = straddled()
    play(h, "3 call; 4 call; 5 call; 0 call; 1 call")
    legal = h.legal_actions()
    assert (legal.player, legal.check, legal.fold, legal.call, legal.min_to, legal.max_to) == (
        2, True, False, 0, 8, 200)
    play(h, "2 raise 12")  # he raises: everyone acts again, facing 8 more
    assert (h.actor, h.legal_actions().call, h.legal_actions().min_to) == (3, 8, 20)
    play(h, "3 call; 4 fold; 5 fold; 0 fold; 1 fold")
    assert (h.street, h.pot) == (1, 4 * 4 + 2 * 12)  # the four folders' 4 each and two of 12


def test_D10_everyone_folds_to_the_straddler() -> None:
    """He wins the blinds; his straddle, which nobody called, comes back (H12, case 1)."""
    h = straddled()
    play(h, "3 fold; 4 fold; 5 fold; 0 fold; 1 fold")
    assert h.complete and events_of(h, UncalledReturned) == [UncalledReturned(2, 4)]
    assert [(e.amount, e.winners) for e in events_of(h, PotAwarded)] == [(3, (2,))]
    assert h.result().net == (-1, -2, 3, 0, 0, 0)


def test_D10_three_handed_the_button_straddles_and_the_small_blind_opens() -> None:
    h = straddled(stacks=[100, 100, 100])
    assert [e.kind for e in events_of(h, Posted)] == ["small_blind", "big_blind", "straddle"]
    legal = h.legal_actions()
    assert (legal.player, legal.call, legal.min_to) == (0, 3, 8)
    play(h, "0 call; 1 call")
    assert (h.actor, h.legal_actions().check) == (2, True)


def test_D10_a_straddle_after_a_big_blind_with_no_small_blind() -> None:
    """Dead small blind (the player due it has gone): player 0 posts the big blind and
    player 1 straddles; player 2 acts first."""
    h = deal(NL12, [100] * 4, blinds=[2, 4, 0, 0], big_blind_position=0, small_blind=False)
    assert [(e.player, e.kind) for e in events_of(h, Posted)] == [(0, "big_blind"), (1, "straddle")]
    legal = h.legal_actions()
    assert (legal.player, legal.call, legal.min_to) == (2, 4, 8)


def test_D10_pot_limit_counts_the_straddle_as_the_current_bet() -> None:
    """PL 1/2, straddle 4: the pot is 7, calling makes it 11, so the raise is to 4 + 11 = 15.
    After that player calls instead, the next one may raise to 4 + (11 + 4) = 19."""
    h = straddled(PL12)
    legal = h.legal_actions()
    assert (legal.call, legal.min_to, legal.max_to) == (4, 8, 15)
    play(h, "3 call")
    assert (h.legal_actions().min_to, h.legal_actions().max_to) == (8, 19)
    play(h, "4 raise 19")  # and the pot-sized re-raise: 19 + (1 + 2 + 4 + 4 + 19 + 19) = 68
    assert (h.legal_actions().call, h.legal_actions().min_to, h.legal_actions().max_to) == (19, 34, 68)


def test_D10_D3_a_short_straddle_is_called_in_full() -> None:
    """The straddler has 3 chips and posts them all in: the call is still 4 and the minimum
    raise to 8 (as D3 says of a short big blind); pot limit counts the straddle as full (case
    20). If only one player calls, the straddler's main pot is 1 + 2 + 3 + 3 and the
    caller's 1 chip more comes back."""
    h = straddled(stacks=[200, 200, 3, 200, 200, 200], holes=["7h2c", "8d3c", "AsAh", "KsKh"],
                  board="2d5d9sJhTc")
    assert events_of(h, Posted)[-1] == Posted(2, "straddle", 3, True)
    legal = h.legal_actions()
    assert (legal.player, legal.call, legal.min_to) == (3, 4, 8)
    play(h, "3 call; 4 fold; 5 fold; 0 fold; 1 fold")
    check_down(h)
    show_all(h)
    assert events_of(h, UncalledReturned) == [UncalledReturned(3, 1)]
    assert [(e.amount, e.winners) for e in events_of(h, PotAwarded)] == [(9, (2,))]
    assert h.result().net == (-1, -2, 6, -3, 0, 0)
    pl = straddled(PL12, stacks=[200, 200, 3, 200, 200, 200])
    assert (pl.legal_actions().call, pl.legal_actions().max_to) == (4, 15)


def test_D10_a_straddle_hand_plays_to_the_river_and_keeps_every_chip() -> None:
    h = straddled(holes=["7h2c", "8d3c", "AsAh", "KsKh", "QsQh", "JsJh"], board="2d5d9sJcTc")
    play(h, "3 raise 12; 4 call; 5 fold; 0 fold; 1 fold; 2 call")
    assert (h.street, h.pot) == (1, 1 + 2 + 3 * 12)
    assert [e.street for e in events_of(h, BoardDealt)] == [1]
    check_down(h)
    show_all(h)
    assert sum(h.stacks) == 1200 and h.result().net == (-1, -2, 1 + 2 + 2 * 12, -12, -12, 0)  # aces win


def test_D10_the_big_blind_position_is_found_without_being_named() -> None:
    h = Hand(NL12, [100] * 6, deal(NL12, [100] * 6).deck, blinds=STRADDLE6)
    assert (h.big_blind_position, h.actor) == (1, 3)


@pytest.mark.parametrize(("stacks", "blinds"), [
    ([100, 100], [2, 4]),  # heads-up: no third player to straddle
    ([100, 100], [4, 1]),
    ([100] * 6, [1, 2, 0, 4, 0, 0]),  # not the player after the big blind
    ([100] * 6, [1, 2, 4, 4, 0, 0]),  # one straddle only
    ([100] * 6, [1, 2, 4, 8, 0, 0]),  # a double straddle
    ([100] * 6, [1, 2, 6, 0, 0, 0]),  # not twice the big blind
])
def test_D10_other_straddles_are_refused(stacks: list[int], blinds: list[int]) -> None:
    with pytest.raises(GameError, match="D10"):
        Hand(NL12, stacks, deal(NL12, stacks).deck, blinds=blinds)


def test_D10_fixed_limit_refuses_a_straddle() -> None:
    game = Game.fixed_limit(2, 4)
    with pytest.raises(GameError, match="fixed limit has no straddles"):
        Hand(game, [100] * 4, deal(game, [100] * 4).deck, blinds=[1, 2, 4, 0])


def test_D10_a_straddle_needs_the_big_blind() -> None:
    with pytest.raises(GameError, match="a straddle needs the big blind"):
        Hand(NL12, [100] * 4, deal(NL12, [100] * 4).deck, blinds=[1, 1, 4, 0], big_blind_position=1)
