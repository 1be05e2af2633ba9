"""The room's own CPU per action, in-process: no network, no WebSocket layer.

A real table ``Worker`` over a real ``Store`` (a temporary SQLite file, or ``--db`` a
PostgreSQL URL), reached through the in-process bus as ``pokerroom serve`` wires it
(bus/local.py: ``LocalTransport``, the worker's ``TableHost``, the gateway's ``Router``);
``--tables`` no-limit 1/2 tables of 6 seats (pause 0, as ``pokerroom loadtest`` configures
them) and 6 in-process fake players per table. A fake player is a ``Connection`` whose
``send`` turns the message into its JSON text as the real transport does, then reads what
it needs: on ``your_turn`` it picks a random legal action (the bots' ``random`` strategy)
and sends its JSON text, with no think time: the text arrives in the next turn of the
event loop, as a frame would, and goes through what the WebSocket handler (gateway/ws.py)
does with a frame: ``p.CLIENT.validate_json``, then ``Router.submit``, one command at a
time (the next waits for the table's answer to the last). It buys in again when it busts,
sits in when sat out, and posts when asked.

It prints actions/s, hands/s and CPU ms per action: ``time.process_time()`` (all the
process's threads: aiosqlite's too) over the measured window divided by the actions
sent. "room" is that minus the fake players' own reading and deciding (timed as they go);
the serialization in ``send`` and the validation of each command count as the room's, as
in the server. The players never wait, so the room runs flat out on one core: its cost
per action, not its latency, is what this measures.

    .venv/bin/python benchmarks/room_cpu.py --tables 50 --seconds 20
    .venv/bin/python benchmarks/room_cpu.py --tables 50 --seconds 20 --profile /tmp/room.prof
    .venv/bin/python benchmarks/room_cpu.py --db postgresql+asyncpg://postgres@127.0.0.1:5432/test
    .venv/bin/python benchmarks/room_cpu.py --both    # SQLite and PostgreSQL, 3 runs each: the ratio
    .venv/bin/py-spy record --gil -r 500 -o /tmp/room.svg -- .venv/bin/python benchmarks/room_cpu.py

``--profile`` (cProfile) slows the room about twofold, calls more than the rest; py-spy
does not (``--gil``: the samples of the thread that runs Python, event loop or not).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import json
import pstats
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from pathlib import Path
from typing import Any

from pokerroom import protocol as p
from pokerroom.bots.strategies import Turn, strategy
from pokerroom.bus import PREFIX
from pokerroom.bus.gateway import Router
from pokerroom.bus.tables import TableHost
from pokerroom.bus.transport import LocalTransport
from pokerroom.config import parse_room
from pokerroom.gateway.connection import Connection
from pokerroom.store import Store
from pokerroom.worker.room import Worker

SEATS = 6
MIN_BUY_IN, MAX_BUY_IN = 40, 200
STARTING_BALANCE = 1_000_000_000


def room_toml(tables: int, seats: int = SEATS, action_time: float = 30.0) -> str:
    """As ``pokerroom.loadtest.room_toml``: no-limit 1/2 tables, no pause."""
    parts = [f"[room]\nstarting_balance = {STARTING_BALANCE}\ndaily_topup = 2000\npause = 0\n"]
    for i in range(tables):
        parts.append(
            f'[[table]]\nname = "T{i + 1:04d}"\ngame = "NLHE"\nsmall_blind = 1\nbig_blind = 2\n'
            f"seats = {seats}\nmin_buy_in = {MIN_BUY_IN}\nmax_buy_in = {MAX_BUY_IN}\n"
            f"action_time = {action_time}\ntime_bank = 0\ntime_bank_max = 0\ntime_bank_refill = 0\n"
        )
    return "\n".join(parts)


class Counters:
    def __init__(self) -> None:
        self.actions = 0
        self.messages = 0
        self.bytes = 0
        self.client_seconds = 0.0  # the fake players' own reading and deciding
        self.errors: dict[str, int] = {}
        self.commands: dict[str, int] = {}  # sent, by type


class FakePlayer(Connection):
    """A seated player in this process: ``send`` is what the server's transport gets."""

    def __init__(self, player: str, account_id: int, *, bus: Router, table: str, seat: int,
                 counters: Counters, rng: random.Random) -> None:
        super().__init__(player, account_id)
        self.bus = bus
        self.table_name = table
        self.seat = seat
        self.counters = counters
        self.rng = rng
        self.play = strategy("random", rng)
        self.name_json = json.dumps(player)  # as his name appears in the events sent
        self.loop = asyncio.get_running_loop()
        self.inbox: deque[Any] = deque()  # commands received, waiting for the last one's table
        self.busy = False

    def send(self, message: Any) -> None:
        text = message if type(message) is str else message.model_dump_json()
        started = time.perf_counter()
        counters = self.counters
        counters.messages += 1
        counters.bytes += len(text)
        head = text[:24]
        if '"your_turn"' in head:
            self._turn(json.loads(text))
        elif '"events"' in head:
            if ("SatOut" in text or "PostRequested" in text) and self.name_json in text:
                self._events(json.loads(text))  # something for him, maybe
        elif '"error"' in head:
            code = json.loads(text)["code"]
            counters.errors[code] = counters.errors.get(code, 0) + 1
        counters.client_seconds += time.perf_counter() - started

    def command(self, message: dict[str, Any]) -> None:
        """Send a command as a client would: its JSON text, received in the next turn of
        the event loop."""
        kind = message["type"]
        self.counters.commands[kind] = self.counters.commands.get(kind, 0) + 1
        self.loop.call_soon(self._received, json.dumps(message))

    def _received(self, text: str) -> None:
        """As ws.py with a text frame: the schema check, then the room."""
        self.inbox.append(p.CLIENT.validate_json(text))
        if not self.busy:
            self._pump()

    def _pump(self) -> None:
        """As ws.py: hand the waiting commands to their tables, one at a time."""
        while self.inbox and not self.busy:
            self.busy = True
            self.bus.submit(self, self.inbox.popleft(), self._answer)

    def _answer(self, answer: Any) -> None:
        """As ws.py: the answer to the client (its text, or a typed error), then the next
        command in the next turn."""
        self.send(answer)
        self.busy = False
        if self.inbox:
            self.loop.call_soon(self._pump)

    def _turn(self, m: dict[str, Any]) -> None:
        if m.get("table") != self.table_name:
            return
        action, amount = self.play.decide(Turn.from_message(p.YourTurn.model_validate(m)))
        command: dict[str, Any] = {"type": "act", "table": self.table_name, "action": action}
        if amount is not None:
            command["amount"] = amount
        self.counters.actions += 1
        self.command(command)

    def _events(self, m: dict[str, Any]) -> None:
        for item in m["events"]:
            e = item["event"]
            kind = e.get("type")
            if kind == "SatOut" and e.get("player") == self.player:
                if e.get("reason") == "busted":
                    self.command({"type": "top_up", "table": self.table_name, "amount": MAX_BUY_IN})
                else:
                    self.command({"type": "sit_in", "table": self.table_name})
            elif kind == "PostRequested" and e.get("player") == self.player:
                self.command({"type": "post", "table": self.table_name, "accept": True})


