"""Account names are unique whatever their case, enforced by the database itself (two
sign-ups at the same moment could both pass the application's check).

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("accounts_name_lower", "accounts", [sa.text("lower(name)")], unique=True)


def downgrade() -> None:
    op.drop_index("accounts_name_lower", table_name="accounts")
