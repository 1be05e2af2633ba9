"""What the commands share: argument types, the database check, the garbage collector's tuning."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

Handler = Callable[[argparse.Namespace], int]
if TYPE_CHECKING:  # the subparsers' class is generic to the type checker only
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    Subparsers = argparse._SubParsersAction


def int_in(low: int, high: int | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low or (high is not None and value > high):
            span = f"at least {low}" if high is None else f"from {low} to {high}"
            raise argparse.ArgumentTypeError(f"{value} is out of range: must be {span}")
        return value

    return parse


def stakes(text: str) -> tuple[int, int]:
    small, sep, big = text.partition("/")
    if not (sep and small.isdigit() and big.isdigit() and 0 < int(small) <= int(big)):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not stakes like 1/2 (small blind/big blind, or stud's small bet/big bet; "
            "whole chips, 0 < small <= big)"
        )
    return int(small), int(big)



def tune_gc() -> None:
    """Fewer, cheaper garbage collections for the long-running room and bot processes:
    with the default thresholds, collections over a room's many live objects stalled the
    event loop for hundreds of ms (p99 270 ms at 250 tables, 87 ms with these;
    docs/performance.md). Objects are still freed by reference counting as they go."""
    import gc

    gc.set_threshold(100_000, 50, 1000)



def check_database(database: str, schema: str | None) -> str | None:
    """Open the database and run its migrations before serving; what went wrong, if anything."""
    import asyncio

    from pokerroom.store import Store, StoreError

    async def check() -> None:
        store = Store(database, schema)
        try:
            await store.migrate()
        finally:
            await store.close()

    try:
        asyncio.run(check())
    except StoreError as e:
        return str(e)
    except Exception as e:  # unreachable server, unwritable file, ...
        return f"cannot use the database {database!r}: {type(e).__name__}: {str(e).splitlines()[0][:200]}"
    return None

