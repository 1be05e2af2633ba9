"""The ``pokerroom`` command line: replay and simulate (main() in-process, and once as a
real subprocess through the installed entry point)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from pokerroom.bench.data import shared_phh
from pokerroom.cli import main
from pokerroom.core.cards import seeded_deck
from pokerroom.core.hand import Legal
from pokerroom.core.phh import HandHistory, dumps
from pokerroom.core.structures import Game
from pokerroom.sim import play_random_hand, random_action

DATA = shared_phh()
needs_data = pytest.mark.skipif(not DATA.is_dir(), reason=f"the shared PHH hands are not in {DATA}")
KEYS = ["path", "hand", "variant", "finishing_stacks", "expected", "ok", "error", "note"]


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
def test_installed_entry_point_subprocess() -> None:
    exe = Path(sys.executable).parent / "pokerroom"
    if not exe.exists():
        pytest.skip(f"no installed entry point at {exe}")
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


@pytest.mark.parametrize(("argv", "message"), [
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
