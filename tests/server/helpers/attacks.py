"""Floods against a real server and what the room's players felt meanwhile (the attack
tests): ``flood`` writes frames from a raw socket that never reads (bounded by
``FLOOD_BYTES``, ``FLOOD_SECONDS``, and ``BLOCKED`` seconds of the server not reading);
``under_attack`` runs an attack while two players play heads-up at NL and an observer pings
the room, and says how much the server's memory grew (/proc VmRSS and VmHWM) and how long
anybody waited (``stalled``: longer than ``STALL``, or a time-out)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from tests.helpers import handshake
from tests.policies import passive_policy
from tests.server.helpers.client import Client, Message
from tests.server.helpers.servers import Server

FLOOD_BYTES = 64 << 20
FLOOD_SECONDS = 20.0
BLOCKED = 3.0  # no byte taken for this long: the server has stopped reading
GROWTH = 16 << 20  # the most the server's memory may grow during a flood
STALL = 1.5  # seconds: the slowest answer a player or an observer may get meanwhile


def memory(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM of process ``pid``, in bytes."""
    out = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                out[name] = int(value.split()[0]) * 1024
    return out


@dataclass
class Flood:
    """What one flood did: bytes the server took, whether it closed the connection (and
    with which close code, when its close frame could be read)."""

    sent: int = 0
    seconds: float = 0.0
    closed: bool = False
    close_code: int | None = None
    blocked: bool = False
    notes: list[str] = field(default_factory=list)


def flood(port: int, opening: bytes, chunk: bytes, total: int) -> Flood:
    """Open a WebSocket by hand on a socket that never reads (a 4 KiB receive buffer),
    send ``opening`` and then ``chunk`` again and again, up to ``total`` bytes (at most
    FLOOD_BYTES) in all and FLOOD_SECONDS; runs in a thread, so the players' event loop is not held up."""
    result = Flood()
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(10.0)
    try:
        sock.connect(("127.0.0.1", port))
        sock.sendall(handshake("/ws", host=f"127.0.0.1:{port}"))
        answer = b""
        while b"\r\n\r\n" not in answer:
            piece = sock.recv(4096)
            assert piece, f"closed during the handshake: {answer!r}"
            answer += piece
        assert answer.startswith(b"HTTP/1.1 101 "), answer
        start = time.monotonic()
        data, pos = opening, 0
        while result.sent < min(total, FLOOD_BYTES):
            left = FLOOD_SECONDS - (time.monotonic() - start)
            if left <= 0:
                break
            if pos == len(data):
                data, pos = chunk, 0
            sock.settimeout(min(BLOCKED, left))
            try:
                n = sock.send(memoryview(data)[pos:])
            except TimeoutError:
                result.blocked = True
                break
            except (BrokenPipeError, ConnectionResetError):
                result.closed = True
                break
            pos += n
            result.sent += n
        result.seconds = time.monotonic() - start
        result.close_code = _close_code(sock)
        if result.close_code is not None:
            result.closed = True
    finally:
        sock.close()
    return result


def _close_code(sock: socket.socket) -> int | None:
    """The code of the close frame the server sent, if it sent one (it may come after
    welcome and pongs, or be lost to a reset)."""
    sock.settimeout(0.5)
    data = b""
    with contextlib.suppress(OSError):
        while len(data) < 8 << 20:
            piece = sock.recv(1 << 16)
            if not piece:
                break
            data += piece
    pos = 0
    while pos + 2 <= len(data):
        opcode, n, pos = data[pos] & 0x0F, data[pos + 1] & 0x7F, pos + 2
        if n == 126:
            n, pos = int.from_bytes(data[pos : pos + 2], "big"), pos + 2
        elif n == 127:
            n, pos = int.from_bytes(data[pos : pos + 8], "big"), pos + 8
        if opcode == 0x8 and pos + 2 <= len(data):
            return int.from_bytes(data[pos : pos + 2], "big")
        pos += n
    return None


