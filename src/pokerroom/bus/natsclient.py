"""A lean NATS client: the core protocol (INFO, CONNECT, PUB, SUB, UNSUB, MSG, HMSG, PING,
PONG) on an asyncio ``Protocol``, what the bus (nats.py) needs and nothing more.

nats-py, which the bus used first, spends most of a gateway's bus time on its own
machinery: a coroutine for every message read, a task and a queue per subscription, a
future and a timer task per request, a regular expression per protocol line and a copy
of its whole read buffer per message. Here a message read is handed to its callback in
the same call (``data_received``), what is published in one turn of the event loop goes
out in one write, and a request is a token in a dict with a timer handle. Measured
against nats-py on the same work in benchmarks/nats_client.py (docs/performance.md).

- ``publish`` never waits: the bytes are queued and written at the end of the loop's
  turn. While the connection is down they are kept (up to ``PENDING_LIMIT`` bytes, then
  dropped with ``NotConnected``) and written once it is back.
- ``subscribe`` returns a subscription id; callbacks get ``(reply, payload, status)``:
  ``status`` is 0 for a message, else the status of a header-only message (503: nobody
  serves the subject a request went to).
- ``request`` answers through ``on_reply(payload)`` or ``on_fail(error)``:
  ``NoResponders`` at once when nobody serves the subject; ``BusDown`` when the
  connection is down (nothing was sent: safe to try again); ``BusTimeout`` when no answer
  came in time or the connection dropped while it was out (it may have been handled).
- The connection is made again for ever after it drops (every ``RECONNECT_WAIT`` s), with
  every subscription renewed; a connection whose server stops answering pings is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections import deque
from collections.abc import Callable
from itertools import count
from typing import Any, cast
from urllib.parse import urlsplit

from pokerroom.bus.transport import BusDown, BusTimeout, NoResponders

log = logging.getLogger("pokerroom.bus")

Callback = Callable[[str, bytes, int], None]  # reply subject ('' if none), payload, status
OnReply = Callable[[bytes], None]
OnFail = Callable[[Exception], None]

PENDING_LIMIT = 64 * 1024 * 1024  # bytes kept while the connection is down
MAX_LINE = 64 * 1024  # a protocol line longer than this is a broken stream
RECONNECT_WAIT = 0.5  # seconds between tries to reconnect
PING_EVERY = 10.0  # seconds between this client's pings
MAX_OUTSTANDING_PINGS = 3  # unanswered: the connection is dropped and made again
_CRLF = b"\r\n"


class NotConnected(BusDown):
    """The connection is down and what was published could not be kept."""


class _Wire(asyncio.Protocol):
    """One TCP connection to the server; the client reads through it."""

    def __init__(self, client: NatsClient) -> None:
        self.client = client
        self.transport: asyncio.Transport | None = None
        self.info: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def data_received(self, data: bytes) -> None:
        self.client._received(self, data)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.info.done():
            self.info.set_exception(ConnectionError("the connection closed during the handshake"))
        self.client._lost(self)


class NatsClient:
    def __init__(self, url: str, name: str) -> None:
        parts = urlsplit(url if "://" in url else f"nats://{url}")
        if parts.scheme not in ("nats", "tcp"):
            raise ValueError(f"not a nats:// address: {url!r}")
        self.url = url
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 4222
        self.user, self.password = parts.username, parts.password
        self.name = name
        self._loop = asyncio.get_running_loop()
        self._wire: _Wire | None = None  # the connection, once its handshake is done
        self._connecting: _Wire | None = None
        self._closed = False
        self._subs: dict[int, tuple[str, Callback]] = {}
        self._sids = count(1)
        self._out: list[bytes] = []
        self._out_size = 0
        self._flushing = False
        self._pongs: deque[asyncio.Future[None] | None] = deque()
        self._pings_out = 0
        self._pinger: asyncio.TimerHandle | None = None
        self._reconnect: asyncio.Task[None] | None = None
        self.max_payload = 1024 * 1024
        # requests: one wildcard subscription, a token per request
        self._inbox = f"_INBOX.{secrets.token_hex(11)}."
        self._tokens = count(1)
        self._requests: dict[bytes, tuple[OnReply, OnFail, asyncio.TimerHandle]] = {}
        self._inbox_size = len(self._inbox)
        self._inbox_sid = next(self._sids)
        self._subs[self._inbox_sid] = (self._inbox + "*", self._on_inbox)
        # the parser's state
        self._buf = bytearray()
        self._need = -1  # bytes of a message's header and payload awaited, then CRLF
        self._head = 0  # of which header bytes
        self._sid = 0
        self._subject = b""
        self._reply = ""

    # ------------------------------------------------------------------ connecting

    async def connect(self, timeout: float = 3.0) -> None:
        """The first connection; BusDown when the server cannot be reached."""
        try:
            await asyncio.wait_for(self._open(), timeout)
        except (OSError, TimeoutError, ConnectionError, ValueError) as e:
            self._drop_connecting()
            raise BusDown(f"cannot reach NATS at {self.url}: {e}") from None

    @property
    def connected(self) -> bool:
        return self._wire is not None

    async def _open(self) -> None:
        wire = _Wire(self)
        self._connecting = wire
        await self._loop.create_connection(lambda: wire, self.host, self.port)
        info = await wire.info
        self.max_payload = int(info.get("max_payload", self.max_payload))
        if not info.get("headers", False):
            raise ConnectionError("this NATS server does not support headers (2.2 or newer is needed)")
        options: dict[str, Any] = {
            "verbose": False, "pedantic": False, "name": self.name, "lang": "python",
            "version": "pokerroom", "protocol": 1, "headers": True, "no_responders": True,
        }
        if self.user is not None:
            options["user"], options["pass"] = self.user, self.password or ""
        lines = [b"CONNECT " + json.dumps(options).encode() + _CRLF]
        sent = dict(self._subs)
        lines += [f"SUB {subject} {sid}\r\n".encode() for sid, (subject, _) in sent.items()]
        lines.append(b"PING\r\n")
        assert wire.transport is not None
        wire.transport.write(b"".join(lines))
        answered: asyncio.Future[None] = self._loop.create_future()
        self._pongs.append(answered)
        await answered  # the server took CONNECT and every SUB (an -ERR closes the connection)
        self._connecting = None
        self._wire = wire
        # subscriptions made or ended during the handshake, then what was published meanwhile
        changes = [f"SUB {subject} {sid}\r\n".encode() for sid, (subject, _) in self._subs.items()
                   if sid not in sent]
        changes += [f"UNSUB {sid}\r\n".encode() for sid in sent if sid not in self._subs]
        self._out[:0] = changes
        self._pings_out = 0
        self._pinger = self._loop.call_later(PING_EVERY, self._ping)
        if self._out:
            self._schedule()

    def _drop_connecting(self) -> None:
        wire, self._connecting = self._connecting, None
        if wire is not None and wire.transport is not None:
            wire.transport.abort()
        self._fail_pongs()

    def _lost(self, wire: _Wire) -> None:
        if wire is self._connecting:
            self._fail_pongs()
            return
        if wire is not self._wire:
            return
        self._wire = None
        if self._pinger is not None:
            self._pinger.cancel()
            self._pinger = None
        self._fail_pongs()
        self._buf.clear()
        self._need = -1
        # messages not written yet go out on the next connection; its handshake makes the
        # subscriptions anew, and the pings were this connection's
        self._out = [data for data in self._out if data.startswith(b"PUB ")]
        self._out_size = sum(map(len, self._out))
        requests, self._requests = self._requests, {}
        for _, on_fail, timer in requests.values():  # they may have been handled: not tried again
            timer.cancel()
            on_fail(BusTimeout("the connection to NATS dropped while a request was out"))
        if not self._closed:
            log.warning("NATS: the connection to %s dropped; connecting again", self.url)
            self._reconnect = self._loop.create_task(self._reconnect_loop())

    async def _reconnect_loop(self) -> None:
        tries = 0
        while not self._closed:
            await asyncio.sleep(RECONNECT_WAIT if tries else 0.05)
            tries += 1
            try:
                await asyncio.wait_for(self._open(), 3.0)
            except (OSError, TimeoutError, ConnectionError, ValueError):
                self._drop_connecting()
                continue
            log.warning("NATS: connected to %s again (try %d)", self.url, tries)
            return

    def _fail_pongs(self) -> None:
        pongs, self._pongs = self._pongs, deque()
        for waiter in pongs:
            if waiter is not None and not waiter.done():
                waiter.set_exception(ConnectionError("the connection to NATS dropped"))

    def _ping(self) -> None:
        wire = self._wire
        if wire is None:
            return
        if self._pings_out >= MAX_OUTSTANDING_PINGS:  # the server stopped answering
            log.warning("NATS: %s stopped answering; connecting again", self.url)
            assert wire.transport is not None
            wire.transport.abort()
            return
        self._pings_out += 1
        self._pongs.append(None)
        self._write(b"PING\r\n")
        self._pinger = self._loop.call_later(PING_EVERY, self._ping)

    async def flush(self, timeout: float = 5.0) -> None:
        """Wait until the server has read everything sent so far (a PING's PONG)."""
        if self._wire is None:
            raise BusDown("not connected to NATS")
        answered: asyncio.Future[None] = self._loop.create_future()
        self._pongs.append(answered)
        self._write(b"PING\r\n")
        await asyncio.wait_for(answered, timeout)

    async def close(self) -> None:
        """Send what is queued, then close (requests out fail with BusTimeout)."""
        if self._closed:
            return
        if self._wire is not None:
            with contextlib.suppress(Exception):
                await self.flush(2.0)
        self._closed = True
        if self._reconnect is not None:
            self._reconnect.cancel()
        self._drop_connecting()
        wire = self._wire
        if wire is not None and wire.transport is not None:
            self._flush_out()
            wire.transport.close()
            self._lost(wire)

    # ------------------------------------------------------------------ out

    def publish(self, subject: str, payload: bytes, reply: str = "") -> None:
        if self._closed:
            raise BusDown("the NATS client is closed")
        if len(payload) > self.max_payload:
            raise ValueError(f"a message of {len(payload)} bytes is over the server's {self.max_payload}")
        if reply:
            line = f"PUB {subject} {reply} {len(payload)}\r\n".encode()
        else:
            line = f"PUB {subject} {len(payload)}\r\n".encode()
        self._write(line + payload + _CRLF)

    def _write(self, data: bytes) -> None:
        if self._wire is None and self._out_size + len(data) > PENDING_LIMIT:
            raise NotConnected("not connected to NATS, and its pending buffer is full")
        self._out.append(data)
        self._out_size += len(data)
        if not self._flushing and self._wire is not None:
            self._schedule()

    def _schedule(self) -> None:
        self._flushing = True
        self._loop.call_soon(self._flush_out)

    def _flush_out(self) -> None:
        """Everything queued in this turn of the loop, in one write."""
        self._flushing = False
        wire = self._wire
        if wire is None or not self._out:
            return
        out, self._out, self._out_size = self._out, [], 0
        transport = wire.transport
        assert transport is not None
        if transport.get_write_buffer_size() > PENDING_LIMIT:  # the server stopped reading
            log.warning("NATS: %s reads nothing; %d messages dropped", self.url, len(out))
            return
        transport.write(out[0] if len(out) == 1 else b"".join(out))

    def subscribe(self, subject: str, callback: Callback) -> int:
        sid = next(self._sids)
        self._subs[sid] = (subject, callback)
        if self._wire is not None:  # else made with the others when the connection is back
            self._write(f"SUB {subject} {sid}\r\n".encode())
        return sid

    def unsubscribe(self, sid: int) -> None:
        if self._subs.pop(sid, None) is not None and self._wire is not None:
            self._write(f"UNSUB {sid}\r\n".encode())

    def request(self, subject: str, payload: bytes, on_reply: OnReply, on_fail: OnFail,
                timeout: float) -> None:
        if self._wire is None or self._closed:
            on_fail(BusDown("not connected to NATS"))
            return
        token = str(next(self._tokens))
        key = token.encode()
        timer = self._loop.call_later(timeout, self._timed_out, key)
        self._requests[key] = (on_reply, on_fail, timer)
        self.publish(subject, payload, self._inbox + token)

    def _timed_out(self, token: bytes) -> None:
        request = self._requests.pop(token, None)
        if request is not None:
            request[1](BusTimeout("no answer in time"))

    def _on_inbox(self, reply: str, payload: bytes, status: int) -> None:
        """Never called: the inbox's messages are read in ``_dispatch``."""

    # ------------------------------------------------------------------ in

    def _received(self, wire: _Wire, data: bytes) -> None:
        if wire is not self._wire and wire is not self._connecting:
            return
        buf = self._buf
        buf += data
        pos, size = 0, len(buf)
        try:
            while True:
                need = self._need
                if need >= 0:  # a message's header and payload, then CRLF
                    end = pos + need
                    if end + 2 > size:
                        break
                    head = self._head
                    status = _status(bytes(buf[pos:pos + head])) if head else 0
                    payload = bytes(buf[pos + head:end])
                    pos = end + 2
                    self._need = -1
                    self._dispatch(self._sid, self._reply, payload, status)
                    continue
                end = buf.find(_CRLF, pos)
                if end < 0:
                    if size - pos > MAX_LINE:
                        raise ValueError("a protocol line too long")
                    break
                line = bytes(buf[pos:end])
                pos = end + 2
                self._line(wire, line)
        except (ValueError, IndexError, UnicodeDecodeError) as e:
            log.warning("NATS: the stream from %s is broken (%s); connecting again", self.url, e)
            buf.clear()
            self._need = -1
            if wire.transport is not None:
                wire.transport.abort()
            return
        del buf[:pos]

    def _line(self, wire: _Wire, line: bytes) -> None:
        if line.startswith(b"MSG "):  # MSG <subject> <sid> [reply] <bytes>
            parts = line.split()
            self._subject = parts[1]
            self._sid = int(parts[2])
            self._reply = parts[3].decode() if len(parts) == 5 else ""
            self._head = 0
            self._need = int(parts[-1])
        elif line.startswith(b"HMSG "):  # HMSG <subject> <sid> [reply] <header bytes> <bytes>
            parts = line.split()
            self._subject = parts[1]
            self._sid = int(parts[2])
            self._reply = parts[3].decode() if len(parts) == 6 else ""
            self._head = int(parts[-2])
            self._need = int(parts[-1])
            if not 0 <= self._head <= self._need:
                raise ValueError("a header longer than its message")
        elif line == b"PING":
            self._write_now(wire, b"PONG\r\n")
        elif line == b"PONG":
            self._pings_out = 0
            if self._pongs:
                waiter = self._pongs.popleft()
                if waiter is not None and not waiter.done():
                    waiter.set_result(None)
        elif line.startswith(b"INFO "):
            info = json.loads(line[5:])
            if not wire.info.done():
                wire.info.set_result(info)
        elif line == b"+OK":
            pass
        elif line.startswith(b"-ERR"):
            log.warning("NATS: %s says %s", self.url, line[5:].decode(errors="replace"))
        else:
            raise ValueError(f"an unknown protocol line {line[:40]!r}")

    def _write_now(self, wire: _Wire, data: bytes) -> None:
        if wire.transport is not None:
            wire.transport.write(data)

    def _dispatch(self, sid: int, reply: str, payload: bytes, status: int) -> None:
        if sid == self._inbox_sid:  # an answer to a request: its token ends the subject
            request = self._requests.pop(self._subject[self._inbox_size:], None)
            if request is None:  # timed out already, or a second answer
                return
            on_reply, on_fail, timer = request
            timer.cancel()
            if status == 503:
                on_fail(NoResponders("nobody serves the subject"))
            elif status:
                on_fail(BusTimeout(f"the request failed with status {status}"))
            else:
                try:
                    on_reply(payload)
                except Exception:
                    log.exception("NATS: taking an answer failed")
            return
        sub = self._subs.get(sid)
        if sub is None:  # unsubscribed: what was on its way is dropped
            return
        try:
            sub[1](reply, payload, status)
        except Exception:
            log.exception("NATS: a callback of %s failed", sub[0])


def _status(header: bytes) -> int:
    """The status of a message's header block ('NATS/1.0 503' ...): 0 when it has none."""
    first = header.split(b"\r\n", 1)[0].split()
    return int(first[1]) if len(first) > 1 and first[1].isdigit() else 0
