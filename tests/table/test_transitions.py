"""Every transition between two and three players, with newcomers and returning players
(issue 15, H3-H7, cases 3-8, D11): who is dealt, where the button and the blinds go, what
each player posts, and that nobody is dealt in free.

The expected hands are worked out from the rules, not from the code:

- the big blind goes to the next player clockwise after the last big blind who is ready to
  play (a newcomer or a returning player waiting for it included);
- with three players or more the small blind position is the last big blind's seat and the
  button the last small blind's seat (the dead-button rule, cases 5, 6), when those seats
  come before the new big blind; otherwise (heads-up becomes three-handed) the button and
  the small blind go to the players before the big blind who owe nothing;
- heads-up the button posts the small blind and the other player the big blind (H4); from
  three to two, whoever is due the big blind takes it (case 4);
- a newcomer owes a big blind, a returning player what he missed (D11: by the seeds' rule one
  live big blind, by the standard rule the big blind live plus the small blind dead, or only
  the small blind dead); either waits for the big blind or posts from a seat after the big
  blind and before the button, never on the button or in the small blind (H6, H7, case 7);
  in a hand of two there is no such seat;
- a hand is dealt fresh (everyone ready dealt, debts forgiven) only when the table starts or
  restarts: when fewer than two players could be dealt otherwise.

Seats are numbered 1 to 6 clockwise; players are named 'S<seat>'.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from pokerroom.core.cards import stacked_deck
from pokerroom.core.events import Posted
from pokerroom.core.structures import Game
from pokerroom.table import SITTING_OUT, Table, TableConfig
from pokerroom.table.events import BlindMissed, HandStarted, SatIn
from tests.table.helpers import fold_round, play, start, started, table_with

Post = tuple[int, str, int]  # (seat, kind, amount)

# By the rule of the table (D11), what a player who owes (``Seat.owes_text``) posts to be dealt
# in from a seat after the big blind without waiting for it.
MAKE_UP = {
    "seeds": {"big_blind": ["blind"], "big_and_small_blind": ["blind"]},
    "standard": {"big_blind": ["blind"], "big_and_small_blind": ["blind", "dead"], "small_blind": ["dead"]},
}


def deal(
    table: Table,
    seats: Sequence[int],
    button: int,
    small_blind: int | None,
    big_blind: int,
    posted: Sequence[Post],
    *,
    fresh: bool = False,
    deck: Sequence[int] | None = None,
) -> list[object]:
    """Start the next hand and check it: the seats dealt in (in the engine's order: first
    left of the button, the button last; heads-up the big blind first), the button, the
    small blind (None: none posted), the big blind, every forced bet, whether it was dealt
    fresh, and that nobody is dealt in free."""
    owed = {s: seat.owes_text for s, seat in table.seats.items()}
    events = start(table, deck)
    hs = started(events)
    assert hs.seats == tuple(seats), hs
    assert (hs.button, hs.small_blind, hs.big_blind) == (button, small_blind, big_blind), hs
    got = [(e.player, e.kind, e.amount) for e in events if type(e) is Posted]
    assert sorted(got) == sorted(posted), got
    assert table.plan is not None and table.plan.fresh == fresh
    nobody_dealt_in_free(table, hs, owed, got)
    return events


def nobody_dealt_in_free(table: Table, hs: HandStarted, owed: dict[int, str], got: list[Post]) -> None:
    """H6, H7: a player who owed something is dealt in only as the big blind, or by posting
    exactly what he owes by the table's rule (D11) from a seat after the big blind and before
    the button; never on the button or in the small blind; or in a fresh deal."""
    assert table.plan is not None
    if table.plan.fresh:
        return
    n = table.config.seats
    for s in hs.seats:
        if owed[s] == "nothing":
            continue
        kinds = sorted(kind for seat, kind, _ in got if seat == s)
        assert s not in (hs.button, hs.small_blind), f"seat {s} owed {owed[s]}: dealt on the button or SB"
        if s == hs.big_blind:
            assert kinds == ["big_blind"], (s, kinds)
            continue
        assert kinds == sorted(MAKE_UP[table.config.missed_blinds][owed[s]]), (s, owed[s], kinds)
        assert 0 < (s - hs.big_blind) % n < (hs.button - hs.big_blind) % n, f"seat {s} may not post there"


def heads_up(missed_blinds: str = "seeds") -> Table:
    """S1 and S4 heads-up, S1 on the button: S1 posts the small blind, S4 the big blind."""
    table = table_with({1: 200, 4: 200}, missed_blinds=missed_blinds)
    deal_first(table, (4, 1), 1, 1, 4, [(1, "small_blind", 1), (4, "big_blind", 2)])
    return table


def deal_first(
    table: Table, seats: Sequence[int], button: int, sb: int | None, bb: int, posted: list[Post]
) -> None:
    """The table's first hand, with the button on ``button``: dealt fresh."""
    hs = started(events := start(table, button=button))
    assert (hs.seats, hs.button, hs.small_blind, hs.big_blind) == (tuple(seats), button, sb, bb)
    assert sorted((e.player, e.kind, e.amount) for e in events if type(e) is Posted) == sorted(posted)
    fold_round(table)


