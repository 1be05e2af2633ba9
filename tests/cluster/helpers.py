"""A room spread over processes on this machine, for the cluster tests: a private
nats-server on a free port, a PostgreSQL schema of its own, workers and gateways as
`pokerroom worker` and `pokerroom gateway` child processes (issue 18)."""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from pokerroom.bots import Bot, Tally, crowd
from tests.rooms import FL24, NO_BANK, SIX, STUD, room, table
from tests.server.helpers.servers import free_port, tracebacks, wait_healthy, wait_or_kill

DATABASE = os.environ.get("POKERROOM_TEST_DATABASE_URL") or "postgresql://postgres@127.0.0.1:5432/test"


def cluster_room(action_time: float = 3.0) -> str:
    """Six small tables (four hold'em, one fixed limit, one stud), quick clocks, a short pause."""
    clock = {"action_time": action_time, **NO_BANK}
    return room(
        *(table(f"NL{i}", **SIX, **clock) for i in range(1, 5)),
        table("FL", **FL24, **{**SIX, "max_buy_in": 400}, **clock),
        table("Stud", **STUD, seats=8, min_buy_in=200, max_buy_in=1000, **clock),
        starting_balance=10000, daily_topup=2000, pause=0.2, registrations_per_hour=10_000,
    )


def nats_binary() -> str:
    found = shutil.which("nats-server") or ("/usr/sbin/nats-server" if Path("/usr/sbin/nats-server").exists()
                                             else None)
    assert found, "nats-server is needed (Debian's package: make test installs it)"
    return found


class Nats:
    """A private nats-server on a free loopback port."""

    def __init__(self, tmp_path: Path) -> None:
        self.port = free_port()
        self.log = tmp_path / "nats.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen([nats_binary(), "-a", "127.0.0.1", "-p", str(self.port)],
                                            stdout=log, stderr=subprocess.STDOUT)
        import socket

        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise AssertionError(f"nats-server did not start: {self.log.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


class Proc:
    """One `pokerroom worker` or `pokerroom gateway`."""

    def __init__(self, cluster: Cluster, role: str, name: str) -> None:
        self.cluster, self.role, self.name = cluster, role, name
        self.port = free_port() if role == "gateway" else 0
        self.log = cluster.tmp_path / f"{name}.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Proc:
        c = self.cluster
        command = [sys.executable, "-m", "pokerroom.cli", self.role, "--db", DATABASE, "--schema", c.schema,
                   "--nats", c.nats.url, "--name", self.name, "--config", str(c.config)]
        if self.role == "gateway":
            command += ["--port", str(self.port)]
        else:
            command += ["--drain", str(c.drain)]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        if self.role == "gateway":
            self.wait_ready()
        return self

    def wait_ready(self, timeout: float = 30.0) -> None:
        assert self.process is not None
        tables = len(self.cluster.tables)
        wait_healthy(self.process, self.log, self.http, self.name, timeout,
                     lambda r: r.status_code == 200 and r.json()["tables"] == tables)

    def signal(self, sig: signal.Signals) -> None:
        assert self.process is not None
        self.process.send_signal(sig)

    def stop(self, timeout: float = 60.0) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGCONT)
        self.process.terminate()
        wait_or_kill(self.process, timeout)

    def errors(self) -> str:
        return tracebacks(self.log)


class Cluster:
    def __init__(self, tmp_path: Path, drain: float = 10.0) -> None:
        self.tmp_path = tmp_path
        self.schema = f"cluster_{secrets.token_hex(5)}"
        self.config = tmp_path / "room.toml"
        self.config.write_text(cluster_room())
        self.tables = ["NL1", "NL2", "NL3", "NL4", "FL", "Stud"]
        self.nats = Nats(tmp_path)
        self.drain = drain
        self.procs: dict[str, Proc] = {}

    def start(self, workers: int, gateways: int) -> None:
        self.nats.start()
        for i in range(1, workers + 1):
            self.procs[f"w{i}"] = Proc(self, "worker", f"w{i}").start()
        time.sleep(1.5)  # the workers see each other before the gateways come
        for i in range(1, gateways + 1):
            self.procs[f"g{i}"] = Proc(self, "gateway", f"g{i}").start()

    def gateways(self) -> list[Proc]:
        return [p for p in self.procs.values() if p.role == "gateway"]

    def stop(self) -> None:
        for p in self.procs.values():
            p.stop()
        self.nats.stop()
        if not os.environ.get("POKERROOM_KEEP_SCHEMA"):  # to look at a failed run's rows
            asyncio.run(_drop(self.schema))

    def status(self) -> dict[str, Any]:
        out = subprocess.run([sys.executable, "-m", "pokerroom.cli", "status", "--db", DATABASE, "--schema",
                              self.schema, "--nats", self.nats.url, "--json"], capture_output=True, text=True,
                             timeout=60)
        return json.loads(out.stdout)  # type: ignore[no-any-return]

    def audit(self) -> tuple[int, dict[str, Any]]:
        out = subprocess.run([sys.executable, "-m", "pokerroom.cli", "audit", "--db", DATABASE, "--schema",
                              self.schema, "--json"], capture_output=True, text=True, timeout=120)
        return out.returncode, json.loads(out.stdout)

    def stop_and_audit(self) -> None:
        """Stop every process (the workers' hands end first), then `pokerroom audit`: clean."""
        for p in self.procs.values():
            p.stop()
        code, report = self.audit()
        assert code == 0 and report["balanced"] and report["problems"] == [], report

    def errors(self) -> dict[str, str]:
        return {n: e for n, p in self.procs.items() if (e := p.errors())}


