"""The worker's side of the room: the task of every table, the room's one limit on all-in
protections (D7) that they share, and their start and stop. Clients reach the tables
through the bus (bus.py), never here; sessions and logins are the gateway's
(gateway/sessions.py)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from pokerroom.config import RoomConfig
from pokerroom.store import Store
from pokerroom.table.protection import ProtectionLimit
from pokerroom.worker.runner import Settings, TableRunner


def _nothing() -> None:
    pass


class Worker:
    def __init__(self, config: RoomConfig, store: Store,
                 lobby_changed: Callable[[], None] = _nothing) -> None:
        """``lobby_changed`` is called when a table's lobby line changed (seats, hands)."""
        self.config = config
        self.store = store
        self.settings = Settings.of(config)
        # D7: ONE limit on all-in protections for every table of the room (loaded at start)
        self.protections = ProtectionLimit(config.max_protections, config.protection_window)
        self.runners = {
            t.name: TableRunner(t, store, self.settings, protections=self.protections,
                                lobby_changed=lobby_changed)
            for t in config.tables
        }

    async def start(self) -> None:
        await self.store.migrate()
        await self.store.return_all_seats()
        since = time.time() - self.config.protection_window
        for player, times in (await self.store.protection_uses(since)).items():
            self.protections.load(player, times)
        for runner in self.runners.values():
            runner.task = asyncio.create_task(runner.run(), name=f"table {runner.name}")

    async def stop(self) -> None:
        for runner in self.runners.values():
            await runner.stop()
