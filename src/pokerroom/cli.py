"""The ``pokerroom`` command line.

- ``pokerroom replay [--json] PATH...``: replay PHH hands (.phh/.phhs files, folders
  recursively) and compare with their recorded finishing stacks. Exit status 1 when a
  hand errs or mismatches; a variant or feature we do not support is such an error,
  reported as "unsupported" with its name.
- ``pokerroom bench engine [--json] [--hands N] [--repeats R]``: this engine against
  PokerKit on the same work in one run (PokerKit is a dev extra).
- ``pokerroom simulate [--hands N] [--players K] [--game NL|PL|FL|STUD] [--stakes 1/2]
  [--ante A] [--bring-in B] [--stack S] [--seed X] [--show]``: random legal play from
  seeded decks; checks that chips are conserved. ``STUD`` is fixed-limit seven card stud
  for 2 to 8 players: ``--stakes`` are the small and big bet (default 10/20), the ante
  defaults to a tenth of the small bet and the bring-in to three tenths (at least 1
  each: ante 1 and bring-in 3 at 10/20).
- ``pokerroom equity HAND HAND... [--board CARDS] [--dead CARDS] [--samples N] [--seed S]
  [--json]``: hold'em equity, win and tie of 2 to 9 hands, over every remaining board or N
  random ones; bad input exits 2. With ``--stud`` each argument is the 1 to 7 known cards
  of a seven card stud player (2 to 8), completed to 7 cards: exhaustive up to 2,000,000
  deals, otherwise Monte Carlo (200,000 deals unless ``--samples`` says).

Subcommands register themselves in ``COMMANDS`` (name -> function adding its parser).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

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
    Reshuffled,
    Shown,
    StreetEnded,
    UncalledReturned,
)
from pokerroom.core.hand import MAX_PLAYERS, MAX_STUD_PLAYERS, STREET_NAMES, STUD_STREET_NAMES, Hand
from pokerroom.core.phh import ReplayResult, replay_paths
from pokerroom.core.structures import Game, GameError
from pokerroom.sim import play_random_hand, random_action

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
    p.add_argument("target", choices=["engine", "evaluator"],
                   help="engine: the rules engine vs PokerKit; evaluator: hand evaluation vs "
                   "treys, eval7, phevaluator")
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--hands", type=_int_in(1), default=1000, help="hands to simulate (default 1000)")
    p.add_argument("--repeats", type=_int_in(1), default=3, help="runs per measurement (default 3)")
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
            f"{text!r} is not stakes like 1/2 (small blind/big blind, or stud's small bet/big bet; "
            "whole chips, 0 < small <= big)"
        )
    return int(small), int(big)


GAMES = {"NL": "no limit hold'em", "PL": "pot limit hold'em", "FL": "fixed limit hold'em",
         "STUD": "fixed limit seven card stud"}


def _add_simulate(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "simulate", help="play hands with random legal actions",
        description="Play hands with random legal actions from seeded decks (each hand starts "
        "from fresh stacks) and check that chips are conserved. Seven card stud (--game STUD) "
        f"seats 2 to {MAX_STUD_PLAYERS} players; its --stakes are the small and big bet (10/20), "
        "with an ante of a tenth of the small bet and a bring-in of three tenths (at least 1 "
        "each: 10/20 has ante 1 and bring-in 3) unless --ante and --bring-in say otherwise.",
    )
    p.add_argument("--hands", type=_int_in(1), default=10, metavar="N", help="hands to play (10)")
    p.add_argument("--players", type=_int_in(2, MAX_PLAYERS), default=6, metavar="K",
                   help=f"players per hand, 2 to {MAX_PLAYERS}; stud 2 to {MAX_STUD_PLAYERS} (6)")
    p.add_argument("--game", choices=tuple(GAMES), default="NL",
                   help="no limit, pot limit or fixed limit hold'em, or seven card stud (NL)")
    p.add_argument("--stakes", type=_stakes, default=None, metavar="SMALL/BIG",
                   help="hold'em: the blinds, fixed limit bets BB then 2*BB (1/2); "
                   "stud: the small and big bet (10/20)")
    p.add_argument("--ante", type=_int_in(0), default=None, metavar="A",
                   help="stud: the ante (a tenth of the small bet, at least 1)")
    p.add_argument("--bring-in", type=_int_in(1), default=None, metavar="B",
                   help="stud: the bring-in, less than the small bet (three tenths of it, at least 1)")
    p.add_argument("--stack", type=_int_in(1), default=None, metavar="S",
                   help="starting stack of every player (100 big blinds; stud 100 small bets)")
    p.add_argument("--seed", type=int, default=0, metavar="X", help="seed of decks and decisions (0)")
    p.add_argument("--show", action="store_true", help="print every hand's events")
    p.set_defaults(func=_simulate, parser=p)


def _game(kind: str, small: int, big: int, ante: int = 0, bring_in: int = 0) -> Game:
    if kind == "STUD":
        return Game.stud(small, big, ante=ante, bring_in=bring_in)
    if kind == "FL":
        return Game.fixed_limit(big, 2 * big, small_blind=small, big_blind=big)
    return Game.pot_limit(small, big) if kind == "PL" else Game.no_limit(small, big)


def stud_defaults(small_bet: int) -> tuple[int, int]:
    """The ante and bring-in ``simulate`` uses for stud at this small bet: a tenth and three
    tenths of it, at least 1 each (10/20: ante 1, bring-in 3)."""
    return max(1, small_bet // 10), max(1, 3 * small_bet // 10)


def play_random_stud_hand(game: Game, stacks: Sequence[int], deck: Sequence[int], rng: random.Random) -> Hand:
    """``play_random_hand`` for stud: the bring-in player posts the bring-in, completes or
    (when allowed) folds at random; fixed-limit bets are the smaller or the larger amount."""
    hand = Hand(game, stacks, deck)
    while not hand.complete:
        legal = hand.legal_actions()
        if legal.bring_in:
            kinds = ["bring_in", "complete"] if legal.min_to is not None else ["bring_in"]
            kind = rng.choice([*kinds, "fold"] if legal.fold else kinds)
            hand.act(kind, legal.min_to if kind == "complete" else None, legal.player)
            continue
        kind, amount = random_action(legal, rng)
        if kind == "raise":  # fixed limit: exactly min_to or max_to (an open pair's big bet)
            amount = rng.choice([legal.min_to, legal.max_to])
        hand.act(kind, amount, legal.player)
    return hand


def _simulate(args: argparse.Namespace) -> int:
    stud = args.game == "STUD"
    small, big = args.stakes or ((10, 20) if stud else (1, 2))
    ante, bring_in = stud_defaults(small) if stud else (0, 0)
    if args.ante is not None or args.bring_in is not None:
        if not stud:
            args.parser.error("--ante and --bring-in are for --game STUD")
        ante = ante if args.ante is None else args.ante
        bring_in = bring_in if args.bring_in is None else args.bring_in
    if stud and args.players > MAX_STUD_PLAYERS:
        args.parser.error(f"argument --players: stud seats 2 to {MAX_STUD_PLAYERS} players, "
                          f"not {args.players}")
    try:
        game = _game(args.game, small, big, ante, bring_in)
    except GameError as e:
        args.parser.error(str(e))
    stack = args.stack if args.stack is not None else 100 * (small if stud else big)
    stacks = [stack] * args.players
    play = play_random_stud_hand if stud else play_random_hand
    stakes = f"{small}/{big}" + (f", ante {ante}, bring-in {bring_in}" if stud else "")
    actions = showdowns = 0
    conserved = True
    for i in range(1, args.hands + 1):
        try:
            hand = play(game, stacks, seeded_deck(f"{args.seed}:{i}"), random.Random(f"{args.seed}:{i}:play"))
        except Exception as e:  # an engine failure: report it with what reproduces it
            print(f"hand {i} (seed {args.seed}) failed: {type(e).__name__}: {e}", file=sys.stderr)
            return 1
        actions += sum(1 for ev in hand.events if type(ev) in (Acted, Mucked)
                       or (type(ev) is Shown and not ev.forced))
        showdowns += any(type(ev) is PotAwarded and ev.value is not None for ev in hand.events)
        ok = sum(hand.stacks) == sum(stacks) and sum(hand.result().net) == 0
        conserved = conserved and ok
        if args.show:
            label = "Seven card stud" if stud else game.structure.label
            print(f"Hand {i} (seed {args.seed}): {label} {stakes}, {args.players} players, stacks {stack}")
            for line in describe_events(hand.events, stud=stud):
                print("  " + line)
            if not ok:
                print("  CHIPS NOT CONSERVED")
            print()
    print(f"hands: {args.hands}, actions: {actions}, showdowns: {showdowns}, "
          f"chips conserved: {'yes' if conserved else 'NO'} "
          f"({args.players} players, {args.game} {stakes}, stacks {stack}, seed {args.seed})")
    return 0 if conserved else 1


_POSTS = {"ante": "an ante", "small_blind": "the small blind", "big_blind": "the big blind",
          "blind": "a blind", "dead": "a dead blind", "bring_in": "the bring-in"}


def describe_events(events: Sequence[Event], stud: bool | None = None) -> list[str]:
    """Readable lines for a hand's events (players as p1, p2, ... in PHH order). Stud
    (``stud`` None: found from face-up cards among the events) prints each street's
    cards with the down cards in brackets and what each player shows."""
    if stud is None:
        stud = any(type(ev) is HoleDealt and ev.face_up for ev in events)
    if stud:
        return _describe_stud(events)
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
        if type(ev) is BoardDealt:
            board.extend(str(c) for c in ev.cards)
            cards = format_cards(ev.cards, " ")
            lines.append(f"{STREET_NAMES[ev.street]}: {cards} (board {' '.join(board)})")
        elif type(ev) is StreetEnded:
            lines.append(f"end of the {STREET_NAMES[ev.street]}: pot {ev.pot}")
        else:
            lines.extend(_describe_common(ev))
    return lines


def _describe_common(ev: Event) -> list[str]:
    """The lines both games print alike."""
    allin = " (all-in)" if getattr(ev, "all_in", False) else ""
    if type(ev) is Posted:
        return [f"p{ev.player + 1} posts {_POSTS.get(ev.kind, ev.kind)} {ev.amount}{allin}"]
    if type(ev) is Acted:
        what = {"fold": "folds", "check": "checks", "call": f"calls {ev.amount}", "bet": f"bets {ev.to}",
                "raise": f"raises to {ev.to}", "bring_in": f"brings in {ev.amount}",
                "complete": f"completes to {ev.to}"}.get(ev.action, ev.action)
        return [f"p{ev.player + 1} {what}{allin}"]
    if type(ev) is UncalledReturned:
        return [f"p{ev.player + 1} takes back {ev.amount} (uncalled)"]
    if type(ev) is Shown:
        forced = " (forced)" if ev.forced else ""
        return [f"p{ev.player + 1} shows {format_cards(ev.cards, ' ')}{forced}"]
    if type(ev) is Mucked:
        return [f"p{ev.player + 1} mucks"]
    if type(ev) is PotAwarded:
        name = "main pot" if ev.pot == 0 else f"side pot {ev.pot}"
        won = ", ".join(f"p{p + 1} {s}" for p, s in zip(ev.winners, ev.shares, strict=True))
        return [f"{name} {ev.amount} to {won}" + (f" ({describe(ev.value)})" if ev.value else "")]
    if type(ev) is HandEnded:
        return ["stacks: " + ", ".join(f"p{p + 1} {s}" for p, s in enumerate(ev.stacks))]
    return []


def _describe_stud(events: Sequence[Event]) -> list[str]:
    """Stud: third street as 'p1 [Qd Js] Ac' (down cards in brackets), each later street as
    'p1 Kc (showing Ac Kc)', seventh street down '[2d]', and the community card."""
    lines: list[str] = []
    up: dict[int, list[str]] = {}  # each player's up cards so far
    count: dict[int, int] = {}  # cards dealt to each player so far
    street = -1  # the street being dealt
    dealt: dict[int, list[tuple[str, bool]]] = {}  # its cards per player: (card, face up)

    def flush() -> None:
        if not dealt:
            return
        parts = []
        for p, cards in dealt.items():
            text = " ".join(f"[{c}]" if not face_up else c for c, face_up in cards)
            text = text.replace("] [", " ")  # third street: '[Qd Js] Ac'
            showing = f" (showing {' '.join(up[p])})" if 0 < street < 4 else ""
            parts.append(f"p{p + 1} {text}{showing}")
        lines.append(f"{STUD_STREET_NAMES[street]}: " + ", ".join(parts))
        dealt.clear()

    for ev in events:
        if type(ev) is HoleDealt:
            k = count.get(ev.player, 0)
            count[ev.player] = k + 1
            card_street = max(0, k - 2)
            if card_street != street or (street > 0 and ev.player in dealt):
                flush()
                street = card_street
            dealt.setdefault(ev.player, []).append((str(ev.card), ev.face_up))
            if ev.face_up:
                up.setdefault(ev.player, []).append(str(ev.card))
            continue
        flush()
        if type(ev) is BoardDealt:  # S9: too few cards left for everyone
            lines.append(f"{STUD_STREET_NAMES[ev.street]}: community card {format_cards(ev.cards, ' ')} "
                         "for every player (too few cards left)")
        elif type(ev) is Reshuffled:
            lines.append(f"the burned cards are shuffled into the stub: {ev.cards} cards")
        elif type(ev) is StreetEnded:
            lines.append(f"end of {STUD_STREET_NAMES[ev.street]}: pot {ev.pot}")
        else:
            lines.extend(_describe_common(ev))
    flush()
    return lines


# ---------------------------------------------------------------------------- equity


def _add_equity(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
    p.add_argument("--samples", type=_int_in(1), default=None, metavar="N",
                   help="Monte Carlo with N random boards instead of all of them")
    p.add_argument("--seed", type=_int_in(0), default=None, metavar="S",
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


# ---------------------------------------------------------------------------- main

COMMANDS: dict[str, Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]] = {
    "replay": _add_replay,
    "simulate": _add_simulate,
    "bench": _add_bench,
    "equity": _add_equity,
}


def _add_serve(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "serve", help="run the poker room server",
        description="Run the room: HTTP and WebSocket on HOST:PORT, the tables of the config file "
        "(TOML; a default room without one), accounts and hands in the database (an SQLite file by "
        "default, created on first start; postgresql://... for PostgreSQL). Migrations run on start.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=_int_in(0, 65535), default=8000, help="port (8000)")
    p.add_argument("--db", default=None, metavar="URL",
                   help="database URL (sqlite:///pokerroom.db, or $POKERROOM_DATABASE_URL)")
    p.add_argument("--schema", default=None, help="PostgreSQL schema for the room's tables (public)")
    p.add_argument("--config", default=None, metavar="FILE", help="room config, TOML (the default room)")
    p.add_argument("--bots", type=_int_in(0), default=0, metavar="N",
                   help="also start N bots in this process, playing through the WebSocket like people; "
                   "they leave seats free at every table (0)")
    p.add_argument("--think", type=float, default=1.5, metavar="SECONDS",
                   help="the bots' average think time per action (1.5)")
    p.add_argument("--trusted-proxy", action="append", default=[], metavar="ADDR",
                   help="a reverse proxy (address or network) whose X-Forwarded-For and X-Forwarded-Proto "
                   "are believed; repeatable (none: every client is its peer address)")
    p.add_argument("--https", action="store_true",
                   help="the room is reached over HTTPS (a TLS proxy in front): session cookies are Secure")
    p.add_argument("--max-connections", type=_int_in(1), default=10_000, metavar="N",
                   help="open connections in all, HTTP and WebSocket; past it HTTP answers 503 (10000)")
    p.add_argument("--sockets-per-address", type=_int_in(1), default=64, metavar="N",
                   help="open WebSockets per client address (64)")
    p.add_argument("--anonymous-per-address", type=_int_in(1), default=8, metavar="N",
                   help="of those, not logged in (8)")
    p.add_argument("--http-per-address", type=_int_in(1), default=64, metavar="N",
                   help="open HTTP connections per peer address, a trusted proxy's not counted (64)")
    p.set_defaults(func=_serve, parser=p)


def tune_gc() -> None:
    """Fewer, cheaper garbage collections for the long-running room and bot processes:
    with the default thresholds, collections over a room's many live objects stalled the
    event loop for hundreds of ms (p99 270 ms at 250 tables, 87 ms with these;
    docs/performance.md). Objects are still freed by reference counting as they go."""
    import gc

    gc.set_threshold(100_000, 50, 1000)


def _serve(args: argparse.Namespace) -> int:
    tune_gc()
    from pokerroom.config import ConfigError, load_room
    from pokerroom.store.store import StoreError, database_url

    database = args.db or os.environ.get("POKERROOM_DATABASE_URL") or "sqlite:///pokerroom.db"
    try:
        config = load_room(args.config)
        database_url(database)
    except (ConfigError, StoreError) as e:
        args.parser.error(str(e))
    except Exception as e:  # a URL SQLAlchemy cannot parse
        args.parser.error(f"bad database URL {database!r}: {e}")
    problem = _check_database(database, args.schema)
    if problem:
        args.parser.error(problem)
    from pokerroom.gateway.limits import Limits, network

    for proxy in args.trusted_proxy:
        try:
            network(proxy)
        except ValueError:
            args.parser.error(f"--trusted-proxy: not an address or network: {proxy!r}")
    # in-process bots connect (and on a fresh database register) from this machine's own
    # address: its caps make room for them
    limits = Limits(
        max_connections=args.max_connections + args.bots,
        sockets_per_address=args.sockets_per_address + args.bots,
        anonymous_per_address=args.anonymous_per_address,
        http_per_address=args.http_per_address + args.bots,
        trusted_proxies=tuple(args.trusted_proxy),
        https=args.https,
    )
    if args.bots:
        import dataclasses

        config = dataclasses.replace(config, registrations_per_hour=config.registrations_per_hour + args.bots)
    import asyncio

    import uvicorn

    from pokerroom.gateway.app import create_app, server_config

    app = create_app(config, database, args.schema, limits)
    server = uvicorn.Server(server_config(app, args.host, args.port))
    if not args.bots:
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: uvicorn has shut down cleanly
            server.run()
        return 0
    asyncio.run(_serve_with_bots(server, args))
    return 0


async def _serve_with_bots(server: object, args: argparse.Namespace) -> None:
    """The server and a crowd of bots in one event loop, with a progress line."""
    import asyncio

    import httpx

    from pokerroom.bots import Tally, crowd

    serving = asyncio.ensure_future(server.serve())  # type: ignore[attr-defined]
    while not getattr(server, "started", False):
        if serving.done():
            return
        await asyncio.sleep(0.1)
    host = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    url = f"http://{host}:{args.port}"
    print(f"pokerroom: open {url}/ in a browser (bots: {args.bots})", flush=True)
    async with httpx.AsyncClient() as client:
        tables = (await client.get(f"{url}/api/tables")).json()["tables"]
    tally = Tally()
    per_table = {t["name"]: max(1, int(t["seats"]) // 2) for t in tables}
    bots = crowd(url, args.bots, tables, strategies=["solid", "station", "random"], think=args.think,
                 tally=tally, per_table=per_table)
    stop = asyncio.Event()
    tasks = [asyncio.ensure_future(b.run(stop)) for b in bots]
    try:
        while not serving.done():
            await asyncio.sleep(5)
            print(f"pokerroom: {tally.total_hands} hands played, {tally.actions} bot actions", flush=True)
    finally:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)


def _add_bots(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "bots", help="play bots against a running room",
        description="Connect N bots to a running room (one WebSocket each, the protocol people use). "
        "They spread over the tables (or the ones named), leaving a seat free at each.",
    )
    p.add_argument("--url", default="http://127.0.0.1:8000", help="the room (http://127.0.0.1:8000)")
    p.add_argument("--count", type=_int_in(1, 100_000), default=6, metavar="N", help="bots (6)")
    p.add_argument("--tables", default=None, help="comma-separated table names (all)")
    p.add_argument("--strategy", default="mix", choices=("random", "station", "solid", "mix"),
                   help="random, station (calling station), solid, or mix of all three (mix)")
    p.add_argument("--think", type=float, default=1.0, metavar="SECONDS", help="average think time (1.0)")
    p.add_argument("--hands", type=_int_in(1), default=None, metavar="H", help="stop after H hands each")
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


COMMANDS["bots"] = _add_bots


def _check_database(database: str, schema: str | None) -> str | None:
    """Open the database and run its migrations before serving; what went wrong, if anything."""
    import asyncio

    from pokerroom.store.store import Store, StoreError

    async def check() -> None:
        store = Store(database, schema)
        try:
            await store.migrate()
        finally:
            await store.close()

    try:
        asyncio.run(check())
    except StoreError as e:
        return str(e)
    except Exception as e:  # unreachable server, unwritable file, ...
        return f"cannot use the database {database!r}: {type(e).__name__}: {str(e).splitlines()[0][:200]}"
    return None


def _add_schema(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "schema", help="print the WebSocket protocol's JSON schema",
        description="Print the JSON schema of the WebSocket messages (docs/protocol.schema.json).",
    )
    p.set_defaults(func=_schema)


def _schema(args: argparse.Namespace) -> int:
    from pokerroom.protocol import schema_text

    sys.stdout.write(schema_text())
    return 0


COMMANDS["serve"] = _add_serve
COMMANDS["schema"] = _add_schema


def _add_loadtest(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "loadtest", help="measure the room under N tables of bots",
        description="Start a room server (unless --url) with N no-limit tables of K seats, connect N*K bots "
        "in this process (one WebSocket each), warm up, then measure for --duration seconds: hands/s, "
        "actions/s, the latency from an action sent to the last player of the table receiving it (p50, p99, "
        "max), and the server's memory per connection. The room it starts gets the bots' accounts and "
        "sessions written into its database before it starts (seconds for thousands of bots); against --url "
        "they register over HTTP. --baseline also drives benchmarks/ws_baseline.py, a "
        "bare WebSocket broadcast server, with the same clients and gives the ratio of actions/s. Ctrl-C or "
        "SIGTERM stops it at any phase, with the servers it started (which also stop if it is killed).",
    )
    p.add_argument("--tables", type=_int_in(1), default=10, metavar="N", help="tables (10)")
    p.add_argument("--players-per-table", type=_int_in(2, 10), default=6, metavar="K",
                   help="bots per table (6)")
    p.add_argument("--think", type=float, default=1.0, metavar="SECONDS", help="average think time (1.0)")
    p.add_argument("--duration", type=float, default=30.0, metavar="S", help="seconds measured (30)")
    p.add_argument("--warmup", type=float, default=5.0, metavar="S",
                   help="seconds after all sit, unmeasured (5)")
    p.add_argument("--url", default=None,
                   help="a running room instead of starting one (bots register over HTTP; no memory figure)")
    p.add_argument("--baseline", action="store_true", help="also run the bare WebSocket server, same clients")
    p.add_argument("--seed", type=int, default=None, help="seed of the bots' decisions")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.set_defaults(func=_loadtest, parser=p)


def _loadtest(args: argparse.Namespace) -> int:
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


COMMANDS["loadtest"] = _add_loadtest


def _add_audit(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
    p.add_argument("--min-hands", type=_int_in(1), default=20, metavar="N",
                   help="dumping: hands a pair played together, at least (20)")
    p.add_argument("--share", type=float, default=0.9, metavar="F",
                   help="dumping: the share of the chips between them that went one way, at least (0.9)")
    p.set_defaults(func=_audit)


def _audit(args: argparse.Namespace) -> int:
    import asyncio

    from pokerroom.store.audit import audit, dumping
    from pokerroom.store.store import Store, StoreError

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


COMMANDS["audit"] = _add_audit


def _add_verify(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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


COMMANDS["verify"] = _add_verify


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
