"""A real room server for the server tests: `pokerroom serve` in a subprocess on a free
loopback port, with the test room's config (tests/rooms.py)."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx

from pokerroom.config import load_room
from tests.rooms import FL24, NO_BANK, SIX, STUD, room, table


def server_room(action_time: float = 2.0, **settings: Any) -> str:
    """The server tests' room: tables NL (no-limit 1/2), FL (2/4) and Stud (10/20, ante 1,
    bring-in 3), no time bank, ``action_time`` seconds to act; room ``settings`` added to
    (or replacing) a starting balance of 10,000, a daily top-up of 2,000 and a 0.05 s pause."""
    clock = {"action_time": action_time, **NO_BANK}
    return room(
        table("NL", **SIX, **clock),
        table("FL", **FL24, **{**SIX, "max_buy_in": 400}, **clock),
        table("Stud", **STUD, seats=8, min_buy_in=200, max_buy_in=1000, **clock),
        **{"starting_balance": 10000, "daily_topup": 2000, "pause": 0.05, **settings},
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(
    process: subprocess.Popen[bytes], log: Path, url: str, what: str, timeout: float,
    ready: Callable[[httpx.Response], bool] = lambda r: r.status_code == 200,
) -> None:
    """Wait until ``url``/healthz answers ``ready`` from the child ``process`` (``what``, in
    the errors); its ``log``'s end in the error when it exits or is not ready in time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"{what} exited: {log.read_text()[-3000:]}")
        try:
            if ready(httpx.get(f"{url}/healthz", timeout=1.0)):
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise AssertionError(f"{what} did not become ready: {log.read_text()[-3000:]}")


def wait_or_kill(process: subprocess.Popen[bytes], timeout: float) -> None:
    """Wait ``timeout`` seconds for a child process told to stop, then kill it."""
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def tracebacks(log: Path) -> str:
    """The ``log`` if it has a traceback in it, else ''."""
    text = log.read_text() if log.exists() else ""
    return text if "Traceback" in text else ""


class Server:
    """`pokerroom serve` as a child process; ``start`` waits for /healthz."""

    def __init__(
        self, tmp_path: Path, database: tuple[str, str | None], action_time: float = 2.0,
        env: dict[str, str] | None = None, flags: tuple[str, ...] = (),
    ) -> None:
        self.database = database
        self.flags = flags  # more `pokerroom serve` options
        self.env = {**os.environ, **(env or {})}
        self.port = free_port()
        self.config = tmp_path / "room.toml"
        self.config.write_text(server_room(action_time))
        self.log = tmp_path / "server.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self, timeout: float = 30.0) -> None:
        url, schema = self.database
        command = [sys.executable, "-m", "pokerroom.cli", "serve", "--port", str(self.port), "--db", url,
                   "--config", str(self.config), *self.flags]
        if schema:
            command += ["--schema", schema]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=self.env)
        wait_healthy(self.process, self.log, self.http, "the server", timeout)

    def stop(self, kill: bool = False) -> None:
        """Stop the server: SIGTERM and wait, or SIGKILL (a crash)."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        wait_or_kill(self.process, 15)

    def errors(self) -> str:
        """Tracebacks the server logged (a test that sees one should fail)."""
        return tracebacks(self.log)


class ClusterServer(Server):
    """The same room spread over processes (issue 18): a private nats-server, two workers
    and a gateway on PostgreSQL (``database`` must be one), reached at the gateway's port;
    the test sees one server."""

    def __init__(self, tmp_path: Path, database: tuple[str, str | None], action_time: float = 2.0,
                 env: dict[str, str] | None = None, flags: tuple[str, ...] = ()) -> None:
        super().__init__(tmp_path, database, action_time, env, flags)
        self.cluster: Any = None

    def start(self, timeout: float = 60.0) -> None:
        from pokerroom.loadtest.cluster import LocalCluster

        url, schema = self.database
        assert url.startswith("postgresql"), "the cluster runs on PostgreSQL"
        self.cluster = LocalCluster(self.log.parent / "cluster", url, schema, self.config, workers=2,
                                    gateways=1, drain=5.0, gateway_flags=self.flags)
        self.cluster.ports = [self.port]
        try:
            self.cluster.start(timeout)
        except RuntimeError as e:
            self.cluster.stop(kill=True)
            raise AssertionError(str(e)) from None
        deadline = time.monotonic() + timeout  # the gateway knows every table
        room = load_room(self.config)
        tables = len(room.tables) + sum(t.min_free for t in room.templates)
        while httpx.get(f"{self.http}/healthz", timeout=2).json().get("tables") != tables:
            assert time.monotonic() < deadline, "the gateway did not learn every table"
            time.sleep(0.1)
        # and the workers share them already: no table changes hands (a new epoch) in the test
        share = -(-tables // 2)
        while True:
            owners = asyncio.run(_owners(url, schema))
            held = [o for o in owners if o is not None]
            if len(held) == tables and max(held.count(o) for o in set(held)) <= share:
                return
            assert time.monotonic() < deadline, f"the workers did not share the tables: {owners}"
            time.sleep(0.2)

    def stop(self, kill: bool = False) -> None:
        if self.cluster is not None:
            self.cluster.stop(kill=kill)

    def errors(self) -> str:
        if self.cluster is None:
            return ""
        logs = "".join(self.cluster.log(name) for name in self.cluster.processes)
        return logs if "Traceback" in logs else ""


async def _owners(url: str, schema: str | None) -> list[str | None]:
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(url, server_settings={"search_path": schema or "public"})
    try:
        return [r[0] for r in await conn.fetch(
            "SELECT CASE WHEN expires_at > extract(epoch from clock_timestamp()) THEN owner END "
            "FROM table_leases")]
    finally:
        await conn.close()


class Room(Server):
    """A test server with ``pokerroom serve`` flags of its own and a registration limit."""

    def __init__(
        self, tmp_path: Path, database: tuple[str, str | None], *flags: str, registrations: int = 1000
    ) -> None:
        super().__init__(tmp_path, database, flags=flags)
        self.config.write_text(server_room(2.0, registrations_per_hour=registrations))

    def rss(self) -> int:
        """The server's resident memory in bytes (/proc)."""
        assert self.process is not None
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        raise AssertionError("no VmRSS")


def serving(server: Server) -> Iterator[Server]:
    """Start ``server``, hand it over, stop it; then it must have logged no traceback."""
    server.start()
    try:
        yield server
    finally:
        server.stop()
    assert not server.errors(), server.errors()


def run(coro: object) -> object:
    """Run a coroutine to completion in a fresh event loop (tests are plain functions)."""
    return asyncio.run(coro)  # type: ignore[arg-type]
