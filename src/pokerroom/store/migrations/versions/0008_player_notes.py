"""Issue 19, item 6: a player's private notes and colour tags on other players, one per
(author, subject), kept on the server (store/notes.py).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0006"  # LEAD: re-point to 0007 at merge
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "player_notes",
        sa.Column("author_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("subject_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("colour", sa.String(16), nullable=True),
        sa.Column("updated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("player_notes")
