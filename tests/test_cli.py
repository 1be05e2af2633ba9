"""The ``pokerroom`` command line: replay and simulate (main() in-process, and once as a
real subprocess through the installed entry point)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from pokerroom.cli import main
from pokerroom.cli.simulate import describe_events, play_random_stud_hand, stud_defaults
from pokerroom.core.cards import seeded_deck
from pokerroom.core.hand import Legal
from pokerroom.core.phh import HandHistory, dumps, loads, replay
from pokerroom.core.structures import Game
from pokerroom.sim import play_random_hand, random_action
from tests.core.helpers import PK_COMMUNITY_CARD
from tests.oracles.data import shared_phh

DATA = shared_phh()
# the shared PHH corpus is part of the test set: missing, these tests fail (never skip)
needs_data = pytest.mark.usefixtures("shared_hands")
KEYS = ["path", "hand", "variant", "finishing_stacks", "expected", "ok", "error", "note"]


@pytest.fixture
def shared_hands() -> Path:
    if not DATA.is_dir():
        pytest.fail(f"the shared PHH hands are not in {DATA}: these tests need that corpus (../shared/phh)")
    return DATA


def write_hand(path: Path, finishing: list[int] | None, variant: str = "NT") -> Path:
    hh = HandHistory(variant, [0, 0, 0], [100, 100, 100], ["d dh p1 AsKs", "d dh p2 7h2c", "d dh p3 8c8d",
                     "p3 f", "p1 f"], [1, 2, 0], min_bet=2, finishing_stacks=finishing)
    path.write_text(dumps(hh))
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    code = main(list(argv))
    return code, capsys.readouterr().out.splitlines()


# ---------------------------------------------------------------------------- replay


def test_replay_json_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write_hand(tmp_path / "good.phh", [99, 101, 100])
    code, lines = run(capsys, "replay", "--json", str(good))
    assert code == 0
    (record,) = [json.loads(line) for line in lines]
    assert list(record) == KEYS
    assert record == {"path": str(good), "hand": None, "variant": "NT", "finishing_stacks": [99, 101, 100],
                      "expected": [99, 101, 100], "ok": True, "error": None, "note": None}


def test_replay_mismatch_error_and_missing_path_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = write_hand(tmp_path / "bad.phh", [100, 100, 100])
    code, lines = run(capsys, "replay", str(bad))
    assert code == 1
    assert lines[0].startswith("MISMATCH") and "ours [99, 101, 100], recorded [100, 100, 100]" in lines[0]
    assert lines[-1] == "hands: 1, ok: 0, mismatched: 1, errors: 0, unsupported: 0"
    code, lines = run(capsys, "replay", "--json", str(tmp_path / "missing.phh"))
    assert code == 1
    record = json.loads(lines[0])
    assert record["ok"] is False and record["error"] == "no such file or directory"
    (tmp_path / "broken.phh").write_text("variant = \n")
    code, lines = run(capsys, "replay", str(tmp_path / "broken.phh"))
    assert code == 1 and lines[0].startswith("ERROR") and "bad TOML" in lines[0]


def test_replay_unsupported_is_reported_as_an_error(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    omaha = write_hand(tmp_path / "omaha.phh", None, variant="PO")
    unrecorded = write_hand(tmp_path / "unrecorded.phh", None)
    code, lines = run(capsys, "replay", str(tmp_path))
    assert code == 1
    assert lines[0] == f"unsupported  {omaha}: unsupported variant 'PO' (pot-limit Omaha)"
    assert lines[1].startswith(f"replayed     {unrecorded} NT: no finishing_stacks recorded")
    assert lines[-1] == "hands: 2, ok: 0, mismatched: 0, errors: 0, unsupported: 1, no record: 1"


@needs_data
def test_replay_a_pluribus_session(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = run(capsys, "replay", str(DATA / "pluribus" / "102.phhs"))
    assert code == 0
    assert lines[-1] == "hands: 73, ok: 73, mismatched: 0, errors: 0, unsupported: 0"
    assert lines[0].startswith("ok") and "[1] NT (recorded in half chips" in lines[0]


@needs_data
def test_replay_the_wsop_stud_hands(capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(DATA / "wsop-2023-43-5" / f"{k}.phh") for k in ("6", "9", "10", "11", "69", "71", "74")]
    code, lines = run(capsys, "replay", *files)
    assert code == 0
    assert lines[-1] == "hands: 7, ok: 7, mismatched: 0, errors: 0, unsupported: 0"
    assert all(line.startswith("ok") and line.endswith(" F7S") for line in lines[:-1])
    code, lines = run(capsys, "replay", "--json", files[0])
    (record,) = [json.loads(line) for line in lines]
    assert list(record) == KEYS
    assert record | {"path": None} == {"path": None, "hand": None, "variant": "F7S",
                                       "finishing_stacks": [2150000, 9750000, 4675000, 8225000, 4900000],
                                       "expected": [2150000, 9750000, 4675000, 8225000, 4900000], "ok": True,
                                       "error": None, "note": None}


def test_replay_a_stud_error_names_the_action(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hh = HandHistory("F7S", [1, 1, 1], [100, 100, 100], ["d dh p1 AsKsQh", "d dh p2 7h2d3c", "d dh p3 8c8d9s",
                     "p1 pb"], bring_in=3, small_bet=10, big_bet=20)
    (tmp_path / "stud.phh").write_text(dumps(hh))
    code, lines = run(capsys, "replay", "--json", str(tmp_path / "stud.phh"))
    assert code == 1
    record = json.loads(lines[0])
    assert record["variant"] == "F7S" and record["ok"] is False
    assert record["error"].startswith("actions[3] 'p1 pb': it is player 1's turn")
    assert "(p2 is to act)" in record["error"]


@needs_data
def test_installed_entry_point_subprocess() -> None:
    exe = Path(sys.executable).parent / "pokerroom"
    if not exe.exists():
        pytest.fail(f"no installed entry point at {exe}: install the package (pip install -e .)")
    file = DATA / "wsop-2023-43-5" / "68.phh"
    done = subprocess.run([str(exe), "replay", "--json", str(file)], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    (record,) = [json.loads(line) for line in done.stdout.splitlines()]
    assert list(record) == KEYS
    assert record["ok"] is True and record["finishing_stacks"] == [2200000, 0, 2675000, 3125000, 21700000]
    missing = subprocess.run([str(exe), "replay", str(file.with_name("nope.phh"))], capture_output=True,
                             text=True, timeout=60, check=False)
    assert missing.returncode == 1 and "no such file or directory" in missing.stdout
    assert "Traceback" not in missing.stderr


# ---------------------------------------------------------------------------- simulate


@pytest.mark.parametrize("game", ["NL", "PL", "FL"])
def test_simulate_conserves_chips(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = run(capsys, "simulate", "--hands", "200", "--players", "4", "--game", game, "--seed", "7")
    assert code == 0
    assert lines[-1].startswith("hands: 200, actions: ") and "chips conserved: yes" in lines[-1]
    assert f"{game} 1/2, stacks 200, seed 7" in lines[-1]


def test_simulate_is_reproducible_and_shows_hands(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--hands", "30", "--players", "3", "--stakes", "5/10", "--stack", "300", "--show"]
    code, first = run(capsys, *argv, "--seed", "3")
    assert code == 0
    assert run(capsys, *argv, "--seed", "3")[1] == first
    assert run(capsys, *argv, "--seed", "4")[1] != first
    text = "\n".join(first)
    for fragment in ("Hand 1 (seed 3): No limit 5/10, 3 players, stacks 300", "p1 posts the small blind 5",
                     "p2 posts the big blind 10", "dealt: p1 ", "main pot ", "flop: ", "stacks: p1 "):
        assert fragment in text


def test_simulate_stud_conserves_chips(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines = run(capsys, "simulate", "--game", "STUD", "--hands", "300", "--players", "8", "--seed", "5")
    assert code == 0
    assert lines[-1].startswith("hands: 300, actions: ") and "chips conserved: yes" in lines[-1]
    assert lines[-1].endswith("(8 players, STUD 10/20, ante 1, bring-in 3, stacks 1000, seed 5)")
    code, lines = run(capsys, "simulate", "--game", "STUD", "--hands", "50", "--players", "2",
                      "--stakes", "2/4", "--ante", "0", "--bring-in", "1", "--stack", "30")
    assert code == 0 and lines[-1].endswith("(2 players, STUD 2/4, ante 0, bring-in 1, stacks 30, seed 0)")


def test_simulate_stud_shows_streets_and_cards(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--game", "STUD", "--hands", "40", "--players", "3", "--stack", "60", "--show"]
    code, first = run(capsys, *argv, "--seed", "1")
    assert code == 0 and run(capsys, *argv, "--seed", "1")[1] == first
    text = "\n".join(first)
    for fragment in ("Hand 1 (seed 1): Seven card stud 10/20, ante 1, bring-in 3, 3 players, stacks 60",
                     "p1 posts an ante 1", " brings in 3", " completes to 10", "end of third street: pot ",
                     "main pot ", "stacks: p1 "):
        assert fragment in text, fragment
    # hand 27: third street with the down cards in brackets, what each player shows, a run-out
    hand = text[text.index("Hand 27 "):text.index("Hand 28 ")]
    assert "  third street: p1 [Kc Ah] 9c, p2 [Js 9s] 3d, p3 [5s 6c] 8d\n  p2 brings in 3\n" in hand
    assert "  fourth street: p2 Kh (showing 3d Kh), p3 Th (showing 8d Th)\n" in hand
    assert "  p2 bets 16 (all-in)\n  p3 calls 16 (all-in)\n" in hand
    assert "  p2 shows Js 9s 3d Kh 9d Jc (forced)\n" in hand
    assert "  seventh street: p2 [Kd], p3 [Ts]\n  p2 shows Js 9s 3d Kh 9d Jc Kd (forced)\n" in hand
    assert "main pot 121 to p2 121 (Two pair, kings and jacks)" in hand


def test_describe_a_stud_community_card() -> None:
    lines = describe_events(replay(loads(PK_COMMUNITY_CARD)).events)  # stud found from the up cards
    sixth = next(k for k, line in enumerate(lines) if line.startswith("end of sixth street: pot "))
    assert lines[sixth + 1:sixth + 3] == [
        "the burned cards are shuffled into the stub: 4 cards",
        "seventh street: community card Ah for every player (too few cards left)",
    ]


def test_stud_defaults_and_random_stud_play() -> None:
    assert [stud_defaults(s) for s in (2, 4, 10, 20, 100)] == [(1, 1), (1, 1), (1, 3), (2, 6), (10, 30)]
    game = Game.stud(10, 20, ante=1, bring_in=3)
    kinds = set()
    for seed in range(200):
        rng = random.Random(seed)
        stacks = [rng.randint(1, 300) for _ in range(2 + seed % 7)]
        hand = play_random_stud_hand(game, stacks, seeded_deck(seed), rng)
        assert hand.complete and sum(hand.stacks) == sum(stacks)
        kinds |= {e.action for e in hand.events if type(e).__name__ == "Acted"}
    assert {"bring_in", "complete", "fold", "call", "check", "bet", "raise"} <= kinds


@pytest.mark.parametrize(("argv", "message"), [
    (["simulate", "--game", "STUD", "--players", "9"], "--players: stud seats 2 to 8 players, not 9"),
    (["simulate", "--ante", "2"], "--ante and --bring-in are for --game STUD"),
    (["simulate", "--game", "STUD", "--bring-in", "11"], "pokerroom simulate: error: stud needs a bring-in"),
    (["simulate", "--game", "STUD", "--stakes", "1/2"], "pokerroom simulate: error: stud needs a bring-in"),
    (["simulate", "--game", "STUD", "--bring-in", "0"], "argument --bring-in: 0 is out of range"),
    (["simulate", "--game", "STUD", "--ante", "-1"], "argument --ante: -1 is out of range"),
    (["simulate", "--game", "stud"], "argument --game: invalid choice: 'stud'"),
    (["simulate", "--players", "1"], "argument --players: 1 is out of range: must be from 2 to 22"),
    (["simulate", "--players", "x"], "'x' is not a whole number"),
    (["simulate", "--hands", "0"], "argument --hands: 0 is out of range: must be at least 1"),
    (["simulate", "--game", "XX"], "argument --game: invalid choice: 'XX'"),
    (["simulate", "--stakes", "2/1"], "'2/1' is not stakes like 1/2"),
    (["simulate", "--stakes", "abc"], "'abc' is not stakes like 1/2"),
    (["simulate", "--stack", "-5"], "argument --stack: -5 is out of range"),
    (["simulate", "--seed", "x"], "argument --seed: invalid int value"),
    (["replay"], "the following arguments are required: PATH"),
    ([], "the following arguments are required: COMMAND"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
])
def test_bad_arguments_exit_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "usage: pokerroom" in err and "Traceback" not in err


# ---------------------------------------------------------------------------- sim


def test_random_action_kinds() -> None:
    rng = random.Random(0)
    facing = Legal(1, True, False, 5, 10, 50, False, False)
    seen = {random_action(facing, rng)[0] for _ in range(200)}
    assert seen == {"fold", "call", "raise"}
    amounts = {a or 0 for k, a in (random_action(facing, rng) for _ in range(600)) if k == "raise"}
    assert min(amounts) == 10 and max(amounts) == 50 and len(amounts) > 30
    free = Legal(0, False, True, 0, None, None, False, False)
    assert {random_action(free, rng) for _ in range(50)} == {("check", None)}
    showdown = Legal(2, False, False, 0, None, None, True, True)
    assert {random_action(showdown, rng)[0] for _ in range(50)} == {"show", "muck"}
    forced = Legal(2, False, False, 0, None, None, True, False)
    assert {random_action(forced, rng)[0] for _ in range(20)} == {"show"}
    with pytest.raises(ValueError, match="nobody is to act"):
        random_action(Legal(None, False, False, 0, None, None, False, False), rng)


def test_play_random_hand_finishes_and_conserves() -> None:
    for seed in range(300):
        game = [Game.no_limit(1, 2), Game.pot_limit(1, 2), Game.fixed_limit(2, 4)][seed % 3]
        rng = random.Random(seed)
        stacks = [rng.randint(1, 300) for _ in range(2 + seed % 8)]
        hand = play_random_hand(game, stacks, seeded_deck(seed), rng)
        assert hand.complete and sum(hand.stacks) == sum(stacks)