def three_handed(stacks: dict[int, int] | None = None, missed_blinds: str = "seeds") -> Table:
    """S1, S3 and S5, S1 on the button: S3 posts the small blind, S5 the big blind."""
    table = table_with(stacks or {1: 200, 3: 200, 5: 200}, missed_blinds=missed_blinds)
    return table


def newcomer(table: Table, seat: int, wait: bool) -> None:
    table.sit(f"S{seat}", seat, 200)
    table.set_options(f"S{seat}", wait_for_big_blind=wait)
    assert table.seats[seat].owes_text == "big_blind"


# ---------------------------------------------------------------- heads-up becomes three-handed


def test_issue_15_reproducer_the_newcomer_is_not_dealt_in_free_on_the_button_H6_H7_case_7() -> None:
    """The issue's reproducer: S1 and S3 heads-up, a newcomer sits in S5 and waits for the
    big blind. The hand after, the big blind returns to S3: positions that do not fit a third
    player, and the newcomer sits where he may not post (a hand of two has no such seat), so
    he waits; the hand after that he takes the big blind, and the button stays with S1."""
    table = table_with({1: 200, 3: 200}, min_buy_in=40, max_buy_in=400)
    deal_first(table, (3, 1), 1, 1, 3, [(1, "small_blind", 1), (3, "big_blind", 2)])
    deal(table, (1, 3), 3, 3, 1, [(3, "small_blind", 1), (1, "big_blind", 2)])
    fold_round(table)
    table.sit("S5", 5, 200)  # waits for the big blind and owes one
    # the issue: S5 was dealt in on the button here and posted nothing
    events = deal(table, (3, 1), 1, 1, 3, [(1, "small_blind", 1), (3, "big_blind", 2)])
    assert 5 not in started(events).seats and table.seats[5].owes_text == "big_blind"
    fold_round(table)
    deal(table, (3, 5, 1), 1, 3, 5, [(3, "small_blind", 1), (5, "big_blind", 2)])
    assert table.seats[5].owes_text == "nothing"
    fold_round(table)
    deal(table, (5, 1, 3), 3, 5, 1, [(5, "small_blind", 1), (1, "big_blind", 2)])


