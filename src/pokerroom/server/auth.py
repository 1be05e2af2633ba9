"""Accounts: names and passwords checked, argon2 hashes, session tokens, login rate limits.

A token is 32 random bytes from ``secrets`` (URL-safe text); the database keeps only its
SHA-256, so a stolen database gives no live sessions. The browser gets it in an HttpOnly
cookie, a bot sends it as ``Authorization: Bearer <token>``.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
import time
from collections import defaultdict, deque
from urllib.parse import parse_qs

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from starlette.requests import cookie_parser

from pokerroom.server.store import Account, Store, StoreError

NAME = re.compile(r"^[A-Za-z0-9_-]{3,20}$")
SESSION_SECONDS = 30 * 24 * 3600
COOKIE = "pokerroom_session"

# argon2id; moderate cost so a login stays well under a second on a small machine
_HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)


class AuthError(Exception):
    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


def check_name(name: object) -> str:
    if type(name) is not str or not NAME.fullmatch(name):
        raise AuthError("bad_name", "a name is 3 to 20 letters, digits, '_' or '-'")
    return name


def check_password(password: object) -> str:
    if type(password) is not str or not 8 <= len(password) <= 128:
        raise AuthError("bad_password", "a password is 8 to 128 characters")
    return password


def session_token(authorization: str | None, cookie: str | None, query: str | None = None) -> str | None:
    """The session token of a request: ``Authorization: Bearer``, else the session cookie,
    else ``?token=`` in ``query`` (given for the WebSocket handshake only: a browser cannot
    set headers on it)."""
    if authorization and authorization[:7].lower() == "bearer " and authorization[7:].strip():
        return authorization[7:].strip()
    if cookie:
        token = cookie_parser(cookie).get(COOKIE)
        if token:
            return token
    if not query:
        return None
    tokens = parse_qs(query).get("token")
    return tokens[-1] if tokens else None


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class RateLimit:
    """At most ``limit`` events per ``window`` seconds per key (failed logins)."""

    def __init__(self, limit: int, window: float) -> None:
        self.limit, self.window = limit, window
        self._hits: dict[str, deque[float]] = defaultdict(deque)

    def blocked(self, key: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        hits = self._hits[key]
        while hits and hits[0] <= now - self.window:
            hits.popleft()
        return len(hits) >= self.limit

    def hit(self, key: str, now: float | None = None) -> None:
        self._hits[key].append(time.monotonic() if now is None else now)


class Accounts:
    def __init__(self, store: Store, starting_balance: int, topup: int) -> None:
        self.store = store
        self.starting_balance = starting_balance
        self.topup = topup
        self.failed_logins = RateLimit(5, 60.0)  # per name and address
        self.failed_from = RateLimit(20, 60.0)  # per address (shared addresses: more room)

    async def register(self, name: object, password: object) -> tuple[Account, str]:
        name, password = check_name(name), check_password(password)
        digest = await asyncio.to_thread(_HASHER.hash, password)
        try:
            account = await self.store.create_account(name, digest, self.starting_balance)
        except StoreError as e:
            raise AuthError(e.code, str(e), 409) from None
        return account, await self._session(account)

    async def login(self, name: object, password: object, client: str) -> tuple[Account, str]:
        if type(name) is not str or type(password) is not str or len(password) > 128 or len(name) > 20:
            raise AuthError("bad_login", "wrong name or password", 401)
        key = f"{name.lower()}|{client}"
        if self.failed_logins.blocked(key) or self.failed_from.blocked(client):
            raise AuthError("too_many_attempts", "too many failed logins: wait a minute", 429)
        account = await self.store.account_by_name(name)
        ok = False
        if account is not None:
            try:
                ok = await asyncio.to_thread(_HASHER.verify, account.password_hash, password)
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                ok = False
        if not ok or account is None:
            self.failed_logins.hit(key)
            self.failed_from.hit(client)
            raise AuthError("bad_login", "wrong name or password", 401)
        return account, await self._session(account)

    async def _session(self, account: Account) -> str:
        token = secrets.token_urlsafe(32)
        await self.store.create_session(account.id, token_hash(token), SESSION_SECONDS)
        return token

    async def from_token(self, token: str | None) -> Account | None:
        if not token or len(token) > 100:
            return None
        return await self.store.session_account(token_hash(token))

    async def logout(self, token: str) -> None:
        await self.store.delete_session(token_hash(token))

    async def daily_topup(self, account: Account) -> int:
        """A broke player (nothing on his balance or at tables) gets ``topup`` chips, once
        a day."""
        try:  # checked and granted in one transaction: requests at once grant once
            return await self.store.daily_topup(account.id, self.topup, 24 * 3600)
        except StoreError as e:
            status = {"not_broke": 409, "too_soon": 429}.get(e.code, 400)
            raise AuthError(e.code, str(e), status) from None
