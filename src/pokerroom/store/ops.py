"""The writes the journal queues (a hand's start, a hand's end and, on its raw paths, chips
between a balance and a seat), and the one check of whether such a write, asked again, was
committed already.

A money write whose outcome is unknown (its transaction failed, perhaps after the commit)
is asked again with ``again=True`` and the same key (a buy-in's or top-up's ``txn``, a
hand's commitment or id, a cash-out's seat): if the first try was committed, ``settled``
finds it and nothing is written, so a table that retries until the database answers never
moves a chip twice (TableRunner._write). Every write path (the SQLAlchemy one, SQLite's raw
one, journal_sqlite.py, PostgreSQL's, journal_pg.py) and the money moves outside the
journal ask ``settled`` (``settled_steps``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection
from sqlalchemy import text as sql_text
from sqlalchemy.ext.asyncio import AsyncConnection

from pokerroom.store.database import StoreError
from pokerroom.store.ledger import Moves, balance_book, ledger_rows, new_txn, table_book


@dataclass(frozen=True)
class Fence:
    """A chip write's guard (issue 18): it commits only while ``owner`` holds the table's
    lease under ``epoch`` (leases.py), checked in the write's own transaction."""

    table: str
    owner: str
    epoch: int


@dataclass
class HandStart:
    table: str
    number: int
    game: str
    commitment: str
    players: list[tuple[int, int]]  # (account id, seat)
    at: float
    again: bool = False
    fence: Fence | None = None


@dataclass
class HandFinish:
    hand_id: int
    table: str
    results: list[tuple[int, int, int]]  # (account id, net, final stack)
    salt: str
    deck: str
    history: str
    phh: str | None
    text: str | None
    ledger: list[dict[str, Any]]
    again: bool = False
    fence: Fence | None = None
    number: int = 0  # the hand's number at its table: the lease's last_hand becomes it
    memory: str | None = None  # what the table remembers after it (JSON, table/memory.py)


Statement = tuple[str, tuple[Any, ...]]  # raw SQL ("?" parameters) and its parameters


@dataclass
class Move:
    """Chips between a balance and a seat: ``amount`` taken from the balance to the seat
    (buy_in, top_up) or, ``back``, from the seat to the balance (cash_out); ``seat`` the
    raw SQL and parameters that change the seat's row (the raw paths: SQLite's, and
    PostgreSQL's with its ``?`` numbered)."""

    kind: str
    table: str
    account_id: int
    amount: int
    back: bool
    seat: Statement
    ledger: list[dict[str, Any]]
    extra: tuple[Statement, ...] = ()  # more statements of its transaction
    txn: str = ""
    again: bool = False
    fence: Fence | None = None


def move(
    kind: str,
    table: str,
    account_id: int,
    amount: int,
    seat: Statement,
    back: bool = False,
    extra: tuple[Statement, ...] = (),
    txn: str | None = None,
    again: bool = False,
    fence: Fence | None = None,
) -> Move:
    """A move with its ledger entries made now (a fresh ``txn`` unless given)."""
    moves: Moves = [
        (balance_book(account_id), account_id, -amount),
        (table_book(table, account_id), account_id, amount),
    ]
    if back:
        moves = [
            (table_book(table, account_id), account_id, -amount),
            (balance_book(account_id), account_id, amount),
        ]
    txn = txn or new_txn()
    rows = ledger_rows(kind, moves, txn=txn)
    return Move(kind, table, account_id, amount, back, seat, rows, extra, txn, again, fence)


Op = HandStart | HandFinish | Move


@dataclass
class Refused:
    """A journal write that failed alone (its savepoint rolled back): its error."""

    error: BaseException


def answer(done: asyncio.Future[Any], result: Any) -> None:
    if done.done():
        return
    if type(result) is Refused:
        done.set_exception(result.error)
    else:
        done.set_result(result)


# What a write asked again finds when its first try was committed: the hand started, the
# hand settled, the buy-in's or top-up's ledger transaction; a cash-out's seat no longer
# held. Named parameters, which both sqlite3 and SQLAlchemy's ``text`` take.
_DONE_START = (
    "SELECT id FROM hands WHERE table_name = :table AND number = :number AND commitment = :commitment"
)
_DONE_FINISH = "SELECT id FROM hands WHERE id = :hand_id AND status <> 'playing'"
_DONE_MOVE = "SELECT 1 FROM ledger WHERE txn = :txn"
_SEAT_HELD = "SELECT 1 FROM seats WHERE table_name = :table AND account_id = :account_id"
_BALANCE = "SELECT balance FROM accounts WHERE id = :account_id"

PENDING: Any = object()  # not committed yet: write it

First = Callable[[str, dict[str, Any]], Sequence[Any] | None]  # a query's first row, or None


Query = tuple[str, dict[str, Any]]  # SQL with named parameters, and their values
Steps = Generator[Query, Sequence[Any] | None, Any]  # queries out, their first rows in, the answer


def settled(op: Op, first: First) -> Any:
    """What ``op`` answers if its first try was committed (a hand's id, a buy-in's or
    top-up's balance left, None for the others), else ``PENDING``. ``first`` runs a query
    on the write's own transaction: sqlite3's cursor in SQLite's thread, SQLAlchemy's
    connection elsewhere (``settle_on``). The queries are ``settled_steps``'."""
    steps = settled_steps(op)
    try:
        query = next(steps)
        while True:
            query = steps.send(first(*query))
    except StopIteration as answered:
        return answered.value


