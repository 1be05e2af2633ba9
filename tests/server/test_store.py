"""The Store on its own (SQLite, and PostgreSQL when POKERROOM_TEST_DATABASE_URL is set):
migrations, accounts and grants, buy-ins, top-ups, cash-outs, hands and the double-entry
ledger that must balance after every one of them (DESIGN.md invariants 1 and 5)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import event, select, text
from sqlalchemy.exc import IntegrityError

from pokerroom import passwords
from pokerroom.store import Fence, Store, StoreError, balance_book, new_txn, table_book
from pokerroom.store.schema import hand_players, hands, ledger
from tests.server.helpers import Database, audit, rows, seat_rows, with_store


async def balance(store: Store, account_id: int) -> int:
    account = await store.account(account_id)
    assert account is not None
    return int(account.balance)


async def ledger_count(store: Store) -> int:
    return len(await rows(store, select(ledger.c.id)))


async def finish(store: Store, hand_id: int, table: str, results: list[tuple[int, int, int]]) -> None:
    await store.finish_hand(
        hand_id, table, results, salt="", deck="AsKs", history="{}", phh="phh", text="text"
    )


def test_migrations_are_idempotent(database: Database) -> None:
    async def body(store: Store) -> None:
        account = await store.create_account("Keeper", "hash", 500)
        await store.migrate()  # again, on a database that is at head and holds data
        async with store.engine.connect() as conn:
            versions = (await conn.exec_driver_sql("SELECT version_num FROM alembic_version")).all()
        assert len(versions) == 1
        second = Store(*database)
        try:
            await second.migrate()  # a second server start on the same database
            assert await second.account_by_name("keeper") == account
            assert (await audit(second))["granted"] == 500
        finally:
            await second.close()
        assert await balance(store, account.id) == 500

    with_store(database, body)


def test_grants_and_the_ledger_balance(database: Database) -> None:
    async def body(store: Store) -> None:
        ann = await store.create_account("Ann", "h", 10_000)
        bob = await store.create_account("Bob", "h", 2_500)
        cyd = await store.create_account("Cyd", "h", 0)
        assert (ann.balance, bob.balance, cyd.balance) == (10_000, 2_500, 0)
        totals = await audit(store)
        assert totals == {"balances": 12_500, "seats": 0, "granted": 12_500, "ledger_sum": 0}
        bank = await rows(store, select(ledger.c.kind, ledger.c.amount).where(ledger.c.book == "bank"))
        assert sorted(bank) == [("grant", -10_000), ("grant", -2_500)]  # a zero grant writes nothing
        assert await store.grant(cyd.id, 2_000) == 2_000
        assert await store.grant(bob.id, 1) == 2_501
        totals = await audit(store)
        assert totals == {"balances": 14_501, "seats": 0, "granted": 14_501, "ledger_sum": 0}
        topups = await rows(store, select(ledger.c.amount).where(ledger.c.kind == "topup"))
        assert sorted(r.amount for r in topups) == [-2_000, -1, 1, 2_000]

    with_store(database, body)


def test_buy_in_refuses_more_than_the_balance_and_changes_nothing(database: Database) -> None:
    async def body(store: Store) -> None:
        ann = await store.create_account("Ann", "h", 300)
        before = (await ledger_count(store), await seat_rows(store))
        with pytest.raises(StoreError) as refused:
            await store.buy_in("NL", 1, ann.id, 301)
        assert refused.value.code == "insufficient_balance"
        assert await balance(store, ann.id) == 300
        assert (await ledger_count(store), await seat_rows(store)) == before
        assert await store.chips_at_tables(ann.id) == 0
        assert await store.buy_in("NL", 1, ann.id, 200) == 100
        assert await seat_rows(store) == {("NL", 1, ann.id, 200)}
        with pytest.raises(StoreError) as refused:  # a second table: only 100 left
            await store.buy_in("FL", 3, ann.id, 101)
        assert refused.value.code == "insufficient_balance"
        assert await store.buy_in("FL", 3, ann.id, 100) == 0
        assert await store.chips_at_tables(ann.id) == 300
        assert await audit(store) == {"balances": 0, "seats": 300, "granted": 300, "ledger_sum": 0}

    with_store(database, body)


def test_top_up_and_cash_out_move_exactly_their_amounts(database: Database) -> None:
    async def body(store: Store) -> None:
        ann = await store.create_account("Ann", "h", 1_000)
        bob = await store.create_account("Bob", "h", 1_000)
        await store.buy_in("NL", 2, ann.id, 150)
        await store.buy_in("NL", 5, bob.id, 200)
        assert await store.top_up("NL", ann.id, 50) == 800
        assert await seat_rows(store) == {("NL", 2, ann.id, 200), ("NL", 5, bob.id, 200)}
        before = (await ledger_count(store), await seat_rows(store))
        with pytest.raises(StoreError) as refused:
            await store.top_up("NL", bob.id, 801)
        assert refused.value.code == "insufficient_balance"
        assert (await ledger_count(store), await seat_rows(store)) == before
        assert await balance(store, bob.id) == 800
        await audit(store)
        await store.cash_out("NL", ann.id, 200)
        assert await balance(store, ann.id) == 1_000
        assert await seat_rows(store) == {("NL", 5, bob.id, 200)}
        assert await store.chips_at_tables(ann.id) == 0
        kinds = await rows(
            store, select(ledger.c.kind, ledger.c.book, ledger.c.amount).where(ledger.c.account_id == ann.id)
        )
        assert sorted(kinds) == sorted([
            ("grant", balance_book(ann.id), 1_000),
            ("buy_in", balance_book(ann.id), -150), ("buy_in", table_book("NL", ann.id), 150),
            ("top_up", balance_book(ann.id), -50), ("top_up", table_book("NL", ann.id), 50),
            ("cash_out", table_book("NL", ann.id), -200), ("cash_out", balance_book(ann.id), 200),
        ])
        assert await audit(store) == {"balances": 1_800, "seats": 200, "granted": 2_000, "ledger_sum": 0}

    with_store(database, body)


def test_a_hand_moves_exactly_its_nets(database: Database) -> None:
    async def body(store: Store) -> None:
        ids = [(await store.create_account(n, "h", 1_000)).id for n in ("Ann", "Bob", "Cyd")]
        for seat, account in zip((1, 3, 6), ids, strict=True):
            await store.buy_in("NL", seat, account, 200)
        hand_id = await store.start_hand("NL", 1, "NL 1/2", "c" * 64, list(zip(ids, (1, 3, 6), strict=True)))
        row = (await rows(store, select(hands).where(hands.c.id == hand_id)))[0]
        assert (row.status, row.table_name, row.number, row.ended_at) == ("playing", "NL", 1, None)
        assert await store.totals() == {"balances": 2_400, "seats": 600, "granted": 3_000, "ledger_sum": 0}
        # nets that do not balance are refused whole: the hand stays 'playing', nothing moves
        with pytest.raises(AssertionError):
            await finish(store, hand_id, "NL", [(ids[0], 30, 230), (ids[1], -20, 180), (ids[2], -9, 191)])
        assert (await store.hand(hand_id) or {})["status"] == "playing"
        assert {s[3] for s in await seat_rows(store)} == {200}
        await finish(store, hand_id, "NL", [(ids[0], 30, 230), (ids[1], -20, 180), (ids[2], -10, 190)])
        data = await store.hand(hand_id)
        assert data is not None and data["status"] == "complete" and data["ended_at"] is not None
        assert sorted((p["account_id"], p["seat"], p["net"]) for p in data["players"]) == [
            (ids[0], 1, 30), (ids[1], 3, -20), (ids[2], 6, -10)
        ]
        entries = await rows(store, select(ledger.c.book, ledger.c.amount).where(ledger.c.hand_id == hand_id))
        assert sorted(entries) == sorted(
            [(table_book("NL", ids[0]), 30), (table_book("NL", ids[1]), -20), (table_book("NL", ids[2]), -10)]
        )
        assert await seat_rows(store) == {
            ("NL", 1, ids[0], 230), ("NL", 3, ids[1], 180), ("NL", 6, ids[2], 190)
        }
        assert [await balance(store, a) for a in ids] == [800, 800, 800]  # chips stay at the table
        await audit(store)
        assert [h["net"] for h in await store.hands_of(ids[1])] == [-20]
        for account, stack in zip(ids, (230, 180, 190), strict=True):
            await store.cash_out("NL", account, stack)
        assert [await balance(store, a) for a in ids] == [1_030, 980, 990]
        assert await audit(store) == {"balances": 3_000, "seats": 0, "granted": 3_000, "ledger_sum": 0}

    with_store(database, body)


def test_return_all_seats_returns_the_chips_and_voids_hands_in_play(database: Database) -> None:
    async def body(store: Store) -> None:
        ann, bob, cyd = [(await store.create_account(n, "h", 1_000)).id for n in ("Ann", "Bob", "Cyd")]
        await store.buy_in("NL", 1, ann, 200)
        await store.buy_in("NL", 2, bob, 100)
        await store.buy_in("Stud", 4, ann, 300)
        await store.buy_in("Stud", 5, cyd, 250)
        first = await store.start_hand("NL", 1, "NL 1/2", "a" * 64, [(ann, 1), (bob, 2)])
        await finish(store, first, "NL", [(ann, 40, 240), (bob, -40, 60)])
        # a hand in play at each table when the server dies: nothing of them was written
        cut = await store.start_hand("NL", 2, "NL 1/2", "b" * 64, [(ann, 1), (bob, 2)])
        stud = await store.start_hand("Stud", 1, "Stud 10/20", "d" * 64, [(ann, 4), (cyd, 5)])
        assert await store.return_all_seats() == 4
        assert await seat_rows(store) == set()
        assert [await balance(store, a) for a in (ann, bob, cyd)] == [1_040, 960, 1_000]
        statuses = {r.id: r.status for r in await rows(store, select(hands.c.id, hands.c.status))}
        assert statuses == {first: "complete", cut: "void", stud: "void"}
        voided = await rows(store, select(ledger.c.id).where(ledger.c.hand_id.in_([cut, stud])))
        assert voided == []
        restarts = await rows(store, select(ledger.c.book, ledger.c.amount).where(ledger.c.kind == "restart"))
        assert sorted(restarts) == sorted([
            (table_book("NL", ann), -240), (balance_book(ann), 240),
            (table_book("NL", bob), -60), (balance_book(bob), 60),
            (table_book("Stud", ann), -300), (balance_book(ann), 300),
            (table_book("Stud", cyd), -250), (balance_book(cyd), 250),
        ])
        assert await audit(store) == {"balances": 3_000, "seats": 0, "granted": 3_000, "ledger_sum": 0}
        assert await store.return_all_seats() == 0  # a second restart finds nothing to do
        assert len(await rows(store, select(hand_players.c.hand_id))) == 6
        await audit(store)

    with_store(database, body)


def test_names_are_unique_whatever_their_case(database: Database) -> None:
    async def body(store: Store) -> None:
        alice = await store.create_account("Alice", "h", 100)
        for other in ("alice", "ALICE", "aLiCe"):
            with pytest.raises(StoreError) as taken:
                await store.create_account(other, "h", 100)
            assert taken.value.code == "name_taken"
        assert await store.account_by_name("aLIce") == alice
        assert await store.account_by_name("alic") is None
        assert await audit(store) == {"balances": 100, "seats": 0, "granted": 100, "ledger_sum": 0}

    with_store(database, body)


def test_bulk_accounts_with_sessions_for_a_load_test(database: Database) -> None:
    """The load test's bots, made through the store's public API: a password shared and
    hashed as a login checks it, a grant each through the ledger, and a session token each
    that opens its own account; all or none when a name is taken."""

    async def body(store: Store) -> None:
        names = ["lt000", "lt001", "lt002"]
        tokens = await store.create_accounts_with_sessions(names, "shared-secret-1", 500, 3600.0)
        assert len(set(tokens)) == len(names)
        for name, token in zip(names, tokens, strict=True):
            account = await store.session_account(passwords.token_hash(token))
            assert account is not None
            assert (account.name, account.balance) == (name, 500)
            assert passwords.verify_password(account.password_hash, "shared-secret-1")
            assert not passwords.verify_password(account.password_hash, "shared-secret-2")
        assert await store.session_account(passwords.token_hash("not-a-token")) is None
        with pytest.raises(StoreError) as taken:
            await store.create_accounts_with_sessions(["lt999", "LT001"], "shared-secret-1", 500, 3600.0)
        assert taken.value.code == "name_taken"
        assert await store.account_by_name("lt999") is None
        assert await audit(store) == {"balances": 1_500, "seats": 0, "granted": 1_500, "ledger_sum": 0}

    with_store(database, body)


def test_a_digest_that_is_no_argon2_hash_matches_no_password() -> None:
    assert not passwords.verify_password("h", "h")
    assert passwords.verify_password(passwords.hash_password("correct-horse"), "correct-horse")


async def race(store: Store, names: list[str]) -> list[str]:
    """Create accounts of these names at the same moment: for each, 'Account', the
    StoreError's code, or the name of any other exception."""

    async def create(name: str) -> str:
        try:
            await store.create_account(name, "h", 100)
        except StoreError as e:
            return str(e.code)
        except Exception as e:  # what else the race raises is the point of the test
            return type(e).__name__
        return "Account"

    return sorted(await asyncio.gather(*(create(n) for n in names)))


