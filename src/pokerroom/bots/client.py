"""Bots that play like people: one WebSocket connection each, the same protocol as the
browser (docs/protocol.md), no back door. A bot registers (or logs in), watches its table,
takes a free seat, answers ``your_turn`` with its strategy after a think time, buys in
again when it busts, and stops after a number of hands or when told to.

Thousands fit in one process: a bot is one connection (pokerroom.client) whose messages
are handled as they arrive, already parsed into the protocol's models; no thread, and no
task while it plays.
"""

from __future__ import annotations

import asyncio
import random
import secrets
from dataclasses import dataclass, field
from typing import Any

import httpx

from pokerroom import client
from pokerroom import outbound as o
from pokerroom import websocket as w
from pokerroom.bots.strategies import Strategy, Turn, strategy
from pokerroom.protocol import (
    Act,
    ClientMessage,
    Error,
    EventsMessage,
    Leave,
    Post,
    ServerMessage,
    Sit,
    SitIn,
    Snapshot,
    Subscribe,
    TableMoving,
    TableResumed,
    TopUp,
    YourTurn,
)

PACE = 0.06  # seconds between two messages of one bot


@dataclass
class Tally:
    """What a crowd of bots saw: hands finished per table, actions sent, errors (by code;
    'table_moving': a command held while its table was between owners)."""

    hands: dict[str, set[int]] = field(default_factory=dict)
    actions: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    seated: int = 0

    @property
    def total_hands(self) -> int:
        return sum(len(v) for v in self.hands.values())

    def error(self, code: str) -> None:
        self.errors[code] = self.errors.get(code, 0) + 1