@pytest.mark.parametrize("wait", [True, False], ids=["waits", "posts"])
@pytest.mark.parametrize("seat", [5, 6], ids=["S5_after_the_BB", "S6_before_the_button"])
def test_heads_up_to_three_a_newcomer_after_the_big_blind_takes_it_at_once_H6_H7_case_7(
    seat: int, wait: bool
) -> None:
    """A newcomer between the big blind (S4) and the button (S1): the big blind comes to him
    next, so he is dealt in at once as the big blind (waiting or not), S4 moves to the small
    blind and S1, who just posted the small blind on the button, has the button. Then the
    blinds go round: everyone pays each blind once in three hands."""
    table = heads_up()
    newcomer(table, seat, wait)
    deal(table, (4, seat, 1), 1, 4, seat, [(4, "small_blind", 1), (seat, "big_blind", 2)])
    fold_round(table)
    deal(table, (seat, 1, 4), 4, seat, 1, [(seat, "small_blind", 1), (1, "big_blind", 2)])
    fold_round(table)
    deal(table, (1, 4, seat), seat, 1, 4, [(1, "small_blind", 1), (4, "big_blind", 2)])


@pytest.mark.parametrize("wait", [True, False], ids=["waits", "posts"])
@pytest.mark.parametrize("seat", [2, 3], ids=["S2_after_the_button", "S3_before_the_BB"])
def test_heads_up_to_three_a_newcomer_after_the_button_waits_one_hand_H6_H7_case_7(
    seat: int, wait: bool
) -> None:
    """A newcomer between the button (S1) and the big blind (S4): the big blind goes back to
    S1 first, heads-up (S4 on the button with the small blind); the newcomer may not post in
    a hand of two (he would sit on the button's side of the big blind), so he is not dealt in
    even when he asked to post. The hand after, the big blind reaches him: S1 small blind, S4
    the button."""
    table = heads_up()
    newcomer(table, seat, wait)
    events = deal(table, (1, 4), 4, 4, 1, [(4, "small_blind", 1), (1, "big_blind", 2)])
    assert seat not in started(events).seats and table.seats[seat].owes_text == "big_blind"
    fold_round(table)
    deal(table, (1, seat, 4), 4, 1, seat, [(1, "small_blind", 1), (seat, "big_blind", 2)])
    fold_round(table)
    deal(table, (seat, 4, 1), 1, seat, 4, [(seat, "small_blind", 1), (4, "big_blind", 2)])


@pytest.mark.parametrize("wait", [True, False], ids=["waits", "wants_to_post"])
@pytest.mark.parametrize("rule", ["seeds", "standard"])
def test_heads_up_to_three_a_returning_player_with_missed_blinds_H7_case_8_D11(rule: str, wait: bool) -> None:
    """S1, S3, S5 three-handed; S5 sits out after his big blind. He misses the small blind
    (his seat would have it: a dead small blind, and the other two play heads-up), then the
    big blind: by the seeds' rule he owes one big blind (D11), by the standard rule the big
    blind and the small blind. He comes back while the others are heads-up: a hand of two has
    no seat to post from, so he waits, whether or not he asked to post, and when the big blind
    reaches him he posts only it (waiting for it makes up what he missed, H7). Nobody
    forgives him anything on the way."""
    table = three_handed(missed_blinds=rule)
    deal_first(table, (3, 5, 1), 1, 3, 5, [(3, "small_blind", 1), (5, "big_blind", 2)])
    table.sit_out("S5")
    # his seat has the small blind: dead; S3 the button and the small blind heads-up, S1 the big blind
    events = deal(table, (1, 3), 3, 3, 1, [(3, "small_blind", 1), (1, "big_blind", 2)])
    assert BlindMissed(5, "S5", "small") in events
    fold_round(table)
    events = deal(table, (3, 1), 1, 1, 3, [(1, "small_blind", 1), (3, "big_blind", 2)])
    assert not [e for e in events if type(e) is BlindMissed]  # the big blind went 1 -> 3
    fold_round(table)
    events = deal(table, (1, 3), 3, 3, 1, [(3, "small_blind", 1), (1, "big_blind", 2)])  # passes S5
    missed = [e for e in events if type(e) is BlindMissed]
    assert missed == ([BlindMissed(5, "S5", "big")] if rule == "standard" else [])  # seeds: owed already
    fold_round(table)
    owes = "big_and_small_blind" if rule == "standard" else "big_blind"
    assert table.sit_in("S5") == [SatIn(5, "S5", owes)]
    table.set_options("S5", wait_for_big_blind=wait)
    events = deal(table, (3, 1), 1, 1, 3, [(1, "small_blind", 1), (3, "big_blind", 2)])
    assert 5 not in started(events).seats and table.seats[5].owes_text == owes
    fold_round(table)
    deal(table, (3, 5, 1), 1, 3, 5, [(3, "small_blind", 1), (5, "big_blind", 2)])
    assert table.seats[5].owes_text == "nothing"


