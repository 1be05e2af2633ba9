"""``pokerroom bots``: bots playing against a running room."""

from __future__ import annotations

import argparse

from pokerroom.cli.args import Subparsers, int_in, tune_gc


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "bots", help="play bots against a running room",
        description="Connect N bots to a running room (one WebSocket each, the protocol people use). "
        "They spread over the tables (or the ones named), leaving a seat free at each.",
    )
    p.add_argument("--url", default="http://127.0.0.1:8000", help="the room (http://127.0.0.1:8000)")
    p.add_argument("--count", type=int_in(1, 100_000), default=6, metavar="N", help="bots (6)")
    p.add_argument("--tables", default=None, help="comma-separated table names (all)")
    p.add_argument("--strategy", default="mix", choices=("random", "station", "solid", "mix"),
                   help="random, station (calling station), solid, or mix of all three (mix)")
    p.add_argument("--think", type=float, default=1.0, metavar="SECONDS", help="average think time (1.0)")
    p.add_argument("--hands", type=int_in(1), default=None, metavar="H", help="stop after H hands each")
    p.add_argument("--seed", type=int, default=None, help="seed of the bots' decisions")
    p.set_defaults(func=_bots, parser=p)


def _bots(args: argparse.Namespace) -> int:
    tune_gc()
    import asyncio

    import httpx

    from pokerroom.bots import Tally, crowd

    try:
        tables = httpx.get(f"{args.url.rstrip('/')}/api/tables", timeout=10).json()["tables"]
    except (httpx.HTTPError, ValueError, KeyError) as e:
        args.parser.error(f"no room at {args.url}: {e}")
    if args.tables:
        wanted = [t.strip() for t in args.tables.split(",") if t.strip()]
        unknown = [w for w in wanted if w not in {t["name"] for t in tables}]
        if unknown:
            args.parser.error(f"no table named {unknown[0]!r}")
        tables = [t for t in tables if t["name"] in wanted]
    kinds = ["solid", "station", "random"] if args.strategy == "mix" else [args.strategy]
    tally = Tally()
    bots = crowd(args.url, args.count, tables, strategies=kinds, think=args.think, hands=args.hands,
                 seed=args.seed, tally=tally)

    async def main() -> None:
        results = await asyncio.gather(*(b.run() for b in bots), return_exceptions=True)
        failed = [r for r in results if isinstance(r, BaseException)]
        print(f"{len(bots)} bots: {tally.total_hands} hands, {tally.actions} actions, errors {tally.errors}, "
              f"{len(failed)} bots failed")

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        return 130
    return 0
