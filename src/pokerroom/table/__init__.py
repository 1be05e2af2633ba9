"""The table layer: seats, the button and blinds, the action clock, mixed games and the
previous hand, over the hand engine. Pure and deterministic: the time is an argument."""

from pokerroom.table.config import (
    ALL_IN_PROTECTION,
    CHECK_FOLD,
    Stage,
    TableConfig,
    TableError,
    game_label,
)
from pokerroom.table.positions import Plan, Positions, plan_hand
from pokerroom.table.protection import ProtectionLimit
from pokerroom.table.record import HandRecord, PlayerRecord, PotRecord
from pokerroom.table.seating import ACTIVE, ENTERING, SITTING_OUT, Options, Seat
from pokerroom.table.table import IDLE, PLAYING, POSTING, Table

__all__ = [
    "ACTIVE", "ALL_IN_PROTECTION", "CHECK_FOLD", "ENTERING", "IDLE", "PLAYING", "POSTING",
    "SITTING_OUT", "HandRecord", "Options", "Plan", "PlayerRecord", "Positions", "PotRecord",
    "ProtectionLimit", "Seat", "Stage", "Table", "TableConfig", "TableError", "game_label", "plan_hand",
]
