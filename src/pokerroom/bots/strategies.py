"""Bot strategies: a decision from what a player sees on his turn (``Turn``), never more.

- ``random``: a random legal action (never folding when checking is free);
- ``station``: the calling station, checks and calls everything, never raises;
- ``solid``: preflop ranges by position-free hand tiers, then the pot odds against its
  equity (the project's equity calculator, Monte Carlo against random hands) after the
  flop; stud by what its cards make and what the others show.

A decision is ``(action, amount)`` with ``amount`` the total bet for 'bet'/'raise', None
otherwise. Every strategy uses only the legal actions and amounts the server sent.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Literal

from pokerroom.core.cards import parse_cards
from pokerroom.core.evaluator import evaluate_ints
from pokerroom.outbound import Legal
from pokerroom.protocol import YourTurn

Action = Literal["fold", "check", "call", "bet", "raise", "bring_in", "complete", "show", "muck"]  # Act's
Decision = tuple[Action, int | None]
RANKS = "23456789TJQKA"


@dataclass(frozen=True)
class Turn:
    """The your_turn message, as a strategy sees it (``legal`` is the message's own typed
    model, read by attribute)."""

    legal: Legal
    game: str
    street: str
    cards: tuple[str, ...]
    up: tuple[bool, ...]
    board: tuple[str, ...]
    pot: int
    stack: int
    players: int
    opponents_up: tuple[tuple[str, ...], ...] = field(default=())

    @classmethod
    def from_message(cls, m: YourTurn) -> Turn:
        return cls(
            legal=m.legal,
            game=m.game,
            street=m.street,
            cards=tuple(c for c in m.cards if c),
            up=tuple(m.up),
            board=tuple(m.board),
            pot=m.pot,
            stack=m.stack,
            players=m.players,
            opponents_up=tuple(tuple(u) for u in m.opponents_up),
        )


def _bet_range(legal: Legal) -> tuple[int, int] | None:
    """The legal totals of a bet or raise, None when neither is allowed (``min_to`` and
    ``max_to`` are None together: core.legal.Legal)."""
    if legal.min_to is None or legal.max_to is None:
        return None
    return legal.min_to, legal.max_to


def _passive(legal: Legal) -> Decision:
    if legal.show:
        return "show", None
    if legal.bring_in:
        return "bring_in", None
    if legal.check:
        return "check", None
    return "call", None


class Strategy:
    name = "base"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def decide(self, turn: Turn) -> Decision:
        raise NotImplementedError

    @staticmethod
    def raise_to(legal: Legal, target: int, fixed: bool = False) -> Decision:
        """A bet or raise to about ``target`` within the legal range; in fixed limit one of
        the two legal amounts (the full bet, or all in for less). ValueError when no bet or
        raise is legal."""
        span = _bet_range(legal)
        if span is None:
            raise ValueError("no bet or raise is legal now")
        low, high = span
        amount = max(low, min(high, target))
        if fixed and amount not in (low, high):
            amount = low
        return ("bet" if legal.check else "raise"), amount


class RandomBot(Strategy):
    name = "random"

    def decide(self, turn: Turn) -> Decision:
        legal, rng = turn.legal, self.rng
        if legal.show or legal.muck:
            return ("muck", None) if legal.muck and rng.random() < 0.5 else ("show", None)
        choices: list[Decision] = []
        if legal.fold:
            choices.append(("fold", None))
        if legal.bring_in:
            choices.append(("bring_in", None))
        elif legal.check:
            choices.append(("check", None))
        else:
            choices.append(("call", None))
        span = _bet_range(legal)
        if span is not None:
            low, high = span
            fixed = turn.game in ("FT", "F7S")  # fixed limit: exactly one of the two amounts
            amount = rng.choice([low, high] if fixed else [low, high, rng.randint(low, high)])
            verb: Action = "complete" if legal.bring_in else "bet" if legal.check else "raise"
            choices.append((verb, amount))
        return rng.choice(choices)


class CallingStation(Strategy):
    name = "station"

    def decide(self, turn: Turn) -> Decision:
        return _passive(turn.legal)


def preflop_tier(cards: tuple[str, ...]) -> int:
    """0 premium (QQ+, AK), 1 strong (TT-JJ, AQ, AJs, KQs), 2 playable (pairs, suited
    aces, suited broadways, connectors T9s+), 3 trash."""
    first, second = cards[0], cards[1]
    hi, lo = sorted((RANKS.index(first[0]), RANKS.index(second[0])), reverse=True)
    suited = first[1] == second[1]
    pair = hi == lo
    if (pair and hi >= RANKS.index("Q")) or (hi == 12 and lo == 11):
        return 0
    if (
        (pair and hi >= RANKS.index("T"))
        or (hi == 12 and lo >= 10)
        or (suited and hi == 12 and lo == 9)
        or (suited and hi == 11 and lo == 10)
    ):
        return 1
    connector = suited and hi - lo == 1 and lo >= 7
    if pair or (suited and hi == 12) or (suited and lo >= 8) or connector or lo >= 9:
        return 2
    return 3


class SolidBot(Strategy):
    """Tight preflop, pot odds against Monte Carlo equity after the flop."""

    name = "solid"
    samples = 300

    def decide(self, turn: Turn) -> Decision:
        legal = turn.legal
        if legal.show or legal.muck:
            return "show", None  # cards speak: the server mucks beaten hands by itself
        if turn.game == "F7S":
            return self._stud(turn)
        if not turn.board:
            return self._preflop(turn)
        eq = self._equity(turn)
        call = legal.call
        can_raise = legal.min_to is not None
        if can_raise and eq > 0.62:
            return self.raise_to(legal, turn.pot * 2 // 3 + call, self._fixed(turn))
        if call == 0:
            return "check", None
        odds = call / (turn.pot + call)
        return ("call", None) if eq >= odds else ("fold", None)

    @staticmethod
    def _fixed(turn: Turn) -> bool:
        return turn.game in ("FT", "F7S")

    def _preflop(self, turn: Turn) -> Decision:
        legal = turn.legal
        tier = preflop_tier(turn.cards)
        call = legal.call
        can_raise = legal.min_to is not None
        if tier == 0 and can_raise:
            return self.raise_to(legal, 3 * max(call, 2) + turn.pot // 2, self._fixed(turn))
        if tier <= 1 and call <= max(turn.stack // 10, 4 * max(call, 1) if tier == 0 else 0) + turn.pot:
            return ("check", None) if legal.check else ("call", None)
        if tier == 2 and call <= turn.pot // 2 + 2:
            return ("check", None) if legal.check else ("call", None)
        return ("check", None) if legal.check else ("fold", None)

    def _equity(self, turn: Turn) -> float:
        opponents = max(1, min(turn.players - 1, 8))
        try:
            return equity_vs_random(
                turn.cards[:2], turn.board, opponents, samples=self.samples, seed=self.rng.randrange(2**31)
            )
        except ValueError:  # a situation the calculator refuses: play it safe
            return 0.0

    def _stud(self, turn: Turn) -> Decision:
        legal = turn.legal
        if legal.bring_in:
            return "bring_in", None
        ranks = [c[0] for c in turn.cards]
        counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
        made = counts[0] >= 3 or (counts[0] == 2 and len(counts) > 1 and counts[1] == 2)
        pair = counts[0] >= 2
        suits = [c[1] for c in turn.cards]
        drawing = max(suits.count(s) for s in set(suits)) >= len(turn.cards) - 1 and len(turn.cards) <= 5
        if made and legal.min_to is not None:
            return self.raise_to(legal, legal.min_to, fixed=True)
        if legal.check:
            return "check", None
        call = legal.call
        if pair or drawing or call * 5 <= turn.pot:
            return "call", None
        return "fold", None


def equity_vs_random(
    hole: str | tuple[str, ...],
    board: str | tuple[str, ...] = (),
    opponents: int = 1,
    *,
    samples: int = 500,
    seed: int = 0,
) -> float:
    """Hold'em: the share of the pot ``hole`` wins on average against ``opponents`` random
    hands, over ``samples`` random deals of their cards and the rest of the board (a Monte
    Carlo estimate from a seeded generator: for a bot's decision, not for dealing).

    >>> round(equity_vs_random('AsAh', samples=2000, seed=1), 1)
    0.9
    """
    mine = parse_cards(hole)
    shown = parse_cards(board)
    if len(mine) != 2 or len(shown) not in (0, 3, 4, 5) or len(set(mine + shown)) != len(mine) + len(shown):
        raise ValueError("two hole cards and a board of 0, 3, 4 or 5 different cards are needed")
    if type(opponents) is not int or not 1 <= opponents <= 8:
        raise ValueError("opponents must be 1 to 8")
    if type(samples) is not int or samples < 1:
        raise ValueError("samples must be a whole number of at least 1")
    rng = random.Random(seed)
    used = set(mine) | set(shown)
    stub = [c for c in range(52) if c not in used]
    need = 5 - len(shown) + 2 * opponents
    total = 0.0
    for _ in range(samples):
        drawn = rng.sample(stub, need)
        full = list(shown) + drawn[: 5 - len(shown)]
        rest = drawn[5 - len(shown) :]
        me = evaluate_ints(list(mine) + full)
        best = max(evaluate_ints([rest[2 * k], rest[2 * k + 1], *full]) for k in range(opponents))
        if me > best:
            total += 1.0
        elif me == best:
            ties = 1 + sum(
                evaluate_ints([rest[2 * k], rest[2 * k + 1], *full]) == me for k in range(opponents)
            )
            total += 1.0 / ties
    return total / samples


STRATEGIES: dict[str, type[Strategy]] = {"random": RandomBot, "station": CallingStation, "solid": SolidBot}


def strategy(name: str, rng: random.Random | None = None) -> Strategy:
    try:
        return STRATEGIES[name](rng)
    except KeyError:
        raise ValueError(f"unknown strategy {name!r}: one of {', '.join(STRATEGIES)}") from None