def test_one_name_registered_twice_at_the_same_moment(database: Database) -> None:
    """Two sign-ups of one name racing: one account, and 'name_taken' for the other (not
    the database's IntegrityError, which the app answers with a 500)."""

    async def body(store: Store) -> None:
        outcomes = [await race(store, [f"Dup{k}", f"Dup{k}"]) for k in range(3)]
        assert outcomes == [["Account", "name_taken"]] * 3
        await audit(store)

    with_store(database, body)


def test_one_name_in_two_cases_registered_at_the_same_moment(database: Database) -> None:
    """'Race', 'RACE' and 'race' signing up at once: one account, 'name_taken' for the
    others (the case-insensitive check must hold under concurrency, not only in sequence)."""

    async def body(store: Store) -> None:
        outcomes = [await race(store, [f"Race{k}", f"RACE{k}", f"race{k}"]) for k in range(3)]
        assert outcomes == [["Account", "name_taken", "name_taken"]] * 3
        await audit(store)

    with_store(database, body)


def test_top_up_without_a_seat_is_refused(database: Database) -> None:
    """A top-up for an account with no seat at that table must not move the balance into a
    table book that no seat holds (the chips would leave balances + seats)."""

    async def body(store: Store) -> None:
        ann = await store.create_account("Ann", "h", 1_000)
        with pytest.raises(StoreError):
            await store.top_up("NL", ann.id, 100)
        assert await balance(store, ann.id) == 1_000
        assert await audit(store) == {"balances": 1_000, "seats": 0, "granted": 1_000, "ledger_sum": 0}

    with_store(database, body)


