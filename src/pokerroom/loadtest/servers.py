"""The servers a load test drives: the room (``pokerroom serve`` with a config of N
no-limit tables) or the bare WebSocket baseline, each a subprocess on a free port that never
outlives the load test; and what /proc tells of them (memory, CPU)."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from pokerroom.loadtest.report import show_progress

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



PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def die_with_parent() -> Callable[[], None] | None:
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
                                            start_new_session=True, preexec_fn=die_with_parent())

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
        show_progress(f"server pid {server.process.pid} at {server.url}, starting\n")
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



def check_log(log: Path, full: bool = True) -> None:
    text = log.read_text() if log.exists() else ""
    if "Traceback" not in text:
        return
    if full:
        print(f"loadtest: the server logged errors:\n{text[-3000:]}", file=sys.stderr)
    else:  # interrupted: a line, not the server's tracebacks
        print(f"loadtest: the server had logged {text.count('Traceback')} errors", file=sys.stderr)
