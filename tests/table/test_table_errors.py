"""Bad input at the table never crashes and never changes anything (DESIGN invariants 4
and 6; R3, S1, case 48): every refused command raises ``TableError`` with a code, and the
chips at the table, the seats (players, stacks, states, options, debts, clocks), the phase
and the hand being played are exactly as before. Bad table settings are refused when the
``TableConfig`` is made.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

from pokerroom.core.cards import seeded_deck, stacked_deck
from pokerroom.core.structures import Game
from pokerroom.table import IDLE, PLAYING, POSTING, SITTING_OUT, Stage, Table, TableConfig, TableError

NL12 = Game.no_limit(1, 2)
FL48 = Game.fixed_limit(4, 8, small_blind=2, big_blind=4)
STUD = Game.stud(10, 20, ante=1, bring_in=3)
DECK = seeded_deck(1)


# --- helpers -------------------------------------------------------------------------------


def new_table() -> Table:
    """NL 1/2, six seats, buy-in 80 to 400 (the default 40 to 200 big blinds): p1, p2, p3
    in seats 1-3 with 200 each, p4 in seat 4 sitting out."""
    t = Table(TableConfig.single(NL12, seats=6))
    assert (t.config.min_buy_in, t.config.max_buy_in) == (80, 400)
    for seat in (1, 2, 3, 4):
        t.sit(f"p{seat}", seat, 200)
    t.sit_out("p4")
    return t


def playing_table() -> Table:
    """``new_table`` with a hand dealt: button seat 1, blinds seats 2 and 3, seat 1 to act
    facing the big blind."""
    t = new_table()
    t.start_hand(DECK, now=0.0, button=1)
    assert (t.phase, t.actor, t.positions) == (PLAYING, 1, t.positions)
    return t


def snapshot(t: Table) -> tuple[object, ...]:
    hand = t.hand
    state = None if hand is None else (
        list(hand.stacks), list(hand.bets), list(hand.folded), len(hand.events), hand.actor, hand.street,
        hand.phase, list(hand.protected),
    )
    return (
        t.chips(), copy.deepcopy(t.seats), t.phase, t.hand_number, t.positions, t.turn, t.deadline,
        t.actor, t.previous, t.schedule(), state,
    )


def refused(t: Table, code: str, command: Callable[[], object]) -> None:
    """The command raises TableError(code) and the table is exactly as it was."""
    before = snapshot(t)
    with pytest.raises(TableError) as err:
        command()
    assert err.value.code == code, str(err.value)
    assert str(err.value)  # a reason for people, not only a code
    assert snapshot(t) == before


# --- sitting down: seats, players, buy-ins (R3, S1, case 48) -----------------------------

SIT_REFUSALS = [
    # seats out of range or of the wrong type
    (("p9", 0, 200), "bad_seat"),
    (("p9", 7, 200), "bad_seat"),
    (("p9", -1, 200), "bad_seat"),
    (("p9", "5", 200), "bad_seat"),
    (("p9", 5.0, 200), "bad_seat"),
    (("p9", True, 200), "bad_seat"),
    (("p9", None, 200), "bad_seat"),
    (("p9", [5], 200), "bad_seat"),
    (("p9", 1, 200), "seat_taken"),
    # players
    ((None, 5, 200), "bad_player"),
    ((9, 5, 200), "bad_player"),
    (("", 5, 200), "bad_player"),
    (("   ", 5, 200), "bad_player"),
    ((["p9"], 5, 200), "bad_player"),
    (("p1", 5, 200), "already_seated"),
    (("p4", 5, 200), "already_seated"),  # sitting out is still seated
    # buy-ins: case 48, no short buys, nothing above the maximum
    (("p9", 5, 79), "below_minimum"),
    (("p9", 5, 1), "below_minimum"),
    (("p9", 5, 401), "above_maximum"),
    (("p9", 5, 10**30), "above_maximum"),
    (("p9", 5, 0), "bad_amount"),
    (("p9", 5, -200), "bad_amount"),
    (("p9", 5, 200.0), "bad_amount"),
    (("p9", 5, "200"), "bad_amount"),
    (("p9", 5, True), "bad_amount"),
    (("p9", 5, None), "bad_amount"),
]


@pytest.mark.parametrize(("args", "code"), SIT_REFUSALS)
def test_R3_case_48_sit_refusals_change_nothing(args: tuple[object, object, object], code: str) -> None:
    """R3, S1, case 48: a bad seat, player or buy-in is refused, between hands and in a hand."""
    t = new_table()
    refused(t, code, lambda: t.sit(*args))
    t.start_hand(DECK, now=0.0, button=1)
    refused(t, code, lambda: t.sit(*args))


def test_R3_case_48_buy_in_at_exactly_the_minimum_or_the_maximum_is_accepted() -> None:
    """R3, case 48: the bounds themselves are fine (80 and 400 here)."""
    t = new_table()
    t.sit("p5", 5, 80)
    t.sit("p6", 6, 400)
    assert (t.seats[5].stack, t.seats[6].stack, t.chips()) == (80, 400, 1280)


def test_S1_case_48_stud_buy_in_below_the_minimum_is_refused() -> None:
    """S1, case 48: a stud table (buy-in 400 to 2000 by default: 40 to 200 small bets)
    refuses 399 and 2001."""
    t = Table(TableConfig.single(STUD, seats=8))
    t.sit("a", 1, 400)
    refused(t, "below_minimum", lambda: t.sit("b", 2, 399))
    refused(t, "above_maximum", lambda: t.sit("b", 2, 2001))


# --- adding chips (case 48) -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("player", "amount", "code"),
    [
        ("p1", 201, "above_maximum"),  # 200 + 201 > 400
        ("p1", 10**30, "above_maximum"),
        ("p1", 0, "bad_amount"),
        ("p1", -5, "bad_amount"),
        ("p1", 5.5, "bad_amount"),
        ("p1", "5", "bad_amount"),
        ("p1", True, "bad_amount"),
        ("p1", None, "bad_amount"),
        ("zz", 10, "not_seated"),
        (None, 10, "not_seated"),
        (1, 10, "not_seated"),
    ],
)
def test_case_48_add_chips_refusals_change_nothing(player: object, amount: object, code: str) -> None:
    """Case 48, R3: chips added must be a positive whole number, and the stack may not pass
    the maximum buy-in; an unknown player is refused."""
    t = new_table()
    refused(t, code, lambda: t.add_chips(player, amount))


def test_case_48_add_chips_up_to_the_maximum_between_hands_is_accepted() -> None:
    """Case 48: between hands a player may top up to exactly the maximum."""
    t = new_table()
    t.add_chips("p1", 200)
    assert (t.seats[1].stack, t.chips()) == (400, 1000)


def test_case_48_add_chips_mid_hand_for_a_player_in_the_hand_is_refused() -> None:
    """Case 48: chips can be added only between hands; a player in the hand is refused even
    for an amount that would be fine between hands, at any point of the hand."""
    t = playing_table()
    for p in ("p1", "p2", "p3"):
        refused(t, "in_hand", lambda p=p: t.add_chips(p, 10))  # type: ignore[misc]
    t.act("p1", "call", now=1.0)
    t.act("p2", "fold", now=2.0)
    refused(t, "in_hand", lambda: t.add_chips("p2", 10))  # folded, but the hand is still on
    refused(t, "in_hand", lambda: t.add_chips("p3", 10))


def busted_b() -> Table:
    """a (seat 1, 200) and b (seat 2, 80) heads-up, button 1: b (big blind) gets 7h2c, a
    KsKd, a raises all in and b calls; the board gives b nothing: he has lost every chip."""
    t = Table(TableConfig.single(NL12, seats=6))
    t.sit("a", 1, 200)
    t.sit("b", 2, 80)
    t.start_hand(stacked_deck("7hKs2cKd 3c AsQsJd 4c 9h 4d 8c"), now=0.0, button=1)
    t.act("a", "raise", 200, now=1.0)
    t.act("b", "call", now=2.0)
    return t


def test_case_48_busted_player_rebuy_below_the_minimum_is_refused() -> None:
    """Case 48: a player who lost every chip buys in again for at least the minimum: 79
    is refused, 80 brings him back."""
    t = busted_b()
    assert (t.phase, t.seats[2].stack, t.seats[2].state) == (IDLE, 0, SITTING_OUT)
    refused(t, "below_minimum", lambda: t.add_chips("b", 79))
    refused(t, "no_chips", lambda: t.sit_in("b"))
    t.add_chips("b", 80)
    assert (t.seats[2].stack, t.seats[2].state != SITTING_OUT, t.chips()) == (80, True, 360)


def test_refused_sit_in_of_a_busted_player_leaves_his_options_alone() -> None:
    """Invariant 4: a refused command changes nothing. A busted player who asked to sit out
    at his next big blind and then tries to sit in without chips is refused ('no_chips'),
    and his options are as they were."""
    t = busted_b()
    assert t.seats[2].stack == 0
    t.set_options("b", sit_out_next_big_blind=True)
    refused(t, "no_chips", lambda: t.sit_in("b"))


# --- options ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("player", "values", "code"),
    [
        ("p1", {"bogus": True}, "bad_option"),
        ("p1", {"auto_post_blind": False}, "bad_option"),  # a typo of auto_post_blinds
        ("p1", {"auto_muck": 1}, "bad_option"),
        ("p1", {"auto_muck": 0}, "bad_option"),
        ("p1", {"auto_muck": "yes"}, "bad_option"),
        ("p1", {"wait_for_big_blind": None}, "bad_option"),
        ("p1", {"sit_out_next_hand": "true"}, "bad_option"),
        ("p1", {"auto_muck": False, "bogus": True}, "bad_option"),  # nothing of it applies
        ("p1", {"auto_muck": False, "auto_post_blinds": "no"}, "bad_option"),
        ("zz", {"auto_muck": False}, "not_seated"),
        (None, {"auto_muck": False}, "not_seated"),
    ],
)
def test_bad_options_are_refused_and_change_nothing(
    player: object, values: dict[str, object], code: str
) -> None:
    """R4, S2: options are the known names, set to true or false; a command with one bad
    value applies none of it."""
    t = new_table()
    refused(t, code, lambda: t.set_options(player, **values))
    t.start_hand(DECK, now=0.0, button=1)
    refused(t, code, lambda: t.set_options(player, **values))


@pytest.mark.parametrize("command", ["leave", "sit_out", "sit_in", "post"])
@pytest.mark.parametrize("player", ["zz", None, 3, "", ["p1"]])
def test_unknown_players_are_refused(command: str, player: object) -> None:
    """Invariant 6: a command for somebody not seated at the table is refused."""
    t = new_table()
    refused(t, "not_seated", lambda: getattr(t, command)(player))
    t.start_hand(DECK, now=0.0, button=1)
    refused(t, "not_seated", lambda: getattr(t, command)(player))


# --- acting -----------------------------------------------------------------------------

ACT_REFUSALS = [
    # out of turn (seat 1 is to act)
    (("p2", "call"), "not_your_turn"),
    (("p3", "check"), "not_your_turn"),
    (("p3", "raise", 10), "not_your_turn"),
    # not in the hand, not at the table
    (("p4", "fold"), "not_in_hand"),
    (("zz", "fold"), "not_seated"),
    ((None, "fold"), "not_seated"),
    ((1, "fold"), "not_seated"),
    # what seat 1 may not do facing the big blind
    (("p1", "check"), "cannot_check"),
    (("p1", "bring_in"), "no_bring_in"),
    (("p1", "show"), "wrong_phase"),
    (("p1", "muck"), "wrong_phase"),
    # bad amounts
    (("p1", "raise", 3), "amount_out_of_range"),  # the minimum raise is to 4
    (("p1", "raise", 201), "amount_out_of_range"),  # more than his 200
    (("p1", "raise", -4), "amount_out_of_range"),
    (("p1", "raise", 0), "amount_out_of_range"),
    (("p1", "raise"), "bad_amount"),
    (("p1", "bet", None), "bad_amount"),
    (("p1", "raise", "10"), "bad_amount"),
    (("p1", "raise", 10.0), "bad_amount"),
    (("p1", "raise", True), "bad_amount"),
    (("p1", "raise", [10]), "bad_amount"),
    (("p1", "fold", 3), "bad_amount"),
    (("p1", "call", 2), "bad_amount"),
    # unknown actions
    (("p1", "allin"), "unknown_action"),
    (("p1", "FOLD"), "unknown_action"),
    (("p1", None), "unknown_action"),
    (("p1", 7), "unknown_action"),
    (("p1", ["fold"]), "unknown_action"),
]


@pytest.mark.parametrize(("args", "code"), ACT_REFUSALS)
def test_bad_actions_in_a_hand_are_refused_and_change_nothing(args: tuple[object, ...], code: str) -> None:
    """Invariants 4, 6: out of turn, not in the hand, wrong action, bad amount: refused with
    a code; the hand, the clock and every seat are as before, and the player to act can
    still act."""
    t = playing_table()
    refused(t, code, lambda: t.act(*args, now=1.0))  # type: ignore[misc]
    t.act("p1", "raise", 6, now=2.0)
    assert t.actor == 2 and t.hand is not None and t.hand.bets == [1, 2, 6]


def test_acting_after_folding_or_between_hands_is_refused() -> None:
    """A player who folded may not act again in the hand ('folded'); between hands and while
    blinds are being asked for, nobody is in a hand ('not_in_hand')."""
    t = playing_table()
    t.act("p1", "fold", now=1.0)
    refused(t, "folded", lambda: t.act("p1", "call", now=2.0))
    t.act("p2", "fold", now=2.0)
    assert t.phase == IDLE
    for p in ("p1", "p2", "p3", "p4"):
        refused(t, "not_in_hand", lambda p=p: t.act(p, "check", now=3.0))  # type: ignore[misc]
    t.set_options("p3", auto_post_blinds=False)
    t.start_hand(seeded_deck(2), now=10.0)
    assert t.phase == POSTING
    for p in ("p1", "p2", "p3"):
        refused(t, "not_in_hand", lambda p=p: t.act(p, "fold", now=11.0))  # type: ignore[misc]


# --- posting answers ----------------------------------------------------------------------


def test_post_refusals_change_nothing() -> None:
    """H6, H7: only a player asked to post may answer, with true or false."""
    t = new_table()
    refused(t, "nothing_to_post", lambda: t.post("p1", True))
    t.set_options("p3", auto_post_blinds=False)
    t.start_hand(DECK, now=0.0, button=1)
    assert (t.phase, t.deadline) == (POSTING, 15.0)
    refused(t, "nothing_to_post", lambda: t.post("p1", True))  # posts automatically
    refused(t, "nothing_to_post", lambda: t.post("p4", True))  # sitting out
    for answer in ("yes", 1, 0, None, "true"):
        refused(t, "bad_answer", lambda a=answer: t.post("p3", a))  # type: ignore[misc]
    assert t.post("p3", True, now=1.0)[0].button == 1  # type: ignore[union-attr]
    assert t.phase == PLAYING
    refused(t, "nothing_to_post", lambda: t.post("p3", True))


# --- dealing: decks, buttons, players ------------------------------------------------------

BAD_DECKS = [
    ("51 cards", DECK[:51]),
    ("no cards", ()),
    ("a duplicate", DECK[:51] + DECK[:1]),
    ("a duplicate in 53", DECK + DECK[:1]),
    ("out of range", tuple(range(1, 53))),
    ("negative", tuple(range(-1, 51))),
    ("one card 52 times", ("As",) * 52),
    ("garbage text", "garbage"),
    ("a string of cards", "AsKs" * 26),
    ("None", None),
    ("a number", 42),
    ("Nones", (None,) * 52),
    ("floats", tuple(float(i) for i in range(52))),
    ("bools", (True, False) * 26),
    ("bad card names", ("Zz", *DECK[1:])),
    ("lists", [[i] for i in range(52)]),
]


@pytest.mark.parametrize(("why", "deck"), BAD_DECKS, ids=[w for w, _ in BAD_DECKS])
def test_C1_bad_decks_are_refused_and_nothing_is_dealt(why: str, deck: object) -> None:
    """C1, invariant 6: the table deals only from a full deck of 52 distinct cards."""
    t = new_table()
    refused(t, "bad_deck", lambda: t.start_hand(deck, now=0.0, button=1))  # type: ignore[arg-type]
    assert t.hand is None and t.hand_number == 0


@pytest.mark.parametrize("button", [0, 5, 7, -1, "1", 1.0, True, [1]])
def test_H5_a_first_button_that_is_not_an_occupied_seat_is_refused(button: object) -> None:
    """H5: the first button must be an occupied seat (seat 5 is empty)."""
    t = new_table()
    refused(t, "bad_seat", lambda: t.start_hand(DECK, now=0.0, button=button))  # type: ignore[arg-type]


def test_starting_a_hand_twice_or_without_two_players_is_refused() -> None:
    """A hand is dealt once, and only with two players ready (p4 sits out, p3 leaves, p2
    sits out: one player left)."""
    t = playing_table()
    refused(t, "hand_running", lambda: t.start_hand(seeded_deck(2), now=1.0))
    t.act("p1", "fold", now=1.0)
    t.act("p2", "fold", now=2.0)
    t.leave("p3")
    t.sit_out("p2")
    refused(t, "not_enough_players", lambda: t.start_hand(seeded_deck(2), now=3.0))
    lone = Table(TableConfig.single(NL12))
    refused(lone, "not_enough_players", lambda: lone.start_hand(DECK))
    lone.sit("a", 1, 200)
    refused(lone, "not_enough_players", lambda: lone.start_hand(DECK))


# --- bad table settings --------------------------------------------------------------------

CONFIG_REFUSALS: list[tuple[str, Callable[[], object], str]] = [
    ("hold'em 1 seat", lambda: TableConfig.single(NL12, seats=1), "bad_seats"),
    ("hold'em 11 seats", lambda: TableConfig.single(NL12, seats=11), "bad_seats"),
    ("hold'em 0 seats", lambda: TableConfig.single(NL12, seats=0), "bad_seats"),
    ("stud 9 seats", lambda: TableConfig.single(STUD, seats=9), "bad_seats"),
    ("stud 1 seat", lambda: TableConfig.single(STUD, seats=1), "bad_seats"),
    ("mixed 11 seats", lambda: TableConfig.mixed([Stage(NL12, 2), Stage(FL48, 2)], seats=11), "bad_seats"),
    ("seats text", lambda: TableConfig.single(NL12, seats="6"), "bad_seats"),
    ("seats float", lambda: TableConfig.single(NL12, seats=6.0), "bad_seats"),
    ("seats bool", lambda: TableConfig.single(NL12, seats=True), "bad_seats"),
    ("policy fold", lambda: TableConfig.single(NL12, timeout_policy="fold"), "bad_setting"),
    ("policy None", lambda: TableConfig.single(NL12, timeout_policy=None), "bad_setting"),
    ("policy case", lambda: TableConfig.single(NL12, timeout_policy="CHECK_FOLD"), "bad_setting"),
    ("min above max", lambda: TableConfig.single(NL12, min_buy_in=300, max_buy_in=200), "bad_buy_in"),
    ("min zero", lambda: TableConfig.single(NL12, min_buy_in=0, max_buy_in=200), "bad_buy_in"),
    ("min negative", lambda: TableConfig.single(NL12, min_buy_in=-5), "bad_setting"),
    ("min float", lambda: TableConfig.single(NL12, min_buy_in=80.0), "bad_setting"),
    ("max text", lambda: TableConfig.single(NL12, max_buy_in="400"), "bad_setting"),
    ("action time 0.5", lambda: TableConfig.single(NL12, action_time=0.5), "bad_setting"),
    ("action time 0", lambda: TableConfig.single(NL12, action_time=0), "bad_setting"),
    ("action time nan", lambda: TableConfig.single(NL12, action_time=float("nan")), "bad_setting"),
    ("action time inf", lambda: TableConfig.single(NL12, action_time=float("inf")), "bad_setting"),
    ("action time text", lambda: TableConfig.single(NL12, action_time="15"), "bad_setting"),
    ("action time bool", lambda: TableConfig.single(NL12, action_time=True), "bad_setting"),
    ("time bank negative", lambda: TableConfig.single(NL12, time_bank=-1), "bad_setting"),
    ("time bank above max", lambda: TableConfig.single(NL12, time_bank=61, time_bank_max=60), "bad_setting"),
    ("time bank max nan", lambda: TableConfig.single(NL12, time_bank_max=float("nan")), "bad_setting"),
    ("refill negative", lambda: TableConfig.single(NL12, time_bank_refill=-1), "bad_setting"),
    ("max timeouts 0", lambda: TableConfig.single(NL12, max_timeouts=0), "bad_setting"),
    ("max timeouts bool", lambda: TableConfig.single(NL12, max_timeouts=True), "bad_setting"),
    ("max timeouts float", lambda: TableConfig.single(NL12, max_timeouts=2.0), "bad_setting"),
    ("missed orbits negative", lambda: TableConfig.single(NL12, max_missed_orbits=-1), "bad_setting"),
    ("empty schedule", lambda: TableConfig.mixed([]), "bad_schedule"),
    ("schedule not stages", lambda: TableConfig.mixed(["NL 1/2"]), "bad_schedule"),
    ("schedule as list", lambda: TableConfig([Stage(NL12, 1)], min_buy_in=80), "bad_schedule"),
    ("hold'em and stud", lambda: TableConfig.mixed([Stage(NL12, 2), Stage(STUD, 2)]), "bad_schedule"),
    ("stage of 0 hands", lambda: Stage(NL12, 0), "bad_schedule"),
    ("stage of 1.0 hands", lambda: Stage(NL12, 1.0), "bad_schedule"),
    ("stage of no game", lambda: Stage("NL 1/2", 1), "bad_game"),
    ("single of no game", lambda: TableConfig.single(None), "bad_game"),  # type: ignore[arg-type]
    ("table of no config", lambda: Table("config"), "bad_config"),  # type: ignore[arg-type]
    ("table of None", lambda: Table(None), "bad_config"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize(("why", "make", "code"), CONFIG_REFUSALS, ids=[w for w, _, _ in CONFIG_REFUSALS])
def test_bad_table_settings_are_refused_with_a_code(why: str, make: Callable[[], object], code: str) -> None:
    """R1, R3, L4, S1 settings: seats 2-10 for hold'em, 2-8 for stud; a known timeout
    policy; a minimum buy-in of at least one chip and not above the maximum; clock times
    that are real, finite, non-negative seconds (the action time at least 1 s, the starting
    bank within its maximum); a schedule of Stages of one variant."""
    with pytest.raises(TableError) as err:
        make()
    assert err.value.code == code, str(err.value)


@pytest.mark.parametrize(("game", "seats"), [(NL12, 2), (NL12, 10), (STUD, 2), (STUD, 8)])
def test_seat_counts_at_the_limits_are_accepted(game: Game, seats: int) -> None:
    """Hold'em tables have 2 to 10 seats, stud tables 2 to 8: the limits themselves are fine."""
    assert Table(TableConfig.single(game, seats=seats)).config.seats == seats
