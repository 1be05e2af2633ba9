"""How bus messages travel: in-process (``LocalTransport``, ``pokerroom serve``) or over NATS
(``NatsTransport``, nats.py). One interface, so the gateway's routing (gateway.py) and the
worker's side (tables.py) are written once.

- ``publish(subject, message)``: to every subscriber, in order, nothing waited for;
- ``subscribe(subject, handler)``: ``handler(message)`` for each message on the subject;
- ``serve(subject, handler)``: ``handler(message, answer)`` for each request, which calls
  ``answer(reply)`` at once or later;
- ``call(subject, message, answered, failed, timeout)``: ``answered(reply)``, or
  ``failed(error)``: ``NoResponders`` at once when nobody serves the subject, ``BusTimeout``,
  ``BusDown``; ``request`` is the same awaited.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, Protocol

log = logging.getLogger("pokerroom.bus")

Handler = Callable[[Any], None]
Answer = Callable[[Any], None]
Server = Callable[[Any, Answer], None]  # a request and where its answer goes (at once or later)
Failed = Callable[[Exception], None]


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

    def call(self, subject: str, message: Any, answered: Answer, failed: Failed, timeout: float) -> None:
        """A request: ``answered(answer)``, or ``failed(NoResponders | BusTimeout | BusDown)``."""

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

    def call(self, subject: str, message: Any, answered: Answer, failed: Failed, timeout: float) -> None:
        # in one process a table always answers (its task replies to every command it takes,
        # or its queue is refused when it stops): no timer, no task, no future per request
        servers = self._servers.get(subject)
        if not servers:
            failed(NoResponders(subject))
            return
        servers[-1](message, answered)

    async def request(self, subject: str, message: Any, timeout: float) -> Any:
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.call(subject, message, done.set_result, done.set_exception, timeout)
        return await done

    async def ready(self) -> None:
        pass

    async def close(self) -> None:
        self._subs.clear()
        self._servers.clear()
