"""Scenarios from production bugs of the open-source rooms (pokersource): dead blinds charged
twice, wrong heads-up blinds, one player paying the big blind hand after hand, a player
unable to sit back in. Each replays the situation and checks the rule that was broken."""

from __future__ import annotations

from collections import Counter

import pytest

from pokerroom.table import ACTIVE, SITTING_OUT
from tests.table.helpers import away_for, fold_round, posts, start, started, table_with


@pytest.mark.parametrize("rule", ["seeds", "standard"])
def test_dead_blind_is_charged_once_D11(rule: str):
    """A player who missed his blinds makes them up once (the standard rule: the dead small
    blind and the big live; the seeds': the big blind live), then pays only his normal
    blinds orbit after orbit (pokersource charged the dead blind again)."""
    table = table_with({1: 500, 2: 500, 3: 500, 4: 500, 5: 500}, missed_blinds=rule)
    away_for(table, "S4", 2, wait_for_big_blind=False)
    paid: Counter[str] = Counter()
    dealt = 0
    for _ in range(15):
        events = start(table)
        dealt += 4 in started(events).seats
        for seat, kind, _amount in posts(events):
            if seat == 4:
                paid[kind] += 1
        fold_round(table)
    assert dealt == 15  # he posted to come back at once, from a seat after the big blind
    # the missed blinds made up once, then his own blinds each orbit
    made_up = {"dead": 1, "blind": 1} if rule == "standard" else {"blind": 1}
    assert paid == {**made_up, "big_blind": 3, "small_blind": 3}


def test_heads_up_blinds_stay_right_across_players_leaving_and_joining():
    """Heads-up the button always posts the small blind and the blinds alternate, also when
    a third player comes and goes (pokersource posted the wrong heads-up blinds)."""
    table = table_with({1: 500, 4: 500})
    start(table, button=1)
    fold_round(table)
    last_bb = table.positions.big_blind
    for hand in range(30):
        if hand == 5:
            table.sit("S6", 6, 500)
        if hand == 12:
            table.leave("S6")
        events = start(table)
        hs = started(events)
        blinds = {kind: seat for seat, kind, _ in posts(events)}
        if len(hs.seats) == 2:
            assert hs.small_blind == hs.button  # H4: the button posts the small blind
            assert hs.seats[0] == hs.big_blind and hs.seats[1] == hs.button
        assert blinds["big_blind"] == hs.big_blind != last_bb
        last_bb = hs.big_blind
        fold_round(table)


def test_nobody_pays_the_big_blind_hands_running():
    """Players sitting out and coming back around the big blind never leave it stuck on one
    player (pokersource made one player pay it four hands running)."""
    table = table_with({1: 500, 2: 500, 3: 500, 4: 500})
    start(table, button=1)
    fold_round(table)
    previous = table.positions.big_blind
    for hand in range(40):
        who = f"S{hand % 4 + 1}"
        if hand % 3 == 0:
            table.sit_out(who)
        elif table.seats[hand % 4 + 1].state == SITTING_OUT:
            table.sit_in(who)
        events = start(table)
        bb = started(events).big_blind
        assert bb != previous, f"hand {hand}: seat {bb} pays the big blind again"
        previous = bb
        fold_round(table)


def test_player_can_always_sit_back_in():
    """Sitting out and back in, waiting for the big blind or posting, a player is dealt in
    again within an orbit (pokersource had players unable to sit back in)."""
    for wait in (True, False):
        table = table_with({1: 500, 2: 500, 3: 500, 4: 500, 5: 500, 6: 500})
        away_for(table, "S3", 7, wait_for_big_blind=wait)
        waited = 0
        while 3 not in started(start(table)).seats:
            fold_round(table)
            waited += 1
            assert waited < 6, f"wait={wait}: not dealt in again within an orbit"
        assert table.seats[3].state == ACTIVE and not table.seats[3].owes
