"""``pokerroom status``: the workers of a room, the tables each holds, their leases and
epochs (from the database), and whether the NATS server answers."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from typing import Any

from pokerroom.cli.args import Subparsers


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "status", help="the workers of a room, their tables, leases and epochs",
        description="List the room's workers (seconds since each renewed), every table with its owner, "
        "epoch, lease time left and last settled hand, and whether NATS answers. Exit status 1 when a "
        "table has no live owner or NATS does not answer.",
    )
    p.add_argument("--db", default=None, metavar="URL",
                   help="database URL (postgresql://..., or $POKERROOM_DATABASE_URL)")
    p.add_argument("--schema", default=None, help="PostgreSQL schema of the room's tables (public)")
    p.add_argument("--nats", default=None, metavar="URL",
                   help="the NATS server (nats://127.0.0.1:4222, or $POKERROOM_NATS_URL)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_status)


async def _read(database: str, schema: str | None, nats_url: str) -> dict[str, Any]:
    from pokerroom.store import Store

    store = Store(database, schema)
    try:
        leases = await store.leases()
        workers = await store.workers()
    finally:
        await store.close()
    nats_ok, nats_error = True, None
    try:
        from pokerroom.bus.natsclient import NatsClient

        client = NatsClient(nats_url, "pokerroom status")
        await client.connect(timeout=2)
        await client.flush(timeout=2)
        await client.close()
    except Exception as e:
        nats_ok, nats_error = False, f"{type(e).__name__}: {e}"
    held: dict[str, list[str]] = {}
    for lease in leases:
        if lease.owner is not None and lease.expires_in > 0:
            held.setdefault(lease.owner, []).append(lease.table)
    return {
        "nats": {"url": nats_url, "ok": nats_ok, "error": nats_error},
        "workers": [{"name": w, "seen_ago": round(ago, 2), "alive": ago < 5, "tables": held.get(w, [])}
                    for w, ago in workers],
        "tables": [{"table": x.table, "owner": x.owner, "epoch": x.epoch,
                    "lease_left": round(x.expires_in, 2), "held": x.owner is not None and x.expires_in > 0,
                    "last_hand": x.last_hand}
                   for x in leases],
    }


def _status(args: argparse.Namespace) -> int:
    database = args.db or os.environ.get("POKERROOM_DATABASE_URL") or "sqlite:///pokerroom.db"
    nats_url = args.nats or os.environ.get("POKERROOM_NATS_URL") or "nats://127.0.0.1:4222"
    try:
        report = asyncio.run(_read(database, args.schema, nats_url))
    except Exception as e:
        print(f"pokerroom status: cannot read {database!r}: {type(e).__name__}: "
              f"{(str(e).splitlines() or [''])[0][:200]}", file=sys.stderr)
        return 2
    healthy = report["nats"]["ok"] and all(t["held"] for t in report["tables"])
    if args.json:
        print(json.dumps(report | {"healthy": healthy}))
        return 0 if healthy else 1
    nats_state = "ok" if report["nats"]["ok"] else f"NOT REACHED ({report['nats']['error']})"
    print(f"NATS {report['nats']['url']}: {nats_state}")
    print(f"{len(report['workers'])} worker(s):")
    for w in report["workers"]:
        state = "alive" if w["alive"] else "gone"
        print(f"  {w['name']}: {state}, seen {w['seen_ago']} s ago, {len(w['tables'])} table(s)")
    print(f"{len(report['tables'])} table(s):")
    for t in report["tables"]:
        owner = t["owner"] if t["held"] else f"nobody (last: {t['owner']})"
        print(f"  {t['table']}: {owner}, epoch {t['epoch']}, lease {t['lease_left']} s, "
              f"last hand #{t['last_hand']}")
    return 0 if healthy else 1
