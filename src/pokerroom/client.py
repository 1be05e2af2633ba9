"""The room's client side: one WebSocket connection speaking the protocol's typed messages
(pokerroom.protocol), on the project's own WebSocket (pokerroom.websocket), plus the two
HTTP calls that give a session token.

The bots, the load tester and the tests all talk to the room through ``Connection``: it
sends command models (``Act``, ``Sit``...) as JSON and hands each server message to its
``on_message`` callback already parsed into its model (``YourTurn``, ``EventsMessage``...),
with the text it came in (tests scan what was received). A text that is no protocol
message goes to ``on_invalid`` instead: the server builds some messages as text for speed,
and a client is where a mistake there shows.

No task, no queue: a connection is an asyncio protocol whose messages are handled as they
arrive, so thousands fit in one process (the load tester). Callers that want to await a
message (the tests) keep their own list and condition on top.

Nothing of the server side (gateway, worker, store) is imported here: a client knows the
room only by its protocol.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

import httpx
from pydantic import ValidationError

from pokerroom import websocket as w
from pokerroom.protocol import SERVER, ClientMessage, ServerMessage

OnMessage = Callable[[ServerMessage, str], None]
OnInvalid = Callable[[str, ValidationError], None]


def encode(command: ClientMessage) -> str:
    """A command as the server reads it: the fields given, None ones left out (the
    server's defaults stand for them)."""
    return command.model_dump_json(exclude_unset=True, exclude_none=True)


def parse(text: str) -> ServerMessage:
    """A server message from its text; raises pydantic's ValidationError if it is none."""
    message: ServerMessage = SERVER.validate_json(text)
    return message


def ws_url(http: str) -> str:
    """The room's WebSocket address from its HTTP one (http://host:port -> ws://host:port/ws)."""
    base = http.rstrip("/")
    return base.replace("https://", "wss://", 1).replace("http://", "ws://", 1) + "/ws"


def bearer(token: str | None) -> dict[str, str]:
    """The header that logs a connection or a request in (none for an anonymous one)."""
    return {"Authorization": f"Bearer {token}"} if token else {}


class Connection(w.ClientProtocol):
    """One WebSocket connection to the room. ``send`` writes a command at once; each server
    message goes to ``on_message(message, text)`` as it arrives; ``on_close`` runs once
    when the connection is gone, whoever closed it (``close_code`` says how)."""

    def __init__(
        self,
        on_message: OnMessage,
        *,
        on_invalid: OnInvalid | None = None,
        on_close: Callable[[], None] | None = None,
        max_size: int = 2**22,
        ping_interval: float | None = None,
        ping_timeout: float | None = None,
    ) -> None:
        # no keepalive pings by default: the server pings every connection, and answering
        # is enough to stay alive
        super().__init__(max_size=max_size, ping_interval=ping_interval, ping_timeout=ping_timeout)
        self._on_message = on_message
        self._on_invalid = on_invalid
        self._on_close = on_close

    @property
    def open(self) -> bool:
        return self.state is w.OPEN

    def on_text(self, text: str) -> None:
        try:
            message = parse(text)
        except ValidationError as e:
            if self._on_invalid is None:
                raise
            self._on_invalid(text, e)
            return
        self._on_message(message, text)

    def on_close(self) -> None:
        if self._on_close is not None:
            self._on_close()

    def send(self, command: ClientMessage) -> None:
        self.send_text(encode(command))

    def send_raw(self, text: str) -> None:
        """Any text, protocol message or not (the tests send malformed ones on purpose)."""
        self.send_text(text)

    async def aclose(self, timeout: float = 2.0) -> None:
        """The closing handshake, waited for up to ``timeout`` seconds, then the socket
        dropped whatever the server did."""
        try:
            if self.state is w.OPEN:
                self.close()
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self.wait_closed(), timeout)
        finally:
            if self.state is not w.CLOSED:
                self._abort()


async def connect(
    url: str,
    on_message: OnMessage,
    *,
    token: str | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 30.0,
    **options: Any,
) -> Connection:
    """Open a connection to ``url`` (ws://host:port/ws), logged in with ``token`` unless
    None (an anonymous watcher); ``options`` go to ``Connection``. Raises
    pokerroom.websocket.HandshakeError when the server refuses, OSError, TimeoutError."""
    connection = Connection(on_message, **options)
    await w.connect(url, connection, {**bearer(token), **(headers or {})}, timeout=timeout)
    return connection


async def session(http: httpx.AsyncClient, base: str, name: str, password: str, bot: bool = False) -> str:
    """A session token for ``name``: registered if the name is free (``bot``: as a program's
    account), else logged in."""
    body: dict[str, Any] = {"name": name, "password": password}
    r = await http.post(f"{base}/api/register", json=body | ({"bot": True} if bot else {}))
    if r.status_code == 409:
        r = await http.post(f"{base}/api/login", json=body)
    r.raise_for_status()
    return str(r.json()["token"])
