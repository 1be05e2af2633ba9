"""What a table needs of the side that holds the clients: the worker's half of the bus
(pokerroom.bus). The worker never imports the gateway or the bus; the connection a command
comes from is, to a table, a ``Viewer``: a key, the player and somewhere to send what the
command makes for it alone (a replay, a snapshot). A command's answer goes back through a
``Reply``. What a table publishes (each batch of events, its players' own views of it)
goes to its ``Outlet``, which the bus gives it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Protocol, TypeAlias

from pydantic import BaseModel

from pokerroom import protocol as p


class Viewer(Protocol):
    """One client connection as a table sees it."""

    @property
    def key(self) -> Hashable:
        """Which connection (its gateway's name and its number there)."""

    @property
    def player(self) -> str | None:
        """The logged-in player (None: an anonymous observer)."""

    @property
    def account_id(self) -> int | None:
        """His account, whose chips a buy-in takes."""

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


@dataclass(slots=True)
class PlayerPart:
    """One batch as one player sees it: his events text (his hole cards in it), and, when
    he wants them, his snapshot and his ``your_turn``."""

    account_id: int
    events: str | None
    snapshot: str | None = None
    turn: str | None = None


class Outlet(Protocol):
    """Where a table publishes (the bus's side of the worker: pokerroom.bus.tables)."""

    def batch(self, table: str, epoch: int, prev: int, version: int, events: str | None,
              snapshot: str | None, players: dict[str, PlayerPart]) -> None:
        """One batch of events, versions ``prev`` + 1 to ``version``: ``events`` for
        everybody (``snapshot`` the observers'), ``players`` each his own (he gets nothing
        of the public part)."""

    def notice(self, table: str, epoch: int, text: str) -> None:
        """A message for every watcher, outside the numbering (the table paused, resumed)."""

    def to_player(self, account_id: int, text: str) -> None:
        """A message for a player wherever he is (a seat offered him from the waiting list)."""

    def lobby_changed(self, table: str) -> None:
        """The table's lobby line changed."""


class NoOutlet:
    """A table nobody hosts yet: what it publishes goes nowhere."""

    def batch(self, table: str, epoch: int, prev: int, version: int, events: str | None,
              snapshot: str | None, players: dict[str, PlayerPart]) -> None:
        pass

    def notice(self, table: str, epoch: int, text: str) -> None:
        pass

    def to_player(self, account_id: int, text: str) -> None:
        pass

    def lobby_changed(self, table: str) -> None:
        pass
