"""The cluster under faults of its services (issue 18): the NATS server restarted mid-play,
every database connection of the room's processes terminated (pg_terminate_backend). The
tables recover, the clients resync, nothing is lost: every seat still held, the books
balanced. And no hidden card ever travels on a table's subject, which every gateway with a
watcher of the table receives: only on its owner's own subject."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import nats

from pokerroom.bus.messages import decode
from tests.cluster.helpers import (
    Cluster,
    balanced,
    every_table_played,
    more_hands,
    query,
    seat_bots,
    settled_by_table,
    until,
)


async def _play(cluster: Cluster, seed: int) -> tuple[Any, Any, asyncio.Event, list[asyncio.Future[None]]]:
    await until(lambda: balanced(cluster), 20, "the tables shared by the three workers")
    bots, tally = seat_bots(cluster, seed=seed)
    stop = asyncio.Event()
    tasks = [asyncio.ensure_future(b.run(stop)) for b in bots]
    await until(lambda: every_table_played(cluster, 2), 60, "two hands at every table")
    return bots, tally, stop, tasks


def _goes_on(cluster: Cluster, seed: int, fault: Callable[[], Awaitable[None]], what: str) -> None:
    """Bots play; ``fault`` strikes; then hands are settled at every table again, every seat
    held before it is held still, and the books balance."""

    async def main() -> None:
        _bots, _tally, stop, tasks = await _play(cluster, seed=seed)
        try:
            seated = set(map(tuple, await query(cluster.schema, "SELECT table_name, account_id FROM seats")))
            await fault()
            before = await settled_by_table(cluster)
            await until(lambda: more_hands(cluster, before), 45, f"hands at every table after {what}")
            now = set(map(tuple, await query(cluster.schema, "SELECT table_name, account_id FROM seats")))
            assert seated <= now, seated - now
        finally:
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())
    cluster.stop_and_audit()


def test_nats_restarted_mid_play_the_tables_go_on(cluster: Cluster) -> None:
    async def restart_nats() -> None:
        cluster.nats.stop()
        await asyncio.sleep(2.0)
        cluster.nats.start()

    _goes_on(cluster, 21, restart_nats, "NATS came back")


def test_the_database_connections_cut_the_tables_go_on(cluster: Cluster) -> None:
    async def cut_connections() -> None:
        for _ in range(3):  # three times, a second apart: every connection of the room's processes
            cut = await query(cluster.schema, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                              "WHERE application_name = $1", f"pokerroom:{cluster.schema}")
            assert cut, "no connection of the room's processes was found"
            await asyncio.sleep(1.0)

    _goes_on(cluster, 31, cut_connections, "the cuts")


def test_no_hidden_card_on_a_table_subject(cluster: Cluster) -> None:
    """Everything published on the room's subjects for a while of play, read by a client
    of the NATS server: a face-down card's value appears only on its owner's subject."""

    async def main() -> None:
        client = await nats.connect(cluster.nats.url)
        seen: list[tuple[str, bytes]] = []

        async def keep(msg: nats.aio.msg.Msg) -> None:
            seen.append((msg.subject, msg.data))

        await client.subscribe("room.>", cb=keep)
        _bots, _tally, stop, tasks = await _play(cluster, seed=41)
        try:
            await asyncio.sleep(5)
        finally:
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
            await client.close()
        tables = [decode(d) for s, d in seen if s.endswith(".ev")]
        players = [(s, decode(d)) for s, d in seen if ".p." in s]
        assert len(tables) > 100 and len(players) > 100, (len(tables), len(players))
        down = 0
        for batch in tables:
            if batch.events is None:
                continue
            for item in json.loads(batch.events).get("events", []):
                e = item["event"]
                if e["type"] == "HoleDealt" and not e["face_up"]:
                    down += 1
                    assert e["card"] is None, (batch.table, e)
        assert down > 50, down
        owned = 0
        for subject, batch in players:
            text = getattr(batch, "events", None)
            if text:
                for item in json.loads(text).get("events", []):
                    e = item["event"]
                    if e["type"] == "HoleDealt" and e["card"] is not None and not e["face_up"]:
                        owned += 1
                        assert subject.endswith(f".p.{batch.account_id}"), subject
        assert owned > 50, owned

    asyncio.run(main())
