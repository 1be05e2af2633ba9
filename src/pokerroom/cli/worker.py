"""``pokerroom worker``: owns tables of a room spread over processes and runs each one's
task; gateways reach them over NATS. Stopped with SIGTERM (or Ctrl-C), it lets the hands
being played end (``--drain``), then gives its tables up to the other workers."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys

from pokerroom.cli.args import Subparsers, tune_gc
from pokerroom.cli.gateway import add_bus_options, bus_settings
from pokerroom.cli.serve import config_and_database
from pokerroom.loop import run


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "worker", help="run a table worker of a room spread over processes (NATS)",
        description="Own tables of the room (leases in the database, renewed every second; a table "
        "whose worker stops is taken over by another within about 5 s) and run them; the gateways "
        "reach them over NATS. Every worker of a room runs the same config (docs/deploy.md).",
    )
    p.add_argument("--db", default=None, metavar="URL",
                   help="database URL (postgresql://..., or $POKERROOM_DATABASE_URL)")
    p.add_argument("--schema", default=None, help="PostgreSQL schema for the room's tables (public)")
    p.add_argument("--config", default=None, metavar="FILE", help="room config, TOML (the default room)")
    p.add_argument("--drain", type=float, default=30.0, metavar="SECONDS",
                   help="on SIGTERM, how long the hands being played may take to end before the tables "
                   "are given up (their hands then void) (30)")
    add_bus_options(p)
    p.set_defaults(func=_worker, parser=p)


def _worker(args: argparse.Namespace) -> int:
    tune_gc()
    url, name = bus_settings(args)
    if not 0 <= args.drain <= 600:
        args.parser.error("--drain: 0 to 600 seconds")
    config, database = config_and_database(args)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    try:
        run(_run(config, database, args.schema, url, name, args.bus_prefix, args.drain))
    except Exception as e:
        print(f"pokerroom worker: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    return 0


async def _run(config: object, database: str, schema: str | None, url: str, name: str, prefix: str,
               drain: float) -> None:
    from pokerroom.bus.nats import NatsTransport
    from pokerroom.bus.tables import TableHost
    from pokerroom.store import Store
    from pokerroom.worker.room import Worker

    store = Store(database, schema)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    transport = await NatsTransport.connect(url, name)
    host = TableHost(transport, prefix, name)
    worker = Worker(config, store, name, host, drain=drain)  # type: ignore[arg-type]
    try:
        await worker.start()
        await transport.ready()
        host.publish_lobby()
        host.start()
        print(f"pokerroom worker {name}: {len(worker.runners)} table(s) of {len(worker.tables)} (NATS {url})",
              flush=True)
        await stop.wait()
        print(f"pokerroom worker {name}: stopping (hands in play end within {drain:g} s)", flush=True)
    finally:
        with contextlib.suppress(Exception):
            await worker.stop()
        await host.stop()
        await transport.close()
        await store.close()
