"""Issue 15: protection uses (D7), departures from tables (D13) and the cards players
show after a hand (D12).

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "protection_uses",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("protection_uses_at", "protection_uses", ["at"])
    op.create_table(
        "departures",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_name", sa.String(64), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("stack", sa.BigInteger, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("departures_table_account", "departures", ["table_name", "account_id", "at"])
    op.create_table(
        "reveals",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("hands.id"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("cards", sa.String(16), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("reveals_hand", "reveals", ["hand_id"])


def downgrade() -> None:
    for name in ("reveals", "departures", "protection_uses"):
        op.drop_table(name)
