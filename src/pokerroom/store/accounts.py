"""Accounts and sessions: names (unique regardless of case), password hashes, the grant a
new account starts with, and the sessions its tokens open (the database keeps only each
token's hash, passwords.py), with their sliding expiry and purge."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from pokerroom import passwords
from pokerroom.store.database import Database, StoreError
from pokerroom.store.ledger import grant_moves, ledger_rows, transfer
from pokerroom.store.schema import accounts, ledger, sessions

SESSION_IDLE = 7 * 24 * 3600.0  # a session unused this long has ended (sliding expiry)
SESSION_TOUCH = 60.0  # a session's last use is written at most this often


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    balance: int
    password_hash: str
    last_grant_at: float


class Accounts(Database):
    async def create_account(self, name: str, password_hash: str, grant: int, bot: bool = False) -> Account:
        """A new account with ``grant`` chips from the bank; ``bot``: a program's (it never
        holds a place on a waiting list ahead of a person)."""
        now = time.time()
        taken = StoreError("name_taken", f"the name {name!r} is taken")
        try:
            async with self._writing() as conn:
                found = await conn.scalar(
                    select(accounts.c.id).where(func.lower(accounts.c.name) == name.lower())
                )
                if found is not None:
                    raise taken
                result = await conn.execute(
                    insert(accounts).values(
                        name=name,
                        password_hash=password_hash,
                        balance=grant,
                        created_at=now,
                        last_grant_at=now,
                        **_bot(bot),
                    )
                )
                account_id = int(result.inserted_primary_key[0])  # type: ignore[index]
                await transfer(conn, "grant", grant_moves(account_id, grant))
        except IntegrityError:  # the same name signed up at the same moment
            raise taken from None
        return Account(account_id, name, grant, password_hash, now)

    async def create_accounts(
        self,
        names: Sequence[str],
        password_hash: str,
        grant: int,
        session_hashes: Sequence[str] = (),
        ttl: float = 0.0,
        bot: bool = False,
    ) -> list[int]:
        """Many accounts at once (the load test's bots), all or none, in one transaction of
        a few multi-row statements: each as ``create_account`` makes it, ``grant`` chips
        from the bank in a ledger transaction of its own, and, when ``session_hashes`` gives
        one token hash per name, a session expiring in ``ttl`` seconds. A name taken (or
        given twice) raises StoreError 'name_taken'. Returns the ids, in the names' order."""
        if session_hashes and len(session_hashes) != len(names):
            raise ValueError("one session hash per name, or none")
        if not names:
            return []
        now = time.time()
        try:
            async with self._writing() as conn:
                result = await conn.execute(
                    insert(accounts).returning(accounts.c.id, accounts.c.name),
                    [
                        {
                            "name": name,
                            "password_hash": password_hash,
                            "balance": grant,
                            "created_at": now,
                            "last_grant_at": now,
                            **_bot(bot),
                        }
                        for name in names
                    ],
                )
                by_name = {row.name: int(row.id) for row in result}
                ids = [by_name[name] for name in names]
                if grant:  # what ledger.transfer writes for one grant, for each
                    entries = [
                        row
                        for account_id in ids
                        for row in ledger_rows("grant", grant_moves(account_id, grant))
                    ]
                    await conn.execute(insert(ledger), entries)
                if session_hashes:
                    await conn.execute(
                        insert(sessions),
                        [
                            {"token_hash": h, "account_id": a, "created_at": now, "expires_at": now + ttl}
                            for a, h in zip(ids, session_hashes, strict=True)
                        ],
                    )
        except IntegrityError:
            raise StoreError("name_taken", "a name is taken (or given twice)") from None
        return ids

    async def create_accounts_with_sessions(
        self, names: Sequence[str], password: str, grant: int, ttl: float
    ) -> list[str]:
        """The load test's bots, before the room starts: an account per name, all or none
        in one transaction (``create_accounts``), sharing ``password`` (hashed once, as a
        login checks it), each with ``grant`` chips from the bank and a session that lasts
        ``ttl`` seconds. Returns each account's session token, in the names' order: a bot
        sends it (``Authorization: Bearer``) instead of logging in. A name taken (or given
        twice) raises StoreError 'name_taken'."""
        digest = await asyncio.to_thread(passwords.hash_password, password)
        tokens = [passwords.new_token() for _ in names]
        hashes = [passwords.token_hash(t) for t in tokens]
        await self.create_accounts(names, digest, grant, hashes, ttl, bot=True)
        return tokens

    async def is_bot(self, account_id: int) -> bool:
        """Whether the account was registered as a program's (a bot's)."""
        async with self.engine.connect() as conn:
            return bool(await conn.scalar(select(accounts.c.bot).where(accounts.c.id == account_id)))

    async def account_by_name(self, name: str) -> Account | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(select(accounts).where(func.lower(accounts.c.name) == name.lower()))
            ).first()
        return _account(row)

    async def account(self, account_id: int) -> Account | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(accounts).where(accounts.c.id == account_id))).first()
        return _account(row)

    async def set_password_hash(self, account_id: int, password_hash: str) -> None:
        async with self._writing() as conn:
            await conn.execute(
                update(accounts).where(accounts.c.id == account_id).values(password_hash=password_hash)
            )

    # ------------------------------------------------------------------ sessions

    async def create_session(self, account_id: int, token_hash: str, ttl: float) -> None:
        now = time.time()
        async with self._writing() as conn:
            await conn.execute(
                insert(sessions).values(
                    token_hash=token_hash, account_id=account_id, created_at=now, expires_at=now + ttl,
                    last_seen=now,
                )
            )

    async def session_account(self, token_hash: str, idle: float = SESSION_IDLE) -> Account | None:
        """The account of a live session: not past its expiry, and used within ``idle``
        seconds (a sliding expiry: each use moves it on, written at most once a minute so
        a busy session does not write on every request)."""
        now = time.time()
        seen = func.coalesce(sessions.c.last_seen, sessions.c.created_at)
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(accounts, seen.label("session_seen"))
                    .join(sessions, sessions.c.account_id == accounts.c.id)
                    .where(sessions.c.token_hash == token_hash)
                    .where(sessions.c.expires_at > now, seen > now - idle)
                )
            ).first()
        if row is not None and row.session_seen < now - SESSION_TOUCH:
            async with self._writing() as conn:
                await conn.execute(
                    update(sessions).where(sessions.c.token_hash == token_hash).values(last_seen=now)
                )
        return _account(row)

    async def delete_session(self, token_hash: str) -> int | None:
        """End one session; the account it was of (None: there was none)."""
        async with self._writing() as conn:
            account_id = await conn.scalar(
                select(sessions.c.account_id).where(sessions.c.token_hash == token_hash)
            )
            await conn.execute(delete(sessions).where(sessions.c.token_hash == token_hash))
        return None if account_id is None else int(account_id)

    async def delete_sessions_of(self, account_id: int) -> int:
        """End every session of an account ("log out everywhere"); how many there were."""
        async with self._writing() as conn:
            result = await conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
        return int(result.rowcount or 0)

    async def purge_sessions(self, now: float, idle: float = SESSION_IDLE) -> int:
        """Delete the sessions past their expiry or idle for longer than ``idle``."""
        seen = func.coalesce(sessions.c.last_seen, sessions.c.created_at)
        async with self._writing() as conn:
            result = await conn.execute(
                delete(sessions).where((sessions.c.expires_at <= now) | (seen <= now - idle))
            )
        return int(result.rowcount or 0)


def _account(row: Any) -> Account | None:
    if row is None:
        return None
    return Account(row.id, row.name, int(row.balance), row.password_hash, float(row.last_grant_at))


def _bot(bot: bool) -> dict[str, bool]:
    """The ``bot`` column written only for a bot (its default is false): a person's account
    is the same row as before the column came (migration 0007), which the tests of older
    schemas write."""
    return {"bot": True} if bot else {}
