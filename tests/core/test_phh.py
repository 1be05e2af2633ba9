"""PHH reading, writing and strict replay (pokerroom.core.phh), on the shared real hands
(/work/shared/phh: Pluribus, WSOP 2023 #43 day 5, famous hands) and on small made-up ones."""

from __future__ import annotations

import datetime
import json
import random
from pathlib import Path

import pytest

from pokerroom.core.cards import Card, format_cards, seeded_deck
from pokerroom.core.events import Acted, BoardDealt, HoleDealt, Mucked, Posted, Reshuffled, Shown
from pokerroom.core.hand import Hand
from pokerroom.core.phh import (
    Action,
    HandHistory,
    PHHError,
    ReplayError,
    ReplayResult,
    UnsupportedError,
    dumps,
    game_of,
    load,
    loads,
    parse_action,
    replay,
    replay_paths,
    verify,
)
from pokerroom.core.structures import Game, Structure
from tests.core.helpers import PK_COMMUNITY_CARD
from tests.oracles.data import missing_message, shared_phh

REPO = Path(__file__).resolve().parents[2]
DATA = shared_phh()


@pytest.fixture
def shared_data() -> Path:
    """The shared real hands: a test that needs them fails without them, it is never skipped."""
    if not DATA.is_dir():
        pytest.fail(missing_message(DATA), pytrace=False)
    return DATA


needs_data = pytest.mark.usefixtures("shared_data")

HALF_CHIP_HANDS = {("pluribus/102.phhs", 1), ("pluribus/32.phhs", 24), ("pluribus/91.phhs", 44),
                   ("pluribus/91.phhs", 54)}


def nt(actions: list[str], n: int = 3, stacks: int = 100, **fields: object) -> HandHistory:
    """A small no-limit 1/2 hand with ``n`` players."""
    blinds = [1, 2] + [0] * (n - 2)
    values: dict[str, object] = dict(variant="NT", antes=[0] * n, blinds_or_straddles=blinds, min_bet=2,
                                     starting_stacks=[stacks] * n, actions=actions)
    values.update(fields)
    return HandHistory(**values)  # type: ignore[arg-type]


def replay_error(hh: HandHistory) -> ReplayError:
    with pytest.raises(ReplayError) as info:
        replay(hh)
    return info.value


DEAL3 = ["d dh p1 AsKs", "d dh p2 7h2c", "d dh p3 8c8d"]
FLOP = "d db 2d3d4d"
CHECKED_DOWN = [*DEAL3, "p3 cc", "p1 cc", "p2 cc", FLOP, "p1 cc", "p2 cc", "p3 cc", "d db 5s",
                "p1 cc", "p2 cc", "p3 cc", "d db 9s", "p1 cc", "p2 cc", "p3 cc"]


# ---------------------------------------------------------------------------- the real hands


@pytest.fixture(scope="module")
def results() -> list[ReplayResult]:
    if not DATA.is_dir():
        pytest.fail(missing_message(DATA), pytrace=False)
    return list(replay_paths([DATA]))


def rel(r: ReplayResult) -> str:
    return Path(r.path).relative_to(DATA).as_posix()


WSOP_STUD = ("6", "9", "10", "11", "69", "71", "74")


@needs_data
def test_every_nt_ft_and_f7s_hand_replays_to_its_finishing_stacks(results: list[ReplayResult]) -> None:
    ours = [r for r in results if r.variant in ("NT", "FT", "F7S")]
    assert [r for r in ours if r.error] == []
    assert len(ours) == 4705  # 4,687 Pluribus + 6 NT, 4 FT and 7 F7S at the WSOP + 1 historical NT
    assert sum(rel(r).startswith("pluribus/") for r in ours) == 4687
    assert sorted(rel(r) for r in ours if rel(r).startswith("wsop")) == sorted(
        f"wsop-2023-43-5/{k}.phh"
        for k in ("3", "34", "37", "39", "40", "63", "65", "66", "67", "68", *WSOP_STUD)
    )
    exact = [r for r in ours if r.ok and r.note is None]
    assert len(exact) == 4700
    assert all(r.finishing_stacks == r.expected for r in exact)
    half = [r for r in ours if r.note is not None]
    assert {(rel(r), r.hand) for r in half} == HALF_CHIP_HANDS
    for r in half:
        assert r.ok is True and r.finishing_stacks is not None and r.expected is not None
        assert "half chips" in r.note
        diffs = [abs(a - b) for a, b in zip(r.finishing_stacks, r.expected, strict=True)]
        assert sorted(diffs)[-2:] == [0.5, 0.5]
        assert sum(r.finishing_stacks) == sum(r.expected)
    (unrecorded,) = [r for r in ours if r.ok is None]
    assert rel(unrecorded) == "historical/dwan-ivey-2009.phh"
    assert unrecorded.finishing_stacks == [572100, 1997500, 1109500]  # Dwan's straight wins


@needs_data
def test_the_wsop_stud_hands_replay_exactly(results: list[ReplayResult]) -> None:
    stud = {rel(r): r for r in results if r.variant == "F7S"}
    assert sorted(stud) == sorted(f"wsop-2023-43-5/{k}.phh" for k in WSOP_STUD)
    for r in stud.values():
        assert (r.ok, r.error, r.note) == (True, None, None) and r.finishing_stacks == r.expected
    (_, hh), = load(DATA / "wsop-2023-43-5" / "6.phh")
    hand = replay(hh)
    assert hand.stacks == [2150000, 9750000, 4675000, 8225000, 4900000]
    # p3 shows the lowest up card, 6d, and brings in; p2 wins with a queen-high straight
    assert [(e.player, e.action, e.amount) for e in hand.events if type(e) is Acted][:2] == [
        (2, "bring_in", 50000), (3, "fold", 0)]
    assert [str(c) for c in hand.holes[1]] == ["Ts", "9s", "8c", "4c", "7h", "6c", "Qc"]
    assert hand.face_up[1] == [False, False, True, True, True, True, False]


@needs_data
def test_other_variants_are_reported_unsupported_by_name(results: list[ReplayResult]) -> None:
    unsupported = {rel(r): r for r in results if r.unsupported}
    assert len(results) == 4705 + len(unsupported)
    expected = {
        "historical/alice-carol-wikipedia.phh": "FB", "historical/antonius-blom-2009.phh": "PO",
        "historical/arieh-yockey-2019.phh": "F2L3D", "historical/phua-xuan-2019.phh": "NS",
    }
    assert {k: r.variant for k, r in unsupported.items()} == expected
    for r in unsupported.values():
        assert r.ok is None and r.finishing_stacks is None and r.error is not None
        assert f"unsupported variant '{r.variant}'" in r.error


@needs_data
def test_half_chip_record_detail() -> None:
    (index, hh), *_ = load(DATA / "pluribus" / "102.phhs")
    r = verify(hh, "102.phhs", index)
    assert (index, r.finishing_stacks, r.expected) == (1, [10113, 9775, 10000, 10000, 10112, 10000],
                                                       [10112.5, 9775, 10000, 10000, 10112.5, 10000])
    assert r.note is not None and "gives to p1 (the first winner left of the button)" in r.note


@needs_data
def test_real_files_round_trip() -> None:
    files = [*sorted((DATA / "wsop-2023-43-5").glob("*.phh")), *sorted((DATA / "historical").glob("*.phh")),
             DATA / "pluribus" / "102.phhs"]
    count = 0
    for file in files:
        for _, hh in load(file):
            assert loads(dumps(hh)) == hh
            count += 1
    assert count == 17 + 5 + 73  # WSOP, historical, one Pluribus session


# ---------------------------------------------------------------------------- reading and writing


def test_round_trip_with_every_kind_of_field() -> None:
    hh = nt(CHECKED_DOWN, finishing_stacks=[102, 98.5, 99.5], players=['Al "the rock"', "Bé\\n", "tab\tnl\n"],
            hand=7, ante_trimming_status=True, author="Ann", event="Test",
            extra={"year": 2024, "time_limit": 1.5, "time": datetime.time(7, 32), "seats": [1, 2, 3],
                   "url": "https://x.test/a?b='c'", "odd key": False, "ctl": "\x01\x7f"})
    text = dumps(hh)
    assert loads(text) == hh
    assert text.startswith("variant = \"NT\"\n") and "actions = [\n  \"d dh p1 AsKs\",\n" in text
    assert loads(text).extra["time"] == datetime.time(7, 32)


def test_loads_keeps_extra_fields_and_normalises_whole_floats() -> None:
    text = dumps(nt(["p3 f"], stacks=100)).replace("min_bet = 2", "min_bet = 2.0\ncurrency = 'USD'")
    hh = loads(text)
    assert hh.min_bet == 2 and isinstance(hh.min_bet, int)
    assert hh.extra == {"currency": "USD"}
    assert loads(dumps(hh)) == hh


