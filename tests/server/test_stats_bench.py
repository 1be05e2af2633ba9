"""A short seeded run of benchmarks/bench_stats.py (issue 19): a player's page after a fold
of stored hands, on SQLite, and PostgreSQL when POKERROOM_TEST_DATABASE_URL is set; the
figures are the benchmark's to print, this checks that it runs and counts every hand."""

from __future__ import annotations

import os

from benchmarks.bench_stats import run


def test_the_statistics_benchmark_runs_small() -> None:
    url = os.environ.get("POKERROOM_TEST_DATABASE_URL")
    databases = ("sqlite", "postgresql") if url else ("sqlite",)
    figures = run(total=400, repeats=3, new=2, databases=databases, pg_url=url or "", seed=3)
    assert set(figures) == set(databases)
    for f in figures.values():
        assert f["hands"] == 406 and f["graph_points"] == 407
        # generous: a loaded machine; the benchmark prints the real figures
        assert 0 < f["page_ms_median"] < 2_000
