"""The journal's raw PostgreSQL path: a batch of writes as a few statements on the asyncpg
connection itself (``Database._writing_pg``), with the buy-ins, top-ups and cash-outs
riding the batch as they do on SQLite (journal_sqlite.py).

Through SQLAlchemy a statement cost the event loop ~0.3 ms of CPU (compiling its cache
key, binding, building rows), an executemany more, and each table's fence was one more
statement. Here a batch's rows go as arrays (``unnest``) into statements of data-modifying
CTEs: the fences of every table, the new hands and their players in one; the ends (stacks,
nets, ledger, hands) in that one too, or in a second when buy-ins, top-ups or cash-outs
come between (one statement each). asyncpg prepares each once per connection. The same
rows as the SQLAlchemy path (journal.py, money.py) in the same order;
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
from pokerroom.store.journal_sqlite import (
    SQL_ADD_TO_SEAT,
    SQL_FREE_SEAT,
    SQL_INSERT_DEPARTURE,
    SQL_INSERT_SEAT,
)
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

# SQL as asyncpg takes it ($n parameters), the rows of a batch as arrays (unnest)


def _numbered(sql: str, first: int) -> str:
    """``sql`` with its ``{}`` as parameters ``$first``, ``$first + 1``..."""
    return sql.format(*(f"${i}" for i in range(first, first + sql.count("{}"))))


_LEDGER = (  # a ledger transaction's rows, in order (their ids rise as SQLAlchemy's executemany gives them)
    "INSERT INTO ledger (txn, at, kind, book, account_id, amount, hand_id) SELECT x, t, d, b, a, m, h "
    "FROM unnest({}::text[], {}::float8[], {}::text[], {}::text[], {}::int4[], {}::int8[], {}::int4[]) "
    "WITH ORDINALITY AS u(x, t, d, b, a, m, h, k) {} ORDER BY k"
)
# A batch's first statement: every lease's fence (ops.fenced_tables: a hand's end keeps its
# number and the table's memory, any other write touches the row), those that held;
# the new hands, their ids in the order given (a serial's values rise in the order rows
# are inserted, as SQLAlchemy's sort_by_parameter_order assumes too), and their players.
# A fence refused fails the transaction (check_fences): no hand is inserted then (no id of
# the hands' sequence spent, as on the other paths, which check the fences first).
_STARTS = (
    # the lease rows locked first, in the tables' order (as renewals lock them: leases.py),
    # before the update below touches any: two orders of the same rows would deadlock
    "locked AS MATERIALIZED (SELECT table_name FROM table_leases WHERE table_name = ANY({}::text[]) "
    "ORDER BY table_name FOR UPDATE), "
    "fenced AS (UPDATE table_leases AS l SET "
    "last_hand = CASE WHEN f.hand THEN f.number ELSE l.last_hand END, "
    "memory = CASE WHEN f.hand THEN f.memory ELSE l.memory END "
    "FROM unnest({}::text[], {}::text[], {}::int8[], {}::bool[], {}::int4[], {}::text[]) "
    "AS f(table_name, owner, epoch, hand, number, memory) "
    "WHERE l.table_name = f.table_name AND l.owner = f.owner AND l.epoch = f.epoch "
    "AND (NOT f.hand OR l.last_hand < f.number) AND (SELECT count(*) FROM locked) >= 0 "
    "RETURNING f.table_name, f.owner, f.epoch), "
    "new AS (INSERT INTO hands (table_name, number, game, status, started_at, commitment) "
    "SELECT t, n, g, 'playing', s, c "
    "FROM unnest({}::text[], {}::int4[], {}::text[], {}::float8[], {}::text[]) "
    "WITH ORDINALITY AS u(t, n, g, s, c, k) WHERE (SELECT count(*) FROM fenced) = {} "
    "ORDER BY k RETURNING id), "
    "numbered AS (SELECT id, row_number() OVER (ORDER BY id) AS k FROM new), "
    "players AS (INSERT INTO hand_players (hand_id, account_id, seat) SELECT n.id, u.a, u.s "
    "FROM unnest({}::int8[], {}::int4[], {}::int4[]) AS u(k, a, s) JOIN numbered AS n ON n.k = u.k)"
)
_HELD_AND_IDS = (
    "SELECT (SELECT array_agg(row(table_name, owner, epoch)) FROM fenced), "
    "(SELECT array_agg(id ORDER BY id) FROM numbered)"
)
# The hands' ends: the seats' stacks, the players' nets, the ledger, the hands' rows
_ENDS = (
    "stacks AS (UPDATE seats SET stack = u.s "
    "FROM unnest({}::text[], {}::int4[], {}::int8[]) AS u(t, a, s) "
    "WHERE seats.table_name = u.t AND seats.account_id = u.a), "
    "nets AS (UPDATE hand_players SET net = u.n "
    "FROM unnest({}::int4[], {}::int4[], {}::int8[]) AS u(h, a, n) "
    "WHERE hand_players.hand_id = u.h AND hand_players.account_id = u.a), "
    "entries AS ({ledger})"
)
_FINISH = (
    "UPDATE hands SET status = 'complete', ended_at = {}, salt = u.s, deck = u.d, history = u.h, phh = u.p, "
    "text = u.x FROM unnest({}::int4[], {}::text[], {}::text[], {}::text[], {}::text[], {}::text[]) "
    "AS u(i, s, d, h, p, x) WHERE hands.id = u.i"
)
_SQL_STARTS = _numbered(f"WITH {_STARTS} {_HELD_AND_IDS}", 1)
_SQL_ENDS = _numbered(
    f"WITH {_ENDS.replace('{ledger}', _LEDGER.format(*['{}'] * 7, ''))} {_FINISH}", 1
)
# Both in one statement, when no move comes between them (most batches): one round trip
# less; the ledger's rows too are written only when every fence held (no id spent)
_SQL_STARTS_AND_ENDS = _numbered(
    f"WITH {_STARTS}, "
    f"{_ENDS.replace('{ledger}', _LEDGER.format(*['{}'] * 7, 'WHERE (SELECT count(*) FROM fenced) = {}'))}, "
    f"finished AS ({_FINISH}) {_HELD_AND_IDS}",
    1,
)
# A move (ops.Move) in one statement, its seat's and extra statements (SQLite's, money.py)
# in PostgreSQL's words. Chips to a seat: the balance taken if it holds the amount, and
# only then the seat changed and the ledger written; back from a seat: all of it.
_TAKE = (
    "WITH taken AS (UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1 "
    "RETURNING balance), "
    "seat AS ({seat}), entries AS ({ledger}) SELECT (SELECT balance FROM taken), (SELECT count(*) FROM seat)"
)
_BACK = (
    "WITH seat AS ({seat}), given AS (UPDATE accounts SET balance = balance + $1 WHERE id = $2), "
    "{extra}entries AS ({ledger}) SELECT 1"
)
_MOVE_STATEMENTS = {
    SQL_INSERT_SEAT: "INSERT INTO seats (table_name, seat, account_id, stack) "
    "SELECT {}::varchar, {}::int4, {}::int4, {}::int8 WHERE EXISTS (SELECT 1 FROM taken) RETURNING 1",
    SQL_ADD_TO_SEAT: "UPDATE seats SET stack = seats.stack + {} WHERE seats.table_name = {} "
    "AND seats.account_id = {} AND EXISTS (SELECT 1 FROM taken) RETURNING 1",
    SQL_FREE_SEAT: "DELETE FROM seats WHERE seats.table_name = {} AND seats.account_id = {}",
    SQL_INSERT_DEPARTURE: "INSERT INTO departures (table_name, account_id, stack, at) "
    "VALUES ({}, {}, {}, {})",
}
_move_sql: dict[tuple[Any, ...], str] = {}


def _move_statement(op: Move) -> str:
    """The one statement of ``op`` (made once for each kind): parameters the amount, the
    account, the ledger's columns, then those of its seat's and extra statements."""
    key = (op.back, op.seat[0], *(sql for sql, _ in op.extra))
    sql = _move_sql.get(key)
    if sql is None:
        at = 3
        guard = "" if op.back else "WHERE EXISTS (SELECT 1 FROM seat)"
        ledger = _numbered(_LEDGER.format(*["{}"] * 7, guard), at)
        at += 7
        seat = _numbered(_MOVE_STATEMENTS[op.seat[0]], at)
        at += len(op.seat[1])
        extra = ""
        for n, (statement, values) in enumerate(op.extra):
            extra += f"extra{n} AS ({_numbered(_MOVE_STATEMENTS[statement], at)}), "
            at += len(values)
        template = _BACK if op.back else _TAKE
        sql = _move_sql[key] = template.format(seat=seat, ledger=ledger, extra=extra)
    return sql


async def apply_pg(ops: Sequence[Op], db: Any) -> list[Any]:
    """The journal's batch on PostgreSQL, on the asyncpg connection ``db`` within its
    transaction: the ops not committed already (those asked ``again`` and found,
    ops.settled_steps) written; each op's result. PostgreSQL's errors come out as
    SQLAlchemy's (IntegrityError, ...), as from its own statements."""
    try:
        done, todo = await _settle(ops, db)
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


