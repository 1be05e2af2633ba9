"""A short load test through a real room server: the report's figures are sane; the bots'
accounts seeded into the room's database balance the ledger and work over the API; the
load test stops on Ctrl-C or SIGTERM and never leaves its server running, even when killed."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select, text

from pokerroom.config import load_room
from pokerroom.loadtest import (
    STARTING_BALANCE,
    percentile,
    room_database,
    room_toml,
    run,
    seed_accounts,
    start_room,
)
from pokerroom.store import Store, StoreError
from pokerroom.store.schema import accounts, ledger
from tests.server.helpers import audit, rows

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and PR_SET_PDEATHSIG")


def test_room_toml_is_a_valid_room(tmp_path):
    path = tmp_path / "load.toml"
    path.write_text(room_toml(3, 4))
    room = load_room(str(path))
    assert len(room.tables) == 3 and room.pause == 0
    assert room.starting_balance == STARTING_BALANCE


def test_percentile():
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) in (50.0, 51.0)
    assert percentile(values, 0.99) == 99.0
    assert percentile([], 0.99) == 0.0


def test_short_load_test_reports_sane_numbers():
    """The bots' accounts are seeded (no registration): they connect with their tokens, sit
    and play."""
    report = run(3, 4, think=0.05, duration=5, warmup=1, progress=False, seed=1)
    assert report.seeded and report.accounts_s is not None and report.connect_s is not None
    assert report.connections == 12 and report.seated == 12
    assert report.hands > 0 and report.actions > 0
    assert report.hands_per_s > 0 and report.actions_per_s > 0
    assert report.latency_samples > 0
    assert 0 < report.p50_ms <= report.p99_ms <= report.max_ms
    assert report.rss_before_kib and report.rss_after_kib
    assert report.kib_per_connection is not None and report.kib_per_connection > 0
    assert report.failed_bots == 0
    assert set(report.errors) <= {"seat_taken"}
    assert report.errors_measured == {}  # a seat taken is found while sitting down, before
    assert report.to_json()["actions"] == report.actions


def test_a_crowd_sitting_down_at_once_never_finds_its_tables_moving():
    """``pokerroom serve`` with 1,800 bots sitting down at once at 300 tables: the worker's
    lease renewals go on however busy the room's database is with their buy-ins. They had
    waited behind its reading of the all-in protections, seconds long in such a burst, and
    the tables, their leases lapsing by their own clock, refused every command as moving
    to another server (787 notices here before; 25,000-39,000 at 1,000 tables)."""
    report = run(300, 6, think=1.0, duration=3, warmup=1, progress=False, seed=3)
    assert report.seated == 1800 and report.failed_bots == 0
    assert report.errors.get("table_moving", 0) == 0, report.errors
    assert report.errors.get("table_unavailable", 0) == 0, report.errors


def test_against_a_url_the_bots_register_over_http(tmp_path):
    server = start_room(tmp_path, 2, 3)
    try:
        report = run(2, 3, think=0.05, duration=1, warmup=0, url=server.url, progress=False, seed=2)
    finally:
        server.stop()
    assert not report.seeded and report.accounts_s is not None
    assert report.seated == 6 and report.failed_bots == 0 and report.actions > 0


async def _audit(database: str) -> dict[str, int]:
    """The ledger audit of the server tests, and how many accounts and transactions."""
    store = Store(database)
    try:
        totals = await audit(store)
        count = len(await rows(store, select(accounts.c.id)))
        transactions = len(await rows(store, select(ledger.c.txn).distinct()))
        return {**totals, "accounts": count, "transactions": transactions}
    finally:
        await store.close()


def test_seeded_accounts_balance_the_ledger_and_work_over_the_api(tmp_path):
    database = room_database(tmp_path)
    seeded = asyncio.run(seed_accounts(database, 5))
    assert len(set(seeded.tokens)) == 5 and seeded.names[0] == "lt000000"
    totals = asyncio.run(_audit(database))
    assert totals == {
        "balances": 5 * STARTING_BALANCE,
        "seats": 0,
        "granted": 5 * STARTING_BALANCE,
        "ledger_sum": 0,
        "accounts": 5,
        "transactions": 5,
    }

    async def again() -> None:  # all or nothing: a name taken adds no account
        store = Store(database)
        try:
            with pytest.raises(StoreError) as taken:
                await store.create_accounts(["fresh01", "LT000003"], "hash", 10)
            assert taken.value.code == "name_taken"
            assert await store.account_by_name("fresh01") is None
        finally:
            await store.close()

    asyncio.run(again())
    server = start_room(tmp_path, 1, 5)
    try:
        me = httpx.get(f"{server.url}/api/me", headers={"Authorization": f"Bearer {seeded.tokens[2]}"})
        assert me.status_code == 200
        assert me.json() == {"name": "lt000002", "balance": STARTING_BALANCE, "at_tables": 0}
        login = httpx.post(f"{server.url}/api/login", json={"name": "lt000004", "password": seeded.password})
        assert login.status_code == 200 and login.json()["balance"] == STARTING_BALANCE
        wrong = httpx.post(f"{server.url}/api/login", json={"name": "lt000004", "password": "not-the-one"})
        assert wrong.status_code == 401
    finally:
        server.stop()
    assert server.process.returncode is not None


# --------------------------------------------------------------------------- stopping


def _running(pid: int) -> bool:
    """A process that exists and is not a zombie (an orphan's zombie waits for init)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _wait_until(condition, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return condition()


class LoadTest:
    """``pokerroom loadtest`` as a subprocess (2 tables of 3, long run), its stderr in a file."""

    def __init__(self, tmp_path: Path) -> None:
        self.stderr = tmp_path / "stderr.txt"
        env = {**os.environ, "TMPDIR": str(tmp_path), "PYTHONUNBUFFERED": "1"}  # leftovers stay in tmp_path
        command = [
            sys.executable,
            "-m",
            "pokerroom.cli",
            "loadtest",
            "--tables",
            "2",
            "--players-per-table",
            "3",
            "--think",
            "0.05",
            "--duration",
            "120",
            "--warmup",
            "0",
        ]
        with self.stderr.open("wb") as err:
            self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err, env=env)
        self.server_pid: int | None = None

    def text(self) -> str:
        return self.stderr.read_text(errors="replace")

    def wait_for(self, marker: str, timeout: float = 60.0) -> None:
        found = _wait_until(lambda: marker in self.text() or self.process.poll() is not None, timeout)
        assert found and self.process.poll() is None, f"no {marker!r}: {self.text()[-2000:]}"
        if self.server_pid is None and (m := re.search(r"server pid (\d+)", self.text())):
            self.server_pid = int(m.group(1))

    def close(self) -> None:  # whatever happened, nothing left running
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        if self.server_pid is not None and _running(self.server_pid):
            os.kill(self.server_pid, signal.SIGKILL)


