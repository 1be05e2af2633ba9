"""Shared by the tests of pokerroom.websocket and the server's /ws: frames and handshakes
built and read by hand (``raw_frame``, ``unframe``, ``handshake``: not the module's own
``frame``, so a mistake shared by the encoder and the decoder cannot hide), an echo server
on the module's ``ServerProtocol``, raw sockets that read back exactly what was sent, a
collecting client and a fake server for the client side."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import socket
import struct
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from websockets.asyncio.client import connect as ws_connect

from pokerroom import websocket as w

MASK = b"\x37\xfa\x21\x3d"
KEY = "dGhlIHNhbXBsZSBub25jZQ=="  # RFC 6455 1.3
SIZES = (0, 1, 125, 126, 65535, 65536, 70000)
WAIT = 3.0  # seconds any one awaited event may take before the test fails


# ============================================================================ helpers


def raw_frame(opcode: int, payload: bytes = b"", *, fin: bool = True, rsv: int = 0,
              mask: bytes | None = None, length: int | None = None) -> bytes:
    """One frame, built independently of pokerroom.websocket.frame: any bits, any length."""
    n = len(payload) if length is None else length
    b0 = (0x80 if fin else 0) | rsv | opcode
    b1 = 0x80 if mask is not None else 0
    if n < 126:
        head = struct.pack("!BB", b0, b1 | n)
    elif n < 1 << 16:
        head = struct.pack("!BBH", b0, b1 | 126, n)
    else:
        head = struct.pack("!BBQ", b0, b1 | 127, n)
    if mask is None:
        return head + payload
    return head + mask + xor(payload, mask)


def xor(data: bytes, mask: bytes) -> bytes:
    return bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def unframe(data: bytes) -> list[tuple[bool, int, bytes, bool]]:
    """(fin, opcode, payload, masked) of each whole frame in ``data`` (all must be whole)."""
    out = []
    pos = 0
    while pos < len(data):
        b0, b1 = data[pos], data[pos + 1]
        n, pos = b1 & 0x7F, pos + 2
        if n == 126:
            (n,), pos = struct.unpack_from("!H", data, pos), pos + 2
        elif n == 127:
            (n,), pos = struct.unpack_from("!Q", data, pos), pos + 8
        mask = None
        if b1 & 0x80:
            mask, pos = data[pos : pos + 4], pos + 4
        payload = data[pos : pos + n]
        assert len(payload) == n, "a frame cut short"
        pos += n
        out.append((bool(b0 & 0x80), b0 & 0x0F, xor(payload, mask) if mask else payload, mask is not None))
    return out


def close_code_of(payload: bytes) -> int:
    return int.from_bytes(payload[:2], "big")


def reader(masked: bool = True, max_size: int = 1 << 20) -> w.FrameReader:
    return w.FrameReader(masked=masked, max_size=max_size)


def error_code(data: bytes | list[bytes], *, masked: bool = True, max_size: int = 1 << 20) -> int:
    """The code of the ProtocolError that feeding ``data`` (one feed, or several) raises."""
    r = reader(masked, max_size)
    feeds = [data] if isinstance(data, bytes) else data
    with pytest.raises(w.ProtocolError) as e:
        for chunk in feeds:
            r.feed(chunk)
    assert e.value.reason
    return e.value.code


def handshake(path: str = "/", *, key: str | None = KEY, version: str | None = "13",
              upgrade: str | None = "websocket", connection: str | None = "Upgrade",
              method: str = "GET", http: str = "HTTP/1.1", host: str = "127.0.0.1",
              extra: dict[str, str] | None = None) -> bytes:
    lines = [f"{method} {path} {http}", f"Host: {host}"]
    for name, value in (("Upgrade", upgrade), ("Connection", connection), ("Sec-WebSocket-Key", key),
                        ("Sec-WebSocket-Version", version)):
        if value is not None:
            lines.append(f"{name}: {value}")
    lines += [f"{k}: {v}" for k, v in (extra or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def expected_accept(key: str) -> str:
    digest = hashlib.sha1(key.encode() + b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11").digest()
    return base64.b64encode(digest).decode()


async def wait(event: asyncio.Event, what: str, timeout: float = WAIT) -> None:
    try:
        await asyncio.wait_for(event.wait(), timeout)
    except TimeoutError:
        raise AssertionError(f"timed out waiting for {what}") from None


async def until(check: Callable[[], bool], what: str, timeout: float = WAIT) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.005)


# ---------------------------------------------------------------------------- our server


class Echo(w.ServerProtocol):
    """Echoes text and binary; refuses /refused with a 404; counts what happens to it."""

    def __init__(self, close_timeout: float | None = None, **options: Any) -> None:
        super().__init__(**options)
        if close_timeout is not None:
            self.close_timeout = close_timeout
        self.texts: list[str] = []
        self.binaries: list[bytes] = []
        self.opens = self.closes = self.overflows = self.pings_sent = 0
        self.is_open = asyncio.Event()
        self.ended = asyncio.Event()

    def check(self, request: w.Request) -> tuple[int, str] | None:
        if request.path == "/refused":
            return 404, "nothing at /refused"
        return None

    def on_open(self) -> None:
        self.opens += 1
        self.is_open.set()

    def on_text(self, text: str) -> None:
        self.texts.append(text)
        self.send_text(text)

    def on_binary(self, data: bytes) -> None:
        self.binaries.append(data)
        self.send_binary(data)

    def on_close(self) -> None:
        self.closes += 1
        self.ended.set()

    def on_overflow(self) -> None:
        self.overflows += 1
        super().on_overflow()

    def ping(self, payload: bytes = b"") -> None:
        self.pings_sent += 1
        super().ping(payload)


class Hub:
    """A loopback server of ``Echo`` connections, each handed to the test as it arrives."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options
        self.port = 0
        self.servers: list[Echo] = []
        self.arrived: asyncio.Queue[Echo] = asyncio.Queue()

    def make(self) -> Echo:
        proto = Echo(**self.options)
        self.servers.append(proto)
        self.arrived.put_nowait(proto)
        return proto

    async def next(self) -> Echo:
        return await asyncio.wait_for(self.arrived.get(), WAIT)

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"


