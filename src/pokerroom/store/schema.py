"""The database tables (SQLAlchemy Core). Migrations (``migrations/``) create them."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    func,
)

metadata = MetaData()

accounts = Table(
    "accounts",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(32), nullable=False, unique=True),
    Column("password_hash", String(200), nullable=False),
    Column("balance", BigInteger, nullable=False),
    Column("created_at", Float, nullable=False),
    Column("last_grant_at", Float, nullable=False),
)
Index("accounts_name_lower", func.lower(accounts.c.name), unique=True)  # migration 0002

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    # the session's last use (migration 0004; NULL: never since, count from created_at): a
    # session idle for store.SESSION_IDLE has ended, and expired rows are purged
    Column("last_seen", Float, nullable=True),
    Index("sessions_account", "account_id"),
)

# Chips in front of a player at a table, between hands (a hand's result is written when
# it ends, so after a crash these are the stacks from before the hand that was voided).
seats = Table(
    "seats",
    metadata,
    Column("table_name", String(64), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("stack", BigInteger, nullable=False),
    UniqueConstraint("table_name", "account_id", name="one_seat_per_table"),
)

# Double entry: every movement of chips is a transaction of entries that sum to zero.
# Ledger accounts: 'bank' (grants come from it), 'balance:<account id>', and
# 'table:<table name>:<account id>' (chips at a table).
ledger = Table(
    "ledger",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("txn", String(32), nullable=False),
    Column("at", Float, nullable=False),
    Column("kind", String(16), nullable=False),
    Column("book", String(120), nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=True),
    Column("amount", BigInteger, nullable=False),
    Column("hand_id", Integer, nullable=True),
    Index("ledger_book", "book"),
    Index("ledger_txn", "txn"),
)

hands = Table(
    "hands",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_name", String(64), nullable=False),
    Column("number", Integer, nullable=False),
    Column("game", String(80), nullable=False),
    Column("status", String(16), nullable=False),  # playing, complete, void
    Column("started_at", Float, nullable=False),
    Column("ended_at", Float, nullable=True),
    Column("commitment", String(64), nullable=False),
    Column("salt", String(64), nullable=True),  # revealed when the hand ends
    Column("deck", String(160), nullable=True),  # revealed when the hand ends
    Column("history", Text, nullable=True),  # JSON: players, events, record
    Column("phh", Text, nullable=True),
    Column("text", Text, nullable=True),
    Index("hands_table", "table_name", "number"),
)

hand_players = Table(
    "hand_players",
    metadata,
    Column("hand_id", Integer, ForeignKey("hands.id"), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("net", BigInteger, nullable=True),
    Index("hand_players_account", "account_id"),
)

# D7: each time a player's timeout was answered with all-in protection (the room's limit
# counts them across tables and restarts: the last window's are loaded at start)
protection_uses = Table(
    "protection_uses",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("at", Float, nullable=False),
    Index("protection_uses_at", "at"),
)

# D13: a player left a table with ``stack`` chips (written with the cash-out); sitting at
# the same table again within the room's rathole window needs at least the last one
departures = Table(
    "departures",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_name", String(64), nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("stack", BigInteger, nullable=False),
    Column("at", Float, nullable=False),
    Index("departures_table_account", "table_name", "account_id", "at"),
)

# D12: cards a player showed after the hand (public), 'AhKd' (or one card), in order
reveals = Table(
    "reveals",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("hand_id", Integer, ForeignKey("hands.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("cards", String(16), nullable=False),
    Column("at", Float, nullable=False),
    Index("reveals_hand", "hand_id"),
)

# Issue 18: the worker that owns a table (``owner``, NULL: nobody) until ``expires_at`` (the
# database's clock, seconds since 1970), under ``epoch``, which every claim raises and every
# chip write of the table checks in its own transaction (leases.py); ``last_hand``, the
# number of its last settled hand; ``memory``, JSON of what the table remembers between
# hands (table/memory.py), written with that hand's settlement
table_leases = Table(
    "table_leases",
    metadata,
    Column("table_name", String(64), primary_key=True),
    Column("owner", String(64), nullable=True),
    Column("epoch", BigInteger, nullable=False, server_default="0"),
    Column("expires_at", Float, nullable=False, server_default="0"),
    Column("last_hand", Integer, nullable=False, server_default="0"),
    Column("memory", Text, nullable=True),
)

# Issue 18: the workers alive (``seen_at`` by the database's clock, renewed with their
# leases), so that each claims its share of the tables
workers = Table(
    "workers",
    metadata,
    Column("name", String(64), primary_key=True),
    Column("started_at", Float, nullable=False),
    Column("seen_at", Float, nullable=False),
)

# Issue 19: a player's private note and colour tag on another player (migration 0008), one
# per (author, subject): ``text`` up to 1,000 characters ('' for a tag alone), ``colour``
# one of store/notes.py's palette or NULL (a note alone)
player_notes = Table(
    "player_notes",
    metadata,
    Column("author_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("subject_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("text", Text, nullable=False),
    Column("colour", String(16), nullable=True),
    Column("updated_at", Float, nullable=False),
)