@linux_only
def test_a_killed_load_test_leaves_no_server(tmp_path):
    load = LoadTest(tmp_path)
    try:
        load.wait_for("connected and seated")
        assert load.server_pid is not None and _running(load.server_pid)
        load.process.kill()
        load.process.wait()
        assert _wait_until(lambda: not _running(load.server_pid), 5.0), "the server outlived the load test"
    finally:
        load.close()


@linux_only
@pytest.mark.parametrize(
    ("phase", "signum"),
    [
        ("connected and seated", signal.SIGINT),  # playing
        ("connected and seated", signal.SIGTERM),
        ("server pid", signal.SIGINT),  # the server is starting
    ],
    ids=["sigint-playing", "sigterm-playing", "sigint-starting"],
)
def test_ctrl_c_or_sigterm_stops_the_load_test_and_its_server(tmp_path, phase, signum):
    load = LoadTest(tmp_path)
    try:
        load.wait_for(phase)
        assert load.server_pid is not None
        sent = time.monotonic()
        load.process.send_signal(signum)
        load.process.wait(timeout=10)
        took = time.monotonic() - sent
        text = load.text()
        assert load.process.returncode == 128 + signum, text
        assert "Traceback" not in text, text
        assert "pokerroom loadtest: stopped" in text
        assert took < 4.0, f"took {took:.1f} s to stop"
        assert not Path(f"/proc/{load.server_pid}").exists(), "the server was not stopped and reaped"
    finally:
        load.close()