async def _write_pg(ops: Sequence[Op], db: Any) -> list[Any]:
    """What journal.write does, on PostgreSQL: the same rows in the same order (the fences
    first), with the buy-ins, top-ups and cash-outs (``_move_pg``) between the new hands
    and the ends."""
    out: list[Any] = [None] * len(ops)
    fences = fenced_tables(ops)
    starts = [(i, op) for i, op in enumerate(ops) if isinstance(op, HandStart)]
    moves = [(i, op) for i, op in enumerate(ops) if isinstance(op, Move)]
    ends = [op for op in ops if isinstance(op, HandFinish)]
    if fences or starts:
        new = [op for _, op in starts]
        order, accounts, seats = [], [], []
        for k, start in enumerate(new, 1):
            for account, seat in start.players:
                order.append(k)
                accounts.append(account)
                seats.append(seat)
        values = [
            [fence[0] for fence in fences],
            *((list(column) for column in zip(*fences, strict=True)) if fences else ([],) * 6),
            [op.table for op in new], [op.number for op in new], [op.game for op in new],
            [op.at for op in new], [op.commitment for op in new], len(fences),
            order, accounts, seats,
        ]
        if ends and not moves:  # the ends in the same statement
            ledger, finish = _ends_values(ends)
            held, ids = await db.fetchrow(_SQL_STARTS_AND_ENDS, *values, *ledger, len(fences), *finish)
            ends = []
        else:
            held, ids = await db.fetchrow(_SQL_STARTS, *values)
        held = {tuple(lease) for lease in held or ()}
        for fence in fences:  # ops.check_fences
            if fence[:3] not in held:
                raise fence_refused(fence[0], fence[2])
        for (i, _), hand_id in zip(starts, ids or (), strict=True):
            out[i] = hand_id
    for i, move in moves:
        out[i] = await _move_pg(move, db)
    if ends:
        ledger, finish = _ends_values(ends)
        await db.execute(_SQL_ENDS, *ledger, *finish)
    return out


