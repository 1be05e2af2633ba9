"""Differential test, seven card stud: our engine (``pokerroom.core.hand.Hand`` with
``Game.stud``) against PokerKit 0.7.7 (``tests.oracles.pokerkit.PKStudHand``),
hand by hand and decision by decision.

Thousands of seeded random fixed-limit stud hands (2-8 players; antes, sometimes none;
short stacks of a few big bets, now and then a bring-in who cannot cover the ante or the
bring-in, and deep stacks; now and then a table that hardly ever folds, so that seven or
eight players reach seventh street and the deck runs short) are dealt the same cards in
both engines: PokerKit gets our deck order through ``PKStudHand.from_deck``. At every
betting decision both must agree on the actor, the street, the stacks and bets, the cards
(up and down) of every live player, fold, check/call and the call amount, the bring-in,
and the completion/bet/raise amount (PokerKit's minimum equals its maximum; ours is
``min_to``, and ``max_to`` equals it except under D8). A random action legal in both is
then applied to both. At the end the final stacks must be identical.

Only the disagreements RULE-CASES.md and the rival's stud quirks (S1-S8) document are
special-cased, each in one predicate below that names its case:

- D8 / case 41 (quirk S4), ``open_pair_fourth_street``: a player shows a pair when fourth
  street is dealt (the option stays if he folds: RULE-CASES does not say). We offer the
  small bet or the big bet (``max_to`` = the big-bet level), PokerKit only the small one:
  ``min_to`` is compared with PokerKit's amount, ``max_to`` exactly by the rule, and the
  big bet is never taken.
- D5 / case 45 (quirk S6), ``odd_chip_pots``: a pot split with a remainder. Our shares are
  checked exactly against D5 (highest card by suit among the five cards played, worked out
  here independently); PokerKit's (the whole remainder to the lowest index) only for the
  same total, each stack within the odd chips of the pots that player shared, and every
  other stack exactly. Ties are rare in stud, so one hand in ten is dealt from a tie-prone
  deck (``tie_prone_deck``: two or three players get the same ranks and never fold, the
  others fold at once, their antes making the pot odd).
- S9 / D4 / case 43 (quirk S7), ``card_shortage``: the stub cannot give a street its burn
  and one card per live player. We reshuffle the burns (``Reshuffled``) and, if that is
  still short, turn one community card (``BoardDealt``); PokerKit reuses folded cards, and
  ``PKStudHand.from_deck`` raises ``StudDealMismatch``. Both must run short on the same
  action; the hand is compared up to that street, then our engine is checked on its own:
  D4 step by step, the case-43 rule (folded cards are never dealt again), case 43d, chips.
- Case 40 (quirk S2), ``bring_in_cannot_complete``, ``short_bring_in`` and
  ``bring_in_all_in_on_ante``: the player who owes the bring-in has no more than the
  bring-in after the ante: we offer no completion, PokerKit a "completion" all in for the
  same chips (checked by that rule; the bring-in is posted). Posted all in for less than
  the bring-in: PokerKit makes what he posted the amount to call, we the full bring-in
  (checked); the hand is compared up to there, then our engine on its own. The lowest up
  card all in on the ante: PokerKit refuses the next player's fold, we allow it; if he
  folds, likewise.
- D2 / cases 24-27, ``short_all_in_street``: a completion, bet or raise all in for less
  than a full bet. Stud is fixed limit, so our half-bet rule applies (an all-in of half a
  bet or more is a full one) where PokerKit uses the full-bet rule and sizes the next raise
  from the short all-in: from there to the end of the street the amounts are not compared
  with PokerKit's (actor, fold, check/call and the call amount still are) but ours are
  checked by the half-bet rule (``assert_half_bet_rule``), and only a raise of the same
  amount in both is ever taken.
- Case 30 / H12-H13, ``nobody_acts_again``: every other live player is all in or covered
  and the player still to act has matched the bet. We ask nobody; PokerKit asks that
  player for a check (the only option): it is given that check.

Any other difference fails the test with the seed, the set-up and the actions so far.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import pytest

from pokerroom.core.cards import FULL_DECK
from pokerroom.core.evaluator import evaluate_ints
from pokerroom.core.events import Acted, BoardDealt, Event, HoleDealt, PotAwarded, Reshuffled
from pokerroom.core.hand import BETTING, Hand, Legal
from pokerroom.core.structures import Game
from tests.oracles.differential import Mismatch, check_chunk, nobody_acts_again, odd_chip_pots
from tests.oracles.differential import play_chunk as play_seeded_chunk
from tests.oracles.pokerkit import DECK, PKStudHand, StudDealMismatch

CHUNKS = 24
HANDS_PER_CHUNK = 125  # 3,000 hands in all
MIN_COMPARED_TO_END = 0.80  # per chunk: hands played to the end with the final stacks compared

# (small bet, big bet, ante, bring-in); PokerKit needs the bring-in below the small bet
STUD_STAKES = ((10, 20, 1, 3), (2, 4, 0, 1), (4, 8, 1, 2), (20, 40, 5, 5), (100, 200, 25, 30), (8, 16, 0, 3))
SEVENTH = 4  # street index: 0 third street ... 4 seventh street


@dataclass(frozen=True)
class Setup:
    """One random hand: everything both engines are given, and the table's style."""

    small_bet: int
    big_bet: int
    ante: int
    bring_in: int
    stacks: tuple[int, ...]
    order: tuple[int, ...]  # the deck, card ints
    loose: bool  # hardly anybody folds: many players reach seventh street
    tied: int = 0  # a tie-prone deck (``tie_prone_deck``): players 0 .. tied-1 never fold,
    # the others fold at once

    @property
    def n(self) -> int:
        return len(self.stacks)

    def game(self) -> Game:
        return Game.stud(self.small_bet, self.big_bet, ante=self.ante, bring_in=self.bring_in)

    def hands(self) -> tuple[Hand, PKStudHand]:
        """Our hand and PokerKit's, dealt from the same deck order."""
        ours = Hand(self.game(), list(self.stacks), [FULL_DECK[c] for c in self.order])
        theirs = PKStudHand.from_deck(
            list(self.stacks), self.ante, self.bring_in, self.small_bet, self.big_bet,
            [DECK[c] for c in self.order],
        )
        return ours, theirs

    def bet_size(self, street: int) -> int:
        return self.small_bet if street < 2 else self.big_bet

    @property
    def bring_in_seat(self) -> int:
        """S1 / case 38: the lowest up card, ace high, ties by suit clubs < diamonds < hearts
        < spades; that is the lowest card index (DECK is 2c 2d 2h 2s 3c ... As)."""
        return min(range(self.n), key=lambda i: self.order[2 * self.n + i])

    def __str__(self) -> str:
        ups = " ".join(DECK[self.order[2 * self.n + i]] for i in range(self.n))
        cards = " ".join(DECK[c] for c in self.order)
        style = " loose" if self.loose else f" tie-prone for {self.tied}" if self.tied else ""
        return (f"stud {self.small_bet}/{self.big_bet} ante {self.ante} bring-in {self.bring_in} "
                f"stacks {list(self.stacks)}{style} up cards {ups} deck {cards}")


