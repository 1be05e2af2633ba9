"""The rules of issue 15 through a real server (SQLite, and PostgreSQL when
POKERROOM_TEST_DATABASE_URL is set), across restarts: the limit on all-in protections
counted across two tables and kept in the database (D7), showing cards after an uncalled
win, seen by an observer and kept in the hand's history (D12), and the rathole rule with
its buy-in endpoint, across a restart and until its window ends (D13)."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

from tests.policies import Policy, aggressive, folder
from tests.rooms import NO_BANK, SIX, room, table
from tests.server.helpers import Client, Message, Players, Server, is_event, run


def room_config(rathole: float) -> str:
    clock = {"action_time": 1, **NO_BANK, "max_timeouts": 9}
    return room(
        table("One 1/2", **SIX, **clock), table("Two", **SIX, **clock),
        starting_balance=10000, daily_topup=2000, pause=0.05, max_protections=2, protection_hours=24.0,
        rathole_minutes=rathole,
    )
ONE, TWO = "One 1/2", "Two"
def serve(tmp_path: Path, database: tuple[str, str | None], rathole: float = 60.0) -> Server:
    server = Server(tmp_path, database)
    server.config.write_text(room_config(rathole))
    server.start()
    return server


def with_server(
    tmp_path: Path, database: tuple[str, str | None], body: Callable[[Server, Players], Awaitable[None]],
    rathole: float = 60.0,
) -> None:
    server = serve(tmp_path, database, rathole)
    try:

        async def main() -> None:
            room = Players(server)
            try:
                await body(server, room)
            finally:
                for c in room.clients:
                    await c.aclose()

        run(main())
    finally:
        server.stop()
    assert not server.errors(), server.errors()


class Bots:
    """Players answering their turns at a table with a policy, in the background."""

    def __init__(self) -> None:
        self.tasks: list[asyncio.Task[None]] = []

    def start(self, client: Client, table: str, policy: Policy, before: Message | None = None) -> None:
        self.tasks.append(asyncio.create_task(self._answer(client, table, policy, before)))

    @staticmethod
    async def _answer(client: Client, table: str, policy: Policy, before: Message | None) -> None:
        i = client.mark()
        while True:
            i, m = await client.wait_for(
                lambda m: m["type"] == "your_turn" and m["table"] == table, timeout=3600, start=i
            )
            i += 1
            if before is not None:
                await client.send(before)
            action, amount = policy(m["legal"])
            message: Message = {"type": "act", "table": table, "action": action}
            if amount is not None:
                message["amount"] = amount
            await client.send(message)

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, AssertionError):
                await task
            if not task.cancelled() and task.exception() is not None:  # pragma: no cover
                raise AssertionError(f"a bot failed: {task.exception()!r}")
        self.tasks = []


async def restart(server: Server, *clients: Client) -> None:
    """Stop the server (SIGTERM), start it again on the same database, reconnect."""
    for c in clients:
        await c.close()
    await asyncio.to_thread(server.stop)
    await asyncio.to_thread(server.start)
    for c in clients:
        welcome = await c.connect()
        assert welcome["player"] == c.name


def is_snapshot(table: str) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "snapshot" and m["table"] == table


async def sit_and_view(client: Client, table: str, seat: int, buy_in: int) -> dict[str, Any]:
    """Sit down; the view of the snapshot that came with it."""
    start = client.mark()
    answer = await client.sit(table, seat, buy_in)
    assert answer["type"] == "ok", answer
    _, snapshot = await client.wait_for(is_snapshot(table), start=start)
    return snapshot["view"]  # type: ignore[no-any-return]


async def view_of(client: Client, table: str) -> dict[str, Any]:
    start = client.mark()
    assert (await client.subscribe(table))["type"] == "ok"
    _, snapshot = await client.wait_for(is_snapshot(table), start=start)
    return snapshot["view"]  # type: ignore[no-any-return]


async def timed_out(client: Client, table: str, start: int) -> tuple[int, str]:
    """The next TimedOut of this player at ``table`` from ``start`` on: (index, action)."""
    i, m = await client.wait_for(is_event(table, "TimedOut", player=client.name), timeout=30.0, start=start)
    return i, m["event"]["action"]


# ---------------------------------------------------------------------- D7


def test_D7_two_protections_across_two_tables_then_his_timeouts_fold_also_after_a_restart(
    tmp_path: Path, database: tuple[str, str | None]
) -> None:
    """Ann never acts. Heads-up against a raiser her first turn of each hand faces a bet
    with her chips in the pot (the small blind facing the big, or the big blind facing a
    raise): her first timeout, at table One, and her second, at table Two, keep her in by
    all-in protection; her third folds, and so does her next after the server restarted
    (the uses are in the database, loaded into the room's one limit)."""

    async def body(server: Server, room: Players) -> None:
        ann, bob, cid = await room.player("Ann"), await room.player("Bob"), await room.player("Cid")
        bots = Bots()
        try:
            bots.start(bob, ONE, aggressive)
            bots.start(cid, TWO, aggressive)
            start = ann.mark()
            assert (await sit_and_view(ann, ONE, 1, 200))["protections_left"] == 2
            assert (await bob.sit(ONE, 2, 200))["type"] == "ok"
            i, action = await timed_out(ann, ONE, start)
            assert action == "protected"
            await ann.leave(ONE)  # she leaves at the end of that hand

            start = ann.mark()
            assert (await sit_and_view(ann, TWO, 1, 200))["protections_left"] == 1  # shared by the tables
            assert (await cid.sit(TWO, 2, 200))["type"] == "ok"
            i, action = await timed_out(ann, TWO, start)
            assert action == "protected"
            i, action = await timed_out(ann, TWO, i + 1)
            assert action == "fold"  # the third: none left
            assert (await view_of(ann, TWO))["protections_left"] == 0
        finally:
            await bots.stop()

        for c in (ann, bob, cid):  # seats outlive a restart (issue 18): up first, to sit down again after it
            for t in (ONE, TWO):
                await c.request({"type": "leave", "table": t})
        await restart(server, ann, bob, cid)
        try:
            bots.start(bob, ONE, aggressive)
            start = ann.mark()
            assert (await sit_and_view(ann, ONE, 3, 200))["protections_left"] == 0  # kept across the restart
            assert (await bob.sit(ONE, 4, 200))["type"] == "ok"
            _, action = await timed_out(ann, ONE, start)
            assert action == "fold"
            assert (await view_of(ann, ONE))["protections_left"] == 0
            assert (await view_of(bob, ONE))["protections_left"] == 2  # Bob's own are untouched
        finally:
            await bots.stop()

    with_server(tmp_path, database, body, rathole=0)


# ---------------------------------------------------------------------- D12


def cards_in(text: str) -> set[str]:
    """The cards written in brackets in a PokerStars-style text ('[Ah Kd]')."""
    return {card for group in re.findall(r"\[([^\]]*)\]", text) for card in group.split()}


def test_D12_the_winner_nobody_called_shows_his_cards_an_observer_sees_them_and_the_history_keeps_them(
    tmp_path: Path, database: tuple[str, str | None]
) -> None:
    """Win raises, Los folds (and sits out, so no hand is dealt after it). After the hand
    Win shows both cards and Los, who folded, one: an observer receives CardsRevealed with
    the cards; the previous-hand record, the JSON history, the .phh (``sm``) and the .txt
    (``shows``) carry them; showing again is refused."""

    async def body(server: Server, room: Players) -> None:
        win, los = await room.player("Win"), await room.player("Los")
        watcher = await room.observer(ONE)
        bots = Bots()
        try:
            bots.start(win, ONE, aggressive)
            bots.start(los, ONE, folder, before={"type": "sit_out", "table": ONE})
            assert (await win.sit(ONE, 2, 200))["type"] == "ok"
            assert (await los.sit(ONE, 5, 200))["type"] == "ok"
            _, finished = await watcher.wait_for(is_event(ONE, "HandFinished"), timeout=30.0)
            number = finished["event"]["number"]
            assert number == 1
            assert dict(map(tuple, finished["event"]["net"]))[2] > 0  # type: ignore[arg-type]
        finally:
            await bots.stop()
        await win.wait_for(is_event(ONE, "HandFinished"))
        await los.wait_for(is_event(ONE, "HandFinished"))
        mine = win.hole_cards(ONE, 1)
        theirs = los.hole_cards(ONE, 1)
        assert len(mine) == 2 and None not in mine and len(theirs) == 2 and None not in theirs
        # the observer was never shown them
        assert [e["event"]["card"] for e in watcher.events(ONE, "HoleDealt")] == [None] * 4

        assert (await view_of(win, ONE))["revealable"] == [0, 1]
        start = watcher.mark()
        assert (await win.request({"type": "show_cards", "table": ONE, "cards": [0, 1]}))["type"] == "ok"
        _, shown = await watcher.wait_for(is_event(ONE, "CardsRevealed", player="Win"), start=start)
        expected = {"type": "CardsRevealed", "number": 1, "seat": 2, "player": "Win", "cards": mine}
        assert shown["event"] == expected
        _, seen = await los.wait_for(is_event(ONE, "CardsRevealed", player="Win"))
        assert seen["event"]["cards"] == mine
        again = await win.request({"type": "show_cards", "table": ONE, "cards": [0]})
        assert again["type"] == "error" and again["code"] == "nothing_to_show", again
        assert (await view_of(win, ONE))["revealable"] == []

        wrong = await los.request({"type": "show_cards", "table": ONE, "cards": [0, 0]})
        assert wrong["type"] == "error" and wrong["code"] == "bad_message", wrong
        assert (await los.request({"type": "show_cards", "table": ONE, "cards": [1]}))["type"] == "ok"
        _, one = await watcher.wait_for(is_event(ONE, "CardsRevealed", player="Los"), start=start)
        assert one["event"]["cards"] == [theirs[1]] and one["event"]["seat"] == 5

        record = await watcher.previous_hand(ONE)
        assert record is not None
        players = {p["player"]: p for p in record["players"]}
        assert players["Win"]["cards"] == mine and players["Win"]["revealed"] == mine
        assert players["Los"]["revealed"] == [theirs[1]] and theirs[1] in players["Los"]["cards"]
        assert theirs[0] not in players["Los"]["cards"]

        listed = (await los.get("/api/hands")).json()["hands"]
        (hand_id,) = [h["id"] for h in listed if h["table_name"] == ONE and h["number"] == 1]
        r = await los.get(f"/api/hands/{hand_id}")
        assert r.status_code == 200, r.text
        history = r.json()
        assert history["reveals"] == {"2": mine, "5": [theirs[1]]}
        by_name = {p["player"]: p for p in history["record"]["players"]}
        assert by_name["Win"]["cards"] == mine
        assert set(mine) <= {o["card"] for o in history["openings"]}  # provably dealt, too
        phh = (await los.get(f"/api/hands/{hand_id}.phh")).text
        assert f"sm {''.join(mine)}" in phh, phh
        assert f"sm ??{theirs[1]}" in phh, phh
        text = (await los.get(f"/api/hands/{hand_id}.txt")).text
        head, _, _ = text.partition("*** SUMMARY ***")
        assert f"Win: shows [{mine[0]} {mine[1]}]" in head, text
        assert any(line.startswith("Los: shows [") and theirs[1] in line for line in head.splitlines()), text
        assert (await win.get(f"/api/hands/{hand_id}")).json()["reveals"] == history["reveals"]
        others = (await win.get(f"/api/hands/{hand_id}.txt")).text  # Los's other card: never seen
        assert theirs[1] in cards_in(others) and theirs[0] not in cards_in(others), others

    with_server(tmp_path, database, body)


# ---------------------------------------------------------------------- D13


async def buy_in(client: Client, table: str) -> Message:
    r = await client.get(f"/api/tables/{quote(table, safe='')}/buy-in")
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def test_D13_ratholing_is_refused_across_a_restart_and_the_buy_in_endpoint_says_why(
    tmp_path: Path, database: tuple[str, str | None]
) -> None:
    """Rat leaves table One with 150 chips (the minimum is 40) and is still seated at Two
    with 180 when the server restarts: after the restart, within the hour, One asks him
    for at least 150 (error ``rathole`` below it) and, with the stack, he may sit down;
    Two asks the table's minimum (he did not leave it: the restart returned his chips)."""

    async def body(server: Server, room: Players) -> None:
        rat = await room.player("Rat")
        assert await buy_in(rat, ONE) == {"min": 40, "max": 200, "rathole": None}
        assert (await rat.sit(ONE, 1, 150))["type"] == "ok"
        before = time.time()
        assert (await rat.leave(ONE))["stack"] == 150
        assert (await rat.sit(TWO, 2, 180))["type"] == "ok"
        await restart(server, rat)
        assert await rat.balance() == 10_000 - 180  # still seated at Two with his 180 (issue 18)
        assert (await rat.request({"type": "subscribe", "table": TWO}))["type"] == "ok"
        assert (await rat.leave(TWO))["stack"] == 180
        assert await rat.balance() == 10_000

        one = await buy_in(rat, ONE)
        assert (one["min"], one["max"]) == (150, 200)
        assert one["rathole"]["stack"] == 150
        assert before - 1 <= one["rathole"]["left_at"] <= time.time()
        assert one["rathole"]["until"] == one["rathole"]["left_at"] + 3600
        two = await buy_in(rat, TWO)  # he left Two with 180 just now
        assert (two["min"], two["max"], two["rathole"]["stack"]) == (180, 200, 180)

        for low in (40, 100, 149):
            refused = await rat.sit(ONE, 1, low)
            assert refused["type"] == "error" and refused["code"] == "rathole", refused
        too_much = await rat.sit(ONE, 1, 201)
        assert too_much["type"] == "error" and too_much["code"] == "above_maximum", too_much
        assert await rat.balance() == 10_000
        assert (await rat.sit(ONE, 1, 150))["type"] == "ok"
        assert await rat.balance() == 10_000 - 150
        assert (await rat.sit(TWO, 2, 180))["type"] == "ok"

        async with httpx.AsyncClient(base_url=server.http) as nobody:
            anonymous = await nobody.get(f"/api/tables/{quote(ONE, safe='')}/buy-in")
        assert anonymous.status_code == 401
        unknown = await rat.get("/api/tables/Nowhere/buy-in")
        assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "not_found"
        other = await room.player("Other")
        assert await buy_in(other, ONE) == {"min": 40, "max": 200, "rathole": None}  # his own departures only

    with_server(tmp_path, database, body)


def test_D13_the_higher_minimum_ends_with_the_rathole_window(
    tmp_path: Path, database: tuple[str, str | None]
) -> None:
    """With ``rathole_minutes = 0.05`` (3 s): the minimum is the stack he left with until
    then, the table's own after; leaving with no more than the minimum changes nothing."""

    async def body(server: Server, room: Players) -> None:
        rat = await room.player("Rat")
        assert (await rat.sit(ONE, 1, 120))["type"] == "ok"
        await rat.leave(ONE)
        refused = await rat.sit(ONE, 1, 60)
        assert refused["type"] == "error" and refused["code"] == "rathole", refused
        info = await buy_in(rat, ONE)
        assert info["min"] == 120 and info["rathole"]["until"] == info["rathole"]["left_at"] + 3.0
        await asyncio.sleep(max(0.0, info["rathole"]["until"] - time.time()) + 0.3)
        assert await buy_in(rat, ONE) == {"min": 40, "max": 200, "rathole": None}
        assert (await rat.sit(ONE, 1, 40))["type"] == "ok"
        await rat.leave(ONE)  # with the minimum: nothing more to bring
        assert await buy_in(rat, ONE) == {"min": 40, "max": 200, "rathole": None}
        assert (await rat.sit(ONE, 1, 40))["type"] == "ok"
        assert await rat.balance() == 10_000 - 40

    with_server(tmp_path, database, body, rathole=0.05)
