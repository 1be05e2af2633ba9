"""An async test client of the room server: HTTP (httpx) for accounts and histories, the
room's own protocol client (pokerroom.client) for the WebSocket (docs/protocol.md).

Every raw message a connection receives is kept, in order, with the time it arrived
(``received``), and parsed (``messages``); tests await the next message matching a
predicate instead of sleeping. ``play`` is a simple bot: it answers ``your_turn`` with a
policy (tests/policies.py) and counts the hands that finish. ``Players``: the clients of
one test, closed at its end."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from pydantic import ValidationError

from pokerroom import client as room_client
from pokerroom.protocol import Act, ClientMessage, Leave, PreviousHand, ServerMessage, Sit, Subscribe
from tests.policies import Message, Policy, random_policy
from tests.server.helpers.servers import Server, run

Predicate = Callable[[Message], bool]

PASSWORD = "correct horse battery"
GRANT = 10_000  # the test room's starting balance


def is_event(table: str, *kinds: str, version: int | None = None, **fields: Any) -> Predicate:
    """A predicate: an ``event`` message of ``table`` (at ``version`` if given) of one of
    ``kinds`` (any when none) whose event has the given field values."""

    def match(m: Message) -> bool:
        if m.get("type") != "event" or m.get("table") != table:
            return False
        if version is not None and m["version"] != version:
            return False
        e = m["event"]
        if kinds and e["type"] not in kinds:
            return False
        return all(e.get(k) == v for k, v in fields.items())

    return match


def split_events(message: Message) -> list[Message]:
    """An ``events`` message as one ``{"type": "event", "table", "version", "event"}`` per
    event, in order; any other message as itself."""
    if message.get("type") != "events":
        return [message]
    table = message["table"]
    return [
        {"type": "event", "table": table, "version": item["version"], "event": item["event"]}
        for item in message["events"]
    ]


class Client:
    """One account (or an anonymous observer when ``name`` is None) and at most one open
    WebSocket connection at a time."""

    def __init__(self, http: str, ws: str, name: str | None = None, password: str = PASSWORD) -> None:
        self.http_url, self.ws_url = http, ws
        self.name, self.password = name, password
        self.token: str | None = None
        self.http = httpx.AsyncClient(base_url=http, timeout=30.0)
        self.received: list[tuple[float, str]] = []  # every raw message, with its arrival time
        self.messages: list[Message] = []  # the same, parsed
        self.versions: dict[str, int] = {}  # the last event version seen per table
        self.seats: dict[str, int] = {}  # table -> this player's seat (the last he took)
        self.errors: list[Message] = []  # every ``error`` received
        self.invalid: list[str] = []  # received texts that are not protocol messages
        self.hands_played = 0
        self._ws: room_client.Connection | None = None
        self._changed = asyncio.Event()  # set at each message received, and at the close
        self._ids = 0
        self._closed = True
        self._tokens, self._at = 30.0, time.monotonic()  # client side rate limit

    # ------------------------------------------------------------------ HTTP

    def _auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"} if self.token else {}

    async def register(self) -> httpx.Response:
        r = await self.http.post("/api/register", json={"name": self.name, "password": self.password})
        if r.status_code == 200:
            self.token = r.json()["token"]
        return r

    async def login(self, password: str | None = None) -> httpx.Response:
        r = await self.http.post(
            "/api/login",
            json={"name": self.name, "password": self.password if password is None else password},
        )
        if r.status_code == 200:
            self.token = r.json()["token"]
        return r

    async def get(self, path: str) -> httpx.Response:
        return await self.http.get(path, headers=self._auth())

    async def me(self) -> Message:
        r = await self.get("/api/me")
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    async def balance(self) -> int:
        return int((await self.me())["balance"])

    # ------------------------------------------------------------------ WebSocket

    async def connect(self, anonymous: bool = False) -> Message:
        """Open the WebSocket (with the bearer token unless ``anonymous``); returns the
        ``welcome``."""
        assert self._closed, "already connected"
        start = self.mark()
        self._ws = await room_client.connect(
            self.ws_url, self._received, token=None if anonymous else self.token,
            on_invalid=self._invalid, on_close=self._gone,
        )
        self._closed = False
        _, welcome = await self.wait_for(lambda m: m["type"] == "welcome", start=start)
        return welcome

    def _received(self, message: ServerMessage, text: str) -> None:
        self._record(text)

    def _invalid(self, text: str, error: ValidationError) -> None:
        # the server builds some messages as text for speed: each must still be one of the
        # protocol's messages
        self.invalid.append(f"{text[:200]}: {error}")
        with contextlib.suppress(ValueError):
            self._record(text)

    def _record(self, text: str) -> None:
        message = json.loads(text)
        now = time.time()
        for one in split_events(message):
            # an ``events`` batch is recorded as its events, one ``event`` each (with its
            # text, for the scans of what was received)
            self.received.append((now, text if one is message else json.dumps(one)))
            self.messages.append(one)
            if one["type"] in ("event", "snapshot"):
                self.versions[one["table"]] = one["version"]
            elif one["type"] == "error":
                self.errors.append(one)
        self._changed.set()

    def _gone(self) -> None:
        self._closed = True
        self._changed.set()

    async def close(self) -> None:
        """Close the WebSocket (the messages received stay)."""
        if self._ws is not None:
            await self._ws.aclose(5.0)
        self._ws = None

    async def aclose(self) -> None:
        await self.close()
        await self.http.aclose()

    @property
    def connected(self) -> bool:
        return not self._closed

    async def _throttle(self) -> None:
        """Stay under the server's 20 messages a second (bursts of 40)."""
        while True:
            now = time.monotonic()
            self._tokens = min(30.0, self._tokens + (now - self._at) * 18.0)
            self._at = now
            if self._tokens >= 1:
                self._tokens -= 1
                return
            await asyncio.sleep((1 - self._tokens) / 18.0)

    async def send(self, message: Message | ClientMessage) -> None:
        """A command: a protocol model, or a dict sent as it is (right or wrong on purpose)."""
        assert self._ws is not None, "not connected"
        await self._throttle()
        if isinstance(message, dict):
            self._ws.send_raw(json.dumps(message))
        else:
            self._ws.send(message)

    async def send_raw(self, text: str) -> None:
        assert self._ws is not None, "not connected"
        self._ws.send_raw(text)

    def mark(self) -> int:
        """The index the next message will get (for ``wait_for(start=...)``)."""
        return len(self.messages)

    async def wait_for(
        self, predicate: Predicate, timeout: float = 10.0, start: int = 0
    ) -> tuple[int, Message]:
        """The first message from index ``start`` on matching ``predicate`` (waiting for it
        up to ``timeout`` seconds), and its index."""
        i = start
        try:
            async with asyncio.timeout(timeout):
                while True:
                    while i < len(self.messages):
                        if predicate(self.messages[i]):
                            return i, self.messages[i]
                        i += 1
                    assert not self.invalid, f"{self.name}: not protocol messages: {self.invalid[:3]}"
                    if self._closed:
                        raise AssertionError(f"{self.name}: connection closed while waiting")
                    self._changed.clear()
                    await self._changed.wait()
        except TimeoutError:
            tail = [m for _, m in self.received[-5:]]
            raise AssertionError(f"{self.name}: no matching message in {timeout} s; last: {tail}") from None

    async def command(self, message: Message | ClientMessage, timeout: float = 10.0) -> tuple[int, Message]:
        """Send a command with a fresh ``id``; return the ``ok`` or ``error`` answering it
        and its index in ``messages``."""
        self._ids += 1
        ident = f"{self.name or 'observer'}-{self._ids}"
        start = self.mark()
        if isinstance(message, dict):
            await self.send({**message, "id": ident})
        else:
            await self.send(message.model_copy(update={"id": ident}))
        return await self.wait_for(
            lambda m: m["type"] in ("ok", "error") and m.get("id") == ident, timeout, start
        )

    async def request(self, message: Message | ClientMessage, timeout: float = 10.0) -> Message:
        """``command``, the answer only."""
        return (await self.command(message, timeout))[1]

    def events(self, table: str, *kinds: str) -> list[Message]:
        """The ``event`` messages of ``table`` received so far (of ``kinds`` if given)."""
        match = is_event(table, *kinds)
        return [m for m in self.messages if match(m)]

    def hole_dealt(self, table: str, number: int) -> list[Message]:
        """This player's HoleDealt events in hand ``number`` of ``table``, in the order
        dealt (as this connection received them)."""
        seat, dealt, inside = self.seats.get(table), [], False
        for m in self.events(table):
            e = m["event"]
            if e["type"] == "HandStarted":
                inside = e["number"] == number
            elif e["type"] == "HandFinished":
                inside = False
            elif inside and e["type"] == "HoleDealt" and e["player"] == seat:
                dealt.append(e)
        return dealt

    def hole_cards(self, table: str, number: int) -> list[str | None]:
        """The cards of ``hole_dealt`` (None where this connection was not shown one)."""
        return [e["card"] for e in self.hole_dealt(table, number)]

    # ------------------------------------------------------------------ commands

    async def subscribe(self, table: str, since: int | None = None) -> Message:
        return await self.request(Subscribe(type="subscribe", table=table, since=since))

    async def sit(self, table: str, seat: int, buy_in: int) -> Message:
        answer = await self.request(Sit(type="sit", table=table, seat=seat, buy_in=buy_in))
        if answer["type"] == "ok":
            self.seats[table] = seat
        return answer

    async def act(self, table: str, action: str, amount: int | None = None) -> Message:
        return await self.request(Act(type="act", table=table, action=action, amount=amount))  # type: ignore[arg-type]

    async def previous_hand(self, table: str) -> Message | None:
        """The previous-hand record of ``table`` (None before the first hand)."""
        start = self.mark()
        await self.send(PreviousHand(type="previous_hand", table=table))
        _, answer = await self.wait_for(
            lambda m: m["type"] == "previous_hand" and m["table"] == table, start=start
        )
        return answer["hand"]  # type: ignore[no-any-return]

    async def leave(self, table: str) -> Message:
        """Leave and wait for the ``Left`` event; returns it (its ``stack`` goes back to the
        balance)."""
        start = self.mark()
        answer = await self.request(Leave(type="leave", table=table))
        assert answer["type"] == "ok", answer
        _, left = await self.wait_for(is_event(table, "Left", player=self.name), 30.0, start)
        return left["event"]  # type: ignore[no-any-return]

    async def play(
        self,
        table: str,
        hands: int,
        policy: Policy = random_policy,
        rng: random.Random | None = None,
        rebuy: int | None = None,
        on_turn: Callable[[Message], Awaitable[None]] | None = None,
        on_finished: Callable[[Message], Awaitable[None]] | None = None,
        timeout: float = 30.0,
    ) -> int:
        """Answer every ``your_turn`` of ``table`` with ``policy`` until ``hands`` more
        HandFinished events have come; buy in again for ``rebuy`` when busted. ``on_turn``
        runs before each answer, ``on_finished`` after each hand. Returns the number of
        hands this player was dealt in meanwhile."""
        rng = rng or random.Random()
        seat = self.seats[table]
        finished = dealt = 0
        answered: float | None = None
        i = self.mark()

        def wanted(m: Message) -> bool:
            if m.get("table") != table:
                return False
            if m["type"] == "your_turn":
                return True
            return m["type"] == "event" and m["event"]["type"] in ("HandStarted", "HandFinished", "SatOut")

        while finished < hands:
            i, m = await self.wait_for(wanted, timeout, i)
            i += 1
            if m["type"] == "your_turn":
                if m["deadline"] == answered:  # the same turn again (after a subscribe)
                    continue
                answered = m["deadline"]
                if on_turn is not None:
                    await on_turn(m)
                action, amount = policy(m["legal"], rng)
                message: Message = {"type": "act", "table": table, "action": action}
                if amount is not None:
                    message["amount"] = amount
                self._ids += 1
                await self.send({**message, "id": f"{self.name}-{self._ids}"})
                continue
            event = m["event"]
            if event["type"] == "HandStarted":
                dealt += seat in event["seats"]
            elif event["type"] == "HandFinished":
                finished += 1
                if on_finished is not None:
                    await on_finished(m)
            elif event["player"] == self.name and event["reason"] == "busted" and rebuy:
                await self.send({"type": "top_up", "table": table, "amount": rebuy})
        self.hands_played += dealt
        return dealt


class Players:
    """The clients of one test, closed at its end whatever happens."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.clients: list[Client] = []

    async def player(self, name: str) -> Client:
        """A registered, connected player."""
        c = Client(self.server.http, self.server.ws, name)
        self.clients.append(c)
        r = await c.register()
        assert r.status_code == 200, r.text
        assert r.json()["balance"] == GRANT
        welcome = await c.connect()
        assert welcome == {"type": "welcome", "protocol": 3, "player": name, "balance": GRANT}
        return c

    async def observer(self, *tables: str) -> Client:
        """An anonymous connection watching ``tables``."""
        c = Client(self.server.http, self.server.ws)
        self.clients.append(c)
        assert (await c.connect(anonymous=True))["player"] is None
        for name in tables:
            assert (await c.subscribe(name))["type"] == "ok"
        return c


def in_room(server: Server, scenario: Callable[[Players], Awaitable[None]]) -> None:
    async def main() -> None:
        room = Players(server)
        try:
            await scenario(room)
        finally:
            for c in room.clients:
                await c.aclose()

    run(main())
