"""The ``pokerroom`` command line.

- ``pokerroom replay [--json] PATH...``: replay PHH hands (.phh/.phhs files, folders
  recursively) and compare with their recorded finishing stacks. Exit status 1 when a
  hand errs or mismatches; a variant or feature we do not support is such an error,
  reported as "unsupported" with its name.
- ``pokerroom bench engine [--json] [--hands N] [--repeats R]``: this engine against
  PokerKit on the same work in one run (PokerKit is a dev extra).
- ``pokerroom simulate [--hands N] [--players K] [--game NL|PL|FL] [--stakes 1/2]
  [--stack S] [--seed X] [--show]``: random legal play from seeded decks; checks that
  chips are conserved.

Subcommands register themselves in ``COMMANDS`` (name -> function adding its parser).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence

from pokerroom.core.cards import format_cards, seeded_deck
from pokerroom.core.evaluator import describe
from pokerroom.core.events import (
    Acted,
    BoardDealt,
    Event,
    HandEnded,
    HoleDealt,
    Mucked,
    Posted,
    PotAwarded,
    Shown,
    StreetEnded,
    UncalledReturned,
)
from pokerroom.core.hand import MAX_PLAYERS, STREET_NAMES
from pokerroom.core.phh import ReplayResult, replay_paths
from pokerroom.core.structures import Game
from pokerroom.sim import play_random_hand

Handler = Callable[[argparse.Namespace], int]


# ---------------------------------------------------------------------------- replay


def _add_replay(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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


# ---------------------------------------------------------------------------- bench


def _add_bench(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "bench", help="benchmarks against the rivals, on the same work in the same run",
        description="engine: replay the Pluribus PHH hands and simulate 6-max no-limit hands with "
        "random legal actions, with this engine and with PokerKit 0.7.7; prints hands/s and ratios "
        "(medians of several runs).",
    )
    p.add_argument("target", choices=["engine"], help="what to measure")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--hands", type=_int_in(1), default=1000, help="hands to simulate (default 1000)")
    p.add_argument("--repeats", type=_int_in(1), default=3, help="runs per measurement (default 3)")
    p.add_argument("--phh", default=None, help="folder of PHH hands to replay (default: Pluribus)")
    p.set_defaults(func=_bench)


def _bench(args: argparse.Namespace) -> int:
    from pathlib import Path

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


# ---------------------------------------------------------------------------- simulate


def _int_in(low: int, high: int | None = None) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low or (high is not None and value > high):
            span = f"at least {low}" if high is None else f"from {low} to {high}"
            raise argparse.ArgumentTypeError(f"{value} is out of range: must be {span}")
        return value

    return parse


def _stakes(text: str) -> tuple[int, int]:
    small, sep, big = text.partition("/")
    if not (sep and small.isdigit() and big.isdigit() and 0 < int(small) <= int(big)):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not stakes like 1/2 (small blind/big blind, whole chips, 0 < small <= big)"
        )
    return int(small), int(big)


def _add_simulate(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "simulate", help="play hands with random legal actions",
        description="Play hands with random legal actions from seeded decks (each hand starts "
        "from fresh stacks) and check that chips are conserved.",
    )
    p.add_argument("--hands", type=_int_in(1), default=10, metavar="N", help="hands to play (10)")
    p.add_argument("--players", type=_int_in(2, MAX_PLAYERS), default=6, metavar="K",
                   help=f"players per hand, 2 to {MAX_PLAYERS} (6)")
    p.add_argument("--game", choices=("NL", "PL", "FL"), default="NL",
                   help="no limit, pot limit or fixed limit (NL)")
    p.add_argument("--stakes", type=_stakes, default=(1, 2), metavar="SB/BB",
                   help="blinds; fixed limit bets BB then 2*BB (1/2)")
    p.add_argument("--stack", type=_int_in(1), default=None, metavar="S",
                   help="starting stack of every player (100 big blinds)")
    p.add_argument("--seed", type=int, default=0, metavar="X", help="seed of decks and decisions (0)")
    p.add_argument("--show", action="store_true", help="print every hand's events")
    p.set_defaults(func=_simulate)


def _game(kind: str, small: int, big: int) -> Game:
    if kind == "FL":
        return Game.fixed_limit(big, 2 * big, small_blind=small, big_blind=big)
    return Game.pot_limit(small, big) if kind == "PL" else Game.no_limit(small, big)


def _simulate(args: argparse.Namespace) -> int:
    small, big = args.stakes
    stack = args.stack if args.stack is not None else 100 * big
    game = _game(args.game, small, big)
    stacks = [stack] * args.players
    actions = showdowns = 0
    conserved = True
    for i in range(1, args.hands + 1):
        try:
            hand = play_random_hand(game, stacks, seeded_deck(f"{args.seed}:{i}"),
                                    random.Random(f"{args.seed}:{i}:play"))
        except Exception as e:  # an engine failure: report it with what reproduces it
            print(f"hand {i} (seed {args.seed}) failed: {type(e).__name__}: {e}", file=sys.stderr)
            return 1
        actions += sum(1 for ev in hand.events if type(ev) in (Acted, Mucked)
                       or (type(ev) is Shown and not ev.forced))
        showdowns += any(type(ev) is PotAwarded and ev.value is not None for ev in hand.events)
        ok = sum(hand.stacks) == sum(stacks) and sum(hand.result().net) == 0
        conserved = conserved and ok
        if args.show:
            print(f"Hand {i} (seed {args.seed}): {game.structure.label} {small}/{big}, "
                  f"{args.players} players, stacks {stack}")
            for line in describe_events(hand.events):
                print("  " + line)
            if not ok:
                print("  CHIPS NOT CONSERVED")
            print()
    print(f"hands: {args.hands}, actions: {actions}, showdowns: {showdowns}, "
          f"chips conserved: {'yes' if conserved else 'NO'} "
          f"({args.players} players, {args.game} {small}/{big}, stacks {stack}, seed {args.seed})")
    return 0 if conserved else 1


_POSTS = {"ante": "an ante", "small_blind": "the small blind", "big_blind": "the big blind",
          "blind": "a blind", "dead": "a dead blind", "bring_in": "the bring-in"}


def describe_events(events: Sequence[Event]) -> list[str]:
    """Readable lines for a hand's events (players as p1, p2, ... in PHH order)."""
    lines: list[str] = []
    board: list[str] = []
    holes: dict[int, list[str]] = {}
    for ev in events:
        if type(ev) is HoleDealt:
            holes.setdefault(ev.player, []).append(str(ev.card))
            continue
        if holes:
            lines.append("dealt: " + ", ".join(f"p{p + 1} {''.join(c)}" for p, c in holes.items()))
            holes = {}
        allin = " (all-in)" if getattr(ev, "all_in", False) else ""
        if type(ev) is Posted:
            lines.append(f"p{ev.player + 1} posts {_POSTS.get(ev.kind, ev.kind)} {ev.amount}{allin}")
        elif type(ev) is Acted:
            what = {"fold": "folds", "check": "checks", "call": f"calls {ev.amount}",
                    "bet": f"bets {ev.to}", "raise": f"raises to {ev.to}"}.get(ev.action, ev.action)
            lines.append(f"p{ev.player + 1} {what}{allin}")
        elif type(ev) is BoardDealt:
            board.extend(str(c) for c in ev.cards)
            cards = format_cards(ev.cards, " ")
            lines.append(f"{STREET_NAMES[ev.street]}: {cards} (board {' '.join(board)})")
        elif type(ev) is UncalledReturned:
            lines.append(f"p{ev.player + 1} takes back {ev.amount} (uncalled)")
        elif type(ev) is StreetEnded:
            lines.append(f"end of the {STREET_NAMES[ev.street]}: pot {ev.pot}")
        elif type(ev) is Shown:
            forced = " (forced)" if ev.forced else ""
            lines.append(f"p{ev.player + 1} shows {format_cards(ev.cards, ' ')}{forced}")
        elif type(ev) is Mucked:
            lines.append(f"p{ev.player + 1} mucks")
        elif type(ev) is PotAwarded:
            name = "main pot" if ev.pot == 0 else f"side pot {ev.pot}"
            won = ", ".join(f"p{p + 1} {s}" for p, s in zip(ev.winners, ev.shares, strict=True))
            lines.append(f"{name} {ev.amount} to {won}" + (f" ({describe(ev.value)})" if ev.value else ""))
        elif type(ev) is HandEnded:
            lines.append("stacks: " + ", ".join(f"p{p + 1} {s}" for p, s in enumerate(ev.stacks)))
    return lines


# ---------------------------------------------------------------------------- main

COMMANDS: dict[str, Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]] = {
    "replay": _add_replay,
    "simulate": _add_simulate,
    "bench": _add_bench,
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pokerroom", description="An online poker room: tools.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in COMMANDS.values():
        add(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    func: Handler = args.func
    try:
        return func(args)
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
