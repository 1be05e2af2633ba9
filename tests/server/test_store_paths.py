"""The store's ways of writing the hot path (store/journal_sqlite.py, store/journal_pg.py,
store/journal.py and store/money.py): the journal's batches, buy-ins, top-ups and
cash-outs run on SQLite as plain SQL in aiosqlite's thread, one trip per transaction
(``_run_sqlite``), on PostgreSQL as a few statements on the asyncpg connection
(``_writing_pg``), and with those raw paths off as SQLAlchemy's statements. The same
operations, refused ones, fenced ones and concurrent ones included, leave the same rows
every way, on either database, and the same errors reach the callers."""

from __future__ import annotations

import asyncio
import os
import secrets
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from pokerroom.store import Fence, Store, StoreError
from pokerroom.store.schema import accounts, departures, hand_players, hands, ledger, seats, table_leases
from tests.server.conftest import _drop_schema
from tests.server.helpers import audit


async def _script(store: Store) -> list[Any]:
    """Buy-ins, top-ups, hands of three tables at once, refusals and cash-outs; what each
    call gave back (a value, or the error's kind and code)."""
    out: list[Any] = []

    async def call(coro: Any) -> None:
        out.append(await outcome(coro))

    async def outcome(coro: Any) -> Any:
        try:
            return await coro
        except StoreError as e:
            return ("StoreError", e.code)
        except IntegrityError:
            return "IntegrityError"

    await store.migrate()
    ids = await store.create_accounts([f"P{k}" for k in range(9)], "h", 1_000)
    stacks: dict[int, int] = {}
    for k, account in enumerate(ids[:6]):
        stacks[account] = 200 + k
        await call(store.buy_in(f"T{k // 2}", k % 2 + 1, account, 200 + k))
    await call(store.buy_in("T0", 1, ids[6], 100))  # a seat taken
    await call(store.buy_in("T0", 3, ids[0], 100))  # one seat per table
    await call(store.buy_in("T1", 3, ids[7], 1_001))  # more than the balance
    await call(store.top_up("T5", ids[8], 10))  # no seat there
    await call(store.top_up("T0", ids[0], 5_000))  # more than the balance
    for number in range(1, 4):  # three tables at once: their writes share the journal's batches
        started = await asyncio.gather(*(
            store.start_hand(f"T{t}", number, "NL 1/2", "c" * 64, [(ids[2 * t], 1), (ids[2 * t + 1], 2)])
            for t in range(3)
        ))
        out.append(len(set(started)))

        async def finish(t: int, hand_id: int, number: int = number) -> None:
            net = 3 * number if t % 2 else -2 * number
            a, b = ids[2 * t], ids[2 * t + 1]
            stacks[a] += net
            stacks[b] -= net
            results = [(a, net, stacks[a]), (b, -net, stacks[b])]
            history = f'{{"n":{number}}}'
            await store.finish_hand(hand_id, f"T{t}", results, salt="", deck="AsKs", history=history)

        # (the answers in the order asked: on PostgreSQL through SQLAlchemy the moves are
        # transactions of their own, at once, answered in any order)
        out += (await asyncio.gather(
            *(finish(t, h) for t, h in enumerate(started)),
            outcome(store.top_up("T9", ids[8], 1)),  # refused in the middle of a batch
            outcome(store.buy_in("T3", 1, ids[6], 300)),  # the first time only
        ))[3:]
    out += await asyncio.gather(
        outcome(store.top_up("T3", ids[6], 50)),
        outcome(store.top_up("T3", ids[6], 5_000)),
        outcome(store.cash_out("T0", ids[0], stacks[ids[0]])),
        outcome(store.cash_out("T2", ids[5], stacks[ids[5]])),
    )
    await call(store.buy_in("T0", 1, ids[7], 40))  # the seat freed
    # fenced writes (leases.py): each table's in one batch, a stale epoch refused alone
    await store.declare_tables(["T0", "T1", "T3"])
    fence = {}
    for t in ("T0", "T1", "T3"):
        claim = await store.claim("w", t, 3600)
        assert claim is not None
        fence[t] = Fence(t, "w", claim.epoch)
    stale = Fence("T3", "w", fence["T3"].epoch - 1)
    players = {"T0": [(ids[7], 1), (ids[1], 2)], "T1": [(ids[2], 1), (ids[3], 2)]}
    started = await asyncio.gather(
        *(store.start_hand(t, 4, "NL 1/2", "d" * 64, players[t], fence=fence[t]) for t in ("T0", "T1")),
        outcome(store.start_hand("T3", 4, "NL 1/2", "d" * 64, [(ids[6], 1)], fence=stale)),
        outcome(store.top_up("T1", ids[3], 7, fence=fence["T1"])),
        outcome(store.top_up("T3", ids[6], 7, fence=stale)),
    )
    out += [len(set(started[:2])), *started[2:]]
    stacks[ids[3]] += 7
    stacks[ids[7]] = 40

    async def end(t: int, hand_id: int, memory: str) -> None:
        (a, _), (b, _) = players[f"T{t}"]
        stacks[a] += 4
        stacks[b] -= 4
        results = [(a, 4, stacks[a]), (b, -4, stacks[b])]
        await store.finish_hand(hand_id, f"T{t}", results, salt="s", deck="AdKd", history='{"n":4}',
                                fence=fence[f"T{t}"], number=4, memory=memory)

    out += await asyncio.gather(  # fences, a start and ends: one statement on PostgreSQL's raw path
        end(0, started[0], '{"button":2}'),
        end(1, started[1], '{"button":1}'),
        store.start_hand("T3", 5, "NL 1/2", "f" * 64, [(ids[6], 1)], fence=fence["T3"]),
    )
    out += await asyncio.gather(
        outcome(store.cash_out("T3", ids[6], 350, departed_at=5.0, fence=fence["T3"])),
        outcome(store.cash_out("T2", ids[4], stacks[ids[4]], departed_at=6.0)),
    )
    # a hand settled already (number 4 is the lease's last) is refused by the fence too
    hand = await store.start_hand("T1", 5, "NL 1/2", "e" * 64, players["T1"], fence=fence["T1"])
    await call(store.finish_hand(hand, "T1", [(ids[2], 0, stacks[ids[2]]), (ids[3], 0, stacks[ids[3]])],
                                 salt="", deck="", history="{}", fence=fence["T1"], number=4))
    await audit(store)
    return out


