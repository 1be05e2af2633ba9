"""The opening handshakes: the Sec-WebSocket-Key and its Accept, the client's request
(``Request``, parsed by the server) and the server's answer (checked by the client), and
the two ends built on them, ``ServerProtocol`` and ``ClientProtocol`` with ``connect``."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import secrets
from typing import Any

from pokerroom.websocket.protocol import CLOSED, CONNECTING, OPEN, WebSocketProtocol, _TooLong

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def accept_key(key: str | bytes) -> str:
    """Sec-WebSocket-Accept for a handshake's Sec-WebSocket-Key."""
    raw = key.encode("latin-1") if isinstance(key, str) else key
    return base64.b64encode(hashlib.sha1(raw.strip() + GUID).digest()).decode()


def valid_key(key: str) -> bool:
    """A Sec-WebSocket-Key: the base64 of 16 bytes."""
    try:
        return len(base64.b64decode(key.encode("ascii"), validate=True)) == 16
    except (ValueError, UnicodeEncodeError):
        return False


class HandshakeError(Exception):
    """The server refused the WebSocket handshake or answered it wrongly."""


class ClientProtocol(WebSocketProtocol):
    """The client end (``connect``): masks what it sends, reads unmasked frames."""

    masked_in = False

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._request = b""
        self._key = ""
        self.handshake: asyncio.Future[None] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.handshake = asyncio.get_running_loop().create_future()
        transport.write(self._request)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        if self.state is not CONNECTING:
            self.frames(data)
            return
        try:
            taken = self._take_head(data, 16384)
        except _TooLong:
            self._refused("the handshake response is too long")
            return
        if taken is None:
            return
        head, leftover = taken[0].decode("latin-1"), taken[1]
        lines = head.split("\r\n")
        status = lines[0].split(" ", 2)
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        if len(status) < 2 or status[1] != "101":
            self._refused(f"the server answered {lines[0]!r}")
        elif headers.get("upgrade", "").lower() != "websocket":
            self._refused("the server did not upgrade to websocket")
        elif headers.get("sec-websocket-accept") != accept_key(self._key):
            self._refused("the server's Sec-WebSocket-Accept is wrong")
        elif headers.get("sec-websocket-extensions"):
            self._refused("the server asked for an extension that was not offered")
        else:
            assert self.handshake is not None
            if not self.handshake.done():
                self.handshake.set_result(None)
            self.opened(leftover)

    def _refused(self, why: str) -> None:
        if self.handshake is not None and not self.handshake.done():
            self.handshake.set_exception(HandshakeError(why))
        self._abort()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.state is CONNECTING:
            self._refused(f"the connection closed during the handshake ({exc or 'EOF'})")
        super().connection_lost(exc)