async def _drop(schema: str) -> None:
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(DATABASE)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await conn.close()


async def query(schema: str, sql: str, *args: Any) -> list[Any]:
    import asyncpg

    conn = await asyncpg.connect(DATABASE, server_settings={"search_path": schema})
    try:
        return list(await conn.fetch(sql, *args))
    finally:
        await conn.close()


# ---------------------------------------------------------------- what the tests share

def seat_bots(cluster: Cluster, per_table: int = 3, think: float = 0.05,
              seed: int = 1) -> tuple[list[Bot], Tally]:
    """Bots at every table, half through each gateway."""
    tally = Tally()
    bots: list[Bot] = []
    for k, gateway in enumerate(cluster.gateways()):
        tables = httpx.get(f"{gateway.http}/api/tables", timeout=10).json()["tables"]
        share = {t["name"]: per_table // 2 + (per_table % 2 if k == 0 else 0) for t in tables}
        others = [g.http for g in cluster.gateways() if g is not gateway]
        bots += crowd(gateway.http, sum(share.values()), tables, strategies=["solid", "station", "random"],
                      think=think, seed=seed + k, tally=tally, per_table=share, prefix=f"b{k}", others=others)
    return bots, tally


async def settled_by_table(cluster: Cluster) -> dict[str, int]:
    rows = await query(cluster.schema, "SELECT table_name, count(*) FROM hands WHERE status = 'complete' "
                       "GROUP BY table_name")
    return {r[0]: int(r[1]) for r in rows}


async def until(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await predicate():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


async def balanced(cluster: Cluster) -> bool:
    """The three workers share the six tables: two each."""
    held = [o for o, _ in (await owners(cluster)).values()]
    return None not in held and all(held.count(w) == 2 for w in ("w1", "w2", "w3"))


async def every_table_played(cluster: Cluster, hands: int) -> bool:
    done = await settled_by_table(cluster)
    return all(done.get(t, 0) >= hands for t in cluster.tables)


async def owners(cluster: Cluster) -> dict[str, tuple[str | None, int]]:
    """table -> (owner while its lease holds, epoch), from the database (what `pokerroom
    status` reads; the test checks that command's output once, the polls read directly)."""
    rows = await (query(cluster.schema, "SELECT table_name, CASE WHEN expires_at > "
                             "extract(epoch from clock_timestamp()) THEN owner END, epoch FROM table_leases"))
    return {r[0]: (r[1], int(r[2])) for r in rows}


class Observer:
    """A watcher of one table through one gateway that keeps every version it is sent."""

    def __init__(self, gateway: str, table: str) -> None:
        self.url = gateway.replace("http://", "ws://") + "/ws"
        self.table = table
        self.versions: list[tuple[str, int]] = []  # (kind, version)
        self.task: asyncio.Task[None] | None = None

    async def run(self) -> None:
        import websockets

        async with websockets.connect(self.url) as ws:
            await ws.send(json.dumps({"type": "subscribe", "table": self.table, "snapshots": True}))
            async for raw in ws:
                m = json.loads(raw)
                if m.get("table") != self.table:
                    continue
                if m["type"] == "snapshot":
                    self.versions.append(("snapshot", m["version"]))
                elif m["type"] == "events":
                    self.versions += [("event", e["version"]) for e in m["events"]]

    def start(self) -> None:
        self.task = asyncio.ensure_future(self.run())

    async def stop(self) -> None:
        assert self.task is not None
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)

    def check(self) -> None:
        """Versions never go back: nothing of an older owner came after the new one's."""
        seen = [v for _, v in self.versions]
        assert seen == sorted(seen), (self.table, self.versions)


async def more_hands(cluster: Cluster, before: dict[str, int]) -> bool:
    done = await settled_by_table(cluster)
    return all(done.get(t, 0) > before.get(t, 0) for t in cluster.tables)


async def settled_twice(cluster: Cluster) -> list[Any]:
    """Hands of a table settled more than once under one number (there must be none)."""
    return await query(cluster.schema, "SELECT table_name, number FROM hands WHERE status = 'complete' "
                       "GROUP BY table_name, number HAVING count(*) > 1")