async def _rows(store: Store) -> dict[str, Any]:
    """Every row, without what differs by nature (transaction ids, times)."""
    async with store.engine.connect() as conn:
        acc = sorted((await conn.execute(select(accounts.c.id, accounts.c.name, accounts.c.balance))).all())
        sts = sorted((await conn.execute(select(seats))).all())
        led = sorted(
            (await conn.execute(select(ledger.c.kind, ledger.c.book, ledger.c.account_id, ledger.c.amount,
                                       ledger.c.hand_id))).all(),
            key=repr,
        )
        txns = len((await conn.execute(select(ledger.c.txn).distinct())).all())
        columns = [hands.c.id, hands.c.table_name, hands.c.number, hands.c.game, hands.c.status,
                   hands.c.commitment, hands.c.salt, hands.c.deck, hands.c.history, hands.c.phh, hands.c.text]
        hs = sorted((await conn.execute(select(*columns))).all())
        ended = (await conn.execute(select(hands.c.ended_at).where(hands.c.status == "complete"))).all()
        hp = sorted((await conn.execute(select(hand_players))).all())
        gone = sorted((await conn.execute(select(departures.c.table_name, departures.c.account_id,
                                                 departures.c.stack, departures.c.at))).all())
        leases = sorted((await conn.execute(select(table_leases.c.table_name, table_leases.c.owner,
                                                   table_leases.c.epoch, table_leases.c.last_hand,
                                                   table_leases.c.memory))).all())
    assert all(e is not None for (e,) in ended)
    return {"accounts": acc, "seats": sts, "ledger": led, "txns": txns, "hands": hs, "players": hp,
            "departures": gone, "leases": leases}