@pytest.mark.parametrize("rule", ["seeds", "standard"])
def test_a_returning_player_posts_what_he_missed_when_three_become_two_H7_case_8_D11(rule: str) -> None:
    """S1, S3, S5 play and S2 sits out after his small blind, until the big blind has passed
    him. He comes back asking to post; the next hand he sits between the button and the small
    blind and must wait. Then S3, due the button, leaves: the big blind goes to S1, S5 has the
    small blind, the button is dead on S3's empty seat, and S2 sits after the big blind and
    before the button, where he may post what he owes: one live big blind by the seeds' rule,
    the big blind live and the small blind dead by the standard rule (D11). Three are dealt,
    not two; by the seeds' rule his post is live, so unraised he may check (case 8)."""
    table = table_with({1: 200, 2: 200, 3: 200, 5: 200}, missed_blinds=rule)
    deal_first(table, (2, 3, 5, 1), 1, 2, 3, [(2, "small_blind", 1), (3, "big_blind", 2)])
    table.sit_out("S2")  # after the small blind: he misses the big blind next time round
    deal(table, (3, 5, 1), 2, 3, 5, [(3, "small_blind", 1), (5, "big_blind", 2)])  # dead button S2
    fold_round(table)
    events = deal(table, (5, 1, 3), 3, 5, 1, [(5, "small_blind", 1), (1, "big_blind", 2)])
    fold_round(table)
    assert not [e for e in events if type(e) is BlindMissed]
    events = deal(table, (1, 3, 5), 5, 1, 3, [(1, "small_blind", 1), (3, "big_blind", 2)])  # passes S2
    assert BlindMissed(2, "S2", "big") in events
    fold_round(table)
    owes = "big_and_small_blind" if rule == "standard" else "big_blind"
    assert table.seats[2].owes_text == owes
    table.sit_in("S2")
    table.set_options("S2", wait_for_big_blind=False)
    events = deal(table, (3, 5, 1), 1, 3, 5, [(3, "small_blind", 1), (5, "big_blind", 2)])
    assert 2 not in started(events).seats  # between the button and the small blind: he waits
    fold_round(table)
    table.leave("S3")  # due the button
    made_up = [(2, "blind", 2)] + ([(2, "dead", 1)] if rule == "standard" else [])
    deal(table, (5, 1, 2), 3, 5, 1, [(5, "small_blind", 1), (1, "big_blind", 2), *made_up])
    assert table.seats[2].owes_text == "nothing"
    legal = table.hand.legal_actions()  # type: ignore[union-attr]
    assert table.actor == 2 and legal.check and legal.min_to == 4  # his 2 are live (case 8)


# ---------------------------------------------------------------- three become two


def rigged(order: Sequence[int], holes: dict[int, str]) -> tuple[object, ...]:
    """A deck dealing each seat of ``order`` (the engine's order) the two cards given, and a
    board (after the burns) that never helps 7-2 against aces: K Q J 9 9 (8 T 4 burned)."""
    first = "".join(holes[s][:2] for s in order)
    second = "".join(holes[s][2:] for s in order)
    return stacked_deck(first + second + "8hKhQsJd" + "Tc9h" + "4c9s")