def _note(text: str) -> None:
    print(f"room_cpu: {text}", file=sys.stderr, flush=True)


def hands_dealt(room: Worker) -> int:
    return sum(r.table.hand_number for r in room.runners.values())


async def bench(args: argparse.Namespace, database: str) -> dict[str, Any]:
    config = parse_room(room_toml(args.tables))
    store = Store(database, args.schema)
    began = time.perf_counter()
    await store.migrate()
    names = [f"rc{i:06d}" for i in range(args.tables * SEATS)]
    ids = await store.create_accounts(names, "not-a-hash", STARTING_BALANCE)
    # the wiring of pokerroom.bus.local (``pokerroom serve``), with the worker at hand
    transport = LocalTransport("serve")
    host, bus = TableHost(transport, PREFIX, "serve"), Router(transport, PREFIX, "serve")
    bus.start()
    room = Worker(config, store, "serve", host)
    await room.start()
    host.publish_lobby()
    host.start()
    _note(f"accounts and room ready in {time.perf_counter() - began:.1f} s")
    counters = Counters()
    rng = random.Random(args.seed)
    players: list[FakePlayer] = []
    try:
        for t, runner in enumerate(room.runners.values()):
            for s in range(SEATS):
                k = t * SEATS + s
                players.append(FakePlayer(names[k], ids[k], bus=bus, table=runner.name, seat=s + 1,
                                          counters=counters, rng=random.Random(rng.random())))

        for conn in players:  # the buy-ins queue for the database
            conn.command({"type": "sit", "table": conn.table_name, "seat": conn.seat, "buy_in": MAX_BUY_IN})
        deadline = time.monotonic() + 60
        while sum(len(r.table.seats) for r in room.runners.values()) < len(players):
            if counters.errors or time.monotonic() > deadline:
                raise SystemExit(f"room_cpu: the players could not all sit: errors {counters.errors}")
            await asyncio.sleep(0.05)
        _note(f"{len(players)} players seated in {time.perf_counter() - began:.1f} s")
        await asyncio.sleep(args.warmup)
        profile = cProfile.Profile() if args.profile else None
        gc.collect()
        a0, h0, c0, b0, m0 = (counters.actions, hands_dealt(room), counters.client_seconds,
                              counters.bytes, counters.messages)
        k0 = dict(counters.commands)
        w0, t0 = time.perf_counter(), time.process_time()
        if profile is not None:
            profile.enable()
        await asyncio.sleep(args.seconds)
        if profile is not None:
            profile.disable()
        t1, w1 = time.process_time(), time.perf_counter()
        actions, hands = counters.actions - a0, hands_dealt(room) - h0
        client = counters.client_seconds - c0
        messages, sent = counters.messages - m0, counters.bytes - b0
        commands = {k: v - k0.get(k, 0) for k, v in counters.commands.items() if v - k0.get(k, 0)}
        if profile is not None:
            profile.dump_stats(args.profile)
            pstats.Stats(profile, stream=sys.stderr).sort_stats("tottime").print_stats(25)
    finally:
        stopping = time.perf_counter()
        await room.stop()
        await host.stop()
        await bus.stop()
        await transport.close()
        await store.close()
        _note(f"stopped in {time.perf_counter() - stopping:.1f} s")
    cpu = t1 - t0
    return {
        "tables": args.tables,
        "seconds": round(w1 - w0, 2),
        "actions": actions,
        "hands": hands,
        "actions_per_s": round(actions / (w1 - w0), 1),
        "hands_per_s": round(hands / (w1 - w0), 1),
        "cpu_s": round(cpu, 3),
        "cores": round(cpu / (w1 - w0), 3),
        "cpu_ms_per_action": round(1000 * cpu / max(actions, 1), 4),
        "room_ms_per_action": round(1000 * (cpu - client) / max(actions, 1), 4),
        "client_ms_per_action": round(1000 * client / max(actions, 1), 4),
        "messages_per_action": round(messages / max(actions, 1), 2),
        "bytes_per_action": round(sent / max(actions, 1), 1),
        "commands": commands,
        "errors": counters.errors,
        "loop": type(asyncio.get_running_loop()).__module__,
    }


