"""Issue 18: which worker owns which table, under an epoch that every chip write is
fenced by, and what the table remembers between hands (its button, the seats' debts).

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_leases",
        sa.Column("table_name", sa.String(64), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=True),
        sa.Column("epoch", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("expires_at", sa.Float, nullable=False, server_default="0"),
        sa.Column("last_hand", sa.Integer, nullable=False, server_default="0"),
        sa.Column("memory", sa.Text, nullable=True),
    )
    op.create_table(
        "workers",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("seen_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("workers")
    op.drop_table("table_leases")