def test_hands_of_many_tables_share_commits_and_a_bad_write_fails_alone(database: Database) -> None:
    """The journal: hand writes queued together are committed together (one transaction
    for the lot); when one of them is refused (here a player who does not exist), the
    others are written one by one and only that one fails."""

    async def body(store: Store) -> None:
        ids = [(await store.create_account(f"J{k}", "h", 1_000)).id for k in range(6)]
        for k, account in enumerate(ids):
            await store.buy_in(f"T{k // 2}", k % 2 + 1, account, 200)
        commits = 0

        def counted(*_: Any) -> None:
            nonlocal commits
            commits += 1

        event.listen(store.engine.sync_engine, "commit", counted)
        good = [store.start_hand(f"T{t}", 1, "NL 1/2", "c" * 64, [(ids[2 * t], 1), (ids[2 * t + 1], 2)])
                for t in range(3)]
        started = await asyncio.gather(*good)
        assert len(set(started)) == 3 and commits == 1  # three hands, one commit
        bad = store.start_hand("T9", 1, "NL 1/2", "c" * 64, [(10_000_000, 1)])
        again = store.start_hand("T0", 2, "NL 1/2", "c" * 64, [(ids[0], 1), (ids[1], 2)])
        outcome = await asyncio.gather(bad, again, return_exceptions=True)
        assert isinstance(outcome[0], IntegrityError) and isinstance(outcome[1], int)
        finishes = [
            finish(store, hand_id, f"T{t}", [(ids[2 * t], 5, 205), (ids[2 * t + 1], -5, 195)])
            for t, hand_id in enumerate(started)
        ]
        commits = 0
        await asyncio.gather(*finishes)
        assert commits == 1
        for hand_id in started:
            assert (await store.hand(hand_id) or {})["status"] == "complete"
        assert (await store.hand(int(outcome[1])) or {})["status"] == "playing"
        assert await store.totals() == {"balances": 4_800, "seats": 1_200, "granted": 6_000, "ledger_sum": 0}
        assert {s[3] for s in await seat_rows(store)} == {205, 195}

    with_store(database, body)