def random_stacks(
    rng: random.Random, n: int, ante: int, bring_in: int, big_bet: int, tiny: float
) -> list[int]:
    depth = rng.random()
    stacks = []
    for _ in range(n):
        if depth < 0.45:  # short: a few big bets, so all-ins and side pots are common
            if rng.random() >= tiny:
                stack = rng.randint(ante + bring_in + 1, ante + 4 * big_bet)
            else:  # now and then a stack that may not cover the ante or a bring-in
                stack = rng.randint(1, ante + 2 * bring_in)
        elif depth < 0.75:  # deep
            stack = rng.randint(30 * big_bet, 200 * big_bet)
        else:  # mixed
            stack = rng.randint(2 * big_bet, 60 * big_bet)
        stacks.append(stack)
    return stacks


def tie_prone_deck(rng: random.Random, n: int, tied: int) -> list[int]:
    """A deck dealing players 0 .. tied-1 seven cards of the same ranks (suits differ), so
    that they tie unless a flush separates them, with the lowest up card among theirs.

    They get positions i, n + i, 2n + i on third street; if everybody else folds there,
    fourth to seventh street burn one card and deal them the next ``tied`` cards. The ranks
    are random (a player may pair himself); the others' up cards rank above the tied up cards."""
    unused = [rng.sample(range(4 * r, 4 * r + 4), 4) for r in range(13)]  # by rank, suits shuffled

    def take(rank: int) -> list[int]:
        while len(unused[rank]) < tied:  # too few left: the next rank up
            rank = (rank + 1) % 13
        cards, unused[rank] = unused[rank][:tied], unused[rank][tied:]
        return cards

    up_rank = rng.randrange(6)
    groups = [take(rng.randrange(13)), take(rng.randrange(13)), take(up_rank)]
    groups += [take(rng.randrange(13)) for _ in range(4)]
    low = min(groups[2])
    ups = rng.sample([c for rank in unused for c in rank if c // 4 > low // 4], n - tied)
    order: list[int | None] = [None] * 52
    for g in range(3):
        for i in range(tied):
            order[g * n + i] = groups[g][i]
    for i, c in enumerate(ups):
        order[2 * n + tied + i] = c
    for g in range(4):  # fourth to seventh street: a burn, then the tied players
        start = 3 * n + g * (tied + 1) + 1
        order[start : start + tied] = groups[3 + g]
    spare = [c for rank in unused for c in rank if c not in ups]
    rng.shuffle(spare)
    fill = iter(spare)
    return [next(fill) if c is None else c for c in order]


def random_setup(rng: random.Random) -> Setup:
    small_bet, big_bet, ante, bring_in = rng.choice(STUD_STAKES)
    if rng.random() < 0.1:  # D5: ties, so split pots with odd chips
        tied = rng.choice((2, 2, 3))
        n = rng.randint(tied + 1, tied + 3)
        stacks = random_stacks(rng, n, ante, bring_in, big_bet, tiny=0.0)
        order = tie_prone_deck(rng, n, tied)
        return Setup(small_bet, big_bet, ante, bring_in, tuple(stacks), tuple(order), False, tied)
    n = rng.randint(2, 8)
    stacks = random_stacks(rng, n, ante, bring_in, big_bet, tiny=0.05)
    order = list(range(52))
    rng.shuffle(order)
    setup = Setup(small_bet, big_bet, ante, bring_in, tuple(stacks), tuple(order), rng.random() < 0.25)
    if rng.random() < 0.06 and ante + bring_in > 1:  # case 40: the bring-in cannot cover it
        stacks[setup.bring_in_seat] = rng.randint(1, ante + bring_in - 1)
        setup = Setup(small_bet, big_bet, ante, bring_in, tuple(stacks), tuple(order), setup.loose)
    return setup


# ----------------------------------------------------------- the documented disagreements


def up_cards(pk: PKStudHand, p: int) -> list[str]:
    """Player p's up cards as PokerKit dealt them."""
    return [repr(c) for c, up in zip(pk.state.hole_cards[p], pk.state.hole_card_statuses[p],
                                     strict=True) if up]


def pair_showing(pk: PKStudHand) -> bool:
    """Whether a live player shows a pair (up cards as PokerKit dealt them)."""
    return any(
        live and len({c[0] for c in up_cards(pk, p)}) < 2 for p, live in enumerate(pk.state.statuses)
    )


def open_pair_fourth_street(round_: Round) -> bool:
    """D8 / RULE-CASES case 41 (quirk S4), rule S6: on fourth street a player was dealt a
    pair showing (``Round.open_pair``, read from PokerKit's deal at the street's first
    decision).

    We allow the small or the big bet (case 41: with K♠K♦ showing, check, bet 10 or bet 20;
    after a bet of 10, raise to 20 or 30); PokerKit only the small one. The option is the
    round's, from the deal: it stays when the player showing the pair folds (our engine
    decides it when the street is dealt; RULE-CASES does not say)."""
    return round_.street == 1 and round_.open_pair


def assert_open_pair(
    setup: Setup, round_: Round, pk: PKStudHand, ours: Legal, theirs: dict[str, Any],
    fail: Callable[[str], Mismatch],
) -> int | None:
    """Case 41 with ``open_pair_fourth_street``: our minimum is PokerKit's amount, our maximum
    the big bet over the last full bet level (capped at the actor's all-in). Returns the
    amount legal in both (the small bet; the big bet is never taken)."""
    if theirs["raise_min_to"] != ours.min_to:
        raise fail(f"D8: ours {(ours.min_to, ours.max_to)}, pokerkit {theirs['raise_min_to']}")
    if ours.min_to is None:
        return None
    p = pk.actor()
    assert p is not None
    all_in_to = pk.state.bets[p] + pk.state.stacks[p]
    want = min(round_.full_level + setup.big_bet, all_in_to)
    if ours.max_to != want:
        raise fail(f"D8: our maximum {ours.max_to}, by case 41 {want} (full level {round_.full_level})")
    return ours.min_to


def short_bring_in(setup: Setup, act: Acted) -> bool:
    """Case 40 (quirk S2): the bring-in was posted all in for less than the bring-in (by the
    lowest up card, or by the player on his left when he is all in on the ante).

    Case 40: the others must put in at least the full bring-in; PokerKit makes what he
    posted the amount to call (2 of a bring-in of 3) and sizes the completion from it."""
    return act.action == "bring_in" and act.amount < setup.bring_in


def bring_in_cannot_complete(setup: Setup, ours: Legal) -> bool:
    """Case 40 (quirk S2), at the bring-in decision: the player who owes the bring-in has no
    more than the bring-in after the ante.

    All he can do is post it (all in, for less or just enough): we offer no completion;
    PokerKit also offers to "complete" all in for the same chips."""
    p = ours.player
    return p is not None and ours.bring_in > 0 and setup.stacks[p] - setup.ante <= setup.bring_in


def bring_in_all_in_on_ante(setup: Setup) -> bool:
    """Case 40 (quirk S2): the lowest up card is all in on the ante.

    Case 40: the player on his left opens for at least the bring-in or folds; PokerKit
    makes that player post the bring-in or complete and refuses his fold."""
    return setup.stacks[setup.bring_in_seat] <= setup.ante


def short_all_in_street(round_: Round) -> bool:
    """D2 / RULE-CASES cases 24-27 (half-bet rule, fixed limit, so stud too): a completion,
    bet or raise all in for less than a full bet was made earlier on this street.

    From there to the end of the street the sizes differ: we count an all-in of at least
    half a bet as a full one and complete to the next full level; PokerKit uses the
    full-bet rule and sizes the next raise from the short all-in (after the bring-in's
    all-in "completion" to 2 of 3: PokerKit call 2, raise to 12)."""
    return round_.short_all_in


def assert_half_bet_rule(
    setup: Setup, round_: Round, pk: PKStudHand, ours: Legal, fail: Callable[[str], Mismatch]
) -> None:
    """D2 with ``short_all_in_street``: a completion, bet or raise we offer is to the next full
    level by the half-bet rule (capped at the actor's all-in), within the cap of four, and only
    to a player who has not acted since the last full bet."""
    if ours.min_to is None:
        return
    p = ours.player
    assert p is not None
    want = min(round_.d2_level + setup.bet_size(round_.street), pk.state.bets[p] + pk.state.stacks[p])
    if ours.min_to != want:
        raise fail(f"D2: our amount {ours.min_to}, by the half-bet rule {want} (level {round_.d2_level})")
    if round_.d2_bets >= 4 or round_.acted.get(p, -1) >= round_.d2_level:
        raise fail(f"D2: we offer p{p} a raise after {round_.d2_bets} full bets, acted at "
                   f"{round_.acted.get(p)}, last full level {round_.d2_level}")


def card_shortage(events: tuple[Event, ...]) -> bool:
    """S9 / D4 / RULE-CASES case 43 (quirk S7): our stub could not give a street its burn and
    one card per live player: we reshuffled the burns and maybe turned a community card.

    PokerKit counts folded cards as dealable and reuses them; ``PKStudHand.from_deck``
    raises ``StudDealMismatch`` exactly when its stub is short the same way."""
    return any(type(e) is Reshuffled or type(e) is BoardDealt for e in events)


def top_played_card(hand: Hand, p: int) -> tuple[int, bool]:
    """D5: the highest card (by rank, then suit) among the five cards player p plays, and
    whether that depends on which of several equally good fives he plays.

    RULE-CASES does not say which five then (T♣ and T♠ with 9-8-7-6: a ten-high straight
    with either ten); here the player plays the five most favourable to him (T♠)."""
    cards = [int(c) for c in hand.holes[p] + hand.board]
    best = evaluate_ints(cards)
    tops = {max(five) for five in combinations(cards, 5) if evaluate_ints(five) == best}
    return max(tops), len(tops) > 1


def assert_odd_chips(
    hand: Hand, ours: list[int], theirs: list[int] | None, pots: list[PotAwarded],
    fail: Callable[[str], Mismatch], stats: Stats,
) -> None:
    """Case 45 with ``odd_chip_pots``: our shares exactly by D5; PokerKit's stacks (when it
    played to the end) equal ours in total, within each player's odd chips, and exactly for
    everybody else."""
    slack = [0] * len(ours)
    for pot in pots:
        tops = {p: top_played_card(hand, p) for p in pot.winners}
        if any(ambiguous for _, ambiguous in tops.values()):
            stats.reasons["D5 odd chip: the five played are not unique (case 45)"] += 1
        order = sorted(pot.winners, key=lambda p: -tops[p][0])
        share, odd = divmod(pot.amount, len(order))
        want = {p: share + (k < odd) for k, p in enumerate(order)}
        if dict(zip(pot.winners, pot.shares, strict=True)) != want:
            raise fail(f"D5: shares of {pot} not by the highest card played; want {want}")
        for p in pot.winners:
            slack[p] += odd
    if theirs is not None and (sum(ours) != sum(theirs) or any(
        abs(a - b) > s for a, b, s in zip(ours, theirs, slack, strict=True)
    )):
        raise fail(f"final stacks (odd chips allowed {slack}): ours {ours}, pokerkit {theirs}")


# ----------------------------------------------------------- our engine on its own


def assert_shortage_dealt_by_d4(hand: Hand, fail: Callable[[str], Mismatch]) -> None:
    """S9 / D4 / case 43, from our events: the stub really was short (fewer cards than the
    live players plus a burn); the pool after the reshuffle is the stub plus every burn; if
    that suffices each live player gets one card from the dealer's left (down on seventh),
    otherwise one community card is turned (after a burn if two cards are left). Folded
    cards are never dealt again: every card in play is distinct."""
    events = hand.events
    k = next(i for i, e in enumerate(events) if type(e) is Reshuffled)
    shuffle = events[k]
    assert type(shuffle) is Reshuffled
    street = shuffle.street
    folded = {e.player for e in events[:k] if type(e) is Acted and e.action == "fold"}
    live = [p for p in range(hand.n) if p not in folded]
    dealt = sum(type(e) is HoleDealt for e in events[:k])
    burns = street - 1  # fourth street up to the street before this one burned one each
    stub = 52 - dealt - burns
    if stub >= len(live) + 1:
        raise fail(f"D4: reshuffled before street {street} with {stub} cards for {len(live)} players")
    pool = stub + burns
    if shuffle.cards != pool:
        raise fail(f"D4: the reshuffled stub holds {shuffle.cards}, stub {stub} + {burns} burns = {pool}")
    after = events[k + 1 : k + 1 + (len(live) if pool >= len(live) + 1 else 1)]
    if pool >= len(live) + 1:
        want: list[tuple[int, bool]] = [(p, street < SEVENTH) for p in live]
        got = [(e.player, e.face_up) for e in after if type(e) is HoleDealt]
        if got != want:
            raise fail(f"D4: after the reshuffle {after}, want a card each to {live}")
    elif not (len(after) == 1 and type(after[0]) is BoardDealt and len(after[0].cards) == 1):
        raise fail(f"D4: pool {pool} for {len(live)} players, want one community card, got {after}")
    in_play = [c for h in hand.holes for c in h] + list(hand.board)
    if len(set(in_play)) != len(in_play):
        raise fail("case 43: a card was dealt twice (a folded card reused?)")


def assert_community_opener(hand: Hand, sixth_opener: int | None, fail: Callable[[str], Mismatch]) -> None:
    """Case 43d: with a community card, whoever opened sixth street opens seventh: the first
    live player with chips from the player who acted first on sixth street."""
    if sixth_opener is None:
        raise fail("case 43d: betting on seventh street but none on sixth")
    n = hand.n
    want = next(
        q for q in ((sixth_opener + k) % n for k in range(n)) if not hand.folded[q] and hand.stacks[q]
    )
    if hand.actor != want:
        raise fail(f"case 43d: seventh street opened by p{hand.actor}, want p{want} (sixth: p{sixth_opener})")


# ----------------------------------------------------------- the betting round, tracked


@dataclass
class Round:
    """Independent bookkeeping of the current betting round, from the actions taken.

    ``full_level`` by PokerKit's full-bet rule (a completion, bet or raise is full when it
    reaches the last full level plus a bet; the bring-in is not a bet), ``d2_level`` and
    ``d2_bets`` by D2's half-bet rule (an all-in raising the bet by half a bet or more is a
    full one), ``acted`` the bet each player had to match when he last acted."""

    street: int
    level: int = 0
    full_level: int = 0
    short_all_in: bool = False
    open_pair: bool = False  # fourth street: a pair was showing when the street was dealt
    d2_level: int = 0
    d2_bets: int = 0
    acted: dict[int, int] = field(default_factory=dict)

    def record(self, setup: Setup, act: Acted) -> None:
        size = setup.bet_size(self.street)
        if act.action == "bring_in":
            self.level = setup.bring_in  # case 40: the full bring-in, even when short
        elif act.action in ("complete", "bet", "raise"):
            if act.to >= self.full_level + size:
                self.full_level = act.to
            elif act.all_in:
                self.short_all_in = True
            if act.to >= self.d2_level + size or 2 * (act.to - self.level) >= size:
                self.d2_level = act.to
                self.d2_bets += 1
            self.level = act.to
        if act.action != "fold":
            self.acted[act.player] = self.level


# ----------------------------------------------------------- playing a hand in both



@dataclass
class Stats:
    hands: int = 0
    compared_to_end: int = 0  # final stacks compared (exactly, or by D5 with odd chips)
    exact_to_end: int = 0  # ... with no documented disagreement met and identical final stacks
    compared_in_part: int = 0  # compared up to a documented point, then ours on its own
    decisions: int = 0  # both engines asked (PokerKit-only checks, case 30, are not counted)
    decisions_relaxed: int = 0  # amounts not compared with PokerKit's (D2; checked by the rule)
    decisions_alone: int = 0  # our engine on its own after a documented point
    # relaxed decisions, decisions checked by a rule (D8), stopping points (case 40, D4),
    # PokerKit-only checks (case 30), stacks compared within odd chips (D5)
    reasons: Counter[str] = field(default_factory=Counter)

    def add(self, other: Stats) -> None:
        for name in ("hands", "compared_to_end", "exact_to_end", "compared_in_part", "decisions",
                     "decisions_relaxed", "decisions_alone"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.reasons.update(other.reasons)


def _choose(rng: random.Random, setup: Setup, p: int, kinds: list[str]) -> str:
    """Uniform among the kinds; a loose table folds only one time in ten it could; on a
    tie-prone deck the tied players never fold and the others always do."""
    if setup.tied and "fold" in kinds:
        if p >= setup.tied:
            return "fold"
        kinds = [k for k in kinds if k != "fold"]
    if setup.loose and "fold" in kinds and len(kinds) > 1 and rng.random() < 0.9:
        kinds = [k for k in kinds if k != "fold"]
    return rng.choice(kinds)


def _apply_ours(hand: Hand, kind: str, amount: int | None) -> tuple[Event, ...]:
    if kind == "fold":
        return hand.fold()
    if kind == "bring_in":
        return hand.bring_in()
    if kind == "check_call":
        return hand.check_call()
    assert amount is not None
    return hand.bet_raise(amount)


def _apply_theirs(pk: PKStudHand, kind: str, amount: int | None) -> None:
    if kind == "fold":
        pk.fold()
    elif kind == "bring_in":
        pk.bring_in()
    elif kind == "check_call":
        pk.check_call()
    else:
        pk.raise_to(amount)


def _compare_state(hand: Hand, pk: PKStudHand, new_street: bool, fail: Callable[[str], Mismatch]) -> None:
    """Actor, street, stacks and bets; on a new street the cards of every live player."""
    p = hand.actor
    if (pk.actor(), pk.street()) != (p, hand.street):
        raise fail(f"actor: ours p{p} on street {hand.street}, "
                   f"pokerkit p{pk.actor()} on street {pk.street()}")
    state = pk.state
    if list(state.stacks) != hand.stacks or list(state.bets) != hand.bets:
        raise fail(f"stacks/bets: ours {hand.stacks}/{hand.bets}, pokerkit {list(state.stacks)}/"
                   f"{list(state.bets)}")
    if new_street:
        for q in range(hand.n):
            if hand.folded[q] != (not state.statuses[q]):
                raise fail(f"live players: ours folded {hand.folded}, pokerkit statuses {state.statuses}")
            if hand.folded[q]:
                continue
            theirs = [(repr(c), up) for c, up in zip(state.hole_cards[q], state.hole_card_statuses[q],
                                                     strict=True)]
            ours = [(DECK[c], up) for c, up in zip(hand.holes[q], hand.face_up[q], strict=True)]
            if theirs != ours:
                raise fail(f"cards of p{q}: ours {ours}, pokerkit {theirs}")


def play_hand(rng: random.Random, setup: Setup, stats: Stats) -> None:
    """Play one hand in both engines; raise ``Mismatch`` on an undocumented difference."""
    stats.hands += 1
    hand, pk = setup.hands()
    log: list[str] = []

    def fail(what: str) -> Mismatch:
        return Mismatch(what.split(":")[0], f"{what}\n  setup: {setup}\n  actions: "
                        f"{'; '.join(log) or '-'}\n  ours: {hand!r}\n  pokerkit: actor "
                        f"{pk.actor()} {pk.legal()} stacks {pk.stacks()}")

    round_ = Round(-1)
    first_actor: dict[int, int] = {}  # street -> who acted first on it
    comparing = True  # False once a documented point says: our engine on its own from here
    disagreed = False  # a documented disagreement was met
    first_decision = True
    while hand.phase == BETTING and hand.actor is not None:
        new_street = hand.street != round_.street
        if new_street:
            round_ = Round(hand.street)
            if comparing and hand.street == 1:
                round_.open_pair = pair_showing(pk)
        first_actor.setdefault(hand.street, hand.actor)
        if new_street and hand.street == SEVENTH and hand.board:
            assert_community_opener(hand, first_actor.get(SEVENTH - 1), fail)
            stats.reasons["D4 on our own: sixth street's opener opens seventh (case 43d)"] += 1
        ours = hand.legal_actions()
        p = ours.player
        assert p is not None
        if not comparing:
            stats.decisions_alone += 1
            kinds = (["fold"] if ours.fold else []) + (["bring_in"] if ours.bring_in else []) + (
                ["check_call"] if ours.check or ours.call else []
            ) + (["raise"] if ours.min_to is not None else [])
            kind = _choose(rng, setup, p, kinds)
            to = None
            if kind == "raise":
                assert ours.min_to is not None and ours.max_to is not None
                to = rng.choice((ours.min_to, ours.max_to))
            log.append(f"p{p} {kind}{'' if to is None else f' to {to}'} (ours only)")
            act = _apply_ours(hand, kind, to)[0]
            assert type(act) is Acted
            round_.record(setup, act)
            continue

        stats.decisions += 1
        _compare_state(hand, pk, new_street, fail)
        theirs = pk.legal()
        ours_check_call = ours.check or ours.call > 0
        if (theirs["check_call"], theirs["call_amount"], theirs["bring_in"]) != (
            ours_check_call, ours.call, ours.bring_in > 0
        ):
            raise fail(f"check/call/bring-in: ours check_call={ours_check_call} call={ours.call} "
                       f"bring_in={ours.bring_in}, pokerkit check_call={theirs['check_call']} "
                       f"call={theirs['call_amount']} bring_in={theirs['bring_in']}")
        fold_ours_only = False
        if theirs["fold"] != ours.fold:
            if first_decision and bring_in_all_in_on_ante(setup) and ours.fold and not theirs["fold"]:
                fold_ours_only = True
                stats.reasons["decision: fold ours only, case 40 bring-in all in on the ante"] += 1
                disagreed = True
            else:
                raise fail(f"fold: ours {ours.fold}, pokerkit {theirs['fold']}")
        if theirs["raise_min_to"] != theirs["raise_max_to"]:
            raise fail(f"pokerkit offers a range {theirs['raise_min_to']}..{theirs['raise_max_to']}")
        amount: int | None = ours.min_to
        if first_decision and bring_in_cannot_complete(setup, ours):
            all_in_to = setup.stacks[p] - setup.ante
            if ours.min_to is not None or theirs["raise_min_to"] != all_in_to:
                raise fail(f"case 40: the bring-in has {all_in_to}: ours {(ours.min_to, ours.max_to)}, "
                           f"pokerkit {theirs['raise_min_to']}, want no completion and {all_in_to}")
            stats.reasons["decision checked by rule: case 40 no completion by a bring-in all in"] += 1
            disagreed = True
        elif open_pair_fourth_street(round_) and not short_all_in_street(round_):
            amount = assert_open_pair(setup, round_, pk, ours, theirs, fail)
            if ours.min_to is not None and ours.max_to != ours.min_to:
                stats.reasons["decision checked by rule: D8 open pair on fourth street (case 41)"] += 1
                if not pair_showing(pk):
                    stats.reasons["... of which the player showing the pair has folded"] += 1
                disagreed = True
        elif (theirs["raise_min_to"], theirs["raise_min_to"]) != (ours.min_to, ours.max_to):
            if not short_all_in_street(round_):
                raise fail(f"raise: ours {(ours.min_to, ours.max_to)}, pokerkit {theirs['raise_min_to']}")
            assert_half_bet_rule(setup, round_, pk, ours, fail)
            stats.decisions_relaxed += 1
            stats.reasons["decision relaxed: D2 short all-in street (cases 24-27)"] += 1
            disagreed = True
            same = ours.min_to is not None and ours.min_to == theirs["raise_min_to"]
            amount = ours.min_to if same else None  # never our big bet (D8)
        kinds = (["fold"] if ours.fold else []) + (["bring_in"] if ours.bring_in else []) + (
            ["check_call"] if ours_check_call else []
        ) + (["raise"] if amount is not None else [])
        kind = _choose(rng, setup, p, kinds)
        log.append(f"p{p} {kind}{'' if kind != 'raise' else f' to {amount}'}")
        events = _apply_ours(hand, kind, amount if kind == "raise" else None)
        act = events[0]
        assert type(act) is Acted
        round_.record(setup, act)
        stop = None
        if fold_ours_only and kind == "fold":
            stop = "compared in part: case 40 bring-in all in on the ante, the next player folds"
        elif short_bring_in(setup, act):
            stop = "compared in part: case 40 bring-in posted all in for less than the bring-in"
            following = hand.legal_actions()
            if following.player is not None and following.call != min(
                setup.bring_in, hand.stacks[following.player]
            ):
                raise fail(f"case 40: after a bring-in all in for {act.amount} we ask p"
                           f"{following.player} to call {following.call}, not the full bring-in")
        first_decision = False
        if stop is not None:
            stats.reasons[stop] += 1
            comparing = False
            continue
        shortage = card_shortage(events)
        try:
            _apply_theirs(pk, kind, amount)
            while shortage and nobody_acts_again(hand, pk):
                log.append(f"p{pk.actor()} check (pokerkit only)")
                stats.reasons["pokerkit-only check: case 30 nobody acts again (H12-H13)"] += 1
                pk.check_call()
        except StudDealMismatch as exc:
            if not shortage:
                raise fail(f"deal: pokerkit ran short ({exc}), our stub did not") from None
        else:
            if shortage:
                raise fail("deal: our stub ran short (D4), pokerkit's did not")
        if shortage:
            stats.reasons["compared in part: S9/D4 card shortage (case 43), up to that street"] += 1
            comparing = False

    if comparing:
        while nobody_acts_again(hand, pk):
            log.append(f"p{pk.actor()} check (pokerkit only)")
            stats.reasons["pokerkit-only check: case 30 nobody acts again (H12-H13)"] += 1
            disagreed = True
            pk.check_call()
    while hand.actor is not None:  # showdown: always show
        hand.show()
    final = list(hand.stacks)
    if sum(final) != sum(setup.stacks):
        raise fail(f"our engine lost or made chips: {sum(final)} != {sum(setup.stacks)}")
    if any(type(e) is Reshuffled for e in hand.events):
        assert_shortage_dealt_by_d4(hand, fail)
        dealt = "one community card turned (case 43b/c)" if hand.board else "reshuffled, dealt (case 43a)"
        stats.reasons[f"D4 on our own: {dealt}"] += 1
    theirs_final = pk.stacks() if comparing else None
    if comparing and (pk.actor() is not None or not pk.done()):
        raise fail(f"hand over: ours is, pokerkit still asks p{pk.actor()} to act")
    odd = odd_chip_pots(hand.events)
    if odd:
        stats.reasons["stacks compared within odd chips: D5 (case 45)"] += 1
        assert_odd_chips(hand, final, theirs_final, odd, fail, stats)
    elif comparing and theirs_final != final:
        raise fail(f"final stacks: ours {final}, pokerkit {theirs_final}")
    if comparing:
        stats.compared_to_end += 1
        stats.exact_to_end += not disagreed and theirs_final == final
    else:
        stats.compared_in_part += 1


def play_chunk(seed: int, hands: int) -> tuple[Stats, dict[str, list[str]]]:
    """``hands`` random stud hands from one seed: the statistics and the mismatches by kind."""
    rng = random.Random(f"differential-stud-{seed}")
    return play_seeded_chunk(seed, hands, rng, Stats(), random_setup, play_hand)


def test_chunks_add_up_to_enough_hands() -> None:
    assert CHUNKS * HANDS_PER_CHUNK >= 1000


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(CHUNKS))
def test_differential_stud_against_pokerkit(seed: int) -> None:
    check_chunk(play_chunk, seed, HANDS_PER_CHUNK, MIN_COMPARED_TO_END)
