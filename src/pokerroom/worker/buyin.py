"""What a table takes of the room's settings, and what a player may sit down with at it now
(the table's limits, raised by D13's rathole rule: his last departure's stack within the
room's window)."""

from __future__ import annotations

from dataclasses import dataclass

from pokerroom.config import RoomConfig
from pokerroom.store import Departure, Store


@dataclass(frozen=True)
class Settings:
    """What a table takes of the room's settings."""

    pause: float = 3.0  # seconds between hands
    rathole_window: float = 3600.0  # D13, in seconds (0: off)

    @classmethod
    def of(cls, room: RoomConfig) -> Settings:
        return cls(pause=room.pause, rathole_window=room.rathole_window)


async def rathole(store: Store, settings: Settings, table: str, account_id: int,
                  now: float) -> Departure | None:
    """The player's last departure from ``table`` within the room's rathole window (D13),
    if any: he must sit down there again with at least its stack."""
    window = settings.rathole_window
    if window <= 0:
        return None
    return await store.last_departure(table, account_id, now - window)


@dataclass(frozen=True)
class BuyIn:
    """What a player may sit down with at a table now: ``low`` to ``high`` chips, and the
    departure that raised the minimum (D13), if one did, until when it counts."""

    low: int
    high: int
    rathole: Departure | None = None
    until: float | None = None
