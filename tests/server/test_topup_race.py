"""The daily top-up under concurrent requests (issue 16, item 1): the check ("broke", "once
a day") and the grant are one atomic step in the write transaction, so eight top-ups of one
broke account at once grant once, on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import time

import httpx
from sqlalchemy import update

from pokerroom.gateway.auth import Accounts, AuthError
from pokerroom.store import Store
from pokerroom.store.schema import accounts as accounts_table
from tests.server.helpers import Database, Server, audit, with_store


def test_eight_concurrent_top_ups_of_a_broke_account_grant_once(database: Database) -> None:
    async def body(store: Store) -> None:
        accounts = Accounts(store, starting_balance=0, topup=2_000)
        broke = await store.create_account("Broke", "h", 0)
        async with store.engine.begin() as conn:  # his last grant was two days ago
            await conn.execute(update(accounts_table).values(last_grant_at=time.time() - 2 * 86_400))
        read = await store.account(broke.id)  # each request read the account before, as the API does
        assert read is not None and read.balance == 0

        async def one() -> int | str:
            try:
                return await accounts.daily_topup(read)
            except AuthError as e:
                return e.code

        results = await asyncio.gather(*(one() for _ in range(8)))
        assert sorted(map(str, results)) == ["2000"] + ["not_broke"] * 7, results  # one grant
        after = await store.account(broke.id)
        assert after is not None and after.balance == 2_000
        totals = await audit(store)
        assert totals["balances"] == totals["granted"] == 2_000
        # not broke any more: refused, nothing granted
        again = await store.account(broke.id)
        assert again is not None
        try:
            await accounts.daily_topup(again)
        except AuthError as e:
            assert e.code == "not_broke"
        else:
            raise AssertionError("a player with 2,000 chips got a top-up")

    with_store(database, body)


def test_eight_parallel_http_top_ups_of_a_broke_account_grant_once(server: Server) -> None:
    """The same race through a real server: eight ``POST /api/topup`` at once, each on
    its own connection, for one broke account. Before the fix two of them granted (4,000)."""

    async def body() -> None:
        async with httpx.AsyncClient(base_url=server.http, timeout=20.0) as http:
            answer = await http.post("/api/register", json={"name": "Broke", "password": "a-long-passphrase"})
            assert answer.status_code == 200, answer.text
            token = answer.json()["token"]
        url, schema = server.database
        store = Store(url, schema)  # the room's own database, beside the running server
        try:
            # he lost his 10,000 (taken back through the bank book, so the ledger still
            # balances), and his last grant was two days ago
            account = await store.account_by_name("Broke")
            assert account is not None
            assert await store.grant(account.id, -10_000, "test_loss") == 0
            async with store.engine.begin() as conn:
                await conn.execute(
                    update(accounts_table)
                    .where(accounts_table.c.id == account.id)
                    .values(last_grant_at=time.time() - 2 * 86_400)
                )

            async def one() -> httpx.Response:
                async with httpx.AsyncClient(base_url=server.http, timeout=20.0) as own:
                    return await own.post("/api/topup", headers={"Authorization": f"Bearer {token}"}, json={})

            answers = await asyncio.gather(*(one() for _ in range(8)))
            codes = sorted(a.status_code for a in answers)
            assert codes == [200] + [409] * 7, [(a.status_code, a.text) for a in answers]
            after = await store.account(account.id)
            assert after is not None and after.balance == 2_000
            totals = await audit(store)
            assert totals["balances"] == totals["granted"] == 2_000, totals
        finally:
            await store.close()

    asyncio.run(body())
