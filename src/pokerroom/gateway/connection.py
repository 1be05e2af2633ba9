"""A client connection as the gateway holds it, and its message budget.

``Connection`` is what the tables send to (the worker knows it only as a
``worker.viewer.Viewer``: a player and somewhere to write); ``TokenBucket`` is the rate
limit of one connection's messages (gateway/ws.py).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from pydantic import BaseModel


def _nowhere(text: str) -> None:
    pass


def _free(cost: float) -> None:
    pass


@dataclass(eq=False)
class Connection:
    """One client connection: who it is, what it watches, and ``write``, which sends one
    message's text at once (the transport buffers it; gateway/ws.py)."""

    player: str | None
    account_id: int | None
    write: Callable[[str], None] = _nowhere
    tables: set[str] = field(default_factory=set)  # the tables whose events it gets
    overflowed: bool = False  # it stopped reading: it is being closed, nothing more is sent
    # takes a share of its message budget for work done for it beyond one message (a replay)
    charge: Callable[[float], None] = _free

    def send(self, message: BaseModel | str) -> None:
        """Send a message (a model, or its JSON text already made)."""
        if not self.overflowed:
            self.write(message if type(message) is str else message.model_dump_json())  # type: ignore[union-attr]


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
