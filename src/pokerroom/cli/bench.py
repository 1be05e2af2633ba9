"""``pokerroom bench engine|evaluator``: this room against its rivals on the same work in one run.

The benchmarks and the PokerKit oracle they race are not part of the package: they live in
the repository's ``benchmarks/`` and ``tests/oracles/``, loaded from the checkout this
package runs from (an editable install or PYTHONPATH=src). An installed wheel has neither,
and says so.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path
from types import ModuleType

from pokerroom.cli.args import Subparsers, int_in

CHECKOUT = Path(__file__).resolve().parents[3]  # src/pokerroom/cli/bench.py -> the repository


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "bench", help="benchmarks against the rivals, on the same work in the same run (from a checkout)",
        description="engine: replay the Pluribus PHH hands (from loaded histories, and end to end from "
        "the files) and simulate 6-max no-limit hands with random legal actions, with this engine and "
        "with PokerKit 0.7.7; prints hands/s and ratios (medians of several runs). Runs from a checkout "
        "of the repository (benchmarks/ and tests/oracles/).",
    )
    p.add_argument("target", choices=["engine", "evaluator"],
                   help="engine: the rules engine vs PokerKit; evaluator: hand evaluation vs "
                   "treys, eval7, phevaluator")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--hands", type=int_in(1), default=1000, help="hands to simulate (default 1000)")
    p.add_argument("--repeats", type=int_in(1), default=3, help="runs per measurement (default 3)")
    p.add_argument("--phh", default=None, help="folder of PHH hands to replay (default: the Pluribus "
                   "hands in $POKERROOM_PHH_DIR or the repository's ../shared/phh)")
    p.set_defaults(func=_bench)


def benchmark(name: str, checkout: Path | None = None) -> ModuleType:
    """``benchmarks/<name>.py`` of the checkout; RuntimeError when it is not there."""
    checkout = checkout or CHECKOUT
    here = (checkout / "benchmarks" / f"{name}.py").is_file() and (checkout / "tests" / "oracles").is_dir()
    if not here:
        raise RuntimeError(f"the benchmarks are not installed with the package: run it from a checkout of "
                           f"the repository (no benchmarks/{name}.py and tests/oracles/ in {checkout})")
    if str(checkout) not in sys.path:
        sys.path.insert(0, str(checkout))  # benchmarks.* and tests.oracles.* import from the checkout
    return importlib.import_module(f"benchmarks.{name}")


def _bench(args: argparse.Namespace) -> int:
    try:
        module = benchmark(args.target)
    except RuntimeError as e:
        print(f"pokerroom bench: {e}", file=sys.stderr)
        return 2
    if args.target == "evaluator":
        try:
            module.run(repeats=args.repeats, as_json=args.json)
        except RuntimeError as e:  # a peer library missing
            print(f"pokerroom bench: {e}", file=sys.stderr)
            return 2
        return 0

    folder = Path(args.phh) if args.phh else module.DEFAULT_PHH
    if not folder.is_dir():
        print(f"pokerroom bench: no PHH folder at {folder} (--phh FOLDER, or set POKERROOM_PHH_DIR)",
              file=sys.stderr)
        return 2
    try:
        module.run(folder, sim_hands=args.hands, repeats=args.repeats, as_json=args.json)
    except RuntimeError as e:  # PokerKit missing, or the folder holds no hands
        print(f"pokerroom bench: {e}", file=sys.stderr)
        return 2
    return 0
