"""Injected database failures, for the room's fault tests (and an operator's rehearsal).

``POKERROOM_FAULTS="rate=0.3,seed=7,after=5,for=20"`` makes the store's write
transactions fail, each with probability ``rate`` while the window is open (from ``after``
seconds after the store was made, for ``for`` seconds; the whole life when not given; with
``when=PATH``, only while the file PATH exists, so a test can switch them on and off):
half of them before the commit (rolled back), half after it (committed, but the caller
hears a failure, as when the connection drops while the commit's answer is on its way).
Unset, the store makes no ``Faults`` and pays nothing. A real database that fails gives
the same two cases; the table must come through both without moving a chip twice
(worker/runner.py, ``TableRunner._write``).
"""

from __future__ import annotations

import logging
import os
import random
import time

VARIABLE = "POKERROOM_FAULTS"
log = logging.getLogger("pokerroom.faults")


class InjectedFault(ConnectionError):
    """A write failed on purpose (``Faults``); the store's callers see a connection error."""


class Faults:
    def __init__(
        self, rate: float, seed: int = 0, after: float = 0.0, length: float = float("inf"), when: str = ""
    ) -> None:
        if not 0.0 <= rate <= 1.0:
            raise ValueError(f"a fault rate is between 0 and 1, not {rate}")
        self.rate = rate
        self._random = random.Random(seed)  # failures to test with, not secrets
        self.start = time.monotonic() + after
        self.end = self.start + length
        self.when = when
        self.injected = {"before": 0, "after": 0}

    @classmethod
    def from_environment(cls) -> Faults | None:
        """The faults ``POKERROOM_FAULTS`` asks for, or None when it is unset or empty."""
        spec = os.environ.get(VARIABLE, "").strip()
        if not spec:
            return None
        fields: dict[str, str] = {}
        for part in spec.split(","):
            key, _, value = part.partition("=")
            if key.strip() not in ("rate", "seed", "after", "for", "when") or not value:
                raise ValueError(f"{VARIABLE}: expected rate=R,seed=S,after=A,for=F,when=PATH, not {spec!r}")
            fields[key.strip()] = value.strip()
        return cls(
            float(fields.get("rate", 0.1)),
            int(fields.get("seed", 0)),
            float(fields.get("after", 0.0)),
            float(fields.get("for", "inf")),
            fields.get("when", ""),
        )

    def draw(self) -> str | None:
        """Whether the transaction starting now is to fail, and where: 'before' or 'after'
        its commit (an even chance), or None."""
        now = time.monotonic()
        if not self.start <= now < self.end or (self.when and not os.path.exists(self.when)):
            return None
        if self._random.random() >= self.rate:
            return None
        return "before" if self._random.random() < 0.5 else "after"

    def fail(self, when: str) -> None:
        """Raise the failure ``draw`` chose, at its place."""
        self.injected[when] += 1
        log.warning("injected a database failure %s the commit", when)
        raise InjectedFault(f"injected database failure {when} the commit")
