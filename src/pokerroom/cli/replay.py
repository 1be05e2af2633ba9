"""``pokerroom replay [--json] PATH...``: replay PHH hands and compare with their recorded
finishing stacks."""

from __future__ import annotations

import argparse
import json
from collections import Counter

from pokerroom.cli.args import Subparsers
from pokerroom.core.phh import ReplayResult, replay_paths


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "replay", help="replay PHH hand histories and check their finishing stacks",
        description="Replay .phh/.phhs files (folders recursively) with the engine and compare "
        "the final stacks with the recorded finishing_stacks. Exit status 1 if a hand errs or "
        "mismatches; an unsupported variant or feature counts as an error.",
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="a .phh or .phhs file, or a folder")
    p.add_argument("--json", action="store_true", help="one JSON object per line per hand")
    p.set_defaults(func=_replay)


def _status(r: ReplayResult) -> str:
    if r.unsupported:
        return "unsupported"
    if r.error:
        return "errors"
    return {True: "ok", False: "mismatched", None: "unchecked"}[r.ok]


def _replay_line(r: ReplayResult, status: str) -> str:
    where = r.path + ("" if r.hand is None else f" [{r.hand}]")
    if status in ("errors", "unsupported"):
        return f"{'ERROR' if status == 'errors' else 'unsupported':<12} {where}: {r.error}"
    label = {"ok": "ok", "mismatched": "MISMATCH", "unchecked": "replayed"}[status]
    line = f"{label:<12} {where} {r.variant}"
    if status == "mismatched":
        line += f": ours {r.finishing_stacks}, recorded {r.expected}"
    elif status == "unchecked":
        line += f": no finishing_stacks recorded; ours {r.finishing_stacks}"
    return line + (f" ({r.note})" if r.note else "")


def _replay(args: argparse.Namespace) -> int:
    counts: Counter[str] = Counter()
    for r in replay_paths(args.paths):
        status = _status(r)
        counts[status] += 1
        print(json.dumps(r.to_json()) if args.json else _replay_line(r, status), flush=args.json)
    if not args.json:
        print(
            f"hands: {sum(counts.values())}, ok: {counts['ok']}, mismatched: {counts['mismatched']}, "
            f"errors: {counts['errors']}, unsupported: {counts['unsupported']}"
            + (f", no record: {counts['unchecked']}" if counts["unchecked"] else "")
        )
    return 1 if counts["errors"] or counts["mismatched"] or counts["unsupported"] else 0
