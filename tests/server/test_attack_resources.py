"""The resource test of issue 16: from one address at once, many WebSocket connections,
requests whose headers come a byte at a time, a body of 48 MiB and 16 MiB of headers,
while two players play heads-up at a table and an observer pings the room. The server's
memory (VmRSS and VmHWM from /proc) grows by less than ``GROWTH`` and nobody at the table
waits: no time-out, no answer slower than ``STALL``. Each part is bounded in count and time.

Before the HTTP limits (issue 16, item 5), all 400 connections were kept, the dribbled
headers stayed open, and the body and the headers were read whole (+95 MB and +16 MB).
"""

from __future__ import annotations

import asyncio
import contextlib
import selectors
import socket
import time
from concurrent.futures import ThreadPoolExecutor

from tests.helpers import handshake
from tests.server.helpers import GROWTH, Flood, Server, stalled, under_attack

CONNECTIONS = 400  # WebSocket upgrades held open
DRIBBLERS = 40  # connections sending their headers a byte every half second
DRIBBLE_SECONDS = 14.0
BODY = 48 << 20
HEADERS = 16 << 20


def _connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    return sock


def _closed(sock: socket.socket, wait: float = 0.5) -> bool:
    """Whether the server closed ``sock`` (what it sent before is read and dropped)."""
    sock.settimeout(wait)
    try:
        while True:
            piece = sock.recv(1 << 16)
            if not piece:
                return True
    except TimeoutError:
        return False
    except OSError:
        return True


def _sockets(port: int, result: Flood) -> None:
    """CONNECTIONS upgrades at once; after a few seconds, how many were answered 101 and
    are still open (the rest closed after the welcome, refused, or never accepted)."""
    held = []
    try:
        for _ in range(CONNECTIONS):
            sock = _connect(port)
            sock.sendall(handshake("/ws", host=f"127.0.0.1:{port}"))
            sock.setblocking(False)
            held.append(sock)
        got = {sock: b"" for sock in held}
        ended: set[socket.socket] = set()
        with selectors.DefaultSelector() as selector:
            for sock in held:
                selector.register(sock, selectors.EVENT_READ)
            deadline = time.monotonic() + 4
            while time.monotonic() < deadline and len(ended) < len(held):
                for key, _ in selector.select(0.2):
                    sock = key.fileobj  # type: ignore[assignment]
                    try:
                        piece = sock.recv(1 << 16)
                    except OSError:
                        piece = b""
                    if piece:
                        got[sock] = (got[sock] + piece)[:4096]
                    else:
                        ended.add(sock)
                        selector.unregister(sock)
        # open: answered 101 and neither closed nor sent a close frame (0x88: the welcome is ASCII)
        kept = sum(1 for sock in held if sock not in ended and got[sock].startswith(b"HTTP/1.1 101")
                   and b"\x88" not in got[sock].partition(b"\r\n\r\n")[2])
        result.notes.append(f"websockets kept {kept} of {CONNECTIONS}")
    finally:
        for sock in held:
            sock.close()


def _dribble(port: int, result: Flood) -> None:
    """Headers a byte every half second, for DRIBBLE_SECONDS at most."""
    held = [_connect(port) for _ in range(DRIBBLERS)]
    request = b"GET /api/tables HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 1000
    try:
        start, k = time.monotonic(), 0
        open_ = held
        while time.monotonic() - start < DRIBBLE_SECONDS and k < len(request):
            still = []
            for sock in open_:
                try:
                    sock.send(request[k : k + 1])
                    still.append(sock)
                except OSError:
                    pass
            open_, k = still, k + 1
            time.sleep(0.5)
        open_ = [s for s in open_ if not _closed(s, 0.05)]
        seconds = time.monotonic() - start
        result.notes.append(f"dribblers open after {seconds:.0f} s: {len(open_)} of {DRIBBLERS}")
    finally:
        for sock in held:
            sock.close()


def _big(port: int, result: Flood, head: bytes, total: int) -> None:
    """``head``, then filler up to ``total`` bytes, until the server stops taking it."""
    sock = _connect(port)
    try:
        sock.sendall(head)
        chunk, sent = b"x" * (1 << 16), len(head)
        sock.settimeout(3)
        with contextlib.suppress(OSError):
            while sent < total:
                sent += sock.send(chunk)
        result.sent += sent
        result.notes.append(f"{head[:24]!r}: {sent / 2**20:.1f} MiB taken")
    finally:
        sock.close()


def mixed(port: int) -> Flood:
    result = Flood()
    start = time.monotonic()
    body = (b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % BODY)
    headers = b"GET /api/tables HTTP/1.1\r\nHost: x\r\nX-Big: "
    with ThreadPoolExecutor(4) as pool:
        parts = [pool.submit(_sockets, port, result), pool.submit(_dribble, port, result),
                 pool.submit(_big, port, result, body, BODY),
                 pool.submit(_big, port, result, headers, HEADERS)]
        for part in parts:
            part.result(timeout=60)
    result.seconds = time.monotonic() - start
    return result


def test_a_crowd_of_abusive_connections_from_one_address(server: Server) -> None:
    outcome = asyncio.run(under_attack(server, lambda: mixed(server.port)))
    print(f"abusive connections: {outcome}; {outcome.flood.notes}")
    notes = " ".join(outcome.flood.notes)
    assert outcome.growth < GROWTH, f"the server grew too much: {outcome}"
    assert not stalled(outcome), f"the room stalled: {outcome} {notes}"
    kept = int(notes.split("websockets kept ")[1].split()[0])
    assert kept <= 8, notes  # anonymous WebSockets per address (the rest closed after the welcome)
    dribbling = int(notes.split("dribblers open after ")[1].split(": ")[1].split()[0])
    assert dribbling == 0, notes  # cut off at 10 s
    assert outcome.flood.sent < 8 << 20, notes  # neither the body nor the headers read whole
