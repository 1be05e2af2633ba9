"""The event loop the room's processes run on: uvloop's when it is installed (uvicorn's
standard extras bring it, and uvicorn runs the gateway on it), else asyncio's own. Its
socket writes and timers cost about half the CPU: it matters most to a worker, which
publishes every table's events, and to the load tester's thousands of bots. And ``cancel``,
how a service stops its background task."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on the fastest loop at hand."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)


async def cancel(task: asyncio.Task[Any] | None) -> None:
    """Cancel ``task`` (None: nothing to stop) and wait until it has ended."""
    if task is not None:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
