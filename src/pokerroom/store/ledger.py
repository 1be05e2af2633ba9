"""The double-entry ledger: its books and its rows. Every movement of chips is one
ledger transaction whose entries sum to zero (invariant 1 and 5), under one transaction id
(``txn``), written with the balances and seat stacks it changes; the 'bank' book pays the
grants, so balances plus seats always equal what the bank gave (``totals``)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from pokerroom.store.schema import accounts, ledger, seats

Moves = Sequence[tuple[str, int | None, int]]  # (book, account id, amount) entries

INSERT_LEDGER = insert(ledger)  # made once: building a statement cost more than running it


def balance_book(account_id: int) -> str:
    return f"balance:{account_id}"


def table_book(table: str, account_id: int) -> str:
    return f"table:{table}:{account_id}"


def new_txn() -> str:
    """A fresh ledger transaction id: the key of a buy-in or top-up asked again."""
    return secrets.token_hex(16)


def grant_moves(account_id: int, amount: int) -> Moves:
    """Chips from the bank to an account's balance."""
    return [("bank", None, -amount), (balance_book(account_id), account_id, amount)]


def ledger_rows(
    kind: str, moves: Moves, hand_id: int | None = None, txn: str | None = None
) -> list[dict[str, Any]]:
    """The rows of one ledger transaction: (book, account id, amount) entries that sum to
    zero, under one transaction id (``txn``, else a fresh one)."""
    if sum(m[2] for m in moves) != 0:
        raise AssertionError(f"unbalanced ledger transaction {kind}: {moves}")
    txn, at = txn or new_txn(), time.time()
    return [
        {
            "txn": txn,
            "at": at,
            "kind": kind,
            "book": book,
            "account_id": account,
            "amount": amount,
            "hand_id": hand_id,
        }
        for book, account, amount in moves
        if amount
    ]


def ledger_tuples(rows: Sequence[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Ledger rows as the raw SQLite path's INSERT takes them (journal_sqlite.py)."""
    return [
        (r["txn"], r["at"], r["kind"], r["book"], r["account_id"], r["amount"], r["hand_id"]) for r in rows
    ]


async def transfer(
    conn: AsyncConnection, kind: str, moves: Moves, hand_id: int | None = None, txn: str | None = None
) -> None:
    """One ledger transaction, within the caller's write transaction."""
    rows = ledger_rows(kind, moves, hand_id, txn)
    if rows:
        await conn.execute(INSERT_LEDGER, rows)


async def totals(conn: AsyncConnection) -> dict[str, int]:
    """Chips on balances, at seats, and granted (balances + seats == granted), and the sum
    of every entry (zero)."""
    balances = int(await conn.scalar(select(func.coalesce(func.sum(accounts.c.balance), 0))) or 0)
    at_seats = int(await conn.scalar(select(func.coalesce(func.sum(seats.c.stack), 0))) or 0)
    bank = select(func.coalesce(func.sum(ledger.c.amount), 0)).where(ledger.c.book == "bank")
    granted = -int(await conn.scalar(bank) or 0)
    entries = int(await conn.scalar(select(func.coalesce(func.sum(ledger.c.amount), 0))) or 0)
    return {"balances": balances, "seats": at_seats, "granted": granted, "ledger_sum": entries}
