"""PHH reading, writing and strict replay (pokerroom.core.phh), on the shared real hands
(/work/shared/phh: Pluribus, WSOP 2023 #43 day 5, famous hands) and on small made-up ones."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest

from pokerroom.bench.data import shared_phh
from pokerroom.core.cards import Card
from pokerroom.core.events import Posted
from pokerroom.core.hand import Hand
from pokerroom.core.phh import (
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
from pokerroom.core.structures import Structure

REPO = Path(__file__).resolve().parents[2]
DATA = shared_phh()
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason=f"the shared PHH hands are not in {DATA}")

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
        pytest.skip(f"the shared PHH hands are not in {DATA}")
    return list(replay_paths([DATA]))


def rel(r: ReplayResult) -> str:
    return Path(r.path).relative_to(DATA).as_posix()


@needs_data
def test_every_nt_and_ft_hand_replays_to_its_finishing_stacks(results: list[ReplayResult]) -> None:
    ours = [r for r in results if r.variant in ("NT", "FT")]
    assert [r for r in ours if r.error] == []
    assert len(ours) == 4698  # 4,687 Pluribus + 6 NT and 4 FT at the WSOP + 1 historical NT
    assert sum(rel(r).startswith("pluribus/") for r in ours) == 4687
    assert sorted(rel(r) for r in ours if rel(r).startswith("wsop")) == [
        f"wsop-2023-43-5/{k}.phh" for k in ("3", "34", "37", "39", "40", "63", "65", "66", "67", "68")
    ]
    exact = [r for r in ours if r.ok and r.note is None]
    assert len(exact) == 4693
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
def test_other_variants_are_reported_unsupported_by_name(results: list[ReplayResult]) -> None:
    unsupported = {rel(r): r for r in results if r.unsupported}
    assert len(results) == 4698 + len(unsupported)
    expected = {f"wsop-2023-43-5/{k}.phh": "F7S" for k in ("6", "9", "10", "11", "69", "71", "74")} | {
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


@pytest.mark.parametrize("variant", ["F7S", "NS", "PO", "FO/8", "F2L3D", "FB", "F7S/8", "FR", "N2L1D", "XX"])
def test_unsupported_variants(variant: str) -> None:
    with pytest.raises(UnsupportedError, match=f"unsupported variant '{variant}'"):
        replay(nt(["d dh p1 AsKs"], variant=variant))
    r = verify(nt([], variant=variant))
    assert r.unsupported and r.ok is None


@pytest.mark.parametrize(("hh", "message"), [
    (nt([], n=4, blinds_or_straddles=[1, 2, 4, 0]), "straddles"),
    (nt([], n=6, blinds_or_straddles=[0, 0, 0, 0, 0, 3]), "straddles"),
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
    assert posts == [(0, "ante", 3), (0, "big_blind", 2), (1, "small_blind", 1)]
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
