"""A load test of the room: N tables of K bots in this one process (asyncio, one WebSocket
connection each, no thread), against a room server started for the purpose (or one at a
URL). It measures, over ``duration`` seconds after a warm-up:

- hands/s and actions/s;
- the latency from a player's ``act`` being sent to the moment the LAST player of his table
  receives the resulting ``Acted`` event (matched by table + acting seat + event version):
  p50, p99, max in milliseconds;
- the server's memory per connection: VmRSS of the server process (``/proc/<pid>/status``)
  before and after the bots connect, divided by the connections.

The same clients can drive ``benchmarks/ws_baseline.py``, a bare uvicorn WebSocket
broadcast server with messages of the same sizes: the room's saturated actions/s as a
ratio to it (``pokerroom loadtest --think 0 --baseline``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from pokerroom.bots.client import PACE, Bot, Tally
from pokerroom.bots.strategies import strategy

BASELINE = Path(__file__).resolve().parents[3] / "benchmarks" / "ws_baseline.py"


def room_toml(tables: int, seats: int, action_time: float = 30.0) -> str:
    """A room config of ``tables`` no-limit 1/2 tables of ``seats`` seats, no pause."""
    parts = ["[room]\nstarting_balance = 1000000\ndaily_topup = 2000\npause = 0\n"]
    for i in range(tables):
        parts.append(
            f'[[table]]\nname = "T{i + 1:04d}"\ngame = "NLHE"\nsmall_blind = 1\nbig_blind = 2\n'
            f"seats = {seats}\nmin_buy_in = 40\nmax_buy_in = 200\naction_time = {action_time}\n"
            "time_bank = 0\ntime_bank_max = 0\ntime_bank_refill = 0\n"
        )
    return "\n".join(parts)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_kib(pid: int) -> int | None:
    """VmRSS of a process in KiB (Linux), None when unknown."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process so far (Linux), None when unknown."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


@dataclass
class Meter:
    """Send times of actions and arrivals of their Acted events, per table."""

    receivers: dict[str, int] = field(default_factory=dict)  # bots watching each table
    pending: dict[tuple[str, int], float] = field(default_factory=dict)  # (table, seat) -> sent
    arrivals: dict[tuple[str, int], list[Any]] = field(default_factory=dict)  # (table, version)
    latencies: list[float] = field(default_factory=list)
    measuring: bool = False
    unmatched: int = 0  # Acted events no bot's action explains (timeouts)

    def sent(self, table: str, seat: int | None) -> None:
        if seat is not None:
            self.pending[(table, seat)] = time.perf_counter()

    def acted(self, table: str, version: int, seat: int) -> None:
        key = (table, version)
        entry = self.arrivals.get(key)
        if entry is None:
            entry = [0, self.pending.pop((table, seat), None)]
            self.arrivals[key] = entry
        entry[0] += 1
        if entry[0] >= self.receivers.get(table, 1):
            del self.arrivals[key]
            if entry[1] is None:
                self.unmatched += 1
            elif self.measuring:
                self.latencies.append(time.perf_counter() - entry[1])