def bust(table: Table, role: str) -> None:
    """Hand 1 of ``three_handed``: the player in ``role`` (button S1, small blind S3, big blind
    S5) goes all in with 7-2 and loses to aces."""
    loser = {"button": 1, "small_blind": 3, "big_blind": 5}[role]
    winner = 5 if loser != 5 else 3
    other = ({1, 3, 5} - {loser, winner}).pop()
    deck = rigged((3, 5, 1), {loser: "7c2d", winner: "AsAh", other: "KcKd"})
    start(table, deck, button=1)
    if role == "button":
        play(table, "S1 call; S3 fold")  # all in for 2: nobody else can bet, no option
    elif role == "small_blind":
        play(table, "S1 fold")  # all in on his small blind of 1
    else:
        play(table, "S1 fold; S3 call")  # all in on his big blind of 2
    while table.actor is not None:
        legal = table.hand.legal_actions()  # type: ignore[union-attr]
        table.act(f"S{table.actor}", "check" if legal.check else "show")
    assert table.seats[loser].stack == 0 and table.seats[loser].state == SITTING_OUT


def three_become_two(role: str, how: str, seat: int, wait: bool) -> Table:
    """S1 button, S3 small blind, S5 big blind in hand 1; the player in ``role`` goes, by
    leaving after the hand or busting in it; a newcomer sits in ``seat``."""
    loser = {"button": 1, "small_blind": 3, "big_blind": 5}[role]
    stacks = {1: 200, 3: 200, 5: 200}
    if how == "busts":
        stacks[loser] = 2 if role != "small_blind" else 1
        table = three_handed(stacks)
        bust(table, role)
    else:
        table = three_handed(stacks)
        deal_first(table, (3, 5, 1), 1, 3, 5, [(3, "small_blind", 1), (5, "big_blind", 2)])
        table.leave(f"S{loser}")
    newcomer(table, seat, wait)
    return table


HOW = pytest.mark.parametrize("how", ["leaves", "busts"])
WAIT = pytest.mark.parametrize("wait", [True, False], ids=["waits", "posts"])


@HOW
@WAIT
def test_three_to_two_the_button_goes_a_newcomer_before_the_button_is_the_big_blind_case_4_H6(
    how: str, wait: bool
) -> None:
    """The button S1 goes; a newcomer in S6 (after the big blind S5) is the next big blind:
    three-handed again, S3 the button, S5 the small blind."""
    table = three_become_two("button", how, 6, wait)
    deal(table, (5, 6, 3), 3, 5, 6, [(5, "small_blind", 1), (6, "big_blind", 2)])


@HOW
@WAIT
def test_three_to_two_the_button_goes_a_newcomer_in_his_place_is_the_big_blind_case_4_H6(
    how: str, wait: bool
) -> None:
    """The button S1 goes; a newcomer in S2 is the next ready seat after the big blind S5 (S6
    empty, S1 gone or busted): he takes the big blind, S3 the button, S5 the small blind."""
    table = three_become_two("button", how, 2, wait)
    deal(table, (5, 2, 3), 3, 5, 2, [(5, "small_blind", 1), (2, "big_blind", 2)])


@HOW
@WAIT
def test_three_to_two_the_button_goes_heads_up_then_the_newcomer_case_4_H4_H6(how: str, wait: bool) -> None:
    """The button S1 goes; a newcomer in S4 (between the small blind S3 and the big blind S5).
    Case 4: S3 is due the big blind, S5 takes the button and the small blind; the newcomer sits
    on the button's side and may not post in a hand of two. Then the big blind reaches him: S5
    stays on the button, S3 posts the small blind."""
    table = three_become_two("button", how, 4, wait)
    events = deal(table, (3, 5), 5, 5, 3, [(5, "small_blind", 1), (3, "big_blind", 2)])
    assert 4 not in started(events).seats
    fold_round(table)
    deal(table, (3, 4, 5), 5, 3, 4, [(3, "small_blind", 1), (4, "big_blind", 2)])


