"""The load test's bots: a ``Bot`` that times its actions against the Acted events they
cause (``Meter``)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from pokerroom import outbound as o
from pokerroom.bots.client import Bot
from pokerroom.protocol import Act, ClientMessage


@dataclass
class Meter:
    """Send times of actions and arrivals of their Acted events, per table."""

    receivers: dict[str, int] = field(default_factory=dict)  # bots watching each table
    pending: dict[tuple[str, int], float] = field(default_factory=dict)  # (table, seat) -> sent
    arrivals: dict[tuple[str, int], list[Any]] = field(default_factory=dict)  # (table, version)
    latencies: list[float] = field(default_factory=list)
    measuring: bool = False
    unmatched: int = 0  # Acted events no bot's action explains (timeouts)

    def sent(self, table: str, seat: int | None) -> None:
        if seat is not None:
            self.pending[(table, seat)] = time.perf_counter()

    def acted(self, table: str, version: int, seat: int) -> None:
        key = (table, version)
        entry = self.arrivals.get(key)
        if entry is None:
            entry = [0, self.pending.pop((table, seat), None)]
            self.arrivals[key] = entry
        entry[0] += 1
        if entry[0] >= self.receivers.get(table, 1):
            del self.arrivals[key]
            if entry[1] is None:
                self.unmatched += 1
            elif self.measuring:
                self.latencies.append(time.perf_counter() - entry[1])


class LoadBot(Bot):
    """A Bot that timestamps its actions and the Acted events it receives, sits in the seat
    it is given (no collisions between bots) and buys in for the maximum."""

    def __init__(self, *args: Any, meter: Meter, gate: asyncio.Semaphore, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.meter = meter
        self.gate = gate
        self.connected = False
        self.preferred: int | None = None

    async def prepare(self) -> None:
        """Register (argon2: a few at a time) unless the account was seeded with a token, and
        read the table unless given, before any connection."""
        async with self.gate:
            await super().prepare()

    def on_connected(self) -> None:
        self.connected = True

    def sending(self, message: ClientMessage) -> None:
        if isinstance(message, Act):
            self.meter.sent(self.table, self.seat)

    def on_event(self, e: o.Event, version: int) -> None:
        if isinstance(e, o.Acted):
            self.meter.acted(self.table, version, e.player)
        super().on_event(e, version)

    def choose_seat(self, taken: set[int]) -> int | None:
        if self.preferred is not None and self.preferred not in taken:
            seat, self.preferred = self.preferred, None
            return seat
        return super().choose_seat(taken)

    def buy_in(self) -> int:
        return int(self.info["max_buy_in"])