class LoadBot(Bot):
    """A Bot that timestamps its actions and the Acted events it receives; lighter loop."""

    def __init__(self, *args: Any, meter: Meter, gate: asyncio.Semaphore, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.meter = meter
        self.gate = gate
        self.connected = False
        self.token = ""
        self.preferred: int | None = None

    async def _send(self, ws: Any, message: dict[str, Any]) -> None:
        loop = asyncio.get_running_loop()
        wait = self._next_send - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        self._next_send = max(loop.time(), self._next_send) + PACE
        if message["type"] == "act":
            self.meter.sent(self.table, self.seat)
        await ws.send(json.dumps(message))

    async def prepare(self) -> None:
        """Register (argon2: a few at a time) and read the table, before any connection."""
        async with self.gate, httpx.AsyncClient(timeout=120) as client:
            self.token = await self.login(client)
            tables = (await client.get(f"{self.http}/api/tables")).json()["tables"]
        self.info = next(t for t in tables if t["name"] == self.table)

    async def _sit(self, ws: Any, view: dict[str, Any]) -> None:
        taken = {s["seat"] for s in view["seats"]}
        if self.preferred is not None and self.preferred not in taken:  # no collisions between bots
            self.seat, self.preferred = self.preferred, None
            await self._send(ws, {"type": "sit", "table": self.table, "seat": self.seat,
                                  "buy_in": self.info["max_buy_in"]})
            self.tally.seated += 1
            return
        await super()._sit(ws, view)

    async def run(self, stop: asyncio.Event | None = None) -> None:
        if not self.token:
            await self.prepare()
        token = self.token
        headers = {"Authorization": f"Bearer {token}"}
        async with websockets.connect(
            self.ws, additional_headers=headers, ping_interval=20 + self.rng.random() * 20,
            max_size=2**22, open_timeout=120,
        ) as ws:
            self.connected = True
            await self._send(ws, {"type": "subscribe", "table": self.table})
            async for raw in ws:
                m = json.loads(raw)
                if m.get("type") == "event":
                    e = m["event"]
                    if e.get("type") == "Acted":
                        self.meter.acted(m["table"], m["version"], e["player"])
                await self._on(ws, m)


@dataclass
class Report:
    target: str
    tables: int
    players_per_table: int
    think: float
    duration: float
    connections: int
    seated: int
    hands: int
    actions: int
    hands_per_s: float
    actions_per_s: float
    latency_samples: int
    p50_ms: float
    p99_ms: float
    max_ms: float
    rss_before_kib: int | None
    rss_after_kib: int | None
    kib_per_connection: float | None
    errors: dict[str, int]
    unmatched_acted: int
    failed_bots: int
    server_cpu: float | None = None  # share of one core the server used while measured
    client_cpu: float | None = None  # the same for this process (the bots)
    baseline: Report | None = None
    ratio_to_baseline: float | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def text(self) -> str:
        lines = [
            f"{self.target}: {self.tables} tables x {self.players_per_table} players, think {self.think} s, "
            f"{self.duration:.0f} s measured; {self.connections} connections, {self.seated} seated",
            f"  {self.hands} hands ({self.hands_per_s:.1f}/s), "
            f"{self.actions} actions ({self.actions_per_s:.1f}/s)",
            f"  act -> last Acted at the table: p50 {self.p50_ms:.1f} ms, p99 {self.p99_ms:.1f} ms, "
            f"max {self.max_ms:.1f} ms ({self.latency_samples} samples, {self.unmatched_acted} unmatched)",
        ]
        if self.kib_per_connection is not None:
            lines.append(
                f"  server RSS {self.rss_before_kib} KiB -> {self.rss_after_kib} KiB: "
                f"{self.kib_per_connection:.1f} KiB per connection"
            )
        if self.server_cpu is not None and self.client_cpu is not None:
            lines.append(f"  CPU (cores busy): server {self.server_cpu:.2f}, bots {self.client_cpu:.2f}")
        if self.errors or self.failed_bots:
            lines.append(f"  errors {self.errors}, {self.failed_bots} bots failed")
        if self.baseline is not None:
            lines.append(self.baseline.text())
            lines.append(f"room / bare server actions/s: {self.ratio_to_baseline:.3f}")
        return "\n".join(lines)


def _progress(text: str) -> None:
    print(f"\rloadtest: {text}\033[K", end="", file=sys.stderr, flush=True)


async def drive(
    url: str,
    tables: int,
    per_table: int,
    *,
    think: float,
    duration: float,
    warmup: float = 5.0,
    strategies: tuple[str, ...] = ("random", "station"),
    server_pid: int | None = None,
    target: str = "room",
    seed: int | None = None,
    progress: bool = True,
    concurrency: int = 8,
) -> Report:
    """Connect ``tables * per_table`` bots, warm up, measure ``duration`` seconds."""
    async with httpx.AsyncClient(timeout=30) as client:
        listed = (await client.get(f"{url}/api/tables")).json()["tables"][:tables]
    rng = random.Random(seed)
    tally, meter, gate = Tally(), Meter(), asyncio.Semaphore(concurrency)
    bots: list[LoadBot] = []
    tag = f"{rng.randrange(16**4):04x}"
    for t in listed:
        meter.receivers[t["name"]] = min(per_table, int(t["seats"]))
        for index in range(meter.receivers[t["name"]]):
            kind = strategies[len(bots) % len(strategies)]
            play = strategy(kind, random.Random(rng.random()))
            bot = LoadBot(url, f"lt{tag}{len(bots):06d}", t["name"], play, think=think, tally=tally,
                          rng=random.Random(rng.random()), meter=meter, gate=gate)
            bot.preferred = index + 1
            bots.append(bot)
    started = time.monotonic()
    preparing = asyncio.gather(*(b.prepare() for b in bots))
    while not preparing.done():
        if progress:
            _progress(f"registering {sum(bool(b.token) for b in bots)}/{len(bots)}, "
                      f"{time.monotonic() - started:.0f} s")
        await asyncio.wait([preparing], timeout=0.5)
    await preparing
    await asyncio.sleep(1.0)  # let the server settle (argon2 threads)
    rss_before = rss_kib(server_pid) if server_pid else None
    tasks = [asyncio.ensure_future(b.run()) for b in bots]
    try:
        while sum(b.seat is not None for b in bots) < len(bots) or sum(b.connected for b in bots) < len(bots):
            failed = sum(t.done() for t in tasks)
            if failed:
                raise RuntimeError(f"{failed} bots stopped while connecting: {_first_error(tasks)}")
            if progress:
                _progress(f"connecting {sum(b.connected for b in bots)}/{len(bots)}, seated {tally.seated}, "
                          f"{time.monotonic() - started:.0f} s")
            await asyncio.sleep(0.5)
        warm_end = time.monotonic() + warmup
        while time.monotonic() < warm_end:
            if progress:
                _progress(f"warming up, {tally.total_hands} hands, {tally.actions} actions")
            await asyncio.sleep(0.5)
        rss_after = rss_kib(server_pid) if server_pid else None
        hands0, actions0 = tally.total_hands, tally.actions
        meter.latencies.clear()
        meter.measuring = True
        cpu0 = (cpu_seconds(server_pid) if server_pid else None), time.process_time()
        t0 = time.monotonic()
        while (now := time.monotonic()) < t0 + duration:
            await asyncio.sleep(min(1.0, t0 + duration - now))
            if progress:
                elapsed = max(1e-9, time.monotonic() - t0)
                _progress(f"{elapsed:.0f}/{duration:.0f} s: "
                          f"{(tally.total_hands - hands0) / elapsed:.1f} hands/s, "
                          f"{(tally.actions - actions0) / elapsed:.1f} actions/s, "
                          f"p99 {1000 * _percentile(meter.latencies, 0.99):.1f} ms")
        elapsed = time.monotonic() - t0
        meter.measuring = False
        server_cpu = cpu_seconds(server_pid) if server_pid else None
        if server_cpu is not None and cpu0[0] is not None:
            server_cpu = (server_cpu - cpu0[0]) / elapsed
        client_cpu = (time.process_time() - cpu0[1]) / elapsed
        hands, actions = tally.total_hands - hands0, tally.actions - actions0
        latencies = list(meter.latencies)
        failed = sum(t.done() for t in tasks)
    finally:
        if progress:
            print(file=sys.stderr)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    per_conn = None
    if rss_before is not None and rss_after is not None:
        per_conn = (rss_after - rss_before) / len(bots)
    return Report(
        target=target, tables=len(listed), players_per_table=per_table, think=think, duration=elapsed,
        connections=len(bots), seated=sum(b.seat is not None for b in bots), hands=hands, actions=actions,
        hands_per_s=hands / elapsed, actions_per_s=actions / elapsed, latency_samples=len(latencies),
        p50_ms=1000 * _percentile(latencies, 0.5), p99_ms=1000 * _percentile(latencies, 0.99),
        max_ms=1000 * max(latencies, default=0.0), rss_before_kib=rss_before, rss_after_kib=rss_after,
        kib_per_connection=per_conn, errors=dict(tally.errors), unmatched_acted=meter.unmatched,
        failed_bots=failed, server_cpu=server_cpu, client_cpu=client_cpu,
    )


def _first_error(tasks: list[asyncio.Task[None]]) -> str:
    for t in tasks:
        if t.done() and not t.cancelled() and t.exception() is not None:
            return repr(t.exception())
    return "?"


class Spawned:
    """A server subprocess on a free port, ready once /healthz answers."""

    def __init__(self, command: list[str], port: int, log: Path) -> None:
        self.port = port
        self.log = log
        with log.open("ab") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/healthz", timeout=1.0).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError(f"the server did not become ready: {self.log.read_text()[-2000:]}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_room(folder: Path, tables: int, seats: int) -> Spawned:
    config = folder / "load.toml"
    config.write_text(room_toml(tables, seats))
    port = free_port()
    command = [sys.executable, "-m", "pokerroom.cli", "serve", "--port", str(port),
               "--db", f"sqlite:///{folder / 'load.db'}", "--config", str(config)]
    server = Spawned(command, port, folder / "server.log")
    server.wait_ready()
    return server


def start_baseline(folder: Path, tables: int, seats: int) -> Spawned:
    if not BASELINE.exists():
        raise RuntimeError(f"no baseline server at {BASELINE}")
    port = free_port()
    command = [sys.executable, str(BASELINE), "--port", str(port), "--tables", str(tables),
               "--seats", str(seats)]
    server = Spawned(command, port, folder / "baseline.log")
    server.wait_ready()
    return server


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
    """The whole load test, synchronously: servers started and stopped as needed."""
    with tempfile.TemporaryDirectory(prefix="pokerroom-load-") as tmp:
        folder = Path(tmp)
        server = None if url else start_room(folder, tables, per_table)
        try:
            target = url.rstrip("/") if url else server.url  # type: ignore[union-attr]
            pid = server.process.pid if server else None
            report = asyncio.run(drive(target, tables, per_table, think=think, duration=duration,
                                       warmup=warmup, server_pid=pid, progress=progress, seed=seed))
        finally:
            if server is not None:
                server.stop()
                _check_log(server.log)
        if baseline:
            bare = start_baseline(folder, tables, per_table)
            try:
                report.baseline = asyncio.run(drive(
                    bare.url, tables, per_table, think=think, duration=duration, warmup=warmup,
                    server_pid=bare.process.pid, target="baseline", progress=progress, seed=seed,
                    concurrency=64,
                ))
            finally:
                bare.stop()
            if report.baseline.actions_per_s:
                report.ratio_to_baseline = report.actions_per_s / report.baseline.actions_per_s
        return report


def _check_log(log: Path) -> None:
    text = log.read_text() if log.exists() else ""
    if "Traceback" in text:
        print(f"loadtest: the server logged errors:\n{text[-3000:]}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:  # python -m pokerroom.bots.loadtest
    from pokerroom.cli import main as cli_main

    return cli_main(["loadtest", *(argv if argv is not None else sys.argv[1:])])


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
