"""RULE-CASES.md cases 1-8 and 49 at the table, and the rules they serve (H3-H7, H9, H10,
H16, D6): seating, the button, blinds, dead button, newcomers and missed blinds."""

from __future__ import annotations

import pytest

from pokerroom.core.events import Acted, Mucked, audience, for_viewer
from pokerroom.table import ENTERING, IDLE, SITTING_OUT, Positions
from pokerroom.table.events import BlindMissed, HandFinished, Left, SatIn, SatOut
from pokerroom.table.view import table_view
from tests.core.helpers import stacked_deck
from tests.table.helpers import fold_round, play, posts, start, started, table_with

SIX = {1: 200, 2: 200, 3: 200, 4: 200, 5: 200, 6: 200}


def preflop_order(table, limit: int = 10) -> list[int]:
    """The seats asked to act preflop, in order, everyone calling (the BB checks)."""
    order = []
    while table.hand.street == 0 and table.actor is not None and len(order) < limit:
        order.append(table.actor)
        legal = table.hand.legal_actions()
        table.act(f"S{table.actor}", "check" if legal.check else "call")
    return order


# ---------------------------------------------------------------- A. blinds and seating


def test_case_1_everyone_folds_to_the_big_blind_H9():
    table = table_with(SIX)
    events = start(table, button=1)
    assert posts(events) == [(2, "small_blind", 1), (3, "big_blind", 2)]
    fold_round(table)
    record = table.previous
    assert record.player(3).net == 1 and record.player(2).net == -1
    assert table.seats[3].stack == 201 and table.seats[2].stack == 199
    # won without showing: no hole card of anyone is in the record
    assert all(c is None for p in record.players for c in p.cards)
    assert record.board == ()


def test_case_2_big_blind_option_H10():
    table = table_with(SIX)
    start(table, button=1)  # SB S2, BB S3
    play(table, "S4 call; S5 fold; S6 fold; S1 call; S2 call")
    legal = table.hand.legal_actions()
    assert table.actor == 3 and legal.check and legal.min_to == 4
    play(table, "S3 check")
    assert table.hand.street == 1 and table.actor == 2  # the SB acts first on the flop


def test_case_3_heads_up_button_posts_small_blind_H4():
    table = table_with({2: 100, 5: 100})
    events = start(table, button=5)
    assert table.positions == Positions(5, 5, 2)
    assert posts(events) == [(2, "big_blind", 2), (5, "small_blind", 1)]
    legal = table.hand.legal_actions()
    assert table.actor == 5 and legal.call == 1 and legal.min_to == 4
    play(table, "S5 call; S2 check")
    assert table.actor == 2  # the big blind acts first after the flop
    fold_round(table)
    # next hand the button and blinds swap
    events = start(table)
    assert table.positions == Positions(2, 2, 5)
    assert posts(events) == [(5, "big_blind", 2), (2, "small_blind", 1)]


def _bust(table, seat: int, winner: int) -> None:
    """Play the current hand so that ``seat`` (all in on a blind) loses to ``winner``."""
    while table.phase != IDLE:
        actor = table.actor
        legal = table.hand.legal_actions()
        if actor == winner:
            table.act(f"S{actor}", "check" if legal.check else "call")
        elif legal.show:
            table.act(f"S{actor}", "show")
        else:
            table.act(f"S{actor}", "check" if legal.check else "fold")
    assert table.seats[seat].stack == 0


def test_case_4_three_players_become_two():
    # BTN A (S1), SB B (S3), BB C (S5); A busts
    table = table_with({1: 2, 3: 100, 5: 100})
    start(table, stacked_deck(3, ["7c2d", "AsAh", "KsKh"], "AdKdQc9s8h"), button=1)
    assert table.positions == Positions(1, 3, 5)
    play(table, "S1 call")  # all in for 2 with the worst hand; SB and BB see it through
    _bust(table, 1, winner=3)
    events = start(table)
    # plain rotation would give C (S5) the big blind twice: C takes button/SB, B the BB
    assert table.positions == Positions(5, 5, 3)
    assert posts(events) == [(3, "big_blind", 2), (5, "small_blind", 1)]


def test_case_5_dead_button_when_the_big_blind_busts():
    table = table_with({**SIX, 3: 2})
    # S2 SB, S3 BB all in for 2; S4 calls with aces and wins
    start(table, stacked_deck(6, ["9c8d", "7c2d", "AsAh"], "AdKdQc9s3h"), button=1)
    play(table, "S4 call; S5 fold; S6 fold; S1 fold; S2 fold")
    _bust(table, 3, winner=4)
    events = start(table)
    hs = started(events)
    assert hs.button == 2 and hs.small_blind is None and hs.big_blind == 4  # no small blind
    assert posts(events) == [(4, "big_blind", 2)]
    assert hs.seats == (4, 5, 6, 1, 2)
    assert preflop_order(table) == [5, 6, 1, 2, 4]


