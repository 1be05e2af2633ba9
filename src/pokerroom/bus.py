"""The bus: the only way the gateway reaches the tables (DESIGN.md, the split of lila and
lila-ws). A command goes to its table by name and its answer (ok or a typed error) comes
back through a reply; a viewer subscribes to a table's events with the ``subscribe``
command and stops with ``unsubscribe`` or when it goes (``disconnected``); the lobby feed
sends the table list to its watchers at most once a second.

Today it is in-process: a table is its worker's runner and a call reaches it directly.
Next (issue 18) the same calls become NATS requests on the owning table's subject, so
this stays thin: routing here, and nothing of a table's own.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable

from pokerroom import protocol as p
from pokerroom.worker.runner import BuyIn, TableRunner
from pokerroom.worker.viewer import OK, OK_TEXT, Answer, Reply, Viewer

# what the gateway takes of the worker: all of it through here
__all__ = ["OK", "OK_TEXT", "Answer", "Bus", "BuyIn", "Reply", "Viewer"]

LOBBY_EVERY = 1.0  # seconds: at most one lobby update so often


class Bus:
    def __init__(self) -> None:
        self._tables: dict[str, TableRunner] = {}  # name -> the table's runner (its owner)
        self._lobby: set[Viewer] = set()  # who watches the lobby
        self._lobby_dirty = asyncio.Event()
        self._lobby_task: asyncio.Task[None] | None = None

    def serve(self, tables: Iterable[TableRunner]) -> None:
        """Route commands for these tables to them (a worker's, when it starts)."""
        for runner in tables:
            self._tables[runner.name] = runner

    def submit(self, viewer: Viewer, command: p.TableCommand, reply: Reply) -> None:
        """Hand ``command`` to its table; ``reply`` gets the answer once the table has
        handled it (at once for a table nobody serves)."""
        runner = self._tables.get(command.table)
        if runner is None:
            reply(p.Error(code="unknown_table", message=f"no table named {command.table!r}", id=command.id))
            return
        runner.submit(viewer, command, reply)

    def disconnected(self, viewer: Viewer) -> None:
        """``viewer`` went: it stops watching the lobby and its tables (a seated player
        keeps his seat, and his clock runs as usual)."""
        self._lobby.discard(viewer)
        for name in viewer.tables:
            runner = self._tables.get(name)
            if runner is not None:
                runner.unwatch(viewer)

    async def buy_in(self, table: str, account_id: int, now: float) -> BuyIn | None:
        """What the player may sit down with at ``table`` now; None: no such table."""
        runner = self._tables.get(table)
        return None if runner is None else await runner.buy_in(account_id, now)

    @property
    def table_count(self) -> int:
        return len(self._tables)

    # ------------------------------------------------------------- the lobby feed

    def lobby(self) -> list[p.LobbyRow]:
        """Every table's lobby line."""
        return [r.summary() for r in self._tables.values()]

    def watch_lobby(self, viewer: Viewer) -> p.LobbyList:
        """The table list now; ``viewer`` gets its updates from then on."""
        self._lobby.add(viewer)
        return p.LobbyList(tables=self.lobby())

    def lobby_changed(self) -> None:
        """A table's lobby line changed (the tables call it)."""
        self._lobby_dirty.set()

    def start(self) -> None:
        self._lobby_task = asyncio.create_task(self._lobby_loop(), name="lobby")

    async def stop(self) -> None:
        task, self._lobby_task = self._lobby_task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _lobby_loop(self) -> None:
        while True:  # at most one lobby update a second
            await self._lobby_dirty.wait()
            self._lobby_dirty.clear()
            if self._lobby:  # nobody watching: a newcomer gets the list when he asks
                text = p.LobbyList(tables=self.lobby()).model_dump_json()
                for viewer in list(self._lobby):
                    viewer.send(text)
            await asyncio.sleep(LOBBY_EVERY)
