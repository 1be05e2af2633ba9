"""/ws: the room's WebSocket endpoint (docs/protocol.md), served by pokerroom.websocket's
protocol straight from uvicorn's HTTP protocol, which hands an upgrade request over to
it: no ASGI, no task, no queue and no writer per connection.

A connection's first message is ``welcome``. Each client message is checked (text, size,
rate, schema); a ping or a lobby request is answered here, a table command handed to its
table through the bus (bus.py), and the next one waits for its answer, so a client's
commands are handled in the order it sent them. What the room sends is
written at once (the transport buffers it); a client that stops reading is closed with
1008 once 4 MiB wait for it, so a slow reader never holds up a table.

One address may hold ``sockets_per_address`` connections, of them ``anonymous_per_address``
not logged in (limits.Limits; past either the newcomer is closed with 1008). A replay on
``subscribe`` is charged to the connection's message budget by the events it sends. A
connection that came in on a session token is closed (1008) when that session is logged
out.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel, ValidationError

from pokerroom import protocol as p
from pokerroom import websocket as w
from pokerroom.bus.gateway import Router
from pokerroom.gateway.auth import session_token, token_hash
from pokerroom.gateway.connection import Connection, TokenBucket
from pokerroom.gateway.limits import AddressCount, Limits
from pokerroom.gateway.sessions import Sessions

log = logging.getLogger("pokerroom.server")
PATH = "/ws"
EARLY = 40  # messages kept while the session is looked up (the rate limit's burst)


def socket_class(state: dict[str, Any]) -> type[w.ServerProtocol]:
    """The class uvicorn instantiates for each WebSocket upgrade (its ``ws`` setting), for
    the bus and sessions that ``state`` holds once the room is ready."""

    class RoomSocket(RoomSocketBase):
        room_state = state

    return RoomSocket


def http_protocol(limits: Limits | None = None) -> type[asyncio.Protocol]:
    """uvicorn's httptools HTTP protocol (its ``http`` setting) with these changes:

    - on an upgrade, the bytes that came after the handshake in the same read go on to
      the WebSocket protocol (uvicorn drops them, so a client that sent its first message
      along with its handshake never got an answer);
    - a request's head (request line and headers) over ``limits.max_head`` bytes is
      answered 431 and the connection closed: httptools has no limit of its own, and
      16 MiB of headers were read and answered 200;
    - a request must arrive whole (head and body) within ``limits.request_timeout`` of its
      first byte, and a new connection must start one as soon: a client that dribbles its
      headers a byte at a time no longer holds a connection for ever;
    - at most ``limits.http_per_address`` connections from one peer (a trusted proxy's
      are not capped here: the WebSocket and login limits count its clients).
    """
    import sys

    import httptools
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    bounds = limits or Limits()
    open_from = AddressCount()

    class UpgradingHttp(HttpToolsProtocol):
        _data = b""
        _head = 0  # bytes of the current request's head received so far
        _in_head = True  # waiting for the end of a request's head
        _deadline: asyncio.TimerHandle | None = None
        _peer: str | None = None  # counted in open_from while set

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            peer = self.client[0] if self.client else None
            if peer is not None and not bounds.proxies.trusts(peer):
                if not open_from.add(peer, bounds.http_per_address):
                    self._refuse(503, b"too many connections from your address")
                    return
                self._peer = peer
            self._start_clock()

        def connection_lost(self, exc: Exception | None) -> None:
            self._uncount()
            self._stop_clock()
            super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            self._data = data
            try:
                super().data_received(data)
            finally:
                self._data = b""
            if self._in_head and self.parser is not None and not self.transport.is_closing():
                self._head += len(data)
                if self._head > bounds.max_head:
                    self._refuse(431, b"the request's headers are too large")

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._in_head, self._head = True, 0
            self._start_clock()

        def on_headers_complete(self) -> None:
            self._in_head = False
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._stop_clock()
            super().on_message_complete()

        def handle_websocket_upgrade(self) -> None:
            # called while data_received handles httptools' HttpParserUpgrade, whose
            # argument is where the handshake ends in ``data``
            self._stop_clock()
            self._uncount()  # the WebSocket side counts its own connections
            self._in_head = False
            error = sys.exc_info()[1]
            end = error.args[0] if isinstance(error, httptools.HttpParserUpgrade) and error.args else None
            leftover = self._data[end:] if isinstance(end, int) else b""
            super().handle_websocket_upgrade()
            protocol = self.transport.get_protocol()
            if leftover and isinstance(protocol, w.ServerProtocol):
                protocol.data_received(leftover)

        def _start_clock(self) -> None:
            self._stop_clock()
            self._deadline = self.loop.call_later(bounds.request_timeout, self._too_slow)

        def _stop_clock(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if not self.transport.is_closing():
                if self._in_head:
                    self._refuse(408, b"the request took too long to arrive")
                else:
                    self.transport.close()

        def _uncount(self) -> None:
            if self._peer is not None:
                open_from.remove(self._peer)
                self._peer = None

        def _refuse(self, status: int, reason: bytes) -> None:
            """Answer ``status`` and close, whatever else was coming."""
            self._stop_clock()
            phrase = {408: b"Request Timeout", 431: b"Request Header Fields Too Large",
                      503: b"Service Unavailable"}[status]
            body = b'{"error": {"code": "http", "message": "' + reason + b'"}}'
            self.transport.write(
                b"HTTP/1.1 %d %s\r\ncontent-type: application/json\r\ncontent-length: %d\r\n"
                b"connection: close\r\n\r\n%s" % (status, phrase, len(body), body)
            )
            self.transport.close()
            if self.cycle is not None:
                self.cycle.disconnected = True
                self.cycle.keep_alive = False

    return UpgradingHttp


class RoomSocketBase(w.ServerProtocol):
    room_state: dict[str, Any]

    def __init__(self, config: Any = None, server_state: Any = None, app_state: Any = None) -> None:
        super().__init__(max_size=65536, max_buffer=4 << 20, ping_interval=20.0, ping_timeout=20.0)
        self.server_state = server_state
        self.conn: Connection | None = None
        self.bus: Router | None = None
        self.sessions: Sessions | None = None
        self.bucket = TokenBucket(rate=20.0, burst=40.0)
        self._early: list[tuple[int, str | bytes]] = []  # messages before the login lookup ended
        self._inbox: deque[p.ClientMessage] = deque()  # valid commands waiting for the one before
        self._busy = False  # a table command is out: the next waits for its answer
        self._pumping = False
        self._login_task: asyncio.Future[None] | None = None
        self.address: str | None = None  # the client's, counted in the room's limits while set
        self.anonymous = False  # counted among the address's anonymous connections
        self.token_hash: str | None = None  # the session it came in on (logout closes it)

    # ------------------------------------------------------------- uvicorn's side

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        if self.server_state is not None:
            self.server_state.connections.add(self)

    def shutdown(self) -> None:
        """uvicorn is stopping: close with 1012 (service restart)."""
        if self.state is w.OPEN:
            self.close(1012, "the server is restarting")
        elif self.transport is not None:
            self._abort()

    def on_close(self) -> None:
        if self.server_state is not None:
            self.server_state.connections.discard(self)
        if self.address is not None:
            self.room_state["sockets"].remove(self.address)
            if self.anonymous:
                self.room_state["anonymous"].remove(self.address)
            self.address = None
        if self.sessions is not None and self.token_hash is not None:
            self.sessions.closed(self.token_hash, self)
        if self.conn is not None and self.bus is not None:
            self.bus.disconnected(self.conn)

    def end_session(self) -> None:
        """Its session ended (a logout): close it, so the token no longer acts here."""
        if self.state is w.OPEN:
            self.close(w.POLICY, "logged out")

    # ------------------------------------------------------------- the handshake

    def check(self, request: w.Request) -> tuple[int, str] | None:
        if request.path != PATH:
            return 404, f"no WebSocket at {request.path}"
        origin, host = request.headers.get("origin"), request.headers.get("host", "")
        if not origin:  # not a browser: no cookie of a visitor's to misuse
            return None
        try:
            netloc = urlsplit(origin).netloc
        except ValueError:  # not a URL ("http://[::1" and the like)
            netloc = None
        if origin == "null" or netloc is None or netloc.lower() != host.lower():
            # a page of another site may not use a visitor's session cookie here, nor a page
            # with an opaque origin ("null": a sandboxed frame, a data: or file: page), which
            # any site can make
            return 403, "connections from pages of other sites are refused"
        return None

    def on_open(self) -> None:
        if not self.room_state.get("ready"):
            self.close(w.TRY_LATER, "the room is starting")
            return
        self.bus, self.sessions = self.room_state["bus"], self.room_state["sessions"]
        request = self.request
        assert request is not None
        headers = request.headers
        limits: Limits = self.room_state["limits"]
        address = limits.proxies.client(self._peer(), headers.get("x-forwarded-for"))
        if not self.room_state["sockets"].add(address, limits.sockets_per_address):
            self.close(w.POLICY, "too many connections from your address")
            return
        self.address = address
        token = session_token(headers.get("authorization"), headers.get("cookie"), request.query)
        self._login_task = asyncio.ensure_future(self._login(token))

    def _peer(self) -> str | None:
        peer = self.transport.get_extra_info("peername") if self.transport is not None else None
        return str(peer[0]) if isinstance(peer, tuple) and peer else None

    async def _login(self, token: str | None) -> None:
        sessions = self.sessions
        assert sessions is not None
        try:
            account = await sessions.accounts.from_token(token)
        except Exception:
            log.exception("a session lookup failed")
            self.close(w.INTERNAL, "the server could not look up the session")
            return
        if self.state is not w.OPEN:
            return
        if account is None:  # anonymous: a tighter cap per address (they cost nothing to open)
            cap = self.room_state["limits"].anonymous_per_address
            if not self.room_state["anonymous"].add(self.address or "?", cap):
                self.close(w.POLICY, "too many connections from your address: log in")
                return
            self.anonymous = True
        elif token is not None:
            self.token_hash = token_hash(token)
            sessions.opened(self.token_hash, account.id, self)
        conn = Connection(account.name if account else None, account.id if account else None, self.send_text,
                          charge=self.bucket.charge)  # a replay costs its share of the message budget
        self.conn = conn
        conn.send(p.Welcome(player=conn.player, balance=account.balance if account else None))
        early, self._early = self._early, []
        for opcode, payload in early:
            if self.state is w.OPEN:
                self._message(opcode, payload)

    def on_overflow(self) -> None:
        if self.conn is not None:
            self.conn.overflowed = True
        self.close(w.POLICY, "too many unread messages")

    # ------------------------------------------------------------- messages

    def on_text(self, text: str) -> None:
        self._received(w.TEXT, text)

    def on_binary(self, data: bytes) -> None:
        self._received(w.BINARY, data)

    def _received(self, opcode: int, payload: str | bytes) -> None:
        if self.conn is not None:
            self._message(opcode, payload)
        elif len(self._early) < EARLY:
            self._early.append((opcode, payload))
        else:
            self.close(w.POLICY, "too many messages before the welcome")

    def _message(self, opcode: int, raw: str | bytes) -> None:
        conn = self.conn
        assert conn is not None
        if opcode != w.TEXT or type(raw) is not str:
            conn.send(p.Error(code="bad_message", message="messages are JSON text frames"))
            return
        # its size in bytes: its length when ASCII, the common case, else its UTF-8's
        if len(raw) > p.MAX_MESSAGE_BYTES or (not raw.isascii() and len(raw.encode()) > p.MAX_MESSAGE_BYTES):
            conn.send(p.Error(code="too_big", message=f"messages are at most {p.MAX_MESSAGE_BYTES} bytes"))
            return
        if not self.bucket.take():
            conn.send(p.Error(code="rate_limited", message="too many messages: slow down", id=_id_of(raw)))
            return
        try:
            message = p.CLIENT.validate_json(raw)
        except ValidationError as e:
            conn.send(p.Error(code="bad_message", message=_explain(e), id=_id_of(raw)))
            return
        self._inbox.append(message)
        if not self._busy:
            self._pump()

    def _pump(self) -> None:
        """Answer the waiting commands, or hand them to their tables, one at a time: a
        table command holds the next until its answer came. A command that waited while
        the work done for the ones before it (a replay) used up the connection's budget is
        refused."""
        bus, conn = self.bus, self.conn
        assert bus is not None and conn is not None
        self._pumping = True
        try:
            while self._inbox and not self._busy:
                message = self._inbox.popleft()
                if self.bucket.owing():
                    conn.send(p.Error(code="rate_limited", message="too many messages: slow down",
                                      id=message.id))
                    continue
                match message:
                    case p.Ping():
                        conn.send(p.Pong(id=message.id))
                    case p.Lobby():
                        conn.send(bus.watch_lobby(conn))
                    case _:
                        self._busy = True
                        bus.submit(conn, message, self._answer)
        finally:
            self._pumping = False

    def _answer(self, answer: BaseModel | str) -> None:
        """A table's answer to the command out (its text, or a model): to the client, and
        the next command goes (in the loop's next turn, unless it came at once, while
        ``_pump`` still runs)."""
        conn = self.conn
        assert conn is not None
        conn.send(answer)
        self._busy = False
        if not self._pumping and self._inbox:
            self._running_loop().call_soon(self._pump)


def _explain(error: ValidationError) -> str:
    problems = []
    for item in error.errors()[:3]:
        where = ".".join(str(x) for x in item.get("loc", ()) if not isinstance(x, int)) or "message"
        problems.append(f"{where}: {item.get('msg', 'invalid')}")
    return "; ".join(problems)


def _id_of(raw: str) -> str | int | None:
    """The command's id, to echo in an error, if the text has a usable one."""
    if len(raw) > p.MAX_MESSAGE_BYTES:
        return None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if isinstance(data, dict):
        value = data.get("id")
        if type(value) is str and len(value) <= 64:
            return value
        if type(value) is int and 0 <= value <= 2**53:
            return value
    return None
