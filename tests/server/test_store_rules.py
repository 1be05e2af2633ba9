"""What the store keeps for the room's rules of issue 15, on SQLite and PostgreSQL alike
(migration 0003): the all-in protections used (D7), the departures from tables that the
rathole rule reads (D13; written in the cash-out's transaction) and the cards players
show after a hand (D12), which a stored history carries when it is read."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from sqlalchemy import inspect, select

from pokerroom.store import Departure, Store
from pokerroom.store.schema import departures, ledger, protection_uses, reveals
from tests.server.helpers import Database, audit, rows, with_store
from tests.server.helpers.migrations import upgrade_to


def test_D7_protection_uses_are_kept_and_read_back_by_name_in_order(database: Database) -> None:
    async def body(store: Store) -> None:
        ann, bob, cid = await store.create_accounts(["Ann", "Bob", "Cid"], "h", 100)
        await store.record_protection(ann, 1_000.0)
        await store.record_protection(bob, 1_500.0)
        await store.record_protection(ann, 900.0)  # written late: still read back in time order
        await store.record_protection(ann, 2_000.0)
        assert await store.protection_uses(0.0) == {"Ann": [900.0, 1_000.0, 2_000.0], "Bob": [1_500.0]}
        assert await store.protection_uses(1_000.0) == {"Ann": [1_000.0, 2_000.0], "Bob": [1_500.0]}
        assert await store.protection_uses(2_000.5) == {}
        assert len(await rows(store, select(protection_uses))) == 4
        assert cid not in {r.account_id for r in await rows(store, select(protection_uses))}
        second = Store(*database)  # another server start reads the same
        try:
            await second.migrate()
            assert await second.protection_uses(1_200.0) == {"Ann": [2_000.0], "Bob": [1_500.0]}
        finally:
            await second.close()

    with_store(database, body)


def test_D13_a_departure_is_written_with_its_cash_out_and_the_last_one_counts(database: Database) -> None:
    async def body(store: Store) -> None:
        ann, bob = await store.create_accounts(["Ann", "Bob"], "h", 1_000)
        assert await store.last_departure("NL", ann, 0.0) is None
        await store.buy_in("NL", 1, ann, 300)
        await store.cash_out("NL", ann, 300, departed_at=100.0)
        await store.buy_in("NL", 1, ann, 300)
        await store.buy_in("NL", 2, bob, 400)
        hand = await store.start_hand("NL", 1, "NL 1/2", "c" * 64, [(ann, 1), (bob, 2)])
        await store.finish_hand(hand, "NL", [(ann, -300, 0), (bob, 300, 700)], salt="", deck="", history="{}")
        await store.cash_out("NL", ann, 0, departed_at=200.0)  # busted: the last departure, 0 chips
        await store.buy_in("FL", 2, ann, 250)
        await store.cash_out("FL", ann, 250, departed_at=150.0)
        await store.cash_out("NL", bob, 700)  # no departure asked for: none written
        assert await store.last_departure("NL", ann, 0.0) == Departure(0, 200.0)
        assert await store.last_departure("NL", ann, 150.0) == Departure(0, 200.0)
        assert await store.last_departure("NL", ann, 200.5) is None
        assert await store.last_departure("FL", ann, 0.0) == Departure(250, 150.0)
        assert await store.last_departure("NL", bob, 0.0) is None
        found = {(r.table_name, r.account_id, r.stack, r.at) for r in await rows(store, select(departures))}
        assert found == {("NL", ann, 300, 100.0), ("NL", ann, 0, 200.0), ("FL", ann, 250, 150.0)}
        assert await store.chips_at_tables(ann) == 0
        totals = await audit(store)
        assert (totals["granted"], totals["seats"]) == (2_000, 0)

    with_store(database, body)


@pytest.mark.parametrize("direct", [True, False])
def test_D13_departures_on_sqlite_in_its_thread_as_through_sqlalchemy(tmp_path: Path, direct: bool) -> None:
    """SQLite's cash-outs run as plain SQL in its thread (store/journal_sqlite.py,
    _move_sqlite) or, when that is not available, through SQLAlchemy: the departure is
    written either way, and a cash-out without a seat writes none (its savepoint rolls
    back)."""

    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'd.db'}")
        store._sqlite_direct = direct
        try:
            await store.migrate()
            (ann,) = await store.create_accounts(["Ann"], "h", 500)
            await store.buy_in("NL", 3, ann, 120)
            await store.cash_out("NL", ann, 120, departed_at=42.0)
            assert store._sqlite_direct is direct
            assert await store.last_departure("NL", ann, 0.0) == Departure(120, 42.0)
            entries = await rows(store, select(ledger).order_by(ledger.c.id))
            assert [(r.kind, r.amount) for r in entries][-2:] == [("cash_out", -120), ("cash_out", 120)]
            assert (await audit(store))["balances"] == 500
        finally:
            await store.close()

    asyncio.run(main())


def test_D13_a_restart_returning_the_seats_writes_no_departure(database: Database) -> None:
    """The players did not leave: the room stopped under them (a crash voided the hand)."""

    async def body(store: Store) -> None:
        ann, bob = await store.create_accounts(["Ann", "Bob"], "h", 1_000)
        await store.buy_in("NL", 1, ann, 180)
        await store.buy_in("NL", 2, bob, 60)
        assert await store.return_all_seats() == 2
        assert await store.last_departure("NL", ann, 0.0) is None
        assert await store.last_departure("NL", bob, 0.0) is None
        assert await rows(store, select(departures)) == []
        assert (await audit(store))["seats"] == 0

    with_store(database, body)


def test_D12_cards_shown_after_the_hand_reach_its_stored_history(database: Database) -> None:
    async def body(store: Store) -> None:
        ann, bob = await store.create_accounts(["Ann", "Bob"], "h", 1_000)
        await store.buy_in("NL", 3, ann, 200)
        await store.buy_in("NL", 5, bob, 200)
        hand = await store.start_hand("NL", 1, "NL 1/2", "c" * 64, [(ann, 3), (bob, 5)])
        players = [{"seat": 3, "name": "Ann"}, {"seat": 5, "name": "Bob"}]
        history = {"table": "NL", "number": 1, "players": players}
        results = [(ann, 3, 203), (bob, -3, 197)]
        await store.finish_hand(hand, "NL", results, salt="", deck="AhKd", history=json.dumps(history))
        stored = await store.hand(hand)
        assert stored is not None and "reveals" not in json.loads(stored["history"])
        await store.add_reveal(hand, 3, "Kd")  # one card, then the other
        await store.add_reveal(hand, 3, "Ah")
        await store.add_reveal(hand, 5, "QsJh")
        stored = await store.hand(hand)
        assert stored is not None
        read = json.loads(stored["history"])
        assert read["reveals"] == {"3": ["Kd", "Ah"], "5": ["Qs", "Jh"]}
        assert {k: v for k, v in read.items() if k != "reveals"} == history
        assert len(await rows(store, select(reveals))) == 3

    with_store(database, body)


def test_migration_0003_upgrades_a_database_of_0002_and_keeps_its_data(database: Database) -> None:
    async def main() -> None:
        store = Store(*database)
        try:
            async with store.engine.begin() as conn:
                await upgrade_to(conn, store, "0002")
                names = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
            assert "accounts" in names and not names & {"protection_uses", "departures", "reveals"}
            account = await store.create_account("Old", "h", 700)
            await store.migrate()  # the server's start: 0003 on top
            async with store.engine.connect() as conn:
                names = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
                (version,) = (await conn.exec_driver_sql("SELECT version_num FROM alembic_version")).one()
            assert {"protection_uses", "departures", "reveals"} <= names
            assert version == "0008"  # 0004 (sessions' last_seen), 0005, 0006 (leases), 0008 (notes) on top
            assert await store.account_by_name("old") == account
            await store.record_protection(account.id, 5.0)
            assert await store.protection_uses(0.0) == {"Old": [5.0]}
        finally:
            await store.close()

    asyncio.run(main())