def test_a_stale_epoch_is_fenced_and_writes_nothing_while_the_new_owners_land(database: Database) -> None:
    """Issue 18: a table claimed by another worker (its epoch raised) refuses its old owner's
    chip writes in their own transaction: a hand, a top-up, a cash-out, a hand's end, each
    'fenced' with nothing written, also when they share the journal's batch with writes
    of the new owner and of another table, which land."""

    async def body(store: Store) -> None:
        ann, bob, cyd = [await store.create_account(n, "h", 1_000) for n in ("Ann", "Bob", "Cyd")]
        await store.declare_tables(["A", "B"])
        old = await store.claim("w1", "A", -1.0)  # expired at once: another may claim it
        other = await store.claim("w1", "B", 3600)
        assert old is not None and other is not None
        fence_old, fence_b = Fence("A", "w1", old.epoch), Fence("B", "w1", other.epoch)
        assert await store.buy_in("A", 1, ann.id, 300, fence=fence_old) == 700
        assert await store.buy_in("A", 2, bob.id, 300, fence=fence_old) == 700
        assert await store.buy_in("B", 1, cyd.id, 300, fence=fence_b) == 700
        hand = await store.start_hand("A", 1, "NL 1/2", "c" * 64, [(ann.id, 1), (bob.id, 2)], fence=fence_old)
        new = await store.claim("w2", "A", 3600)
        assert new is not None and new.epoch == old.epoch + 1 and new.voided == [(hand, 1)]
        fence_new = Fence("A", "w2", new.epoch)
        before = (await audit(store), await seat_rows(store), await ledger_count(store))
        outcome = await asyncio.gather(
            store.start_hand("A", 2, "NL 1/2", "d" * 64, [(ann.id, 1), (bob.id, 2)], fence=fence_old),
            store.top_up("A", ann.id, 50, fence=fence_old),
            store.cash_out("A", bob.id, 300, departed_at=1.0, fence=fence_old),
            store.finish_hand(hand, "A", [(ann.id, 10, 310), (bob.id, -10, 290)], salt="", deck="",
                              history="{}", fence=fence_old, number=1),
            return_exceptions=True,
        )
        assert [getattr(e, "code", e) for e in outcome] == ["fenced"] * 4
        assert (await audit(store), await seat_rows(store), await ledger_count(store)) == before
        landed = await asyncio.gather(
            store.start_hand("A", 2, "NL 1/2", "e" * 64, [(ann.id, 1), (bob.id, 2)], fence=fence_new),
            store.top_up("B", cyd.id, 100, fence=fence_b),
            store.top_up("A", bob.id, 100, fence=fence_old),  # in the same batch: refused alone
            return_exceptions=True,
        )
        assert isinstance(landed[0], int) and landed[1] == 600
        assert getattr(landed[2], "code", None) == "fenced"
        assert await seat_rows(store) == {("A", 1, ann.id, 300), ("A", 2, bob.id, 300), ("B", 1, cyd.id, 400)}
        statuses = await rows(store, select(hands.c.number, hands.c.status).order_by(hands.c.id))
        assert [tuple(r) for r in statuses] == [(1, "void"), (2, "playing")]

    with_store(database, body)


def test_postgresql_journal_connection_lost_is_made_again(pg_database: Database) -> None:
    """PostgreSQL's raw path keeps one connection for the journal: when it dies (a server
    restart, a proxy cut), the batch on it fails before any statement, so the journal
    writes its ops again one at a time, on a new connection: written once."""
    database = pg_database

    async def pid(store: Store) -> int:
        assert store._pg_conn is not None
        return int((await store._pg_conn.get_raw_connection()).driver_connection.get_server_pid())

    async def body(store: Store) -> None:
        ann = await store.create_account("Ann", "h", 1_000)
        assert await store.buy_in("T", 1, ann.id, 300) == 700
        first = await pid(store)
        async with store.engine.connect() as conn:
            assert await conn.scalar(text(f"SELECT pg_terminate_backend({first})")) is True
        txn = new_txn()
        assert await store.top_up("T", ann.id, 100, txn=txn) == 600
        assert await pid(store) != first
        assert await store.top_up("T", ann.id, 100, txn=txn, again=True) == 600  # found: not again
        assert await seat_rows(store) == {("T", 1, ann.id, 400)}
        assert (await audit(store))["balances"] == 600

    with_store(database, body)