FAKE_RUN = """
import os, sys, time

import pokerroom.loadtest
from pokerroom.cli import main


def run(*args, **kwargs):  # the signal lands in a string exec(), as in a dataclass being made
    exec("os.kill(os.getpid(), {signum})\\nwhile time.monotonic() < 1e12: pass", {{"os": os, "time": time}})


pokerroom.loadtest.run = run
sys.exit(main(["loadtest"]))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["sigint", "sigterm"])
def test_an_interrupt_raised_inside_exec_still_exits_with_128_plus_the_signal(tmp_path, signum):
    """A KeyboardInterrupt that passes through a string exec() (dataclasses and namedtuple make
    their methods so: a lazy import under Ctrl-C) marks the interpreter as ended by an unhandled
    Ctrl-C even though _loadtest handles it, and ``python -m`` then exits by SIGINT (-2)."""
    (tmp_path / "fake_loadtest.py").write_text(FAKE_RUN.format(signum=int(signum)))
    done = subprocess.run([sys.executable, "-m", "fake_loadtest"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 128 + signum, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    assert "pokerroom loadtest: stopped" in done.stderr


def test_a_cluster_load_test_measures_each_part_and_leaves_nothing_behind():
    """``--gateways 2 --workers 2``: a private nats-server, two workers holding half the
    tables each, two gateways with the bots dealt to them in turn; the CPU of every part
    measured; its PostgreSQL schema dropped at the end."""
    database = os.environ.get("POKERROOM_TEST_DATABASE_URL") or "postgresql://postgres@127.0.0.1:5432/test"
    done = subprocess.run(
        [sys.executable, "-m", "pokerroom.cli", "loadtest", "--gateways", "2", "--workers", "2",
         "--db", database, "--tables", "4", "--players-per-table", "3", "--think", "0.05",
         "--duration", "4", "--warmup", "1", "--seed", "3", "--json"],
        capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout)
    assert report["connections"] == 12 and report["seated"] == 12 and report["failed_bots"] == 0
    assert report["hands"] > 0 and report["actions"] > 0 and report["latency_samples"] > 0
    assert report["tables_per_worker"] == {"w1": 2, "w2": 2}
    parts = report["parts_cpu"]
    for part in ("gateway", "worker", "nats", "postgres"):
        assert parts[part] > 0, parts
    assert report["server_cpu"] == pytest.approx(sum(parts.values()))
    assert report["kib_per_connection"] is not None  # the gateways' memory

    async def schemas() -> list[str]:
        store = Store(database)
        try:
            async with store.engine.connect() as conn:
                found = await conn.execute(text("SELECT schema_name FROM information_schema.schemata"))
                return [r[0] for r in found]
        finally:
            await store.close()

    assert report["schema"].startswith("loadtest_") and report["schema"] not in asyncio.run(schemas())


@pytest.mark.parametrize("argv", [
    ["--gateways", "2"], ["--workers", "2"], ["--db", "postgresql://x/y"], ["--by-table"],
    ["--gateways", "2", "--workers", "2", "--url", "http://127.0.0.1:1"],
])
def test_cluster_options_that_do_not_go_together_are_refused(argv):
    done = subprocess.run([sys.executable, "-m", "pokerroom.cli", "loadtest", *argv],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "loadtest: error:" in done.stderr, done.stderr
