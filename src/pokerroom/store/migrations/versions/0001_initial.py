"""The first schema: accounts, sessions, seats, the ledger, hands.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(32), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("balance", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_grant_at", sa.Float, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("table_name", sa.String(64), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("stack", sa.BigInteger, nullable=False),
        sa.UniqueConstraint("table_name", "account_id", name="one_seat_per_table"),
    )
    op.create_table(
        "ledger",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("txn", sa.String(32), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("book", sa.String(120), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("hand_id", sa.Integer, nullable=True),
    )
    op.create_index("ledger_book", "ledger", ["book"])
    op.create_index("ledger_txn", "ledger", ["txn"])
    op.create_table(
        "hands",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_name", sa.String(64), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("game", sa.String(80), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("ended_at", sa.Float, nullable=True),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("salt", sa.String(64), nullable=True),
        sa.Column("deck", sa.String(160), nullable=True),
        sa.Column("history", sa.Text, nullable=True),
        sa.Column("phh", sa.Text, nullable=True),
        sa.Column("text", sa.Text, nullable=True),
    )
    op.create_index("hands_table", "hands", ["table_name", "number"])
    op.create_table(
        "hand_players",
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("hands.id"), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("net", sa.BigInteger, nullable=True),
    )
    op.create_index("hand_players_account", "hand_players", ["account_id"])


def downgrade() -> None:
    for name in ("hand_players", "hands", "ledger", "seats", "sessions", "accounts"):
        op.drop_table(name)
