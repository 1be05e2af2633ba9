"""``pokerroom loadtest``: the room measured under N tables of bots."""

from __future__ import annotations

import argparse
import json
import sys

from pokerroom.cli.args import Subparsers, int_in, tune_gc


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "loadtest", help="measure the room under N tables of bots",
        description="Start a room server (unless --url) with N no-limit tables of K seats, connect N*K bots "
        "in this process (one WebSocket each), warm up, then measure for --duration seconds: hands/s, "
        "actions/s, the latency from an action sent to the last player of the table receiving it (p50, p99, "
        "max), and the server's memory per connection. The room it starts gets the bots' accounts and "
        "sessions written into its database before it starts (seconds for thousands of bots); against --url "
        "they register over HTTP. --baseline also drives benchmarks/ws_baseline.py, a "
        "bare WebSocket broadcast server, with the same clients and gives the ratio of actions/s. Ctrl-C or "
        "SIGTERM stops it at any phase, with the servers it started (which also stop if it is killed). "
        "--gateways G --workers W: a cluster on this machine instead (a private nats-server on a free port, "
        "W workers and G gateways on PostgreSQL, a schema of its own dropped at the end), the bots dealt to "
        "the gateways in turn, and the CPU per action of each part (gateway, worker, NATS, PostgreSQL).",
    )
    p.add_argument("--tables", type=int_in(1), default=10, metavar="N", help="tables (10)")
    p.add_argument("--players-per-table", type=int_in(2, 10), default=6, metavar="K",
                   help="bots per table (6)")
    p.add_argument("--think", type=float, default=1.0, metavar="SECONDS", help="average think time (1.0)")
    p.add_argument("--duration", type=float, default=30.0, metavar="S", help="seconds measured (30)")
    p.add_argument("--warmup", type=float, default=5.0, metavar="S",
                   help="seconds after all sit, unmeasured (5)")
    p.add_argument("--url", default=None,
                   help="a running room instead of starting one (bots register over HTTP; no memory figure)")
    p.add_argument("--baseline", action="store_true", help="also run the bare WebSocket server, same clients")
    p.add_argument("--gateways", type=int_in(1, 16), default=None, metavar="G",
                   help="start a cluster of G gateways instead of one serve process (with --workers)")
    p.add_argument("--workers", type=int_in(1, 16), default=None, metavar="W",
                   help="and W table workers, a private nats-server, a PostgreSQL schema of its own")
    p.add_argument("--by-table", action="store_true",
                   help="with --gateways: each table's bots behind one gateway (affinity), not dealt in turn")
    p.add_argument("--db", default=None, metavar="URL",
                   help="the cluster's PostgreSQL (postgresql://postgres@127.0.0.1:5432/test)")
    p.add_argument("--seed", type=int, default=None, help="seed of the bots' decisions")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.set_defaults(func=_loadtest, parser=p)


def _loadtest(args: argparse.Namespace) -> int:
    if (args.gateways is None) != (args.workers is None):
        args.parser.error("--gateways and --workers go together")
    if args.gateways is not None and (args.url or args.baseline):
        args.parser.error("--gateways/--workers start a cluster: not with --url or --baseline")
    if (args.db is not None or args.by_table) and args.gateways is None:
        args.parser.error("--db and --by-table are the cluster's: give --gateways and --workers")
    tune_gc()
    import signal
    from types import FrameType

    from pokerroom.loadtest import run

    stopped_by = [signal.SIGINT]

    def terminate(signum: int, frame: FrameType | None) -> None:  # SIGTERM: as Ctrl-C
        stopped_by[0] = signal.SIGTERM
        on_interrupt = signal.getsignal(signal.SIGINT)  # asyncio.run's while it runs
        if not callable(on_interrupt):
            raise KeyboardInterrupt
        on_interrupt(signal.SIGINT, frame)

    # Ctrl-C stops it even when started with SIGINT ignored (a background job of a script)
    before_int = signal.signal(signal.SIGINT, signal.default_int_handler)
    before_term = signal.signal(signal.SIGTERM, terminate)
    try:
        if args.gateways is not None:
            from pokerroom.loadtest import CLUSTER_DATABASE, run_cluster

            report = run_cluster(args.tables, args.players_per_table, gateways=args.gateways,
                                 workers=args.workers, think=args.think, duration=args.duration,
                                 database=args.db or CLUSTER_DATABASE, warmup=args.warmup, seed=args.seed,
                                 by_table=args.by_table)
        else:
            report = run(args.tables, args.players_per_table, think=args.think, duration=args.duration,
                         url=args.url, warmup=args.warmup, baseline=args.baseline, seed=args.seed)
    except KeyboardInterrupt:
        # Handled here. But if it went through a string exec() (a dataclass or namedtuple being
        # made: lazy imports under the first httpx.get, ...), CPython has marked the interpreter
        # as ended by an unhandled Ctrl-C, and `python -m` would then die by SIGINT (-2) instead
        # of exiting with this status. Every string exec() clears that mark as it starts.
        exec("")
        print("\rpokerroom loadtest: stopped\033[K", file=sys.stderr)
        return 128 + stopped_by[0]
    except RuntimeError as e:
        print(f"pokerroom loadtest: {e}", file=sys.stderr)
        return 1
    finally:
        signal.signal(signal.SIGINT, before_int)
        signal.signal(signal.SIGTERM, before_term)
    print(json.dumps(report.to_json()) if args.json else report.text())
    return 0
