"""``pokerroom cluster`` (``make cluster``): the room spread over processes on this machine,
with bots at its tables, until Ctrl-C."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import tempfile
from pathlib import Path

from pokerroom.cli.args import Subparsers, int_in


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "cluster", help="run a room of several workers and gateways on this machine",
        description="Start a private nats-server on a free port, WORKERS workers and GATEWAYS gateways on "
        "the database (PostgreSQL, a schema of its own), and BOTS bots playing through the gateways; "
        "print the gateways' URLs; stop everything on Ctrl-C (docs/deploy.md).",
    )
    p.add_argument("--db", default="postgresql://postgres@127.0.0.1:5432/test", metavar="URL",
                   help="database URL (postgresql://postgres@127.0.0.1:5432/test)")
    p.add_argument("--schema", default="cluster", help="PostgreSQL schema for the room (cluster)")
    p.add_argument("--config", default=None, metavar="FILE", help="room config, TOML (the default room)")
    p.add_argument("--workers", type=int_in(1, 64), default=2, metavar="N", help="workers (2)")
    p.add_argument("--gateways", type=int_in(1, 64), default=2, metavar="N", help="gateways (2)")
    p.add_argument("--bots", type=int_in(0), default=12, metavar="N", help="bots at the tables (12)")
    p.add_argument("--think", type=float, default=1.5, metavar="SECONDS", help="the bots' think time (1.5)")
    p.set_defaults(func=_cluster, parser=p)


def _cluster(args: argparse.Namespace) -> int:
    from pokerroom.loadtest.cluster import LocalCluster

    folder = Path(tempfile.mkdtemp(prefix="pokerroom-cluster-"))
    config = Path(args.config) if args.config else None
    if config is None:  # the default room, with room for the bots' registrations
        from pokerroom.config import DEFAULT

        config = folder / "room.toml"
        config.write_text(DEFAULT.replace("registrations_per_hour = 10", "registrations_per_hour = 100000"))
    cluster = LocalCluster(folder, args.db, args.schema, config, args.workers, args.gateways)
    try:
        cluster.start()
        print(f"pokerroom cluster: NATS {cluster.nats_url}; {args.workers} worker(s); logs in {folder}")
        for url in cluster.urls:
            print(f"  gateway: {url}/", flush=True)
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(_bots(cluster.urls, args.bots, args.think))
    except RuntimeError as e:
        print(f"pokerroom cluster: {e}")
        return 1
    finally:
        cluster.stop()
    return 0


async def _bots(urls: list[str], count: int, think: float) -> None:
    import httpx

    from pokerroom.bots import Tally, crowd

    tally = Tally()
    bots = []
    for k, url in enumerate(urls):
        async with httpx.AsyncClient() as http:
            tables = (await http.get(f"{url}/api/tables")).json()["tables"]
        n = count // len(urls) + (1 if k < count % len(urls) else 0)
        per_table = {t["name"]: max(1, int(t["seats"]) // 2 // len(urls)) for t in tables}
        bots += crowd(url, n, tables, strategies=["solid", "station", "random"], think=think, tally=tally,
                      per_table=per_table, prefix=f"c{k}")
    stop = asyncio.Event()
    tasks = [asyncio.ensure_future(b.run(stop)) for b in bots]
    try:
        while True:
            await asyncio.sleep(10)
            print(f"pokerroom cluster: {tally.total_hands} hands, {tally.actions} bot actions", flush=True)
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