@contextlib.asynccontextmanager
async def echo_server(**options: Any) -> AsyncIterator[Hub]:
    hub = Hub(options)
    server = await asyncio.get_running_loop().create_server(hub.make, "127.0.0.1", 0)
    hub.port = server.sockets[0].getsockname()[1]
    try:
        yield hub
    finally:
        server.close()
        for proto in hub.servers:
            if proto.transport is not None and not proto.transport.is_closing():
                proto.transport.abort()
        await server.wait_closed()
        for _ in range(3):
            await asyncio.sleep(0)  # connection_lost callbacks close the sockets


def websockets_client(url: str, **options: Any) -> Any:
    options.setdefault("ping_interval", None)
    options.setdefault("open_timeout", WAIT)
    options.setdefault("close_timeout", WAIT)
    return ws_connect(url, proxy=None, **options)


# ---------------------------------------------------------------------------- raw sockets


class Raw:
    """A TCP peer that speaks bytes: the test writes handshakes and frames by hand."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    def write(self, data: bytes) -> None:
        self.writer.write(data)

    async def response(self) -> tuple[int, dict[str, str], bytes]:
        """The HTTP status, headers (lower-case names) and body (by Content-Length) or the
        bytes after the head."""
        head = await asyncio.wait_for(self.reader.readuntil(b"\r\n\r\n"), WAIT)
        lines = head.decode("latin-1").split("\r\n")[:-2]
        version, status, *_ = lines[0].split(" ", 2)
        assert version == "HTTP/1.1", lines[0]
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        body = b""
        if "content-length" in headers:
            body = await asyncio.wait_for(self.reader.readexactly(int(headers["content-length"])), WAIT)
        return int(status), headers, body

    async def read_to_end(self, timeout: float = WAIT) -> bytes:
        """Everything until the peer closes (a reset counts as the end too)."""
        chunks = []
        try:
            async with asyncio.timeout(timeout):
                while chunk := await self.reader.read(65536):
                    chunks.append(chunk)
        except ConnectionResetError:
            pass
        return b"".join(chunks)

    async def frames(self, count: int) -> list[tuple[bool, int, bytes, bool]]:
        """The next ``count`` frames the server sends."""
        data = b""
        async with asyncio.timeout(WAIT):
            while True:
                try:
                    found = unframe(data)
                except (AssertionError, IndexError, struct.error):
                    found = []
                if len(found) >= count:
                    return found
                chunk = await self.reader.read(65536)
                assert chunk, f"the server closed after {data!r}"
                data += chunk

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(OSError):
            await self.writer.wait_closed()


@contextlib.asynccontextmanager
async def raw(port: int, rcvbuf: int | None = None) -> AsyncIterator[Raw]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        if rcvbuf is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
        stream_reader, stream_writer = await asyncio.open_connection(sock=sock)
    except BaseException:
        sock.close()
        raise
    peer = Raw(stream_reader, stream_writer)
    try:
        yield peer
    finally:
        await peer.close()


async def opened_raw(stack: contextlib.AsyncExitStack, hub: Hub, rcvbuf: int | None = None,
                     after: bytes = b"") -> tuple[Raw, Echo]:
    """A raw peer through the handshake (``after``: bytes sent in the same write)."""
    peer = await stack.enter_async_context(raw(hub.port, rcvbuf))
    peer.write(handshake() + after)
    status, headers, _ = await peer.response()
    assert status == 101, (status, headers)
    proto = await hub.next()
    return peer, proto


def exchange(request: bytes | list[bytes], **options: Any) -> tuple[int, dict[str, str], bytes, Echo]:
    """Send a handshake (in pieces if a list) to an Echo server: its answer, and the
    server's protocol."""

    async def main() -> tuple[int, dict[str, str], bytes, Echo]:
        async with echo_server(**options) as hub, raw(hub.port) as peer:
            for piece in [request] if isinstance(request, bytes) else request:
                peer.write(piece)
                await peer.writer.drain()
            status, headers, body = await peer.response()
            proto = await hub.next()
            if status != 101:
                assert await peer.read_to_end() == b""  # the server closed after its answer
                await wait(proto.ended, "the refused connection to end")
            return status, headers, body, proto

    return asyncio.run(main())


