"""The action clock of the table layer (R1, D7, case 47): deadlines, the time bank, what
the table does for a player whose time ran out (check/fold or all-in protection, the stud
bring-in), players sat out after timeouts in a row, late actions, and posting requests
that time out (H6, H7, S2).

Time is an argument: every command gets ``now`` (seconds) and ``advance(now)`` applies
what the clock decides, so nothing here sleeps or measures time. Unless a test says
otherwise the clock is: action time 10 s, a time bank of 5 s refilled by 1 s per hand
dealt up to 8 s (so 6 s in the first hand).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import pytest

from pokerroom.core.cards import FULL_DECK, Card, parse_cards, seeded_deck, stacked_deck
from pokerroom.core.events import Acted, HoleDealt, Posted, PotAwarded, UncalledReturned
from pokerroom.core.structures import Game
from pokerroom.table import (
    ALL_IN_PROTECTION,
    CHECK_FOLD,
    IDLE,
    PLAYING,
    POSTING,
    SITTING_OUT,
    Table,
    TableConfig,
    TableError,
)
from pokerroom.table.events import (
    HandFinished,
    HandStarted,
    PostRequested,
    SatOut,
    TimedOut,
    TurnStarted,
)
from tests.table.helpers import check_or_fold_out

NL12 = Game.no_limit(1, 2)
STUD = Game.stud(10, 20, ante=1, bring_in=3)
CLOCK = {"action_time": 10, "time_bank": 5, "time_bank_max": 8, "time_bank_refill": 1}


# --- helpers -------------------------------------------------------------------------------


def make_table(
    stacks: Sequence[int], game: Game = NL12, policy: str = CHECK_FOLD, **settings: object
) -> Table:
    """A table with players 'p1', 'p2', ... in seats 1, 2, ... with these stacks."""
    options: dict[str, object] = {**CLOCK, "seats": 6, "timeout_policy": policy, **settings}
    if game.variant == "holdem":
        options.setdefault("min_buy_in", game.big_blind)
    t = Table(TableConfig.single(game, **options))
    for seat, stack in enumerate(stacks, 1):
        t.sit(f"p{seat}", seat, stack)
    return t


def holdem_deck(order: Sequence[int], holes: dict[int, str], board: str = "") -> tuple[Card, ...]:
    """A full deck dealing ``holes[seat]`` to each seat (``order``: the hand's seats in
    dealing order, first left of the button) and the board as flop, turn, river with a
    burn before each. Cards not given come from the deuces up."""
    given = {s: parse_cards(h) for s, h in holes.items()}
    board_cards = list(parse_cards(board))
    used = {c for cards in given.values() for c in cards} | set(board_cards)
    spare = iter([c for c in FULL_DECK if c not in used])
    two = [given.get(s) or (next(spare), next(spare)) for s in order]
    board_cards += [next(spare) for _ in range(5 - len(board_cards))]
    top = [two[i][r] for r in range(2) for i in range(len(order))]
    top += [next(spare), *board_cards[:3], next(spare), board_cards[3], next(spare), board_cards[4]]
    return stacked_deck(top)


def of(events: Sequence[object], *kinds: type) -> list[object]:
    return [e for e in events if type(e) in kinds]


def turns(events: Sequence[object]) -> list[int]:
    return [e.seat for e in events if type(e) is TurnStarted]  # type: ignore[attr-defined]


def snapshot(t: Table) -> tuple[object, ...]:
    hand = t.hand
    state = None if hand is None else (list(hand.stacks), list(hand.bets), len(hand.events), hand.actor)
    return (t.chips(), copy.deepcopy(t.seats), t.phase, t.turn, t.deadline, t.hand_number, state)


# --- R1: the deadline and the time bank ----------------------------------------------------


def test_R1_turn_deadline_is_start_plus_action_time_plus_time_bank() -> None:
    """R1: the clock runs for the action time plus the player's time bank (5 s plus the
    1 s refill of the first hand dealt): a turn starting at 100 ends at 116."""
    t = make_table([200, 200, 200])
    events = t.start_hand(seeded_deck(1), now=100.0, button=1)
    assert of(events, TurnStarted) == [TurnStarted(1, 100.0, 116.0, 6)]
    assert (t.actor, t.deadline, t.turn) == (1, 116.0, TurnStarted(1, 100.0, 116.0, 6))
    assert [t.seats[s].time_bank for s in (1, 2, 3)] == [6, 6, 6]
    events = t.act("p1", "call", now=103.0)
    assert of(events, TurnStarted) == [TurnStarted(2, 103.0, 119.0, 6)]
    assert t.deadline == 119.0


def test_R1_acting_late_consumes_exactly_the_time_bank_used() -> None:
    """R1: acting within the action time costs nothing; acting after it takes exactly the
    extra seconds from the time bank, which the next turns and the next hand show."""
    t = make_table([200, 200, 200])
    deck = holdem_deck((2, 3, 1), {2: "7c2d", 3: "8h3s", 1: "9d4c"}, "AsKsQhJd5c")
    t.start_hand(deck, now=100.0, button=1)
    t.act("p1", "call", now=112.5)  # 2.5 s into his 6 s bank
    assert t.seats[1].time_bank == 3.5
    t.act("p2", "call", now=122.5)  # exactly the 10 s action time: the bank is untouched
    assert t.seats[2].time_bank == 6
    events = t.act("p3", "check", now=123.0)
    assert of(events, TurnStarted) == [TurnStarted(2, 123.0, 139.0, 6)]
    t.act("p2", "check", now=124.0)
    events = t.act("p3", "check", now=125.0)
    assert of(events, TurnStarted) == [TurnStarted(1, 125.0, 138.5, 3.5)]
    t.act("p1", "check", now=138.0)  # 3 s more of the bank
    assert [t.seats[s].time_bank for s in (1, 2, 3)] == [0.5, 6, 6]
    check_or_fold_out(t, now=139.0)
    assert t.phase == IDLE
    t.start_hand(seeded_deck(2), now=200.0)
    assert [t.seats[s].time_bank for s in (1, 2, 3)] == [1.5, 7, 7]


def test_R1_time_bank_refills_per_hand_dealt_up_to_its_maximum() -> None:
    """R1: every hand dealt adds time_bank_refill (1 s) to the bank, up to time_bank_max
    (8 s): 5 -> 6 -> 7 -> 8 -> 8. A player sitting out is not dealt in and gets nothing."""
    t = make_table([200, 200, 200])
    t.sit_out("p3")
    seen = []
    for k in range(4):
        events = t.start_hand(seeded_deck(k), now=100.0 * k, button=1 if k == 0 else None)
        dealt = of(events, HandStarted)[0].seats  # type: ignore[attr-defined]
        seen.append((dealt, [t.seats[s].time_bank for s in (1, 2, 3)], of(events, TurnStarted)[0].time_bank))
        check_or_fold_out(t, now=100.0 * k + 1)
    assert seen == [
        ((2, 1), [6, 6, 5], 6), ((1, 2), [7, 7, 5], 7), ((2, 1), [8, 8, 5], 8), ((1, 2), [8, 8, 5], 8),
    ]


# --- case 47 / D7: check_fold ---------------------------------------------------------------


def test_case_47_check_fold_timeout_facing_a_bet_folds() -> None:
    """Case 47 (check_fold): the small blind faces a raise to 6 when his clock runs out:
    he folds and loses his small blind; nothing else changes."""
    t = make_table([200, 200, 200], policy=CHECK_FOLD)
    t.start_hand(seeded_deck(5), now=0.0, button=1)
    events = t.act("p1", "raise", 6, now=1.0)
    assert of(events, TurnStarted) == [TurnStarted(2, 1.0, 17.0, 6)]
    assert t.advance(16.999) == []
    events = t.advance(17.0)
    assert events[:2] == [TimedOut(2, "p2", "fold"), Acted(2, "fold", 0, 1, False)]
    assert of(events, TurnStarted) == [TurnStarted(3, 17.0, 33.0, 6)]
    assert t.hand is not None and t.hand.folded == [True, False, False]
    assert t.chips() == 600 and t.stack(2) == 199


@pytest.mark.parametrize("policy", [CHECK_FOLD, ALL_IN_PROTECTION])
def test_case_47_timeout_with_nothing_to_call_checks_including_the_big_blind_option(policy: str) -> None:
    """Case 47, D7 (both policies): nobody raised, the big blind's clock runs out on his
    option: he checks (not folds) and the flop comes; on the flop, with no bet, the first
    player's clock runs out: he checks too."""
    t = make_table([200, 200, 200], policy=policy)
    t.start_hand(seeded_deck(6), now=0.0, button=1)
    t.act("p1", "call", now=1.0)
    events = t.act("p2", "call", now=2.0)
    assert of(events, TurnStarted) == [TurnStarted(3, 2.0, 18.0, 6)]
    events = t.advance(18.0)
    assert events[:2] == [TimedOut(3, "p3", "check"), Acted(3, "check", 0, 2, False)]
    assert t.hand is not None and t.hand.street == 1 and t.hand.folded == [False] * 3
    assert of(events, TurnStarted) == [TurnStarted(2, 18.0, 34.0, 6)]
    events = t.advance(34.0)
    assert events[:2] == [TimedOut(2, "p2", "check"), Acted(2, "check", 0, 0, False)]
    assert t.hand.folded == [False] * 3 and t.actor == 3
    assert t.chips() == 600 and [t.stack(s) for s in (1, 2, 3)] == [198, 198, 198]


