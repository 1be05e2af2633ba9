"""Issue 19: tables that open themselves from a template (the template they were opened
from, and whether one was closed again), and accounts that are bots (who never hold a
place on a waiting list ahead of people).

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ADD COLUMNs (SQLite takes them with a constant default): a batch would copy the
    # tables, and SQLite's copy of accounts would lose its index on lower(name)
    op.add_column("table_leases", sa.Column("template", sa.String(64), nullable=True))
    op.add_column("table_leases", sa.Column("closed", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("accounts", sa.Column("bot", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("bot")
    with op.batch_alter_table("table_leases") as batch:
        batch.drop_column("closed")
        batch.drop_column("template")