PG_URL = "postgresql://postgres@127.0.0.1:5432/test"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=20.0, help="the measured window")
    ap.add_argument("--warmup", type=float, default=3.0, help="unmeasured seconds first")
    ap.add_argument("--db", default=None, help="a database URL (default: a temporary SQLite file)")
    ap.add_argument("--schema", default=None, help="PostgreSQL: a schema of its own (default: a fresh one)")
    ap.add_argument("--both", nargs="?", const=PG_URL, default=None, metavar="PG_URL",
                    help="SQLite and PostgreSQL (this URL, default %(const)s; a fresh schema each run, "
                    "dropped after), --runs each, taking turns: their medians and the ratio")
    ap.add_argument("--runs", type=int, default=3, help="with --both: runs of each database")
    ap.add_argument("--profile", default=None, metavar="FILE", help="write a cProfile of the window")
    ap.add_argument("--seed", type=int, default=1, help="the players' choices (the deals are secure)")
    ap.add_argument("--loop", choices=("uvloop", "asyncio"), default="uvloop",
                    help="the event loop (uvloop, as uvicorn takes when installed)")
    ap.add_argument("--json", action="store_true", help="print the result as one JSON line")
    args = ap.parse_args()
    if args.both is not None:
        return both(args)
    gc.set_threshold(100_000, 50, 1000)  # as `pokerroom serve` (cli.tune_gc)
    loop_factory = None
    if args.loop == "uvloop":
        with contextlib.suppress(ImportError):
            import uvloop

            loop_factory = uvloop.new_event_loop
    fresh_schema = None
    with tempfile.TemporaryDirectory(prefix="room_cpu") as tmp:
        if args.db is None:
            database = f"sqlite:///{Path(tmp) / 'room.db'}"
        else:
            database = args.db
            if args.schema is None and not database.startswith("sqlite"):
                fresh_schema = args.schema = f"room_cpu_{secrets.token_hex(4)}"
        try:
            with asyncio.Runner(loop_factory=loop_factory) as runner:
                result = runner.run(bench(args, database))
        finally:
            if fresh_schema is not None:
                asyncio.run(_drop_schema(database, fresh_schema))
    if args.json:
        print(json.dumps(result))
    else:
        print(_line(result))
    return 0


