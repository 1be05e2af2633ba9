"""Issue 16: a session's last use, for its sliding idle expiry, and an index to end
every session of an account at once ("log out everywhere").

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("sessions", sa.Column("last_seen", sa.Float, nullable=True))
    op.execute("UPDATE sessions SET last_seen = created_at")
    op.create_index("sessions_account", "sessions", ["account_id"])


def downgrade() -> None:
    op.drop_index("sessions_account", "sessions")
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("last_seen")
