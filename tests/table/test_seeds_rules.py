"""The seeds' defaults and the rules players expect, at the table (issue 15): all-in
protection by default with its abuse limit (D7, R1, case 47), showing after the hand (D12),
and no ratholing (D13)."""

from __future__ import annotations

import pytest

from pokerroom.core.cards import parse_cards, stacked_deck
from pokerroom.core.events import Acted
from pokerroom.core.structures import Game
from pokerroom.table import ALL_IN_PROTECTION, CHECK_FOLD, ProtectionLimit, Table, TableConfig, TableError
from pokerroom.table.events import CardsRevealed, TimedOut
from pokerroom.table.view import table_view
from tests.table.helpers import fold_round, play, posts, start, table_with

DAY = 86_400.0


def test_D7_all_in_protection_is_the_default_of_every_table() -> None:
    assert TableConfig.single(Game.no_limit(1, 2)).timeout_policy == ALL_IN_PROTECTION
    assert TableConfig.single(Game.stud(10, 20, ante=1, bring_in=3)).timeout_policy == ALL_IN_PROTECTION
    assert Table(TableConfig.single(Game.no_limit(1, 2))).protections.limit == 2


def _timeout_facing_a_raise(table: Table, now: float) -> list[object]:
    """Three players, S1 on the button: S1 raises, S2 (the small blind) calls, and S3, the
    big blind with 2 in the pot, lets his clock run out. The events of the time-out."""
    start(table, now=now, **({"button": 1} if table.positions is None else {}))
    assert table.positions is not None and table.positions.big_blind == 3, table.positions
    play(table, "S1 raise 6; S2 call", now=now)
    assert table.actor == 3
    return table.advance(now + 100.0)


def _three(limit: ProtectionLimit, **settings: object) -> Table:
    table = Table(TableConfig.single(Game.no_limit(1, 2), seats=3, min_buy_in=1, max_buy_in=1000, **settings),
                  protections=limit)
    for seat in (1, 2, 3):
        table.sit(f"S{seat}", seat, 200)
    return table


def test_D7_at_most_two_protections_a_day_counted_across_tables() -> None:
    """D7: one ProtectionLimit for the room; S3 is protected on one table, then on another,
    and his third time-out that day folds; a day after the first he has one again."""
    limit = ProtectionLimit(limit=2, window=DAY)
    first, second = _three(limit, name="one"), _three(limit, name="two")
    assert table_view(first, "S3").protections_left == 2
    events = _timeout_facing_a_raise(first, 1000.0)
    assert events[:2] == [TimedOut(3, "S3", "protected"), Acted(3, "protected", 0, 2, True)]
    assert [s.protected for s in table_view(first, "S3").seats] == [False, False, True]
    assert table_view(first, "S3").protections_left == 1
    fold_round(first, 1101.0)
    events = _timeout_facing_a_raise(second, 2000.0)
    assert events[0] == TimedOut(3, "S3", "protected")
    fold_round(second, 2101.0)
    assert table_view(second, "S3").protections_left == 0
    # the third that day: he folds, his big blind is lost
    for table in (first, second):
        table.seats[3].timeouts = 0  # not sat out for time-outs in a row: only the limit counts
    start(first, now=3000.0)  # the button moves: S2 on it, S3 the small blind, S1 the big blind
    while first.actor != 3:
        play(first, f"S{first.actor} {'raise 6' if first.actor == 2 else 'call'}", now=3000.0)
    events = first.advance(3200.0)
    assert events[0] == TimedOut(3, "S3", "fold")
    fold_round(first, 3201.0)
    assert limit.left("S3", 1100.0 + DAY - 1) == 0 and limit.left("S3", 1100.0 + DAY + 1) == 1


def test_D7_past_the_limit_or_with_check_fold_a_timeout_checks_or_folds() -> None:
    for limit, policy in ((ProtectionLimit(limit=0), ALL_IN_PROTECTION), (ProtectionLimit(), CHECK_FOLD)):
        table = _three(limit, timeout_policy=policy)
        assert _timeout_facing_a_raise(table, 0.0)[0] == TimedOut(3, "S3", "fold")
        assert limit.left("S3", 0.0) == limit.limit  # nothing spent


