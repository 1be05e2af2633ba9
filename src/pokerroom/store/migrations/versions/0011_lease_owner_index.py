"""Issue 18: a worker renews its leases by owner (leases.py ``renew``, twice a second):
an index on table_leases (owner) finds its rows without reading every table's lease
(docs/scaling.md: at 100,000 tables and a hundred workers, 25 million rows a second).

Revision ID: 0011
Revises: 0010
"""

from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("table_leases_owner", "table_leases", ["owner"])


def downgrade() -> None:
    op.drop_index("table_leases_owner", table_name="table_leases")