# --- D7: all-in protection ------------------------------------------------------------------


def test_D7_all_in_protection_keeps_committed_player_in_side_pot_forms_he_wins_main_pot() -> None:
    """D7, R1 (all_in_protection): on the flop P3 bets 10, P1 calls, and P2, who put 2 in
    preflop, times out facing the bet: he stays in for his 2 (Acted 'protected'), his other
    198 set aside. P3 and P1 bet on into a side pot (10 + 10 on the flop, 20 + 20 on the
    river). P2's aces win the main pot of 6: he ends with 198 + 6 = 204; P3's kings beat
    P1's queens for the side pot of 60."""
    t = make_table([200, 200, 200], policy=ALL_IN_PROTECTION)
    deck = holdem_deck((2, 3, 1), {2: "AhAd", 3: "KcKd", 1: "QcQd"}, "2s7h9c4d5s")
    t.start_hand(deck, now=0.0, button=1)
    t.act("p1", "call", now=1.0)
    t.act("p2", "call", now=2.0)
    t.act("p3", "check", now=3.0)
    t.act("p2", "check", now=4.0)
    t.act("p3", "bet", 10, now=5.0)
    events = t.act("p1", "call", now=6.0)
    assert of(events, TurnStarted) == [TurnStarted(2, 6.0, 22.0, 6)]
    events = t.advance(22.0)
    assert events[:2] == [TimedOut(2, "p2", "protected"), Acted(2, "protected", 0, 0, True)]
    assert t.hand is not None
    seats = t.plan.seats if t.plan is not None else ()
    pots = [(p.amount, tuple(seats[i] for i in p.eligible)) for p in t.hand.pots()]
    assert pots == [(6, (2, 3, 1)), (20, (3, 1))]
    assert t.stack(2) == 198 and t.chips() == 600  # his stack is set aside, still his
    assert of(events, TurnStarted) == [TurnStarted(3, 22.0, 38.0, 6)]  # the turn card is out
    t.act("p3", "check", now=23.0)
    events = t.act("p1", "check", now=24.0)
    assert 2 not in turns(events)
    t.act("p3", "bet", 20, now=25.0)
    events = t.act("p1", "call", now=26.0)
    awarded = [(e.pot, e.amount, e.winners) for e in of(events, PotAwarded)]  # type: ignore[attr-defined]
    assert awarded == [(1, 60, (3,)), (0, 6, (2,))]
    assert of(events, HandFinished) == [
        HandFinished(1, ((2, 204), (3, 228), (1, 168)), ((2, 4), (3, 28), (1, -32)))
    ]
    assert {s: t.seats[s].stack for s in (1, 2, 3)} == {1: 168, 2: 204, 3: 228}
    assert t.chips() == 600 and t.phase == IDLE


