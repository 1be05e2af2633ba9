"""``pokerroom equity HAND HAND...``: hold'em (or, with --stud, seven card stud) equity."""

from __future__ import annotations

import argparse
import json
import sys

from pokerroom.cli.args import Subparsers, int_in
from pokerroom.core.cards import format_cards


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "equity", help="hold'em (2 to 9 hands) or seven card stud (--stud) equity",
        description="Hold'em equity of 2 to 9 two-card hands: every remaining board is dealt "
        "(exhaustive, the default) or, with --samples, that many random boards (Monte Carlo, "
        "numpy's generator seeded with --seed: an estimate, not a way to deal). Equity is the "
        "share of the pot on average: a win counts 1 and a k-way split 1/k (win + tie/2 "
        "heads-up). Cards are written like 'As', 'Td', '2c'; a board or dead cards as 'Jh7h2c', "
        "'Jh 7h 2c' or 'Jh,7h,2c'. With --stud each HAND is the 1 to 7 known cards (up and down) "
        "of a seven card stud player (2 to 8 players), each completed to 7 cards from the "
        "remaining deck: every deal when there are at most 2,000,000, otherwise --samples "
        "random deals (default 200,000).",
    )
    p.add_argument("hands", nargs="+", metavar="HAND", help="a two-card hand such as AhKh")
    p.add_argument("--board", default="", metavar="CARDS", help="0, 3, 4 or 5 board cards")
    p.add_argument("--dead", default="", metavar="CARDS", help="cards no hand or board can get")
    p.add_argument("--samples", type=int_in(1), default=None, metavar="N",
                   help="Monte Carlo with N random boards instead of all of them")
    p.add_argument("--seed", type=int_in(0), default=None, metavar="S",
                   help="seed of the Monte Carlo boards (default: fresh entropy)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--stud", action="store_true",
                   help="seven card stud: each HAND is a player's known cards, such as 'AsKs Qd'")
    p.set_defaults(func=_equity, parser=p)


def _progress_bar(done: int, total: int) -> None:
    filled = 30 * done // total
    end = "\n" if done == total else ""
    print(f"\r[{'#' * filled}{'.' * (30 - filled)}] {100 * done // total:3d}%", end=end,
          file=sys.stderr, flush=True)


def _equity(args: argparse.Namespace) -> int:
    from pokerroom.core.equity import EquityError, equity, stud_equity

    if args.stud:
        if args.board:
            args.parser.error("--board does not go with --stud (stud has no board)")
        try:
            r = stud_equity(args.hands, args.dead, samples=args.samples, seed=args.seed)
        except EquityError as e:
            args.parser.error(str(e))
    else:
        if args.seed is not None and args.samples is None:
            args.parser.error("--seed goes with --samples (without it every board is dealt)")
        progress = _progress_bar if args.samples is not None and sys.stderr.isatty() else None
        try:
            r = equity(args.hands, args.board, args.dead, samples=args.samples, seed=args.seed,
                       progress=progress)
        except EquityError as e:
            args.parser.error(str(e))
    if args.json:
        print(json.dumps(r.to_json()))
        return 0
    width = max(6, *(len(format_cards(h)) for h in r.hands))
    print(f"{'hand':<{width}} {'equity':>9} {'win':>9} {'tie':>9}")
    for hand, eq, win, tie in zip(r.hands, r.equity, r.win, r.tie, strict=True):
        print(f"{format_cards(hand):<{width}} {eq:9.4%} {win:9.4%} {tie:9.4%}")
    if args.stud and r.dead:
        print(f"dead {format_cards(r.dead, ' ')}")
    elif r.board or r.dead:
        print(f"board {format_cards(r.board, ' ') or '-'}, dead {format_cards(r.dead, ' ') or '-'}")
    what = "deal" if args.stud else "board"
    if r.exact:
        print(f"{r.boards:,} {what}{'s' if r.boards != 1 else ''}, exhaustive")
    else:
        seed = "" if args.seed is None else f", seed {args.seed}"
        print(f"{r.boards:,} random {what}s (Monte Carlo{seed}), "
              f"standard error up to {max(r.std_error):.4%}")
    return 0
