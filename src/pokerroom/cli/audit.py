"""``pokerroom audit --db URL``: the ledger checked, every chip accounted for."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from pokerroom.cli.args import Subparsers, int_in


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "audit", help="check that a room's database lost and made no chip",
        description="Check a room's database: every ledger transaction sums to zero, balances and "
        "seats match their books, balances plus seats equal the grants, each hand settled once. "
        "Exit status 1, with the offending rows, on any failure. With --dumping, also list pairs "
        "of accounts between which chips went mostly one way over many hands (possible chip dumping).",
    )
    p.add_argument("--db", default=None, metavar="URL",
                   help="database URL (sqlite:///pokerroom.db, or $POKERROOM_DATABASE_URL)")
    p.add_argument("--schema", default=None, help="PostgreSQL schema of the room's tables (public)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--dumping", action="store_true", help="also report likely chip dumping")
    p.add_argument("--min-hands", type=int_in(1), default=20, metavar="N",
                   help="dumping: hands a pair played together, at least (20)")
    p.add_argument("--share", type=float, default=0.9, metavar="F",
                   help="dumping: the share of the chips between them that went one way, at least (0.9)")
    p.set_defaults(func=_audit)


def _audit(args: argparse.Namespace) -> int:
    import asyncio

    from pokerroom.store import Store, StoreError
    from pokerroom.store.audit import audit, dumping

    database = args.db or os.environ.get("POKERROOM_DATABASE_URL") or "sqlite:///pokerroom.db"
    if not 0.5 <= args.share <= 1.0:
        print("pokerroom audit: --share is between 0.5 and 1", file=sys.stderr)
        return 2

    async def run() -> tuple[Any, list[Any]]:
        store = Store(database, args.schema)
        try:
            report = await audit(store)
            flows = await dumping(store, args.min_hands, args.share) if args.dumping else []
        finally:
            await store.close()
        return report, flows

    try:
        report, flows = asyncio.run(run())
    except StoreError as e:
        print(f"pokerroom audit: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # no such file or server, not a room's database, ...
        reason = f"{type(e).__name__}: {(str(e).splitlines() or [''])[0][:200]}"
        print(f"pokerroom audit: cannot read {database!r}: {reason}", file=sys.stderr)
        return 2
    if args.json:
        out = report.as_json()
        if args.dumping:
            out["dumping"] = [{**vars(f), "one_way": round(f.one_way, 3)} for f in flows]
        print(json.dumps(out))
    else:
        state = "balanced" if report.balanced else "NOT BALANCED"
        print(f"{state}: {report.accounts} accounts, {report.hands} hands; granted {report.granted}, "
              f"balances {report.balances}, at seats {report.seats}")
        for problem in report.problems:
            print("  problem: " + ", ".join(f"{k}={v}" for k, v in problem.items()))
        if args.dumping:
            print(f"possible chip dumping: {len(flows)} pair(s)")
            for f in flows:
                shown = ", ".join(map(str, f.hands[:20])) + (" ..." if len(f.hands) > 20 else "")
                print(f"  {f.loser} -> {f.winner} [{f.reason}]: {f.chips} chips ({f.one_way:.0%} one way, "
                      f"back {f.back}) "
                      f"over {f.hands_together} hands together; hands {shown}")
    return 0 if report.balanced else 1
