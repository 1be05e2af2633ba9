"""Differential test: our engine (``pokerroom.core.hand.Hand``) against PokerKit 0.7.7
(``tests.oracles.pokerkit.PKHand``), hand by hand and decision by decision.

Thousands of seeded random hold'em hands (no limit, pot limit, fixed limit; 2-9 players;
short stacks of a few big blinds and deep stacks; uniform antes sometimes) are dealt the
same cards in both engines. At every betting decision both must agree on the actor, the
street, fold / check / call and the call amount, and the raise range (``min_to`` and
``max_to``, or no raise); a random action legal in both is then applied to both. At the
end the final stacks must be identical.

Only the disagreements RULE-CASES.md documents (our rules win there) are special-cased,
each in one predicate below that names its case:

- D3 / case 15, ``short_big_blind``: the big blind posts less than a full big blind.
  PokerKit makes the short blind the amount to call: the hand is skipped. So is a short
  straddle (D10, ``short_straddle``), for the same reason.
- D10, ``straddle_min_raise``: a fifth of the no-limit and pot-limit hands of 3 or more
  players have a straddle (twice the big blind, by the player after the big blind; PokerKit
  takes it as a third ``blinds_or_straddles`` entry). Preflop, until a raise of at least the
  straddle, our minimum raise is the straddle more (RRP: to 8 after a straddle of 4) and
  PokerKit's its largest raise so far, at least the big blind (to 6): each minimum is
  compared with its engine's rule (``rule_range``), the maximum exactly, and only raises
  legal in both are taken. Who acts (the straddler last, with his option), fold / check /
  call and the pot-limit maximum (the straddle is the current bet) are compared as
  everywhere.
- D1 / case 21, ``pokerkit_fifth_preflop_bet``: fixed limit, preflop, our cap of four bets
  is reached and PokerKit still offers a raise: accepted, and that raise is never taken.
- D2 / cases 10, 12, 24, 25 and 27: after a short all-in everything is still compared
  exactly (cases 11-14, 24 and 26, where PokerKit agrees), except the decisions where
  PokerKit's short all-in bookkeeping (``Round``'s ``pk_`` fields, mirrored from
  pokerkit/state.py) shows the documented difference: ``short_all_in_reopens`` (no / pot
  limit, case 10: PokerKit reopens the betting to a player who acted and faces less than a
  full raise since; case 12: it refuses one who faces short all-ins that add up to a full
  raise; fixed limit, case 27: as case 10), ``all_in_counts_as_full_bet`` (fixed limit,
  case 25: our half-bet rule reopens, PokerKit's full-bet rule does not; case 24: an all-in
  completion likewise), ``pokerkit_counts_incomplete_all_in`` (case 24: PokerKit counts an
  incomplete all-in to its cap of four) and ``incomplete_all_in_completion`` (case 24: we
  complete to the last full bet level plus a bet, PokerKit raises from the all-in). There
  the side offering a raise must offer exactly the range by rule (``rule_range``), actor,
  fold / check / call and the call amount are compared as everywhere, and only actions
  legal in both engines are taken. Cases 24 (but its completion amount) and 27 are not
  among the PokerKit disagreements RULE-CASES lists: the same bookkeeping, newly met.
- D5 / case 32, ``odd_chip_pots``: a pot split with odd chips. Our shares are checked
  against D5 exactly; PokerKit's (whole remainder to one player, and pots that end with the
  same winners merged before splitting) only for the same total, each stack within the
  odd chips of the pots that player shared, and every other stack exactly.
- Case 20 (TDA 54-B/C), ``pot_limit_short_blind``: pot limit, preflop, a blind posted for
  less than its amount (a small blind all-in for less, or all-in on the ante). Our maximum
  counts the blinds as if full, PokerKit's the real pot: the minimum is still compared
  exactly, and both maximums exactly by that rule (``assert_pot_limit_short_blind``); only
  raises legal in both are taken.
- Case 30 / H12-H13, ``nobody_acts_again``: every other live player is all-in or cannot put
  in more than the current bet, and the player still to act has matched it. We ask nobody
  and run the board out; PokerKit asks that player for a check (check the only option): it
  is given that check, and the hand is compared on to the end.

Any other difference fails the test with the seed, the set-up and the actions so far.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from pokerroom.core.cards import FULL_DECK
from pokerroom.core.events import Acted, PotAwarded
from pokerroom.core.hand import BETTING, Hand, Legal
from pokerroom.core.pots import split
from pokerroom.core.structures import Game
from tests.oracles.differential import Mismatch, check_chunk, nobody_acts_again, odd_chip_pots
from tests.oracles.differential import play_chunk as play_seeded_chunk
from tests.oracles.pokerkit import DECK, PKHand, deal_from_deck

CHUNKS = 24
HANDS_PER_CHUNK = 125  # 3,000 hands in all
MIN_COMPARED_TO_END = 0.80  # per chunk: hands played to the end with the final stacks compared
FL_CAP = 4  # D1

NL_STAKES = ((1, 2), (5, 10), (50, 100), (25, 50), (10, 25), (2, 5))  # (small blind, big blind)
FL_STAKES = ((2, 4), (10, 20), (100, 200), (4, 8))  # (small bet, big bet); blinds half and all


@dataclass(frozen=True)
class Setup:
    """One random hand: everything both engines are given."""

    structure: str  # 'NL', 'PL' or 'FL'
    small_blind: int
    big_blind: int
    ante: int
    small_bet: int | None  # fixed limit only
    big_bet: int | None
    stacks: tuple[int, ...]
    order: tuple[int, ...]  # the deck, card ints
    straddle: int = 0  # D10: the straddle of player 2 (twice the big blind), 0 for none

    @property
    def n(self) -> int:
        return len(self.stacks)

    def game(self) -> Game:
        if self.structure == "NL":
            return Game.no_limit(self.small_blind, self.big_blind, self.ante)
        if self.structure == "PL":
            return Game.pot_limit(self.small_blind, self.big_blind, self.ante)
        assert self.small_bet is not None and self.big_bet is not None
        return Game.fixed_limit(
            self.small_bet, self.big_bet,
            small_blind=self.small_blind, big_blind=self.big_blind, ante=self.ante,
        )

    def hands(self) -> tuple[Hand, PKHand]:
        """Our hand and PokerKit's, dealt the same cards (PokerKit gets what our deck deals)."""
        blinds = (self.small_blind, self.big_blind, *((self.straddle,) if self.straddle else ()))
        forced = {"blinds": [*blinds, *[0] * (self.n - len(blinds))]} if self.straddle else {}
        ours = Hand(self.game(), list(self.stacks), [FULL_DECK[c] for c in self.order], **forced)
        holes, board = deal_from_deck([DECK[c] for c in self.order], self.n)
        theirs = PKHand(
            self.structure, list(self.stacks), blinds, self.ante,  # type: ignore[arg-type]
            self.small_bet, self.big_bet, self.big_blind, holes, board,
        )
        return ours, theirs

    def bet_size(self, street: int) -> int:
        if self.structure == "FL":
            size = self.small_bet if street < 2 else self.big_bet
            assert size is not None
            return size
        return self.big_blind

    def __str__(self) -> str:
        limit = f" bets {self.small_bet}/{self.big_bet}" if self.structure == "FL" else ""
        cards = " ".join(DECK[c] for c in self.order[: 2 * self.n + 8])
        straddle = f" straddle {self.straddle}" if self.straddle else ""
        return (f"{self.structure} blinds {self.small_blind}/{self.big_blind}{straddle}{limit} "
                f"ante {self.ante} stacks {list(self.stacks)} deck {cards}")


