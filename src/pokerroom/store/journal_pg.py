"""The journal's raw PostgreSQL path: a batch of writes as a few statements on the asyncpg
connection itself (``Database._writing_pg``), with the buy-ins, top-ups and cash-outs
riding the batch as they do on SQLite (journal_sqlite.py).

Through SQLAlchemy a statement cost the event loop ~0.3 ms of CPU (compiling its cache
key, binding, building rows), an executemany more, and each table's fence was one more
statement. Here a batch's rows go as arrays (``unnest``): the fences of every table in one
UPDATE, the new hands in one INSERT, their players in one, the ends (stacks, nets, ledger,
hands) in one statement of data-modifying CTEs; asyncpg prepares each once per connection.
The same rows as the SQLAlchemy path (journal.py, money.py) in the same order;
tests/server/test_store_paths.py checks that the paths leave identical databases.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from typing import Any

import asyncpg  # type: ignore[import-untyped]
from sqlalchemy import exc

from pokerroom.store.database import StoreError
from pokerroom.store.ops import (
    PENDING,
    HandFinish,
    HandStart,
    Move,
    Op,
    Refused,
    fence_refused,
    fenced_tables,
    merge,
    settled_steps,
)

# Every table's fence in one statement (ops.fences: a hand's end keeps its number and the
# table's memory, any other write touches the row), the tables it held back
_SQL_FENCES = (
    "UPDATE table_leases AS l SET last_hand = CASE WHEN f.hand THEN f.number ELSE l.last_hand END, "
    "memory = CASE WHEN f.hand THEN f.memory ELSE l.memory END "
    "FROM unnest($1::text[], $2::text[], $3::int8[], $4::bool[], $5::int4[], $6::text[]) "
    "AS f(table_name, owner, epoch, hand, number, memory) "
    "WHERE l.table_name = f.table_name AND l.owner = f.owner AND l.epoch = f.epoch "
    "AND (NOT f.hand OR l.last_hand < f.number) RETURNING l.table_name"
)
# new hands, their ids in the order given (a serial's values rise in the order rows are
# inserted, as SQLAlchemy's sort_by_parameter_order assumes too)
_SQL_NEW_HANDS = (
    "INSERT INTO hands (table_name, number, game, status, started_at, commitment) "
    "SELECT t, n, g, 'playing', s, c "
    "FROM unnest($1::text[], $2::int4[], $3::text[], $4::float8[], $5::text[]) "
    "WITH ORDINALITY AS u(t, n, g, s, c, k) ORDER BY k RETURNING id"
)
_SQL_HAND_PLAYERS = (
    "INSERT INTO hand_players (hand_id, account_id, seat) "
    "SELECT * FROM unnest($1::int4[], $2::int4[], $3::int4[])"
)
_LEDGER_ROWS = (
    "SELECT x, t, d, b, a, m, h FROM unnest({}::text[], {}::float8[], {}::text[], {}::text[], {}::int4[], "
    "{}::int8[], {}::int4[]) WITH ORDINALITY AS u(x, t, d, b, a, m, h, k) ORDER BY k"
)
_INSERT_LEDGER = "INSERT INTO ledger (txn, at, kind, book, account_id, amount, hand_id) "
_SQL_LEDGER = _INSERT_LEDGER + _LEDGER_ROWS.format(*(f"${i}" for i in range(1, 8)))
# the hands' ends: the seats' stacks, the players' nets, the ledger, the hands' rows
_SQL_ENDS = (
    "WITH stacks AS (UPDATE seats SET stack = u.s "
    "FROM unnest($1::text[], $2::int4[], $3::int8[]) AS u(t, a, s) "
    "WHERE seats.table_name = u.t AND seats.account_id = u.a), "
    "nets AS (UPDATE hand_players SET net = u.n "
    "FROM unnest($4::int4[], $5::int4[], $6::int8[]) AS u(h, a, n) "
    "WHERE hand_players.hand_id = u.h AND hand_players.account_id = u.a), "
    "entries AS (" + _INSERT_LEDGER + _LEDGER_ROWS.format(*(f"${i}" for i in range(7, 14))) + ") "
    "UPDATE hands SET status = 'complete', ended_at = $14, salt = u.s, deck = u.d, history = u.h, phh = u.p, "
    "text = u.x FROM unnest($15::int4[], $16::text[], $17::text[], $18::text[], $19::text[], $20::text[]) "
    "AS u(i, s, d, h, p, x) WHERE hands.id = u.i"
)
_SQL_TAKE_BALANCE = (
    "UPDATE accounts SET balance = balance - $2 WHERE id = $1 AND balance >= $2 RETURNING balance"
)
_SQL_ADD_BALANCE = "UPDATE accounts SET balance = balance + $2 WHERE id = $1"


async def apply_pg(ops: Sequence[Op], db: Any) -> list[Any]:
    """The journal's batch on PostgreSQL, on the asyncpg connection ``db`` within its
    transaction: the ops not committed already (those asked ``again`` and found,
    ops.settled_steps) written; each op's result. PostgreSQL's errors come out as
    SQLAlchemy's (IntegrityError, ...), as from its own statements."""
    try:
        done, todo = await _settle(ops, db)
        await _check_fences(todo, db)
        written = await _write_pg(todo, db)
    except asyncpg.PostgresError as e:
        raise sqlalchemy_error(e) from e
    return merge(len(ops), done, written) if done else written