def _line(r: dict[str, Any]) -> str:
    return (
        f"{r['tables']} tables, {r['seconds']} s ({r['loop']}): {r['actions_per_s']} actions/s, "
        f"{r['hands_per_s']} hands/s, {r['cores']} cores; CPU per action {r['cpu_ms_per_action']:.3f} ms "
        f"(room {r['room_ms_per_action']:.3f}, fake players {r['client_ms_per_action']:.3f}); "
        f"{r['messages_per_action']} messages and {r['bytes_per_action']:.0f} bytes per action; "
        f"commands {r['commands']}" + (f"; errors {r['errors']}" if r["errors"] else "")
    )


def both(args: argparse.Namespace) -> int:
    """SQLite and PostgreSQL in turns, each run a process of its own (as ``pokerroom serve``
    is, nothing warmed by the run before): the medians of the room's CPU per action and
    their ratio."""
    common = ["--tables", str(args.tables), "--seconds", str(args.seconds), "--warmup", str(args.warmup),
              "--seed", str(args.seed), "--loop", args.loop, "--json"]
    databases = {"sqlite": [], "postgresql": ["--db", args.both]}
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in databases}
    for run in range(args.runs):
        for name, extra in databases.items():
            done = subprocess.run([sys.executable, __file__, *common, *extra], stdout=subprocess.PIPE,
                                  text=True, check=True)
            result = json.loads(done.stdout.strip().splitlines()[-1])
            results[name].append(result)
            _note(f"{name} run {run + 1}: {_line(result)}")
    medians = {name: statistics.median(r["room_ms_per_action"] for r in rs) for name, rs in results.items()}
    summary = {
        "runs": args.runs,
        "room_ms_per_action": {name: [r["room_ms_per_action"] for r in rs] for name, rs in results.items()},
        "median_room_ms_per_action": medians,
        "median_cpu_ms_per_action": {
            name: statistics.median(r["cpu_ms_per_action"] for r in rs) for name, rs in results.items()
        },
        "median_actions_per_s": {
            name: statistics.median(r["actions_per_s"] for r in rs) for name, rs in results.items()
        },
        "ratio_pg_sqlite": round(medians["postgresql"] / medians["sqlite"], 3),
    }
    if args.json:
        print(json.dumps(summary))
    else:
        for name, rs in results.items():
            each = ", ".join(f"{r['room_ms_per_action']:.3f}" for r in rs)
            rate = summary["median_actions_per_s"][name]
            print(f"{name}: room CPU per action {each} ms, median {medians[name]:.3f} ms ({rate} actions/s)")
        print(f"PostgreSQL / SQLite: {summary['ratio_pg_sqlite']:.2f}")
    return 0


async def _drop_schema(url: str, schema: str) -> None:
    import asyncpg  # type: ignore[import-untyped]

    plain = url.replace("postgresql+asyncpg://", "postgresql://")
    conn = await asyncpg.connect(plain)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await conn.close()


if __name__ == "__main__":
    sys.exit(main())
