"""``WebSocketProtocol``: the asyncio protocol both ends share once the handshake is done
(writing, the limits on what waits to be written, keepalive pings, the closing handshake),
and the connection states."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

from pokerroom.websocket.frames import (
    ABNORMAL,
    BINARY,
    CLOSE,
    NO_STATUS,
    NORMAL,
    PING,
    POLICY,
    PONG,
    TEXT,
    FrameReader,
    ProtocolError,
    _server_text_frame,
    close_payload,
    frame,
    parse_close,
)

CONNECTING, OPEN, CLOSING, CLOSED = "connecting", "open", "closing", "closed"


class _TooLong(Exception):
    """A handshake over its size limit."""


class WebSocketProtocol(asyncio.Protocol):
    """What both ends share once the handshake is done. Subclasses do the handshake, call
    ``opened`` and override ``on_text`` / ``on_binary`` / ``on_close``."""

    masked_in = True  # a server reads masked frames; a client sets False
    close_timeout = 5.0

    def __init__(self, *, max_size: int = 65536, max_fragments: int = 256, max_buffer: int = 4 << 20,
                 read_pause: int = 65536, ping_interval: float | None = 20.0,
                 ping_timeout: float | None = 20.0) -> None:
        self.transport: asyncio.Transport | None = None
        self.state = CONNECTING
        self.reader = FrameReader(masked=self.masked_in, max_size=max_size, max_fragments=max_fragments)
        self.max_buffer = max_buffer
        self.read_pause = min(read_pause, max_buffer)
        self.reading_paused = False
        self.ping_interval = ping_interval
        self.ping_timeout = ping_timeout
        self.close_code: int | None = None  # as received from the peer (or ABNORMAL)
        self.close_reason = ""
        self._timer: asyncio.TimerHandle | None = None  # the next ping, or the pong's deadline
        self._awaiting_pong = False
        self._heard = False  # a message came since the last keepalive: no ping needed then
        self._loop: asyncio.AbstractEventLoop | None = None  # (asking for it costs a system call)
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
            self._running_loop().call_soon(self._flush)
        else:
            out.append(data)

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        """The loop it runs on, asked once (on Python 3.11 each asking is a getpid call)."""
        loop = self._loop
        if loop is None:
            loop = self._loop = asyncio.get_running_loop()
        return loop

    def _flush(self) -> None:
        out, self._out = self._out, None
        if out:
            self._write(out[0] if len(out) == 1 else b"".join(out))

    def _write(self, data: bytes) -> None:
        """Every byte goes out here, frames of messages and control frames alike, so one
        bound holds for all: past ``max_buffer`` unsent, ``on_overflow`` (once)."""
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        transport.write(data)
        if transport.get_write_buffer_size() > self.max_buffer and self.state is OPEN:
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
        self._write(frame(opcode, payload, self._new_mask()))

    # ----------------------------------------------------------- flow control

    def pause_writing(self) -> None:
        """The transport holds more than ``read_pause`` unsent bytes (asyncio calls this
        at the high-water mark set in ``connection_made``): read nothing more from this
        peer until it has read what it was sent."""
        transport = self.transport
        if transport is not None and not transport.is_closing() and not self.reading_paused:
            self.reading_paused = True
            transport.pause_reading()

    def resume_writing(self) -> None:
        """The unsent bytes are down to a quarter of ``read_pause``: read again."""
        transport = self.transport
        if self.reading_paused and transport is not None and not transport.is_closing():
            self.reading_paused = False
            transport.resume_reading()

    # ----------------------------------------------------------- the stream

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        limits = getattr(transport, "set_write_buffer_limits", None)  # test doubles may lack it
        if limits is not None:  # pause_writing past read_pause unsent, resume_writing under a quarter
            limits(high=self.read_pause, low=self.read_pause // 4)

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
        ping: bytes | None = None  # the last ping of a run, answered when the run ends
        for opcode, payload in messages:
            if ping is not None and opcode != PING:
                self._write_control(PONG, ping)
                ping = None
            if self.state is CLOSED:
                return
            if opcode == TEXT:
                self._heard = True
                if self.state is OPEN:
                    self.on_text(payload)
            elif opcode == BINARY:
                self._heard = True
                if self.state is OPEN:
                    self.on_binary(payload)
            elif opcode == PING:
                ping = payload
            elif opcode == PONG:
                if self._awaiting_pong:
                    self._awaiting_pong = False
                    self._schedule_ping()
            else:
                self._close_received(payload)
        if ping is not None and self.state is not CLOSED:
            self._write_control(PONG, ping)

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
        self._timer = self._running_loop().call_later(delay, callback)

    def _schedule_ping(self) -> None:
        if self.ping_interval is None or self.state is not OPEN:
            return
        self._set_timer(self.ping_interval * (0.5 + secrets.randbelow(1001) / 1000), self._send_ping)

    def _send_ping(self) -> None:
        self._timer = None
        if self.state is not OPEN:
            return
        if self._heard:  # the peer spoke within the interval: alive, no ping this time
            self._heard = False
            self._schedule_ping()
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
