"""Passwords and session tokens as the room keeps them: argon2id hashes of passwords, and
the SHA-256 of each session token (the database never holds a live token, so a stolen
database gives no live sessions). Shared by the gateway's logins (gateway/auth.py) and the
store's bulk accounts for load tests (``Store.create_accounts_with_sessions``), so neither
reaches into the other's private names.
"""

from __future__ import annotations

import hashlib
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

# argon2id; moderate cost so a login stays well under a second on a small machine
_HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)


def hash_password(password: str) -> str:
    """The argon2id hash of ``password`` (tens of milliseconds of CPU: run it off the
    event loop)."""
    return _HASHER.hash(password)


def verify_password(digest: str, password: str) -> bool:
    """Whether ``password`` matches ``digest``; a digest that is no argon2 hash matches
    nothing."""
    try:
        return _HASHER.verify(digest, password)
    except (VerifyMismatchError, VerificationError, InvalidHashError):
        return False


def new_token() -> str:
    """A new session token: 32 random bytes, URL-safe text."""
    return secrets.token_urlsafe(32)


def token_hash(token: str) -> str:
    """What the database keeps of a session token."""
    return hashlib.sha256(token.encode()).hexdigest()