# ---------------------------------------------------------------------------- our client


class Collector(w.ClientProtocol):
    def __init__(self, close_timeout: float | None = None, **options: Any) -> None:
        super().__init__(**options)
        if close_timeout is not None:
            self.close_timeout = close_timeout
        self.inbox: asyncio.Queue[str | bytes] = asyncio.Queue()
        self.closes = self.pings_sent = 0
        self.ended = asyncio.Event()

    def ping(self, payload: bytes = b"") -> None:
        self.pings_sent += 1
        super().ping(payload)

    def on_text(self, text: str) -> None:
        self.inbox.put_nowait(text)

    def on_binary(self, data: bytes) -> None:
        self.inbox.put_nowait(data)

    def on_close(self) -> None:
        self.closes += 1
        self.ended.set()

    async def next(self) -> str | bytes:
        return await asyncio.wait_for(self.inbox.get(), WAIT)


@contextlib.asynccontextmanager
async def client(url: str, headers: dict[str, str] | None = None, **options: Any) -> AsyncIterator[Collector]:
    proto = Collector(**options)
    await w.connect(url, proto, headers, timeout=WAIT)
    try:
        yield proto
    finally:
        if proto.transport is not None and not proto.transport.is_closing():
            proto.transport.abort()
        await asyncio.sleep(0)


class FakeServer:
    """A TCP server that answers a client's handshake with ``respond(key)`` (bytes) and
    keeps everything the client sends after it."""

    def __init__(self, respond: Callable[[str], bytes]) -> None:
        self.respond = respond
        self.port = 0
        self.received = b""
        self.done = asyncio.Event()
        self.writers: list[asyncio.StreamWriter] = []

    async def handle(self, stream_reader: asyncio.StreamReader, stream_writer: asyncio.StreamWriter) -> None:
        self.writers.append(stream_writer)
        try:
            head = (await stream_reader.readuntil(b"\r\n\r\n")).decode("latin-1")
            key = next(line.split(":", 1)[1].strip() for line in head.split("\r\n")
                       if line.lower().startswith("sec-websocket-key:"))
            answer = self.respond(key)
            if answer:
                stream_writer.write(answer)
            while chunk := await stream_reader.read(65536):
                self.received += chunk
        except (ConnectionResetError, asyncio.IncompleteReadError):
            pass
        finally:
            self.done.set()
            stream_writer.close()


@contextlib.asynccontextmanager
async def fake_server(respond: Callable[[str], bytes]) -> AsyncIterator[FakeServer]:
    fake = FakeServer(respond)
    server = await asyncio.start_server(fake.handle, "127.0.0.1", 0)
    fake.port = server.sockets[0].getsockname()[1]
    try:
        yield fake
    finally:
        server.close()
        for writer in fake.writers:
            writer.transport.abort()
        await server.wait_closed()
        for _ in range(3):
            await asyncio.sleep(0)


def switching(key: str, extra: str = "") -> bytes:
    return (f"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Accept: {expected_accept(key)}\r\n{extra}\r\n").encode()
