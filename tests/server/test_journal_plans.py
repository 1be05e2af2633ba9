"""The journal never reads a whole table to write a hand (PostgreSQL).

Each of the journal's statements writes a handful of rows by their keys (journal_pg.py).
Their plans are cached per connection, often made while the tables are small; a plan that
scans hands, hand_players or seats then reads the room's whole history for every batch
(found on the cluster's load test at 700 tables: 350,000 rows read a second, PostgreSQL's
CPU per action 0.34-0.44 ms; 0.22 after, the rows read 11,000 a second, none of them by
the journal). Measured here: hands played through the journal after a history of
thousands, and PostgreSQL's own count of sequential scans of those tables meanwhile."""

from __future__ import annotations

import asyncio

import asyncpg  # type: ignore[import-untyped]

from pokerroom.store import Store
from tests.server.helpers.store import claim_tables, seq_scans

TABLES = 40
HISTORY = 60  # hands a table before the measured ones: 2,400 in all
MEASURED = 10
WATCHED = ("hands", "hand_players", "seats")


async def _scenario(url: str, schema: str) -> tuple[dict[str, int], int]:
    store = Store(url, schema)
    admin = await asyncpg.connect(url)
    try:
        await store.migrate()
        names = [f"T{i:02}" for i in range(TABLES)]
        accounts = await store.create_accounts([f"p{i}" for i in range(TABLES * 6)], "h", 100_000)
        fences = await claim_tables(store, names, "w1")
        for i, name in enumerate(names):
            for seat in range(6):
                await store.buy_in(name, seat + 1, accounts[i * 6 + seat], 1_000, fence=fences[name])
        stacks = dict.fromkeys(accounts, 1_000)

        async def play(i: int, name: str, first: int, count: int, pause: float) -> None:
            players = [(accounts[i * 6 + seat], seat + 1) for seat in range(6)]
            winner, loser = players[0][0], players[1][0]
            for number in range(first, first + count):
                hand = await store.start_hand(name, number, "NL 1/2", "c" * 64, players, fence=fences[name])
                await asyncio.sleep(pause)
                stacks[winner] += 2
                stacks[loser] -= 2
                results = [(a, 2 if a == winner else -2 if a == loser else 0, stacks[a]) for a, _ in players]
                await store.finish_hand(hand, name, results, salt="s", deck="AdKd",
                                        history=f'{{"n":{number}}}', fence=fences[name], number=number,
                                        memory="{}")
                await asyncio.sleep(pause)

        # the history, in big batches (every table at once)
        await asyncio.gather(*(play(i, name, 1, HISTORY, 0.0) for i, name in enumerate(names)))
        await admin.execute("ANALYZE")
        before = await seq_scans(admin, schema)
        # then hands of a few tables at a time, in small batches, as a room plays them
        few = enumerate(names[:4])
        await asyncio.gather(*(play(i, name, HISTORY + 1, MEASURED, 0.02) for i, name in few))
        await store.close()  # its connections end: their counts are flushed
        after = await seq_scans(admin, schema)
        written = await admin.fetchval(f"SELECT count(*) FROM \"{schema}\".hands WHERE status = 'complete'")
        return {t: after[t] - before[t] for t in WATCHED}, int(written)
    finally:
        await store.close()
        await admin.close()


def test_the_journal_writes_hands_without_reading_whole_tables(pg_database: tuple[str, str | None]) -> None:
    url, schema = pg_database
    assert schema is not None
    scans, written = asyncio.run(_scenario(url, schema))
    assert written == TABLES * HISTORY + 4 * MEASURED
    assert scans == dict.fromkeys(WATCHED, 0), scans