def test_multi_hand_text_and_files(tmp_path: Path) -> None:
    one, two = nt(["d dh p1 AsKs"]), nt(["d dh p1 2c3c"], stacks=50)
    text = "[1]\n" + dumps(one) + "\n[2]\n" + dumps(two)
    assert loads(text, multi=True) == [(1, one), (2, two)]
    (tmp_path / "a.phhs").write_text(text)
    (tmp_path / "b.phh").write_text(dumps(two))
    assert load(tmp_path / "a.phhs") == [(1, one), (2, two)]
    assert load(tmp_path / "b.phh") == [(None, two)]


def test_dumps_refuses_values_toml_cannot_hold() -> None:
    with pytest.raises(PHHError, match="cannot write a set"):
        dumps(nt([], extra={"bad": {1, 2}}))


BASE = """variant = 'NT'
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = []
"""


@pytest.mark.parametrize(("text", "message"), [
    ("variant = 'NT\n", "bad TOML"),
    (BASE.replace("min_bet = 2\n", ""), "missing required field(s): min_bet"),
    (BASE.replace("actions = []\n", ""), "missing required field(s): actions"),
    ("variant = 'F7S'\nantes=[0,0]\nstarting_stacks=[1,1]\nactions=[]\n", "bring_in, small_bet, big_bet"),
    (BASE.replace("antes = [0, 0]", "antes = '0'"), "antes must be an array of non-negative numbers"),
    (BASE.replace("[100, 100]", "[100, true]"), "starting_stacks must be an array"),
    (BASE.replace("[100, 100]", "[100, 0]"), "starting_stacks must be at least two positive numbers"),
    (BASE.replace("[100, 100]", "[100]"), "at least two"),
    (BASE.replace("min_bet = 2", "min_bet = '2'"), "min_bet must be a non-negative number"),
    (BASE.replace("min_bet = 2", "min_bet = -2"), "min_bet must be a non-negative number"),
    (BASE.replace("variant = 'NT'", "variant = 3"), "variant must be a string"),
    (BASE + "players = ['a', 2]\n", "players must be an array of strings"),
    (BASE + "hand = true\n", "hand must be an integer or a string"),
    (BASE + "ante_trimming_status = 1\n", "ante_trimming_status must be true or false"),
    (BASE + "finishing_stacks = [1, 2, 3]\n", "finishing_stacks has 3 entries for 2 players"),
    (BASE.replace("actions = []", "actions = [1]"), "actions must be an array of strings"),
    (BASE.replace("actions = []", "actions = ['p1 xx']"), "bad action 'p1 xx'"),
    (BASE.replace("actions = []", "actions = ['p3 f']"), "actions[0] 'p3 f': there are only 2 players"),
])
def test_malformed_files(text: str, message: str) -> None:
    with pytest.raises(PHHError) as info:
        loads(text)
    assert message in str(info.value)
    assert not isinstance(info.value, UnsupportedError)


@pytest.mark.parametrize(("action", "message"), [
    ("p1", "an actor needs an action"),
    ("q1 f", "'q1' is not an actor"),
    ("p0 f", "'p0' is not an actor"),
    ("p1 f 3", "unknown action or wrong arguments"),
    ("p1 cbr", "unknown action or wrong arguments"),
    ("p1 cbr abc", "'abc' is not a positive amount"),
    ("p1 cbr -5", "'-5' is not a positive amount"),
    ("p1 cbr 0", "'0' is not a positive amount"),
    ("p1 cbr nan", "'nan' is not a positive amount"),
    ("d dh p1", "the dealer's actions"),
    ("d xx As", "the dealer's actions"),
    ("d db AsK", "must be two characters each"),
    ("d db Zz", "bad card 'Zz'"),
    ("p1 sm As Kd", "unknown action or wrong arguments"),
])
def test_bad_action_strings(action: str, message: str) -> None:
    with pytest.raises(PHHError, match="bad action") as info:
        parse_action(action)
    assert message in str(info.value)


def test_parse_action_fields() -> None:
    a = parse_action("  d dh p2 As??  # two cards ")
    assert (a.actor, a.verb, a.target, a.cards) == (None, "dh", 1, (Card("As"), None))
    assert a.commentary == "two cards"
    assert parse_action("p3 cbr 225").amount == 225
    assert parse_action("p3 cbr 10.5").amount == 10.5
    assert parse_action("p1 sm -").dash and parse_action("p1 sm").cards is None
    assert parse_action("# a burn card was exposed").verb == ""
    assert parse_action("").verb == ""


def test_an_action_is_a_value() -> None:
    """Equal to an Action of the same fields (a line from the cache of parsed lines or a new
    parse alike), hashable, and shown with its fields."""
    for line in ("p1 f", "p3 cbr 225", "d dh p1 AsKs", "d db Qs9c4s", "p2 sm -", "d dh p2 As?? # c"):
        a, b = parse_action(line), parse_action(line)
        assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    a = parse_action("p3 cbr 225")
    assert a == Action("p3 cbr 225", 2, "cbr", amount=225)
    assert a != Action("p3 cbr 225", 2, "cbr", amount=226) and a != ("p3 cbr 225", 2, "cbr")
    assert repr(parse_action("d dh p1 AsKs")) == (
        "Action(text='d dh p1 AsKs', actor=None, verb='dh', target=0, cards=(Card('As'), Card('Ks')), "
        "amount=None, dash=False, commentary=None)"
    )


def test_cards_read_by_their_codes() -> None:
    """Hole deals and shown cards in every spelling the quick path takes or leaves."""
    assert parse_action("d dh p9 2c3d").cards == (Card("2c"), Card("3d"))
    assert parse_action("d dh p10 AsKd").target == 9
    assert parse_action("d dh p1 As??").cards == (Card("As"), None)
    assert parse_action("p1 sm ????").cards == (None, None)
    assert parse_action("d dh p1 asKD").cards == (Card("As"), Card("Kd"))  # the full parser's
    assert parse_action("d db Qs9c4s").cards == (Card("Qs"), Card("9c"), Card("4s"))
    for bad in ("d dh p1 AsK", "d dh p1 Ax2c", "d dh p1 Ás2c", "d db Q?9c4s"):
        with pytest.raises(PHHError, match="bad action"):
            parse_action(bad)


def test_hole_cards_dealt_are_the_usual_events() -> None:
    """The engine shares one HoleDealt per player, card and face (events are values): they
    equal the events made anew."""
    hh = loads(BASE.replace("actions = []", "actions = ['d dh p1 AsKs', 'd dh p2 7h2c', 'p2 cbr 6', 'p1 f']"))
    holes = [e for e in replay(hh).events if type(e) is HoleDealt]
    assert holes and all(e == HoleDealt(e.player, e.card, e.face_up) for e in holes)
    assert [tuple(e) for e in holes] == [(e.player, e.card, False) for e in holes]


def test_load_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(PHHError, match=r"missing\.phh: cannot read the file"):
        load(tmp_path / "missing.phh")
    (tmp_path / "x.phhs").write_text("[1]\n" + BASE + "\n[2]\n" + BASE.replace("min_bet = 2\n", ""))
    with pytest.raises(PHHError, match=r"x.phhs: \[2\]: missing required field\(s\): min_bet"):
        load(tmp_path / "x.phhs")
    (tmp_path / "y.phhs").write_text(BASE)
    with pytest.raises(PHHError, match=r"holds only tables \[1\], \[2\]"):
        load(tmp_path / "y.phhs")


# ---------------------------------------------------------------------------- games and support


def test_game_of_each_variant() -> None:
    assert game_of(nt([])).structure is Structure.NO_LIMIT
    pt = game_of(nt([], variant="PT"))
    assert (pt.structure, pt.small_blind, pt.big_blind, pt.min_bet) == (Structure.POT_LIMIT, 1, 2, 2)
    ft = game_of(HandHistory("FT", [0, 0, 0], [100] * 3, [], [1, 2, 0], small_bet=2, big_bet=4))
    assert (ft.structure, ft.small_blind, ft.big_blind, ft.small_bet, ft.big_bet) == (
        Structure.FIXED_LIMIT, 1, 2, 2, 4)
    with pytest.raises(PHHError, match="bad stakes"):
        game_of(nt([], blinds_or_straddles=[2, 1, 0]))
    stud = game_of(f7s([]))
    assert (stud.code, stud.variant, stud.small_bet, stud.big_bet, stud.ante, stud.bring_in, stud.cap) == (
        "F7S", "stud", 10, 20, 1, 3, 4)


