"""The in-process bus (bus.py) and the table worker behind it, without a server: a command
goes to its table by name and its answer comes back through the reply (ok, a typed error,
or what it asked for), after what the command sent; a command with no table, or one that
no table handles, is a typed error, never a silent drop; a viewer that goes stops getting
events; the lobby feed reaches its watchers."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, cast

from pydantic import BaseModel

from pokerroom import protocol as p
from pokerroom.bus.gateway import Reply, Router
from pokerroom.bus.tables import TableHost
from pokerroom.bus.transport import LocalTransport
from pokerroom.config import parse_room
from pokerroom.gateway.connection import Connection
from pokerroom.store import Store
from pokerroom.table.view import TurnView, turn_view
from pokerroom.worker.projection import turn_text
from pokerroom.worker.room import Worker
from pokerroom.worker.runner import TableRunner
from tests.rooms import SIX, room, table
from tests.server.helpers import until

ROOM = room(table("NL", **SIX, action_time=30), starting_balance=10000, pause=0)


class Viewer(Connection):
    """A connection that keeps what it was sent, as JSON, and the answers it got."""

    def __init__(self, player: str | None = None, account_id: int | None = None) -> None:
        self.sent: list[dict[str, Any]] = []
        super().__init__(player, account_id, write=lambda text: self.sent.append(json.loads(text)))
        self.key = ("test", id(self))  # as a table knows a connection it is handed directly

    def kinds(self) -> list[str]:
        return [m["type"] for m in self.sent]


async def ask(bus: Router, viewer: Viewer, command: p.TableCommand) -> dict[str, Any]:
    """Submit ``command`` and wait for its answer (as JSON); the answer is "sent" too, as
    ws.py does."""
    return await answer_to(lambda reply: bus.submit(viewer, command, reply), viewer)


async def answer_to(submit: Callable[[Reply], None], viewer: Viewer) -> dict[str, Any]:
    answered: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()

    def reply(answer: BaseModel | str) -> None:
        viewer.send(answer)
        answered.set_result(viewer.sent[-1])

    submit(reply)
    return await asyncio.wait_for(answered, 5)


def runner_of(worker: Worker) -> TableRunner:
    return worker.runners["NL"]


def in_room(tmp_path: Path, scenario: Callable[[Router, Worker], Awaitable[None]]) -> None:
    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'room.db'}")
        transport = LocalTransport()  # the wiring of pokerroom.bus.local, with the worker at hand
        host, bus = TableHost(transport, "room", "serve"), Router(transport, "room", "serve")
        bus.start()
        worker = Worker(parse_room(ROOM), store, "serve", host)
        await worker.start()
        host.publish_lobby()
        host.start()
        try:
            await scenario(bus, worker)
        finally:
            await worker.stop()
            await host.stop()
            await bus.stop()
            await store.close()

    asyncio.run(main())


def test_a_command_is_answered_after_what_it_sent(tmp_path: Path) -> None:
    async def scenario(bus: Router, worker: Worker) -> None:
        watcher = Viewer()
        answer = await ask(bus, watcher, p.Subscribe(type="subscribe", table="NL", id="s1"))
        assert answer == {"type": "ok", "id": "s1"}
        assert watcher.kinds() == ["snapshot", "ok"]
        assert bus.watching(watcher) == {"NL"} and len(runner_of(worker).watchers) == 1
        record = await ask(bus, watcher, p.PreviousHand(type="previous_hand", table="NL"))
        assert record == {"type": "previous_hand", "table": "NL", "hand": None}

    in_room(tmp_path, scenario)


def test_typed_errors_unknown_table_unknown_command_not_logged_in(tmp_path: Path) -> None:
    async def scenario(bus: Router, worker: Worker) -> None:
        viewer = Viewer()
        answer = await ask(bus, viewer, p.Act(type="act", table="nowhere", action="fold", id=7))
        assert answer == {"type": "error", "code": "unknown_table", "message": "no table named 'nowhere'",
                          "id": 7}
        # a message that is no table command, handed to a table: refused with its id, not dropped
        stray = cast(p.TableCommand, p.Ping(type="ping", id="x"))
        answer = await answer_to(lambda reply: runner_of(worker).submit(viewer, stray, reply), viewer)
        assert answer == {"type": "error", "code": "bad_message", "message": "Ping is not a table command",
                          "id": "x"}
        answer = await ask(bus, viewer, p.Sit(type="sit", table="NL", seat=1, buy_in=100, id="a"))
        assert (answer["type"], answer["code"], answer["id"]) == ("error", "login_required", "a")
        assert not worker.runners["NL"].table.seats

    in_room(tmp_path, scenario)


async def two_seated(bus: Router, worker: Worker) -> tuple[Viewer, Viewer, TurnView]:
    """ann and bob sit at NL; once the first hand is dealt and its events have reached
    them: whose turn it is, the other, and the turn."""
    ids = await worker.store.create_accounts(["ann", "bob"], "not-a-hash", 10_000)
    ann, bob = Viewer("ann", ids[0]), Viewer("bob", ids[1])
    for seat, viewer in enumerate((ann, bob), 1):
        answer = await ask(bus, viewer, p.Sit(type="sit", table="NL", seat=seat, buy_in=100))
        assert answer == {"type": "ok", "id": None}
        assert bus.watching(viewer) == {"NL"}  # sitting down watches the table
    runner = runner_of(worker)
    await until(lambda: runner.table.turn is not None, 5.0, "the first hand's deal (a second after the sit)")
    turn = turn_view(runner.table)
    assert turn is not None
    actor = {"ann": ann, "bob": bob}[turn.player]
    # the deal's events reach the connections after its writes
    await until(lambda: actor.sent[-1]["type"] == "your_turn", 2.0, "the actor's your_turn")
    return actor, bob if actor is ann else ann, turn


def test_players_sit_and_the_actor_gets_the_turn_view(tmp_path: Path) -> None:
    async def scenario(bus: Router, worker: Worker) -> None:
        actor, other, turn = await two_seated(bus, worker)
        runner = runner_of(worker)
        assert actor.sent[-1] == json.loads(turn_text("NL", turn))
        assert actor.sent[-1]["type"] == "your_turn" and "your_turn" not in other.kinds()
        # the one who goes gets nothing more; the other still does
        bus.disconnected(other)
        assert len(runner.watchers) == 1 and bus.watching(other) == set()
        before, start = len(other.sent), len(actor.sent)
        answer = await ask(bus, actor, p.Act(type="act", table="NL", action="fold", id=1))
        assert answer == {"type": "ok", "id": 1}
        # the fold at once (the hand ends with it), then the hand's result once committed,
        # then its answer (the next hand may follow)
        got = actor.sent[start:]
        assert got[0]["type"] == "events" and [e["event"]["type"] for e in got[0]["events"]] == ["Acted"]
        assert got[1]["type"] == "events" and got[1]["events"][-1]["event"]["type"] == "HandFinished"
        assert got[1]["events"][0]["version"] == got[0]["events"][0]["version"] + 1
        assert got[2] == {"type": "ok", "id": 1}
        assert len(other.sent) == before

    in_room(tmp_path, scenario)


def test_a_hands_last_action_goes_out_before_its_settlement_is_committed(tmp_path: Path) -> None:
    """The action that ends a hand reaches the table at once; the hand's result, and any
    view that shows it, only once its settlement is committed (invariant 5)."""
    async def scenario(bus: Router, worker: Worker) -> None:
        eve = Viewer()
        await ask(bus, eve, p.Subscribe(type="subscribe", table="NL", snapshots=True))  # draws views
        actor, other, _ = await two_seated(bus, worker)
        # the settlement's write is held until released
        released = asyncio.Event()
        finish_hand = worker.store.finish_hand

        async def held(*args: Any, **kwargs: Any) -> Any:
            await released.wait()
            return await finish_hand(*args, **kwargs)

        worker.store.finish_hand = held  # type: ignore[method-assign]
        start = {v: len(v.sent) for v in (actor, other, eve)}
        acting = asyncio.ensure_future(ask(bus, actor, p.Act(type="act", table="NL", action="fold", id=1)))
        await until(lambda: all(len(v.sent) > start[v] for v in (actor, other, eve)), 1.0,
                    "the fold at every watcher")
        await asyncio.sleep(0.2)  # the commit waits: nothing more may come
        for v in (actor, other, eve):
            got = v.sent[start[v]:]
            assert [m["type"] for m in got] == ["events"], (v.player, got)
            events = [(e["event"]["type"], e["event"]["action"]) for e in got[0]["events"]]
            assert events == [("Acted", "fold")]
        assert not acting.done()
        released.set()
        assert await acting == {"type": "ok", "id": 1}
        for v in (actor, other, eve):
            got = v.sent[start[v] + 1:]
            assert got[0]["type"] == "events" and got[0]["events"][-1]["event"]["type"] == "HandFinished"
            assert "PotAwarded" in [e["event"]["type"] for e in got[0]["events"]]
        # the observer drawing views gets his view with the result, not before it
        assert [m["type"] for m in eve.sent[start[eve]:]] == ["events", "events", "snapshot"]

    in_room(tmp_path, scenario)


def test_the_lobby_feed_reaches_its_watchers(tmp_path: Path) -> None:
    async def scenario(bus: Router, worker: Worker) -> None:
        watcher = Viewer()
        listed = bus.watch_lobby(watcher)
        assert [t.name for t in listed.tables] == ["NL"] and listed.tables[0].taken == 0
        ids = await worker.store.create_accounts(["cy"], "not-a-hash", 10_000)
        sit = p.Sit(type="sit", table="NL", seat=3, buy_in=50)
        assert await ask(bus, Viewer("cy", ids[0]), sit) == {"type": "ok", "id": None}
        # the worker's lines at most once a second, the gateway's feed likewise
        await until(lambda: bool(watcher.sent and watcher.sent[-1]["tables"][0]["players"]), 4.0,
                    "cy in the lobby feed")
        assert watcher.sent and {m["type"] for m in watcher.sent} == {"lobby"}
        assert watcher.sent[-1]["tables"][0]["players"] == ["cy"]
        bus.disconnected(watcher)
        assert bus.lobby()[0].taken == 1

    in_room(tmp_path, scenario)
