"""A player's statistics page with 100,000 stored hands, on SQLite and PostgreSQL (issue 19:
under 100 ms).

The store gets ``--hands`` complete six-handed no-limit hands of one player (the hero,
always seat 1) and five others, written in bulk (one multi-row INSERT per few thousand
rows of ``hands`` and ``hand_players``; their histories the worker's JSON of a few hundred
distinct random hands, used in turn; on PostgreSQL an ANALYZE after, as autovacuum
would have run on a room that grew to that). The first fold counts them all (its rate is
printed: what a room pays once, in the periodic fold, when it upgrades). Then each of
``--repeats`` pages: ``--new`` more hands are stored (the room played on), and the page's
work is timed, what GET /api/players/{name}/stats does on the store
(gateway.stats.stats_page: the fold of the new hands, his counters and his graph).
Medians and the 90th percentile, in milliseconds, for each database, and the median CPU
time the page took in this process (the wall time also counts the database's work, and
whatever else the machine runs).

    python benchmarks/bench_stats.py --hands 100000 --repeats 50 --new 5
    python benchmarks/bench_stats.py --db postgresql --pg-url postgresql://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import insert

from pokerroom.core.cards import seeded_deck
from pokerroom.core.events import HandEnded
from pokerroom.core.structures import Game
from pokerroom.gateway.stats import stats_page
from pokerroom.histories import snapshot
from pokerroom.sim import play_random_hand
from pokerroom.store import Store
from pokerroom.store.schema import hand_players, hands
from pokerroom.store.stats import PlayerStats

GAME = Game.no_limit(1, 2)
SEATS = [1, 2, 3, 4, 5, 6]
PG_URL = "postgresql://postgres@127.0.0.1:5432/test"


def histories(count: int, seed: int) -> list[tuple[str, list[int]]]:
    """``count`` random hands as the worker stores them (JSON), with each seat's net."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        hand = play_random_hand(GAME, [200] * 6, seeded_deck(seed * 100_003 + i), rng)
        history = {"players": [{"seat": s, "name": f"p{s}"} for s in SEATS],
                   "private": {"hand": snapshot(hand)}}
        nets = next(e.net for e in hand.events if isinstance(e, HandEnded))
        out.append((json.dumps(history, separators=(",", ":")), list(nets)))
    return out


async def store_hands(store: Store, first: int, count: int, players: list[int],
                      texts: list[tuple[str, list[int]]], chunk: int = 2_000) -> None:
    """Hands ``first`` .. ``first + count - 1`` written in bulk, complete."""
    now = time.time()
    for start in range(first, first + count, chunk):
        ids = range(start, min(start + chunk, first + count))
        rows, seats = [], []
        for hand_id in ids:
            text, nets = texts[hand_id % len(texts)]
            rows.append({"id": hand_id, "table_name": "Bench", "number": hand_id, "game": "NL 1/2",
                         "status": "complete", "started_at": now, "ended_at": now, "commitment": "c" * 64,
                         "history": text})
            seats += [{"hand_id": hand_id, "account_id": a, "seat": s, "net": n}
                      for a, s, n in zip(players, SEATS, nets, strict=True)]
        async with store._writing() as conn:
            await conn.execute(insert(hands), rows)
            await conn.execute(insert(hand_players), seats)


async def measure(url: str, schema: str | None, total: int, repeats: int, new: int,
                  seed: int) -> dict[str, Any]:
    store = Store(url, schema)
    try:
        await store.migrate()
        players = [(await store.create_account(f"Bench{k}", "h", 0)).id for k in range(6)]
        texts = histories(min(300, max(total, 1)), seed)
        started = time.perf_counter()
        await store_hands(store, 1, total, players, texts)
        written = time.perf_counter() - started
        if not store.sqlite:  # the planner's statistics, as autovacuum keeps them for a room that grew
            async with store._writing() as conn:
                await conn.exec_driver_sql("ANALYZE")
        stats = PlayerStats(store)
        started = time.perf_counter()
        folded = await stats.fold()
        fold_seconds = time.perf_counter() - started
        assert folded == total, (folded, total)
        times, idle, cpu = [], [], []
        next_id = total + 1
        for _ in range(repeats):
            await store_hands(store, next_id, new, players, texts)
            next_id += new
            started, used = time.perf_counter(), time.process_time()
            page = await stats_page(stats, players[0], "Bench0", own=True)
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - used)
            started = time.perf_counter()
            await stats_page(stats, players[0], "Bench0", own=True)  # nothing new
            idle.append(time.perf_counter() - started)
        assert page["games"][0]["hands"] == next_id - 1 and page["complete"]
        return {
            "hands": next_id - 1, "write_s": round(written, 2), "first_fold_s": round(fold_seconds, 2),
            "fold_rate_per_s": round(total / fold_seconds) if fold_seconds else None,
            "page_ms_median": round(1000 * statistics.median(times), 2),
            "page_ms_p90": round(1000 * sorted(times)[int(0.9 * (len(times) - 1))], 2),
            "page_cpu_ms_median": round(1000 * statistics.median(cpu), 2),
            "page_ms_nothing_new_median": round(1000 * statistics.median(idle), 2),
            "graph_points": len(page["graph"]["points"]),
        }
    finally:
        await store.close()


async def _drop(url: str, schema: str) -> None:
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await conn.close()


def run(total: int = 100_000, repeats: int = 50, new: int = 5, databases: tuple[str, ...] = ("sqlite",),
        pg_url: str = PG_URL, seed: int = 1) -> dict[str, dict[str, Any]]:
    """The figures for each database: {"sqlite": {...}, "postgresql": {...}}."""
    out = {}
    for kind in databases:
        if kind == "sqlite":
            with tempfile.TemporaryDirectory() as folder:
                url = f"sqlite:///{Path(folder) / 'bench.db'}"
                out[kind] = asyncio.run(measure(url, None, total, repeats, new, seed))
        else:
            schema = f"bench_{secrets.token_hex(4)}"
            try:
                out[kind] = asyncio.run(measure(pg_url, schema, total, repeats, new, seed))
            finally:
                asyncio.run(_drop(pg_url, schema))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=50)
    parser.add_argument("--new", type=int, default=5, help="hands stored before each page (default 5)")
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--pg-url", default=PG_URL)
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args()
    databases = ("sqlite", "postgresql") if args.db == "both" else (args.db,)
    figures = run(args.hands, args.repeats, args.new, databases, args.pg_url)
    if args.json:
        print(json.dumps(figures))
        return
    for kind, f in figures.items():
        print(f"{kind}: {f['hands']:,} hands of one player; written in {f['write_s']} s, "
              f"first fold {f['first_fold_s']} s ({f['fold_rate_per_s']:,} hands/s)")
        print(f"  page with {args.new} new hands: median {f['page_ms_median']} ms, "
              f"p90 {f['page_ms_p90']} ms (this process's CPU {f['page_cpu_ms_median']} ms); "
              f"nothing new: median {f['page_ms_nothing_new_median']} ms; "
              f"graph of {f['graph_points']} points")


if __name__ == "__main__":
    main()
