"""The store's two ways of writing the hot path (store/journal_sqlite.py, store/journal.py
and store/money.py): on SQLite, the journal's batches, buy-ins, top-ups and cash-outs run
as plain SQL in aiosqlite's thread, one trip per transaction (``_run_sqlite``); elsewhere
(PostgreSQL), SQLAlchemy's statements. The
same operations, refused ones and concurrent ones included, leave the same rows either
way, and the same errors reach the callers."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from pokerroom.store import Store, StoreError
from pokerroom.store.schema import accounts, hand_players, hands, ledger, seats
from tests.server.helpers import audit


async def _script(store: Store) -> list[Any]:
    """Buy-ins, top-ups, hands of three tables at once, refusals and cash-outs; what each
    call gave back (a value, or the error's kind and code)."""
    out: list[Any] = []

    async def call(coro: Any) -> None:
        try:
            out.append(await coro)
        except StoreError as e:
            out.append(("StoreError", e.code))
        except IntegrityError:
            out.append("IntegrityError")

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

        await asyncio.gather(
            *(finish(t, h) for t, h in enumerate(started)),
            call(store.top_up("T9", ids[8], 1)),  # refused in the middle of a batch
            call(store.buy_in("T3", 1, ids[6], 300)),  # the first time only
        )
    await asyncio.gather(
        call(store.top_up("T3", ids[6], 50)),
        call(store.top_up("T3", ids[6], 5_000)),
        call(store.cash_out("T0", ids[0], stacks[ids[0]])),
        call(store.cash_out("T2", ids[5], stacks[ids[5]])),
    )
    await call(store.buy_in("T0", 1, ids[7], 40))  # the seat freed
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
    assert all(e is not None for (e,) in ended)
    return {"accounts": acc, "seats": sts, "ledger": led, "txns": txns, "hands": hs, "players": hp}


def _run(path: Path, direct: bool) -> tuple[list[Any], dict[str, Any]]:
    async def main() -> tuple[list[Any], dict[str, Any]]:
        store = Store(f"sqlite:///{path}")
        store._sqlite_direct = direct
        try:
            out = await _script(store)
            assert store._sqlite_direct is direct
            return out, await _rows(store)
        finally:
            await store.close()

    return asyncio.run(main())


def test_sqlite_in_its_thread_writes_what_sqlalchemy_writes(tmp_path: Path) -> None:
    direct, plain = _run(tmp_path / "direct.db", True), _run(tmp_path / "plain.db", False)
    assert direct[0] == plain[0]
    assert direct[1] == plain[1]
    codes = [x for x in direct[0] if isinstance(x, tuple) or x == "IntegrityError"]
    refused, no_seat = "IntegrityError", ("StoreError", "not_seated")
    broke = ("StoreError", "insufficient_balance")
    assert codes == [
        refused, refused, broke, no_seat, broke, no_seat, no_seat, refused, no_seat, refused, broke
    ]


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