@pytest.mark.parametrize("variant", ["NS", "PO", "FO/8", "F2L3D", "FB", "F7S/8", "FR", "N2L1D", "XX"])
def test_unsupported_variants(variant: str) -> None:
    with pytest.raises(UnsupportedError, match=f"unsupported variant '{variant}'"):
        replay(nt(["d dh p1 AsKs"], variant=variant))
    r = verify(nt([], variant=variant))
    assert r.unsupported and r.ok is None


@pytest.mark.parametrize(("hh", "message"), [
    (nt([], n=4, blinds_or_straddles=[1, 2, 4, 8]), "straddles"),  # D10: one straddle only
    (nt([], n=4, blinds_or_straddles=[1, 2, 3, 0]), "straddles"),  # D10: twice the big blind only
    (nt([], n=6, blinds_or_straddles=[1, 2, 0, 0, 0, 4]), "straddles"),  # D10: no button straddle
    (nt([], n=6, blinds_or_straddles=[0, 0, 0, 0, 0, 3]), "straddles"),
    (nt([], n=4, blinds_or_straddles=[1, 2, 4, 0], variant="FT", small_bet=2, big_bet=4), "straddles"),
    (nt([], starting_stacks=[100.5, 100, 100]), "starting_stacks is not a whole number of chips (100.5)"),
    (nt([], blinds_or_straddles=[0.5, 1, 0]), "blinds_or_straddles is not a whole number"),
    (nt([], antes=[0.25] * 3), "antes is not a whole number"),
    (nt([*DEAL3, "p3 cbr 10.5"]), "actions[3] 'p3 cbr 10.5' is not a whole number of chips"),
    (nt([*DEAL3, "p3 sd"]), "draws ('sd')"),
    (nt([*DEAL3, "p3 pb"]), "bring-ins ('pb')"),
])
def test_unsupported_features(hh: HandHistory, message: str) -> None:
    with pytest.raises(UnsupportedError) as info:
        replay(hh)
    assert message in str(info.value)


# ---------------------------------------------------------------------------- strict replay


def test_replay_builds_the_deck_in_dealing_order() -> None:
    hand = replay(nt(CHECKED_DOWN))
    assert hand.holes == [[Card("As"), Card("Ks")], [Card("7h"), Card("2c")], [Card("8c"), Card("8d")]]
    assert [str(c) for c in hand.board] == ["2d", "3d", "4d", "5s", "9s"]
    assert hand.stacks == [104, 98, 98]  # the wheel wins
    assert [str(c) for c in hand.deck[:6]] == ["As", "7h", "8c", "Ks", "2c", "8d"]


def test_heads_up_reverses_forced_bets() -> None:
    hh = HandHistory("NT", [0, 3], [100, 100], ["d dh p1 AsKs", "d dh p2 7h2c", "p2 cc", "p1 cbr 8", "p2 f"],
                     [1, 2], min_bet=2)
    hand = replay(hh)
    posts = [(e.player, e.kind, e.amount) for e in hand.events if type(e) is Posted]
    assert posts == [(0, "big_blind", 2), (1, "small_blind", 1), (0, "ante", 3)]  # a big-blind ante: after it
    assert hand.stacks == [100 - 3 - 2 + 3 + 2 + 2, 98]
    # p1 (the big blind) may not act first preflop: the button does
    err = replay_error(HandHistory("NT", [0, 0], [100, 100], ["d dh p1 AsKs", "d dh p2 7h2c", "p1 cc"],
                                   [1, 2], min_bet=2))
    assert err.index == 2 and err.code == "not_your_turn" and "(p2 is to act)" in str(err)


def test_out_of_turn_action_names_the_action() -> None:
    err = replay_error(nt([*DEAL3, "p1 f"]))
    assert (err.index, err.text, err.code) == (3, "p1 f", "not_your_turn")
    assert str(err).startswith("actions[3] 'p1 f': ") and "p3 is to act" in str(err)


def test_illegal_amount_names_the_action() -> None:
    err = replay_error(nt([*DEAL3, "p3 cbr 3"]))
    assert (err.index, err.text, err.code) == (3, "p3 cbr 3", "amount_out_of_range")
    assert str(err).startswith("actions[3] 'p3 cbr 3': ") and "not 3" in str(err)
    err = replay_error(nt([*DEAL3, "p3 cbr 101"]))
    assert err.index == 3 and err.code == "amount_out_of_range"


def test_fold_when_checking_is_free_is_refused() -> None:
    err = replay_error(nt([*DEAL3, "p3 cc", "p1 cc", "p2 cc", FLOP, "p1 f"]))
    assert (err.index, err.code) == (7, "nothing_to_call")


@pytest.mark.parametrize(("actions", "index", "message"), [
    ([*DEAL3, "p3 cc", "p1 cc", FLOP], 5, "the board is dealt before the betting is over (p2 is to act)"),
    ([*DEAL3, "p3 f", "p1 f", FLOP], 5, "the hand is over"),
    ([*DEAL3, "p3 cc", "p1 cc", "p2 cc", "p1 cc"], 6, "no 'd db' line for the"),
    ([*DEAL3, "p3 cc", "p1 cc", "p2 cc", "d db 2d3d4d5d"], 6, "should deal 3 card(s), the flop"),
    ([*DEAL3, "p3 cc", "p1 cc", "p2 cc", FLOP, "p1 cc", "p2 cc", "p3 cc", "d db 5s6s"], 10, "the turn"),
    (["d dh p1 AsKs", "d dh p2 7h2c", "d dh p3 8c", "p3 f", "d dh p3 8d"], 4,
     "hole cards are dealt after the hand has begun"),
    ([*DEAL3, "p3 cbr 100", "p1 cc", "p2 f", "p3 sm 8c8h"], 6, "the file says p3 shows 8c8h"),
    ([*DEAL3, "p3 cbr 100", "p1 cc", "p2 f", "p3 sm"], 6, "p3's hand was already shown"),
    ([*CHECKED_DOWN, "p1 sm AsKs", "p2 sm AsKs"], 19, "the file says p2 shows AsKs"),
    ([*CHECKED_DOWN, "p2 sm 7h2c"], 18, "it is player 0's turn"),
    ([*CHECKED_DOWN, "p1 sm", "p2 sm", "p3 sm"], 20, "p3's hand was already decided (it won unseen)"),
])
def test_replay_refuses_inconsistent_files(actions: list[str], index: int, message: str) -> None:
    err = replay_error(nt(actions))
    assert err.index == index
    assert message in str(err)


def test_duplicate_cards_are_an_error() -> None:
    message = r"actions\[3\] 'd db 2d3dAs': card As appears twice \(also actions\[0\]\)"
    with pytest.raises(PHHError, match=message):
        replay(nt([*DEAL3, "d db 2d3dAs"]))
    with pytest.raises(PHHError, match="p1 is dealt 1 hole cards"):
        replay(nt(["d dh p1 As", "d dh p2 7h2c", "d dh p3 8c8d"]))


def test_the_file_ending_early() -> None:
    err = replay_error(nt([*DEAL3, "p3 cc"]))
    assert err.index is None
    assert "the actions end before the hand is over: p1 is to act on the preflop" in str(err)
    # at a showdown the cards speak: the remaining hands are shown
    hand = replay(nt(CHECKED_DOWN))
    assert hand.complete and hand.shown == {0, 1, 2}


def test_all_in_run_out_and_confirmations() -> None:
    actions = [*DEAL3, "p3 cbr 100", "p1 cc", "p2 f", "p3 sm 8c8d", "p1 sm KsAs", FLOP, "d db 5s", "d db 9s"]
    hand = replay(nt(actions))
    assert hand.stacks == [202, 98, 0]
    with pytest.raises(PHHError, match="the file deals 6 board cards: hold'em has 5"):
        replay(nt([*actions, "d db Tc"]))
    # without the run-out in the file, the board is unknown: the showdown cannot be judged
    with pytest.raises(PHHError, match="the showdown needs the whole board"):
        replay(nt(actions[:-3]))


def test_muck_and_show_at_showdown() -> None:
    hand = replay(nt([*CHECKED_DOWN, "p1 sm", "p2 sm 7h2c", "p3 sm -"]))
    assert hand.mucked == {0} and hand.stacks == [98, 98, 104]  # 88 beats 7-high once the wheel is mucked
    # the last hand left after the others mucked wins unseen; a line showing it is a confirmation
    hand = replay(nt([*CHECKED_DOWN, "p1 sm", "p2 sm", "p3 sm 8d8c"]))
    assert hand.stacks == [98, 98, 104]
    err = replay_error(nt([*CHECKED_DOWN, "p1 sm", "p2 sm", "p3 sm 8d8h"]))
    assert err.index == 20 and "p3 shows 8d8h" in str(err)


