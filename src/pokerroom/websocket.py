"""A small WebSocket (RFC 6455) for the room's hot path, on asyncio protocols: no task,
no queue and no thread per connection, one ``transport.write`` per message.

The room's server runs one ``ServerProtocol`` per connection on /ws (server/ws.py plugs
it into uvicorn, which keeps serving HTTP on the same port) and the load-test bots run
thousands of ``ClientProtocol`` in one process. Both sides share the framing here:

- frames of any size up to ``max_size``, text and binary messages, fragmented messages
  (continuation frames) with control frames between the fragments, ping/pong, and the
  closing handshake with its status codes;
- the peer's mistakes end the connection with the code the RFC names: 1002 for a
  protocol error (reserved bits, an unknown opcode, masking the wrong way, a bad control
  frame, a continuation out of place), 1007 for text that is not UTF-8, 1009 for a
  message over ``max_size``;
- keepalive pings at an interval jittered per connection (+-50%), so that connections
  opened in the same second do not all ping in the same second, and a connection whose
  peer does not answer within ``ping_timeout`` is dropped;
- a peer that does not read: past ``max_buffer`` bytes waiting to be written, the
  connection is closed with 1008 (``on_overflow``).

No extension is negotiated (no per-message deflate) and no subprotocol.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import secrets
from typing import Any

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
CONTINUATION, TEXT, BINARY, CLOSE, PING, PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA
_DATA = (CONTINUATION, TEXT, BINARY)
_CONTROL = (CLOSE, PING, PONG)

NORMAL, GOING_AWAY, PROTOCOL_ERROR, UNSUPPORTED = 1000, 1001, 1002, 1003
NO_STATUS, ABNORMAL, INVALID_DATA, POLICY, TOO_BIG = 1005, 1006, 1007, 1008, 1009
INTERNAL, TRY_LATER = 1011, 1013
# codes a peer may send in a close frame (RFC 6455 7.4; 1015 and 1005/1006 never on the wire)
_SENDABLE = frozenset({1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014})

CONNECTING, OPEN, CLOSING, CLOSED = "connecting", "open", "closing", "closed"


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


def mask_bytes(data: bytes, mask: bytes) -> bytes:
    """``data`` XOR the 4-byte ``mask`` repeated (masking and unmasking are the same)."""
    n = len(data)
    if not n:
        return data
    key = (mask * ((n >> 2) + 1))[:n]
    return (int.from_bytes(data, "little") ^ int.from_bytes(key, "little")).to_bytes(n, "little")


def frame(opcode: int, payload: bytes, mask: bytes | None = None) -> bytes:
    """One final frame. Clients mask (``mask``: 4 bytes), servers do not."""
    n = len(payload)
    b0 = 0x80 | opcode
    bit = 0x80 if mask is not None else 0
    if n < 126:
        head = bytes((b0, bit | n))
    elif n < 65536:
        head = bytes((b0, bit | 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((b0, bit | 127)) + n.to_bytes(8, "big")
    if mask is None:
        return head + payload
    return head + mask + mask_bytes(payload, mask)


_last: list[Any] = [None, b""]  # the last text framed by a server, and its frame


def _server_text_frame(text: str) -> bytes:
    """A server's (unmasked) frame of ``text``: made once when several peers get the same
    text in a row (every watcher of a table gets the same events)."""
    if text is not _last[0]:
        _last[0], _last[1] = text, frame(TEXT, text.encode())
    return _last[1]  # type: ignore[no-any-return]


def close_payload(code: int, reason: str = "") -> bytes:
    if code == NO_STATUS:
        return b""
    # at most 125 bytes in all (a control frame), not cutting a character in two
    return code.to_bytes(2, "big") + reason.encode()[:123].decode("utf-8", "ignore").encode()


class ProtocolError(Exception):
    """The peer broke the protocol: the connection is closed with ``code``."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class FrameReader:
    """Frames out of a byte stream, assembled into messages. ``feed`` returns, in order,
    ``(opcode, payload)`` for each complete message (TEXT with a str, BINARY with bytes)
    and each control frame (CLOSE, PING, PONG with bytes); it raises ``ProtocolError``."""

    def __init__(self, *, masked: bool, max_size: int) -> None:
        self.masked = masked  # frames from a client are masked, from a server not
        self.max_size = max_size
        self._buffer = b""
        self._opcode: int | None = None  # of the fragmented message under way
        self._parts: list[bytes] = []
        self._size = 0

    def feed(self, data: bytes) -> list[tuple[int, Any]]:
        if self._buffer:
            data = self._buffer + data
        out: list[tuple[int, Any]] = []
        pos, end = 0, len(data)
        while end - pos >= 2:
            b0, b1 = data[pos], data[pos + 1]
            if b0 & 0x70:
                raise ProtocolError(PROTOCOL_ERROR, "reserved bits set (no extension was agreed)")
            opcode, fin = b0 & 0x0F, b0 & 0x80
            if bool(b1 & 0x80) != self.masked:
                raise ProtocolError(PROTOCOL_ERROR, "client frames must be masked" if self.masked
                                    else "server frames must not be masked")
            length, head = b1 & 0x7F, 2
            if length == 126:
                if end - pos < 4:
                    break
                length, head = int.from_bytes(data[pos + 2 : pos + 4], "big"), 4
            elif length == 127:
                if end - pos < 10:
                    break
                length, head = int.from_bytes(data[pos + 2 : pos + 10], "big"), 10
                if length >> 63:
                    raise ProtocolError(PROTOCOL_ERROR, "a frame length must be below 2**63")
            if opcode >= 8:
                if opcode not in _CONTROL:
                    raise ProtocolError(PROTOCOL_ERROR, f"unknown opcode {opcode}")
                if length > 125 or not fin:
                    raise ProtocolError(PROTOCOL_ERROR, "a control frame is one frame of at most 125 bytes")
            elif opcode not in _DATA:
                raise ProtocolError(PROTOCOL_ERROR, f"unknown opcode {opcode}")
            elif self._size + length > self.max_size:  # refused before it is buffered
                raise ProtocolError(TOO_BIG, f"messages are at most {self.max_size} bytes")
            start = pos + head + (4 if self.masked else 0)
            stop = start + length
            if stop > end:
                break
            payload = data[start:stop]
            if self.masked:
                payload = mask_bytes(payload, data[start - 4 : start])
            pos = stop
            if opcode >= 8:
                out.append((opcode, payload))
            elif opcode == CONTINUATION:
                if self._opcode is None:
                    raise ProtocolError(PROTOCOL_ERROR, "a continuation frame without a message to continue")
                self._parts.append(payload)
                self._size += length
                if fin:
                    whole = b"".join(self._parts)
                    kind, self._opcode, self._parts, self._size = self._opcode, None, [], 0
                    out.append((kind, _text(whole) if kind == TEXT else whole))
            elif self._opcode is not None:
                raise ProtocolError(PROTOCOL_ERROR, "a new message before the last one ended")
            elif fin:
                out.append((opcode, _text(payload) if opcode == TEXT else payload))
            else:
                self._opcode, self._parts, self._size = opcode, [payload], length
        self._buffer = data[pos:] if pos < end else b""
        return out