def test_D7_all_in_protection_heads_up_uncalled_bet_returns_and_the_loser_keeps_his_stack() -> None:
    """D7: heads-up, P2 (big blind) bets 10 on the flop and P1, with 2 in the pot, times
    out: protected, so P2's 10 is uncalled and comes back, the board runs out, P2's aces
    win the 4 chip pot and P1 gets his set-aside 198 back."""
    t = make_table([200, 200], policy=ALL_IN_PROTECTION)
    deck = holdem_deck((2, 1), {2: "AhAd", 1: "KcKd"}, "2s7h9c4d5s")
    t.start_hand(deck, now=0.0, button=1)
    t.act("p1", "call", now=1.0)
    t.act("p2", "check", now=2.0)
    events = t.act("p2", "bet", 10, now=3.0)
    assert of(events, TurnStarted) == [TurnStarted(1, 3.0, 19.0, 6)]
    events = t.advance(19.0)
    assert events[:3] == [
        TimedOut(1, "p1", "protected"), Acted(1, "protected", 0, 0, True), UncalledReturned(2, 10),
    ]
    assert turns(events) == []
    assert [(e.amount, e.winners) for e in of(events, PotAwarded)] == [(4, (2,))]  # type: ignore[attr-defined]
    assert of(events, HandFinished) == [HandFinished(1, ((2, 202), (1, 198)), ((2, 2), (1, -2)))]
    assert (t.seats[1].stack, t.seats[2].stack, t.chips(), t.phase) == (198, 202, 400, IDLE)


