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
from heapq import merge
from itertools import islice

LOG_SIZE = 1500  # events kept per table for clients that reconnect (20-30 hands at 6-max)
CHAT_SIZE = 100  # chat lines kept per table, apart from the events
REPLAY_COST = 1 / 50  # of the connection's message budget, per event replayed
NOBODY = "\x00nobody"  # the owner of a private event of a seat left empty: nobody sees it


class _Log:
    """One log (the events, or the chat) as parallel deques of numbers and strings: no
    object per entry that the garbage collector has to walk. A room's logs hold about a
    million entries; kept as an object each they were most of what survived each young
    collection, which stopped the event loop for 100-200 ms every 10-20 s at 1,000
    tables (docs/scaling.md)."""

    __slots__ = ("owners", "private", "public", "size", "versions")

    def __init__(self, size: int) -> None:
        self.versions: deque[int] = deque()
        self.public: deque[str] = deque()  # the event's item as everybody sees it
        self.owners: deque[str | None] = deque()  # the player a private event belongs to
        self.private: deque[str | None] = deque()  # and his item
        self.size = size

    def add(self, version: int, public: str, owner: str | None, private: str | None) -> int:
        """Keep an entry; the version dropped to make room for it, else 0."""
        dropped = 0
        if len(self.versions) >= self.size:
            dropped = self.versions.popleft()
            self.public.popleft()
            self.owners.popleft()
            self.private.popleft()
        self.versions.append(version)
        self.public.append(public)
        self.owners.append(owner)
        self.private.append(private)
        return dropped

    def after(self, since: int, viewer: str | None) -> list[tuple[int, str]]:
        """(version, item as ``viewer`` may see it) of the entries after ``since``."""
        versions = self.versions
        first = len(versions)
        while first and versions[first - 1] > since:
            first -= 1
        return [
            (version, private if owner is not None and owner == viewer else public)  # type: ignore[misc]
            for version, public, owner, private in zip(
                islice(versions, first, None), islice(self.public, first, None),
                islice(self.owners, first, None), islice(self.private, first, None), strict=True)
        ]


class EventLog:
    def __init__(self, size: int = LOG_SIZE, chat_size: int = CHAT_SIZE) -> None:
        self._logs = (_Log(size), _Log(chat_size))  # events, chat
        self.dropped = 0  # the highest version dropped from either log

    def add(self, version: int, public: str, owner: str | None = None, private: str | None = None,
            chat: bool = False) -> None:
        """Keep event ``version``: its item as everybody sees it, and for a private event
        its owner and his item."""
        dropped = self._logs[chat].add(version, public, owner, private)
        if dropped > self.dropped:
            self.dropped = dropped

    def covers(self, since: int) -> bool:
        """Whether every event after version ``since`` is still here."""
        return since >= self.dropped

    def since(self, since: int, viewer: str | None) -> list[str]:
        """The items after version ``since``, in order, as ``viewer`` may see them."""
        fresh = [log.after(since, viewer) for log in self._logs]
        return [item for _, item in merge(*fresh)]

    def __len__(self) -> int:
        return len(self._logs[0].versions) + len(self._logs[1].versions)
