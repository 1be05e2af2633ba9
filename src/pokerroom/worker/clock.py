"""A table task's clock: when it wakes (a command queued, the acting player's deadline,
the next hand due) and whether a hand may be dealt (not while its worker drains it).

The runner (runner.py) asks it ``sleep`` when its queue is empty, ``due`` after each
step, ``soon`` when a hand may follow; the table's own deadline (an action clock, a sit
out's time) is the table's, read at each call. ``release`` wakes the task at once: a
command queued, the table lost or closing, a draining table dealing again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable


def release(waiter: asyncio.Future[None] | None) -> None:
    """Wake a table task sleeping on ``waiter`` (a command came, or its clock is due)."""
    if waiter is not None and not waiter.done():
        waiter.set_result(None)


class Clock:
    def __init__(self, deadline: Callable[[], float | None], idle: Callable[[], bool]) -> None:
        self._deadline = deadline  # the table's next deadline (its action clock), if any
        self._idle = idle  # whether no hand is being played
        self.next_hand_at: float | None = None
        self._draining = False
        self._waiter: asyncio.Future[None] | None = None  # set while the task sleeps

    @property
    def draining(self) -> bool:
        """No new hand is dealt (its worker is stopping, or hands the table over)."""
        return self._draining

    @draining.setter
    def draining(self, value: bool) -> None:
        self._draining = value
        if not value:  # dealing again (the worker that came went away): a hand may be due
            self.release()

    def release(self) -> None:
        """Wake the task if it sleeps."""
        release(self._waiter)

    def soon(self, delay: float = 1.0) -> None:
        """A hand may be dealt ``delay`` seconds from now (unless one is due sooner)."""
        if self._idle() and self.next_hand_at is None:
            self.next_hand_at = time.time() + delay

    def stop(self) -> None:
        """No hand any more (the table is lost): wake the task to end."""
        self.next_hand_at = None
        self.release()

    def wake_at(self) -> float | None:
        deadline = self._deadline()
        next_hand_at = None if self._draining else self.next_hand_at  # while draining: no wake-up for it
        if deadline is None or next_hand_at is None:
            return next_hand_at if deadline is None else deadline
        return min(deadline, next_hand_at)

    def due(self, now: float) -> bool:
        """Whether the table's deadline or its next hand has come at ``now``."""
        deadline = self._deadline()
        if deadline is not None and now >= deadline:
            return True
        return self.hand_due(now)

    def hand_due(self, now: float) -> bool:
        at = self.next_hand_at
        return at is not None and not self._draining and now >= at and self._idle()

    async def sleep(self, loop: asyncio.AbstractEventLoop) -> None:
        """Until ``release`` or the clock is due (at once, after letting the other tasks run,
        when it is due already)."""
        wake = self.wake_at()
        delay = None if wake is None else wake - time.time()
        if delay is not None and delay <= 0:
            await asyncio.sleep(0)
            return
        self._waiter = waiter = loop.create_future()
        timer = None if delay is None else loop.call_later(delay, release, waiter)
        try:
            await waiter
        finally:
            self._waiter = None
            if timer is not None:
                timer.cancel()
