"""A room spread over processes on this machine (``make cluster``, ``pokerroom cluster``,
and the load test's cluster set-up): a private nats-server on a free port, workers and
gateways as child processes on one database (PostgreSQL, a schema of its own), each
stopped with the cluster. docs/deploy.md says how to run the same on several machines."""

from __future__ import annotations

import contextlib
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from pokerroom.loadtest.servers import die_with_parent, free_port


def nats_server() -> str:
    """Debian's nats-server (``make cluster`` installs it)."""
    found = shutil.which("nats-server") or next(
        (p for p in ("/usr/sbin/nats-server", "/usr/bin/nats-server") if Path(p).exists()), None)
    if found is None:
        raise RuntimeError("nats-server is not installed (Debian: apt-get install nats-server; "
                           "make cluster does)")
    return found


class LocalCluster:
    def __init__(self, folder: Path, database: str, schema: str | None, config: Path | None,
                 workers: int, gateways: int, drain: float = 10.0,
                 gateway_flags: tuple[str, ...] = (), tied: bool = False) -> None:
        self.folder, self.database, self.schema, self.config = folder, database, schema, config
        self.workers, self.gateways = workers, gateways
        self.gateway_flags = gateway_flags  # more `pokerroom gateway` options (limits...)
        self.drain = drain
        self.tied = tied  # the processes end with this one, however it ends (the load test)
        self.nats_port = free_port()
        self.ports = [free_port() for _ in range(gateways)]
        self.processes: dict[str, subprocess.Popen[bytes]] = {}

    @property
    def nats_url(self) -> str:
        return f"nats://127.0.0.1:{self.nats_port}"

    @property
    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{p}" for p in self.ports]

    def _spawn(self, name: str, command: list[str]) -> None:
        with (self.folder / f"{name}.log").open("ab") as log:  # the child keeps its own copy
            self.processes[name] = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, start_new_session=self.tied,
                preexec_fn=die_with_parent() if self.tied else None)

    def _role(self, role: str, name: str, *extra: str) -> list[str]:
        command = [sys.executable, "-m", "pokerroom.cli", role, "--db", self.database,
                   "--nats", self.nats_url, "--name", name, *extra]
        if self.schema:
            command += ["--schema", self.schema]
        if self.config is not None:
            command += ["--config", str(self.config)]
        return command

    def start(self, timeout: float = 60.0) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self._spawn("nats", [nats_server(), "-a", "127.0.0.1", "-p", str(self.nats_port)])
        for i in range(1, self.workers + 1):
            self._spawn(f"w{i}", self._role("worker", f"w{i}", "--drain", str(self.drain)))
        time.sleep(1.5)  # the workers see each other (and share the tables) before gateways come
        for i, port in enumerate(self.ports, 1):
            self._spawn(f"g{i}", self._role("gateway", f"g{i}", "--port", str(port), *self.gateway_flags))
        deadline = time.monotonic() + timeout
        for name, url in zip([f"g{i}" for i in range(1, self.gateways + 1)], self.urls, strict=True):
            while True:
                if self.processes[name].poll() is not None:
                    raise RuntimeError(f"{name} exited: {self.log(name)[-2000:]}")
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"{url}/healthz", timeout=1.0).status_code == 200:
                        break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{name} did not become ready: {self.log(name)[-2000:]}")
                time.sleep(0.1)

    def log(self, name: str) -> str:
        path = self.folder / f"{name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def pids(self, role: str) -> list[int]:
        """The process ids of the workers ('w'), gateways ('g') or the nats-server ('nats')."""
        return [p.pid for n, p in self.processes.items() if n == role or (role != "nats" and n[0] == role
                                                                          and n[1:].isdigit())]

    def stop(self, kill: bool = False) -> None:
        """Gateways first, then the workers (they hand their tables over), then NATS; with
        ``kill``, every process SIGKILLed (a crash of them all)."""
        order = sorted(self.processes, key=lambda n: {"g": 0, "w": 1}.get(n[0], 2))
        for name in order:
            process = self.processes[name]
            if process.poll() is None:
                process.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
                try:
                    process.wait(timeout=self.drain + 20)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


async def postgres_parts(database: str, schema: str) -> dict[str, list[int]]:
    """The PostgreSQL processes a cluster on ``schema`` costs: its connections (the
    backends named ``pokerroom:<schema>``, store/database.py) and the server's own
    background processes (WAL writer, checkpointer...), which every client shares."""
    rows = await _sql(database, "SELECT pid, application_name, backend_type FROM pg_stat_activity")
    return {
        "postgres": [r["pid"] for r in rows if r["application_name"] == f"pokerroom:{schema}"],
        "postgres (background)": [r["pid"] for r in rows if r["backend_type"] != "client backend"],
    }


async def drop_schema(database: str, schema: str) -> None:
    await _sql(database, f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


async def _sql(database: str, statement: str) -> list[Any]:
    """One statement on a connection of its own (asyncpg), its rows."""
    import asyncpg  # type: ignore[import-untyped]
    from sqlalchemy.engine import make_url

    dsn = make_url(database).set(drivername="postgresql").render_as_string(hide_password=False)
    connection = await asyncpg.connect(dsn)
    try:
        return list(await connection.fetch(statement))
    finally:
        await connection.close()
