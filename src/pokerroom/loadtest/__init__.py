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

The package: ``accounts`` (seeding them through the store's public API), ``players`` (the
bots that time their actions), ``drive`` (one measured run), ``servers`` (the subprocesses
and /proc), ``report``; ``run`` here puts them together for ``pokerroom loadtest``.

The same clients can drive ``benchmarks/ws_baseline.py``, a bare uvicorn WebSocket
broadcast server with messages of the same sizes: the room's saturated actions/s as a
ratio to it (``pokerroom loadtest --think 0 --baseline``).
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from pokerroom.loadtest.accounts import Seeded, seed_accounts
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

__all__ = [
    "STARTING_BALANCE", "Report", "Seeded", "Spawned", "drive", "percentile", "room_database", "room_toml",
    "run", "run_loop", "seed_accounts", "start_baseline", "start_room",
]

T = TypeVar("T")


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


def run_loop(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on uvloop's event loop when it is installed (uvicorn's standard
    extras bring it; the server runs on it too): thousands of bots' sockets cost about half
    the CPU of the default loop's."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)