@pytest.mark.parametrize("how", ["busts", "leaves"])
def test_case_6_dead_button_when_the_small_blind_goes(how):
    table = table_with({**SIX, 2: 1})
    start(table, stacked_deck(6, ["7c2d", "AsAh"], "AdKdQc9s3h"), button=1)
    assert table.hand.stacks[0] == 0  # S2 is all in on his small blind
    if how == "busts":
        play(table, "S4 fold; S5 fold; S6 fold; S1 fold")
        _bust(table, 2, winner=3)
    else:
        table.leave("S2")
        fold_round(table)
        assert 2 not in table.seats
    events = start(table)
    hs = started(events)
    assert (hs.button, hs.small_blind, hs.big_blind) == (2, 3, 4)  # the button is dead on S2
    assert posts(events) == [(3, "small_blind", 1), (4, "big_blind", 2)]
    assert hs.seats == (3, 4, 5, 6, 1)
    preflop_order(table)
    assert table.hand.street == 1
    order = []
    while table.hand.street == 1:
        order.append(table.actor)
        table.act(f"S{table.actor}", "check")
    assert order == [3, 4, 5, 6, 1]  # S1 acts last after the flop again


def test_case_7_newcomer_posts_after_the_button_passes_him_H6():
    table = table_with({1: 200, 2: 200, 3: 200, 5: 200, 6: 200})
    start(table, button=2)  # BTN S2, SB S3, BB S5 (S4 empty)
    fold_round(table)
    table.sit("S4", 4, 200)
    table.set_options("S4", wait_for_big_blind=False)
    hs = started(start(table))
    # BTN S3, SB S5, BB S6: S4 sits between the button and the small blind
    assert (hs.button, hs.small_blind, hs.big_blind) == (3, 5, 6)
    assert 4 not in hs.seats and table.seats[4].state == ENTERING
    fold_round(table)
    events = start(table)
    hs = started(events)
    assert (hs.button, hs.small_blind, hs.big_blind) == (5, 6, 1)
    assert 4 in hs.seats and (4, "blind", 2) in posts(events)  # 2 live, from a seat after the BB
    play(table, "S2 call; S3 call")
    legal = table.hand.legal_actions()
    assert table.actor == 4 and legal.check and legal.min_to == 4  # he keeps the option
    play(table, "S4 raise 6")
    assert table.seats[4].state == "active" and not table.seats[4].owes


def test_case_7_newcomer_may_wait_for_his_big_blind():
    table = table_with({1: 200, 2: 200, 3: 200, 5: 200, 6: 200})
    start(table, button=2)
    fold_round(table)
    table.sit("S4", 4, 200)  # waits for the big blind by default
    bbs = []
    for _ in range(5):
        hs = started(start(table))
        bbs.append(hs.big_blind)
        assert (4 in hs.seats) == (hs.big_blind == 4)
        fold_round(table)
    assert bbs == [6, 1, 2, 3, 4]
    assert table.previous.player(4).net == 1  # he posted the BB and everyone folded to him


def _missed_big_blind(wait: bool, rule: str = "seeds"):
    """S4 sits out while the big blind passes him; returns the table when he comes back."""
    table = table_with({1: 200, 2: 200, 3: 200, 4: 200, 5: 200}, missed_blinds=rule)
    start(table, button=1)  # SB S2, BB S3
    fold_round(table)
    table.sit_out("S4")
    events = start(table)
    assert started(events).big_blind == 5 and BlindMissed(4, "S4", "big") in events
    fold_round(table)
    events = table.sit_in("S4")
    owes = "big_and_small_blind" if rule == "standard" else "big_blind"
    assert events == [SatIn(4, "S4", owes)]
    table.set_options("S4", wait_for_big_blind=wait)
    return table


def _post_from_after_the_big_blind(table):
    """S4 came back before his big blind: the next hand he sits between the button and the
    small blind and must wait; the one after he may post. The events of that hand."""
    events = start(table)  # BTN S3, SB S5, BB S1: S4 is between the button and the SB
    hs = started(events)
    assert (hs.button, hs.small_blind, hs.big_blind) == (3, 5, 1) and 4 not in hs.seats
    fold_round(table)
    events = start(table)  # BTN S5, SB S1, BB S2: now he may post
    hs = started(events)
    assert (hs.button, hs.small_blind, hs.big_blind) == (5, 1, 2) and 4 in hs.seats
    return events


