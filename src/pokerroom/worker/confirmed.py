"""A table's writes of chips, each done until the database answers for certain: while
one is not confirmed the table is paused (its watchers told, its commands refused by the
runner, its clocks stopped), and when it is, the table's clocks move on by the pause."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from pydantic import BaseModel

from pokerroom import protocol as p
from pokerroom.store import StoreError
from pokerroom.table import Table
from pokerroom.worker.events import Published

log = logging.getLogger("pokerroom.table")
_T = TypeVar("_T")
PAUSE_RETRY = (0.05, 2.0)  # seconds between tries of a write not confirmed: the first, the longest
PAUSE_ALERT = 60.0  # seconds paused after which the log says so as an error


class ConfirmedWrites:
    """The writes of one table (``name``): ``notice`` tells its watchers a message outside
    the numbering (paused, resumed); ``lose`` stops the table when another worker holds
    it (a write refused as 'fenced')."""

    def __init__(self, name: str, table: Table, notice: Callable[[BaseModel], None],
                 lose: Callable[[], None]) -> None:
        self.name = name
        self.table = table
        self._notice = notice
        self._lose = lose
        self.paused: str | None = None  # what the database has not confirmed, while it has not
        self.resumed: list[Published] = []  # what the table said when its clocks moved on, not sent yet

    async def write(self, what: str, write: Callable[..., Awaitable[_T]]) -> _T:
        """Do a write of chips (``write(again=...)``) until the database answers for certain.

        The table has changed in memory already, or is about to on the answer: it must
        never run ahead of what is committed. A refusal (StoreError: a balance too small)
        is an answer. Any other failure leaves it unknown whether the write was committed
        (the connection may have dropped after the commit), so the table pauses: it tells
        its watchers, refuses commands ('table_paused'), stops its clock, and asks again
        with ``again=True`` (the store then finds a committed first try by its key and
        writes nothing) until the database answers; then it resumes where it was, every
        clock moved on by the pause (said by the runner with ``resumed``)."""
        started: float | None = None  # when it paused
        delay, alerted = PAUSE_RETRY[0], False
        try:
            while True:
                try:
                    return await write(again=started is not None)
                except StoreError as e:
                    if e.code == "fenced":  # another worker owns the table now: this one is done
                        self._lose()
                    raise
                except Exception as e:
                    log.warning("table %s: %s was not confirmed (%s)", self.name, what, e)
                if started is None:
                    started, self.paused = time.time(), what
                    self._notice(p.TablePaused(
                        table=self.name,
                        message=f"paused: the room could not save {what}; it goes on as soon as it can, "
                        "and no chip is lost",
                    ))
                await asyncio.sleep(delay)
                delay = min(delay * 2, PAUSE_RETRY[1])
                if not alerted and time.time() - started > PAUSE_ALERT:  # for the operator's eyes
                    alerted = True
                    log.error("table %s: paused for over %g s: %s is still not confirmed", self.name,
                              PAUSE_ALERT, what)
        finally:
            if started is not None:
                self.paused = None
                paused_for = time.time() - started
                self.resumed += self.table.resume(paused_for)  # its clocks move on now, said soon
                self._notice(p.TableResumed(table=self.name, paused_for=round(paused_for, 3)))
                log.warning("table %s: resumed after %.1f s", self.name, paused_for)
