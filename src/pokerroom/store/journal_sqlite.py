"""The journal's raw SQLite path: a batch of writes run in aiosqlite's thread, one trip per
transaction (``Database._run_sqlite``). The statements SQLAlchemy writes for the schema
(schema.py), as plain SQLite SQL, and the same rows as the SQLAlchemy path
(journal.py, money.py) in the same order; tests/server/test_store_paths.py checks that the
two leave identical databases."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Sequence
from typing import Any

from pokerroom.store.database import StoreError, sqlalchemy_error
from pokerroom.store.ledger import ledger_tuples
from pokerroom.store.ops import HandFinish, HandStart, Move, Op, Refused, check_fences, merge, settle

_SQL_INSERT_HAND = (
    "INSERT INTO hands (table_name, number, game, status, started_at, commitment) VALUES (?, ?, ?, ?, ?, ?)"
)
_SQL_INSERT_HAND_PLAYER = "INSERT INTO hand_players (hand_id, account_id, seat) VALUES (?, ?, ?)"
_SQL_SET_STACK = "UPDATE seats SET stack=? WHERE seats.table_name = ? AND seats.account_id = ?"
_SQL_SET_NET = "UPDATE hand_players SET net=? WHERE hand_players.hand_id = ? AND hand_players.account_id = ?"
_SQL_INSERT_LEDGER = (
    "INSERT INTO ledger (txn, at, kind, book, account_id, amount, hand_id) VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_SQL_FINISH_HAND = (
    "UPDATE hands SET status=?, ended_at=?, salt=?, deck=?, history=?, phh=?, text=? WHERE hands.id = ?"
)
_SQL_TAKE_BALANCE = (
    "UPDATE accounts SET balance=(accounts.balance - ?) WHERE accounts.id = ? AND accounts.balance >= ?"
)
_SQL_ADD_BALANCE = "UPDATE accounts SET balance=(accounts.balance + ?) WHERE accounts.id = ?"
_SQL_BALANCE = "SELECT accounts.balance FROM accounts WHERE accounts.id = ?"
# a move's seat statements (ops.Move.seat and extra), made by money.py
SQL_INSERT_SEAT = "INSERT INTO seats (table_name, seat, account_id, stack) VALUES (?, ?, ?, ?)"
SQL_ADD_TO_SEAT = (
    "UPDATE seats SET stack=(seats.stack + ?) WHERE seats.table_name = ? AND seats.account_id = ?"
)
SQL_FREE_SEAT = "DELETE FROM seats WHERE seats.table_name = ? AND seats.account_id = ?"
SQL_INSERT_DEPARTURE = "INSERT INTO departures (table_name, account_id, stack, at) VALUES (?, ?, ?, ?)"


def apply_sqlite(ops: Sequence[Op], db: sqlite3.Connection) -> list[Any]:
    """The journal's batch on SQLite, in its thread: the ops not committed already (those
    asked ``again`` and found, ops.settle) written; each op's result."""
    done, todo = settle(ops, lambda sql, values: db.execute(sql, values).fetchone())
    check_fences(todo, lambda sql, values: db.execute(sql, values).rowcount)
    if not done:
        return _write_sqlite(ops, db)
    return merge(len(ops), done, _write_sqlite(todo, db))


def _write_sqlite(ops: Sequence[Op], db: sqlite3.Connection) -> list[Any]:
    """What journal.write does, on SQLite: the same statements in the same order, with the
    buy-ins, top-ups and cash-outs (``_move_sqlite``) between the new hands and the ends."""
    out: list[Any] = [None] * len(ops)
    players: list[tuple[int, int, int]] = []
    for i, op in enumerate(ops):
        if isinstance(op, HandStart):
            cursor = db.execute(
                _SQL_INSERT_HAND, (op.table, op.number, op.game, "playing", op.at, op.commitment)
            )
            hand_id = cursor.lastrowid
            assert hand_id is not None
            out[i] = hand_id
            players += [(hand_id, account, seat) for account, seat in op.players]
    if players:
        db.executemany(_SQL_INSERT_HAND_PLAYER, players)
    for i, op in enumerate(ops):
        if isinstance(op, Move):
            out[i] = _move_sqlite(op, db)
    ends = [op for op in ops if isinstance(op, HandFinish)]
    if ends:
        stacks = [(stack, op.table, a) for op in ends for a, _, stack in op.results]
        if stacks:
            db.executemany(_SQL_SET_STACK, stacks)
            db.executemany(_SQL_SET_NET, [(net, op.hand_id, a) for op in ends for a, net, _ in op.results])
        entries = [row for op in ends for row in op.ledger]
        if entries:
            db.executemany(_SQL_INSERT_LEDGER, ledger_tuples(entries))
        now = time.time()
        db.executemany(
            _SQL_FINISH_HAND,
            [("complete", now, op.salt, op.deck, op.history, op.phh, op.text, op.hand_id) for op in ends],
        )
    return out


def _move_sqlite(op: Move, db: sqlite3.Connection) -> int | Refused | None:
    """One buy-in, top-up or cash-out in the journal's transaction, under a savepoint: a
    refused one (a balance too small, no seat, a seat taken) is undone alone and its error
    returned. Writes what money.py's SQLAlchemy path writes; returns the balance left
    (buy-in, top-up) or None (cash-out)."""
    if not db.in_transaction:  # the savepoint must not be the transaction (its release would commit)
        db.execute("BEGIN")
    db.execute("SAVEPOINT chips")
    try:
        if op.back:
            db.execute(*op.seat)
            db.execute(_SQL_ADD_BALANCE, (op.amount, op.account_id))
            for statement in op.extra:
                db.execute(*statement)
        else:
            if db.execute(_SQL_TAKE_BALANCE, (op.amount, op.account_id, op.amount)).rowcount != 1:
                raise StoreError("insufficient_balance", f"your balance is less than {op.amount}")
            if db.execute(*op.seat).rowcount != 1:
                raise StoreError("not_seated", f"no seat at {op.table!r} to add chips to")
        if op.ledger:
            db.executemany(_SQL_INSERT_LEDGER, ledger_tuples(op.ledger))
        result = None
        if not op.back:
            row = db.execute(_SQL_BALANCE, (op.account_id,)).fetchone()
            result = int(row[0] if row is not None and row[0] is not None else 0)
    except (StoreError, sqlite3.Error) as e:
        db.execute("ROLLBACK TO chips")
        db.execute("RELEASE chips")
        return Refused(e if isinstance(e, StoreError) else sqlalchemy_error(e))
    db.execute("RELEASE chips")
    return result