def test_unknown_cards() -> None:
    # a folded unknown hand is fine, and filled deterministically with cards unused in the file
    unknown = ["d dh p1 AsKs", "d dh p2 ????", "d dh p3 8c8d", "p3 f", "p1 cbr 6", "p2 f"]
    first, second = replay(nt(unknown)), replay(nt(unknown))
    assert first.holes[1] == second.holes[1] == [Card("2c"), Card("2d")]
    assert first.stacks == [102, 98, 100]
    # an unknown hand that must be evaluated at the showdown is an error naming it
    checked = [a.replace("d dh p2 7h2c", "d dh p2 ????") for a in CHECKED_DOWN]
    with pytest.raises(PHHError, match="p2's hole cards are unknown, but the showdown needs them"):
        replay(nt(checked))
    with pytest.raises(PHHError, match="p2's hole cards are unknown"):
        replay(nt([*checked, "p1 sm AsKs", "p2 sm ????"]))
    # ... unless the showdown reveals it
    hand = replay(nt([*checked, "p1 sm AsKs", "p2 sm 7h2c"]))
    assert hand.holes[1] == [Card("7h"), Card("2c")] and hand.stacks == [104, 98, 98]
    # or it was mucked
    assert replay(nt([*checked, "p1 sm AsKs", "p2 sm"])).stacks == [104, 98, 98]
    # an unknown board card at a showdown is an error too
    with pytest.raises(PHHError, match="the showdown needs the whole board"):
        replay(nt([a.replace("d db 9s", "d db ??") for a in CHECKED_DOWN]))


def test_no_op_lines_are_skipped() -> None:
    hand = replay(nt(["# pre-flop", "", *DEAL3, "p3 f # tight", "p1 f", "  "]))
    assert hand.stacks == [99, 101, 100]


def test_verify_outcomes() -> None:
    assert verify(nt(CHECKED_DOWN, finishing_stacks=[104, 98, 98])).ok is True
    bad = verify(nt(CHECKED_DOWN, finishing_stacks=[98, 104, 98]), "x.phh")
    assert (bad.ok, bad.error, bad.finishing_stacks) == (False, None, [104, 98, 98])
    assert verify(nt(CHECKED_DOWN)).ok is None
    err = verify(nt([*DEAL3, "p1 f"], finishing_stacks=[1, 2, 3]))
    assert err.ok is False and err.error is not None and err.error.startswith("actions[3]")
    # a split pot recorded in half chips: p1 and p3 tie with ace-king and split 19 chips
    split = ["d dh p1 AsKs", "d dh p2 7h2c", "d dh p3 AdKd", "p3 cbr 5", "p1 cc", "p2 cc", "d db QcJc9h",
             "p1 cbr 2", "p2 f", "p3 cc", "d db 8s", "p1 cc", "p3 cc", "d db 4h", "p1 cc", "p3 cc"]
    half = verify(nt(split, finishing_stacks=[102.5, 95, 102.5]))
    assert half.ok is True and half.finishing_stacks == [103, 95, 102]
    assert half.note is not None and "which whole-chip play gives to p1" in half.note
    off = verify(nt(split, finishing_stacks=[104.5, 95, 100.5]))
    assert off.ok is False and off.note is None


def test_replay_paths_reports_missing_and_broken_files(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    good = nt([*DEAL3, "p3 f", "p1 f"], finishing_stacks=[99, 101, 100])
    (tmp_path / "sub" / "good.phh").write_text(dumps(good))
    (tmp_path / "bad.phh").write_text("variant = \n")
    (tmp_path / "notes.txt").write_text("ignored")
    (tmp_path / "many.phhs").write_text("[3]\n" + BASE + "\n[4]\n" + BASE.replace("min_bet = 2\n", ""))
    results = replay_paths([tmp_path, tmp_path / "nope.phh"])
    found = [(Path(r.path).name, r.hand, r.ok, r.error) for r in results]
    assert found[0][:2] == ("bad.phh", None) and "bad TOML" in str(found[0][3])
    assert found[1][:2] == ("many.phhs", 3) and "p1 is dealt 0 hole cards" in str(found[1][3])
    assert found[2][:2] == ("many.phhs", 4) and "[4]: missing required field(s): min_bet" in str(found[2][3])
    assert found[3] == ("good.phh", None, True, None)
    assert found[4] == ("nope.phh", None, False, "no such file or directory")
    assert len(found) == 5


def test_replay_returns_an_engine_hand() -> None:
    assert isinstance(replay(nt([*DEAL3, "p3 f", "p1 f"])), Hand)


def test_pot_limit_hands_use_our_pt_code() -> None:
    # pot limit 1/2: the first raise is capped at 2 + (3 + 2) = 7
    assert replay(nt([*DEAL3, "p3 cbr 7", "p1 f", "p2 f"], variant="PT")).stacks == [99, 98, 103]
    err = replay_error(nt([*DEAL3, "p3 cbr 8"], variant="PT"))
    assert (err.index, err.code) == (3, "amount_out_of_range") and "between 4 and 7" in str(err)
    assert replay(nt([*DEAL3, "p3 cbr 8", "p1 f", "p2 f"])).stacks == [99, 98, 103]  # fine in no limit


# ---------------------------------------------------------------------------- straddles (D10), shows (D12)

# The spec's "Under-the-gun (UTG) straddle" (required.rst: blinds_or_straddles = [1, 2, 4, 0]),
# written by hand: p3 straddles 4, the button p4 opens and raises to 8 (twice the straddle),
# p3 re-raises to 24, and his aces beat the kings on a dry board.
SPEC_STRADDLE = """variant = "NT"
antes = [0, 0, 0, 0]
blinds_or_straddles = [1, 2, 4, 0]
min_bet = 2
starting_stacks = [200, 200, 200, 200]
actions = [
  "d dh p1 7h2c",
  "d dh p2 8d3c",
  "d dh p3 AsAh",
  "d dh p4 KsKh",
  "p4 cbr 8",
  "p1 f",
  "p2 f",
  "p3 cbr 24",
  "p4 cc",
  "d db 2d5d9s",
  "p3 cbr 30",
  "p4 cc",
  "d db Jh",
  "p3 cc",
  "p4 cc",
  "d db Tc",
  "p3 cc",
  "p4 cc",
  "p3 sm AsAh",
  "p4 sm KsKh",
]
finishing_stacks = [199, 198, 257, 146]
"""
DEAL4 = ["d dh p1 7h2c", "d dh p2 8d3c", "d dh p3 AsAh", "d dh p4 KsKh"]
STRADDLE4 = [1, 2, 4, 0]


def test_D10_a_straddle_file_written_from_the_spec_replays_to_its_finishing_stacks() -> None:
    hh = loads(SPEC_STRADDLE)
    assert hh.blinds_or_straddles == [1, 2, 4, 0]
    hand = replay(hh)
    assert [(e.player, e.kind, e.amount) for e in hand.events if type(e) is Posted] == [
        (0, "small_blind", 1), (1, "big_blind", 2), (2, "straddle", 4)]
    assert hand.stacks == [199, 198, 257, 146]
    assert verify(hh).ok is True
    assert loads(dumps(hh)) == hh and replay(loads(dumps(hh))).stacks == hand.stacks


def test_D10_a_raise_to_less_than_twice_the_straddle_does_not_replay() -> None:
    err = replay_error(nt([*DEAL4, "p4 cbr 6"], n=4, blinds_or_straddles=STRADDLE4))
    assert (err.index, err.code) == (4, "amount_out_of_range") and "between 8 and 100" in str(err)
    err = replay_error(nt([*DEAL4, "p1 f"], n=4, blinds_or_straddles=STRADDLE4))
    assert err.code == "not_your_turn" and "p4 is to act" in str(err)  # the player after the straddler


def test_D10_the_straddler_checks_his_option_and_the_flop_follows() -> None:
    limped = [*DEAL4, "p4 cc", "p1 cc", "p2 cc", "p3 cc", "d db 2d5d9s", "p1 cc", "p2 cc", "p3 cc",
              "p4 cbr 10", "p1 f", "p2 f", "p3 f"]
    hand = replay(nt(limped, n=4, blinds_or_straddles=STRADDLE4))
    assert [e.action for e in hand.events if type(e) is Acted][:4] == ["call", "call", "call", "check"]
    assert hand.stacks == [96, 96, 96, 112]
    err = replay_error(nt([*DEAL4, "p4 cc", "p1 cc", "p2 cc", "d db 2d5d9s"], n=4,
                          blinds_or_straddles=STRADDLE4))
    assert "before the betting is over (p3 is to act)" in str(err)  # the option is his


def test_D10_pot_limit_counts_the_straddle_as_the_current_bet() -> None:
    pt = {"n": 4, "blinds_or_straddles": STRADDLE4, "variant": "PT"}
    assert replay(nt([*DEAL4, "p4 cbr 15", "p1 f", "p2 f", "p3 f"], **pt)).stacks == [99, 98, 96, 107]
    err = replay_error(nt([*DEAL4, "p4 cbr 16"], **pt))
    assert (err.index, err.code) == (4, "amount_out_of_range") and "between 8 and 15" in str(err)


def test_D10_a_short_straddle_replays() -> None:
    # p3 has 3 chips: all in on his straddle; p4 calls the full 4 and gets 1 back
    hh = nt([*DEAL4, "p4 cc", "p1 f", "p2 f", "d db 2d5d9s", "d db Jh", "d db Tc"], n=4,
            blinds_or_straddles=STRADDLE4, starting_stacks=[100, 100, 3, 100])
    assert replay(hh).stacks == [99, 98, 9, 97]


def test_D12_a_show_after_an_uncalled_win_replays_and_changes_no_stack() -> None:
    won = [*DEAL4, "p4 cbr 8", "p1 f", "p2 f", "p3 f"]
    plain = replay(nt(won, n=4, blinds_or_straddles=STRADDLE4))
    assert plain.stacks == [99, 98, 96, 107]
    for shows in (["p4 sm KsKh"], ["p4 sm ??Kh"], ["p4 sm Ks??"], ["p4 sm -"], ["p4 sm Ks??", "p3 sm AsAh"]):
        assert replay(nt([*won, *shows], n=4, blinds_or_straddles=STRADDLE4)).stacks == plain.stacks, shows
    # hidden hole cards: the show after the hand tells the one card, in its place
    hidden = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "d dh p4 ????", "p4 cbr 8", "p1 f", "p2 f",
              "p3 f", "p4 sm ??Kh"]
    hand = replay(nt(hidden, n=4, blinds_or_straddles=STRADDLE4))
    assert hand.stacks == plain.stacks and hand.holes[3][1] == Card("Kh")
    # the same for a hand that had no straddle, and for a folder after a showdown
    assert replay(nt([*DEAL3, "p3 cbr 6", "p1 f", "p2 f", "p3 sm 8c??"])).stacks == [99, 98, 103]
    folded = [*DEAL3, "p3 cc", "p1 f", "p2 cc", FLOP, "p2 cc", "p3 cc", "d db 5s", "p2 cc", "p3 cc",
              "d db 9s", "p2 cc", "p3 cc", "p2 sm 7h2c", "p3 sm 8c8d"]
    assert replay(nt([*folded, "p1 sm AsKs"])).stacks == replay(nt(folded)).stacks == [99, 98, 103]


