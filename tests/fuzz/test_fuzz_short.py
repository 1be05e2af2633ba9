"""The short fuzz run of `make test` (issue 16): each harness of this folder as a
subprocess under libFuzzer (atheris), from its seed corpus (tests/fuzz/corpus/<target>/)
with a fixed seed, for at most ``RUNS`` inputs or ``SECONDS``, whichever comes first,
about a minute in all for the four targets. A finding (an exception the target does not
document, a broken bound, a hang over ``-timeout`` or memory over ``-rss_limit_mb``) fails
the test, which shows the harness's report and the input that did it; the inputs it finds
go to a temporary folder, never into the kept corpus. `make fuzz` runs the same
harnesses for longer."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SEED = 16
SECONDS = {"frames": 12, "handshake": 12, "phh": 18, "history": 18}
RUNS = {"frames": 60_000, "handshake": 40_000, "phh": 20_000, "history": 6_000}


@pytest.mark.slow
@pytest.mark.parametrize("target", sorted(SECONDS))
def test_fuzz_target_finds_nothing(target: str, tmp_path: Path) -> None:
    found = tmp_path / "found"
    found.mkdir()
    command = [sys.executable, str(HERE / f"fuzz_{target}.py"), f"-seed={SEED}", f"-runs={RUNS[target]}",
               f"-max_total_time={SECONDS[target]}", "-timeout=10", "-rss_limit_mb=1024",
               f"-artifact_prefix={tmp_path}/", "-print_final_stats=1", str(found),
               str(HERE / "corpus" / target)]
    run = subprocess.run(command, cwd=HERE, capture_output=True, text=True, timeout=SECONDS[target] + 120)
    report = run.stderr[-6000:]
    assert run.returncode == 0, f"fuzz_{target}.py found a problem:\n{report}\n{_crashes(tmp_path)}"
    assert "Done " in run.stderr, f"fuzz_{target}.py did not run to its end:\n{report}"
    assert "stat::number_of_executed_units" in run.stderr, report


def _crashes(folder: Path) -> str:
    """The inputs libFuzzer kept for a finding, as Python byte strings to paste into a test."""
    return "\n".join(f"{p.name}: {p.read_bytes()[:2000]!r}" for p in sorted(folder.iterdir()) if p.is_file())