def _ends_values(ends: Sequence[HandFinish]) -> tuple[list[Any], list[Any]]:
    """The parameters of ``_ENDS`` (the stacks, nets and ledger) and of ``_FINISH``."""
    # an UPDATE ... FROM changes a row once: the last value for a row, as executemany leaves it
    stacks: dict[tuple[str, int], int] = {}
    nets: dict[tuple[int, int], int] = {}
    rows: dict[int, HandFinish] = {}
    for op in ends:
        for account, net, stack in op.results:
            stacks[op.table, account] = stack
            nets[op.hand_id, account] = net
        rows[op.hand_id] = op
    hands = list(rows.values())
    return (
        [[t for t, _ in stacks], [a for _, a in stacks], list(stacks.values()),
         [h for h, _ in nets], [a for _, a in nets], list(nets.values()),
         *_ledger_columns([row for op in ends for row in op.ledger])],
        [time.time(), [op.hand_id for op in hands], [op.salt for op in hands], [op.deck for op in hands],
         [op.history for op in hands], [op.phh for op in hands], [op.text for op in hands]],
    )


async def _move_pg(op: Move, db: Any) -> int | Refused | None:
    """One buy-in, top-up or cash-out in the journal's transaction, in one statement
    (``_move_statement``); writes what money.py's SQLAlchemy path writes, and returns the
    balance left (buy-in, top-up) or None (cash-out). A move refused with nothing written
    (a balance too small) is answered here; one refused after the balance was taken (no
    seat to add chips to) or by PostgreSQL (a seat taken) fails the batch's transaction,
    whose ops the journal then writes one at a time (journal.py), so that it fails alone
    and the others are written, as a savepoint for each move would have done, at two
    more round trips each (~40 us of CPU for every move, refused or not)."""
    values: list[Any] = [op.amount, op.account_id, *_ledger_columns(op.ledger), *op.seat[1]]
    for _, extra in op.extra:
        values += extra
    row = await db.fetchrow(_move_statement(op), *values)
    if op.back:
        return None
    left, seated = row
    if left is None:
        return Refused(StoreError("insufficient_balance", f"your balance is less than {op.amount}"))
    if seated != 1:
        raise StoreError("not_seated", f"no seat at {op.table!r} to add chips to")
    return int(left)


def _ledger_columns(rows: Sequence[dict[str, Any]]) -> list[list[Any]]:
    keys = ("txn", "at", "kind", "book", "account_id", "amount", "hand_id")
    return [[r[k] for r in rows] for k in keys]


_NAMED = re.compile(r":(\w+)")
_named_cache: dict[str, tuple[str, tuple[str, ...]]] = {}


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
