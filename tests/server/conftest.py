"""A real room server for the server tests: `pokerroom serve` in a subprocess on a free
loopback port, with a fresh database: an SQLite file always, and PostgreSQL whenever
POKERROOM_TEST_DATABASE_URL names one (then it must be reachable: the tests fail, never
skip)."""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

TEST_ROOM = """
[room]
starting_balance = 10000
daily_topup = 2000
pause = 0.05

[[table]]
name = "NL"
game = "NLHE"
small_blind = 1
big_blind = 2
seats = 6
min_buy_in = 40
max_buy_in = 200
action_time = {action_time}
time_bank = 0
time_bank_max = 0
time_bank_refill = 0

[[table]]
name = "FL"
game = "FLHE"
small_bet = 2
big_bet = 4
seats = 6
min_buy_in = 40
max_buy_in = 400
action_time = {action_time}
time_bank = 0
time_bank_max = 0
time_bank_refill = 0

[[table]]
name = "Stud"
game = "Stud"
small_bet = 10
big_bet = 20
ante = 1
bring_in = 3
seats = 8
min_buy_in = 200
max_buy_in = 1000
action_time = {action_time}
time_bank = 0
time_bank_max = 0
time_bank_refill = 0
"""


def _databases() -> list[str]:
    kinds = ["sqlite"]
    if os.environ.get("POKERROOM_TEST_DATABASE_URL"):
        kinds.append("postgresql")
    return kinds


@pytest.fixture(params=_databases())
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str | None]]:
    """(URL, schema) of an empty database for one test: an SQLite file, or a fresh schema
    of the PostgreSQL database (dropped afterwards)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'room.db'}", None
        return
    url = os.environ["POKERROOM_TEST_DATABASE_URL"]
    schema = f"test_{secrets.token_hex(6)}"
    yield url, schema
    asyncio.run(_drop_schema(url, schema))


async def _drop_schema(url: str, schema: str) -> None:
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await conn.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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
        self.config.write_text(TEST_ROOM.format(action_time=action_time))
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
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"the server exited: {self.log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.http}/healthz", timeout=1.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"the server did not become ready: {self.log.read_text()[-3000:]}")

    def stop(self, kill: bool = False) -> None:
        """Stop the server: SIGTERM and wait, or SIGKILL (a crash)."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def errors(self) -> str:
        """Tracebacks the server logged (a test that sees one should fail)."""
        text = self.log.read_text() if self.log.exists() else ""
        return text if "Traceback" in text else ""


class Room(Server):
    """A test server with ``pokerroom serve`` flags of its own and a registration limit."""

    def __init__(
        self, tmp_path: Path, database: tuple[str, str | None], *flags: str, registrations: int = 1000
    ) -> None:
        super().__init__(tmp_path, database, flags=flags)
        text = TEST_ROOM.format(action_time=2.0)
        setting = f"[room]\nregistrations_per_hour = {registrations}\n"
        self.config.write_text(text.replace("[room]\n", setting, 1))

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


@pytest.fixture
def server(tmp_path: Path, database: tuple[str, str | None]) -> Iterator[Server]:
    yield from serving(Server(tmp_path, database))


def run(coro: object) -> object:
    """Run a coroutine to completion in a fresh event loop (tests are plain functions)."""
    return asyncio.run(coro)  # type: ignore[arg-type]