@pytest.mark.parametrize(("shows", "message", "code"), [
    (["p4 sm AcAd"], "the file says p4 shows AcAd, the engine has KsKh", "replay"),
    (["p4 sm KsKhAc"], "p4 shows KsKhAc", "replay"),
    (["p4 sm"], "the hand is over", "hand_over"),  # nothing to muck any more
])
def test_D12_a_show_after_the_hand_must_be_his_cards(shows: list[str], message: str, code: str) -> None:
    err = replay_error(nt([*DEAL4, "p4 cbr 8", "p1 f", "p2 f", "p3 f", *shows], n=4,
                          blinds_or_straddles=STRADDLE4))
    assert (err.index, err.code) == (8, code) and message in str(err)


def test_D12_a_folded_player_shows_only_once_the_hand_is_over() -> None:
    err = replay_error(nt([*DEAL4, "p4 cbr 8", "p1 f", "p1 sm 7h2c"], n=4, blinds_or_straddles=STRADDLE4))
    assert (err.index, err.code) == (6, "not_your_turn")


# ---------------------------------------------------------------------------- seven card stud (F7S)


def f7s(actions: list[str], n: int = 3, stacks: int = 100, **fields: object) -> HandHistory:
    """A small fixed-limit stud hand: 10/20, ante 1, bring-in 3, ``n`` players."""
    values: dict[str, object] = dict(variant="F7S", antes=[1] * n, bring_in=3, small_bet=10, big_bet=20,
                                     starting_stacks=[stacks] * n, actions=actions)
    values.update(fields)
    return HandHistory(**values)  # type: ignore[arg-type]


CHECK3 = ["p1 cc", "p2 cc", "p3 cc"]
# up cards Qh, 3c, 9s: p2 brings in; from fourth street p1 shows the best board and opens
STUD_DEAL = ["d dh p1 AsKsQh", "d dh p2 7h2d3c", "d dh p3 8c8d9s"]
THIRD = ["p2 pb", "p3 cbr 10", "p1 cc", "p2 cc"]
FOURTH = ["d dh p1 Jd", "d dh p2 4c", "d dh p3 Th"]
STUD_CHECKED = [*STUD_DEAL, *THIRD, *FOURTH, *CHECK3, "d dh p1 5h", "d dh p2 5c", "d dh p3 6h", *CHECK3,
                "d dh p1 7d", "d dh p2 6c", "d dh p3 2h", *CHECK3,
                "d dh p1 Ah", "d dh p2 Jc", "d dh p3 8h", *CHECK3]


def test_stud_replay_deals_in_real_order() -> None:
    hand = replay(f7s(STUD_CHECKED))
    assert hand.stacks == [89, 122, 89]  # p2's clubs flush beats trip eights
    assert [str(c) for c in hand.deck[:9]] == ["As", "7h", "8c", "Ks", "2d", "8d", "Qh", "3c", "9s"]
    burn = hand.deck[9]
    assert str(burn) not in " ".join(STUD_CHECKED)  # a burn: a card the file never names
    assert [str(c) for c in hand.deck[10:13]] == ["Jd", "4c", "Th"]
    assert [str(c) for c in hand.holes[1]] == ["7h", "2d", "3c", "4c", "5c", "6c", "Jc"]
    assert hand.face_up[0] == [False, False, True, True, True, True, False]
    acts = [(e.player, e.action, e.to) for e in hand.events if type(e) is Acted][:4]
    assert acts == [(1, "bring_in", 3), (2, "complete", 10), (0, "call", 10), (1, "call", 10)]
    # the showdown lines: p1 (who could bet first) mucks, p2 shows, p3 mucks
    shown = replay(f7s([*STUD_CHECKED, "p1 sm", "p2 sm 7h2d3c4c5c6cJc", "p3 sm"]))
    assert shown.stacks == [89, 122, 89] and shown.mucked == {0, 2}


def test_stud_round_trip_and_verify() -> None:
    hh = f7s(STUD_CHECKED, finishing_stacks=[89, 122, 89], players=["Ann", "Bo", "Cy"], hand=3, event="Test",
             ante_trimming_status=True, extra={"year": 2024})
    text = dumps(hh)
    assert loads(text) == hh
    assert "bring_in = 3\nsmall_bet = 10\nbig_bet = 20\n" in text and "blinds_or_straddles" not in text
    r = verify(hh, "x.phh")
    assert (r.ok, r.variant, r.finishing_stacks, r.error) == (True, "F7S", [89, 122, 89], None)
    assert list(r.to_json()) == ["path", "hand", "variant", "finishing_stacks", "expected", "ok", "error",
                                 "note"]
    assert verify(f7s(STUD_CHECKED, finishing_stacks=[89, 89, 122])).ok is False


def test_stud_bring_in_out_of_turn() -> None:
    err = replay_error(f7s([*STUD_DEAL, "p1 pb"]))
    assert (err.index, err.text, err.code) == (3, "p1 pb", "not_your_turn") and "(p2 is to act)" in str(err)
    err = replay_error(f7s([*STUD_DEAL, "p2 cc"]))  # the bring-in comes first
    assert (err.index, err.code) == (3, "bring_in_first")
    err = replay_error(f7s([*STUD_DEAL, "p2 pb", "p3 pb"]))  # only one bring-in
    assert (err.index, err.code) == (4, "no_bring_in")
    err = replay_error(f7s([*STUD_DEAL, *THIRD, *FOURTH, "p1 pb"]))
    assert (err.index, err.code) == (10, "no_bring_in")


def test_stud_wrong_completion_amount() -> None:
    err = replay_error(f7s([*STUD_DEAL, "p2 pb", "p3 cbr 15"]))
    assert (err.index, err.code) == (4, "amount_out_of_range") and "exactly 10" in str(err)
    err = replay_error(f7s([*STUD_DEAL, "p2 cbr 3"]))  # a bring-in is 'pb', a completion is 10
    assert (err.index, err.code) == (3, "amount_out_of_range")
    # the bring-in may complete; the completion is not a raise: 20, 30, 40 follow (cap)
    capped = [*STUD_DEAL, "p2 cbr 10", "p3 cbr 20", "p1 cbr 30", "p2 cbr 40", "p3 cbr 50"]
    err = replay_error(f7s(capped))
    assert (err.index, err.code) == (7, "cannot_raise") and "capped" in str(err)


