"""The bots' accounts, written into the room's database before the room starts, through
the store's public API (``seed_accounts``)."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass

from pokerroom.loadtest.servers import STARTING_BALANCE
from pokerroom.store import Store

SESSION_TTL = 24 * 3600.0  # the bots' sessions: a load test is over long before


@dataclass(frozen=True)
class Seeded:
    """Bot accounts written into the room's database before it started: names, a session
    token each (in the same order), and the password they share."""

    names: list[str]
    tokens: list[str]
    password: str


async def seed_accounts(
    database: str, count: int, *, grant: int = STARTING_BALANCE, chunk: int = 2000,
    schema: str | None = None,
) -> Seeded:
    """Create ``count`` bot accounts (lt000000, lt000001, ...) in the room's database, which
    the server must not be using yet: migrations, then ``Store.create_accounts`` (one
    transaction per ``chunk`` accounts, through ``create_accounts``). They share a password,
    each gets ``grant`` chips from the bank through the ledger, as at
    registration, and a session whose token its bot sends instead of logging in.

    A cancellation (Ctrl-C) lets the statement under way finish and stops at the next
    chunk: cancelled mid-statement, aiosqlite's thread would go on against a closed loop."""
    password = secrets.token_urlsafe(12)
    names = [f"lt{i:06d}" for i in range(count)]
    tokens: list[str] = []
    stopping = asyncio.Event()

    async def seed() -> None:
        store = Store(database, schema)
        try:
            await store.migrate()
            for i in range(0, count, chunk):
                if stopping.is_set():
                    return
                tokens.extend(await create_accounts(store, names[i : i + chunk], password, grant))
        finally:
            await store.close()

    work = asyncio.ensure_future(seed())
    try:
        await asyncio.shield(work)
    except asyncio.CancelledError:
        stopping.set()
        await work
        raise
    return Seeded(names, tokens, password)


async def create_accounts(store: Store, names: list[str], password: str, grant: int) -> list[str]:
    """The one place the load tester writes to the store, through its public bulk API:
    accounts sharing ``password`` (hashed once, as registration hashes it), ``grant`` chips
    each, all or none, and a session each. Returns the session tokens, in the names' order."""
    return await store.create_accounts_with_sessions(names, password, grant, SESSION_TTL)