def test_case_8_D11_H7_missed_blinds_post_one_big_blind_live_by_default():
    """D11, the seeds: one post the size of the big blind, live, whichever blinds he missed;
    unraised, he may check or raise."""
    table = _missed_big_blind(wait=False)
    assert table.config.missed_blinds == "seeds"
    events = _post_from_after_the_big_blind(table)
    assert (4, "blind", 2) in posts(events) and not [p for p in posts(events) if p[:2] == (4, "dead")]
    assert table.hand.pot == 1 + 2 + 2
    play(table, "S3 call")
    legal = table.hand.legal_actions()
    assert table.actor == 4 and legal.check and legal.min_to == 4  # unraised: check or raise
    play(table, "S4 check; S5 call; S1 call; S2 check")
    assert table.hand.street == 1


def test_case_8_D11_standard_setting_posts_big_live_and_small_dead_H7():
    table = _missed_big_blind(wait=False, rule="standard")
    events = _post_from_after_the_big_blind(table)
    assert (4, "dead", 1) in posts(events) and (4, "blind", 2) in posts(events)
    assert table.hand.pot == 1 + 2 + 1 + 2
    play(table, "S3 call")
    legal = table.hand.legal_actions()
    assert table.actor == 4 and legal.check and legal.min_to == 4  # unraised: check or raise
    play(table, "S4 check; S5 call; S1 call; S2 check")
    assert table.hand.street == 1


@pytest.mark.parametrize("rule", ["seeds", "standard"])
def test_case_8_D11_or_wait_for_the_big_blind(rule: str):
    table = _missed_big_blind(wait=True, rule=rule)
    for _ in range(3):
        events = start(table)
        hs = started(events)
        assert 4 not in hs.seats
        fold_round(table)
    events = start(table)
    hs = started(events)
    assert hs.big_blind == 4 and posts(events).count((4, "big_blind", 2)) == 1
    assert not [p for p in posts(events) if p[0] == 4 and p[1] == "dead"]  # nothing more is owed
    assert not table.seats[4].owes


def _missed_small_blind(rule: str):
    table = table_with({1: 200, 2: 200, 3: 200, 4: 200, 5: 200}, missed_blinds=rule)
    start(table, button=2)  # SB S3, BB S4
    fold_round(table)
    table.sit_out("S4")  # his next blind would be the small one
    events = start(table)
    hs = started(events)
    assert (hs.button, hs.small_blind, hs.big_blind) == (3, None, 5)  # his small blind is dead
    assert BlindMissed(4, "S4", "small") in events
    fold_round(table)
    assert table.sit_in("S4") == [SatIn(4, "S4", "small_blind" if rule == "standard" else "big_blind")]
    table.set_options("S4", wait_for_big_blind=False)
    hs = started(start(table))  # BTN S4's old SB seat... BTN S4, SB S5, BB S1
    assert 4 not in hs.seats  # on the button: he must wait
    fold_round(table)
    return table, start(table)  # BTN S5, SB S1, BB S2


def test_case_8_D11_standard_missed_only_the_small_blind_posts_it_dead():
    table, events = _missed_small_blind("standard")
    assert (4, "dead", 1) in posts(events) and not [p for p in posts(events) if p[:2] == (4, "blind")]
    play(table, "S3 fold")
    assert table.actor == 4 and table.hand.legal_actions().call == 2  # a dead blind is no bet


def test_case_8_D11_missed_only_the_small_blind_posts_a_big_blind_live_by_default():
    table, events = _missed_small_blind("seeds")
    assert (4, "blind", 2) in posts(events) and not [p for p in posts(events) if p[:2] == (4, "dead")]
    play(table, "S3 fold")
    legal = table.hand.legal_actions()
    assert table.actor == 4 and legal.check and legal.min_to == 4  # his post is live


# ---------------------------------------------------------------- previous hand


