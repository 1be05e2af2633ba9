"""Issue 19: the players' statistics, folded forward from the stored hands (store/stats/):
counters per account, game and stakes, each player's bounded graph, and the one cursor
row saying how far the hands are folded (none yet: the first fold reads them all).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

_COUNTERS = ("hands", "vpip", "pfr", "three_bet", "three_bet_chances", "bets", "calls", "saw_flop",
             "showdowns", "showdowns_won")


def upgrade() -> None:
    op.create_table(
        "player_stats",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("game", sa.String(16), primary_key=True),
        sa.Column("stakes", sa.String(80), primary_key=True),
        sa.Column("bb", sa.Integer, nullable=False),
        *(sa.Column(name, sa.Integer, nullable=False) for name in _COUNTERS),
        sa.Column("net", sa.BigInteger, nullable=False),
        sa.Column("net_showdown", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "stats_graphs",
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("hands", sa.Integer, nullable=False),
        sa.Column("net", sa.BigInteger, nullable=False),
        sa.Column("net_showdown", sa.BigInteger, nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("points", sa.Text, nullable=False),
    )
    cursor = op.create_table(
        "stats_cursor",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("last_hand", sa.Integer, nullable=False),
        sa.Column("pending", sa.Text, nullable=False),
        sa.Column("version", sa.BigInteger, nullable=False),
    )
    op.bulk_insert(cursor, [{"id": 1, "last_hand": 0, "pending": "{}", "version": 0}])


def downgrade() -> None:
    op.drop_table("stats_cursor")
    op.drop_table("stats_graphs")
    op.drop_table("player_stats")
