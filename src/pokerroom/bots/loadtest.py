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

The same clients can drive ``benchmarks/ws_baseline.py``, a bare uvicorn WebSocket
broadcast server with messages of the same sizes: the room's saturated actions/s as a
ratio to it (``pokerroom loadtest --think 0 --baseline``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx

from pokerroom.bots.client import Bot, Tally
from pokerroom.bots.strategies import strategy

T = TypeVar("T")
BASELINE = Path(__file__).resolve().parents[3] / "benchmarks" / "ws_baseline.py"
STARTING_BALANCE = 1_000_000  # the room config's starting_balance, granted to seeded bots too


def room_toml(tables: int, seats: int, action_time: float = 30.0) -> str:
    """A room config of ``tables`` no-limit 1/2 tables of ``seats`` seats, no pause."""
    parts = [f"[room]\nstarting_balance = {STARTING_BALANCE}\ndaily_topup = 2000\npause = 0\n"
             "registrations_per_hour = 1000000\n"]
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


@dataclass(frozen=True)
class Seeded:
    """Bot accounts written into the room's database before it started: names, a session
    token each (in the same order), and the password they share."""

    names: list[str]
    tokens: list[str]
    password: str


async def seed_accounts(
    database: str, count: int, *, grant: int = STARTING_BALANCE, chunk: int = 2000
) -> Seeded:
    """Create ``count`` bot accounts (lt000000, lt000001, ...) in the room's database, which
    the server must not be using yet: migrations, then ``Store.create_accounts`` (one
    transaction per ``chunk`` accounts). One argon2 hash serves them all (they share a
    password), each gets ``grant`` chips from the bank through the ledger, as at
    registration, and a session whose token its bot sends instead of logging in.

    A cancellation (Ctrl-C) lets the statement under way finish and stops at the next
    chunk: cancelled mid-statement, aiosqlite's thread would go on against a closed loop."""
    from pokerroom.gateway import auth
    from pokerroom.store import Store

    password = secrets.token_urlsafe(12)
    digest = auth._HASHER.hash(password)
    names = [f"lt{i:06d}" for i in range(count)]
    tokens = [secrets.token_urlsafe(32) for _ in names]
    hashes = [auth.token_hash(t) for t in tokens]
    stopping = asyncio.Event()

    async def seed() -> None:
        store = Store(database)
        try:
            await store.migrate()
            for i in range(0, count, chunk):
                if stopping.is_set():
                    return
                await store.create_accounts(
                    names[i : i + chunk], digest, grant, hashes[i : i + chunk], auth.SESSION_SECONDS
                )
        finally:
            await store.close()

    work = asyncio.ensure_future(seed())
    try:
        await asyncio.shield(work)
    except asyncio.CancelledError:
        stopping.set()
        await work
        raise
    return Seeded(names, tokens, password)


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
    """A Bot that timestamps its actions and the Acted events it receives, sits in the seat
    it is given (no collisions between bots) and buys in for the maximum."""

    def __init__(self, *args: Any, meter: Meter, gate: asyncio.Semaphore, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.meter = meter
        self.gate = gate
        self.connected = False
        self.preferred: int | None = None

    async def prepare(self) -> None:
        """Register (argon2: a few at a time) unless the account was seeded with a token, and
        read the table unless given, before any connection."""
        async with self.gate:
            await super().prepare()

    def on_connected(self) -> None:
        self.connected = True

    def sending(self, message: dict[str, Any]) -> None:
        if message["type"] == "act":
            self.meter.sent(self.table, self.seat)

    def on_event(self, e: dict[str, Any], version: int) -> None:
        if e.get("type") == "Acted":
            self.meter.acted(self.table, version, e["player"])
        super().on_event(e, version)

    def choose_seat(self, taken: set[int]) -> int | None:
        if self.preferred is not None and self.preferred not in taken:
            seat, self.preferred = self.preferred, None
            return seat
        return super().choose_seat(taken)

    def buy_in(self) -> int:
        return int(self.info["max_buy_in"])


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
    accounts_s: float | None = None  # seconds to have the bots' accounts (seeded or registered)
    seeded: bool = False  # the accounts were written into the database before the room started
    connect_s: float | None = None  # seconds from the first connection to every bot seated
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
        if self.accounts_s is not None and self.connect_s is not None:
            lines.append(f"  set-up: accounts {'seeded' if self.seeded else 'registered'} in "
                         f"{self.accounts_s:.1f} s, connected and seated in {self.connect_s:.1f} s")
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
    seeded: Seeded | None = None,
    on_abort: Callable[[], None] | None = None,
) -> Report:
    """Connect ``tables * per_table`` bots, warm up, measure ``duration`` seconds. The bots
    use the ``seeded`` accounts (in order) when given, else register over HTTP.
    ``on_abort`` is called first if the run stops before its end (Ctrl-C, bots failing):
    ``run`` kills the server it started there, which ends every connection at once (a
    saturated server would take seconds to answer thousands of closing handshakes)."""
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
            n = len(bots)
            if seeded is not None and n >= len(seeded.names):
                raise RuntimeError(f"{len(seeded.names)} seeded accounts for more bots")
            name = seeded.names[n] if seeded is not None else f"lt{tag}{n:06d}"
            bot = LoadBot(url, name, t["name"], play, think=think, tally=tally,
                          password=seeded.password if seeded is not None else None,
                          rng=random.Random(rng.random()), meter=meter, gate=gate)
            bot.token = seeded.tokens[n] if seeded is not None else ""
            bot.info = t
            bot.preferred = index + 1
            bots.append(bot)
    started = time.monotonic()
    accounts_s: float | None = None
    preparing: list[asyncio.Task[None]] = []
    tasks: list[asyncio.Task[None]] = []
    try:
        if any(not b.token for b in bots):
            preparing = [asyncio.ensure_future(b.prepare()) for b in bots]
            while not all(p.done() for p in preparing):
                if progress:
                    _progress(f"registering {sum(bool(b.token) for b in bots)}/{len(bots)}, "
                              f"{time.monotonic() - started:.0f} s")
                await asyncio.wait(preparing, timeout=0.5)
            await asyncio.gather(*preparing)
            accounts_s = time.monotonic() - started
            await asyncio.sleep(1.0)  # let the server settle (argon2 threads)
        rss_before = rss_kib(server_pid) if server_pid else None
        connecting = time.monotonic()
        tasks = [asyncio.ensure_future(b.run()) for b in bots]
        while sum(b.seat is not None for b in bots) < len(bots) or sum(b.connected for b in bots) < len(bots):
            failed = sum(t.done() for t in tasks)
            if failed:
                raise RuntimeError(f"{failed} bots stopped while connecting: {_first_error(tasks)}")
            if progress:
                _progress(f"connecting {sum(b.connected for b in bots)}/{len(bots)}, seated {tally.seated}, "
                          f"{time.monotonic() - connecting:.0f} s")
            await asyncio.sleep(0.5)
        connect_s = time.monotonic() - connecting
        if progress:
            _progress(f"{len(bots)} bots connected and seated in {connect_s:.1f} s\n")
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
    except BaseException:
        if on_abort is not None:
            on_abort()
        raise
    finally:
        if progress:
            print(file=sys.stderr)
        await _stop_all(preparing + tasks)
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
        accounts_s=accounts_s, connect_s=connect_s,
    )


