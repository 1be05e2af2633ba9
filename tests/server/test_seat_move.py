"""A seat moved from a table on one worker to a table on another (issue 18's look ahead to
tournaments: store.Money.move_seat): one transaction fenced by both tables' leases, so no
chip is ever in flight; any refusal writes nothing; asked again, it is not made twice.
On SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import func, select

from pokerroom.store import Fence, Store, StoreError
from pokerroom.store.schema import ledger, seats
from tests.server.helpers.store import audit


async def _refused(coro: Any) -> str:
    try:
        await coro
    except StoreError as e:
        return e.code
    raise AssertionError("the move was made")


async def _seats(store: Store) -> set[tuple[str, int, int, int]]:
    async with store.engine.connect() as conn:
        rows = (await conn.execute(select(seats))).all()
    return {(r.table_name, r.seat, r.account_id, r.stack) for r in rows}


async def _scenario(url: str, schema: str | None) -> None:
    store = Store(url, schema)
    try:
        await store.migrate()
        a, b, c = await store.create_accounts(["Ann", "Bob", "Cid"], "h", 1_000)
        await store.declare_tables(["A", "B"])
        claim_a = await store.claim("w1", "A", 3600)  # two tables, two workers
        claim_b = await store.claim("w2", "B", 3600)
        assert claim_a is not None and claim_b is not None
        at_a, at_b = Fence("A", "w1", claim_a.epoch), Fence("B", "w2", claim_b.epoch)
        await store.buy_in("A", 1, a, 300, fence=at_a)
        await store.buy_in("A", 2, b, 200, fence=at_a)
        await store.buy_in("B", 4, c, 250, fence=at_b)
        before = await _seats(store)

        # refused, nothing written: a stale lease on either side, the seat taken, no seat
        stale_b = Fence("B", "w2", claim_b.epoch - 1)
        assert await _refused(store.move_seat(a, at_a, stale_b, 5)) == "fenced"
        assert await _refused(store.move_seat(a, Fence("A", "w9", claim_a.epoch), at_b, 5)) == "fenced"
        assert await _refused(store.move_seat(a, at_a, at_b, 4)) == "seat_taken"
        assert await _refused(store.move_seat(c, at_a, at_b, 5)) == "not_seated"
        hand = await store.start_hand("A", 1, "NL 1/2", "c" * 64, [(a, 1), (b, 2)], fence=at_a)
        assert await _refused(store.move_seat(a, at_a, at_b, 5)) == "in_hand"
        assert await _seats(store) == before
        await store.finish_hand(hand, "A", [(a, 10, 310), (b, -10, 190)], salt="s", deck="AdKd",
                                history='{"n":1}', fence=at_a, number=1, memory="{}")

        # the move, then the same move asked again (its answer lost): made once
        assert await store.move_seat(a, at_a, at_b, 5, txn="move-1") == 310
        assert await store.move_seat(a, at_a, at_b, 5, txn="move-1") == 310
        assert await _seats(store) == {("A", 2, b, 190), ("B", 4, c, 250), ("B", 5, a, 310)}
        async with store.engine.connect() as conn:
            moved = await conn.scalar(select(func.count()).where(ledger.c.txn == "move-1"))
        assert moved == 2  # out of A's book, into B's: one transaction of two entries

        # B changes owner (w2 stopped, w3 claimed it): a move fenced by w2's lease is refused
        await store.release("w2", "B", claim_b.epoch)
        claim_b3 = await store.claim("w3", "B", 3600)
        assert claim_b3 is not None and claim_b3.epoch > claim_b.epoch
        assert await _refused(store.move_seat(b, at_a, at_b, 6)) == "fenced"
        assert await store.move_seat(b, at_a, Fence("B", "w3", claim_b3.epoch), 6) == 190
        totals = await audit(store)
        assert totals["seats"] == 310 + 190 + 250
    finally:
        await store.close()


def test_a_seat_moves_between_workers_tables_in_one_fenced_transaction(
    database: tuple[str, str | None],
) -> None:
    asyncio.run(_scenario(*database))
