"""Both roles in one process (``pokerroom serve``): a worker that owns every table of the
room, and the gateway's router, over the in-process transport."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from pokerroom.bus import PREFIX
from pokerroom.bus.gateway import Router
from pokerroom.bus.tables import TableHost
from pokerroom.bus.transport import LocalTransport
from pokerroom.config import RoomConfig
from pokerroom.store import Store
from pokerroom.worker.room import Worker


@asynccontextmanager
async def in_process(config: RoomConfig, store: Store) -> AsyncIterator[Router]:
    transport = LocalTransport("serve")
    host = TableHost(transport, PREFIX, "serve")
    router = Router(transport, PREFIX, "serve")
    router.start()
    worker = Worker(config, store, "serve", host)
    await worker.start()
    host.publish_lobby()  # every table in the lobby before the room says it is ready
    host.start()
    try:
        yield router
    finally:
        await worker.stop()
        await host.stop()
        await router.stop()
        await transport.close()