def test_case_49_previous_hand_reveals_every_hand_at_the_showdown_D6_H16():
    table = table_with({1: 100, 2: 100, 3: 100})
    # order: S2 (SB), S3 (BB), S1 (BTN)
    deck = stacked_deck(3, ["KsKh", "QsQh", "7c2d"], "AdJc8h4s3c")
    start(table, deck, button=1)
    play(table, "S1 call; S2 call; S3 check")  # flop
    play(table, "S2 check; S3 check; S1 bet 2; S2 call; S3 fold")  # S3 folds QQ
    play(table, "S2 check; S1 check")  # turn
    events = play(table, "S2 bet 4; S1 call")  # river: S2 shows kings, S1 mucks 72 (auto-muck)
    assert table.phase == IDLE
    assert any(type(e) is HandFinished for e in events)
    record = table.previous
    s1, s2, s3 = record.player(1), record.player(2), record.player(3)
    assert s2.reached_showdown and not s2.mucked and [str(c) for c in s2.cards] == ["Ks", "Kh"]
    assert s1.reached_showdown and s1.mucked and [str(c) for c in s1.cards] == ["7c", "2d"]
    assert s3.folded and s3.cards == (None, None)  # folded hands are never revealed
    assert [str(c) for c in record.board] == ["Ad", "Jc", "8h", "4s", "3c"]
    assert record.pots[0].winners == (2,) and record.pots[0].amount == 2 + 2 + 2 + 2 + 2 + 4 + 4
    assert s2.hand == "One pair, kings"
    # while the hand was played nobody but S1 saw the mucked cards
    (muck,) = [e for e in events if type(e) is Mucked]
    assert muck.player == 1 and audience(muck) == 1 and for_viewer(muck, 2).cards == ()


def test_case_49_no_rabbit_hunting():
    table = table_with({1: 100, 2: 100, 3: 100})
    start(table, button=1)
    play(table, "S1 call; S2 call; S3 check")
    play(table, "S2 bet 2; S3 fold; S1 fold")
    record = table.previous
    assert len(record.board) == 3  # the flop only: turn and river were never dealt
    assert all(c is None for p in record.players for c in p.cards)


# ---------------------------------------------------------------- leaving, busting, orbits


def test_leaving_mid_hand_folds_on_turn_and_frees_the_seat_after():
    table = table_with({1: 100, 2: 100, 3: 100})
    start(table, button=1)
    assert table.actor == 1
    table.leave("S2")  # not his turn yet: he stays until his turn comes
    assert 2 in table.seats
    events = play(table, "S1 raise 6")
    assert [e for e in events if type(e) is Acted][-1] == Acted(2, "fold", 0, 1, False)
    events = play(table, "S3 fold")
    assert Left(2, "S2", 99, "left") in events and 2 not in table.seats
    assert table.chips() == 300 - 99


def test_busted_player_sits_out_until_he_buys_again():
    table = table_with({1: 2, 3: 100, 5: 100})
    start(table, stacked_deck(3, ["7c2d", "AsAh", "KsKh"], "AdKdQc9s8h"), button=1)
    play(table, "S1 call")
    _bust(table, 1, winner=3)
    assert table.seats[1].state == SITTING_OUT
    hs = started(start(table))
    assert 1 not in hs.seats
    fold_round(table)
    events = table.add_chips("S1", 50)
    assert type(events[-1]) is SatIn and table.seats[1].state == ENTERING


def test_sitting_out_too_long_loses_the_seat_and_returns_the_chips():
    table = table_with({1: 100, 2: 100, 3: 100, 4: 100}, max_missed_orbits=2)
    start(table, button=1)
    fold_round(table)
    table.sit_out("S4")
    lefts = []
    for _ in range(12):
        events = start(table)
        lefts += [e for e in events if type(e) is Left]
        assert 4 not in started(events).seats
        fold_round(table)
        if lefts:
            break
    assert lefts == [Left(4, "S4", 100, "sat_out_too_long")]
    assert 4 not in table.seats


def test_a_player_sitting_out_is_told_how_many_orbits_his_seat_is_kept() -> None:
    """``view.orbits_left`` (issue 19): max_missed_orbits + 1 when he sits out, one less
    each time the big blind passes him; at 1, the next pass costs him the seat. None for
    a player who plays and for a watcher."""
    table = table_with({1: 100, 2: 100, 3: 100, 4: 100}, max_missed_orbits=2)
    start(table, button=1)
    fold_round(table)
    assert table_view(table, "S4").orbits_left is None
    table.sit_out("S4")
    assert table_view(table, "S4").orbits_left == 3
    assert table_view(table, "S1").orbits_left is None and table_view(table).orbits_left is None
    seen = [3]
    for _ in range(12):
        events = start(table)
        if any(type(e) is Left for e in events):
            break
        fold_round(table)
        left = table_view(table, "S4").orbits_left
        if left != seen[-1]:
            seen.append(left)
    assert seen == [3, 2, 1] and 4 not in table.seats  # the third pass cost the seat


def test_sit_out_at_next_big_blind():
    table = table_with({1: 100, 2: 100, 3: 100, 4: 100})
    start(table, button=1)  # BB S3
    fold_round(table)
    table.set_options("S4", sit_out_next_big_blind=True)
    events = start(table)
    hs = started(events)
    assert hs.big_blind == 1 and 4 not in hs.seats  # the BB skipped him and he sits out
    assert SatOut(4, "S4", "big_blind") in events and table.seats[4].owe_big