@HOW
@WAIT
def test_three_to_two_the_small_blind_goes_a_newcomer_after_the_big_blind_is_the_next_case_6_H6(
    how: str, wait: bool
) -> None:
    """The small blind S3 goes; a newcomer in S6 is the next big blind; the button is dead on
    S3 (case 6): S5 small blind, S1 acts last."""
    table = three_become_two("small_blind", how, 6, wait)
    deal(table, (5, 6, 1), 3, 5, 6, [(5, "small_blind", 1), (6, "big_blind", 2)])


@HOW
@WAIT
def test_three_to_two_the_small_blind_goes_a_newcomer_may_post_before_the_dead_button_case_4_H6_case_7(
    how: str, wait: bool
) -> None:
    """The small blind S3 goes; S1 is due the big blind, S5 has the small blind, the button is
    dead on S3. A newcomer in S2 sits after the big blind and before the button: asking to
    post, he is dealt in at once for a live big blind (three-handed); waiting, the hand is
    heads-up (case 4: S5 the button and the small blind) and the big blind reaches him next."""
    table = three_become_two("small_blind", how, 2, wait)
    if not wait:
        deal(table, (5, 1, 2), 3, 5, 1, [(5, "small_blind", 1), (1, "big_blind", 2), (2, "blind", 2)])
        return
    events = deal(table, (1, 5), 5, 5, 1, [(5, "small_blind", 1), (1, "big_blind", 2)])
    assert 2 not in started(events).seats
    fold_round(table)
    deal(table, (1, 2, 5), 5, 1, 2, [(1, "small_blind", 1), (2, "big_blind", 2)])


@HOW
@WAIT
def test_three_to_two_the_small_blind_goes_the_newcomer_behind_the_button_waits_case_4_H6(
    how: str, wait: bool
) -> None:
    """The small blind S3 goes; a newcomer in S4 sits between the (dead) button S3 and the
    small blind S5: he must wait. Heads-up S1 big blind, S5 button and small blind (case 4);
    then the big blind passes the empty S2 and S3 and reaches him."""
    table = three_become_two("small_blind", how, 4, wait)
    events = deal(table, (1, 5), 5, 5, 1, [(5, "small_blind", 1), (1, "big_blind", 2)])
    assert 4 not in started(events).seats
    fold_round(table)
    deal(table, (1, 4, 5), 5, 1, 4, [(1, "small_blind", 1), (4, "big_blind", 2)])


@HOW
@WAIT
def test_three_to_two_the_big_blind_goes_a_newcomer_after_him_is_the_next_case_5_H6(
    how: str, wait: bool
) -> None:
    """The big blind S5 goes; a newcomer in S6 is the next big blind: S3 the button, no small
    blind (S5's seat would have it: dead, case 5)."""
    table = three_become_two("big_blind", how, 6, wait)
    deal(table, (6, 1, 3), 3, None, 6, [(6, "big_blind", 2)])


@HOW
@WAIT
def test_three_to_two_the_big_blind_goes_a_newcomer_may_post_before_the_button_case_5_H6_case_7(
    how: str, wait: bool
) -> None:
    """The big blind S5 goes; S1 is due the big blind, no small blind (dead, case 5), S3 the
    button. A newcomer in S2, after the big blind and before the button, asking to post is
    dealt in for a live big blind; waiting, the hand is heads-up (S3 the button with the small
    blind, case 4: the small blind twice in a row is allowed, the big blind never) and the big
    blind reaches him next."""
    table = three_become_two("big_blind", how, 2, wait)
    if not wait:
        deal(table, (1, 2, 3), 3, None, 1, [(1, "big_blind", 2), (2, "blind", 2)])
        return
    events = deal(table, (1, 3), 3, 3, 1, [(3, "small_blind", 1), (1, "big_blind", 2)])
    assert 2 not in started(events).seats
    fold_round(table)
    deal(table, (1, 2, 3), 3, 1, 2, [(1, "small_blind", 1), (2, "big_blind", 2)])


