"""``Player``: a bot on its own connection (pokerroom.client) that the crash and bad-input
tests drive, passive on its own or scripted; and the waits and HTTP calls around it."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from pokerroom import client as room_client
from pokerroom.client import bearer
from pokerroom.protocol import ServerMessage
from tests.policies import staying
from tests.server.helpers.client import PASSWORD, split_events
from tests.server.helpers.servers import Server

Decision = tuple[str, int | None] | None
PlayerPolicy = Callable[["Player", str, dict[str, Any]], Decision]


async def until(check: Callable[[], bool], timeout: float = 30.0, what: str = "a condition") -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


async def register(server: Server, name: str) -> str:
    async with httpx.AsyncClient() as http:
        r = await http.post(f"{server.http}/api/register", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    assert r.json()["balance"] == 10_000
    return str(r.json()["token"])


async def me(server: Server, token: str) -> dict[str, Any]:
    async with httpx.AsyncClient() as http:
        r = await http.get(f"{server.http}/api/me", headers=bearer(token))
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def passive(player: Player, table: str, legal: dict[str, Any]) -> Decision:
    """Check or call; post a stud bring-in; at the showdown muck a beaten hand."""
    return staying(legal)


class Player:
    """A bot on its own WebSocket connection (Bearer token), for the crash and bad-input
    tests. It answers ``your_turn`` with
    its ``policy`` (None: let the clock run), keeps every event by table, and matches the
    server's answers to the commands it sends by id."""

    def __init__(self, server: Server, name: str, token: str, policy: PlayerPolicy | None = passive) -> None:
        self.server, self.name, self.token, self.policy = server, name, token, policy
        self.ws: room_client.Connection | None = None
        self.welcome: dict[str, Any] = {}
        self.events: dict[str, list[dict[str, Any]]] = defaultdict(list)
        self.turns: list[dict[str, Any]] = []
        self.other: asyncio.Queue[dict[str, Any]] = asyncio.Queue()  # answers without an id
        self.act_errors: list[dict[str, Any]] = []  # errors the policy's own moves got
        self.on_event: Callable[[Player, str, dict[str, Any]], None] | None = None
        # seconds to think before acting: a bot at several tables acting at once would go
        # over the server's 20 messages a second
        self.delay = 0.05
        self._replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count(1)
        self._tasks: set[asyncio.Task[None]] = set()
        self._welcomed: asyncio.Future[dict[str, Any]] | None = None

    async def connect(self) -> Player:
        """Connect with its token (none, or one the server refuses: an anonymous watcher)."""
        self._welcomed = asyncio.get_running_loop().create_future()
        self.ws = await room_client.connect(self.server.ws, self._received, token=self.token or None)
        self.welcome = await asyncio.wait_for(self._welcomed, 15)
        welcome = self.welcome
        assert welcome["type"] == "welcome" and welcome["player"] == (self.name or None), welcome
        return self

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.aclose(5.0)
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def _received(self, message: ServerMessage, text: str) -> None:
        if self._welcomed is not None and not self._welcomed.done():
            self._welcomed.set_result(json.loads(text))
            return
        self._dispatch(json.loads(text))

    async def send_raw(self, raw: str | bytes) -> None:
        """Any frame, a protocol message or not: text, or binary for bytes."""
        assert self.ws is not None, "not connected"
        if isinstance(raw, bytes):
            self.ws.send_binary(raw)
        else:
            self.ws.send_raw(raw)

    def _dispatch(self, message: dict[str, Any]) -> None:
        for m in split_events(message):
            self._dispatch_one(m)

    def _dispatch_one(self, m: dict[str, Any]) -> None:
        kind = m["type"]
        if kind == "event":
            self.events[m["table"]].append(m["event"])
            if self.on_event is not None:
                self.on_event(self, m["table"], m["event"])
        elif kind == "your_turn":
            self.turns.append(m)
            if self.policy is not None:
                decision = self.policy(self, m["table"], m["legal"])
                if decision is not None:
                    task = asyncio.create_task(self._act(m["table"], *decision))
                    self._tasks.add(task)
                    task.add_done_callback(self._tasks.discard)
        elif kind in ("ok", "error", "pong") and m.get("id") in self._replies:
            self._replies.pop(m["id"]).set_result(m)
        else:
            self.other.put_nowait(m)

    async def _act(self, table: str, action: str, amount: int | None) -> None:
        if self.delay:
            await asyncio.sleep(self.delay)
        command: dict[str, Any] = {"type": "act", "table": table, "action": action}
        if amount is not None:
            command["amount"] = amount
        reply = await self.request(command)
        if reply["type"] != "ok":
            self.act_errors.append(reply)

    async def request(self, message: dict[str, Any], timeout: float = 15.0) -> dict[str, Any]:
        """Send a command with a fresh id; the ``ok``, ``error`` or ``pong`` that answers it."""
        mid = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._replies[mid] = future
        await self.send_raw(json.dumps({**message, "id": mid}))
        return await asyncio.wait_for(future, timeout)

    async def sit(self, table: str, seat: int, buy_in: int) -> None:
        reply = await self.request({"type": "sit", "table": table, "seat": seat, "buy_in": buy_in})
        assert reply["type"] == "ok", reply

    def finished(self, table: str) -> list[dict[str, Any]]:
        return [e for e in self.events[table] if e["type"] == "HandFinished"]

    def started(self, table: str) -> list[dict[str, Any]]:
        return [e for e in self.events[table] if e["type"] == "HandStarted"]


async def until_async(check: Callable[[], Awaitable[bool]], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not await check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.1)