def test_stud_open_pair_big_bet_on_fourth_street() -> None:
    pair = [*STUD_DEAL, *THIRD, "d dh p1 Qd", "d dh p2 4c", "d dh p3 Th"]  # p1 shows Qh Qd (S6, D8)
    hand = replay(f7s([*pair, "p1 cbr 20", "p2 f", "p3 f"]))
    assert hand.stacks == [122, 89, 89]
    err = replay_error(f7s([*pair, "p1 cbr 15"]))
    assert err.code == "amount_out_of_range" and "exactly 10 or 20" in str(err)


def test_stud_all_in_run_out_as_pokerkit_writes_it() -> None:
    # p1 is all in on fourth street; both hands are shown before the last cards, and again after
    run_out = [*STUD_DEAL[:2], "p2 pb", "p1 cbr 10", "p2 cc", "d dh p1 Jd", "d dh p2 4c", "p1 cbr 10",
               "p2 cc",
               "p1 sm AsKsQhJd", "p2 sm 7h2d3c4c", "d dh p1 5h", "d dh p2 5c", "d dh p1 7d", "d dh p2 6c",
               "d dh p1 Ah", "d dh p2 Jc", "p1 sm AsKsQhJd5h7dAh", "p2 sm 7h2d3c4c5c6cJc"]
    hh = f7s(run_out, n=2, starting_stacks=[21, 100])
    hand = replay(hh)
    assert hand.stacks == [0, 121]
    # a repeated show names the first cards, in dealing order, and they must match
    bad = run_out.copy()
    bad[9] = "p1 sm AsKsQhJc"
    err = replay_error(f7s(bad, n=2, starting_stacks=[21, 100]))
    assert err.index == 9 and "the file says p1 shows AsKsQhJc, the engine dealt AsKsQhJd5h7dAh" in str(err)
    bad[9] = "p1 sm KsAsQhJd"
    assert replay_error(f7s(bad, n=2, starting_stacks=[21, 100])).index == 9
    # a show of part of a hand that was not shown before is refused
    err = replay_error(f7s([*STUD_CHECKED, "p1 sm AsKs"]))
    assert err.index == len(STUD_CHECKED) and "the file says p1 shows AsKs" in str(err)
    # without the run-out in the file the hands are unknown: the showdown cannot be judged
    with pytest.raises(PHHError, match="p1's cards are unknown, but the showdown needs them"):
        replay(f7s(run_out[:11], n=2, starting_stacks=[21, 100]))


PK_ALL_IN_ON_THE_BRING_IN = """variant = 'F7S'
ante_trimming_status = false
antes = [1, 1]
bring_in = 2
small_bet = 4
big_bet = 8
starting_stacks = [3, 115]
actions = ['d dh p1 KcQd8d', 'd dh p2 5d3hAd', 'p1 pb', 'p2 cc', 'p1 sm KcQd8d', 'p2 sm 5d3hAd', 'd dh p1 7c',
  'd dh p2 4c', 'd dh p1 Jd', 'd dh p2 Th', 'd dh p1 8s', 'd dh p2 2d', 'd dh p1 Td', 'd dh p2 7h',
  'p1 sm KcQd8d7cJd8sTd', 'p2 sm 5d3hAd4cTh2d7h']
finishing_stacks = [0, 118]
"""
PK_ALL_IN_ON_THE_ANTE = """variant = 'F7S'
ante_trimming_status = false
antes = [1, 1]
bring_in = 2
small_bet = 4
big_bet = 8
starting_stacks = [197, 1]
actions = ['d dh p1 4sQsKh', 'd dh p2 5s4h5d', 'p2 sm 5s4h5d', 'p1 sm 4sQsKh', 'd dh p1 Qc', 'd dh p2 4c',
  'd dh p1 Qh', 'd dh p2 8c', 'd dh p1 Tc', 'd dh p2 7c', 'd dh p1 Ad', 'd dh p2 6c', 'p1 sm 4sQsKhQcQhTcAd',
  'p2 sm 5s4h5d4c8c7c6c']
finishing_stacks = [196, 2]
"""
# PokerKit writes a bring-in all in (1 chip left after the ante) as 'cbr 1'
PK_SHORT_BRING_IN = """variant = 'F7S'
ante_trimming_status = false
antes = [1, 1]
bring_in = 2
small_bet = 4
big_bet = 8
starting_stacks = [22, 2]
actions = ['d dh p1 6hAdJs', 'd dh p2 Jc3c4d', 'p2 cbr 1', 'p1 cc', 'p2 sm Jc3c4d', 'p1 sm 6hAdJs',
  'd dh p1 Qd', 'd dh p2 9h', 'd dh p1 Jh', 'd dh p2 Tc', 'd dh p1 7d', 'd dh p2 As', 'd dh p1 9c',
  'd dh p2 5d', 'p1 sm 6hAdJsQdJh7d9c', 'p2 sm Jc3c4d9hTcAs5d']
finishing_stacks = [24, 0]
"""
# 7 players reach seventh street: stub 7 + 3 burns = 10 cards reshuffled, burn, deal (case 43a)
PK_RESHUFFLE = """variant = 'F7S'
ante_trimming_status = false
antes = [1, 1, 1, 1, 1, 1, 1]
bring_in = 2
small_bet = 4
big_bet = 8
starting_stacks = [169, 26, 105, 19, 1, 10, 30]
actions = ['d dh p1 Tc3h7h', 'd dh p2 3c7sKh', 'd dh p3 5h8sJs', 'd dh p4 Jh4dAh', 'd dh p5 2hQd6d',
  'd dh p6 ThKd4h', 'd dh p7 4c8d9s', 'p6 pb', 'p7 cbr 4', 'p1 cbr 8', 'p2 cc', 'p3 cbr 12', 'p4 cbr 16',
  'p6 cc', 'p7 cc', 'p1 cc', 'p2 cc', 'p3 cc', 'd dh p1 8c', 'd dh p2 As', 'd dh p3 6h', 'd dh p4 Ac',
  'd dh p5 Td', 'd dh p6 8h', 'd dh p7 7c', 'p4 cbr 2', 'p7 cc', 'p1 cc', 'p2 cbr 6', 'p3 cbr 10',
  'p7 cbr 13', 'p1 cc', 'p2 cc', 'p3 cc', 'd dh p1 Qc', 'd dh p2 2d', 'd dh p3 5d', 'd dh p4 5c',
  'd dh p5 Jc', 'd dh p6 6s', 'd dh p7 3s', 'p1 cc', 'p3 cbr 8', 'p1 cc', 'd dh p1 2c', 'd dh p2 Ks',
  'd dh p3 4s', 'd dh p4 Ad', 'd dh p5 6c', 'd dh p6 Ts', 'd dh p7 7d', 'p1 cc', 'p3 cc', 'd dh p1 5s',
  'd dh p2 2s', 'd dh p3 9c', 'd dh p4 Jd', 'd dh p5 Qh', 'd dh p6 Qs', 'd dh p7 Kc', 'p1 cc', 'p3 cbr 8',
  'p1 f', 'p3 sm 5h8sJs6h5d4s9c', 'p4 sm Jh4dAhAc5cAdJd', 'p5 sm 2hQd6dTdJc6cQh', 'p6 sm ThKd4h8h6sTsQs',
  'p7 sm 4c8d9s7c3s7dKc', 'p2 sm 3c7sKhAs2dKs2s']
finishing_stacks = [131, 28, 83, 106, 0, 0, 12]
"""


@pytest.mark.parametrize("text", [PK_ALL_IN_ON_THE_BRING_IN, PK_ALL_IN_ON_THE_ANTE, PK_SHORT_BRING_IN,
                                  PK_COMMUNITY_CARD, PK_RESHUFFLE])
def test_pokerkit_stud_hands(text: str) -> None:
    """Hands written by PokerKit 0.7.7 (its habits: shows before the run-out, shown again)."""
    hh = loads(text)
    r = verify(hh)
    assert (r.ok, r.error) == (True, None), r.error
    assert loads(dumps(hh)) == hh


