"""The gateway's side of the room: accounts and their sessions, the live connections of
each session (a logout closes them), and the purge of expired sessions. No table state:
the tables are reached through the bus (bus.py)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Protocol

from pokerroom.config import RoomConfig
from pokerroom.gateway.auth import Accounts
from pokerroom.loop import cancel
from pokerroom.store import Store

log = logging.getLogger("pokerroom.server")
PURGE_EVERY = 3600.0  # seconds between purges of expired sessions


class SessionSocket(Protocol):
    """A live connection that came in on a session token (gateway/ws.py's sockets)."""

    def end_session(self) -> None: ...


class Sessions:
    def __init__(self, config: RoomConfig, store: Store) -> None:
        self.store = store
        self.accounts = Accounts(store, config.starting_balance, config.daily_topup,
                                 config.registrations_per_hour)
        # the live connections of each session (by token hash), with its account: a
        # logout closes them, so a token ended no longer sits or leaves anywhere
        self.sessions: dict[str, tuple[int, set[SessionSocket]]] = {}
        self._purge_task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Purge expired sessions now and every ``PURGE_EVERY`` (after the store's
        migration: the worker's start)."""
        await self.store.purge_sessions(time.time())
        self._purge_task = asyncio.create_task(self._purge_loop(), name="session purge")

    async def stop(self) -> None:
        task, self._purge_task = self._purge_task, None
        await cancel(task)

    async def _purge_loop(self) -> None:
        """Delete expired sessions now and then, so the table holds live ones only."""
        while True:
            await asyncio.sleep(PURGE_EVERY)
            try:
                await self.store.purge_sessions(time.time())
            except Exception:  # the database is away: try again next time
                log.exception("purging expired sessions failed")

    def opened(self, token_hash: str, account_id: int, socket: SessionSocket) -> None:
        self.sessions.setdefault(token_hash, (account_id, set()))[1].add(socket)

    def closed(self, token_hash: str, socket: SessionSocket) -> None:
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
