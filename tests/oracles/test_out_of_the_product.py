"""The benchmarks and the PokerKit oracle live outside the product (issue 17, item 2): src/
imports none of the rivals, and ``pokerroom bench`` finds them in the checkout or says
clearly that they are not there."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pokerroom.cli import bench, main

SRC = Path(__file__).resolve().parents[2] / "src"
RIVALS = {"pokerkit", "treys", "eval7", "phevaluator"}


def imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            roots.add(node.module.split(".")[0])
    return roots


def test_src_imports_no_rival_and_no_test_or_benchmark() -> None:
    files = sorted(SRC.rglob("*.py"))
    assert len(files) > 50
    offenders = {str(f.relative_to(SRC)): sorted(imported_roots(f) & (RIVALS | {"tests", "benchmarks"}))
                 for f in files}
    assert {k: v for k, v in offenders.items() if v} == {}
    assert not (SRC / "pokerroom" / "bench").exists()


def test_bench_loads_the_benchmarks_of_the_checkout() -> None:
    engine = bench.benchmark("engine")
    assert Path(engine.__file__).parent == bench.CHECKOUT / "benchmarks"
    assert callable(engine.run)


def test_bench_without_a_checkout_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(RuntimeError, match="not installed with the package: run it from a checkout"):
        bench.benchmark("engine", checkout=tmp_path)
    monkeypatch.setattr(bench, "CHECKOUT", tmp_path)  # as from an installed wheel
    assert main(["bench", "evaluator"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pokerroom bench: the benchmarks are not installed with the package")
    assert f"no benchmarks/evaluator.py and tests/oracles/ in {tmp_path}" in err
