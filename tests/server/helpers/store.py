"""The store as the server tests check it: a migrated Store per test, and the audit of its
ledger against balances and seats."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import func, select

from pokerroom.store import Fence, Store, balance_book, table_book
from pokerroom.store.schema import accounts, ledger, seats

Database = tuple[str, str | None]


async def claim_tables(store: Store, names: list[str], worker: str) -> dict[str, Fence]:
    """``names`` declared and claimed by ``worker`` for an hour: each table's fence."""
    await store.declare_tables(names)
    fences = {}
    for name in names:
        claim = await store.claim(worker, name, 3600)
        assert claim is not None
        fences[name] = Fence(name, worker, claim.epoch)
    return fences


async def seq_scans(admin: Any, schema: str) -> dict[str, int]:
    """PostgreSQL's count of whole-table reads of each table of ``schema`` (``admin``: an
    asyncpg connection), once the counters are flushed: about once a second, and as a
    connection ends."""
    await asyncio.sleep(1.2)
    await admin.execute("SELECT pg_stat_clear_snapshot()")
    rows = await admin.fetch("SELECT relname, seq_scan FROM pg_stat_user_tables WHERE schemaname = $1",
                             schema)
    return {r["relname"]: int(r["seq_scan"]) for r in rows}


def with_store(database: Database, body: Callable[[Store], Awaitable[None]]) -> None:
    """Run ``body`` on a migrated Store of the test's database (a fresh event loop)."""

    async def main() -> None:
        store = Store(*database)
        try:
            await store.migrate()
            await body(store)
        finally:
            await store.close()

    asyncio.run(main())


async def rows(store: Store, query: Any) -> list[Any]:
    async with store.engine.connect() as conn:
        return list((await conn.execute(query)).all())


async def audit(store: Store) -> dict[str, int]:
    """Check the ledger against the balances and seats; return Store.totals().

    Every ledger transaction sums to zero; each account's 'balance:' book holds its balance
    and each 'table:' book its seat's stack (0 without a seat); balances plus seats equal
    what the bank granted."""
    unbalanced = await rows(
        store, select(ledger.c.txn).group_by(ledger.c.txn).having(func.sum(ledger.c.amount) != 0)
    )
    assert unbalanced == [], f"ledger transactions that do not sum to zero: {unbalanced}"
    books = {r.book: int(r.total) for r in await rows(
        store, select(ledger.c.book, func.sum(ledger.c.amount).label("total")).group_by(ledger.c.book)
    )}
    for account in await rows(store, select(accounts.c.id, accounts.c.balance)):
        assert books.get(balance_book(account.id), 0) == account.balance, (account, books)
    stacks = {table_book(r.table_name, r.account_id): r.stack for r in await rows(store, select(seats))}
    for book, total in books.items():
        if book.startswith("table:"):
            assert total == stacks.get(book, 0), (book, total, stacks)
    for book, stack in stacks.items():
        assert books.get(book, 0) == stack, (book, stack, books)
    totals = await store.totals()
    assert totals["ledger_sum"] == 0, totals
    assert totals["balances"] + totals["seats"] == totals["granted"], totals
    return dict(totals)


async def audit_of(database: Database) -> dict[str, int]:
    """``audit`` on a Store of ``database`` opened for it and closed after."""
    store = Store(*database)
    try:
        return await audit(store)
    finally:
        await store.close()


async def seat_rows(store: Store) -> set[tuple[str, int, int, int]]:
    return {(r.table_name, r.seat, r.account_id, r.stack) for r in await rows(store, select(seats))}
