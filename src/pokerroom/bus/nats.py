"""The bus over NATS (nats-py): the same interface as ``LocalTransport`` (transport.py),
messages JSON-encoded (messages.encode).

Publishing is not awaited by its callers (a table publishes in the middle of its work):
messages are queued in order and one task hands them to the client, which writes them in
its own buffered flushes. The connection reconnects for ever (a restarted nats-server is
found again; subscriptions are renewed by the client); while it is down, requests fail
with ``BusDown`` and what is published is dropped after the client's pending buffer
fills (a gateway resyncs its clients from snapshots when it sees the gap).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from typing import Any

import nats
from nats import errors as nats_errors
from nats.aio.client import Client
from nats.aio.msg import Msg

from pokerroom.bus.messages import decode, encode
from pokerroom.bus.transport import (
    Answer,
    BusDown,
    BusTimeout,
    Failed,
    Handler,
    NoResponders,
    Server,
    Subscription,
)

log = logging.getLogger("pokerroom.bus")


class _NatsSub:
    def __init__(self, transport: NatsTransport, subject: str) -> None:
        self._transport, self.subject = transport, subject
        self.sub: Any = None
        self.cancelled = False

    def unsubscribe(self) -> None:
        self.cancelled = True
        if self.sub is not None:
            sub, self.sub = self.sub, None
            self._transport._spawn(sub.unsubscribe())


class NatsTransport:
    def __init__(self, client: Client, name: str) -> None:
        self.name = name
        self.client = client
        self._out: deque[tuple[str, bytes]] = deque()
        self._sender: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._starting: set[asyncio.Task[Any]] = set()  # subscriptions being made
        self._subscribed = False  # one was asked for since the last round trip (ready)
        # made in its loop (connect); kept, as asking for it costs a getpid call on Python 3.11
        self._loop = asyncio.get_running_loop()

    @classmethod
    async def connect(cls, url: str, name: str) -> NatsTransport:
        async def quiet(e: Exception) -> None:
            log.warning("NATS: %s", e)

        try:
            client = await nats.connect(
                url, name=name, max_reconnect_attempts=-1, reconnect_time_wait=0.5,
                connect_timeout=3, error_cb=quiet, allow_reconnect=True,
                pending_size=64 * 1024 * 1024,
            )
        except Exception as e:
            raise BusDown(f"cannot reach NATS at {url}: {e}") from None
        return cls(client, name)

    # ------------------------------------------------------------------ out

    def publish(self, subject: str, message: Any) -> None:
        self._queue(subject, encode(message))

    def _queue(self, subject: str, data: bytes) -> None:
        """Out in the order queued: a request's answer after what its handling published."""
        self._out.append((subject, data))
        if self._sender is None or self._sender.done():
            self._sender = self._loop.create_task(self._send())

    async def _send(self) -> None:
        out, client = self._out, self.client
        while out:
            subject, data = out.popleft()
            try:
                await client.publish(subject, data)
            except Exception as e:  # closed, or the buffer full while disconnected: dropped
                log.warning("NATS: a message on %s was dropped (%s)", subject, e)

    def call(self, subject: str, message: Any, answered: Answer, failed: Failed, timeout: float) -> None:
        async def ask() -> None:
            await self.ready()  # the subscriptions asked for before it are in place first
            try:
                reply = await self.request(subject, message, timeout)
            except (NoResponders, BusTimeout, BusDown) as e:
                failed(e)
                return
            answered(reply)

        self._spawn(ask())

    async def request(self, subject: str, message: Any, timeout: float) -> Any:
        try:
            reply = await self.client.request(subject, encode(message), timeout=timeout)
        except nats_errors.NoRespondersError:
            raise NoResponders(subject) from None
        except nats_errors.TimeoutError:
            raise BusTimeout(subject) from None
        except (nats_errors.ConnectionClosedError, nats_errors.OutboundBufferLimitError,
                nats_errors.ConnectionReconnectingError) as e:
            raise BusDown(str(e)) from None
        return decode(reply.data)

    # ------------------------------------------------------------------ in

    def subscribe(self, subject: str, handler: Handler) -> Subscription:
        async def on_message(msg: Msg) -> None:
            try:
                message = decode(msg.data)
            except Exception:
                log.warning("NATS: a message on %s could not be read", msg.subject)
                return
            try:
                handler(message)
            except Exception:
                log.exception("a handler of %s failed", msg.subject)

        return self._subscribe(subject, on_message)

    def serve(self, subject: str, handler: Server) -> Subscription:
        async def on_request(msg: Msg) -> None:
            try:
                message = decode(msg.data)
            except Exception:
                log.warning("NATS: a request on %s could not be read", msg.subject)
                return
            reply = msg.reply

            def answer(response: Any) -> None:  # queued after what its handling published
                if reply:
                    self._queue(reply, encode(response))

            try:
                handler(message, answer)
            except Exception:
                log.exception("a request on %s failed", msg.subject)

        return self._subscribe(subject, on_request)

    def _subscribe(self, subject: str, callback: Any) -> Subscription:
        handle = _NatsSub(self, subject)

        async def start() -> None:
            try:
                sub = await self.client.subscribe(subject, cb=callback, pending_msgs_limit=65536,
                                                  pending_bytes_limit=256 * 1024 * 1024)
            except Exception as e:
                log.warning("NATS: could not subscribe to %s (%s)", subject, e)
                return
            if handle.cancelled:
                await sub.unsubscribe()
            else:
                handle.sub = sub

        task = asyncio.get_running_loop().create_task(start())
        self._subscribed = True
        self._starting.add(task)
        task.add_done_callback(self._starting.discard)
        return handle

    async def ready(self) -> None:
        """Wait until the subscriptions asked for so far are made on the server (a round
        trip to it, only when one was asked for since the last: not one per command)."""
        if self._starting:
            await asyncio.gather(*self._starting, return_exceptions=True)
        if self._subscribed:
            self._subscribed = False
            with contextlib.suppress(Exception):
                await self.client.flush(timeout=5)

    def _spawn(self, coro: Any) -> None:
        task = self._loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        if self._sender is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._sender, 2)
        with contextlib.suppress(Exception):
            await self.client.drain()
        with contextlib.suppress(Exception):
            await self.client.close()