def test_D7_all_in_protection_preflop_the_blind_is_what_he_committed() -> None:
    """D7: preflop the small blind (1 in) times out facing a raise to 6: he is kept in for
    his 1; the big blind calls, and the pots are a main pot of 3 for all three and a side
    pot of 10 for the other two. His other 199 chips stay his."""
    t = make_table([200, 200, 200], policy=ALL_IN_PROTECTION)
    t.start_hand(seeded_deck(1), now=0.0, button=1)
    t.act("p1", "raise", 6, now=1.0)
    events = t.advance(17.0)
    assert events[:2] == [TimedOut(2, "p2", "protected"), Acted(2, "protected", 0, 1, True)]
    assert of(events, TurnStarted) == [TurnStarted(3, 17.0, 33.0, 6)]
    t.act("p3", "call", now=18.0)
    assert t.hand is not None and t.plan is not None and t.hand.street == 1
    pots = [(p.amount, tuple(t.plan.seats[i] for i in p.eligible)) for p in t.hand.pots()]
    assert pots == [(3, (2, 3, 1)), (10, (3, 1))]
    assert (t.stack(2), t.hand.protected, t.chips()) == (199, [199, 0, 0], 600)


def test_D7_all_in_protection_with_nothing_committed_folds() -> None:
    """D7: under the gun has nothing in the pot; facing the big blind when his clock runs
    out, there is nothing to protect: he folds."""
    t = make_table([200, 200, 200, 200], policy=ALL_IN_PROTECTION)
    events = t.start_hand(seeded_deck(7), now=0.0, button=1)
    assert of(events, TurnStarted) == [TurnStarted(4, 0.0, 16.0, 6)]
    events = t.advance(16.0)
    assert events[:2] == [TimedOut(4, "p4", "fold"), Acted(4, "fold", 0, 0, False)]
    assert t.hand is not None and sum(t.hand.protected) == 0 and t.stack(4) == 200


def test_D7_a_player_who_leaves_mid_hand_folds_he_is_not_protected() -> None:
    """D7 is a timeout policy; ``Table.leave`` says a player leaving in a hand folds when his
    turn comes (checks when that is free). Under all_in_protection he must not be kept in
    for free: P2 (small blind, 1 in) leaves facing a raise to 6 and folds."""
    t = make_table([200, 200, 200], policy=ALL_IN_PROTECTION)
    t.start_hand(seeded_deck(1), now=0.0, button=1)
    t.act("p1", "raise", 6, now=1.0)
    events = t.leave("p2", now=2.0)
    assert events[0] == Acted(2, "fold", 0, 1, False)
    assert t.hand is not None and t.hand.folded[0] and t.hand.protected == [0, 0, 0]


# --- D7: the stud bring-in, all-in players --------------------------------------------------


def test_D7_case_47_stud_bring_in_is_posted_for_the_player_on_timeout() -> None:
    """D7, case 47: the 2c is the lowest up card; P2 owes the bring-in and his clock runs
    out: the table posts the bring-in (3) for him, and the next player's clock starts."""
    t = make_table([400, 400, 400], game=STUD, min_buy_in=400)
    deck = stacked_deck("AsKsQs AhKhQh 9c2cTc")  # dealer seat 3: down, down, up from seat 1
    events = t.start_hand(deck, now=0.0, button=3)
    ups = [(e.player, str(e.card)) for e in of(events, HoleDealt) if e.face_up]  # type: ignore[attr-defined]
    assert ups == [(1, "9c"), (2, "2c"), (3, "Tc")]
    assert of(events, TurnStarted) == [TurnStarted(2, 0.0, 16.0, 6)]
    assert t.hand is not None and t.hand.legal_actions().bring_in == 3
    events = t.advance(16.0)
    assert events == [
        TimedOut(2, "p2", "bring_in"), Acted(2, "bring_in", 3, 3, False), TurnStarted(3, 16.0, 32.0, 6),
    ]
    assert (t.stack(2), t.chips()) == (396, 1200)


