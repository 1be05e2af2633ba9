"""Money moves: grants from the bank (the daily top-up of a broke player among them), chips
from a balance to a seat (buy-in, top-up) and back (cash-out, and every seat at start-up),
each one ledger transaction written with the balances and seats it changes (ledger.py).

Buy-ins, top-ups and cash-outs ride the hand journal's batches on its raw paths
(journal_sqlite.py, journal_pg.py); with those off, they are a transaction each, of
SQLAlchemy statements that write the same rows. Asked ``again``, either way asks ``ops.settled`` first.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import bindparam, delete, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from pokerroom.store.database import StoreError
from pokerroom.store.journal import Journal
from pokerroom.store.journal_sqlite import (
    SQL_ADD_TO_SEAT,
    SQL_FREE_SEAT,
    SQL_INSERT_DEPARTURE,
    SQL_INSERT_SEAT,
)
from pokerroom.store.ledger import (
    INSERT_LEDGER,
    grant_moves,
    ledger_rows,
    new_txn,
    table_book,
    totals,
    transfer,
)
from pokerroom.store.ops import Fence, Move, Statement, check_fence_on, check_fences_on, move, settle_on
from pokerroom.store.schema import accounts, departures, hand_players, hands, ledger, seats


class Money(Journal):
    async def grant(self, account_id: int, amount: int, kind: str = "topup") -> int:
        """Give play chips from the bank; returns the new balance."""
        async with self._writing() as conn:
            await self._grant(conn, account_id, amount, kind, time.time())
            return int(await conn.scalar(select(accounts.c.balance).where(accounts.c.id == account_id)) or 0)

    async def _grant(
        self, conn: AsyncConnection, account_id: int, amount: int, kind: str, now: float
    ) -> None:
        """A grant from the bank, within the caller's write transaction."""
        await conn.execute(
            update(accounts)
            .where(accounts.c.id == account_id)
            .values(balance=accounts.c.balance + amount, last_grant_at=now)
        )
        await transfer(conn, kind, grant_moves(account_id, amount))

    async def daily_topup(self, account_id: int, target: int, every: float) -> int:
        """The broke player's top-up: back to ``target`` chips (balance and seats together),
        at most once in ``every`` seconds; returns the new balance. The check and the grant
        are one step of one write transaction, the account's row locked (PostgreSQL: FOR
        UPDATE; SQLite: one writer at a time), so requests at once grant once. Refused:
        StoreError 'not_broke' or 'too_soon'."""
        now = time.time()
        async with self._writing() as conn:
            row = (
                await conn.execute(
                    select(accounts.c.balance, accounts.c.last_grant_at)
                    .where(accounts.c.id == account_id)
                    .with_for_update()
                )
            ).first()
            if row is None:
                raise StoreError("no_account", f"no account {account_id}")
            at_tables = int(await conn.scalar(_at_tables(account_id)) or 0)
            if row.balance + at_tables >= target:
                raise StoreError("not_broke", f"top-ups are for players with less than {target} chips")
            if now - row.last_grant_at < every:
                raise StoreError("too_soon", "one top-up a day")
            amount = target - row.balance - at_tables
            await self._grant(conn, account_id, amount, "topup", now)
            return int(row.balance + amount)

    async def chips_at_tables(self, account_id: int) -> int:
        async with self.engine.connect() as conn:
            return int(await conn.scalar(_at_tables(account_id)) or 0)

    # ------------------------------------------------------------------ money at tables

    async def buy_in(
        self, table: str, seat: int, account_id: int, amount: int, *,
        txn: str | None = None, again: bool = False, fence: Fence | None = None,
    ) -> int:
        """Move ``amount`` from the balance to a seat; returns the balance left."""
        direct = (SQL_INSERT_SEAT, (table, seat, account_id, amount))
        op = move("buy_in", table, account_id, amount, direct, txn=txn, again=again, fence=fence)
        if self._direct:
            return await self._journal(op)  # type: ignore[no-any-return]
        row = {"table_name": table, "seat": seat, "account_id": account_id, "stack": amount}
        return await self._to_table(op, _INSERT_SEAT, row)

    async def top_up(
        self, table: str, account_id: int, amount: int, *, txn: str | None = None, again: bool = False,
        fence: Fence | None = None,
    ) -> int:
        """Move ``amount`` from the balance to the player's seat; returns the balance left."""
        direct = (SQL_ADD_TO_SEAT, (amount, table, account_id))
        op = move("top_up", table, account_id, amount, direct, txn=txn, again=again, fence=fence)
        if self._direct:
            return await self._journal(op)  # type: ignore[no-any-return]
        change = {"b_table": table, "b_account": account_id, "b_amount": amount}
        return await self._to_table(op, _ADD_TO_SEAT, change)

    async def _to_table(self, op: Move, seat_change: Any, values: dict[str, Any]) -> int:
        async with self._writing() as conn:
            done, _ = await settle_on(conn, [op])
            if done:
                return int(done[0])
            await check_fences_on(conn, [op])
            # the balance taken, if it holds the amount, and what is left of it (RETURNING:
            # what a SELECT after the ledger's rows would read, the row locked until the commit)
            left = (await conn.execute(_TAKE_BALANCE, {"b_id": op.account_id, "b_amount": op.amount})).all()
            if len(left) != 1:
                raise StoreError("insufficient_balance", f"your balance is less than {op.amount}")
            if (await conn.execute(seat_change, values)).rowcount != 1:
                raise StoreError("not_seated", f"no seat at {op.table!r} to add chips to")
            if op.ledger:
                await conn.execute(INSERT_LEDGER, op.ledger)
            return int(left[0][0] or 0)

    async def cash_out(
        self,
        table: str,
        account_id: int,
        stack: int,
        kind: str = "cash_out",
        departed_at: float | None = None,
        *,
        again: bool = False,
        fence: Fence | None = None,
    ) -> None:
        """The player left the table with ``stack``: back to his balance, the seat freed;
        with ``departed_at``, his departure (D13) in the same transaction. Asked ``again``,
        a seat already freed means the first try was committed."""
        op = _cash_out_move(kind, table, account_id, stack, departed_at, again, fence)
        if self._direct:
            await self._journal(op)
            return
        async with self._writing() as conn:
            done, _ = await settle_on(conn, [op])
            if not done:
                await check_fences_on(conn, [op])
                await _cash_out(conn, op, departed_at)

    async def move_seat(self, account_id: int, source: Fence, target: Fence, seat: int,
                        txn: str | None = None) -> int:
        """A tournament's table change (TOURNAMENTS.md T-rules on balancing): the player's
        seat at ``source.table`` becomes seat ``seat`` at ``target.table`` with its whole
        stack, in one transaction fenced by both tables' leases (each may be held by
        another worker), so no chip is ever between the two tables. Asked again with the
        same ``txn``, a move already committed is not made twice. Returns the stack moved.

        Refused, with nothing written: 'fenced' when either lease moved on, 'not_seated'
        without a seat (or chips) at the source, 'in_hand' while a hand he is in is being played
        there, 'seat_taken' when the seat (or another of his) at the target is taken."""
        txn = txn or new_txn()
        async with self._writing() as conn:
            done = (await conn.execute(select(ledger.c.amount).where(
                ledger.c.txn == txn, ledger.c.book == table_book(target.table, account_id)))).first()
            if done is not None:
                return int(done[0])
            for fence in (source, target):
                await check_fence_on(conn, fence)
            mine = (seats.c.table_name == source.table) & (seats.c.account_id == account_id)
            row = (await conn.execute(select(seats.c.stack).where(mine).with_for_update())).first()
            if row is None or row[0] <= 0:  # an empty stack is out of the game, not moved
                raise StoreError("not_seated", f"no seat with chips at {source.table!r} to move")
            playing = select(hands.c.id).join(hand_players, hand_players.c.hand_id == hands.c.id).where(
                hands.c.table_name == source.table, hands.c.status == "playing",
                hand_players.c.account_id == account_id)
            if (await conn.execute(playing)).first() is not None:
                raise StoreError("in_hand", f"a hand at {source.table!r} is being played: move after it")
            taken = select(seats.c.seat).where(seats.c.table_name == target.table).where(
                (seats.c.seat == seat) | (seats.c.account_id == account_id))
            if (await conn.execute(taken)).first() is not None:
                raise StoreError("seat_taken", f"seat {seat} at {target.table!r} is taken")
            stack = int(row[0])
            await conn.execute(delete(seats).where(mine))
            await conn.execute(insert(seats).values(table_name=target.table, seat=seat, account_id=account_id,
                                                    stack=stack))
            await conn.execute(INSERT_LEDGER, ledger_rows("seat_move", [
                (table_book(source.table, account_id), account_id, -stack),
                (table_book(target.table, account_id), account_id, stack)], txn=txn))
        return stack

    async def return_seats_elsewhere(self, tables: list[str]) -> int:
        """Every chip at a table not among ``tables`` (one the room no longer has) goes back
        to its owner's balance; how many seats were emptied."""
        async with self._writing() as conn:
            rows = (await conn.execute(select(seats).where(seats.c.table_name.not_in(tables)))).all()
            for row in rows:
                await _cash_out(conn, _cash_out_move("restart", row.table_name, row.account_id, row.stack))
        return len(rows)

    async def return_all_seats(self) -> int:
        """At start-up: every chip left at a table goes back to its owner's balance (the
        tables start empty; a hand cut short by a crash was never written, so these are
        the stacks from before it). Returns how many seats were emptied. No departure
        (D13) is written: the players did not leave, the room stopped under them."""
        async with self._writing() as conn:
            rows = (await conn.execute(select(seats))).all()
            for row in rows:
                op = _cash_out_move("restart", row.table_name, row.account_id, row.stack)
                await _cash_out(conn, op)
            await conn.execute(update(hands).where(hands.c.status == "playing").values(status="void"))
        return len(rows)

    # ------------------------------------------------------------------ audits

    async def totals(self, within: AsyncConnection | None = None) -> dict[str, int]:
        """Chips on balances, at seats, and granted; balances + seats == granted. Read on
        ``within`` (in its snapshot) when given."""
        if within is not None:
            return await totals(within)
        async with self.engine.connect() as conn:
            return await totals(conn)


