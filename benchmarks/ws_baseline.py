"""A bare WebSocket broadcast server, the baseline of ``pokerroom loadtest --baseline``.

Plain ASGI on uvicorn (no Starlette, no FastAPI, no pydantic, no database, no rules): just
enough of the room's protocol for the load-test bots (register/login/tables over HTTP;
subscribe, sit, act over the WebSocket), with messages of the same shapes and sizes as the
room's. Each ``act`` is broadcast to every player of the table as one ``events`` message
(an ``Acted`` and a ``TurnStarted``, and every ``ACTIONS_PER_HAND`` actions a
``HandFinished`` and a ``HandStarted`` too), and the next seat gets a ``your_turn``.
What it costs is the floor of any room written this way: the room's actions/s divided by
this one's is the share left after the rules, validation, persistence and views.

    python benchmarks/ws_baseline.py --port 8765 --tables 100 --seats 6
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import uvicorn

ACTIONS_PER_HAND = 9  # about what the room's random/station bots take per hand
Send = Any
Receive = Any


class Table:
    def __init__(self, name: str, seats: int) -> None:
        self.name = name
        self.seats = seats
        self.version = 0
        self.hand = 0
        self.actions = 0
        self.watchers: list[Send] = []
        self.players: dict[int, tuple[str, Send]] = {}
        self.actor: int | None = None

    async def broadcast(self, *events: dict[str, Any]) -> None:
        """One ``events`` message with these events to every watcher, as the room does."""
        items = []
        for event in events:
            self.version += 1
            items.append({"version": self.version, "event": event})
        text = json.dumps({"type": "events", "table": self.name, "events": items})
        for send in self.watchers:
            await send({"type": "websocket.send", "text": text})

    async def turn(self) -> None:
        if self.actor is None:
            return
        _, send = self.players[self.actor]
        message = {
            "type": "your_turn", "table": self.name,
            "legal": {"player": self.actor - 1, "fold": True, "check": False, "call": 2, "min_to": 4,
                      "max_to": 200, "show": False, "muck": False, "bring_in": 0},
            "deadline": time.time() + 30, "game": "NLHE", "street": "preflop", "cards": ["Ah", "Kd"],
            "up": [False, False], "board": [], "pot": 3, "stack": 198, "players": len(self.players),
            "opponents_up": [[] for _ in range(len(self.players) - 1)],
        }
        await send({"type": "websocket.send", "text": json.dumps(message)})

    def next_seat(self) -> int:
        seats = sorted(self.players)
        after = [s for s in seats if self.actor is None or s > self.actor]
        return after[0] if after else seats[0]

    async def act(self, seat: int, action: str, amount: int | None) -> None:
        if seat != self.actor:
            return
        events: list[dict[str, Any]] = [{"type": "Acted", "player": seat, "action": action,
                                         "amount": amount or 2, "to": amount or 2, "all_in": False}]
        self.actions += 1
        if self.actions % ACTIONS_PER_HAND == 0:
            self.hand += 1
            events.append({"type": "HandFinished", "number": self.hand, "hand_id": self.hand,
                           "stacks": [[s, 200] for s in sorted(self.players)]})
            events.append({"type": "HandStarted", "number": self.hand + 1, "button": seat,
                           "seats": sorted(self.players)})
        self.actor = self.next_seat()
        events.append({"type": "TurnStarted", "player": self.actor, "deadline": time.time() + 30,
                       "time_bank": 0})
        await self.broadcast(*events)
        await self.turn()


class App:
    def __init__(self, tables: int, seats: int) -> None:
        self.tables = {f"T{i + 1:04d}": Table(f"T{i + 1:04d}", seats) for i in range(tables)}
        self.listing = json.dumps({"tables": [
            {"name": t.name, "game": "NLHE", "seats": seats, "min_buy_in": 40, "max_buy_in": 200}
            for t in self.tables.values()
        ]}).encode()

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self.http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self.websocket(scope, receive, send)
        elif scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})

    async def http(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        path = scope["path"]
        if path in ("/api/register", "/api/login"):
            out = json.dumps({"token": json.loads(body)["name"]}).encode()
        elif path == "/api/tables":
            out = self.listing
        else:
            out = b'{"ok": true}'
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"application/json")]})
        await send({"type": "http.response.body", "body": out})

    async def websocket(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        headers = dict(scope["headers"])
        name = headers.get(b"authorization", b"Bearer ?").decode().split()[-1]
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send", "text": json.dumps(
            {"type": "welcome", "protocol": 1, "player": name, "balance": 10000})})
        joined: list[Table] = []
        try:
            while True:
                message = await receive()
                if message["type"] == "websocket.disconnect":
                    return
                m = json.loads(message.get("text") or "{}")
                table = self.tables.get(m.get("table", ""))
                if table is None:
                    continue
                kind = m.get("type")
                if kind == "subscribe":
                    table.watchers.append(send)
                    joined.append(table)
                    seats = [{"seat": s, "player": p, "stack": 200} for s, (p, _) in table.players.items()]
                    view = {"seats": seats}
                    await send({"type": "websocket.send", "text": json.dumps(
                        {"type": "snapshot", "table": table.name, "version": table.version, "view": view})})
                elif kind == "sit":
                    table.players[int(m["seat"])] = (name, send)
                    await table.broadcast({"type": "Seated", "seat": m["seat"], "player": name,
                                           "stack": m["buy_in"]})
                    if len(table.players) == table.seats and table.actor is None:
                        table.actor = table.next_seat()
                        await table.turn()
                elif kind == "act":
                    seat = next((s for s, (p, _) in table.players.items() if p == name), None)
                    if seat is not None:
                        await table.act(seat, m.get("action", "call"), m.get("amount"))
        finally:
            for t in joined:
                if send in t.watchers:
                    t.watchers.remove(send)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--seats", type=int, default=6)
    args = parser.parse_args()
    uvicorn.run(App(args.tables, args.seats), host=args.host, port=args.port, log_level="warning",
                ws_max_size=65536)


if __name__ == "__main__":
    main()