def _run(path: Path | str, direct: bool, schema: str | None = None) -> tuple[list[Any], dict[str, Any]]:
    """The script on a store of the SQLite file ``path`` (or the PostgreSQL URL, in
    ``schema``), its raw path on or off: what the calls gave back, and the rows left."""

    async def main() -> tuple[list[Any], dict[str, Any]]:
        store = Store(f"sqlite:///{path}" if isinstance(path, Path) else path, schema)
        if store.sqlite:
            store._sqlite_direct = direct
        else:
            store._pg_direct = direct
        try:
            out = await _script(store)
            assert store._direct is direct
            return out, await _rows(store)
        finally:
            await store.close()

    return asyncio.run(main())


REFUSED, NO_SEAT = "IntegrityError", ("StoreError", "not_seated")
BROKE, FENCED = ("StoreError", "insufficient_balance"), ("StoreError", "fenced")
CODES = [REFUSED, REFUSED, BROKE, NO_SEAT, BROKE, NO_SEAT, NO_SEAT, REFUSED, NO_SEAT, REFUSED, BROKE,
         FENCED, FENCED, FENCED]


def test_sqlite_in_its_thread_writes_what_sqlalchemy_writes(tmp_path: Path) -> None:
    direct, plain = _run(tmp_path / "direct.db", True), _run(tmp_path / "plain.db", False)
    assert direct[0] == plain[0]
    assert direct[1] == plain[1]
    assert [x for x in direct[0] if isinstance(x, tuple) or x == "IntegrityError"] == CODES


def test_postgresql_on_asyncpg_writes_what_sqlalchemy_writes_and_sqlite_too(tmp_path: Path) -> None:
    """PostgreSQL's raw path against its SQLAlchemy statements, each in a fresh schema, and
    both against SQLite's raw path: the same answers and the same rows (ids included). On
    POKERROOM_TEST_DATABASE_URL, else this machine's PostgreSQL: it must be reachable."""
    url = os.environ.get("POKERROOM_TEST_DATABASE_URL") or "postgresql://postgres@127.0.0.1:5432/test"
    schemas = [f"test_{secrets.token_hex(6)}" for _ in range(2)]
    try:
        direct, plain = _run(url, True, schemas[0]), _run(url, False, schemas[1])
    finally:
        for schema in schemas:
            asyncio.run(_drop_schema(url, schema))
    lite = _run(tmp_path / "direct.db", True)
    assert direct[0] == plain[0] == lite[0]
    assert [x for x in direct[0] if isinstance(x, tuple) or x == "IntegrityError"] == CODES
    assert direct[1] == plain[1]
    assert direct[1] == lite[1]


@pytest.mark.parametrize("direct", [True, False])
def test_a_busted_player_cashes_out_nothing_and_frees_the_seat(tmp_path: Path, direct: bool) -> None:
    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'z.db'}")
        store._sqlite_direct = direct
        try:
            await store.migrate()
            ann, bob = await store.create_accounts(["Ann", "Bob"], "h", 100)
            assert await store.buy_in("NL", 2, ann, 100) == 0
            assert await store.buy_in("NL", 5, bob, 60) == 40
            hand = await store.start_hand("NL", 1, "NL 1/2", "c" * 64, [(ann, 2), (bob, 5)])
            results = [(ann, -100, 0), (bob, 100, 160)]
            await store.finish_hand(hand, "NL", results, salt="", deck="", history="{}")
            await store.cash_out("NL", ann, 0)
            async with store.engine.connect() as conn:
                assert [r.account_id for r in (await conn.execute(select(seats))).all()] == [bob]
            with pytest.raises(StoreError) as refused:
                await store.buy_in("NL", 2, ann, 40)
            assert refused.value.code == "insufficient_balance"
            assert await audit(store) == {"balances": 40, "seats": 160, "granted": 200, "ledger_sum": 0}
        finally:
            await store.close()

    asyncio.run(main())
