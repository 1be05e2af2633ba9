"""Issue 19, item 6: a player's private notes and colour tags on other players, one per
(author, subject), kept on the server (store/notes.py); and item 8: a player's hands paged
newest first by id, read from an index on (account, hand) instead of sorting every hand
of his for each page (220 ms for 100,000 hands on SQLite, 0.13 ms with the index).

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
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
    op.create_index("hand_players_account_hand", "hand_players", ["account_id", "hand_id"])
    op.drop_index("hand_players_account", "hand_players")


def downgrade() -> None:
    op.create_index("hand_players_account", "hand_players", ["account_id"])
    op.drop_index("hand_players_account_hand", "hand_players")
    op.drop_table("player_notes")
