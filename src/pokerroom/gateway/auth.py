"""Accounts: names and passwords checked, argon2 hashes, session tokens, login rate limits.

A token is 32 random bytes from ``secrets`` (URL-safe text); the database keeps only its
SHA-256, so a stolen database gives no live sessions. A session ends 30 days after the
login, after a week unused (store.SESSION_IDLE), or at a logout (of it, or of all the
account's: "log out everywhere"). The browser gets it in an HttpOnly
cookie, a bot sends it as ``Authorization: Bearer <token>``.
"""

from __future__ import annotations

import asyncio
import functools
import re
import secrets
from importlib import resources
from urllib.parse import parse_qs

from starlette.requests import cookie_parser

from pokerroom.gateway.limits import RateLimit
from pokerroom.passwords import hash_password, new_token, verify_password
from pokerroom.passwords import token_hash as token_hash  # the gateway's name for it (ws.py)
from pokerroom.store import SESSION_IDLE, Account, Store, StoreError

NAME = re.compile(r"^[A-Za-z0-9_-]{3,20}$")
SESSION_SECONDS = 30 * 24 * 3600  # a session ends this long after login, used or not
COOKIE = "pokerroom_session"


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


class KnownAddresses:
    """The addresses each account logged in from lately (a few per account, the newest
    kept): a login from one of them passes the per-account limit, so guesses at an
    account from elsewhere do not lock its owner out."""

    def __init__(self, per_account: int = 8, max_accounts: int = 100_000) -> None:
        self.per_account, self.max_accounts = per_account, max_accounts
        self._known: dict[str, list[str]] = {}

    def add(self, name: str, address: str) -> None:
        known = [a for a in self._known.pop(name, []) if a != address]
        self._known[name] = [*known[-(self.per_account - 1):], address]
        while len(self._known) > self.max_accounts:
            del self._known[next(iter(self._known))]

    def knows(self, name: str, address: str) -> bool:
        return address in self._known.get(name, ())


@functools.cache
def _dummy_hash() -> str:
    """A hash no password matches, verified when a name does not exist, so that a wrong
    name takes as long to refuse as a wrong password and timing tells nobody which names
    have accounts."""
    return hash_password(secrets.token_urlsafe(24))


@functools.cache
def common_passwords() -> frozenset[str]:
    """The passwords registration refuses (common_passwords.txt, shipped with the
    package), lower-cased."""
    text = resources.files("pokerroom.gateway").joinpath("common_passwords.txt").read_text(encoding="utf-8")
    return frozenset(line.strip().lower() for line in text.splitlines() if line.strip() and line[0] != "#")


class Accounts:
    def __init__(
        self, store: Store, starting_balance: int, topup: int, registrations_per_hour: int = 10
    ) -> None:
        self.store = store
        self.starting_balance = starting_balance
        self.topup = topup
        self.failed_logins = RateLimit(5, 60.0)  # per name and address
        self.failed_from = RateLimit(20, 60.0)  # per address (shared addresses: more room)
        self.failed_account = RateLimit(10, 600.0)  # per name, from everywhere
        self.known = KnownAddresses()  # where each account logged in from: past failed_account
        self.registrations = RateLimit(registrations_per_hour, 3600.0)  # per address

    async def register(self, name: object, password: object, client: str = "?",
                       bot: object = False) -> tuple[Account, str]:
        """A new account and its first session; ``bot``: a program's account (true or false)."""
        name, password = check_name(name), check_password(password)
        if type(bot) is not bool:
            raise AuthError("bad_message", "bot must be true or false", 400)
        if password.lower() in common_passwords() or password.lower() == name.lower():
            raise AuthError("common_password", "that password is too common: choose another")
        if self.registrations.blocked(client):
            message = "too many new accounts from your address: try later"
            raise AuthError("too_many_registrations", message, 429)
        # counted now, before the waits, so that requests at once are counted (the accounts
        # made and their chips are what count: a refused one is taken back)
        self.registrations.hit(client)
        try:
            digest = await asyncio.to_thread(hash_password, password)
            account = await self.store.create_account(name, digest, self.starting_balance, bot=bot)
        except StoreError as e:
            self.registrations.refund(client)
            raise AuthError(e.code, str(e), 409) from None
        except BaseException:
            self.registrations.refund(client)
            raise
        self.known.add(name.lower(), client)
        return account, await self._session(account)

    async def login(self, name: object, password: object, client: str) -> tuple[Account, str]:
        """Check a name and password. Failures are limited per name and address, per
        address, and per name from everywhere (an address this account logged in from
        lately passes the last); a refused attempt counts nothing, so the owner gets in
        once the window has passed."""
        if type(name) is not str or type(password) is not str or len(password) > 128 or len(name) > 20:
            raise AuthError("bad_login", "wrong name or password", 401)
        who = name.lower()
        key = f"{who}|{client}"
        if (
            self.failed_logins.blocked(key)
            or self.failed_from.blocked(client)
            or (self.failed_account.blocked(who) and not self.known.knows(who, client))
        ):
            raise AuthError("too_many_attempts", "too many failed logins: wait a minute", 429)
        # counted as failed now, before the waits, so that guesses at once are all counted
        # (checked before they ran, each would pass); a login that succeeds takes it back
        counted = ((self.failed_logins, key), (self.failed_from, client), (self.failed_account, who))
        for limit, k in counted:
            limit.hit(k)
        try:
            account = await self.store.account_by_name(name)
            digest = account.password_hash if account is not None else _dummy_hash()
            ok = await asyncio.to_thread(verify_password, digest, password)
        except BaseException:  # not a failed guess: the database could not be read, say
            for limit, k in counted:
                limit.refund(k)
            raise
        if not ok or account is None:
            raise AuthError("bad_login", "wrong name or password", 401)
        for limit, k in counted:
            limit.refund(k)
        self.known.add(who, client)
        return account, await self._session(account)

    async def _session(self, account: Account) -> str:
        token = new_token()
        await self.store.create_session(account.id, token_hash(token), SESSION_SECONDS)
        return token

    async def from_token(self, token: str | None) -> Account | None:
        if not token or len(token) > 100:
            return None
        return await self.store.session_account(token_hash(token), SESSION_IDLE)

    async def logout(self, token: str, everywhere: bool = False) -> tuple[int, str] | None:
        """End the session of ``token`` (``everywhere``: all its account's); its account
        and token hash, or None when it was no live session."""
        if len(token) > 100:
            return None
        digest = token_hash(token)
        account_id = await self.store.delete_session(digest)
        if account_id is None:
            return None
        if everywhere:
            await self.store.delete_sessions_of(account_id)
        return account_id, digest

    async def daily_topup(self, account: Account) -> int:
        """A broke player (nothing on his balance or at tables) gets ``topup`` chips, once
        a day."""
        try:  # checked and granted in one transaction: requests at once grant once
            return await self.store.daily_topup(account.id, self.topup, 24 * 3600)
        except StoreError as e:
            status = {"not_broke": 409, "too_soon": 429}.get(e.code, 400)
            raise AuthError(e.code, str(e), status) from None