@dataclass
class Outcome:
    """A flood and what the room went through meanwhile."""

    flood: Flood
    growth: int  # the server's peak memory over its memory before the flood, bytes
    slowest: float  # the observer's slowest round trip, seconds
    timed_out: list[Message]  # TimedOut events at the players' table
    refused: list[Message]  # errors the players got (a move refused because its clock ran out)

    def __str__(self) -> str:
        f = self.flood
        return (f"{f.sent / 2**20:.1f} MiB taken in {f.seconds:.1f} s, closed {f.closed} "
                f"(code {f.close_code}), blocked {f.blocked}; server memory +{self.growth / 2**20:.1f} MiB; "
                f"slowest answer {self.slowest:.3f} s; {len(self.timed_out)} timeouts, "
                f"{len(self.refused)} moves refused")


async def under_flood(server: Server, opening: bytes, chunk: bytes, total: int) -> Outcome:
    """``under_attack`` by a flood of frames (``flood``)."""
    return await under_attack(server, lambda: flood(server.port, opening, chunk, total))


async def under_attack(server: Server, attack: Callable[[], Flood]) -> Outcome:
    """Two players heads-up at NL and an observer pinging the room, then ``attack`` (run
    in a thread): what it did, how much the server's memory grew meanwhile (its peak over
    the start), the observer's slowest round trip and the players' timeouts."""
    assert server.process is not None
    pid = server.process.pid
    ann, bob = (Client(server.http, server.ws, name) for name in ("Ann", "Bob"))
    watcher = Client(server.http, server.ws)
    players = (ann, bob)
    tasks: list[asyncio.Task[object]] = []
    try:
        for seat, player in enumerate(players, 1):
            assert (await player.register()).status_code == 200
            await player.connect()
            assert (await player.sit("NL", seat, 200))["type"] == "ok"
        await watcher.connect(anonymous=True)
        tasks += [asyncio.create_task(p.play("NL", 10**6, passive_policy, timeout=60)) for p in players]
        await ann.wait_for(lambda m: _is(m, "HandFinished"), 30)

        trips: list[float] = []

        async def probe() -> None:
            for k in range(10**6):
                start, sent = time.monotonic(), watcher.mark()
                await watcher.send({"type": "ping", "id": f"probe-{k}"})
                await watcher.wait_for(lambda m, k=k: m.get("id") == f"probe-{k}", 10, sent)  # type: ignore[misc]
                trips.append(time.monotonic() - start)
                await asyncio.sleep(0.1)

        tasks.append(asyncio.create_task(probe()))
        await asyncio.sleep(0.5)
        before = memory(pid)
        peak = before["VmRSS"]
        hands = len(_hands(ann, "NL"))
        attacking = asyncio.create_task(asyncio.to_thread(attack))
        while not attacking.done():
            peak = max(peak, memory(pid)["VmRSS"])
            await asyncio.sleep(0.02)
        result = attacking.result()
        after = memory(pid)
        if after["VmHWM"] > before["VmHWM"]:  # a peak between two samples
            peak = max(peak, after["VmHWM"])
        # the room went on: two more hands at the other table
        await ann.wait_for(lambda m: _is(m, "HandFinished") and len(_hands(ann, "NL")) >= hands + 2, 30)
        for task in tasks:
            assert not task.done() or task.exception() is None, task.exception()
        timed_out = [m["event"] for m in ann.events("NL", "TimedOut")]
        return Outcome(result, peak - before["VmRSS"], max(trips), timed_out, ann.errors + bob.errors)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for client in (*players, watcher):
            await client.aclose()


def stalled(outcome: Outcome) -> bool:
    """Whether anybody waited too long: an observer's answer, a player's clock."""
    return outcome.slowest >= STALL or bool(outcome.timed_out) or bool(outcome.refused)


def _hands(client: Client, table: str) -> list[Message]:
    return client.events(table, "HandFinished")


def _is(message: Message, kind: str) -> bool:
    return message["type"] == "event" and message.get("table") == "NL" and message["event"]["type"] == kind