def random_setup(rng: random.Random, straddles: bool = False) -> Setup:
    """A random hand; a fifth of the no-limit and pot-limit ones of 3+ players (chosen by
    the deck's last card, so the other hands are what they were before straddles) have a
    straddle (D10); ``straddles``: a no-limit or pot-limit hand of 3+ players, straddled."""
    structure = rng.choice(("NL", "PL") if straddles else ("NL", "PL", "FL"))
    n = rng.randint(3 if straddles else 2, 9)
    small_bet = big_bet = None
    if structure == "FL":
        small_bet, big_bet = rng.choice(FL_STAKES)
        sb, bb = small_bet // 2, small_bet
    else:
        sb, bb = rng.choice(NL_STAKES)
    ante = rng.choice((max(1, bb // 10), max(1, bb // 4))) if rng.random() < 0.25 else 0
    depth = rng.random()
    stacks = []
    for _ in range(n):
        if depth < 0.45:  # short: a few big blinds, so all-ins and side pots are common
            if rng.random() < 0.95:
                stack = rng.randint(bb + ante + 1, 8 * bb + ante)
            else:  # now and then a stack that may not cover its blind
                stack = rng.randint(1, 2 * bb + ante)
        elif depth < 0.75:  # deep
            stack = rng.randint(50 * bb, 300 * bb)
        else:  # mixed
            stack = rng.randint(2 * bb, 150 * bb)
        stacks.append(stack)
    order = list(range(52))
    rng.shuffle(order)
    straddled = structure != "FL" and n >= 3 and (straddles or order[-1] % 5 == 0)
    return Setup(structure, sb, bb, ante, small_bet, big_bet, tuple(stacks), tuple(order),
                 2 * bb if straddled else 0)


# ----------------------------------------------------------- the documented disagreements


def short_big_blind(setup: Setup) -> bool:
    """D3 / RULE-CASES case 15: the big blind is all-in for less than a full big blind.

    We make the full big blind the amount to call (RRP); PokerKit makes the short blind it
    (at 50/100 with a 60-chip big blind: call 60, minimum raise to 160). Skip the hand."""
    bb = 0 if setup.n == 2 else 1  # PHH order; heads-up, player 0 is the big blind (H4)
    return setup.stacks[bb] - setup.ante < setup.big_blind


def short_straddle(setup: Setup) -> bool:
    """D10 with D3: the straddler (player 2) is all-in for less than his straddle. We call the
    full straddle, PokerKit the short one, as with a short big blind: skip the hand."""
    return bool(setup.straddle) and setup.stacks[2] - setup.ante < setup.straddle


def straddle_min_raise(setup: Setup, round_: Round) -> bool:
    """D10: preflop after a straddle, no raise yet of at least the straddle. Our minimum raise
    is the straddle more (RRP: NL 1/2, straddle 4: to 8); PokerKit's is its largest raise so
    far, at least the big blind (to 6; WSOP says the same)."""
    return (
        bool(setup.straddle) and round_.street == 0
        and max(round_.pk_raise, setup.big_blind) < round_.full_raise
    )


def pokerkit_fifth_preflop_bet(
    setup: Setup, round_: Round, ours: Legal, theirs: dict[str, Any]
) -> bool:
    """D1 / RULE-CASES case 21: fixed limit allows four bets a round, preflop the big blind
    being the first; PokerKit 0.7.7 allows the blind plus four raises preflop.

    True exactly when it is fixed limit, preflop, four full bets are in, our engine offers
    no raise and PokerKit still offers one (which we then never take)."""
    return (
        setup.structure == "FL" and round_.street == 0 and round_.bets >= FL_CAP
        and ours.min_to is None and theirs["raise_min_to"] is not None
    )


def short_all_in_reopens(setup: Setup, round_: Round, p: int, call: int) -> str | None:
    """D2 / RULE-CASES cases 10 and 27: which engine alone lets player ``p`` raise again after
    short all-ins: 'pokerkit', 'ours' or None (they agree).

    Our rule: no limit and pot limit (cases 10-14), a player who already acted on this street
    (checked, called, bet or raised) may raise again only if the bet has gone up by at least
    a full raise (the last full raise, at least the big blind) since his last action, by one
    raise or by short all-ins that add up (case 12). Fixed limit (cases 24-27), only if a
    full bet, a completion or an all-in of at least half a bet was made since.

    PokerKit 0.7.7 (``_verify_completion_betting_or_raising`` in pokerkit/state.py) keeps
    other books:

    - ``completion_betting_or_raising_amount``: the largest raise increment so far on the
      street, short all-ins included, 0 at its start (the blinds do not count);
    - ``acted_player_indices``: everyone who folded, checked, called, bet or raised; a bet or
      raise whose increment is at least that largest increment (``>=``, so the first bet or
      raise of a street, however short, preflop too) empties it (the raiser stays in);
    - ``consecutive_short_all_in_amounts``: the increments of the all-in bets and raises since
      the last raise that was not all-in; emptied by such a raise, and as soon as it adds up
      to at least the largest increment.

    It refuses the raise when the call is less than the largest increment ("Short all-in
    cannot be raised."), or when that list is not empty, adds up to less than the largest
    increment and the player is in ``acted_player_indices`` ("already acted"). In fixed
    limit that is the full-bet rule (cases 24 and 25, ``all_in_counts_as_full_bet``).

    That agrees with our rule in cases 11-14 and 24, and in most others, but not in:

    - 'pokerkit' (case 10(a); fixed limit case 27): a short all-in was the first bet or
      raise of the street, or bigger than every increment before it (all of them less than
      a full raise): PokerKit counts it as a full raise and reopens the betting to everyone,
      even to players who acted and face less than a full raise since. NL 2000/4000: A
      calls, C all-in for 7500, the big blind calls: A may raise in PokerKit. NL 50/100
      flop: A checks, B all-in for 50: A may raise to 150. FL 10/20: UTG calls, the next
      all-in for 13: UTG may raise to 23 (case 27 is not among the PokerKit disagreements
      RULE-CASES lists; it is case 10's bookkeeping, met in fixed limit).
    - 'ours' (case 12): the short all-ins since the player's action add up to a full raise
      (we reopen), but PokerKit's list was emptied part way (by the earlier ones adding up)
      and what it holds now is short: PokerKit refuses. NL 50/100 flop: A bets 100, B all-in
      170, C calls, D all-in 240 (70 + 70: the list is emptied), E all-in 300: A faces 200
      and C 130 more since they acted; we let both raise, PokerKit neither.

    Only these fail to agree (and a short all-in was made since the player acted)."""
    if p not in round_.acted:
        return None
    if setup.structure == "FL":
        ours = round_.acted[p] < round_.full_level
    else:
        ours = round_.level - round_.acted[p] >= round_.full_raise
    theirs = round_.pokerkit_reopened(p, call)
    if ours == theirs or not any(level > round_.acted[p] for level, _ in round_.short_all_ins):
        return None
    return "ours" if ours else "pokerkit"


def all_in_counts_as_full_bet(setup: Setup, round_: Round, p: int, call: int) -> str | None:
    """D2 / RULE-CASES cases 25 and 24, fixed limit: an all-in made since player ``p`` acted
    raised the bet by less than a full bet, yet counts as a full bet by our rules and
    reopens the betting to him; PokerKit (the full-bet rule: the bookkeeping of
    ``short_all_in_reopens``, the largest increment being a full bet) refuses his raise,
    the call being less than a full bet. Returns the case, or None.

    - 'case 25' (the half-bet rule, PokerKit-checked): an all-in of at least half a bet.
      10/20 turn: A bets 20, B calls, C all-in for 30: we let A raise to 50.
    - 'case 24' ("a completion lets A and B raise again"): an all-in of less than half a
      bet that reaches the completion after incomplete all-ins. 10/20: A bets 20, C all-in
      for 28, D calls, E all-in for 36, F all-in for 40: D faces 12 more and we let him
      raise to 60; PokerKit (no completion: to it F's all-in is 4 more) does not. (Not
      among the PokerKit disagreements RULE-CASES lists.)"""
    if (
        setup.structure != "FL" or p not in round_.acted or round_.acted[p] >= round_.full_level
        or round_.pokerkit_reopened(p, call)
    ):
        return None
    kinds = {kind for level, kind in round_.short_all_ins if level > round_.acted[p]}
    return "case 25" if "half" in kinds else "case 24" if "completion" in kinds else None


def pokerkit_counts_incomplete_all_in(setup: Setup, round_: Round) -> bool:
    """D2 / RULE-CASES case 24, fixed limit, the cap: an all-in of less than half a bet is
    not one of our four bets (10/20: 20, C all-in for 29, then 40, 60, 80); PokerKit counts
    every bet and raise, short all-ins too, to its four (20, 29, 49, 69). True when PokerKit
    has reached its cap and we have not, after an incomplete all-in on this street. (Not
    among the PokerKit disagreements RULE-CASES lists.)"""
    return (
        setup.structure == "FL" and round_.pk_raises >= FL_CAP and round_.bets < FL_CAP
        and any(kind == "incomplete" for _, kind in round_.short_all_ins)
    )


def incomplete_all_in_completion(setup: Setup, round_: Round) -> bool:
    """D2 / RULE-CASES case 24, fixed limit: an all-in of less than half a bet left the bet
    above the last full bet level. We complete to that level plus a bet (10/20: A bets 20,
    C all-in for 29: D may complete to 40); PokerKit raises from the bet (to 49)."""
    return setup.structure == "FL" and round_.level > round_.full_level


def assert_odd_chips(
    ours: list[int], theirs: list[int], pots: list[PotAwarded], fail: Callable[[str], Mismatch]
) -> None:
    """Case 32 with ``odd_chip_pots``: our shares exactly by D5; PokerKit's stacks equal ours
    in total, within each player's odd chips, and exactly for everybody else."""
    slack = [0] * len(ours)
    for pot in pots:
        if list(pot.winners) != sorted(pot.winners) or pot.shares != split(pot.amount, pot.winners):
            raise fail(f"D5: odd chips of {pot} not one each from the left of the button")
        for p in pot.winners:
            slack[p] += pot.amount % len(pot.winners)
    if sum(ours) != sum(theirs) or any(
        abs(a - b) > s for a, b, s in zip(ours, theirs, slack, strict=True)
    ):
        raise fail(f"final stacks (odd chips allowed {slack}): ours {ours}, pokerkit {theirs}")


def missing_blind_chips(setup: Setup) -> int:
    """How many chips the blinds are short of their amounts: a player who cannot cover his
    blind after the ante posts what is left (PHH order; heads-up player 0 is the big blind)."""
    seats = ((0, setup.big_blind), (1, setup.small_blind)) if setup.n == 2 else (
        (0, setup.small_blind), (1, setup.big_blind)
    )
    return sum(
        amount - min(amount, max(0, setup.stacks[i] - setup.ante)) for i, amount in seats
    )


def pot_limit_short_blind(setup: Setup, round_: Round) -> bool:
    """RULE-CASES case 20 (TDA 54-B/C), extended to a short small blind: pot limit, preflop,
    a blind was posted for less than its amount.

    We count short or missing blinds as if full for the pot-limit maximum preflop (a small
    blind all-in for less counts as a full small blind); PokerKit uses the real pot. At PL
    25/50 with the small blind all-in for 8: our maximum is 17 chips above PokerKit's.
    (A short big blind never gets here: ``short_big_blind`` skips the hand.)"""
    return setup.structure == "PL" and round_.street == 0 and missing_blind_chips(setup) > 0


def assert_pot_limit_short_blind(
    setup: Setup, round_: Round, hand: Hand, ours: Legal, theirs: dict[str, Any],
    fail: Callable[[str], Mismatch],
) -> tuple[int, int]:
    """Case 20 with ``pot_limit_short_blind``: the minimum exactly as PokerKit's; our maximum
    the pot-limit raise with the blinds counted as if full, PokerKit's that less the missing
    blind chips, each capped at the actor's all-in. Returns the raise range legal in both."""
    missing = missing_blind_chips(setup)
    pot = sum(setup.stacks) - sum(hand.stacks)  # every chip in the middle: antes, blinds, bets
    as_if_full = round_.level + pot + missing + ours.call  # call, then raise the whole pot
    assert ours.player is not None
    all_in = round_.level - ours.call + hand.stacks[ours.player]
    want_ours, want_theirs = min(as_if_full, all_in), min(as_if_full - missing, all_in)
    theirs_range = (theirs["raise_min_to"], theirs["raise_max_to"])
    # the minimums as each engine's rule has them: the same but after a straddle (D10)
    lows = (rule_range(setup, round_, hand, ours, False)[0], rule_range(setup, round_, hand, ours, True)[0])
    if (
        ours.min_to is None or ours.max_to is None or (ours.min_to, theirs_range[0]) != lows
        or (ours.max_to, theirs_range[1]) != (want_ours, want_theirs)
    ):
        raise fail(f"case 20: ours {(ours.min_to, ours.max_to)}, pokerkit {theirs_range}; by the rule "
                   f"(blinds short by {missing}) minimums {lows}, maximums {want_ours} and {want_theirs}")
    return max(lows), want_theirs


# ----------------------------------------------------------- the betting round, tracked


@dataclass
class Round:
    """Independent bookkeeping of the current betting round, from the actions taken: by our
    rules (RULE-CASES), and as PokerKit 0.7.7 keeps it (the ``pk_`` fields, after the
    ``State`` attributes named in ``short_all_in_reopens``)."""

    street: int
    level: int  # the highest bet
    full_raise: int  # no / pot limit: the last full raise (at least the big blind)
    bets: int  # fixed limit: the full bets made (preflop the big blind is the first)
    full_level: int  # fixed limit: the bet of the last full bet (case 24 completes from it)
    acted: dict[int, int] = field(default_factory=dict)  # player: the bet when he last acted
    # the all-in bets and raises short of a full raise: (the bet they made, what they count
    # as): no / pot limit 'short'; fixed limit 'half' (at least half a bet: a full bet, D2),
    # 'completion' (less, but to the last full bet level plus a bet, after incomplete
    # all-ins: a full bet) or 'incomplete' (neither: no bet)
    short_all_ins: list[tuple[int, str]] = field(default_factory=list)
    pk_raise: int = 0  # completion_betting_or_raising_amount: the largest increment
    pk_raises: int = 0  # completion_betting_or_raising_count: bets and raises, blinds not
    pk_acted: set[int] = field(default_factory=set)  # acted_player_indices
    pk_short: list[int] = field(default_factory=list)  # consecutive_short_all_in_amounts

    @classmethod
    def start(cls, setup: Setup, street: int) -> Round:
        if street == 0:  # D10: after a straddle the bet is the straddle, and so is a full raise
            level = setup.straddle or setup.big_blind
            return cls(0, level, level, 1, level)
        return cls(street, 0, setup.big_blind, 0, 0)

    def pokerkit_reopened(self, p: int, call: int) -> bool:
        """PokerKit's two short all-in conditions for a raise by ``p`` facing ``call``."""
        if call < self.pk_raise:
            return False
        return not (self.pk_short and sum(self.pk_short) < self.pk_raise and p in self.pk_acted)

    def record(self, setup: Setup, act: Acted) -> None:
        p = act.player
        self.pk_acted.add(p)
        if act.action in ("bet", "raise"):
            increment = act.to - self.level
            if setup.structure == "FL":
                size = setup.bet_size(self.street)
                complete = act.to >= self.full_level + size
                half = act.all_in and 2 * increment >= size  # D2: counts as a full bet
                if act.all_in and increment < size:
                    kind = "half" if half else "completion" if complete else "incomplete"
                    self.short_all_ins.append((act.to, kind))
                if complete or half:
                    self.bets += 1
                    self.full_level = act.to
            elif increment >= self.full_raise:
                self.full_raise = increment
            elif act.all_in:
                self.short_all_ins.append((act.to, "short"))
            if increment >= self.pk_raise:
                self.pk_acted = {p}
            self.pk_raise = max(self.pk_raise, increment)
            self.pk_raises += 1
            if act.all_in:
                self.pk_short.append(increment)
            else:
                self.pk_short.clear()
            if sum(self.pk_short) >= self.pk_raise:
                self.pk_short.clear()
            self.level = act.to
        self.acted[p] = self.level


def rule_range(
    setup: Setup, round_: Round, hand: Hand, ours: Legal, pokerkit: bool
) -> tuple[int, int]:
    """The raise range of the player to act, when raising is open to him, by our rules
    (``pokerkit=False``) or PokerKit's, worked out from the bookkeeping: no / pot limit the
    minimum to the bet plus the last full raise (both engines, case 13), the maximum all-in,
    or pot limit the bet plus the pot after calling (case 20 as ``assert_pot_limit_short_
    blind`` says, for us); fixed limit to the last full bet level plus a bet (case 24), for
    PokerKit to the bet plus its largest increment or a bet. Each capped at all-in. No / pot
    limit, PokerKit's minimum is the bet plus its largest increment, at least the big blind:
    the same as ours but after a straddle (D10, ``straddle_min_raise``)."""
    assert ours.player is not None
    all_in = round_.level - ours.call + hand.stacks[ours.player]
    if setup.structure == "FL":
        size = setup.bet_size(round_.street)
        to = round_.level + max(round_.pk_raise, size) if pokerkit else round_.full_level + size
        return min(to, all_in), min(to, all_in)
    low = round_.level + (max(round_.pk_raise, setup.big_blind) if pokerkit else round_.full_raise)
    if setup.structure == "NL":
        high = all_in
    else:
        pot = sum(setup.stacks) - sum(hand.stacks)  # every chip in the middle
        if not pokerkit and pot_limit_short_blind(setup, round_):
            pot += missing_blind_chips(setup)
        high = max(low, round_.level + pot + ours.call)
    return min(low, all_in), min(high, all_in)


def explain_raise_ranges(
    setup: Setup, round_: Round, hand: Hand, ours: Legal, theirs: dict[str, Any],
    fail: Callable[[str], Mismatch],
) -> tuple[tuple[int, int] | None, str, bool]:
    """The raise ranges differ: they must differ as a documented disagreement does, the side
    or sides offering a raise offering exactly what the rule says. Returns the raise range
    legal in both engines (or None), the reason and whether the decision is relaxed (False:
    both ranges compared exactly by the rule). Anything else fails."""
    assert ours.player is not None
    p, call = ours.player, ours.call
    mine = None if ours.min_to is None or ours.max_to is None else (ours.min_to, ours.max_to)
    pk = None if theirs["raise_min_to"] is None else (theirs["raise_min_to"], theirs["raise_max_to"])

    def by_rule(offered: tuple[int, int], pokerkit: bool, case: str) -> None:
        want = rule_range(setup, round_, hand, ours, pokerkit)
        if offered != want:
            raise fail(f"{case}: {'pokerkit' if pokerkit else 'ours'} offers {offered}, "
                       f"the rule {want}; ours {mine}, pokerkit {pk}")

    if pokerkit_fifth_preflop_bet(setup, round_, ours, theirs):
        assert pk is not None
        by_rule(pk, True, "case 21")
        return None, "D1 fixed-limit fifth bet preflop (case 21)", True
    if mine is not None and pk is not None:
        if pot_limit_short_blind(setup, round_):
            reason = "case 20 pot-limit maximum with a short blind (TDA 54-B/C)"
            return assert_pot_limit_short_blind(setup, round_, hand, ours, theirs, fail), reason, False
        if straddle_min_raise(setup, round_):
            by_rule(mine, False, "D10")
            by_rule(pk, True, "D10")
            reason = "D10 minimum raise after a straddle: to twice it (pokerkit: the big blind more)"
            return (max(mine[0], pk[0]), min(mine[1], pk[1])), reason, False
        if incomplete_all_in_completion(setup, round_):
            by_rule(mine, False, "case 24")
            by_rule(pk, True, "case 24")
            low, high = max(mine[0], pk[0]), min(mine[1], pk[1])
            reason = "D2 completion after an incomplete all-in (case 24)"
            return ((low, high) if low <= high else None), reason, True
    elif pk is not None:  # PokerKit alone offers a raise
        if short_all_in_reopens(setup, round_, p, call) == "pokerkit":
            case = "case 27" if setup.structure == "FL" else "case 10"
            by_rule(pk, True, case)
            return None, f"D2 pokerkit reopens after a short all-in ({case})", True
    elif mine is not None:  # we alone offer a raise
        if setup.structure != "FL" and short_all_in_reopens(setup, round_, p, call) == "ours":
            by_rule(mine, False, "case 12")
            return None, "D2 short all-ins add up, pokerkit's count does not (case 12)", True
        if pokerkit_counts_incomplete_all_in(setup, round_):
            by_rule(mine, False, "case 24")
            return None, "D2 pokerkit counts an incomplete all-in to the cap (case 24)", True
        counted = all_in_counts_as_full_bet(setup, round_, p, call)
        if counted is not None:
            by_rule(mine, False, counted)
            what = "half-bet all-in" if counted == "case 25" else "all-in completion"
            return None, f"D2 {what} reopens, not in pokerkit ({counted})", True
    sides = (f"{'no raise' if mine is None else 'a raise'} ours, "
             f"{'no raise' if pk is None else 'a raise'} pokerkit")
    raise fail(f"raise range ({sides}): ours {mine}, pokerkit {pk}")


# ----------------------------------------------------------- playing a hand in both



@dataclass
class Stats:
    hands: int = 0
    compared_to_end: int = 0  # final stacks compared (exactly, or by D5 with odd chips)
    exact_to_end: int = 0  # ... with no documented disagreement met and identical final stacks
    decisions: int = 0  # both engines asked (PokerKit-only checks, case 30, are not counted)
    decisions_relaxed: int = 0  # raise ranges not compared exactly (D1, D2)
    exact_after_short_all_in: int = 0  # ... compared exactly, later on a street with a short all-in
    # skipped hands, relaxed decisions, decisions checked by a rule (case 20), PokerKit-only
    # checks (case 30), stacks compared within odd chips (D5)
    reasons: Counter[str] = field(default_factory=Counter)

    def add(self, other: Stats) -> None:
        for name in ("hands", "compared_to_end", "exact_to_end", "decisions", "decisions_relaxed",
                     "exact_after_short_all_in"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.reasons.update(other.reasons)


def _amount(rng: random.Random, low: int, high: int) -> int:
    r = rng.random()
    if r < 0.35:
        return low
    if r < 0.6:
        return high  # the maximum: all-in in no limit
    return rng.randint(low, high)


def play_hand(rng: random.Random, setup: Setup, stats: Stats) -> None:
    """Play one hand in both engines; raise ``Mismatch`` on an undocumented difference."""
    stats.hands += 1
    if short_big_blind(setup):
        stats.reasons["hand skipped: D3 short big blind (case 15)"] += 1
        return
    if short_straddle(setup):
        stats.reasons["hand skipped: D10 short straddle (as D3)"] += 1
        return
    hand, pk = setup.hands()
    log: list[str] = []

    def fail(what: str) -> Mismatch:
        return Mismatch(what.split(":")[0], f"{what}\n  setup: {setup}\n  actions: "
                        f"{'; '.join(log) or '-'}\n  ours: {hand!r}\n  pokerkit: actor "
                        f"{pk.actor()} {pk.legal()} stacks {pk.stacks()}")

    round_ = Round.start(setup, 0)
    disagreed = False  # a documented disagreement was met
    while hand.phase == BETTING and hand.actor is not None:
        if hand.street != round_.street:
            round_ = Round.start(setup, hand.street)
        ours, theirs = hand.legal_actions(), pk.legal()
        p = ours.player
        stats.decisions += 1
        if (pk.actor(), pk.street()) != (p, hand.street):
            raise fail(f"actor: ours p{p} on street {hand.street}, "
                       f"pokerkit p{pk.actor()} on street {pk.street()}")
        their_check = theirs["check_call"] and theirs["call_amount"] == 0
        if (theirs["fold"], their_check, theirs["call_amount"]) != (ours.fold, ours.check, ours.call):
            raise fail(f"fold/check/call: ours fold={ours.fold} check={ours.check} call={ours.call}, "
                       f"pokerkit fold={theirs['fold']} check={their_check} call={theirs['call_amount']}")
        if setup.structure == "FL" and round_.bets >= FL_CAP and ours.min_to is not None:
            raise fail(f"D1: ours offers a raise {(ours.min_to, ours.max_to)} after {round_.bets} bets")
        raise_range = None if ours.min_to is None or ours.max_to is None else (ours.min_to, ours.max_to)
        if (theirs["raise_min_to"], theirs["raise_max_to"]) != (ours.min_to, ours.max_to):
            raise_range, reason, relaxes = explain_raise_ranges(
                setup, round_, hand, ours, theirs, fail,
            )
            stats.decisions_relaxed += relaxes
            stats.reasons[f"decision {'relaxed' if relaxes else 'checked by rule'}: {reason}"] += 1
            disagreed = True
        elif round_.short_all_ins:
            stats.exact_after_short_all_in += 1
        kind = rng.choice(
            (["fold"] if ours.fold else []) + ["check_call"] + (["raise"] if raise_range else [])
        )
        if kind == "fold":
            log.append(f"p{p} fold")
            events = hand.fold()
            pk.fold()
        elif kind == "check_call":
            log.append(f"p{p} {'call' if ours.call else 'check'}")
            events = hand.check_call()
            pk.check_call()
        else:
            assert raise_range is not None
            amount = _amount(rng, *raise_range)
            log.append(f"p{p} raise to {amount}")
            events = hand.bet_raise(amount)
            pk.raise_to(amount)
        act = events[0]
        assert type(act) is Acted
        round_.record(setup, act)
    while nobody_acts_again(hand, pk):
        log.append(f"p{pk.actor()} check (pokerkit only)")
        stats.reasons["pokerkit-only check: case 30 nobody acts again (H12-H13)"] += 1
        disagreed = True
        pk.check_call()
    while hand.actor is not None:  # showdown: always show
        hand.show()
    if pk.actor() is not None or not pk.done():
        raise fail(f"hand over: ours is, pokerkit still asks p{pk.actor()} to act")
    final = list(hand.stacks)
    if sum(final) != sum(setup.stacks):
        raise fail(f"our engine lost or made chips: {sum(final)} != {sum(setup.stacks)}")
    odd = odd_chip_pots(hand.events)
    if odd:
        stats.reasons["stacks compared within odd chips: D5 (case 32)"] += 1
        assert_odd_chips(final, pk.stacks(), odd, fail)
    elif pk.stacks() != final:
        raise fail(f"final stacks: ours {final}, pokerkit {pk.stacks()}")
    stats.compared_to_end += 1
    stats.exact_to_end += not disagreed and pk.stacks() == final


def play_chunk(seed: int, hands: int, straddles: bool = False) -> tuple[Stats, dict[str, list[str]]]:
    """``hands`` random hands from one seed: the statistics and the mismatches by kind
    (``straddles``: every hand has a straddle, D10)."""
    rng = random.Random(f"differential-{'straddles-' if straddles else ''}{seed}")
    return play_seeded_chunk(seed, hands, rng, Stats(), lambda r: random_setup(r, straddles), play_hand)


def test_chunks_add_up_to_enough_hands() -> None:
    assert CHUNKS * HANDS_PER_CHUNK >= 2000


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(CHUNKS))
def test_differential_against_pokerkit(seed: int) -> None:
    check_chunk(play_chunk, seed, HANDS_PER_CHUNK, MIN_COMPARED_TO_END)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(4))
def test_D10_straddled_hands_against_pokerkit(seed: int) -> None:
    """Every hand straddled (no limit and pot limit, 3 to 9 players): the straddler acts last
    with his option, the pot-limit maximum counts the straddle, and the one difference is
    the minimum raise (``straddle_min_raise``)."""
    stats, failures = play_chunk(seed, HANDS_PER_CHUNK, straddles=True)
    print(f"straddles {seed}: {stats}")
    assert not failures, "\n".join(found[0] for found in failures.values())
    assert stats.compared_to_end >= MIN_COMPARED_TO_END * stats.hands, stats
    assert stats.reasons["decision checked by rule: D10 minimum raise after a straddle: to twice it "
                         "(pokerkit: the big blind more)"] >= 50, stats
