"""A load test of the room: N tables of K bots in this one process (asyncio, one WebSocket
connection each, no thread), against a room server started for the purpose (or one at a
URL). It measures, over ``duration`` seconds after a warm-up:

- hands/s and actions/s;
- the latency from a player's ``act`` being sent to the moment the LAST player of his table
  receives the resulting ``Acted`` event (matched by table + acting seat + event version):
  p50, p99, max in milliseconds;
- the server's memory per connection: VmRSS of the server process (``/proc/<pid>/status``)
  before and after the bots connect, divided by the connections.

When it starts the room itself, the bots' accounts are written into its database before it
starts (``seed_accounts``: one argon2 hash for all, a session token each), so 6,000 bots
need no registration over HTTP; against ``--url`` they register as people do. Ctrl-C or
SIGTERM stops it at any phase, and the server it started never outlives it (Linux:
PR_SET_PDEATHSIG, so even a SIGKILL of the load test stops the server).

With ``gateways`` and ``workers`` it starts a cluster instead (``cluster.LocalCluster``: a
private nats-server on a free port, the workers and the gateways as processes on a
PostgreSQL schema of their own, dropped afterwards), deals the bots to the gateways in turn
and measures the CPU of each part: gateways, workers, nats-server, the PostgreSQL backends.

The package: ``accounts`` (seeding them through the store's public API), ``players`` (the
bots that time their actions), ``drive`` (one measured run), ``servers`` (the subprocesses
and /proc), ``report``; ``run`` here puts them together for ``pokerroom loadtest``.

The same clients can drive ``benchmarks/ws_baseline.py``, a bare uvicorn WebSocket
broadcast server with messages of the same sizes: the room's saturated actions/s as a
ratio to it (``pokerroom loadtest --think 0 --baseline``).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import tempfile
import time
from pathlib import Path

from pokerroom.loadtest.accounts import Seeded, seed_accounts
from pokerroom.loadtest.cluster import LocalCluster, drop_schema, postgres_parts
from pokerroom.loadtest.drive import drive
from pokerroom.loadtest.report import Report, percentile, show_progress
from pokerroom.loadtest.servers import (
    STARTING_BALANCE,
    Spawned,
    check_log,
    room_database,
    room_toml,
    start_baseline,
    start_room,
)
from pokerroom.loop import run as run_loop

__all__ = [
    "STARTING_BALANCE", "Report", "Seeded", "Spawned", "drive", "percentile", "room_database", "room_toml",
    "run", "run_cluster", "run_loop", "seed_accounts", "start_baseline", "start_room",
]

CLUSTER_DATABASE = "postgresql://postgres@127.0.0.1:5432/test"


def run(
    tables: int,
    per_table: int,
    *,
    think: float,
    duration: float,
    url: str | None = None,
    warmup: float = 5.0,
    baseline: bool = False,
    progress: bool = True,
    seed: int | None = None,
) -> Report:
    """The whole load test, synchronously: servers started and stopped as needed. Without
    ``url`` the bots' accounts are seeded into the room's database before it starts.
    KeyboardInterrupt at any point stops the servers (within about a second) and passes."""
    with tempfile.TemporaryDirectory(prefix="pokerroom-load-") as tmp:
        folder = Path(tmp)
        server: Spawned | None = None
        seeded, seeding_s = None, 0.0
        interrupted = True  # unless it ends or fails
        try:
            if url is None:
                began = time.monotonic()
                if progress:
                    show_progress(f"seeding {tables * per_table} bot accounts")
                seeded = asyncio.run(seed_accounts(room_database(folder), tables * per_table))
                seeding_s = time.monotonic() - began
                if progress:
                    show_progress(f"{len(seeded.names)} bot accounts seeded in {seeding_s:.1f} s\n")
                server = start_room(folder, tables, per_table, progress)
            target = url.rstrip("/") if url else server.url  # type: ignore[union-attr]
            pid = server.process.pid if server else None
            report = run_loop(drive(target, tables, per_table, think=think, duration=duration,
                                       warmup=warmup, server_pid=pid, progress=progress, seed=seed,
                                       seeded=seeded, on_abort=server.process.kill if server else None))
            interrupted = False
        except Exception:
            interrupted = False
            raise
        finally:
            if server is not None:
                server.stop(grace=1.0 if interrupted else 20.0)
                check_log(server.log, full=not interrupted)
        if seeded is not None:
            report.accounts_s, report.seeded = seeding_s, True
        if baseline:
            bare = start_baseline(folder, tables, per_table, progress)
            interrupted = True
            try:
                report.baseline = run_loop(drive(
                    bare.url, tables, per_table, think=think, duration=duration, warmup=warmup,
                    server_pid=bare.process.pid, target="baseline", progress=progress, seed=seed,
                    concurrency=64, on_abort=bare.process.kill,
                ))
                interrupted = False
            except Exception:
                interrupted = False
                raise
            finally:
                bare.stop(grace=1.0 if interrupted else 20.0)
            if report.baseline.actions_per_s:
                report.ratio_to_baseline = report.actions_per_s / report.baseline.actions_per_s
        return report


def run_cluster(
    tables: int,
    per_table: int,
    *,
    gateways: int,
    workers: int,
    think: float,
    duration: float,
    database: str = CLUSTER_DATABASE,
    warmup: float = 5.0,
    progress: bool = True,
    seed: int | None = None,
    by_table: bool = False,
) -> Report:
    """The load test against a cluster on this machine: ``workers`` workers and ``gateways``
    gateways, a private nats-server, a schema of their own on ``database`` (dropped at the
    end), the bots seeded into it and dealt to the gateways in turn (``by_table``: each
    table's bots to one gateway, the tables in turn)."""
    schema = f"loadtest_{secrets.token_hex(4)}"
    bots = tables * per_table
    with tempfile.TemporaryDirectory(prefix="pokerroom-load-") as tmp:
        folder = Path(tmp)
        config = folder / "load.toml"
        config.write_text(room_toml(tables, per_table))
        cluster = LocalCluster(
            folder, database, schema, config, workers, gateways, drain=2.0, tied=True,
            gateway_flags=("--sockets-per-address", str(bots + 64), "--http-per-address", str(bots + 64),
                           "--max-connections", str(bots + 10_000)))
        interrupted = True
        try:
            began = time.monotonic()
            if progress:
                show_progress(f"seeding {bots} bot accounts into schema {schema}")
            seeded = asyncio.run(seed_accounts(database, bots, schema=schema))
            seeding_s = time.monotonic() - began
            if progress:
                show_progress(f"starting {workers} workers and {gateways} gateways\n")
            cluster.start()
            held = asyncio.run(_wait_for_balance(database, schema, tables, workers, progress))
            _wait_for_tables(cluster, tables, progress)

            async def parts() -> dict[str, list[int]]:
                return {"gateway": cluster.pids("g"), "worker": cluster.pids("w"),
                        "nats": cluster.pids("nats"), **await postgres_parts(database, schema)}

            report = run_loop(drive(
                cluster.urls, tables, per_table, think=think, duration=duration, warmup=warmup,
                server_pid=cluster.pids("g"), parts=parts, progress=progress, seed=seed, seeded=seeded,
                by_table=by_table,
                target=f"cluster of {gateways} gateways x {workers} workers",
                on_abort=lambda: cluster.stop(kill=True)))
            interrupted = False
        except Exception:
            interrupted = False
            raise
        finally:
            cluster.stop(kill=interrupted)
            for name in cluster.processes:
                check_log(folder / f"{name}.log", full=not interrupted)
            with contextlib.suppress(Exception):  # the database itself may be what failed
                asyncio.run(drop_schema(database, schema))
        report.accounts_s, report.seeded = seeding_s, True
        report.tables_per_worker, report.schema = held, schema
        return report


async def _wait_for_balance(database: str, schema: str, tables: int, workers: int, progress: bool,
                            timeout: float = 180.0) -> dict[str, int]:
    """Until every table is held and no worker holds more than its share (no table is
    handed over while measured); the tables each worker holds."""
    from pokerroom.store import Store, fair_share

    store = Store(database, schema)
    try:
        deadline = time.monotonic() + timeout
        while True:
            held: dict[str, int] = {}
            for lease in await store.leases():
                if lease.owner is not None and lease.expires_in > 0:
                    held[lease.owner] = held.get(lease.owner, 0) + 1
            if sum(held.values()) >= tables and max(held.values()) <= fair_share(tables, workers):
                return held
            if progress:
                show_progress(f"the workers hold {sorted(held.values())} of {tables} tables")
            if time.monotonic() > deadline:
                raise RuntimeError(f"the workers hold {held} of {tables} tables after {timeout:.0f} s")
            await asyncio.sleep(0.5)
    finally:
        await store.close()


def _wait_for_tables(cluster: LocalCluster, tables: int, progress: bool, timeout: float = 180.0) -> None:
    """Until every gateway's lobby lists every table (the workers have claimed them all)."""
    import httpx

    deadline = time.monotonic() + timeout
    for url in cluster.urls:
        while True:
            listed = len(httpx.get(f"{url}/api/tables", timeout=10.0).json()["tables"])
            if listed >= tables:
                break
            if progress:
                show_progress(f"{url}: {listed}/{tables} tables in the lobby")
            if time.monotonic() > deadline:
                raise RuntimeError(f"{url} lists {listed} of {tables} tables after {timeout:.0f} s")
            time.sleep(0.5)