async def _settle(ops: Sequence[Op], db: Any) -> tuple[dict[int, Any], list[Op]]:
    """ops.settle, each query awaited."""
    done: dict[int, Any] = {}
    for i, op in enumerate(ops):
        if not op.again:
            continue
        steps = settled_steps(op)
        try:
            query = next(steps)
            while True:
                sql, names = _positional(query[0])
                query = steps.send(await db.fetchrow(sql, *(query[1][n] for n in names)))
        except StopIteration as answered:
            if answered.value is not PENDING:
                done[i] = answered.value
    if not done:
        return done, list(ops)
    return done, [op for i, op in enumerate(ops) if i not in done]


async def _check_fences(ops: Sequence[Op], db: Any) -> None:
    """ops.check_fences, every table's in one statement."""
    fences = fenced_tables(ops)
    if not fences:
        return
    held = {r[0] for r in await db.fetch(_SQL_FENCES, *map(list, zip(*fences, strict=True)))}
    for fence in fences:
        if fence[0] not in held:
            raise fence_refused(fence[0], fence[2])


async def _write_pg(ops: Sequence[Op], db: Any) -> list[Any]:
    """What journal.write does, on PostgreSQL: the same rows in the same order, with the
    buy-ins, top-ups and cash-outs (``_move_pg``) between the new hands and the ends."""
    out: list[Any] = [None] * len(ops)
    starts = [(i, op) for i, op in enumerate(ops) if isinstance(op, HandStart)]
    if starts:
        new = [op for _, op in starts]
        columns = ([op.table for op in new], [op.number for op in new], [op.game for op in new],
                   [op.at for op in new], [op.commitment for op in new])
        ids = sorted(r[0] for r in await db.fetch(_SQL_NEW_HANDS, *columns))
        hand_ids, accounts, seats = [], [], []
        for (i, start), hand_id in zip(starts, ids, strict=True):
            out[i] = hand_id
            for account, seat in start.players:
                hand_ids.append(hand_id)
                accounts.append(account)
                seats.append(seat)
        if hand_ids:
            await db.execute(_SQL_HAND_PLAYERS, hand_ids, accounts, seats)
    for i, move in enumerate(ops):
        if isinstance(move, Move):
            out[i] = await _move_pg(move, db)
    ends = [op for op in ops if isinstance(op, HandFinish)]
    if ends:
        await _finish_pg(ends, db)
    return out