def settled_steps(op: Op) -> Steps:
    """``settled`` as the queries it asks, one at a time (each gets its first row, or None,
    back), returning the answer: the one check for every driver, sync (``settled``) or
    async (the raw PostgreSQL path, journal_pg.py)."""
    if isinstance(op, HandStart):
        row = yield _DONE_START, {"table": op.table, "number": op.number, "commitment": op.commitment}
        return PENDING if row is None else int(row[0])
    if isinstance(op, HandFinish):
        return PENDING if (yield _DONE_FINISH, {"hand_id": op.hand_id}) is None else None
    if op.back:
        held = yield _SEAT_HELD, {"table": op.table, "account_id": op.account_id}
        return PENDING if held is not None else None
    if (yield _DONE_MOVE, {"txn": op.txn}) is None:
        return PENDING
    balance = yield _BALANCE, {"account_id": op.account_id}
    return int(balance[0] or 0) if balance is not None else 0


def settle(ops: Sequence[Op], first: First) -> tuple[dict[int, Any], list[Op]]:
    """The answers of the ops asked ``again`` and committed already, by index, and the ops
    still to write, in order."""
    done: dict[int, Any] = {}
    for i, op in enumerate(ops):
        if op.again and (result := settled(op, first)) is not PENDING:
            done[i] = result
    return done, [op for i, op in enumerate(ops) if i not in done]


async def settle_on(conn: AsyncConnection, ops: Sequence[Op]) -> tuple[dict[int, Any], list[Op]]:
    """``settle`` on a SQLAlchemy connection, within its transaction."""
    if not any(op.again for op in ops):
        return {}, list(ops)

    def run(sync: Connection) -> tuple[dict[int, Any], list[Op]]:
        return settle(ops, lambda sql, values: sync.execute(sql_text(sql), values).first())

    return await conn.run_sync(run)


def merge(count: int, settled: dict[int, Any], written: list[Any]) -> list[Any]:
    """The results of ``count`` ops: those ``settled`` already by index, and in order the
    ``written`` results of the others."""
    results = iter(written)
    return [settled[i] if i in settled else next(results) for i in range(count)]


# ---------------------------------------------------------------------------- fencing

# A table's lease held by the writer: touched (so that a claim, which updates the row,
# waits for this transaction and then sees the write) and, at a hand's end, its number
# and the table's memory kept. Named parameters, for both sqlite3 and SQLAlchemy's text.
_FENCE = ("UPDATE table_leases SET epoch = epoch WHERE table_name = :table AND owner = :owner "
          "AND epoch = :epoch")
_FENCE_HAND = ("UPDATE table_leases SET last_hand = :number, memory = :memory WHERE table_name = :table "
               "AND owner = :owner AND epoch = :epoch AND last_hand < :number")

Execute = Callable[[str, dict[str, Any]], int]  # a statement run: the rows it changed


# (table, owner, epoch, whether a hand ends, its number, the table's memory after it)
FenceRow = tuple[str, str, int, bool, int | None, str | None]


def fenced_tables(ops: Sequence[Op]) -> list[FenceRow]:
    """The fences of ``ops``: one per table and lease (its last hand's end, if one ends).
    Per lease, not per table: writes of a table under two epochs can share a batch (an
    old owner's retried write after its worker claimed the table again), and the old
    one's must be checked too."""
    out: dict[tuple[str, str, int], FenceRow] = {}
    for op in ops:
        fence = op.fence
        if fence is None:
            continue
        key = (fence.table, fence.owner, fence.epoch)
        if isinstance(op, HandFinish):
            out[key] = (fence.table, fence.owner, fence.epoch, True, op.number, op.memory)
        elif key not in out:
            out[key] = (fence.table, fence.owner, fence.epoch, False, None, None)
    return list(out.values())


def fences(ops: Sequence[Op]) -> list[tuple[str, dict[str, Any]]]:
    """The fence statements of ``ops``: one per table and lease (its last hand's, if one ends)."""
    out: list[tuple[str, dict[str, Any]]] = []
    for table, owner, epoch, hand, number, memory in fenced_tables(ops):
        values: dict[str, Any] = {"table": table, "owner": owner, "epoch": epoch}
        out.append((_FENCE_HAND, values | {"number": number, "memory": memory}) if hand else (_FENCE, values))
    return out


def fence_refused(table: str, epoch: int) -> StoreError:
    return StoreError("fenced", f"table {table!r} is no longer this worker's (epoch {epoch}): "
                      "the write was refused")


def check_fences(ops: Sequence[Op], execute: Execute) -> None:
    """Run ``ops``' fences in the write's transaction; StoreError 'fenced' when a table's
    lease is no longer the writer's (another worker claimed it: this write must not land)."""
    for sql, values in fences(ops):
        if execute(sql, values) != 1:
            raise fence_refused(values["table"], values["epoch"])


async def check_fence_on(conn: AsyncConnection, fence: Fence) -> None:
    """One table's fence on a SQLAlchemy connection, within its transaction (a write that
    is not one of the journal's ops: a seat moved between tables, money.py)."""
    values = {"table": fence.table, "owner": fence.owner, "epoch": fence.epoch}
    if (await conn.execute(sql_text(_FENCE), values)).rowcount != 1:
        raise fence_refused(fence.table, fence.epoch)


async def check_fences_on(conn: AsyncConnection, ops: Sequence[Op]) -> None:
    """``check_fences`` on a SQLAlchemy connection, within its transaction."""
    if not any(op.fence is not None for op in ops):
        return

    def run(sync: Connection) -> None:
        check_fences(ops, lambda sql, values: sync.execute(sql_text(sql), values).rowcount)

    await conn.run_sync(run)