def test_D7_all_in_players_never_get_a_turn() -> None:
    """D7: P3 is all in on his big blind (2 chips) and P4 moves all in for 20: neither ever
    gets a TurnStarted, while P1 and P2 play on through every street."""
    t = make_table([200, 200, 2, 20])
    deck = holdem_deck((2, 3, 4, 1), {2: "AhAd", 3: "KcKd", 4: "QcQd", 1: "JcJd"}, "2s7h9c4d5s")
    events = t.start_hand(deck, now=0.0, button=1)
    assert of(events, Posted)[1] == Posted(3, "big_blind", 2, True)
    events += t.act("p4", "raise", 20, now=1.0)
    events += t.act("p1", "call", now=2.0)
    events += t.act("p2", "call", now=3.0)
    events += t.act("p2", "bet", 10, now=4.0)
    events += t.act("p1", "call", now=5.0)
    for k in range(2):  # turn and river checked through
        events += t.act("p2", "check", now=6.0 + k)
        events += t.act("p1", "check", now=6.5 + k)
    assert turns(events) == [4, 1, 2, 2, 1, 2, 1, 2, 1]
    finished = of(events, HandFinished)
    # AhAd wins everything: main pot 2 x 4, side pot 18 x 3, flop side pot 10 x 2
    assert finished == [
        HandFinished(1, ((2, 252), (3, 0), (4, 0), (1, 170)), ((2, 52), (3, -2), (4, -20), (1, -30)))
    ]


# --- R1: timeouts in a row, late actions ------------------------------------------------


def test_R1_max_timeouts_in_a_row_sit_the_player_out_and_the_hand_is_played_for_him() -> None:
    """R1 (max_timeouts 2): P3 times out on his big blind option (check) and again on the
    flop (check): SatOut 'timeouts'. Later in the hand his turns are played for him with no
    clock (no TurnStarted, no TimedOut): facing a bet he folds. He is not dealt the next
    hand, and his time bank, spent by the timeouts, is not refilled."""
    t = make_table([200, 200, 200, 200], max_timeouts=2)
    t.start_hand(seeded_deck(3), now=0.0, button=1)
    t.act("p4", "call", now=1.0)
    t.act("p1", "call", now=2.0)
    t.act("p2", "call", now=3.0)
    events = t.advance(19.0)
    assert events[:2] == [TimedOut(3, "p3", "check"), Acted(3, "check", 0, 2, False)]
    assert t.seats[3].timeouts == 1 and t.seats[3].time_bank == 0
    events = t.act("p2", "check", now=20.0)
    assert of(events, TurnStarted) == [TurnStarted(3, 20.0, 30.0, 0)]  # no bank left
    events = t.advance(30.0)
    assert events[:3] == [
        TimedOut(3, "p3", "check"), Acted(3, "check", 0, 0, False), SatOut(3, "p3", "timeouts"),
    ]
    assert t.seats[3].state == SITTING_OUT
    rest = t.act("p4", "bet", 10, now=31.0)
    rest += t.act("p1", "call", now=32.0)
    rest += t.act("p2", "call", now=33.0)
    assert Acted(3, "fold", 0, 0, False) in rest
    assert 3 not in turns(rest) and of(rest, TimedOut) == []
    assert t.hand is not None and t.hand.folded[1]
    rest += check_or_fold_out(t, now=40.0)
    assert t.phase == IDLE and t.seats[3].stack == 198
    events = t.start_hand(seeded_deck(4), now=100.0)
    assert 3 not in of(events, HandStarted)[0].seats  # type: ignore[attr-defined]
    assert t.seats[3].time_bank == 0


def test_R1_timeouts_count_only_in_a_row() -> None:
    """R1: a decision made in time resets the count: timeout, action, timeout is one timeout
    in a row, and the player (max_timeouts 2) stays in."""
    t = make_table([200, 200, 200], max_timeouts=2)
    t.start_hand(seeded_deck(8), now=0.0, button=1)
    t.act("p1", "call", now=1.0)
    t.act("p2", "call", now=2.0)
    assert t.advance(18.0)[0] == TimedOut(3, "p3", "check")
    t.act("p2", "check", now=19.0)
    t.act("p3", "check", now=20.0)
    assert t.seats[3].timeouts == 0
    t.act("p1", "check", now=21.0)
    events = t.act("p2", "check", now=22.0)
    assert of(events, TurnStarted) == [TurnStarted(3, 22.0, 32.0, 0)]
    events = t.advance(32.0)
    assert events[0] == TimedOut(3, "p3", "check") and of(events, SatOut) == []
    assert t.seats[3].timeouts == 1 and t.seats[3].state != SITTING_OUT