@HOW
@WAIT
def test_three_to_two_the_big_blind_goes_the_newcomer_waits_two_hands_heads_up_case_4_H4_H6(
    how: str, wait: bool
) -> None:
    """The big blind S5 goes; a newcomer in S4 (between S3 and S5's seat). Heads-up S1 big
    blind, S3 the button (case 4); the big blind then goes to S3 (the next ready seat after
    S1), S1 on the button, the newcomer still on the button's side; then it reaches him."""
    table = three_become_two("big_blind", how, 4, wait)
    events = deal(table, (1, 3), 3, 3, 1, [(3, "small_blind", 1), (1, "big_blind", 2)])
    assert 4 not in started(events).seats
    fold_round(table)
    events = deal(table, (3, 1), 1, 1, 3, [(1, "small_blind", 1), (3, "big_blind", 2)])
    assert 4 not in started(events).seats
    fold_round(table)
    deal(table, (3, 4, 1), 1, 3, 4, [(3, "small_blind", 1), (4, "big_blind", 2)])


@WAIT
@pytest.mark.parametrize("role", ["button", "small_blind", "big_blind"])
def test_three_to_two_a_newcomer_takes_the_seat_just_left_H6_case_4_case_7(role: str, wait: bool) -> None:
    """A player leaves and a newcomer sits in his seat at once. In the button's seat S1 he is
    the next big blind. In the small blind's seat S3 he would be on the (dead) button: he may
    not post there; heads-up S1 big blind, S5 the button, then the big blind reaches him. In
    the big blind's seat S5 he would be in the small blind: he may not post there either;
    heads-up twice (S1, then S3, the big blind), then it reaches him."""
    seat = {"button": 1, "small_blind": 3, "big_blind": 5}[role]
    table = three_handed()
    deal_first(table, (3, 5, 1), 1, 3, 5, [(3, "small_blind", 1), (5, "big_blind", 2)])
    table.leave(f"S{seat}")
    newcomer(table, seat, wait)
    if role == "button":
        deal(table, (5, 1, 3), 3, 5, 1, [(5, "small_blind", 1), (1, "big_blind", 2)])
        return
    if role == "small_blind":
        events = deal(table, (1, 5), 5, 5, 1, [(5, "small_blind", 1), (1, "big_blind", 2)])
        assert 3 not in started(events).seats
        fold_round(table)
        deal(table, (1, 3, 5), 5, 1, 3, [(1, "small_blind", 1), (3, "big_blind", 2)])
        return
    events = deal(table, (1, 3), 3, 3, 1, [(3, "small_blind", 1), (1, "big_blind", 2)])
    assert 5 not in started(events).seats
    fold_round(table)
    events = deal(table, (3, 1), 1, 1, 3, [(1, "small_blind", 1), (3, "big_blind", 2)])
    assert 5 not in started(events).seats
    fold_round(table)
    deal(table, (3, 5, 1), 1, 3, 5, [(3, "small_blind", 1), (5, "big_blind", 2)])


# ---------------------------------------------------------------- the table restarts


def test_a_table_restart_deals_fresh_and_forgives_H7() -> None:
    """S1 and S4 heads-up; both leave; three newcomers sit. Nobody can be dealt without
    forgiving a debt, so the table restarts: everyone ready is dealt, the big blind goes to
    the next ready seat after the last big blind (S4): S6; the two before it have the small
    blind (S3) and the button (S2), and nobody posts what he owed."""
    table = heads_up()
    table.leave("S1")
    table.leave("S4")
    for seat in (2, 3, 6):
        table.sit(f"S{seat}", seat, 200)
    deal(table, (3, 6, 2), 2, 3, 6, [(3, "small_blind", 1), (6, "big_blind", 2)], fresh=True)
    assert all(seat.owes_text == "nothing" for seat in table.seats.values())


