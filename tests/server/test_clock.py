"""A table task's clock (worker/clock.py): it wakes at the table's deadline or its next
hand, never for a hand while its table is being drained, and at once when released."""

from __future__ import annotations

import asyncio
import time

from pokerroom.worker.clock import Clock


def test_the_earlier_of_the_deadline_and_the_next_hand_wakes_it() -> None:
    deadline: list[float | None] = [None]
    clock = Clock(lambda: deadline[0], lambda: True)
    assert clock.wake_at() is None  # nothing to wait for: it sleeps until released
    clock.soon(5.0)
    at = clock.next_hand_at
    assert at is not None and clock.wake_at() == at
    clock.soon(1.0)  # a hand due already is not put off or brought forward
    assert clock.next_hand_at == at
    deadline[0] = at - 2
    assert clock.wake_at() == at - 2
    assert clock.due(at - 2) and not clock.hand_due(at - 2)
    assert clock.hand_due(at)


def test_a_draining_table_has_no_next_hand_and_wakes_when_undrained() -> None:
    clock = Clock(lambda: None, lambda: True)
    clock.soon(0.0)
    clock.draining = True
    assert clock.wake_at() is None and not clock.due(time.time() + 1)

    async def main() -> float:
        loop = asyncio.get_running_loop()
        loop.call_later(0.05, setattr, clock, "draining", False)
        started = time.monotonic()
        await asyncio.wait_for(clock.sleep(loop), 2.0)
        return time.monotonic() - started

    assert asyncio.run(main()) < 1.0  # woken by the setter, not by the 2 s guard
    assert clock.due(time.time())


def test_no_next_hand_while_a_hand_is_played_and_release_wakes_it() -> None:
    idle = [False]
    clock = Clock(lambda: None, lambda: idle[0])
    clock.soon(0.0)
    assert clock.next_hand_at is None  # a hand is being played: its end schedules the next

    async def main() -> None:
        loop = asyncio.get_running_loop()
        loop.call_later(0.05, clock.release)
        await asyncio.wait_for(clock.sleep(loop), 2.0)

    asyncio.run(main())
    idle[0] = True
    clock.soon(0.0)
    clock.stop()  # the table lost: no hand any more
    assert clock.next_hand_at is None