def _text(payload: bytes) -> str:
    try:
        return payload.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError(INVALID_DATA, "text messages must be UTF-8") from None


def parse_close(payload: bytes) -> tuple[int, str]:
    """The code and reason of a close frame's payload (NO_STATUS when it has none)."""
    if not payload:
        return NO_STATUS, ""
    if len(payload) == 1:
        raise ProtocolError(PROTOCOL_ERROR, "a close frame of one byte")
    code = int.from_bytes(payload[:2], "big")
    if code not in _SENDABLE and not 3000 <= code <= 4999:
        raise ProtocolError(PROTOCOL_ERROR, f"close code {code} is not allowed")
    try:
        reason = payload[2:].decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError(INVALID_DATA, "a close reason must be UTF-8") from None
    return code, reason


class _TooLong(Exception):
    """A handshake over its size limit."""


class WebSocketProtocol(asyncio.Protocol):
    """What both ends share once the handshake is done. Subclasses do the handshake, call
    ``opened`` and override ``on_text`` / ``on_binary`` / ``on_close``."""

    masked_in = True  # a server reads masked frames; a client sets False
    close_timeout = 5.0

    def __init__(self, *, max_size: int = 65536, max_buffer: int = 4 << 20,
                 ping_interval: float | None = 20.0, ping_timeout: float | None = 20.0) -> None:
        self.transport: asyncio.Transport | None = None
        self.state = CONNECTING
        self.reader = FrameReader(masked=self.masked_in, max_size=max_size)
        self.max_buffer = max_buffer
        self.ping_interval = ping_interval
        self.ping_timeout = ping_timeout
        self.close_code: int | None = None  # as received from the peer (or ABNORMAL)
        self.close_reason = ""
        self._timer: asyncio.TimerHandle | None = None  # the next ping, or the pong's deadline
        self._awaiting_pong = False
        self._closed: asyncio.Future[None] | None = None
        self._out: list[bytes] | None = None  # frames to write at the end of the loop's turn
        self._head = b""  # the opening handshake, as it arrives

    def _take_head(self, data: bytes, limit: int) -> tuple[bytes, bytes] | None:
        """The handshake's head (up to its blank line) and the bytes after it, once the
        blank line has come; None before. Raises _TooLong past ``limit`` bytes."""
        self._head += data
        end = self._head.find(b"\r\n\r\n")
        if end < 0 or end > limit:
            if len(self._head) > limit:
                raise _TooLong
            return None
        head, rest = self._head[:end], self._head[end + 4 :]
        self._head = b""
        return head, rest

    # ----------------------------------------------------------- for subclasses

    def on_text(self, text: str) -> None:
        pass

    def on_binary(self, data: bytes) -> None:
        pass

    def on_close(self) -> None:
        """The connection ended (once, whichever way)."""

    def on_overflow(self) -> None:
        self.close(POLICY, "too many unread messages")

    # ----------------------------------------------------------- sending

    def send_text(self, text: str) -> None:
        if self.state is OPEN and self.transport is not None:
            if self.masked_in:  # a server's frame of a text is the same for every peer
                self._queue(_server_text_frame(text))
            else:
                self._queue(frame(TEXT, text.encode(), self._new_mask()))

    def send_binary(self, data: bytes) -> None:
        if self.state is OPEN and self.transport is not None:
            self._queue(frame(BINARY, data, self._new_mask()))

    def _queue(self, data: bytes) -> None:
        """Messages go out at the end of the loop's turn, all of a turn in one write (a
        player's events, the answer to his command and his turn: one system call)."""
        out = self._out
        if out is None:
            self._out = [data]
            asyncio.get_running_loop().call_soon(self._flush)
        else:
            out.append(data)

    def _flush(self) -> None:
        out, self._out = self._out, None
        transport = self.transport
        if not out or transport is None or transport.is_closing():
            return
        transport.write(out[0] if len(out) == 1 else b"".join(out))
        if transport.get_write_buffer_size() > self.max_buffer:
            self.on_overflow()

    def ping(self, payload: bytes = b"") -> None:
        if self.state is OPEN:
            self._write_control(PING, payload)

    def close(self, code: int = NORMAL, reason: str = "") -> None:
        """Start the closing handshake; the transport is dropped when the peer answers, or
        after ``close_timeout``."""
        if self.state is CONNECTING:
            self._abort()
            return
        if self.state is not OPEN:
            return
        self.state = CLOSING
        self._write_control(CLOSE, close_payload(code, reason))
        self._set_timer(self.close_timeout, self._abort)

    async def wait_closed(self) -> None:
        if self.state is CLOSED:
            return
        if self._closed is None:
            self._closed = asyncio.get_running_loop().create_future()
        await asyncio.shield(self._closed)

    def _new_mask(self) -> bytes | None:
        """A fresh key for each frame a client sends; a server's frames are not masked."""
        return None if self.masked_in else secrets.token_bytes(4)

    def _write_control(self, opcode: int, payload: bytes) -> None:
        if self._out:  # after the messages queued before it
            self._flush()
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(frame(opcode, payload, self._new_mask()))

    # ----------------------------------------------------------- the stream

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def opened(self, leftover: bytes = b"") -> None:
        """The handshake is done: frames from here on (``leftover``: bytes that came with
        the handshake)."""
        self.state = OPEN
        if self._timer is not None:  # the handshake's deadline
            self._timer.cancel()
            self._timer = None
        self._schedule_ping()
        if leftover:
            self.frames(leftover)

    def data_received(self, data: bytes) -> None:
        self.frames(data)

    def frames(self, data: bytes) -> None:
        if self.state is CLOSED:
            return
        try:
            messages = self.reader.feed(data)
        except ProtocolError as e:
            self._fail(e.code, e.reason)
            return
        for opcode, payload in messages:
            if self.state is CLOSED:
                return
            if opcode == TEXT:
                if self.state is OPEN:
                    self.on_text(payload)
            elif opcode == BINARY:
                if self.state is OPEN:
                    self.on_binary(payload)
            elif opcode == PING:
                self._write_control(PONG, payload)
            elif opcode == PONG:
                if self._awaiting_pong:
                    self._awaiting_pong = False
                    self._schedule_ping()
            else:
                self._close_received(payload)

    def _close_received(self, payload: bytes) -> None:
        try:
            code, reason = parse_close(payload)
        except ProtocolError as e:
            self._fail(e.code, e.reason)
            return
        self.close_code, self.close_reason = code, reason
        if self.state is OPEN:  # the peer closes: echo its code, then end
            self.state = CLOSING
            self._write_control(CLOSE, close_payload(code if code != NO_STATUS else NORMAL))
        self._finish_closing()

    def _finish_closing(self) -> None:
        """Both close frames are through. The server drops the TCP connection first (RFC
        6455 7.1.1); a client waits a little for it to."""
        if self.masked_in:
            self._abort(graceful=True)
        else:
            self._set_timer(self.close_timeout, self._abort)

    def _fail(self, code: int, reason: str) -> None:
        """The peer broke the protocol: close with ``code`` and read nothing more."""
        if self.state is OPEN:
            self._write_control(CLOSE, close_payload(code, reason))
        self.state = CLOSING
        self.close_code = self.close_code or ABNORMAL
        self._abort(graceful=True)

    def _abort(self, graceful: bool = False) -> None:
        if self.transport is not None:
            if graceful:
                if self._out:
                    self._flush()
                self.transport.close()  # what is buffered is still written
            else:
                self.transport.abort()
        self._gone()

    def connection_lost(self, exc: Exception | None) -> None:
        self._gone()

    def _gone(self) -> None:
        if self.state is CLOSED:
            return
        self.state = CLOSED
        if self.close_code is None:
            self.close_code = ABNORMAL
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._closed is not None and not self._closed.done():
            self._closed.set_result(None)
        self.on_close()

    # ----------------------------------------------------------- keepalive

    def _set_timer(self, delay: float, callback: Any) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = asyncio.get_running_loop().call_later(delay, callback)

    def _schedule_ping(self) -> None:
        if self.ping_interval is None or self.state is not OPEN:
            return
        self._set_timer(self.ping_interval * (0.5 + secrets.randbelow(1001) / 1000), self._send_ping)

    def _send_ping(self) -> None:
        self._timer = None
        if self.state is not OPEN:
            return
        self.ping(secrets.token_bytes(4))
        if self.ping_timeout is not None:
            self._awaiting_pong = True
            self._set_timer(self.ping_timeout, self._no_pong)
        else:  # no pong to wait for: the next ping at the next interval
            self._schedule_ping()

    def _no_pong(self) -> None:
        self._timer = None
        if self._awaiting_pong and self.state is OPEN:
            self.close_code = ABNORMAL
            self._abort()


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
