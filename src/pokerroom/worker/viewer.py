"""What a table needs of the side that holds the clients: the worker's half of the bus
(bus.py). The worker never imports the gateway; a gateway's connection is, to a table, a
``Viewer``: the player it belongs to and somewhere to send an encoded message. A command's
answer goes back through a ``Reply``, so that the side that submitted it (today the
gateway's socket, next a NATS reply subject) decides what to do with it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeAlias

from pydantic import BaseModel

from pokerroom import protocol as p


class Viewer(Protocol):
    """One client connection as a table sees it."""

    @property
    def player(self) -> str | None:
        """The logged-in player (None: an anonymous observer)."""

    @property
    def account_id(self) -> int | None:
        """His account, whose chips a buy-in takes."""

    @property
    def tables(self) -> set[str]:
        """The tables whose events it gets: a table adds and removes itself; the bus
        reads it when the connection goes."""

    def send(self, message: BaseModel | str) -> None:
        """Send one message: a model, or its JSON text already made."""

    def charge(self, cost: float) -> None:
        """Charge work done for it beyond one message (a replay) to its message budget."""


# what a command is answered with: ok, a typed error, or (previous_hand) what it asked for
Answer: TypeAlias = p.Ok | p.Error | p.PreviousHandRecord
Reply: TypeAlias = Callable[[Answer], None]
OK = p.Ok()  # the answer to most commands (no id): one object, so its text is made once
OK_TEXT = OK.model_dump_json()


def no_reply(answer: Answer) -> None:
    """For a command nobody waits on."""
