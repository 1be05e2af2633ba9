"""``pokerroom equity``: output, JSON, Monte Carlo options and exit codes (main() in-process,
and once as a real subprocess)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from pokerroom.cli import COMMANDS, main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    code = main(["equity", *argv])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def fails(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as info:
        main(["equity", *argv])
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and "Traceback" not in err
    return err.splitlines()[-1]


def test_registered() -> None:
    assert "equity" in COMMANDS


def test_preflop_exhaustive(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = run(capsys, "AhKh", "QsQd")
    assert code == 0 and err == ""
    assert lines[0].split() == ["hand", "equity", "win", "tie"]
    assert lines[1].split()[:2] == ["AhKh", "46.2145%"]
    assert lines[2].split()[:2] == ["QsQd", "53.7855%"]
    assert lines[1].split()[3] == lines[2].split()[3]  # the same tie
    assert lines[-1] == "1,712,304 boards, exhaustive"


def test_board_dead_and_three_hands(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = run(capsys, "AsKs", "7d7c", "jhth", "--board", "Qs 8h 2d", "--dead", "9c,5s")
    assert code == 0
    assert [line.split()[0] for line in lines[1:4]] == ["AsKs", "7d7c", "JhTh"]
    assert lines[4] == "board Qs 8h 2d, dead 9c 5s"
    assert lines[5] == "820 boards, exhaustive"  # C(41, 2)
    total = sum(float(line.split()[1].rstrip("%")) for line in lines[1:4])
    assert abs(total - 100) < 1e-3


def test_river_split(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = run(capsys, "2c3d", "4h5d", "--board", "AsKsQsJsTs")
    assert code == 0
    assert lines[1].split() == ["2c3d", "50.0000%", "0.0000%", "100.0000%"]
    assert lines[-1] == "1 board, exhaustive"


def test_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = run(capsys, "AhKh", "QsQd", "--board", "Jh7h2c", "--json")
    assert code == 0 and len(lines) == 1
    data = json.loads(lines[0])
    assert data["boards"] == 990 and data["exact"] is True and data["board"] == "Jh7h2c"
    assert [h["hand"] for h in data["hands"]] == ["AhKh", "QsQd"]
    assert abs(sum(h["equity"] for h in data["hands"]) - 1) < 1e-12
    assert data["hands"][0]["std_error"] == 0


def test_monte_carlo_with_seed(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = run(capsys, "AhKh", "QsQd", "--samples", "50000", "--seed", "4", "--json")
    assert code == 0 and err == ""  # no progress bar when stderr is not a terminal
    data = json.loads(lines[0])
    assert data["boards"] == 50_000 and data["exact"] is False
    assert abs(data["hands"][0]["equity"] - 0.462145) < 4 * data["hands"][0]["std_error"]
    assert run(capsys, "AhKh", "QsQd", "--samples", "50000", "--seed", "4", "--json")[1] == lines
    code, lines, _ = run(capsys, "AhKh", "QsQd", "--samples", "1000", "--seed", "4")
    assert code == 0
    assert lines[-1].startswith("1,000 random boards (Monte Carlo, seed 4), standard error up to")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["AhKh"], "equity needs 2 to 9 hands, got 1"),
        (["AhKh", "AhQd"], "Ah appears twice: in hand 1 and hand 2"),
        (["AhKh", "QsQd", "--board", "Qs2c3c"], "Qs appears twice: in hand 2 and the board"),
        (["AhKh", "QsQd", "--board", "2c3c"], "the board has 2 cards ('2c3c'); it has 0, 3, 4 or 5"),
        (["AhKh", "QsQd", "--dead", "Kh"], "Kh appears twice: in hand 1 and the dead cards"),
        (["AhKh", "QsXd"], "hand 2: bad card 'Xd'"),
        (["AhKh", "QsQdJc"], "hand 2 has 3 cards"),
        (["AhKh", "QsQd", "--samples", "0"], "argument --samples: 0 is out of range"),
        (["AhKh", "QsQd", "--samples", "many"], "argument --samples: 'many' is not a whole number"),
        (["AhKh", "QsQd", "--samples", "10", "--seed", "-3"], "argument --seed: -3 is out of range"),
        (["AhKh", "QsQd", "--seed", "3"], "--seed goes with --samples"),
    ],
)
def test_bad_input_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    last = fails(capsys, *argv)
    assert last.startswith("pokerroom equity: error: ") and message in last


def test_subprocess_exit_codes() -> None:
    ok = subprocess.run([sys.executable, "-m", "pokerroom.cli", "equity", "AhKh", "QsQd", "--board",
                         "Jh7h2c9s"], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0 and ok.stdout.splitlines()[-1] == "44 boards, exhaustive"
    bad = subprocess.run([sys.executable, "-m", "pokerroom.cli", "equity", "AhKh", "AhKh"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stdout == ""
    assert "Traceback" not in bad.stderr
    assert bad.stderr.splitlines()[-1] == "pokerroom equity: error: Ah appears twice: in hand 1 and hand 2"


# ---------------------------------------------------------------------------- --stud


def test_stud_exhaustive(capsys: pytest.CaptureFixture[str]) -> None:
    from pokerroom.core.equity import stud_equity

    code, lines, err = run(capsys, "--stud", "AsKsQs2h3h4d", "9c9d 8c8d5h5s", "--dead", "Js Ts")
    assert code == 0 and err == ""
    assert lines[0].split() == ["hand", "equity", "win", "tie"]
    assert [line.split()[0] for line in lines[1:3]] == ["AsKsQs2h3h4d", "9c9d8c8d5h5s"]
    r = stud_equity(["AsKsQs2h3h4d", "9c9d8c8d5h5s"], "Js Ts")
    assert lines[1].split()[1] == f"{r.equity[0]:.4%}"
    assert lines[3] == "dead Js Ts"
    assert lines[4] == "1,406 deals, exhaustive"  # 38 x 37


def test_stud_monte_carlo_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--stud", "AsKs Qd", "2c2d 2h", "7h8h9h", "--samples", "20000", "--seed", "5", "--json"]
    code, lines, err = run(capsys, *argv)
    assert code == 0 and err == "" and len(lines) == 1
    data = json.loads(lines[0])
    assert data["boards"] == 20_000 and data["exact"] is False and data["board"] == ""
    assert [h["hand"] for h in data["hands"]] == ["AsKsQd", "2c2d2h", "7h8h9h"]
    assert abs(sum(h["equity"] for h in data["hands"]) - 1) < 1e-12
    assert run(capsys, *argv)[1] == lines
    code, lines, _ = run(capsys, "--stud", "AsKs Qd", "2c2d 2h", "--samples", "1000", "--seed", "5")
    assert code == 0
    assert lines[-1].startswith("1,000 random deals (Monte Carlo, seed 5), standard error up to")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--stud", "AsKs"], "stud equity needs 2 to 8 hands, got 1"),
        (["--stud", "AsKs", "Ks"], "Ks appears twice: in hand 1 and hand 2"),
        (["--stud", "AsKs", "2c3c4c5c6c7c8c9c"], "hand 2 has 8 cards"),
        (["--stud", "AsKs", "QdQc", "--board", "2c3c4c"], "--board does not go with --stud"),
        (["--stud", *(f"{r}c" for r in "2345678"), "9c"], "the community-card rule"),
    ],
)
def test_stud_bad_input_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    last = fails(capsys, *argv)
    assert last.startswith("pokerroom equity: error: ") and message in last