def _cash_out_move(
    kind: str, table: str, account_id: int, stack: int, departed_at: float | None = None, again: bool = False,
    fence: Fence | None = None,
) -> Move:
    free = (SQL_FREE_SEAT, (table, account_id))
    extra: tuple[Statement, ...] = ()
    if departed_at is not None:
        extra = ((SQL_INSERT_DEPARTURE, (table, account_id, stack, departed_at)),)
    return move(kind, table, account_id, stack, free, back=True, extra=extra, again=again, fence=fence)


async def _cash_out(conn: AsyncConnection, op: Move, departed_at: float | None = None) -> None:
    """A cash-out's rows through SQLAlchemy, within the caller's write transaction."""
    await conn.execute(_FREE_SEAT, {"b_table": op.table, "b_account": op.account_id})
    if departed_at is not None:
        await conn.execute(
            _INSERT_DEPARTURE,
            {"table_name": op.table, "account_id": op.account_id, "stack": op.amount, "at": departed_at},
        )
    await conn.execute(_GIVE_BALANCE, {"b_id": op.account_id, "b_amount": op.amount})
    if op.ledger:
        await conn.execute(INSERT_LEDGER, op.ledger)


def _at_tables(account_id: int) -> Any:
    """The chips an account has at tables: the sum of its seats' stacks."""
    return select(func.coalesce(func.sum(seats.c.stack), 0)).where(seats.c.account_id == account_id)


# The hot writes' statements for SQLAlchemy, made once: building a statement cost more
# than running it (~0.1 ms of CPU each time)
_TAKE_BALANCE = (
    update(accounts)
    .where(accounts.c.id == bindparam("b_id"), accounts.c.balance >= bindparam("b_amount"))
    .values(balance=accounts.c.balance - bindparam("b_amount"))
    .returning(accounts.c.balance)
)
_GIVE_BALANCE = (
    update(accounts)
    .where(accounts.c.id == bindparam("b_id"))
    .values(balance=accounts.c.balance + bindparam("b_amount"))
)
_INSERT_SEAT = insert(seats)
_ADD_TO_SEAT = (
    update(seats)
    .where(seats.c.table_name == bindparam("b_table"), seats.c.account_id == bindparam("b_account"))
    .values(stack=seats.c.stack + bindparam("b_amount"))
)
_FREE_SEAT = delete(seats).where(
    seats.c.table_name == bindparam("b_table"), seats.c.account_id == bindparam("b_account")
)
_INSERT_DEPARTURE = insert(departures)
