"""A database that fails in the middle of a table's life (issue 16, item 2).

The store's writes fail at random points, before and after their commit (faults.py), while
bots play on a real server; afterwards every account's balance plus seats equals its
grants, every table's ledger book equals its seats, no hand is settled twice, and the
tables deal again once the store recovers. Before the fix, a failed write left the table
dealing on from memory and chips were created (the audit's table books and room total).
And the store's own part: a write asked ``again`` after a failure of unknown outcome never
moves a chip twice."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path

import httpx
from sqlalchemy import func, select, update

from pokerroom.bots import Tally, crowd
from pokerroom.store import Store, faults, new_txn
from pokerroom.store.audit import audit as room_audit
from pokerroom.store.schema import hands, ledger
from tests.server.helpers import Database, Server, audit, rows, seat_rows, with_store

SEED = 16  # of the faults' dice


def _hands_by_table(tally: Tally) -> dict[str, int]:
    return {name: max(numbers) for name, numbers in tally.hands.items() if numbers}


def test_tables_survive_a_failing_database_and_no_chip_is_made(tmp_path: Path, database: Database) -> None:
    switch = tmp_path / "faults-on"
    server = Server(tmp_path, database, action_time=3.0,
                    env={faults.VARIABLE: f"rate=0.3,seed={SEED},when={switch}"})
    server.start()
    tally = Tally()
    try:
        listed = httpx.get(f"{server.http}/api/tables").json()["tables"]
        tables = [t for t in listed if t["name"] in ("NL", "FL")]
        bots = crowd(server.http, 8, tables, strategies=["solid", "station", "random"], seed=SEED, think=0.02,
                     tally=tally, per_table={"NL": 4, "FL": 4})

        async def play() -> dict[str, object]:
            stop = asyncio.Event()
            runs = asyncio.gather(*(b.run(stop) for b in bots), return_exceptions=True)

            async def until(check: object, limit: float, what: str) -> None:
                deadline = time.monotonic() + limit
                while not check():  # type: ignore[operator]
                    assert not runs.done(), f"the bots stopped early: {runs.result()}"
                    assert time.monotonic() < deadline, f"{what}: {tally.hands and _hands_by_table(tally)}"
                    await asyncio.sleep(0.1)

            await until(lambda: all(len(tally.hands.get(t, ())) >= 3 for t in ("NL", "FL")), 60, "1st hands")
            switch.touch()  # the database starts failing: 3 in 10 writes
            failing_from = _hands_by_table(tally)
            await until(lambda: server.log.read_text().count("was not confirmed") >= 6, 60, "failed writes")
            await asyncio.sleep(3)
            switch.unlink()  # and recovers
            recovered_at = _hands_by_table(tally)
            # the tables deal again: five more hands at each
            await until(lambda: all(_hands_by_table(tally).get(t, 0) >= recovered_at.get(t, 0) + 5
                                    for t in ("NL", "FL")), 90, "dealing after the recovery")
            stop.set()
            results = await asyncio.wait_for(runs, 60)
            return {"failing_from": failing_from, "recovered_at": recovered_at, "results": results}

        outcome = asyncio.run(asyncio.wait_for(play(), 300))
    finally:
        server.stop()
    log = server.log.read_text()
    assert not server.errors(), server.errors()
    assert [r for r in outcome["results"] if isinstance(r, BaseException)] == []  # type: ignore[attr-defined]
    injected = {when: log.count(f"injected a database failure {when} the commit")
                for when in ("before", "after")}
    print(f"faults: {injected}, writes not confirmed {log.count('was not confirmed')}, pauses "
          f"{log.count('resumed after')}; hands when failing from {outcome['failing_from']}, when recovered "
          f"{outcome['recovered_at']}")
    assert injected["before"] >= 1 and injected["after"] >= 1, injected  # both kinds of failure happened
    assert log.count("resumed after") >= 1

    async def check(store: Store) -> None:
        totals = await audit(store)  # the tests' own check of books, seats and balances
        assert totals["granted"] == 8 * 10_000, totals
        report = await room_audit(store)  # and the room's
        assert report.balanced and report.problems == [], report
        settled = await rows(store, select(ledger.c.hand_id, func.count(func.distinct(ledger.c.txn)))
                             .where(ledger.c.kind == "hand").group_by(ledger.c.hand_id)
                             .having(func.count(func.distinct(ledger.c.txn)) > 1))
        assert settled == [], settled  # no hand settled twice
        assert len(await rows(store, select(hands.c.id).where(hands.c.status == "complete"))) >= 16

    with_store(database, check)
    # the operator's command says the same
    url, schema = database
    command = [sys.executable, "-m", "pokerroom.cli", "audit", "--db", url, "--json"]
    done = subprocess.run(command + (["--schema", schema] if schema else []), capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["balanced"] is True


def test_a_write_asked_again_after_an_unknown_outcome_moves_chips_once(database: Database) -> None:
    """Each money write, committed, then asked again with ``again=True`` and its key (as a
    table does when the commit's answer was lost): the second finds the first and writes
    nothing. Asked again when the first was not committed, it writes. (SQLite: its raw
    path; PostgreSQL: SQLAlchemy's.)"""
    with_store(database, _asked_again)


def test_a_write_asked_again_moves_chips_once_through_sqlalchemy_on_sqlite(tmp_path: Path) -> None:
    """The same through SQLAlchemy's statements on SQLite (its raw path off): both paths
    ask the one check (store/ops.py, ``settled``)."""

    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'plain.db'}")
        store._sqlite_direct = False
        try:
            await store.migrate()
            await _asked_again(store)
            assert store._sqlite_direct is False
        finally:
            await store.close()

    asyncio.run(main())


async def _asked_again(store: Store) -> None:
    """The writes of the test above, each committed and then asked again."""
    ann = await store.create_account("Ann", "h", 1_000)
    bob = await store.create_account("Bob", "h", 1_000)
    txn = new_txn()
    assert await store.buy_in("T", 1, ann.id, 300, txn=txn) == 700
    assert await store.buy_in("T", 1, ann.id, 300, txn=txn, again=True) == 700  # found: not again
    fresh = new_txn()  # a first try that never reached the database: asked again, it writes
    assert await store.buy_in("T", 2, bob.id, 200, txn=fresh, again=True) == 800
    up = new_txn()
    assert await store.top_up("T", ann.id, 100, txn=up) == 600
    assert await store.top_up("T", ann.id, 100, txn=up, again=True) == 600
    hand = await store.start_hand("T", 1, "NL 1/2", "c0ffee", [(ann.id, 1), (bob.id, 2)])
    players = [(ann.id, 1), (bob.id, 2)]
    assert await store.start_hand("T", 1, "NL 1/2", "c0ffee", players, again=True) == hand
    results = [(ann.id, 50, 450), (bob.id, -50, 150)]
    await store.finish_hand(hand, "T", results, salt="", deck="", history="{}")
    await store.finish_hand(hand, "T", results, salt="", deck="", history="{}", again=True)
    assert await seat_rows(store) == {("T", 1, ann.id, 450), ("T", 2, bob.id, 150)}
    await store.cash_out("T", bob.id, 150)
    await store.cash_out("T", bob.id, 150, again=True)
    assert (await store.account(bob.id)).balance == 950  # type: ignore[union-attr]
    totals = await audit(store)
    assert totals == {"balances": 600 + 950, "seats": 450, "granted": 2_000, "ledger_sum": 0}
    report = await room_audit(store)
    assert report.balanced, report.problems


def test_the_audit_finds_a_table_book_that_does_not_match_its_seat(database: Database) -> None:
    """What the bug left behind (a winner's stack in the database that no hand gave him)
    is found by ``pokerroom audit``, which exits 1 and names the book."""

    async def body(store: Store) -> None:
        ann = await store.create_account("Ann", "h", 1_000)
        await store.buy_in("T", 1, ann.id, 300)
        from pokerroom.store.schema import seats

        async with store.engine.begin() as conn:  # 300 chips more on the seat, no ledger entry
            await conn.execute(update(seats).values(stack=600))
        report = await room_audit(store)
        assert not report.balanced
        kinds = {p["kind"] for p in report.problems}
        assert kinds == {"table_book", "room_total"}, report.problems
        assert next(p for p in report.problems if p["kind"] == "room_total")["created"] == 300

    with_store(database, body)
    url, schema = database
    command = [sys.executable, "-m", "pokerroom.cli", "audit", "--db", url]
    done = subprocess.run(command + (["--schema", schema] if schema else []), capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "NOT BALANCED" in done.stdout and "table_book" in done.stdout and "created=300" in done.stdout
