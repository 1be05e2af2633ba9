"""``pokerroom verify``: the proof of a deal checked from a hand's history."""

from __future__ import annotations

import argparse
import json
import sys

from pokerroom.cli.args import Subparsers


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "verify", help="check the deal of a hand you played (its history from /api/hands/ID)",
        description="Check that a hand you played was dealt from the deck committed at its deal: the "
        "leaves make the commitment, stand in the order the commitment and the players' seeds give, "
        "and your cards, the board and the cards shown were opened at the places the dealing order "
        "gives them (docs/protocol.md, 'Provably fair deals'). Exit 0: verified; 1: not, or a bad file.",
    )
    p.add_argument("history", help="the hand's JSON, as /api/hands/ID gives it")
    p.add_argument("--commitment", help="the commitment announced at the deal (DeckCommitted), if you "
                   "kept it: without it the one written in the history is taken")
    p.add_argument("--seat", type=int, help="your seat (default: the seat whose cards are yours)")
    p.set_defaults(func=_verify)


def _verify(args: argparse.Namespace) -> int:
    """``pokerroom verify``: one line, 'verified: ...' or 'NOT verified: ...' (a bad file
    is said so, never a traceback)."""
    from pokerroom.fairness import verify_history

    try:
        with open(args.history, encoding="utf-8") as f:
            history = json.load(f)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as e:
        print(f"error: {args.history} is not a hand history: {e}", file=sys.stderr)
        return 1
    if not isinstance(history, dict):
        print(f"error: {args.history} is not a hand history (a JSON object)", file=sys.stderr)
        return 1
    verdict = verify_history(history, announced=args.commitment, seat=args.seat)
    hand = f"hand #{history.get('number')} at {history.get('table')!s}"
    if not verdict.ok:
        print(f"NOT verified: {hand}: {verdict.message}")
        return 1
    seeds = sorted({s for s, _ in history.get("deal", {}).get("seeds", ())})
    how = (f"the order drawn from the commitment and the seeds of seats {', '.join(map(str, seeds))}"
           if seeds else "the order drawn from the commitment (no player seeded it)")
    if verdict.scheme == 1:
        how = "dealt before players' seeds: the deck committed in the dealing order (the old scheme)"
    print(f"verified: {hand}, seat {verdict.seat}: {verdict.message}; {how}")
    if args.commitment is None:
        print(f"note: the commitment taken is the history's own, {history['commitment']}: compare it with "
              "the one announced at the deal (or pass --commitment)")
    return 0