async def connect(url: str, protocol: ClientProtocol, headers: dict[str, str] | None = None,
                  timeout: float = 30.0) -> ClientProtocol:
    """Open ``ws://host:port/path`` with ``protocol`` (a ClientProtocol not yet used);
    returns it open, or raises HandshakeError / OSError / TimeoutError."""
    if not url.startswith("ws://"):
        raise ValueError(f"only ws:// URLs, not {url!r}")
    rest = url[5:]
    hostport, slash, path = rest.partition("/")
    host, _, port = hostport.rpartition(":") if ":" in hostport else (hostport, "", "80")
    key = base64.b64encode(secrets.token_bytes(16)).decode()
    lines = [f"GET /{path if slash else ''} HTTP/1.1", f"Host: {hostport}", "Upgrade: websocket",
             "Connection: Upgrade", f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    protocol._key = key
    protocol._request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
    loop = asyncio.get_running_loop()
    try:
        async with asyncio.timeout(timeout):
            await loop.create_connection(lambda: protocol, host.strip("[]"), int(port))
            assert protocol.handshake is not None
            await protocol.handshake
    except BaseException:  # a timeout or a cancel: do not leave the connection open
        if protocol.transport is not None and protocol.state is not CLOSED:
            protocol._abort()
        raise
    return protocol


class Request:
    """The opening handshake of a client: its target and headers (names in lower case;
    a header given twice keeps both values, comma-joined)."""

    def __init__(self, method: str, target: str, headers: dict[str, str]) -> None:
        self.method = method
        self.target = target
        self.path, _, self.query = target.partition("?")
        self.headers = headers


_REASONS = {400: "Bad Request", 403: "Forbidden", 404: "Not Found", 426: "Upgrade Required",
            431: "Request Header Fields Too Large", 503: "Service Unavailable"}


class ServerProtocol(WebSocketProtocol):
    """The server end: reads the client's handshake (``opening``: bytes of it already read
    by an HTTP server that handed the connection over), asks ``check`` whether to accept,
    answers 101 or an HTTP error, then ``on_open``."""

    max_handshake = 16384
    handshake_timeout = 10.0  # seconds for a peer to send its whole handshake

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.request: Request | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self._set_timer(self.handshake_timeout, self._abort)

    def check(self, request: Request) -> tuple[int, str] | None:
        """None to accept ``request``, or (HTTP status, message) to refuse it."""
        return None

    def on_open(self) -> None:
        pass

    def data_received(self, data: bytes) -> None:
        if self.state is not CONNECTING:
            self.frames(data)
            return
        try:
            taken = self._take_head(data, self.max_handshake)
        except _TooLong:
            self._refuse(431, "the handshake is too long")
            return
        if taken is None:
            return
        head, leftover = taken
        request, problem = _parse_request(head)
        if problem is not None:
            self._refuse(*problem)
            return
        assert request is not None
        problem = self.check(request)
        if problem is not None:
            self._refuse(*problem)
            return
        self.request = request
        answer = ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Accept: {accept_key(request.headers['sec-websocket-key'])}\r\n\r\n")
        assert self.transport is not None
        self.transport.write(answer.encode("latin-1"))
        self.opened()
        self.on_open()
        if leftover and self.state is OPEN:
            self.frames(leftover)

    def _refuse(self, status: int, message: str) -> None:
        body = message.encode()
        extra = "Sec-WebSocket-Version: 13\r\n" if status == 426 else ""
        answer = (f"HTTP/1.1 {status} {_REASONS.get(status, 'Error')}\r\n{extra}"
                  "Content-Type: text/plain; charset=utf-8\r\n"
                  f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode("latin-1") + body
        if self.transport is not None:
            self.transport.write(answer)
        self._abort(graceful=True)


def _parse_request(head: bytes) -> tuple[Request | None, tuple[int, str] | None]:
    try:
        text = head.decode("latin-1")
    except UnicodeDecodeError:  # pragma: no cover - latin-1 decodes any byte
        return None, (400, "the handshake is not text")
    lines = text.split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3 or not parts[2].startswith("HTTP/"):
        return None, (400, "a bad request line")
    method, target, version = parts
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        if not colon or not name or name != name.strip():
            return None, (400, "a bad header line")
        key = name.lower()
        headers[key] = f"{headers[key]}, {value.strip()}" if key in headers else value.strip()
    if method != "GET" or version != "HTTP/1.1":
        return None, (400, "a WebSocket handshake is a GET over HTTP/1.1")
    if headers.get("upgrade", "").lower() != "websocket":
        return None, (400, "Upgrade: websocket is missing")
    if "upgrade" not in {t.strip().lower() for t in headers.get("connection", "").split(",")}:
        return None, (400, "Connection: Upgrade is missing")
    if headers.get("sec-websocket-version") != "13":
        return None, (426, "only WebSocket version 13 is spoken here")
    if not valid_key(headers.get("sec-websocket-key", "")):
        return None, (400, "Sec-WebSocket-Key must be the base64 of 16 bytes")
    return Request(method, target, headers), None
