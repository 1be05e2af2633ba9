"""Mixed games at the table (L4, D9, case 46): a schedule of NL 1/2 for some hands, then
fixed limit 4/8 on blinds 2/4 for as many, round and round.

Each hand is played entirely under the game in force when it was dealt; the switch is
announced (GameChanged) only when the next hand is dealt; limit hands have the cap and the
half-bet rule, no-limit hands no cap and the full-raise rule (D1, D2); the button keeps
rotating; ``Table.schedule()`` says (game now, game next, hands left); and a player who
makes up missed blinds pays them at the blinds of the hand being dealt (D9).
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from pokerroom.core.cards import seeded_deck
from pokerroom.core.events import Posted
from pokerroom.core.structures import Game
from pokerroom.table import ENTERING, IDLE, SITTING_OUT, Stage, Table, TableConfig, TableError
from pokerroom.table.events import BlindMissed, GameChanged, HandStarted, SatIn
from tests.table.helpers import check_or_fold_out

NL12 = Game.no_limit(1, 2)
FL48 = Game.fixed_limit(4, 8, small_blind=2, big_blind=4)
PL12 = Game.pot_limit(1, 2)
NL = "NL 1/2"
FL = "FL 4/8 (blinds 2/4)"
PL = "PL 1/2"


# --- helpers -------------------------------------------------------------------------------


def mixed_table(
    stacks: Sequence[int], hands: int = 2, stages: Sequence[Stage] | None = None, missed_blinds: str = "seeds"
) -> Table:
    """Players 'p1', 'p2', ... in seats 1, 2, ...; NL 1/2 for ``hands`` hands, then FL 4/8
    on blinds 2/4 for as many (or the given stages)."""
    schedule = list(stages) if stages is not None else [Stage(NL12, hands), Stage(FL48, hands)]
    t = Table(TableConfig.mixed(schedule, seats=6, min_buy_in=4, max_buy_in=800, missed_blinds=missed_blinds))
    for seat, stack in enumerate(stacks, 1):
        t.sit(f"p{seat}", seat, stack)
    return t


def of(events: Sequence[object], *kinds: type) -> list[object]:
    return [e for e in events if type(e) in kinds]


def posts(events: Sequence[object]) -> list[tuple[int, str, int]]:
    return [(e.player, e.kind, e.amount) for e in events if type(e) is Posted]  # type: ignore[attr-defined]


def raise_range(t: Table) -> tuple[int | None, int | None]:
    assert t.hand is not None
    legal = t.hand.legal_actions()
    return legal.min_to, legal.max_to


# --- L4, case 46: the schedule, the switch, the button ----------------------------------


def test_L4_case_46_schedule_blinds_and_button_across_the_switches() -> None:
    """L4, case 46, H5: NL 1/2 for two hands, FL 4/8 (blinds 2/4) for two, NL again. The
    button moves one seat every hand across both switches; the blinds posted are those of
    the game the hand is dealt in; GameChanged comes only with the first hand of a stage;
    schedule() gives (game now, game next, hands left) before, during and after each hand."""
    t = mixed_table([200, 200, 200, 200])
    assert t.schedule() == (NL, FL, 2)
    seen = []
    for k in range(5):
        before = t.schedule()
        events = t.start_hand(seeded_deck(k), now=100.0 * k, button=1 if k == 0 else None)
        during = t.schedule()
        label = t.game
        started = of(events, HandStarted)
        events += check_or_fold_out(t, now=100.0 * k + 1)
        assert of(events, HandStarted) == started
        seen.append((before, of(events, GameChanged), started, posts(events), during, t.schedule()))
        assert label == (NL12 if k in (0, 1, 4) else FL48)
    assert seen == [
        ((NL, FL, 2), [], [HandStarted(1, NL, 1, 2, 3, (2, 3, 4, 1))],
         [(2, "small_blind", 1), (3, "big_blind", 2)], (NL, FL, 1), (NL, FL, 1)),
        ((NL, FL, 1), [], [HandStarted(2, NL, 2, 3, 4, (3, 4, 1, 2))],
         [(3, "small_blind", 1), (4, "big_blind", 2)], (NL, FL, 0), (FL, NL, 2)),
        ((FL, NL, 2), [GameChanged(FL, 1)], [HandStarted(3, FL, 3, 4, 1, (4, 1, 2, 3))],
         [(4, "small_blind", 2), (1, "big_blind", 4)], (FL, NL, 1), (FL, NL, 1)),
        ((FL, NL, 1), [], [HandStarted(4, FL, 4, 1, 2, (1, 2, 3, 4))],
         [(1, "small_blind", 2), (2, "big_blind", 4)], (FL, NL, 0), (NL, FL, 2)),
        ((NL, FL, 2), [GameChanged(NL, 0)], [HandStarted(5, NL, 1, 2, 3, (2, 3, 4, 1))],
         [(2, "small_blind", 1), (3, "big_blind", 2)], (NL, FL, 1), (NL, FL, 1)),
    ]
    assert t.chips() == 800


def test_L4_case_46_the_last_hand_of_a_stage_is_played_wholly_under_its_game() -> None:
    """L4, case 46 (TDA 23): the second and last NL hand is dealt; its stage is used up
    while it is played, but it stays no limit to the end (a flop bet of 37 and an all-in
    raise are fine) and nothing announces a switch. GameChanged comes first thing at the next
    deal, whose hand is fixed limit: a bet of 37 there is refused."""
    t = mixed_table([200, 200, 200, 200])
    t.start_hand(seeded_deck(1), now=0.0, button=1)
    check_or_fold_out(t)
    hand2 = t.start_hand(seeded_deck(2), now=10.0)
    assert (t.game, t.schedule()) == (NL12, (NL, FL, 0))
    assert of(hand2, HandStarted) == [HandStarted(2, NL, 2, 3, 4, (3, 4, 1, 2))]
    hand2 += t.act("p1", "call", now=11.0)
    hand2 += t.act("p2", "call", now=12.0)
    hand2 += t.act("p3", "call", now=13.0)
    hand2 += t.act("p4", "check", now=14.0)
    hand2 += t.act("p3", "bet", 37, now=15.0)
    hand2 += t.act("p4", "raise", 198, now=16.0)  # all in: no limit
    assert t.game == NL12 and t.hand is not None and t.hand.game == NL12
    hand2 += t.act("p1", "fold", now=17.0)
    hand2 += t.act("p2", "fold", now=18.0)
    hand2 += t.act("p3", "fold", now=19.0)
    assert t.phase == IDLE and of(hand2, GameChanged) == []
    assert [t.seats[s].stack for s in (1, 2, 3, 4)] == [198, 197, 162, 243]
    hand3 = t.start_hand(seeded_deck(3), now=20.0)
    assert hand3[:2] == [GameChanged(FL, 1), HandStarted(3, FL, 3, 4, 1, (4, 1, 2, 3))]
    assert t.game == FL48 and t.hand is not None and t.hand.game == FL48
    t.act("p2", "call", now=21.0)
    t.act("p3", "call", now=22.0)
    t.act("p4", "call", now=23.0)
    t.act("p1", "check", now=24.0)
    assert t.actor == 4 and raise_range(t) == (4, 4)  # the flop bet is the small bet, 4
    before = (t.chips(), [t.stack(s) for s in (1, 2, 3, 4)], t.hand.street, t.actor)
    with pytest.raises(TableError) as err:
        t.act("p4", "bet", 37, now=25.0)
    assert err.value.code == "amount_out_of_range"
    assert (t.chips(), [t.stack(s) for s in (1, 2, 3, 4)], t.hand.street, t.actor) == before


def test_L1_D1_case_46_limit_hands_capped_at_four_bets_no_limit_hands_uncapped() -> None:
    """L1, L2, D1, case 46: in the NL hand seven bets go in preflop (2, 4, ..., 14) and a
    raise is still open; in the FL hand the big blind is the first bet, raises go to 8, 12
    and 16, and then the betting is capped: the big blind may only call or fold. On the FL
    flop: 4, 8, 12, 16 and capped again."""
    t = mixed_table([200, 200, 200, 200], hands=1)
    t.start_hand(seeded_deck(1), now=0.0, button=1)  # NL: button 1, blinds 2 and 3
    for who, to in [("p4", 4), ("p1", 6), ("p2", 8), ("p3", 10), ("p4", 12), ("p1", 14)]:
        t.act(who, "raise", to)
    assert t.actor == 2 and raise_range(t) == (16, 200)
    check_or_fold_out(t)
    assert [t.seats[s].stack for s in (1, 2, 3, 4)] == [230, 192, 190, 188]
    events = t.start_hand(seeded_deck(2), now=10.0)  # FL: button 2, blinds 3 and 4
    assert events[:2] == [GameChanged(FL, 1), HandStarted(2, FL, 2, 3, 4, (3, 4, 1, 2))]
    assert (t.actor, raise_range(t)) == (1, (8, 8))
    t.act("p1", "raise", 8)
    t.act("p2", "raise", 12)
    t.act("p3", "raise", 16)
    assert (t.actor, raise_range(t)) == (4, (None, None))
    with pytest.raises(TableError) as err:
        t.act("p4", "raise", 20)
    assert err.value.code == "cannot_raise"
    t.act("p4", "call")
    t.act("p1", "call")
    t.act("p2", "call")
    assert t.hand is not None and t.hand.street == 1 and t.actor == 3
    t.act("p3", "bet", 4)
    t.act("p4", "raise", 8)
    t.act("p1", "raise", 12)
    t.act("p2", "raise", 16)
    assert (t.actor, raise_range(t)) == (3, (None, None))
    assert t.chips() == 800


def test_D2_case_46_no_limit_hand_of_a_mixed_table_uses_the_full_raise_rule() -> None:
    """D2, L2, case 46: in the NL hand, on the flop, P2 bets 10 and P3 raises all in to 15,
    a raise of 5: exactly half a bet, which in a limit hand would reopen the betting (half-bet
    rule), but here is less than a full raise: P1, yet to act, may raise (to 25 at least),
    while P2, who already acted, may only call 5 or fold."""
    t = mixed_table([200, 200, 17], hands=1)
    t.start_hand(seeded_deck(1), now=0.0, button=1)  # button 1, blinds 2 and 3
    t.act("p1", "call")
    t.act("p2", "call")
    t.act("p3", "check")
    t.act("p2", "bet", 10)
    assert t.actor == 3 and raise_range(t) == (15, 15)
    t.act("p3", "raise", 15)
    assert t.actor == 1 and raise_range(t) == (25, 198)
    t.act("p1", "call")
    assert t.actor == 2 and raise_range(t) == (None, None)
    assert t.hand is not None and t.hand.legal_actions().call == 5
    with pytest.raises(TableError) as err:
        t.act("p2", "raise", 25)
    assert err.value.code == "cannot_raise"
    assert t.hand.game == NL12 and t.chips() == 417


def test_D2_case_46_limit_hand_of_a_mixed_table_uses_the_half_bet_rule() -> None:
    """D2, L1, case 46: the NL hand is folded to P3's big blind (he has 6 chips then). In the
    FL hand P2 calls 4, and P3 in the small blind raises all in to 6, a raise of 2: half a
    bet, so it counts as a full raise (RRP). After the big blind calls, P2, who already
    acted, may raise again, to 10."""
    t = mixed_table([200, 200, 5], hands=1)
    t.start_hand(seeded_deck(1), now=0.0, button=1)  # NL: button 1, blinds 2 and 3
    check_or_fold_out(t)
    assert [t.seats[s].stack for s in (1, 2, 3)] == [200, 199, 6]
    events = t.start_hand(seeded_deck(2), now=10.0)  # FL: button 2, blinds 3 and 1
    assert events[:2] == [GameChanged(FL, 1), HandStarted(2, FL, 2, 3, 1, (3, 1, 2))]
    assert posts(events) == [(3, "small_blind", 2), (1, "big_blind", 4)]
    t.act("p2", "call")
    assert t.actor == 3 and raise_range(t) == (6, 6)
    t.act("p3", "raise", 6)
    assert t.actor == 1 and raise_range(t) == (10, 10)
    t.act("p1", "call")
    assert t.actor == 2 and raise_range(t) == (10, 10)
    t.act("p2", "raise", 10)
    t.act("p1", "call")
    assert t.hand is not None and t.hand.street == 1 and t.chips() == 405


# --- D9, case 46: missed blinds across a switch ---------------------------------------------


def test_D9_case_46_missed_blinds_made_up_at_the_blinds_of_the_hand_dealt() -> None:
    """D9, H7, case 46: P4 sits out during the NL stage and the big blind passes him (he
    owes both blinds). He comes back during the FL stage, posting rather than waiting for the
    big blind: in the first FL hand he sits between the button and the small blind and must
    wait; in the next he posts the FL blinds, 4 live and 2 dead (not NL's 2 and 1), and as the
    pot is unraised he may check or raise to 8."""
    t = mixed_table([200, 200, 200, 200], missed_blinds="standard")
    t.start_hand(seeded_deck(1), now=0.0, button=1)
    check_or_fold_out(t)
    t.sit_out("p4")
    events = t.start_hand(seeded_deck(2), now=10.0)  # NL: the big blind passes seat 4
    assert of(events, BlindMissed) == [BlindMissed(4, "p4", "big")]
    assert of(events, HandStarted) == [HandStarted(2, NL, 2, 3, 1, (3, 1, 2))]
    check_or_fold_out(t)
    assert t.schedule() == (FL, NL, 2)
    t.set_options("p4", wait_for_big_blind=False)
    assert t.sit_in("p4") == [SatIn(4, "p4", "big_and_small_blind")]
    assert t.seats[4].state == ENTERING
    events = t.start_hand(seeded_deck(3), now=20.0)
    assert events[:2] == [GameChanged(FL, 1), HandStarted(3, FL, 3, 1, 2, (1, 2, 3))]
    check_or_fold_out(t)
    assert t.seats[4].state == ENTERING and t.seats[4].stack == 200
    events = t.start_hand(seeded_deck(4), now=30.0)
    assert of(events, HandStarted) == [HandStarted(4, FL, 1, 2, 3, (2, 3, 4, 1))]
    assert sorted(posts(events)) == [
        (2, "small_blind", 2), (3, "big_blind", 4), (4, "blind", 4), (4, "dead", 2),
    ]
    assert t.stack(4) == 194 and t.actor == 4
    assert t.hand is not None
    legal = t.hand.legal_actions()
    assert (legal.check, legal.call, legal.min_to) == (True, 0, 8)
    assert t.seats[4].owe_big is False and t.seats[4].owe_small is False


def test_D9_a_player_sitting_out_is_not_dealt_and_owes_nothing_more_after_the_switch() -> None:
    """H7, D9: P4 sits out through the whole NL stage and into the FL stage; every big
    blind that passes him is recorded once (he owes one big and one small blind, not one
    per hand), and his chips never move."""
    t = mixed_table([200, 200, 200, 200], missed_blinds="standard")
    t.start_hand(seeded_deck(1), now=0.0, button=1)
    check_or_fold_out(t)
    t.sit_out("p4")
    missed = []
    for k in range(2, 6):
        events = t.start_hand(seeded_deck(k), now=10.0 * k)
        assert 4 not in of(events, HandStarted)[0].seats  # type: ignore[attr-defined]
        missed += of(events, BlindMissed)
        check_or_fold_out(t)
    assert missed == [BlindMissed(4, "p4", "big")]
    assert (t.seats[4].state, t.seats[4].stack, t.seats[4].owe_big, t.seats[4].owe_small) == (
        SITTING_OUT, 200, True, True,
    )


# --- L4: schedule() with a game that comes twice ----------------------------------------


def test_L4_schedule_names_the_next_game_when_a_game_comes_twice_in_the_schedule() -> None:
    """L4: a rotation NL, FL, PL, FL (one hand each). Between the third and fourth hands the
    game now is the second FL stage, and the game next is NL (the schedule wraps), not PL:
    schedule() must follow the stage being dealt, not the first stage equal to it."""
    stages = [Stage(NL12, 1), Stage(FL48, 1), Stage(PL12, 1), Stage(FL48, 1)]
    t = mixed_table([200, 200], stages=stages)
    seen = []
    for k in range(5):
        before = t.schedule()
        t.start_hand(seeded_deck(k), now=10.0 * k, button=1 if k == 0 else None)
        seen.append((before, t.schedule()))
        check_or_fold_out(t)
    assert seen == [
        ((NL, FL, 1), (NL, FL, 0)),
        ((FL, PL, 1), (FL, PL, 0)),
        ((PL, FL, 1), (PL, FL, 0)),
        ((FL, NL, 1), (FL, NL, 0)),
        ((NL, FL, 1), (NL, FL, 0)),
    ]
