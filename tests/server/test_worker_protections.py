"""D7 across workers: the room's limit on all-in protections is one count for every
table of the room, and a player may sit at tables owned by different workers (issue 18).
Each worker reads the protections given anywhere in the room every lease round, so a use
at another worker's table counts at this one's within a round; its own uses, read back,
count once."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from pokerroom.config import parse_room
from pokerroom.store import Store
from pokerroom.table.protection import ProtectionLimit
from pokerroom.worker.room import RENEW_EVERY, Worker
from tests.rooms import SIX, room, table

ROOM = room(table("NL", **SIX, action_time=30), table("FL", **SIX, action_time=30), starting_balance=1000)


def test_D7_a_use_read_twice_counts_once() -> None:
    limit = ProtectionLimit(2, 3600.0)
    limit.spend("Ann", 100.0)
    limit.load("Ann", [100.0])  # her own use, read back from the database
    assert limit.left("Ann", 200.0) == 1
    limit.load("Ann", [100.0, 150.0])  # and one given at another worker's table
    assert limit.left("Ann", 200.0) == 0


def test_D7_a_protection_at_another_workers_table_counts_here_within_a_round(tmp_path: Path) -> None:
    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'room.db'}")
        await store.migrate()
        [ann] = await store.create_accounts(["Ann"], "h", 1000)
        config = parse_room(ROOM)
        one, two = Worker(config, store, "w1"), Worker(config, store, "w2")
        await one.start()
        await two.start()
        try:
            assert one.protections.left("Ann", time.time()) == 2
            given = time.time()
            two.protections.spend("Ann", given)  # a timeout at a table of w2's, as its runner records it
            await store.record_protection(ann, given)
            deadline = time.monotonic() + 10 * RENEW_EVERY
            while one.protections.left("Ann", time.time()) == 2 and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert one.protections.left("Ann", time.time()) == 1  # counted at w1 too
            await asyncio.sleep(3 * RENEW_EVERY)  # w2 read its own use back meanwhile
            assert two.protections.left("Ann", time.time()) == 1  # once, not twice
        finally:
            await one.stop()
            await two.stop()
            await store.close()

    asyncio.run(main())


def test_D7_two_uses_at_the_same_time_are_two() -> None:
    limit = ProtectionLimit(3, 3600.0)
    limit.spend("Ann", 100.0)  # two tables of this worker time her out at the same clock
    limit.spend("Ann", 100.0)
    limit.load("Ann", [100.0, 100.0])  # both read back
    assert limit.left("Ann", 200.0) == 1
    limit.load("Ann", [100.0, 100.0, 100.0])  # and a third, at another worker's table
    assert limit.left("Ann", 200.0) == 0