def test_D7_the_limit_is_checked_when_made() -> None:
    with pytest.raises(TableError, match="whole number"):
        ProtectionLimit(limit=-1)
    with pytest.raises(TableError, match="seconds"):
        ProtectionLimit(window=float("nan"))
    with pytest.raises(TableError, match="ProtectionLimit"):
        Table(TableConfig.single(Game.no_limit(1, 2)), protections=2)  # type: ignore[arg-type]


# --- D12: showing after the hand ---------------------------------------------------------------


def _uncalled(table: Table) -> None:
    """S1 (button) raises and both blinds fold: S1 wins without a showdown."""
    start(table, stacked_deck("AsKs QhQd 7c2d"), button=1)
    play(table, "S1 raise 6; S2 fold; S3 fold")


def test_D12_the_winner_nobody_called_may_show_one_card_then_the_other() -> None:
    table = table_with({1: 200, 2: 200, 3: 200})
    _uncalled(table)
    assert table.previous is not None and table.previous.player(1).cards == (None, None)
    assert table_view(table, "S1").revealable == (0, 1)
    assert table_view(table, "S2").revealable == (0, 1)  # a player who folded may show too
    assert table_view(table, None).revealable == ()
    events = table.reveal("S1", [1], now=1.0)  # dealt one at a time from S2: S1 has Qh 2d
    assert events == [CardsRevealed(1, 1, "S1", tuple(parse_cards("2d")))]
    record = table.previous.player(1)
    assert record.cards == (None, parse_cards("2d")[0]) and record.revealed == tuple(parse_cards("2d"))
    assert table_view(table, "S1").revealable == (0,)
    table.reveal("S1", [0], now=2.0)
    assert table.previous.player(1).cards == tuple(parse_cards("Qh2d"))
    with pytest.raises(TableError, match="nothing of yours") as refused:
        table.reveal("S1", [0], now=3.0)
    assert refused.value.code == "nothing_to_show"


def test_D12_a_player_who_folded_shows_both_and_refusals_change_nothing() -> None:
    table = table_with({1: 200, 2: 200, 3: 200})
    _uncalled(table)
    for cards, code in (([2], "bad_cards"), ([0, 0], "bad_cards"), ([], "bad_cards"), ("01", "bad_cards")):
        with pytest.raises(TableError) as refused:
            table.reveal("S2", cards)
        assert refused.value.code == code
    assert table.previous is not None and table.previous.player(2).cards == (None, None)
    table.reveal("S2", (0, 1))  # the small blind folded As Qd
    assert table.previous.player(2).cards == tuple(parse_cards("AsQd"))


def test_D12_showing_is_over_once_the_next_hand_is_dealt_and_needs_a_hand() -> None:
    table = table_with({1: 200, 2: 200, 3: 200})
    with pytest.raises(TableError, match="nothing of yours"):
        table.reveal("S1", [0])
    _uncalled(table)
    start(table)
    with pytest.raises(TableError, match="nothing of yours"):
        table.reveal("S1", [0])  # during the next hand: too late
    fold_round(table)


def test_D12_cards_shown_at_the_showdown_cannot_be_shown_again() -> None:
    table = table_with({1: 200, 2: 200})
    start(table, stacked_deck("AsKs QhQd"), button=1)
    while table.actor is not None:
        legal = table.hand.legal_actions()  # type: ignore[union-attr]
        table.act(f"S{table.actor}", "show" if legal.show else "check" if legal.check else "call")
    shown = [s for s in (1, 2) if table.revealable(s) == ()]
    assert shown, "the hand that was shown first has nothing left to show"


# --- D13: ratholing ----------------------------------------------------------------------------


def test_D13_sitting_again_needs_the_stack_he_left_with_even_above_the_maximum() -> None:
    table = table_with({1: 200, 2: 200}, min_buy_in=40, max_buy_in=200)
    with pytest.raises(TableError) as refused:
        table.verify_sit("S3", 3, 100, at_least=350)
    assert refused.value.code == "rathole" and "350" in str(refused.value)
    table.verify_sit("S3", 3, 350, at_least=350)  # above the maximum: allowed
    with pytest.raises(TableError) as over:
        table.verify_sit("S3", 3, 351, at_least=350)
    assert over.value.code == "above_maximum"
    table.sit("S3", 3, 350, at_least=350)
    assert table.seats[3].stack == 350
    # left with less than the minimum: the minimum holds
    with pytest.raises(TableError) as below:
        table.verify_sit("S4", 4, 30, at_least=20)
    assert below.value.code == "below_minimum"
    with pytest.raises(TableError, match="at_least"):
        table.verify_sit("S4", 4, 100, at_least=-1)


