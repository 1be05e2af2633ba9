"""``pokerroom serve``: the room in one process (gateway and tables), optionally with bots."""

from __future__ import annotations

import argparse
import contextlib
import os
from typing import Any

from pokerroom.cli.args import Subparsers, check_database, int_in, tune_gc


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "serve", help="run the poker room server",
        description="Run the room: HTTP and WebSocket on HOST:PORT, the tables of the config file "
        "(TOML; a default room without one), accounts and hands in the database (an SQLite file by "
        "default, created on first start; postgresql://... for PostgreSQL). Migrations run on start. "
        "Both roles of the room in one process (a gateway and a worker over an in-process bus); "
        "seats are kept across a restart.",
    )
    add_gateway_options(p)
    p.add_argument("--bots", type=int_in(0), default=0, metavar="N",
                   help="also start N bots in this process, playing through the WebSocket like people; "
                   "they leave seats free at every table (0)")
    p.add_argument("--think", type=float, default=1.5, metavar="SECONDS",
                   help="the bots' average think time per action (1.5)")
    p.set_defaults(func=_serve, parser=p)


def add_gateway_options(p: argparse.ArgumentParser) -> None:
    """What ``serve`` and ``gateway`` share: where to listen, the database, the limits."""
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=int_in(0, 65535), default=8000, help="port (8000)")
    p.add_argument("--db", default=None, metavar="URL",
                   help="database URL (sqlite:///pokerroom.db, or $POKERROOM_DATABASE_URL)")
    p.add_argument("--schema", default=None, help="PostgreSQL schema for the room's tables (public)")
    p.add_argument("--config", default=None, metavar="FILE", help="room config, TOML (the default room)")
    p.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDR",
                   help="a reverse proxy (address or network) whose X-Forwarded-For and X-Forwarded-Proto "
                   "are believed; repeatable (none: every client is its peer address)")
    p.add_argument("--https", action="store_true",
                   help="the room is reached over HTTPS (a TLS proxy in front): session cookies are Secure")
    p.add_argument("--max-connections", type=int_in(1), default=10_000, metavar="N",
                   help="open connections in all, HTTP and WebSocket; past it HTTP answers 503 (10000)")
    p.add_argument("--sockets-per-address", type=int_in(1), default=64, metavar="N",
                   help="open WebSockets per client address (64)")
    p.add_argument("--anonymous-per-address", type=int_in(1), default=8, metavar="N",
                   help="of those, not logged in (8)")
    p.add_argument("--http-per-address", type=int_in(1), default=64, metavar="N",
                   help="open HTTP connections per peer address, a trusted proxy's not counted (64)")


def config_and_database(args: argparse.Namespace) -> tuple[Any, str]:
    """(config, database URL) from ``--config`` and ``--db``, the database migrated; a bad
    one ends the program with its message (serve, gateway, worker)."""
    from pokerroom.config import ConfigError, load_room
    from pokerroom.store import StoreError, database_url

    database = args.db or os.environ.get("POKERROOM_DATABASE_URL") or "sqlite:///pokerroom.db"
    try:
        config = load_room(args.config)
        database_url(database)
    except (ConfigError, StoreError) as e:
        args.parser.error(str(e))
    except Exception as e:  # a URL SQLAlchemy cannot parse
        args.parser.error(f"bad database URL {database!r}: {e}")
    problem = check_database(database, args.schema)
    if problem:
        args.parser.error(problem)
    return config, database


def room_setup(args: argparse.Namespace, bots: int = 0) -> tuple[Any, str, Any]:
    """(config, database URL, limits) from the shared options, the database migrated;
    a bad option or an unusable database ends the program with its message."""
    config, database = config_and_database(args)
    from pokerroom.gateway.limits import Limits, network

    for proxy in args.trusted_proxy:
        try:
            network(proxy)
        except ValueError:
            args.parser.error(f"--trusted-proxy: not an address or network: {proxy!r}")
    # in-process bots connect (and on a fresh database register) from this machine's own
    # address: its caps make room for them
    limits = Limits(
        max_connections=args.max_connections + bots,
        sockets_per_address=args.sockets_per_address + bots,
        anonymous_per_address=args.anonymous_per_address,
        http_per_address=args.http_per_address + bots,
        trusted_proxies=tuple(args.trusted_proxy),
        https=args.https,
    )
    if bots:
        import dataclasses

        config = dataclasses.replace(config, registrations_per_hour=config.registrations_per_hour + bots)
    return config, database, limits


def _serve(args: argparse.Namespace) -> int:
    tune_gc()
    config, database, limits = room_setup(args, args.bots)
    import asyncio

    import uvicorn

    from pokerroom.bus.local import in_process
    from pokerroom.gateway.app import create_app, server_config

    app = create_app(config, database, args.schema, limits, tables=in_process)
    server = uvicorn.Server(server_config(app, args.host, args.port))
    if not args.bots:
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: uvicorn has shut down cleanly
            server.run()
        return 0
    asyncio.run(_serve_with_bots(server, args))
    return 0


async def _serve_with_bots(server: object, args: argparse.Namespace) -> None:
    """The server and a crowd of bots in one event loop, with a progress line."""
    import asyncio

    import httpx

    from pokerroom.bots import Tally, crowd

    serving = asyncio.ensure_future(server.serve())  # type: ignore[attr-defined]
    while not getattr(server, "started", False):
        if serving.done():
            return
        await asyncio.sleep(0.1)
    host = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    url = f"http://{host}:{args.port}"
    print(f"pokerroom: open {url}/ in a browser (bots: {args.bots})", flush=True)
    async with httpx.AsyncClient() as client:
        tables = (await client.get(f"{url}/api/tables")).json()["tables"]
    tally = Tally()
    per_table = {t["name"]: max(1, int(t["seats"]) // 2) for t in tables}
    bots = crowd(url, args.bots, tables, strategies=["solid", "station", "random"], think=args.think,
                 tally=tally, per_table=per_table)
    stop = asyncio.Event()
    tasks = [asyncio.ensure_future(b.run(stop)) for b in bots]
    try:
        while not serving.done():
            await asyncio.sleep(5)
            print(f"pokerroom: {tally.total_hands} hands played, {tally.actions} bot actions", flush=True)
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
