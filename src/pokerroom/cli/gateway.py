"""``pokerroom gateway``: the room's HTTP API, the browser client and /ws, with the tables
reached over NATS (their workers are other processes: ``pokerroom worker``)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from pokerroom.cli.args import Subparsers, tune_gc
from pokerroom.cli.serve import add_gateway_options, room_setup

LOBBY_WAIT = 4.0  # seconds a starting gateway waits for the workers' lobby lines


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "gateway", help="run a gateway of a room spread over processes (NATS)",
        description="Serve the room's HTTP API, browser client and WebSocket on HOST:PORT; the tables "
        "are the workers' (pokerroom worker), reached over NATS. Holds connections and sessions, no "
        "table state: any number of gateways may serve one room (docs/deploy.md).",
    )
    add_gateway_options(p)
    add_bus_options(p)
    p.set_defaults(func=_gateway, parser=p)


def add_bus_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--nats", default=None, metavar="URL",
                   help="the NATS server (nats://127.0.0.1:4222, or $POKERROOM_NATS_URL)")
    p.add_argument("--name", default=None, help="this process's name in the room, unique (host-pid)")
    p.add_argument("--bus-prefix", default="room", metavar="TOKEN",
                   help="the first token of the room's subjects, for rooms sharing a NATS server (room)")


def bus_settings(args: argparse.Namespace) -> tuple[str, str]:
    """(NATS URL, this process's name), checked."""
    url = args.nats or os.environ.get("POKERROOM_NATS_URL") or "nats://127.0.0.1:4222"
    if not url.startswith(("nats://", "tls://")):
        args.parser.error(f"--nats: a nats:// URL, not {url!r}")
    prefix = args.bus_prefix
    if not prefix or not all(c.isalnum() or c in "_-" for c in prefix):
        args.parser.error(f"--bus-prefix: letters, digits, _ and - only, not {prefix!r}")
    name = args.name or f"{socket.gethostname()}-{os.getpid()}"
    if not 1 <= len(name) <= 64:
        args.parser.error("--name: 1 to 64 characters")
    return url, name


def nats_tables(url: str, name: str, prefix: str) -> Any:
    """The gateway's tables: a router on NATS (gateway/app.py's ``Tables``)."""

    @asynccontextmanager
    async def tables(config: Any, store: Any) -> AsyncIterator[Any]:
        from pokerroom.bus.gateway import Router
        from pokerroom.bus.nats import NatsTransport

        transport = await NatsTransport.connect(url, name)
        router = Router(transport, prefix, name)
        router.start()
        await transport.ready()
        loop = asyncio.get_running_loop()
        until = loop.time() + LOBBY_WAIT
        while router.table_count == 0 and loop.time() < until:  # the workers say what they hold
            await asyncio.sleep(0.05)
        try:
            yield router
        finally:
            await router.stop()
            await transport.close()

    return tables


def _gateway(args: argparse.Namespace) -> int:
    tune_gc()
    url, name = bus_settings(args)
    config, database, limits = room_setup(args)
    import uvicorn

    from pokerroom.gateway.app import create_app, server_config

    app = create_app(config, database, args.schema, limits, tables=nats_tables(url, name, args.bus_prefix))
    server = uvicorn.Server(server_config(app, args.host, args.port))
    print(f"pokerroom gateway {name}: http://{args.host}:{args.port}/ (NATS {url})", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    return 0