def test_R1_acting_after_the_deadline_is_refused_too_late() -> None:
    """R1: at the deadline the clock has decided: the player's own action is refused with
    'too_late' and changes nothing; advance then applies the timeout. Just before the
    deadline the action counts (and spends the bank)."""
    t = make_table([200, 200, 200])
    t.start_hand(seeded_deck(9), now=0.0, button=1)
    t.act("p1", "raise", 6, now=15.5)  # half a second before his deadline of 16
    assert t.seats[1].time_bank == 0.5
    assert t.deadline == 31.5  # P2's turn started at 15.5: 10 s plus his bank of 6
    before = snapshot(t)
    for when in (31.5, 40.0):
        with pytest.raises(TableError) as err:
            t.act("p2", "call", now=when)
        assert err.value.code == "too_late"
        assert snapshot(t) == before
    assert t.advance(31.5)[0] == TimedOut(2, "p2", "fold")


def test_R1_advance_before_any_deadline_changes_nothing() -> None:
    """R1: advance before the deadline (or between hands) does nothing at all."""
    t = make_table([200, 200, 200])
    assert t.advance(1000.0) == []
    t.start_hand(seeded_deck(10), now=0.0, button=1)
    before = snapshot(t)
    for when in (0.0, 10.0, 15.999):
        assert t.advance(when) == []
        assert snapshot(t) == before


# --- posting requests (H6, H7, S2) ----------------------------------------------------------


def test_R1_H7_blind_request_times_out_player_sits_out_and_hand_is_dealt_without_him() -> None:
    """R1, H7: P2 and P3 post their blinds by hand (auto_post_blinds off). The deal waits:
    P2 posts in time, P3 does not answer before the deadline (action time, 10 s): he sits
    out ('declined') with his chips untouched, and the hand is dealt without him, the big
    blind moving on to P4."""
    t = make_table([200, 200, 200, 200])
    t.set_options("p2", auto_post_blinds=False)
    t.set_options("p3", auto_post_blinds=False)
    events = t.start_hand(seeded_deck(11), now=50.0, button=1)
    assert events == [PostRequested(2, "p2", 1, 0, 0, 60.0), PostRequested(3, "p3", 2, 0, 0, 60.0)]
    assert (t.phase, t.deadline, t.actor) == (POSTING, 60.0, None)
    assert t.post("p2", True, now=55.0) == []
    assert t.advance(59.9) == []
    events = t.advance(60.0)
    assert events[:3] == [
        TimedOut(3, "p3", "declined"), SatOut(3, "p3", "declined"),
        HandStarted(1, "NL 1/2", 1, 2, 4, (2, 4, 1)),
    ]
    assert of(events, Posted) == [Posted(2, "small_blind", 1, False), Posted(4, "big_blind", 2, False)]
    assert (t.seats[3].state, t.seats[3].stack, t.chips(), t.phase) == (SITTING_OUT, 200, 800, PLAYING)


def test_S2_R1_stud_ante_request_times_out_player_sits_out_and_hand_is_dealt_without_him() -> None:
    """S2, R1: in stud P2 turned "I'm in" off (auto_post_antes): asked for his ante, he lets
    the clock run out; he sits out and the others are dealt in without him."""
    t = make_table([400, 400, 400], game=STUD, min_buy_in=400)
    t.set_options("p2", auto_post_antes=False)
    events = t.start_hand(seeded_deck(12), now=5.0, button=3)
    assert events == [PostRequested(2, "p2", 0, 0, 1, 15.0)]
    assert t.advance(14.9) == [] and t.phase == POSTING
    events = t.advance(15.0)
    assert events[:3] == [
        TimedOut(2, "p2", "declined"), SatOut(2, "p2", "declined"),
        HandStarted(1, "Stud 10/20 (ante 1, bring-in 3)", 3, None, None, (1, 3)),
    ]
    assert of(events, Posted) == [Posted(1, "ante", 1, False), Posted(3, "ante", 1, False)]
    assert (t.seats[2].state, t.seats[2].stack, t.chips()) == (SITTING_OUT, 400, 1200)