def test_stud_all_in_bring_in_written_as_cbr() -> None:
    hand = replay(loads(PK_SHORT_BRING_IN))
    acts = [(e.player, e.action, e.amount, e.all_in) for e in hand.events if type(e) is Acted]
    assert acts == [(1, "bring_in", 1, True), (0, "call", 2, False)]  # calls the full bring-in (case 40)
    # only an all-in for no more than the bring-in is read so: otherwise 'cbr' completes, bets or raises
    err = replay_error(f7s([*STUD_DEAL, "p2 cbr 2"], starting_stacks=[100, 4, 100]))
    assert err.code == "cannot_raise"
    all_in = f7s([*STUD_DEAL, "p2 cbr 3", "p3 f", "p1 f"], starting_stacks=[100, 4, 100])
    assert replay(all_in).stacks == [99, 6, 99]
    err = replay_error(f7s([*STUD_DEAL, "p2 cbr 3"], starting_stacks=[100, 5, 100]))
    assert err.code == "amount_out_of_range"


def test_stud_card_shortage_replays() -> None:
    community = replay(loads(PK_COMMUNITY_CARD))
    assert [str(c) for c in community.board] == ["Ah"]
    assert [type(e).__name__ for e in community.events].count("Reshuffled") == 1
    assert all(len(cards) == 6 for cards in community.holes)
    reshuffled = replay(loads(PK_RESHUFFLE))
    assert reshuffled.board == [] and [str(c) for c in reshuffled.holes[6][-1:]] == ["Kc"]
    # the community card line is checked against what the engine dealt
    bad = loads(PK_COMMUNITY_CARD)
    bad.actions = [a.replace("d db Ah", "d db Kh") for a in bad.actions]
    with pytest.raises(PHHError, match="card Kh appears twice"):
        replay(bad)
    # a community card where every player could have a card is refused
    err = replay_error(f7s([*STUD_CHECKED[:-6], "d db Ah"]))
    assert "the engine dealt seventh street to every player" in str(err)


@pytest.mark.parametrize(("actions", "message"), [
    (["d dh p1 AsKs", *STUD_DEAL[1:]], "p1 is dealt 2 cards on third street: stud needs 3"),
    (["d dh p1 AsKsQhQd", *STUD_DEAL[1:]], "third street is three cards (two down, one up), this makes 4"),
    ([*STUD_DEAL, *THIRD, "d dh p1 JdQd"], "after third street a 'd dh' line deals one card"),
    (["d dh p1 AsKsQh", "d dh p1 Jd", *STUD_DEAL[1:]], "p2 is not dealt third street yet"),
    ([*STUD_CHECKED, "d dh p1 2s"], "p1 already has seven cards"),
    ([*STUD_DEAL, "d db AhKh"], "stud has at most one community card"),
    ([*STUD_DEAL, "p2 sd"], "unsupported: actions[3] 'p2 sd': draws ('sd')"),
])
def test_stud_deal_lines_that_cannot_be_a_stud_deal(actions: list[str], message: str) -> None:
    with pytest.raises(PHHError) as info:
        replay(f7s(actions))
    assert message in str(info.value)


@pytest.mark.parametrize(("actions", "index", "message"), [
    ([*STUD_DEAL, "p2 pb", "d dh p1 Jd"], 4, "the card is dealt before the betting is over (p3 is to act)"),
    ([*STUD_DEAL, *THIRD, "p1 cc"], 7, "no 'd dh' line for the "),
    ([*STUD_DEAL, "p2 pb", "p3 f", "p1 cc", *FOURTH], 8, "p3 has folded"),
    ([*STUD_DEAL, *THIRD, "d dh p2 4c", "d dh p1 Jd", "d dh p3 Th"], 7,
     "the file deals p2 4c, the engine dealt Jd"),
    ([*STUD_DEAL, "p2 pb", "p3 f", "p1 f", "d dh p1 Jd"], 6, "p1 has folded"),
    ([*STUD_DEAL, "p2 pb", "p3 f", "p1 f", "d dh p2 Jd"], 6, "the hand is over"),
    ([*STUD_DEAL, "p2 pb", "d dh p3 Jd", "p3 cbr 10"], 4, "the card is dealt before the betting is over"),
    ([*STUD_DEAL, "p2 pb", "p3 f", "d dh p1 Jd"], 5, "before the betting is over (p1 is to act)"),
    ([*STUD_DEAL, "p2 pb", "d db Jd"], 4, "the card is dealt before the betting is over"),
    ([*STUD_DEAL[:2], "p2 pb", STUD_DEAL[2]], 2, "no 'd dh' line for the 8c8d9s the engine dealt to p3"),
])
def test_stud_replay_refuses_inconsistent_files(actions: list[str], index: int, message: str) -> None:
    err = replay_error(f7s(actions))
    assert err.index == index
    assert message in str(err)


def test_stud_the_file_ending_early() -> None:
    err = replay_error(f7s([*STUD_DEAL, *THIRD, *FOURTH, "p1 cc"]))
    assert err.index is None and "p2 is to act on fourth street" in str(err)
    hand = replay(f7s(STUD_CHECKED))  # at the showdown the cards speak
    assert hand.complete and hand.shown == {0, 1, 2}


def test_stud_unknown_cards() -> None:
    # a folded hand may be unknown but its up card; unknown cards are filled with unused cards
    hand = replay(f7s(["d dh p1 ????Qh", *STUD_DEAL[1:], "p2 pb", "p3 cbr 10", "p1 f", "p2 f"]))
    assert hand.stacks == [99, 96, 105] and hand.holes[0][2] == Card("Qh")
    unknown = [a.replace("d dh p2 Jc", "d dh p2 ??") for a in STUD_CHECKED]
    with pytest.raises(PHHError, match="p2's cards are unknown, but the showdown needs them"):
        replay(f7s(unknown))
    # the showdown reveals it (shows name the cards in dealing order)
    hand = replay(f7s([*unknown, "p1 sm", "p2 sm 7h2d3c4c5c6cJc"]))
    assert hand.holes[1][6] == Card("Jc") and hand.stacks == [89, 122, 89]
    assert replay(f7s([*unknown, "p1 sm", "p2 sm"])).stacks == [89, 89, 122]  # trip eights, once p2 mucks


def test_stud_stakes_and_unsupported_features() -> None:
    with pytest.raises(PHHError, match="stud has antes and a bring-in, not blinds"):
        replay(f7s(STUD_DEAL, blinds_or_straddles=[1, 2, 0]))
    no_blinds = f7s([*STUD_DEAL, *THIRD[:1], "p3 f", "p1 f"], blinds_or_straddles=[0, 0, 0])
    assert replay(no_blinds).stacks == [99, 102, 99]
    with pytest.raises(PHHError, match="bad stakes: stud needs a bring-in"):
        replay(f7s(STUD_DEAL, bring_in=11))
    with pytest.raises(UnsupportedError, match="bring_in is not a whole number of chips"):
        replay(f7s(STUD_DEAL, bring_in=2.5))
    nine = [f"d dh p{p + 1} {r}c{r}d{r}h" for p, r in enumerate("AKQJT9876")]
    with pytest.raises(PHHError, match="cannot start the hand: a stud hand needs 2 to 8 players"):
        replay(f7s(nine, n=9))
    # heads-up, unequal antes apply reversed, as PokerKit does
    hand = replay(f7s([*STUD_DEAL[:2], "p2 pb", "p1 f"], n=2, antes=[2, 5]))
    posts = [(e.player, e.amount) for e in hand.events if type(e) is Posted]
    assert posts == [(0, 5), (1, 2)]


def stud_actions(hand: Hand) -> list[str]:
    """A finished engine hand written as PHH lines, the way PokerKit writes them: third
    street per player, one line per card after, all-in hands shown before the run-out."""
    actions: list[str] = []
    third: dict[int, str] = {}
    count = [0] * hand.n
    for ev in hand.events:
        if type(ev) is HoleDealt:
            count[ev.player] += 1
            if count[ev.player] <= 3:
                third[ev.player] = third.get(ev.player, "") + str(ev.card)
            else:
                actions.append(f"d dh p{ev.player + 1} {ev.card}")
            continue
        actions += [f"d dh p{p + 1} {cards}" for p, cards in sorted(third.items())]
        third = {}
        if type(ev) is BoardDealt:
            actions.append(f"d db {format_cards(ev.cards)}")
        elif type(ev) is Acted:
            verb = {"fold": "f", "check": "cc", "call": "cc", "bring_in": "pb"}.get(ev.action, f"cbr {ev.to}")
            actions.append(f"p{ev.player + 1} {verb}")
        elif type(ev) is Shown:
            actions.append(f"p{ev.player + 1} sm {format_cards(ev.cards)}")
        elif type(ev) is Mucked:
            actions.append(f"p{ev.player + 1} sm")
    return actions


