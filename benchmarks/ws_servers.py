"""The room's own WebSocket server side against two libraries, in the same run, on the same work.

Three servers carry the same table traffic: ``room`` is pokerroom.websocket's
``ServerProtocol`` (what /ws runs), ``websockets`` is the ``websockets`` library's sans-I/O
``ServerProtocol`` driven by a plain asyncio protocol (the way a room would embed it, no task
per connection), and ``picows`` is picows (a Cython WebSocket for asyncio). The table logic
above them is one and the same few lines. Each server runs in a process of its own; one client
process (the room's own client side, the same for all three) seats ``--tables`` tables of
``--seats`` players, and on every ``your_turn`` the player to act answers at once: the server
then sends an ``events`` message (about 330 bytes, as the room's) to every seat and a
``your_turn`` (about 300 bytes) to the next. Measured over ``--seconds`` after a warm-up:
actions/s and the server's CPU per action (utime + stime from /proc, so the client's share of
the two cores does not count), medians of ``--repeats`` rounds, the three servers interleaved
in each round.

    python benchmarks/ws_servers.py --tables 50 --seats 6 --seconds 5 --repeats 3
    python benchmarks/ws_servers.py --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

IMPLEMENTATIONS = ("room", "websockets", "picows")
EVENTS = ('{"type":"events","table":"%s","events":[{"version":%d,"event":{"type":"acted","player":%d,'
          '"action":"call","amount":2,"to":4,"all_in":false}},{"version":%d,"event":{"type":"turn_started",'
          '"player":%d,"deadline":1767225600.5,"time_bank":30}}],"pot":{"main":12,"side":[]},'
          '"street":"flop","board":["Ah","Kd","7c"],"padding":"%s"}')
TURN = ('{"type":"your_turn","table":"%s","legal":{"player":%d,"fold":true,"check":false,"call":2,'
        '"min_to":4,"max_to":200,"show":false,"muck":false,"bring_in":0},"deadline":1767225630.5,'
        '"street":"flop","cards":["As","Kc"],"board":["Ah","Kd","7c"],"pot":12,"stack":198,"padding":"%s"}')
PAD = "x" * 60


# ------------------------------------------------------------------ the table, shared by all


class Table:
    """Seats in order; ``act`` from the player to act sends the events to all and the turn on."""

    def __init__(self, name: str, seats: int) -> None:
        self.name = name
        self.seats = seats
        self.sends: dict[int, Callable[[str], None]] = {}
        self.actor = 0
        self.version = 0

    def sit(self, seat: int, send: Callable[[str], None]) -> None:
        self.sends[seat] = send
        if len(self.sends) == self.seats:
            send_to = self.sends[self.actor]
            send_to(TURN % (self.name, self.actor, PAD))

    def act(self, seat: int) -> None:
        if seat != self.actor or len(self.sends) < self.seats:
            return
        self.actor = (self.actor + 1) % self.seats
        self.version += 2
        text = EVENTS % (self.name, self.version - 1, seat, self.version, self.actor, PAD)
        for send in self.sends.values():
            send(text)
        self.sends[self.actor](TURN % (self.name, self.actor, PAD))


TABLES: dict[str, Table] = {}


def on_message(text: str, send: Callable[[str], None]) -> None:
    """``sit NAME SEATS SEAT`` or ``act NAME SEAT``: the whole client-to-server protocol here."""
    words = text.split()
    if words[0] == "sit":
        table = TABLES.get(words[1])
        if table is None:
            table = TABLES[words[1]] = Table(words[1], int(words[2]))
        table.sit(int(words[3]), send)
    elif words[0] == "act":
        TABLES[words[1]].act(int(words[2]))


# ------------------------------------------------------------------ the three servers


async def serve_room(port: int) -> None:
    from pokerroom.websocket import ServerProtocol

    class Server(ServerProtocol):
        def on_text(self, text: str) -> None:
            on_message(text, self.send_text)

    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: Server(ping_interval=None), "127.0.0.1", port)
    await server.serve_forever()


async def serve_websockets(port: int) -> None:
    from websockets.frames import Frame, Opcode
    from websockets.http11 import Request
    from websockets.server import ServerProtocol

    class Server(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            self.transport: Any = transport
            self.ws = ServerProtocol(max_size=65536)

        def send(self, text: str) -> None:
            self.ws.send_text(text.encode())
            for chunk in self.ws.data_to_send():
                if chunk:
                    self.transport.write(chunk)

        def data_received(self, data: bytes) -> None:
            self.ws.receive_data(data)
            for event in self.ws.events_received():
                if isinstance(event, Request):
                    self.ws.send_response(self.ws.accept(event))
                elif isinstance(event, Frame) and event.opcode is Opcode.TEXT:
                    on_message(event.data.decode(), self.send)
            for chunk in self.ws.data_to_send():
                if chunk:
                    self.transport.write(chunk)

    loop = asyncio.get_running_loop()
    server = await loop.create_server(Server, "127.0.0.1", port)
    await server.serve_forever()


async def serve_picows(port: int) -> None:
    from picows import WSFrame, WSListener, WSMsgType, WSTransport, ws_create_server

    class Listener(WSListener):  # type: ignore[misc]
        def on_ws_connected(self, transport: WSTransport) -> None:
            self.send = lambda text: transport.send(WSMsgType.TEXT, text.encode())

        def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
            if frame.msg_type == WSMsgType.TEXT:
                on_message(frame.get_payload_as_utf8_text(), self.send)

    server = await ws_create_server(lambda request: Listener(), "127.0.0.1", port)
    await server.serve_forever()


SERVERS = {"room": serve_room, "websockets": serve_websockets, "picows": serve_picows}


# ------------------------------------------------------------------ the clients


async def drive(port: int, tables: int, seats: int, warmup: float, seconds: float) -> int:
    """Seat every player, answer every turn at once; the actions taken in ``seconds``."""
    from pokerroom.websocket import ClientProtocol, connect

    counted = [0]

    class Player(ClientProtocol):
        def __init__(self, table: str, seat: int) -> None:
            super().__init__(ping_interval=None)
            self.act = f"act {table} {seat}"

        def on_text(self, text: str) -> None:
            if text.startswith('{"type":"your_turn"'):
                counted[0] += 1
                self.send_text(self.act)

    players = []
    for t in range(tables):
        for s in range(seats):
            player = await connect(f"ws://127.0.0.1:{port}/", Player(f"T{t}", s))
            players.append(player)
            player.send_text(f"sit T{t} {seats} {s}")
    await asyncio.sleep(warmup)
    start = counted[0]
    await asyncio.sleep(seconds)
    done = counted[0] - start
    for player in players:
        player.close()
    return done


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def one_round(impl: str, tables: int, seats: int, warmup: float, seconds: float) -> dict[str, float]:
    port = free_port()
    server = subprocess.Popen([sys.executable, __file__, "--serve", impl, "--port", str(port)])
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError(f"the {impl} server did not start") from None
                time.sleep(0.05)

        async def measured() -> tuple[int, float]:
            task = asyncio.ensure_future(drive(port, tables, seats, warmup, seconds))
            await asyncio.sleep(warmup)
            before = cpu_seconds(server.pid)
            actions = await task
            return actions, cpu_seconds(server.pid) - before

        actions, cpu = asyncio.run(measured())
    finally:
        server.kill()
        server.wait()
    return {"actions_per_s": actions / seconds, "server_cpu_us_per_action": 1e6 * cpu / max(1, actions)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seats", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--warmup", type=float, default=1.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--serve", choices=IMPLEMENTATIONS, help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        asyncio.run(SERVERS[args.serve](args.port))
        return
    rounds: dict[str, list[dict[str, float]]] = {impl: [] for impl in IMPLEMENTATIONS}
    for _ in range(args.repeats):
        for impl in IMPLEMENTATIONS:
            rounds[impl].append(one_round(impl, args.tables, args.seats, args.warmup, args.seconds))
    result: dict[str, Any] = {"tables": args.tables, "seats": args.seats, "seconds": args.seconds,
                              "repeats": args.repeats}
    for impl, runs in rounds.items():
        result[impl] = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
    room = result["room"]["server_cpu_us_per_action"]
    for impl in IMPLEMENTATIONS:
        result[impl]["cpu_vs_room"] = result[impl]["server_cpu_us_per_action"] / room
    if args.json:
        print(json.dumps(result))
        return
    print(f"{args.tables} tables x {args.seats} seats, {args.seconds:g} s, medians of {args.repeats}:")
    for impl in IMPLEMENTATIONS:
        r = result[impl]
        print(f"  {impl:<10} {r['actions_per_s']:>9,.0f} actions/s  "
              f"server {r['server_cpu_us_per_action']:6.1f} "
              f"us CPU/action  ({r['cpu_vs_room']:.2f}x the room's)")


if __name__ == "__main__":
    main()
