"""The room: its store, accounts, table tasks and lobby; where a client's message goes."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any, Protocol

from pokerroom import protocol as p
from pokerroom.config import RoomConfig
from pokerroom.gateway.auth import Accounts
from pokerroom.store import Departure, Store
from pokerroom.table.protection import ProtectionLimit
from pokerroom.worker.runner import Connection, TableRunner

log = logging.getLogger("pokerroom.server")


PURGE_EVERY = 3600.0  # seconds between purges of expired sessions


class SessionSocket(Protocol):
    """A live connection that came in on a session token (gateway/ws.py's sockets)."""

    def end_session(self) -> None: ...


class Room:
    def __init__(self, config: RoomConfig, store: Store) -> None:
        self.config = config
        self.store = store
        self.accounts = Accounts(store, config.starting_balance, config.daily_topup,
                                 config.registrations_per_hour)
        # the live connections of each session (by token hash), with its account: a
        # logout closes them, so a token ended no longer sits or leaves anywhere
        self.sessions: dict[str, tuple[int, set[SessionSocket]]] = {}
        self._purge_task: asyncio.Task[None] | None = None
        # D7: ONE limit on all-in protections for every table of the room (loaded at start)
        self.protections = ProtectionLimit(config.max_protections, config.protection_window)
        self.runners = {t.name: TableRunner(t, self) for t in config.tables}
        self.lobby: set[Connection] = set()
        self._lobby_task: asyncio.Task[None] | None = None
        self._lobby_dirty = asyncio.Event()

    async def start(self) -> None:
        await self.store.migrate()
        await self.store.return_all_seats()
        since = time.time() - self.config.protection_window
        for player, times in (await self.store.protection_uses(since)).items():
            self.protections.load(player, times)
        for runner in self.runners.values():
            runner.task = asyncio.create_task(runner.run(), name=f"table {runner.name}")
        self._lobby_task = asyncio.create_task(self._lobby_loop(), name="lobby")
        await self.store.purge_sessions(time.time())
        self._purge_task = asyncio.create_task(self._purge_loop(), name="session purge")

    async def stop(self) -> None:
        for runner in self.runners.values():
            await runner.stop()
        for task in (self._lobby_task, self._purge_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def _purge_loop(self) -> None:
        """Delete expired sessions now and then, so the table holds live ones only."""
        while True:
            await asyncio.sleep(PURGE_EVERY)
            try:
                await self.store.purge_sessions(time.time())
            except Exception:  # the database is away: try again next time
                log.exception("purging expired sessions failed")

    # ------------------------------------------------------------- sessions

    def session_opened(self, token_hash: str, account_id: int, socket: SessionSocket) -> None:
        self.sessions.setdefault(token_hash, (account_id, set()))[1].add(socket)

    def session_closed(self, token_hash: str, socket: SessionSocket) -> None:
        entry = self.sessions.get(token_hash)
        if entry is not None:
            entry[1].discard(socket)
            if not entry[1]:
                del self.sessions[token_hash]

    async def logout(self, token: str, everywhere: bool = False) -> None:
        """End the session of ``token`` (``everywhere``: every session of its account)
        in the database, then close the connections that came in on it."""
        ended = await self.accounts.logout(token, everywhere)
        if ended is None:
            return
        account_id, token_hash = ended
        for key, (owner, sockets) in list(self.sessions.items()):
            if key == token_hash or (everywhere and owner == account_id):
                for socket in list(sockets):
                    socket.end_session()

    async def rathole(self, table: str, account_id: int, now: float) -> Departure | None:
        """The player's last departure from ``table`` within the room's rathole window
        (D13), if any: he must sit down there again with at least its stack."""
        window = self.config.rathole_window
        if window <= 0:
            return None
        return await self.store.last_departure(table, account_id, now - window)

    def tables(self) -> list[p.LobbyRow]:
        return [r.summary() for r in self.runners.values()]

    def lobby_changed(self) -> None:
        self._lobby_dirty.set()

    async def _lobby_loop(self) -> None:
        while True:  # at most one lobby update a second
            await self._lobby_dirty.wait()
            self._lobby_dirty.clear()
            if self.lobby:  # nobody watching: a newcomer gets the list when he asks
                text = p.LobbyList(tables=self.tables()).model_dump_json()
                for conn in list(self.lobby):
                    conn.send(text)
            await asyncio.sleep(1.0)

    def submit(self, conn: Connection, message: Any) -> asyncio.Future[None] | None:
        """Take one valid client message: answered at once (None), or handed to its table
        (the future is done when the table has handled it)."""
        if isinstance(message, p.Ping):
            conn.send(p.Pong(id=message.id))
            return None
        if isinstance(message, p.Lobby):
            self.lobby.add(conn)
            conn.send(p.LobbyList(tables=self.tables()))
            return None
        runner = self.runners.get(message.table)
        if runner is None:
            conn.send(
                p.Error(code="unknown_table", message=f"no table named {message.table!r}", id=message.id)
            )
            return None
        return runner.submit(conn, message)

    def disconnected(self, conn: Connection) -> None:
        """A connection closed: it stops watching; a seated player keeps his seat and his
        clock runs as usual."""
        self.lobby.discard(conn)
        for name in conn.tables:
            runner = self.runners.get(name)
            if runner is not None:
                runner.watchers.discard(conn)


class TokenBucket:
    """``rate`` messages a second on average, bursts of ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        self._refill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def charge(self, cost: float) -> None:
        """Debit work done beyond one message (a replay of logged events): the balance may
        go below zero, so the next messages wait until it has refilled, at most a minute
        (a debt is capped there)."""
        self._refill()
        self.tokens = max(-60.0 * self.rate, self.tokens - cost)

    def owing(self) -> bool:
        """Whether work done for earlier messages (``charge``) has left it in debt."""
        self._refill()
        return self.tokens < 0

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