def play_stud(game: Game, stacks: list[int], seed: int) -> Hand:
    """Mostly calling, so that many hands reach seventh street (and run short of cards)."""
    rng = random.Random(seed)
    hand = Hand(game, stacks, seeded_deck(seed))
    while not hand.complete:
        legal = hand.legal_actions()
        if legal.show:
            hand.act("muck" if legal.muck and rng.random() < 0.3 else "show", None, legal.player)
        elif legal.bring_in:
            if legal.min_to is not None and rng.random() < 0.3:
                hand.act("complete", legal.min_to, legal.player)
            else:
                hand.act("bring_in", None, legal.player)
        else:
            roll = rng.random()
            if roll < 0.08 and legal.fold:
                hand.act("fold", None, legal.player)
            elif roll < 0.25 and legal.min_to is not None and legal.max_to is not None:
                hand.act("raise", rng.choice([legal.min_to, legal.max_to]), legal.player)
            else:
                hand.act("call", None, legal.player)
    return hand


def test_engine_stud_hands_written_as_phh_replay_the_same() -> None:
    game = Game.stud(10, 20, ante=1, bring_in=3)
    seen: dict[str, int] = {"showdown": 0, "run_out": 0, "reshuffle": 0, "community": 0}
    for seed in range(400):
        rng = random.Random(seed)
        n = 2 + seed % 7
        stacks = [rng.choice([1, 2, 5, 15, 40, 200, 400]) for _ in range(n)]
        hand = play_stud(game, stacks, seed)
        hh = f7s(stud_actions(hand), n=n, starting_stacks=stacks, finishing_stacks=list(hand.stacks))
        ours = replay(loads(dumps(hh)))
        assert (ours.stacks, ours.holes, ours.board) == (hand.stacks, hand.holes, hand.board), seed
        kinds = {type(e) for e in hand.events}
        seen["showdown"] += bool(hand.reached_showdown)
        seen["run_out"] += sum(type(e) is Shown for e in hand.events) > len(hand.reached_showdown)
        seen["reshuffle"] += Reshuffled in kinds
        seen["community"] += BoardDealt in kinds
    assert min(seen.values()) >= 5, seen


REVIEW_HAND = """
variant = 'NT'
ante_trimming_status = {trim}
antes = [{ante}, {ante}, {ante}]
blinds_or_straddles = [5, 10, 0]
min_bet = 10
starting_stacks = [{s0}, 1000, 1000]
actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 QsQh', 'p3 {act}', 'p1 f', 'p2 f']
finishing_stacks = {fin}
"""


@pytest.mark.parametrize("amount", ["6_0", "+60", "060", "1e2", "0x3c", "60.", " "])
def test_amounts_are_written_plainly(amount: str) -> None:
    with pytest.raises(PHHError):
        parse_action(f"p3 cbr {amount}")


def test_ante_trimming_false_with_a_player_short_of_his_ante_is_unsupported() -> None:
    """Our rules split the antes at the all-in player's level (H13), PHH's
    ante_trimming_status = true; a file saying false plays by other rules there."""
    hh = loads(REVIEW_HAND.format(trim="false", ante=10, s0=5, act="cbr 30", fin="[0, 990, 1015]"))
    result = verify(hh)
    assert result.ok is None and "ante_trimming_status" in (result.error or "")
    text = REVIEW_HAND.format(trim="true", ante=10, s0=5, act="cbr 30", fin="[15, 980, 1010]")
    text = text.replace("'p1 f', 'p2 f'", "'p2 f', 'd db 2c7d9h', 'd db Jc', 'd db 3s'")
    result = verify(loads(text))  # p1's aces win 5 from each ante: the antes split at his level
    assert (result.error, result.ok) == (None, True)


def test_half_chips_are_forgiven_only_for_an_odd_split() -> None:
    """A record in half chips is ok only where a split pot had an odd chip (D5)."""
    hh = loads(REVIEW_HAND.format(trim="true", ante=0, s0=1000, act="cbr 30",
                                  fin="[994.5, 990, 1015.5]"))
    assert verify(hh).ok is False
    hh = loads(REVIEW_HAND.format(trim="true", ante=0, s0=1000, act="cbr 30", fin="[995, 990, 1015]"))
    assert verify(hh).ok is True


# ---------------------------------------------------------------------------- other rooms' rules (item 7)

# p3 bets the river and p1 calls; p3's 3-to-7 straight beats p1's wheel, but p3 mucks, as
# many rooms let a called bettor do; our room shows his hand for him (H14, case 33)
RIVER_BET_CALLED = ["d dh p1 AsKs", "d dh p2 7h2c", "d dh p3 6c7c", "p3 cc", "p1 cc", "p2 cc", FLOP,
                    "p1 cc", "p2 cc", "p3 cc", "d db 5s", "p1 cc", "p2 cc", "p3 cc", "d db 9s",
                    "p1 cc", "p2 cc", "p3 cbr 10", "p1 cc", "p2 f"]
FILE_RULE = [114, 98, 88]  # p1 wins the 26 chips: 100 - 12 + 26


@pytest.mark.parametrize("showdown", [["p3 sm", "p1 sm AsKs"], ["p1 sm AsKs", "p3 sm"], ["p3 sm"]])
def test_a_called_bettor_who_mucks_is_settled_by_the_files_rule(showdown: list[str]) -> None:
    hh = nt([*RIVER_BET_CALLED, *showdown], finishing_stacks=FILE_RULE)
    err = replay_error(hh)  # replay is strict: our room's rules
    assert err.index == hh.actions.index("p3 sm")
    assert "p3's hand was already shown: our room shows the hand of a bettor who was called" in str(err)
    r = verify(hh)
    assert (r.ok, r.error, r.finishing_stacks) == (True, None, FILE_RULE)
    assert r.note is not None and r.note.startswith(
        f"replayed by the file's rule: p3, the last bettor, was called and mucked (actions"
        f"[{hh.actions.index('p3 sm')}]), where our room shows his hand (H14, case 33)")
    # by our rules p3 would have won: the file's own record is what makes it p1's pot
    ours = nt([*RIVER_BET_CALLED, "p1 sm AsKs"])
    assert replay(ours).stacks == [88, 98, 114]


def test_a_mucked_hand_the_file_never_dealt_and_a_winner_unseen_need_no_cards() -> None:
    actions = [a.replace("d dh p3 6c7c", "d dh p3 ????").replace("d dh p1 AsKs", "d dh p1 ????")
               for a in RIVER_BET_CALLED]
    r = verify(nt([*actions, "p3 sm"], finishing_stacks=FILE_RULE))
    assert (r.ok, r.error, r.finishing_stacks) == (True, None, FILE_RULE)
    assert r.note is not None and "p3, the last bettor, was called and mucked" in r.note
    # without the muck the showdown needs the unknown cards: still an error
    r = verify(nt(actions, finishing_stacks=FILE_RULE))
    assert r.ok is False and r.error == "p1's hole cards are unknown, but the showdown needs them"


def test_an_all_in_hand_is_tabled_by_every_rule() -> None:
    r = verify(nt([*DEAL3, "p3 cbr 100", "p1 cc", "p2 f", "p3 sm"]))
    assert r.ok is False and r.error is not None
    assert r.error.startswith("actions[6] 'p3 sm': p3's hand was already shown")


def test_the_cli_says_which_rule_replayed_the_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pokerroom.cli import main

    (tmp_path / "muck.phh").write_text(dumps(nt([*RIVER_BET_CALLED, "p3 sm"], finishing_stacks=FILE_RULE)))
    assert main(["replay", "--json", str(tmp_path)]) == 0
    line = json.loads(capsys.readouterr().out)
    assert (line["ok"], line["finishing_stacks"], line["error"]) == (True, FILE_RULE, None)
    assert line["note"].startswith("replayed by the file's rule: p3, the last bettor, was called and mucked")


def test_a_loaded_hand_keeps_its_parsed_actions_only_while_they_are_its_actions() -> None:
    """Reading a file parses every line once and the hand keeps those for its replay; a
    hand whose actions are changed afterwards replays what it says now."""
    text = dumps(nt(["d dh p1 AsKs", "d dh p2 7h2c", "d dh p3 8c8d", "p3 f", "p1 cbr 10", "p2 f"]))
    hh = loads(text)
    assert [a.text for a in hh._parsed_actions or []] == hh.actions
    assert replay(hh).stacks == [102, 98, 100]
    hh.actions[4] = "p1 cc"  # changed in place: the p1 limp, p2 checks his option...
    hh.actions[5] = "p2 cbr 6"
    hh.actions += ["p1 f"]
    assert replay(hh).stacks == [98, 102, 100]
    hh.actions = ["d dh p1 AsKs", "d dh p2 7h2c", "d dh p3 8c8d", "p3 f", "p1 f"]  # a new list
    assert replay(hh).stacks == [99, 101, 100]
    assert hh == loads(dumps(hh))  # the parse is not part of the hand's value
    assert "_parsed" not in repr(hh)
