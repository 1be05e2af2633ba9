"""The room's record: accounts and sessions, the double-entry ledger and the hand journal
on SQLAlchemy (SQLite by default, PostgreSQL by URL), its schema and migrations, the audit
that checks it, and the fault injection that tests it.

One ``Store`` per server, on SQLAlchemy's async engine: SQLite (aiosqlite, a file created
on first start) by default, PostgreSQL (asyncpg) by URL. Migrations (Alembic) run on
start. Every movement of chips is one transaction of ledger entries that sum to zero,
written together with the balances and seat stacks it changes (invariant 1 and 5): the
sum over all accounts and seats changes only by grants, which come from the 'bank' book.

The rest of the room imports from here only. By job, one module each:

- database.py: the engine, migrations, the write transaction (``_writing``) and its faults;
- accounts.py: accounts, names, password hashes, sessions;
- ledger.py: the ledger's books and rows; money.py: grants, buy-ins, top-ups, cash-outs;
- journal.py: the hand journal (its SQLAlchemy write path, the rules' memory, reading
  hands), journal_sqlite.py its raw SQLite path, ops.py the writes it queues and the one
  check of whether a write asked again was committed;
- leases.py: which worker owns which table, under the epoch that fences its writes;
- schema.py, migrations/; audit.py (``pokerroom audit``); faults.py.
"""

from __future__ import annotations

from pokerroom.store.accounts import SESSION_IDLE, SESSION_TOUCH, Account, Accounts
from pokerroom.store.database import MIGRATIONS, StoreError, database_url
from pokerroom.store.journal import Departure
from pokerroom.store.leases import Claim, Lease, Leases, SeatRow, fair_share
from pokerroom.store.ledger import balance_book, new_txn, table_book
from pokerroom.store.money import Money
from pokerroom.store.ops import Fence


class Store(Accounts, Money, Leases):
    """The room's store: accounts and sessions (Accounts), money moves (Money) and the hand
    journal under them (Journal), the tables' leases (Leases), on one database (Database)."""


__all__ = [
    "MIGRATIONS",
    "SESSION_IDLE",
    "SESSION_TOUCH",
    "Account",
    "Claim",
    "Departure",
    "Fence",
    "Lease",
    "SeatRow",
    "Store",
    "StoreError",
    "balance_book",
    "database_url",
    "fair_share",
    "new_txn",
    "table_book",
]
