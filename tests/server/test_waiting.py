"""Waiting lists and tables that open themselves (issue 19), on a real room: `pokerroom
serve` on SQLite and PostgreSQL, and the cluster (two workers and a gateway on NATS).

A full table's waiting list holds people ahead of bots; a freed seat is offered to the
first, who is told wherever he is (``seat_offered``: he need not watch the table), held
for him for the table's ``seat_offer_time`` and passed on when it lapses; nobody else
takes it. A template keeps a table with a free seat: when the last seat of its tables is
taken another opens, and an empty surplus table closes after ``close_after``. No chip is
made or lost on the way."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.rooms import NO_BANK, room, table
from tests.server.helpers import (
    GRANT,
    PASSWORD,
    Client,
    Players,
    Server,
    audit_of,
    in_room,
    is_event,
    run,
    serving,
)

ROOM = room(
    table("Duo", seats=2, min_buy_in=40, max_buy_in=200, action_time=5, seat_offer_time=2, **NO_BANK),
    templates=(table("Quick", seats=2, min_buy_in=40, max_buy_in=200, action_time=5, min_free=1,
                     max_tables=3, close_after=1, **NO_BANK),),
    pause=0.05,
)


@pytest.fixture
def server(tmp_path: Path, deployment: tuple[tuple[str, str | None], type[Server]]) -> Any:
    database, kind = deployment
    room_server = kind(tmp_path, database)
    room_server.config.write_text(ROOM)
    yield from serving(room_server)


async def lobby(server: Server) -> dict[str, dict[str, Any]]:
    async with httpx.AsyncClient(base_url=server.http) as http:
        return {row["name"]: row for row in (await http.get("/api/tables")).json()["tables"]}


async def until_lobby(server: Server, check: Any, what: str,
                      timeout: float = 20.0) -> dict[str, dict[str, Any]]:
    deadline = time.monotonic() + timeout
    while True:
        rows = await lobby(server)
        if check(rows):
            return rows
        assert time.monotonic() < deadline, f"{what}: the lobby says {sorted(rows)}"
        await asyncio.sleep(0.2)


async def bot(room: Players, name: str) -> Client:
    """A player registered as a program's account."""
    c = Client(room.server.http, room.server.ws, name)
    room.clients.append(c)
    r = await c.http.post("/api/register", json={"name": name, "password": PASSWORD, "bot": True})
    assert r.status_code == 200, r.text
    c.token = r.json()["token"]
    await c.connect()
    return c


def join(table_name: str) -> dict[str, Any]:
    return {"type": "join_waiting", "table": table_name}


def test_a_waiting_list_seats_people_before_bots_and_passes_a_lapsed_offer_on(server: Server) -> None:
    async def scenario(room: Players) -> None:
        ann, bob, carl, erin = [await room.player(n) for n in ("ann", "bob", "carl", "erin")]
        robo = await bot(room, "robo")
        watcher = await room.observer("Duo")
        assert (await carl.request(join("Duo")))["code"] == "seat_free"  # nobody waits for a free seat
        assert (await ann.sit("Duo", 1, 100))["type"] == "ok"
        assert (await bob.sit("Duo", 2, 100))["type"] == "ok"
        for c in (carl, robo, erin):  # the bot joined before erin, and waits behind her
            assert (await c.request(join("Duo")))["type"] == "ok"
        assert (await carl.request(join("Duo")))["code"] == "already_waiting"
        assert (await ann.request(join("Duo")))["code"] == "already_seated"
        await watcher.wait_for(is_event("Duo", "WaitingChanged", waiting=["carl", "erin", "robo"]))
        rows = await until_lobby(server, lambda r: r["Duo"]["waiting"] == 3, "three waiting")
        assert rows["Duo"]["taken"] == 2

        # bob leaves: carl, who does not even watch the table, is offered his seat
        start = carl.mark()
        await bob.leave("Duo")
        _, offer = await carl.wait_for(lambda m: m["type"] == "seat_offered", 10.0, start)
        assert offer["table"] == "Duo" and offer["until"] > time.time()
        assert (await erin.sit("Duo", 2, 100))["code"] == "seat_held"
        assert (await carl.sit("Duo", 2, 100))["type"] == "ok"
        await watcher.wait_for(is_event("Duo", "WaitingChanged", waiting=["erin", "robo"], offers=[]))

        # ann leaves: erin is offered the seat, lets it lapse (2 s), and it goes to the bot
        start = erin.mark()
        robo_start = robo.mark()
        await ann.leave("Duo")
        await erin.wait_for(lambda m: m["type"] == "seat_offered", 10.0, start)
        _, offer = await robo.wait_for(lambda m: m["type"] == "seat_offered", 10.0, robo_start)
        _, lapsed = await watcher.wait_for(is_event("Duo", "WaitingChanged", waiting=["robo"]))
        assert [who for who, _ in lapsed["event"]["offers"]] == ["robo"]
        assert (await robo.sit("Duo", 1, 100))["type"] == "ok"
        assert (await robo.request({"type": "leave_waiting", "table": "Duo"}))["code"] == "not_waiting"
        for c in (carl, robo):
            await c.leave("Duo")
        assert sum([await c.balance() for c in (ann, bob, carl, erin, robo)]) == 5 * GRANT  # hands played

    in_room(server, scenario)
    totals = run(audit_of(server.database))
    assert totals["seats"] == 0, totals  # type: ignore[index]


def test_a_template_opens_a_table_when_its_last_seat_is_taken_and_closes_a_surplus(server: Server) -> None:
    async def scenario(room: Players) -> None:
        rows = await until_lobby(server, lambda r: "Quick #1" in r, "the template's first table")
        assert "Quick #2" not in rows and rows["Quick #1"]["template"] == "Quick"
        ann, bob = await room.player("ann"), await room.player("bob")
        assert (await ann.sit("Quick #1", 1, 100))["type"] == "ok"
        assert (await bob.sit("Quick #1", 2, 100))["type"] == "ok"
        rows = await until_lobby(server, lambda r: "Quick #2" in r, "a table opening when #1 is full")
        assert rows["Quick #2"]["taken"] == 0 and rows["Quick #2"]["template"] == "Quick"
        assert (await ann.sit("Quick #9", 1, 100))["code"] == "unknown_table"  # past max_tables
        await ann.leave("Quick #1")
        await bob.leave("Quick #1")
        # both empty, one more than min_free: the higher number closes after close_after
        await until_lobby(server, lambda r: "Quick #1" in r and "Quick #2" not in r, "a surplus closing")
        assert sum([await c.balance() for c in (ann, bob)]) == 2 * GRANT  # a hand or two played

    in_room(server, scenario)
    totals = run(audit_of(server.database))
    assert totals["seats"] == 0, totals  # type: ignore[index]
