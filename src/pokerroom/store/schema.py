"""The database tables (SQLAlchemy Core). Migrations (``migrations/``) create them."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
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
    false,
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
    Column("bot", Boolean, nullable=False, server_default=false()),  # migration 0007
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
    Index("hand_players_account_hand", "account_id", "hand_id"),  # migration 0009
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
    # migration 0007: the template a table that opened itself was made from, and whether
    # it was closed again (its row kept: its hand numbers go on if it opens again)
    Column("template", String(64), nullable=True),
    Column("closed", Boolean, nullable=False, server_default=false()),
    Index("table_leases_owner", "owner"),  # migration 0011: a worker's renewal finds its rows
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

# Issue 19: the players' statistics (store/stats/), folded forward from the stored hands by
# ``player_stats.PlayerStats.fold``, never on the journal's write path. Counters per
# (account, game, stakes): ``game`` is "NLHE", "PLHE", "FLHE" or "Stud", ``stakes`` the
# hands row's game label ('NL 1/2'), ``bb`` its big blind (stud: its small bet), in which
# bb/100 is counted; the definitions are in store/stats/counting.py
player_stats = Table(
    "player_stats",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("game", String(16), primary_key=True),
    Column("stakes", String(80), primary_key=True),
    Column("bb", Integer, nullable=False),
    Column("hands", Integer, nullable=False),
    Column("vpip", Integer, nullable=False),
    Column("pfr", Integer, nullable=False),
    Column("three_bet", Integer, nullable=False),
    Column("three_bet_chances", Integer, nullable=False),
    Column("bets", Integer, nullable=False),  # bets, raises and completions after the first round
    Column("calls", Integer, nullable=False),  # calls after the first round
    Column("saw_flop", Integer, nullable=False),  # stud: saw fourth street
    Column("showdowns", Integer, nullable=False),
    Column("showdowns_won", Integer, nullable=False),
    Column("net", BigInteger, nullable=False),
    Column("net_showdown", BigInteger, nullable=False),  # the net of the hands he took to the showdown
)

# Issue 19: each player's graph (chips won over his hands, all games), kept bounded: the
# running totals after every ``step`` hands (``points``, JSON [[hands, net, net without
# showdowns], ...], at most stats.graph.MAX_POINTS: past it every other one goes and the
# step doubles), with the totals after his last hand
stats_graphs = Table(
    "stats_graphs",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("hands", Integer, nullable=False),
    Column("net", BigInteger, nullable=False),
    Column("net_showdown", BigInteger, nullable=False),
    Column("step", Integer, nullable=False),
    Column("points", Text, nullable=False),
)

# Issue 19: how far the statistics are folded: every hand with an id up to ``last_hand``,
# except ``pending`` (JSON {"<hand id>": first seen}, the hands still being played then,
# and ids not seen yet: another writer's hand may commit after a later id's); ``version``
# rises with every fold, which checks it (two folders never count a hand twice). One row
stats_cursor = Table(
    "stats_cursor",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("last_hand", Integer, nullable=False),
    Column("pending", Text, nullable=False),
    Column("version", BigInteger, nullable=False),
)

# Issue 19: a player's private note and colour tag on another player (migration 0009), one
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

# Issue 19, item 9: a player's own bet presets (migration 0010), one row per account:
# ``presets`` JSON {"preflop": [multiples of the bet], "postflop": [percents of the pot]}
# as store/prefs.py checked them, so they follow him from one browser to another
account_prefs = Table(
    "account_prefs",
    metadata,
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("presets", Text, nullable=False),
    Column("updated_at", Float, nullable=False),
)
