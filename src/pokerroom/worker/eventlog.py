"""A table's recent events, kept as the texts its watchers were sent, for the clients that
come back and ask for what they missed (``subscribe`` with ``since``; docs/protocol.md).

Each event is encoded once, when it is published: its public text, and for a private
event (a hole card) its owner's text too. A replay joins texts; it encodes nothing, so a
client that subscribes again and again costs the table little (issue 16, item 4), and
the connection is charged for the events it was sent (``REPLAY_COST``).

Chat lines are kept apart, in a smaller log of their own, so that talk never pushes the
hand's events out of the reconnect window. A replay is whole or not at all: it is offered
only when nothing after ``since`` was dropped from either log; else the client gets a
snapshot.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from heapq import merge

LOG_SIZE = 1500  # events kept per table for clients that reconnect (20-30 hands at 6-max)
CHAT_SIZE = 100  # chat lines kept per table, apart from the events
REPLAY_COST = 1 / 50  # of the connection's message budget, per event replayed
NOBODY = "\x00nobody"  # the owner of a private event of a seat left empty: nobody sees it


@dataclass(slots=True)
class Entry:
    version: int
    public: str  # the event's item as everybody sees it
    owner: str | None = None  # the player a private event belongs to
    private: str | None = None  # and his item

    def text_for(self, viewer: str | None) -> str:
        return self.private if self.owner is not None and viewer == self.owner else self.public  # type: ignore[return-value]


class EventLog:
    def __init__(self, size: int = LOG_SIZE, chat_size: int = CHAT_SIZE) -> None:
        self._logs: tuple[deque[Entry], deque[Entry]] = (deque(), deque())  # events, chat
        self._sizes = (size, chat_size)
        self.dropped = 0  # the highest version dropped from either log

    def add(self, entry: Entry, chat: bool = False) -> None:
        log, size = self._logs[chat], self._sizes[chat]
        if len(log) >= size:
            self.dropped = max(self.dropped, log.popleft().version)
        log.append(entry)

    def covers(self, since: int) -> bool:
        """Whether every event after version ``since`` is still here."""
        return since >= self.dropped

    def since(self, since: int, viewer: str | None) -> list[str]:
        """The items after version ``since``, in order, as ``viewer`` may see them."""
        fresh = [[e for e in log if e.version > since] for log in self._logs
                 if log and log[-1].version > since]
        return [e.text_for(viewer) for e in merge(*fresh, key=lambda e: e.version)]

    def __len__(self) -> int:
        return len(self._logs[0]) + len(self._logs[1])
