"""``pokerroom bench engine|evaluator``: this room against its rivals on the same work in one run."""

from __future__ import annotations

import argparse
import sys

from pokerroom.cli.args import Subparsers, int_in


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "bench", help="benchmarks against the rivals, on the same work in the same run",
        description="engine: replay the Pluribus PHH hands and simulate 6-max no-limit hands with "
        "random legal actions, with this engine and with PokerKit 0.7.7; prints hands/s and ratios "
        "(medians of several runs).",
    )
    p.add_argument("target", choices=["engine", "evaluator"],
                   help="engine: the rules engine vs PokerKit; evaluator: hand evaluation vs "
                   "treys, eval7, phevaluator")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--hands", type=int_in(1), default=1000, help="hands to simulate (default 1000)")
    p.add_argument("--repeats", type=int_in(1), default=3, help="runs per measurement (default 3)")
    p.add_argument("--phh", default=None, help="folder of PHH hands to replay (default: Pluribus)")
    p.set_defaults(func=_bench)


def _bench(args: argparse.Namespace) -> int:
    from pathlib import Path

    if args.target == "evaluator":
        from pokerroom.bench import evaluator

        try:
            evaluator.run(repeats=args.repeats, as_json=args.json)
        except RuntimeError as e:  # a peer library missing
            print(f"pokerroom bench: {e}", file=sys.stderr)
            return 2
        return 0

    from pokerroom.bench import engine

    folder = Path(args.phh) if args.phh else engine.DEFAULT_PHH
    if not folder.is_dir():
        print(f"pokerroom bench: no PHH folder at {folder}", file=sys.stderr)
        return 2
    try:
        engine.run(folder, sim_hands=args.hands, repeats=args.repeats, as_json=args.json)
    except RuntimeError as e:  # PokerKit missing, or the folder holds no hands
        print(f"pokerroom bench: {e}", file=sys.stderr)
        return 2
    return 0