async def _finish_pg(ends: Sequence[HandFinish], db: Any) -> None:
    # an UPDATE ... FROM changes a row once: the last value for a row, as executemany leaves it
    stacks: dict[tuple[str, int], int] = {}
    nets: dict[tuple[int, int], int] = {}
    rows: dict[int, HandFinish] = {}
    for op in ends:
        for account, net, stack in op.results:
            stacks[op.table, account] = stack
            nets[op.hand_id, account] = net
        rows[op.hand_id] = op
    ledger = _ledger_columns([row for op in ends for row in op.ledger])
    hands = list(rows.values())
    await db.execute(
        _SQL_ENDS,
        [t for t, _ in stacks], [a for _, a in stacks], list(stacks.values()),
        [h for h, _ in nets], [a for _, a in nets], list(nets.values()),
        *ledger,
        time.time(),
        [op.hand_id for op in hands], [op.salt for op in hands], [op.deck for op in hands],
        [op.history for op in hands], [op.phh for op in hands], [op.text for op in hands],
    )


async def _move_pg(op: Move, db: Any) -> int | Refused | None:
    """One buy-in, top-up or cash-out in the journal's transaction, under a savepoint: a
    refused one (a balance too small, no seat, a seat taken) is undone alone and its error
    returned. Writes what money.py's SQLAlchemy path writes; returns the balance left
    (buy-in, top-up) or None (cash-out)."""
    result: int | None = None
    try:
        async with db.transaction():  # a savepoint
            if op.back:
                await db.execute(_positional_q(op.seat[0]), *op.seat[1])
                await db.execute(_SQL_ADD_BALANCE, op.account_id, op.amount)
                for sql, values in op.extra:
                    await db.execute(_positional_q(sql), *values)
            else:
                left = await db.fetchrow(_SQL_TAKE_BALANCE, op.account_id, op.amount)
                if left is None:
                    raise StoreError("insufficient_balance", f"your balance is less than {op.amount}")
                if _count(await db.execute(_positional_q(op.seat[0]), *op.seat[1])) != 1:
                    raise StoreError("not_seated", f"no seat at {op.table!r} to add chips to")
                result = int(left[0] or 0)
            if op.ledger:
                await db.execute(_SQL_LEDGER, *_ledger_columns(op.ledger))
    except StoreError as e:
        return Refused(e)
    except asyncpg.PostgresError as e:
        return Refused(sqlalchemy_error(e))
    return result


def _ledger_columns(rows: Sequence[dict[str, Any]]) -> list[list[Any]]:
    keys = ("txn", "at", "kind", "book", "account_id", "amount", "hand_id")
    return [[r[k] for r in rows] for k in keys]


def _count(status: str) -> int:
    """The rows a statement changed, from its status ('UPDATE 1', 'INSERT 0 1')."""
    return int(status.rsplit(" ", 1)[-1])


_NAMED = re.compile(r":(\w+)")
_named_cache: dict[str, tuple[str, tuple[str, ...]]] = {}
_question_cache: dict[str, str] = {}


def _positional(sql: str) -> tuple[str, tuple[str, ...]]:
    """SQL with named parameters (``:name``, ops.py's) as asyncpg's ``$n``, and the names in order."""
    known = _named_cache.get(sql)
    if known is None:
        names: list[str] = []

        def number(m: re.Match[str]) -> str:
            if m.group(1) not in names:
                names.append(m.group(1))
            return f"${names.index(m.group(1)) + 1}"

        known = _named_cache[sql] = (_NAMED.sub(number, sql), tuple(names))
    return known


def _positional_q(sql: str) -> str:
    """SQL with ``?`` parameters (a move's seat statements, ops.Move) as asyncpg's ``$n``."""
    known = _question_cache.get(sql)
    if known is None:
        parts = sql.split("?")
        known = _question_cache[sql] = parts[0] + "".join(f"${i}{p}" for i, p in enumerate(parts[1:], 1))
    return known


def sqlalchemy_error(e: Exception) -> exc.DBAPIError:
    """An asyncpg error as SQLAlchemy raises it from its own statements (its asyncpg dialect)."""
    kind: type[exc.DBAPIError]
    if isinstance(e, asyncpg.IntegrityConstraintViolationError):
        kind = exc.IntegrityError
    elif isinstance(e, asyncpg.exceptions.SyntaxOrAccessError):
        kind = exc.ProgrammingError
    else:
        kind = exc.DBAPIError
    error = kind(None, None, e)
    error.__cause__ = e
    return error