@pytest.mark.parametrize("rule", ["seeds", "standard"])
def test_a_restart_with_one_player_owing_nothing_deals_fresh_H7_D11(rule: str) -> None:
    """S1, S3, S5; S3 and S5 leave, two newcomers sit in S2 and S4. The next big blind is S1
    (after S5: S6 empty): he is the only player owing nothing, so fewer than two could be dealt
    without forgiving: a restart. S4 and S2, before S1, have the small blind and the button."""
    table = three_handed(missed_blinds=rule)
    deal_first(table, (3, 5, 1), 1, 3, 5, [(3, "small_blind", 1), (5, "big_blind", 2)])
    table.leave("S3")
    table.leave("S5")
    table.sit("S2", 2, 200)
    table.sit("S4", 4, 200)
    deal(table, (4, 1, 2), 2, 4, 1, [(4, "small_blind", 1), (1, "big_blind", 2)], fresh=True)


@pytest.mark.parametrize("rule", ["seeds", "standard"])
def test_no_restart_while_two_can_be_dealt_the_returning_player_waits_H7_case_8_D11(rule: str) -> None:
    """S1, S3, S5; S3 and S5 sit out, S1 is alone and a newcomer sits in S6: he is the next
    big blind and S1 owes nothing, so two can be dealt without forgiving anything: no
    restart. Heads-up the newcomer posts the big blind, S1 the button and the small blind;
    S5, in the seat of the small blind, misses it (D11: by the seeds' rule he owes a big blind
    for it, by the standard rule the small blind). S5 comes back asking to post: heads-up he
    may not, so he waits; the big blind then passes S3 (who misses it) and reaches S5, who
    posts only the big blind, three-handed: the newcomer on the button, S1 the small blind."""
    table = three_handed(missed_blinds=rule)
    deal_first(table, (3, 5, 1), 1, 3, 5, [(3, "small_blind", 1), (5, "big_blind", 2)])
    table.sit_out("S3")
    table.sit_out("S5")
    assert not table.can_start()  # S1 alone
    newcomer(table, 6, wait=True)
    events = deal(table, (6, 1), 1, 1, 6, [(1, "small_blind", 1), (6, "big_blind", 2)])
    assert [e for e in events if type(e) is BlindMissed] == [BlindMissed(5, "S5", "small")]
    fold_round(table)
    owes = "small_blind" if rule == "standard" else "big_blind"
    assert table.sit_in("S5") == [SatIn(5, "S5", owes)]
    table.set_options("S5", wait_for_big_blind=False)
    events = deal(table, (1, 6), 6, 6, 1, [(6, "small_blind", 1), (1, "big_blind", 2)])
    assert 5 not in started(events).seats
    fold_round(table)
    events = deal(table, (1, 5, 6), 6, 1, 5, [(1, "small_blind", 1), (5, "big_blind", 2)])
    assert [e for e in events if type(e) is BlindMissed] == [BlindMissed(3, "S3", "big")]
    assert table.seats[5].owes_text == "nothing"


def test_heads_up_becomes_three_when_both_newcomers_wait_H6_H7() -> None:
    """Heads-up S1 (button) and S4; newcomers in S2 and S5. S5 is the next big blind: three
    are dealt (S2, on the button's side, waits); then the big blind goes to S1, and then
    reaches S2: four-handed, every newcomer dealt only as the big blind."""
    table = heads_up()
    newcomer(table, 5, wait=True)
    newcomer(table, 2, wait=True)
    deal(table, (4, 5, 1), 1, 4, 5, [(4, "small_blind", 1), (5, "big_blind", 2)])
    fold_round(table)
    deal(table, (5, 1, 4), 4, 5, 1, [(5, "small_blind", 1), (1, "big_blind", 2)])
    fold_round(table)
    deal(table, (1, 2, 4, 5), 5, 1, 2, [(1, "small_blind", 1), (2, "big_blind", 2)])


def test_a_new_table_config_is_the_seeds_rule_by_default_D11() -> None:
    assert TableConfig.single(Game.no_limit(1, 2)).missed_blinds == "seeds"