class Bot:
    """One bot: no task of its own while it plays. Each message the server sends is
    handled as it arrives (``on_message``); what the bot says goes out through ``send``,
    which keeps the room's pace and the think time with timers of the event loop."""

    def __init__(
        self,
        url: str,
        name: str,
        table: str,
        play: Strategy,
        *,
        password: str | None = None,
        think: float = 0.0,
        hands: int | None = None,
        tally: Tally | None = None,
        rng: random.Random | None = None,
        others: list[str] | None = None,
    ) -> None:
        self.http = url.rstrip("/")
        # other gateways of the room: when the connection drops, the bot connects to the next
        # one (round robin, with backoff) and plays on; without them it stops
        self.urls = [self.http, *(u.rstrip("/") for u in others or ())]
        self.reconnects = 0
        self._lost = False
        self.ws = client.ws_url(self.http)
        self.name = name
        self.table = table
        self.play = play
        self.password = password or secrets.token_urlsafe(12)
        self.think = think
        self.hands = hands
        self.tally = tally if tally is not None else Tally()
        self.rng = rng or random.Random()
        self.token = ""  # a session already held (else the bot registers or logs in)
        self.seat: int | None = None
        self.played = 0
        self.info: dict[str, Any] = {}
        self.socket: client.Connection | None = None
        self._next_send = 0.0
        self._finished: asyncio.Future[None] | None = None  # played its hands, or disconnected

    # ------------------------------------------------------------ the session

    async def prepare(self) -> None:
        """Register or log in (unless it has a token) and read its table (unless known)."""
        async with httpx.AsyncClient(timeout=120) as http:
            if not self.token:
                self.token = await client.session(http, self.http, self.name, self.password, bot=True)
            if not self.info:
                tables = (await http.get(f"{self.http}/api/tables")).json()["tables"]
                self.info = next(t for t in tables if t["name"] == self.table)

    async def run(self, stop: asyncio.Event | None = None) -> None:
        """Play until ``stop`` is set or its hands are played (then it leaves the table),
        or until the server closes the connection (with other gateways given: until none
        of them has answered for about a minute)."""
        if not self.token or not self.info:
            await self.prepare()
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[Any] | None = asyncio.ensure_future(stop.wait()) if stop else None
        backoff, failures = 0.2, 0
        try:
            while True:
                self._finished = loop.create_future()
                self._lost = False
                try:
                    socket = await client.connect(
                        self.ws, self.on_message, token=self.token, on_close=self._on_close, timeout=120
                    )
                except (OSError, TimeoutError, w.HandshakeError):
                    failures += 1
                    if len(self.urls) == 1 or failures > 60 or (waiter is not None and waiter.done()):
                        raise
                    await self._next_gateway(backoff)
                    backoff = min(backoff * 2, 2.0)
                    continue
                failures, backoff = 0, 0.2
                self.socket = socket
                self.seat = None  # the snapshot says where it sits (a seat outlives a connection)
                self.on_connected()
                self.send(Subscribe(type="subscribe", table=self.table))
                waiting: list[asyncio.Future[Any]] = [self._finished, *([waiter] if waiter else [])]
                moving = False
                try:
                    await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                    moving = self._lost and len(self.urls) > 1 and not (waiter is not None and waiter.done())
                finally:  # done, stopped or cancelled: it leaves and closes (not when it moves on)
                    if not moving:
                        if socket.open:
                            self._write(Leave(type="leave", table=self.table))
                        await socket.aclose(2.0)
                if not moving:
                    return
                self.reconnects += 1
                await self._next_gateway(backoff)
        finally:
            if waiter is not None:
                waiter.cancel()

    def _on_close(self) -> None:
        self._lost = True
        self.finish()

    async def _next_gateway(self, wait: float) -> None:
        """The next gateway of the room, after ``wait`` seconds."""
        self.socket = None
        await asyncio.sleep(wait)
        self.urls.append(self.urls.pop(0))
        self.http = self.urls[0]
        self.ws = client.ws_url(self.http)

    def on_connected(self) -> None:
        """The connection is open (for subclasses)."""

    def finish(self) -> None:
        """Stop playing: its hands are played, or the connection is gone."""
        if self._finished is not None and not self._finished.done():
            self._finished.set_result(None)

    # ------------------------------------------------------------ sending

    def send(self, message: ClientMessage, delay: float = 0.0) -> None:
        """Send after ``delay`` seconds, and at most one message every ``PACE`` seconds
        (the room limits a connection to 20 a second on average)."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        at = max(now + delay, self._next_send)
        self._next_send = at + PACE
        if at <= now:
            self._write(message)
        else:
            loop.call_at(at, self._write, message)

    def _write(self, message: ClientMessage) -> None:
        if self.socket is not None:
            self.sending(message)
            self.socket.send(message)

    def sending(self, message: ClientMessage) -> None:
        """A message is going out now (for subclasses)."""

    # ------------------------------------------------------------ receiving

    def on_message(self, m: ServerMessage, text: str = "") -> None:
        if isinstance(m, EventsMessage):
            for item in m.events:
                self.on_event(item.event, item.version)
        elif isinstance(m, YourTurn) and m.table == self.table:
            action, amount = self.play.decide(Turn.from_message(m))
            command = Act(type="act", table=self.table, action=action, amount=amount)
            self.send(command, self.think * (0.5 + self.rng.random()) if self.think else 0.0)
            self.tally.actions += 1
        elif isinstance(m, Snapshot):
            if self.seat is None:
                self.sit(m.view)
            else:  # a redraw (a gap, a new owner): what it missed may have sat it out
                self.come_back(m.view)
        elif isinstance(m, TableResumed) and m.table == self.table:
            # a paused table refused what it was sent meanwhile (a seat taken, say): look again
            self.seat = None
            self.send(Subscribe(type="subscribe", table=self.table))
        elif isinstance(m, TableMoving):  # its command waits for the table's next owner
            self.tally.error("table_moving")
        elif isinstance(m, Error):
            self.tally.error(m.code)
            if m.code in ("seat_taken", "already_seated") and self.seat is not None:
                self.seat = None
                self.send(Subscribe(type="subscribe", table=self.table))

    def sit(self, view: o.TableView) -> None:
        taken = {s.seat for s in view.seats}
        me = next((s for s in view.seats if s.player == self.name), None)
        if me is not None:  # seated already (back after a lost connection): play on
            self.seat = me.seat
            self.come_back(view)  # sat out while it was away (busted: it buys in again)
            return
        seat = self.choose_seat(taken)
        if seat is None:
            return
        self.seat = seat
        self.send(Sit(type="sit", table=self.table, seat=seat, buy_in=self.buy_in()))
        self.tally.seated += 1

    def come_back(self, view: o.TableView) -> None:
        """Seated, and the table says it sits out: the SatOut event it would have answered
        was in what a snapshot replaced (a table that changed worker), so answer it now."""
        me = next((s for s in view.seats if s.player == self.name), None)
        if me is None or me.state != "sitting_out" or me.leaving:
            return
        if me.stack == 0:  # busted: buy in again
            self._write(TopUp(type="top_up", table=self.table, amount=int(self.info["min_buy_in"])))
        else:
            self.send(SitIn(type="sit_in", table=self.table))

    def choose_seat(self, taken: set[int]) -> int | None:
        free = [s for s in range(1, int(self.info["seats"]) + 1) if s not in taken]
        return self.rng.choice(free) if free else None

    def buy_in(self) -> int:
        return self.rng.randint(self.info["min_buy_in"], self.info["max_buy_in"])

    def on_event(self, e: o.Event, version: int) -> None:
        if isinstance(e, o.HandFinished):
            self.tally.hands.setdefault(self.table, set()).add(e.number)
            if self.seat is not None and any(s == self.seat for s, _ in e.stacks):
                self.played += 1
                if self.hands is not None and self.played >= self.hands:
                    self.finish()  # run() leaves the table
        elif isinstance(e, o.SatOut) and e.player == self.name:
            if e.reason == "busted":  # buy in again
                self._write(TopUp(type="top_up", table=self.table, amount=int(self.info["min_buy_in"])))
            else:
                self.send(SitIn(type="sit_in", table=self.table))
        elif isinstance(e, o.Left) and e.player == self.name:
            self.seat = None
        elif isinstance(e, o.PostRequested) and e.player == self.name:
            self.send(Post(type="post", table=self.table, accept=True))


def crowd(
    url: str,
    count: int,
    tables: list[dict[str, Any]],
    *,
    strategies: list[str],
    think: float = 0.0,
    hands: int | None = None,
    prefix: str = "bot",
    seed: int | None = None,
    tally: Tally | None = None,
    per_table: dict[str, int] | None = None,
    others: list[str] | None = None,
) -> list[Bot]:
    """``count`` bots spread over ``tables`` (at most ``per_table[name]`` at each, else
    one seat short of full, so people find a seat), strategies in turn; ``others``: the
    room's other gateways, which they move to when theirs goes."""
    rng = random.Random(seed)
    tally = tally if tally is not None else Tally()
    bots: list[Bot] = []
    room = {t["name"]: (per_table or {}).get(t["name"], int(t["seats"]) - 1) for t in tables}
    tag = secrets.token_hex(2)
    while len(bots) < count and any(room.values()):
        for t in tables:
            if len(bots) >= count or room[t["name"]] <= 0:
                continue
            room[t["name"]] -= 1
            kind = strategies[len(bots) % len(strategies)]
            name = f"{prefix}{tag}{len(bots):04d}"[:20]
            bots.append(
                Bot(
                    url,
                    name,
                    t["name"],
                    strategy(kind, random.Random(rng.random())),
                    think=think,
                    hands=hands,
                    tally=tally,
                    rng=random.Random(rng.random()),
                    others=others,
                )
            )
    return bots