async def _stop_all(tasks: list[asyncio.Task[None]]) -> None:
    """Cancel the bots: each closes its connection (``close_timeout`` bounds the wait for the
    server's answer); any still running a few seconds later is cancelled again."""
    for task in tasks:
        task.cancel()
    if not tasks:
        return
    _, late = await asyncio.wait(tasks, timeout=3.0)
    for task in late:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def _first_error(tasks: list[asyncio.Task[None]]) -> str:
    for t in tasks:
        if t.done() and not t.cancelled() and t.exception() is not None:
            return repr(t.exception())
    return "?"


PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def _die_with_parent() -> Callable[[], None] | None:
    """A ``preexec_fn`` after which the child gets SIGTERM when this process ends, however
    it ends, SIGKILL included (Linux: prctl(PR_SET_PDEATHSIG)); None elsewhere. The signal
    comes when the *thread* that started the child ends: start servers from the main thread."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    parent = os.getpid()

    def preexec() -> None:  # in the child, between fork and exec
        prctl(ctypes.c_int(PR_SET_PDEATHSIG), ctypes.c_ulong(signal.SIGTERM))
        if os.getppid() != parent:  # the parent died before prctl: no signal will come
            os._exit(1)

    return preexec


class Spawned:
    """A server subprocess on a free port, ready once /healthz answers. It never outlives
    this process: it runs in a session of its own (a Ctrl-C at the terminal reaches only
    the load test, which then stops it) and gets SIGTERM if the load test dies."""

    def __init__(self, command: list[str], port: int, log: Path) -> None:
        self.port = port
        self.log = log
        with log.open("ab") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                            start_new_session=True, preexec_fn=_die_with_parent())

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

    def stop(self, grace: float = 20.0) -> None:
        """SIGTERM, then SIGKILL after ``grace`` seconds (or at another Ctrl-C); reaped."""
        try:
            if self.process.poll() is None:
                self.process.terminate()
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.process.wait(timeout=grace)
        finally:
            if self.process.poll() is None:
                self.process.kill()
            self.process.wait()


def _ready(server: Spawned, progress: bool) -> Spawned:
    if progress:
        _progress(f"server pid {server.process.pid} at {server.url}, starting\n")
    try:
        server.wait_ready()
    except BaseException:
        server.stop(grace=1.0)
        raise
    return server


def room_database(folder: Path) -> str:
    return f"sqlite:///{folder / 'load.db'}"


def start_room(folder: Path, tables: int, seats: int, progress: bool = False) -> Spawned:
    config = folder / "load.toml"
    config.write_text(room_toml(tables, seats))
    port = free_port()
    n = tables * seats  # every bot connects from this one address: the room's caps per address make room
    command = [sys.executable, "-m", "pokerroom.cli", "serve", "--port", str(port),
               "--db", room_database(folder), "--config", str(config),
               "--sockets-per-address", str(n + 64), "--http-per-address", str(n + 64),
               "--max-connections", str(n + 10_000)]
    return _ready(Spawned(command, port, folder / "server.log"), progress)


def start_baseline(folder: Path, tables: int, seats: int, progress: bool = False) -> Spawned:
    if not BASELINE.exists():
        raise RuntimeError(f"no baseline server at {BASELINE}")
    port = free_port()
    command = [sys.executable, str(BASELINE), "--port", str(port), "--tables", str(tables),
               "--seats", str(seats)]
    return _ready(Spawned(command, port, folder / "baseline.log"), progress)


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
                    _progress(f"seeding {tables * per_table} bot accounts")
                seeded = asyncio.run(seed_accounts(room_database(folder), tables * per_table))
                seeding_s = time.monotonic() - began
                if progress:
                    _progress(f"{len(seeded.names)} bot accounts seeded in {seeding_s:.1f} s\n")
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
                _check_log(server.log, full=not interrupted)
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


def _check_log(log: Path, full: bool = True) -> None:
    text = log.read_text() if log.exists() else ""
    if "Traceback" not in text:
        return
    if full:
        print(f"loadtest: the server logged errors:\n{text[-3000:]}", file=sys.stderr)
    else:  # interrupted: a line, not the server's tracebacks
        print(f"loadtest: the server had logged {text.count('Traceback')} errors", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:  # python -m pokerroom.bots.loadtest
    from pokerroom.cli import main as cli_main

    return cli_main(["loadtest", *(argv if argv is not None else sys.argv[1:])])


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
