"""A worker's two writers of its lease rows never deadlock (PostgreSQL).

A worker renews all its leases in one statement (leases.py) while its journal fences a
batch of hands, one lease row per table, in another transaction (journal_pg.py). Each
locks many rows of table_leases; locked in different orders they deadlock, PostgreSQL
notices after deadlock_timeout (1 s) and aborts the journal's batch, and every table whose
hand was in it waits that second (found by the cluster's load test: its maximum latency
was 1.1 s, 32 deadlocks in PostgreSQL's log). Both lock in the tables' names' order now.

Measured here: the journal's batches, their fences in a shuffled order, against renewals,
for a few seconds; any batch aborted by a deadlock fails the test."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import pytest

import pokerroom.store.journal as journal_module
from pokerroom.store import Store
from tests.server.helpers.store import claim_tables, seq_scans

TABLES = 700
SECONDS = 4.0


async def _scenario(url: str, schema: str | None, errors: list[str]) -> tuple[int, int]:
    store = Store(url, schema)
    try:
        await store.migrate()
        names = [f"T{i:03}" for i in range(TABLES)]
        fences = await claim_tables(store, names, "w1")
        rng = random.Random(7)
        stop = time.monotonic() + SECONDS
        renewals = batches = 0

        async def renew() -> None:
            nonlocal renewals
            while time.monotonic() < stop:
                held = await store.renew("w1", 3600)
                assert len(held) == TABLES
                renewals += 1

        async def hands() -> None:
            nonlocal batches
            numbers = dict.fromkeys(names, 0)
            while time.monotonic() < stop:
                # a few tables' hands a batch, in whatever order the tables asked
                order = rng.sample(names, rng.randint(2, 12))
                for name in order:
                    numbers[name] += 1
                await asyncio.gather(*(store.start_hand(name, numbers[name], "NL 1/2", "c" * 64, [],
                                                        fence=fences[name]) for name in order))
                batches += 1

        await asyncio.gather(renew(), hands())
        return renewals, batches
    finally:
        await store.close()


def test_renewals_and_the_journal_never_deadlock(
    pg_database: tuple[str, str | None], monkeypatch: pytest.MonkeyPatch
) -> None:
    errors: list[str] = []
    real = journal_module.apply_pg

    async def spied(ops: Any, db: Any) -> list[Any]:
        try:
            return await real(ops, db)
        except Exception as e:
            errors.append(str(e).splitlines()[0])
            raise

    monkeypatch.setattr(journal_module, "apply_pg", spied)
    url, schema = pg_database
    renewals, batches = asyncio.run(_scenario(url, schema, errors))
    assert renewals > 20 and batches > 5, (renewals, batches)  # they did run side by side
    assert errors == [], f"{len(errors)} batches aborted in {batches}: {errors[:3]}"


async def _renewal_scans(url: str, schema: str) -> tuple[int, int]:
    store = Store(url, schema)
    admin = await asyncpg.connect(url)
    try:
        await store.migrate()
        others = [f"O{i:04}" for i in range(3000)]  # a big room's other tables, nobody's here
        await store.declare_tables(others)
        mine = await claim_tables(store, [f"M{i}" for i in range(10)], "w1")
        await admin.execute(f'ANALYZE "{schema}".table_leases')
        await store.close()  # its connections' counts flushed as they end
        before = (await seq_scans(admin, schema))["table_leases"]
        store = Store(url, schema)  # the worker's store, as it runs
        for _ in range(20):
            assert await store.renew("w1", 3600) == {name: fence.epoch for name, fence in mine.items()}
        await store.close()
        return before, (await seq_scans(admin, schema))["table_leases"]
    finally:
        await store.close()
        await admin.close()


def test_a_renewal_reads_only_its_own_leases(pg_database: tuple[str, str | None]) -> None:
    """Twice a second every worker renews its leases: by an index on the owner (migration
    0011), not by reading every table's lease (docs/scaling.md: at 100,000 tables and a
    hundred workers that was 25 million rows a second)."""
    url, schema = pg_database
    assert schema is not None
    before, after = asyncio.run(_renewal_scans(url, schema))
    assert after == before, f"{after - before} full reads of table_leases in 20 renewals"
