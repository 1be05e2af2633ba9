"""The bus over NATS (natsclient.py, the core protocol on an asyncio Protocol): the same
interface as ``LocalTransport`` (transport.py), messages encoded by messages.encode.

Publishing is not awaited by its callers (a table publishes in the middle of its work):
what is published in one turn of the event loop goes out in one write, in order (a
request's answer after what its handling published). The connection reconnects for ever
(a restarted nats-server is found again, the subscriptions renewed); while it is down,
requests fail with ``BusDown`` and what is published is kept up to the client's pending
limit, then dropped (a gateway resyncs its clients from snapshots when it sees the gap).
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

from pokerroom.bus.messages import decode, encode
from pokerroom.bus.natsclient import NatsClient
from pokerroom.bus.transport import (
    Answer,
    BusDown,
    Failed,
    Handler,
    Server,
    Subscription,
)

log = logging.getLogger("pokerroom.bus")


class _NatsSub:
    __slots__ = ("_client", "sid", "subject")

    def __init__(self, client: NatsClient, subject: str, sid: int) -> None:
        self._client, self.subject, self.sid = client, subject, sid

    def unsubscribe(self) -> None:
        self._client.unsubscribe(self.sid)


class NatsTransport:
    def __init__(self, client: NatsClient, name: str) -> None:
        self.name = name
        self.client = client
        self._subscribed = False  # one was asked for since the last round trip (ready)

    @classmethod
    async def connect(cls, url: str, name: str) -> NatsTransport:
        try:
            client = NatsClient(url, name)
        except ValueError as e:
            raise BusDown(str(e)) from None
        await client.connect(timeout=3)
        return cls(client, name)

    # ------------------------------------------------------------------ out

    def publish(self, subject: str, message: Any) -> None:
        try:
            self.client.publish(subject, encode(message))
        except (BusDown, ValueError) as e:  # closed, too big, or the buffer full while disconnected
            log.warning("NATS: a message on %s was dropped (%s)", subject, e)

    def call(self, subject: str, message: Any, answered: Answer, failed: Failed, timeout: float) -> None:
        def on_reply(data: bytes) -> None:
            try:
                reply = decode(data)
            except ValueError:
                log.warning("NATS: an answer on %s could not be read", subject)
                return
            answered(reply)

        if self._subscribed:  # the subscriptions asked for before it are in place first
            async def after_ready() -> None:
                await self.ready()
                self.client.request(subject, encode(message), on_reply, failed, timeout)

            self.client._loop.create_task(after_ready())
            return
        self.client.request(subject, encode(message), on_reply, failed, timeout)

    async def request(self, subject: str, message: Any, timeout: float) -> Any:
        done = self.client._loop.create_future()

        def failed(error: Exception) -> None:
            if not done.done():
                done.set_exception(error)

        def answered(reply: Any) -> None:
            if not done.done():
                done.set_result(reply)

        self.call(subject, message, answered, failed, timeout)
        return await done

    # ------------------------------------------------------------------ in

    def subscribe(self, subject: str, handler: Handler) -> Subscription:
        def on_message(reply: str, data: bytes, status: int) -> None:
            try:
                message = decode(data)
            except ValueError:
                log.warning("NATS: a message on %s could not be read", subject)
                return
            handler(message)

        return self._subscribe(subject, on_message)

    def serve(self, subject: str, handler: Server) -> Subscription:
        client = self.client

        def on_request(reply: str, data: bytes, status: int) -> None:
            try:
                message = decode(data)
            except ValueError:
                log.warning("NATS: a request on %s could not be read", subject)
                return

            def answer(response: Any) -> None:  # queued after what its handling published
                if reply:
                    try:
                        client.publish(reply, encode(response))
                    except (BusDown, ValueError) as e:
                        log.warning("NATS: an answer on %s was dropped (%s)", subject, e)

            handler(message, answer)

        return self._subscribe(subject, on_request)

    def _subscribe(self, subject: str, callback: Any) -> Subscription:
        self._subscribed = True
        return _NatsSub(self.client, subject, self.client.subscribe(subject, callback))

    async def ready(self) -> None:
        """Wait until the subscriptions asked for so far are made on the server (a round
        trip to it, only when one was asked for since the last: not one per command)."""
        if self._subscribed:
            self._subscribed = False
            with contextlib.suppress(Exception):
                await self.client.flush(timeout=5)

    async def close(self) -> None:
        await self.client.close()
