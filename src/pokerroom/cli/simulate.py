"""``pokerroom simulate``: random legal play from seeded decks; checks that chips are conserved."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence

from pokerroom.cli.args import Subparsers, int_in, stakes
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
from pokerroom.core.structures import Game, GameError
from pokerroom.sim import play_random_hand, random_action

GAMES = {"NL": "no limit hold'em", "PL": "pot limit hold'em", "FL": "fixed limit hold'em",
         "STUD": "fixed limit seven card stud"}


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "simulate", help="play hands with random legal actions",
        description="Play hands with random legal actions from seeded decks (each hand starts "
        "from fresh stacks) and check that chips are conserved. Seven card stud (--game STUD) "
        f"seats 2 to {MAX_STUD_PLAYERS} players; its --stakes are the small and big bet (10/20), "
        "with an ante of a tenth of the small bet and a bring-in of three tenths (at least 1 "
        "each: 10/20 has ante 1 and bring-in 3) unless --ante and --bring-in say otherwise.",
    )
    p.add_argument("--hands", type=int_in(1), default=10, metavar="N", help="hands to play (10)")
    p.add_argument("--players", type=int_in(2, MAX_PLAYERS), default=6, metavar="K",
                   help=f"players per hand, 2 to {MAX_PLAYERS}; stud 2 to {MAX_STUD_PLAYERS} (6)")
    p.add_argument("--game", choices=tuple(GAMES), default="NL",
                   help="no limit, pot limit or fixed limit hold'em, or seven card stud (NL)")
    p.add_argument("--stakes", type=stakes, default=None, metavar="SMALL/BIG",
                   help="hold'em: the blinds, fixed limit bets BB then 2*BB (1/2); "
                   "stud: the small and big bet (10/20)")
    p.add_argument("--ante", type=int_in(0), default=None, metavar="A",
                   help="stud: the ante (a tenth of the small bet, at least 1)")
    p.add_argument("--bring-in", type=int_in(1), default=None, metavar="B",
                   help="stud: the bring-in, less than the small bet (three tenths of it, at least 1)")
    p.add_argument("--stack", type=int_in(1), default=None, metavar="S",
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
