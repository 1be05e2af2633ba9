"""How bus messages travel: in-process (``LocalTransport``, ``pokerroom serve``) or over NATS
(``NatsTransport``, nats.py). One interface, so the gateway's routing (gateway.py) and the
worker's side (tables.py) are written once.

- ``publish(subject, message)``: to every subscriber, in order, nothing waited for;
- ``subscribe(subject, handler)``: ``handler(message)`` for each message on the subject;
- ``serve(subject, handler)``: answer requests with ``await handler(message)``;
- ``request(subject, message, timeout)``: the answer of the subject's server, or
  ``NoResponders`` at once when nobody serves it, or ``BusTimeout``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

log = logging.getLogger("pokerroom.bus")

Handler = Callable[[Any], None]
Server = Callable[[Any], Awaitable[Any]]


class NoResponders(Exception):
    """Nobody serves the subject now (a table between owners)."""


class BusTimeout(Exception):
    """The server of a request did not answer in time."""


class BusDown(Exception):
    """The bus cannot be reached."""


class Subscription(Protocol):
    def unsubscribe(self) -> None: ...


class Transport(Protocol):
    name: str  # this process's name on the bus (a gateway's or worker's)

    def publish(self, subject: str, message: Any) -> None: ...

    def subscribe(self, subject: str, handler: Handler) -> Subscription: ...

    def serve(self, subject: str, handler: Server) -> Subscription: ...

    async def request(self, subject: str, message: Any, timeout: float) -> Any: ...

    async def ready(self) -> None:
        """Wait until the subscriptions asked for so far are in place."""

    async def close(self) -> None: ...


class _LocalSub:
    def __init__(self, table: dict[str, list[Any]], subject: str, item: Any) -> None:
        self._table, self._subject, self._item = table, subject, item

    def unsubscribe(self) -> None:
        items = self._table.get(self._subject)
        if items is not None and self._item in items:
            items.remove(self._item)
            if not items:
                del self._table[self._subject]


class LocalTransport:
    """The bus inside one process: messages are the objects themselves, delivered in the
    publisher's call (in order, as NATS delivers a publisher's messages)."""

    def __init__(self, name: str = "serve") -> None:
        self.name = name
        self._subs: dict[str, list[Handler]] = {}
        self._servers: dict[str, list[Server]] = {}

    def publish(self, subject: str, message: Any) -> None:
        for handler in tuple(self._subs.get(subject, ())):
            try:
                handler(message)
            except Exception:  # one subscriber's bug must not stop the publisher
                log.exception("a handler of %s failed", subject)

    def subscribe(self, subject: str, handler: Handler) -> Subscription:
        self._subs.setdefault(subject, []).append(handler)
        return _LocalSub(self._subs, subject, handler)

    def serve(self, subject: str, handler: Server) -> Subscription:
        self._servers.setdefault(subject, []).append(handler)
        return _LocalSub(self._servers, subject, handler)

    async def request(self, subject: str, message: Any, timeout: float) -> Any:
        servers = self._servers.get(subject)
        if not servers:
            raise NoResponders(subject)
        # in one process a table always answers (its task replies to every command it takes,
        # or its queue is refused when it stops): no timer per request
        return await servers[-1](message)

    async def ready(self) -> None:
        pass

    async def close(self) -> None:
        self._subs.clear()
        self._servers.clear()
