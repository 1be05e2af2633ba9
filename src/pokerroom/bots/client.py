"""Bots that play like people: one WebSocket connection each, the same protocol as the
browser (docs/protocol.md), no back door. A bot registers (or logs in), watches its table,
takes a free seat, answers ``your_turn`` with its strategy after a think time, buys in
again when it busts, and stops after a number of hands or when told to.

Thousands fit in one process: a bot is one asyncio task and one connection, no thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

from pokerroom.bots.strategies import Strategy, Turn, strategy

log = logging.getLogger("pokerroom.bots")
PACE = 0.06  # seconds between two messages of one bot


@dataclass
class Tally:
    """What a crowd of bots saw: hands finished per table, actions sent, errors."""

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
    ) -> None:
        self.http = url.rstrip("/")
        self.ws = self.http.replace("http://", "ws://").replace("https://", "wss://") + "/ws"
        self.name = name
        self.table = table
        self.play = play
        self.password = password or secrets.token_urlsafe(12)
        self.think = think
        self.hands = hands
        self.tally = tally if tally is not None else Tally()
        self.rng = rng or random.Random()
        self.seat: int | None = None
        self.played = 0
        self.info: dict[str, Any] = {}
        self._next_send = 0.0

    async def _send(self, ws: Any, message: dict[str, Any]) -> None:
        """Send, at most one message every ``PACE`` seconds (the room limits a connection
        to 20 a second on average)."""
        loop = asyncio.get_running_loop()
        wait = self._next_send - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        self._next_send = max(loop.time(), self._next_send) + PACE
        await ws.send(json.dumps(message))

    async def login(self, client: httpx.AsyncClient) -> str:
        body = {"name": self.name, "password": self.password}
        r = await client.post(f"{self.http}/api/register", json=body)
        if r.status_code == 409:
            r = await client.post(f"{self.http}/api/login", json=body)
        r.raise_for_status()
        return str(r.json()["token"])

    async def run(self, stop: asyncio.Event | None = None) -> None:
        async with httpx.AsyncClient(timeout=30) as client:
            token = await self.login(client)
            tables = (await client.get(f"{self.http}/api/tables")).json()["tables"]
        self.info = next(t for t in tables if t["name"] == self.table)
        headers = {"Authorization": f"Bearer {token}"}
        # keepalive pings spread over time: thousands of bots connected together would
        # otherwise all ping at once
        async with websockets.connect(
            self.ws, additional_headers=headers, ping_interval=20 + self.rng.random() * 20, max_size=2**22
        ) as ws:
            await self._send(ws, {"type": "subscribe", "table": self.table})
            waiter = asyncio.ensure_future(stop.wait()) if stop is not None else None
            try:
                await self._loop(ws, waiter)
            finally:
                if waiter is not None:
                    waiter.cancel()
                with contextlib.suppress(Exception):
                    await self._send(ws, {"type": "leave", "table": self.table})

    async def _loop(self, ws: Any, waiter: asyncio.Future[Any] | None) -> None:
        while self.hands is None or self.played < self.hands:
            receive = asyncio.ensure_future(ws.recv())
            done, _ = await asyncio.wait(
                {receive, *([waiter] if waiter else [])}, return_when=asyncio.FIRST_COMPLETED
            )
            if receive not in done:
                receive.cancel()
                return
            message = json.loads(receive.result())
            await self._on(ws, message)

    async def _on(self, ws: Any, m: dict[str, Any]) -> None:
        kind = m.get("type")
        if kind == "snapshot" and self.seat is None:
            await self._sit(ws, m["view"])
        elif kind == "your_turn" and m.get("table") == self.table:
            turn = Turn.from_message(m)
            action, amount = self.play.decide(turn)
            if self.think:
                await asyncio.sleep(self.think * (0.5 + self.rng.random()))
            command: dict[str, Any] = {"type": "act", "table": self.table, "action": action}
            if amount is not None:
                command["amount"] = amount
            await self._send(ws, command)
            self.tally.actions += 1
        elif kind == "events":
            for item in m["events"]:
                await self._event(ws, item["event"])
        elif kind == "error":
            code = m.get("code", "?")
            self.tally.error(code)
            if code in ("seat_taken", "already_seated") and self.seat is not None:
                self.seat = None
                await self._send(ws, {"type": "subscribe", "table": self.table})

    async def _sit(self, ws: Any, view: dict[str, Any]) -> None:
        taken = {s["seat"] for s in view["seats"]}
        me = next((s for s in view["seats"] if s["player"] == self.name), None)
        if me is not None:
            self.seat = me["seat"]
            return
        free = [s for s in range(1, int(self.info["seats"]) + 1) if s not in taken]
        if not free:
            return
        self.seat = self.rng.choice(free)
        buy_in = self.rng.randint(self.info["min_buy_in"], self.info["max_buy_in"])
        await self._send(ws, {"type": "sit", "table": self.table, "seat": self.seat, "buy_in": buy_in})
        self.tally.seated += 1

    async def _event(self, ws: Any, e: dict[str, Any]) -> None:
        kind = e.get("type")
        if kind == "HandFinished":
            self.tally.hands.setdefault(self.table, set()).add(e["number"])
            if self.seat is not None and any(s == self.seat for s, _ in e["stacks"]):
                self.played += 1
        elif kind == "SatOut" and e.get("player") == self.name:
            if e.get("reason") == "busted":  # buy in again
                await ws.send(
                    json.dumps({"type": "top_up", "table": self.table, "amount": self.info["min_buy_in"]})
                )
            else:
                await self._send(ws, {"type": "sit_in", "table": self.table})
        elif kind == "Left" and e.get("player") == self.name:
            self.seat = None
        elif kind == "PostRequested" and e.get("player") == self.name:
            await self._send(ws, {"type": "post", "table": self.table, "accept": True})


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
) -> list[Bot]:
    """``count`` bots spread over ``tables`` (at most ``per_table[name]`` at each, else
    one seat short of full, so people find a seat), strategies in turn."""
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
                )
            )
    return bots