# --- D10: straddles ----------------------------------------------------------------------------


def _straddle_table(players: dict[int, int], **settings: object) -> Table:
    settings.setdefault("straddles", True)
    return table_with(players, **settings)


def test_D10_the_player_left_of_the_big_blind_straddles_and_acts_last_with_the_option() -> None:
    table = _straddle_table({1: 200, 2: 200, 3: 200, 4: 200, 5: 200})
    table.set_options("S4", straddle=True)
    events = start(table, button=1)  # SB S2, BB S3, straddle S4
    assert (4, "straddle", 4) in posts(events)
    assert table.plan is not None and table.plan.straddle == 4
    assert table.actor == 5 and table.hand.legal_actions().call == 4  # type: ignore[union-attr]
    assert table.hand.legal_actions().min_to == 8  # type: ignore[union-attr]  # twice the straddle
    play(table, "S5 call; S1 call; S2 call; S3 call")
    legal = table.hand.legal_actions()  # type: ignore[union-attr]
    assert table.actor == 4 and legal.check and legal.min_to == 8  # his option
    play(table, "S4 check")
    assert table.hand is not None and table.hand.street == 1 and table.hand.pot == 20


def test_D10_no_straddle_unless_the_table_allows_it_he_asked_and_he_can() -> None:
    # the table does not allow straddles (the default): the box changes nothing
    table = table_with({1: 200, 2: 200, 3: 200, 4: 200})
    assert table.config.straddles is False
    table.set_options("S4", straddle=True)
    assert not [p for p in posts(start(table, button=1)) if p[1] == "straddle"]
    fold_round(table)
    # allowed, but S4 has no more than the straddle: he does not post it
    table = _straddle_table({1: 200, 2: 200, 3: 200, 4: 4})
    table.set_options("S4", straddle=True)
    assert not [p for p in posts(start(table, button=1)) if p[1] == "straddle"]
    fold_round(table)
    # heads-up: no straddle
    table = _straddle_table({1: 200, 2: 200})
    for name in ("S1", "S2"):
        table.set_options(name, straddle=True)
    assert not [p for p in posts(start(table, button=1)) if p[1] == "straddle"]


def test_D10_the_straddle_follows_the_seat_left_of_the_big_blind_and_is_never_asked() -> None:
    table = _straddle_table({1: 200, 2: 200, 3: 200, 4: 200, 5: 200})
    for seat in (4, 5):
        table.set_options(f"S{seat}", straddle=True, auto_post_blinds=False)
    events = start(table, button=1)  # BB S3: S4 straddles, not asked (ticking the box is his answer)
    assert (4, "straddle", 4) in posts(events) and table.phase == "playing"
    fold_round(table)
    events = start(table)  # BB S4 is asked for his big blind; S5 straddles
    assert table.phase == "posting" and table.post_request(4) is not None and table.post_request(5) is None
    events = table.post("S4", True)
    assert (5, "straddle", 4) in posts(events)


def test_D10_straddles_are_for_no_limit_and_pot_limit() -> None:
    with pytest.raises(TableError, match="no limit and pot limit"):
        TableConfig.single(Game.fixed_limit(2, 4), straddles=True)
    with pytest.raises(TableError, match="true or false"):
        TableConfig.single(Game.no_limit(1, 2), straddles=1)  # type: ignore[arg-type]
    table = _straddle_table({1: 200, 2: 200, 3: 200, 4: 200}, game=Game.pot_limit(1, 2))
    table.set_options("S4", straddle=True)
    start(table, button=1)
    play(table, "S1 call")  # pot 1 + 2 + 4 + 4 = 11: S2 may raise to 4 + 11 + ... his call of 3
    legal = table.hand.legal_actions()  # type: ignore[union-attr]
    assert table.actor == 2 and legal.min_to == 8 and legal.max_to == 4 + (1 + 2 + 4 + 4) + 3
