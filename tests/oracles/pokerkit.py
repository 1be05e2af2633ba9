"""PokerKit 0.7.7 behind four calls: our benchmark rival and differential-test oracle.

Only benchmarks and tests import this module; PokerKit is a dev extra
(``pip install -e '.[dev]'``).

- ``load_phh_hands(paths, variants=("NT", "FT"))``: .phh / .phhs files (folders
  recursively) -> PokerKit ``HandHistory`` objects of those PHH variants ('F7S' for
  stud) (parsing, kept out of the timings).
- ``replay_all(hands)``: replay each hand to its end with PokerKit -> final stacks.
  The 7 F7S hands of wsop-2023-43-5 all end on their ``finishing_stacks``.
- ``simulate(n, seed)``: n random-legal-action 6-max no-limit hands played by PokerKit.
- ``PKHand``: one hold'em hand (NL, PL or FL) driven one betting decision at a time.
- ``simulate_stud(n, seed)``: the same for fixed-limit seven card stud.
- ``PKStudHand``: one fixed-limit seven card stud hand, decision by decision
  (``PKStudHand.from_deck`` deals it from a deck order).

PokerKit 0.7.7 quirks (the differential test should skip or allow for 3 to 5):

1. Heads-up blinds. PokerKit's constructor, like PHH's ``blinds_or_straddles``,
   takes the blinds as (small, big) whatever the player count, but with exactly
   two players it swaps them when posting: player 0 posts the big blind, player 1
   (the button) posts the small blind and acts first preflop. Antes swap likewise.
2. Raise sizes. ``state.min_completion_betting_or_raising_to_amount`` and
   ``max_...`` are "to" amounts (the actor's total bet this street), ``None`` when
   no raise is allowed: cap reached, a short all-in does not reopen the betting,
   the actor cannot cover the call, or everybody else is all-in. The minimum is cut
   to the actor's stack, so an all-in too short for a full raise shows as min == max.
   Pot limit's maximum is ``pot_completion_betting_or_raising_to_amount``.
3. Odd chip. Each pot (main and side, separately) is split with ``divmod`` and the
   whole remainder goes to the tied winner with the lowest player index (the first
   seat left of the button in PHH order; the big blind heads-up): a 3-way split
   with remainder 2 gives both chips to one player.
4. Short big blind. A big blind who cannot cover posts what he has, and PokerKit
   makes that the amount to call: 50/100 with a 60-chip big blind, the next player
   calls 60 and may raise to 160 (60 + 100), not call 100 / raise to 200.
5. Fixed-limit cap. Every street allows 4 completions/bets/raises and the blind
   does not count, so preflop allows the blind + 4 raises = 5 bets (to 5 small
   bets); postflop a bet + 3 raises = 4 bets, as usual.
6. Burning. The CARD_BURNING automation burns a real card from PokerKit's own deck
   (shuffled with the global ``random`` at state creation); it can be a card we
   deal later, and dealing a card not in that deck warns (an error under our
   pytest settings). So this module burns the unknown card ``'??'`` itself, as
   PokerKit's own ``HandHistory`` replay does.
7. Folding when checking is free is refused in tournament mode but only warned
   about in cash-game mode; ``PKHand`` uses tournament mode (one runout, no
   runout-count choice), so ``legal()['fold']`` is False then.
8. Whole chips. Four Pluribus hands record split pots in half chips (9987.5);
   PokerKit, given integer stacks, hands the odd chip to the lower index instead
   (10113 / 10112 for 10112.5 / 10112.5), so 4,683 of 4,687 match exactly.
9. Uncalled bets (and, with ``ante_trimming_status``, an ante nobody matched) go
   back to their owner when bets are collected; they never reach the pot.

Seven card stud (``FixedLimitSevenCardStud``), each checked by experiment with
``PKStudHand`` (FL 10/20, ante 1, bring-in 3; RULE-CASES numbers). Skip or allow
for S2, S4, S6 and S7 in a differential test:

S1. Bring-in: the lowest up card, ace high, ties by suit clubs < diamonds < hearts
    < spades (up cards 2h / 2c / Ac: the 2c; four aces: the Ac), as case 38. That
    player must post the bring-in or complete to the small bet (no fold, no
    check); then the player on his left acts. If everybody just calls the
    bring-in, third street ends: the bring-in gets no option.
S2. Short bring-in (case 40). With 2 chips left after the ante the low card posts
    2 all-in and PokerKit makes 2 the amount to call (case 40: at least 3), like
    quirk 4. All-in on the ante: the next player on the left owes the bring-in
    and may only post it or complete; PokerKit refuses his fold (case 40 allows it).
S3. Who acts first from 4th street (case 42, agrees): the best showing hand, quads >
    trips > two pair > pair > high cards compared rank by rank; straights and
    flushes showing count for nothing and suits never break ties: between equal
    boards (K♥9♦ vs K♠9♣, or suited K♥9♥ vs K♠9♣) the lower index acts first.
    Seventh street's order is sixth street's (the down card is not looked at).
S4. Open pair on 4th street (case 41, D8): PokerKit never allows the big bet; with
    K♠K♦ showing the bet is 10 only (raise_min_to == raise_max_to == 10). Our
    default (open pair: bet 10 or 20) differs.
S5. Cap (case 39, agrees): 4 completions/bets/raises a street; the bring-in does
    not count, the completion does: third street 10, 20, 30, 40 whether someone
    completes over the bring-in or the bring-in completes himself; 4th street
    10 ... 40; 5th to 7th 20 ... 80.
S6. Odd chip (case 45, D5): like quirk 3, the whole remainder goes to the tied
    winner with the lowest index, whatever the cards: two tied ten-high straights,
    pot 27: seat 0 gets 14 with either hand (D5: the hand holding the highest card
    of its five, by suit, T♠ beating T♥).
S7. Short deck on 7th street (case 43, S9/D4). PokerKit counts its deck plus burned
    plus folded (mucked) cards as dealable; only when those are fewer than the
    players still in does it turn ONE community card (on the board; it burns
    first). Dealing its own deck it then deals 7th-street down cards out of folded
    players' cards: 8 players, seat 0 folds on third street, 7 reach 7th: the
    folded As, Ad and Ks, 7h and Kd come back (seeds 0-2). Rule D4 never reuses
    folded cards and turns a community card (case 43c). Here, with ``'??'`` burns,
    PokerKit's deck is 52 minus the cards dealt: it turns a community card only if
    all 8 reach 7th street (48 dealt; case 43b, agrees) and deals down cards to 7
    (43a agrees; 43c, 8 dealt with one fold, differs). When PokerKit wants a card
    the caller's deal lacks, ``PKStudHand`` raises ``StudDealMismatch``.
S8. Burns as quirk 6: ``PKStudHand`` burns ``'??'`` before 4th, 5th, 6th and 7th
    street itself (the CARD_BURNING automation would draw from PokerKit's deck);
    folding when checking is free is refused, as quirk 7.
"""

from __future__ import annotations

import random
import sys
import time
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from tests.oracles.data import shared_phh

SUPPORTED_VARIANTS = ("NT", "FT")
PLURIBUS = str(shared_phh() / "pluribus")
DECK = tuple(r + s for r in "23456789TJQKA" for s in "cdhs")  # index = pokerroom Card int


def _pokerkit() -> Any:
    try:
        import pokerkit
    except ImportError as exc:  # pragma: no cover - depends on the environment
        msg = "PokerKit is not installed; it is a dev dependency: pip install -e '.[dev]'"
        raise RuntimeError(msg) from exc
    return pokerkit


def _phh_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix in (".phh", ".phhs"))
        else:
            yield path


def load_phh_hands(
    paths: Sequence[str | Path], variants: Iterable[str] = SUPPORTED_VARIANTS
) -> list[Any]:
    """Parse .phh (one hand) and .phhs (tables ``[1]``, ``[2]``, ...) files into
    PokerKit ``HandHistory`` objects, keeping only the given PHH variants (by
    default NT and FT; ``variants=("F7S",)`` for fixed-limit seven card stud)."""
    history = _pokerkit().HandHistory
    keep = frozenset((variants,) if isinstance(variants, str) else variants)
    hands: list[Any] = []
    for path in _phh_files(paths):
        with path.open("rb") as fp:
            loaded = list(history.load_all(fp)) if path.suffix == ".phhs" else [history.load(fp)]
        hands.extend(h for h in loaded if h.variant in keep)
    return hands


def replay_all(hands: Iterable[Any]) -> list[list[int | float]]:
    """Replay each parsed hand with PokerKit to its end; return the final stacks."""
    results: list[list[int | float]] = []
    for hand in hands:  # a HandHistory yields the state after every operation
        results.append(list(deque(hand, maxlen=1)[0].stacks))
    return results


def count_matches(hands: Sequence[Any], results: Sequence[Sequence[int | float]]) -> int:
    """How many replays end on the hand's recorded ``finishing_stacks``."""
    return sum(
        h.finishing_stacks is not None and list(h.finishing_stacks) == list(r)
        for h, r in zip(hands, results, strict=True)
    )


@cache
def _game_classes() -> dict[str, Any]:
    pk = _pokerkit()
    # PokerKit 0.7.7 has no pot-limit Texas hold'em class; its own mixins make one.
    bases = (pk.PotLimitPokerMixin, pk.TexasHoldemMixin, pk.UnfixedLimitHoldem)
    pot_limit = type("PotLimitTexasHoldem", bases, {})
    return {"NL": pk.NoLimitTexasHoldem, "PL": pot_limit, "FL": pk.FixedLimitTexasHoldem}


class _PKDriven:
    """What PKHand and PKStudHand share: the dealer's work done until a player must act
    (``_advance``, the cards from the subclass's ``_burn``, ``_hole_card`` and
    ``_board_cards``), and the betting decisions left to the caller."""

    state: Any
    _street: int

    def _burn(self) -> None:
        self.state.burn_card("??")

    def _hole_card(self, i: int) -> str:
        raise NotImplementedError

    def _board_cards(self) -> str:
        raise NotImplementedError

    def _advance(self) -> None:
        """Do the dealer's work until a player must act or the hand is over."""
        s = self.state
        while s.status and s.actor_index is None:
            if s.street_index is not None:
                self._street = s.street_index
            if s.can_burn_card("??"):
                self._burn()
            elif s.can_deal_hole():
                i = s.hole_dealee_index
                s.deal_hole(self._hole_card(i), i)
            elif s.can_deal_board():
                s.deal_board(self._board_cards())
            else:
                raise RuntimeError(f"PokerKit waits for an unexpected operation: {s}")
        if s.street_index is not None:
            self._street = s.street_index

    def actor(self) -> int | None:
        """Index of the player to act; None when no betting decision is pending."""
        return self.state.actor_index  # type: ignore[no-any-return]

    def fold(self) -> None:
        self.state.fold()
        self._advance()

    def check_call(self) -> None:
        self.state.check_or_call()
        self._advance()

    def raise_to(self, amount: int) -> None:
        """Complete, bet or raise to ``amount`` (the actor's total bet this street)."""
        self.state.complete_bet_or_raise_to(amount)
        self._advance()

    def street(self) -> int:
        """The current street (0: the first; see the class), or the last one reached once done."""
        return self._street

    def done(self) -> bool:
        return not self.state.status

    def stacks(self) -> list[int]:
        return list(self.state.stacks)


class PKHand(_PKDriven):
    """One hold'em hand played by PokerKit; only betting decisions are left to the caller.

    Players are in PHH order: 0 = small blind ... last = button; heads-up 0 = big
    blind and 1 = button/small blind. ``blinds`` is (small, big) in every case
    (PokerKit swaps them heads-up). ``antes`` is one ante for everybody.
    ``hole_cards`` like ``['AcKd', ...]``; ``board`` like ``'QsJh2d5c9h'``, dealt
    flop/turn/river as they are reached. Antes, blinds, burns, dealing, showdown
    and pushing/pulling chips happen automatically. ``street()``: 0 preflop .. 3 river.

    >>> h = PKHand('NL', [200, 200], (1, 2), 0, None, None, 2, ['AcAd', 'KcKd'], '2s3s4s5h9h')
    >>> legal = h.legal()
    >>> h.actor(), legal['fold'], legal['call_amount'], legal['raise_min_to'], legal['raise_max_to']
    (1, True, 1, 4, 200)
    >>> h.raise_to(200); h.check_call(); h.done(), h.street(), h.stacks()
    (True, 3, [400, 0])
    """

    def __init__(
        self,
        structure: str,
        stacks: list[int],
        blinds: tuple[int, int],
        antes: int,
        small_bet: int | None,
        big_bet: int | None,
        min_bet: int,
        hole_cards: list[str],
        board: str,
    ) -> None:
        pk = _pokerkit()
        a = pk.Automation
        automations = (
            a.ANTE_POSTING, a.BET_COLLECTION, a.BLIND_OR_STRADDLE_POSTING,
            a.RUNOUT_COUNT_SELECTION, a.HOLE_CARDS_SHOWING_OR_MUCKING,
            a.HAND_KILLING, a.CHIPS_PUSHING, a.CHIPS_PULLING,
        )
        cls = _game_classes()[structure]
        small = small_bet or min_bet
        sizes = (small, big_bet or 2 * small) if structure == "FL" else (min_bet,)
        game = cls(automations, True, antes, tuple(blinds), *sizes, mode=pk.Mode.TOURNAMENT)
        self.state: Any = game(list(stacks), len(stacks))
        self._holes = list(hole_cards)
        self._board = [board[i : i + 2] for i in range(0, len(board), 2)]
        self._street = 0
        self._advance()

    def _hole_card(self, i: int) -> str:
        return self._holes[i]

    def _board_cards(self) -> str:
        k = self.state.board_dealing_count
        cards, self._board = self._board[:k], self._board[k:]
        return "".join(cards)

    def legal(self) -> dict[str, Any]:
        """fold, check_call (bools), call_amount, raise_min_to / raise_max_to (or None)."""
        s = self.state
        if s.actor_index is None:
            return {"fold": False, "check_call": False, "call_amount": 0,
                    "raise_min_to": None, "raise_max_to": None}
        return {
            "fold": s.can_fold(),
            "check_call": True,
            "call_amount": s.checking_or_calling_amount,
            "raise_min_to": s.min_completion_betting_or_raising_to_amount,
            "raise_max_to": s.max_completion_betting_or_raising_to_amount,
        }


def deal_from_deck(order: Sequence[str], players: int) -> tuple[list[str], str]:
    """Hole cards and board from a deck order, dealt as a dealer would: one card at
    a time round the table from player 0 (player i gets ``order[i]`` and
    ``order[players + i]``), then burn, flop, burn, turn, burn, river (so the board
    is ``order[2p+1 : 2p+4] + order[2p+5] + order[2p+7]``)."""
    holes = [order[i] + order[players + i] for i in range(players)]
    b = 2 * players
    board = order[b + 1] + order[b + 2] + order[b + 3] + order[b + 5] + order[b + 7]
    return holes, board


def _play_randomly(hand: PKHand | PKStudHand, rng: random.Random) -> None:
    """Play ``hand`` to its end by the random policy ``simulate`` and ``simulate_stud``
    describe (the bring-in is stud's only)."""
    while hand.actor() is not None:
        legal = hand.legal()
        kinds = ["fold"] if legal["call_amount"] > 0 else []
        kinds.append("bring_in" if legal.get("bring_in") else "check_call")
        if legal["raise_min_to"] is not None:
            kinds.append("raise")
        kind = rng.choice(kinds)
        if kind == "fold":
            hand.fold()
        elif kind == "bring_in":
            assert isinstance(hand, PKStudHand)
            hand.bring_in()
        elif kind == "check_call":
            hand.check_call()
        else:
            hand.raise_to(rng.randint(legal["raise_min_to"], legal["raise_max_to"]))


def simulate(
    n_hands: int,
    seed: int,
    players: int = 6,
    stack: int = 10000,
    blinds: tuple[int, int] = (50, 100),
) -> int:
    """Play ``n_hands`` no-limit hold'em hands with PokerKit and random legal actions.

    Exact policy, to be mirrored call for call by our engine::

        rng = random.Random(seed)                 # one generator for the whole run
        for each hand:
            order = list(DECK); rng.shuffle(order)   # DECK = 2c 2d 2h 2s 3c ... As
            holes, board = deal_from_deck(order, players)
            every stack = stack; blinds as in PKHand (PHH order); min bet = big blind
            at each decision:
                kinds = (['fold'] if call_amount > 0 else []) + ['check_call']
                        + (['raise'] if a raise is allowed else [])
                kind = rng.choice(kinds)
                if kind == 'raise': raise_to(rng.randint(raise_min_to, raise_max_to))

    The deck is ours (the rng above), not PokerKit's automation; burns are ``'??'``.
    Returns the number of hands played.
    """
    rng = random.Random(seed)
    for _ in range(n_hands):
        order = list(DECK)
        rng.shuffle(order)
        holes, board = deal_from_deck(order, players)
        hand = PKHand("NL", [stack] * players, blinds, 0, None, None, blinds[1], holes, board)
        _play_randomly(hand, rng)
        if sum(hand.stacks()) != stack * players:
            raise AssertionError("PokerKit lost or made chips")
    return n_hands


class StudDealMismatch(RuntimeError):
    """PokerKit asks for a card the caller's deal does not provide.

    Only on seventh street when the deck runs short (quirk S7 of this module):
    PokerKit deals hole cards where rule S9 / D4 turns one community card, or the
    other way round; and ``PKStudHand.from_deck`` when its stub cannot cover a
    street (D4 would reshuffle the burns there)."""


class PKStudHand(_PKDriven):
    """One fixed-limit seven card stud hand played by PokerKit, decision by decision.

    Players are in PHH order: 0 sits left of the dealer and is dealt first.
    ``cards[i]`` lists player i's cards in deal order (up to 7, like ``'As'``): two
    down and one up on third street, one up on 4th, 5th and 6th, one down on 7th.
    They are dealt street by street to the players still in; each street from 4th
    on burns ``'??'`` first. ``board`` is the community card(s), used only if
    PokerKit turns one on 7th street (eight players there, quirk S7). Antes, bet
    collection, burns, dealing, showdown and pushing/pulling chips are automatic;
    the bring-in is a decision of the lowest up card (``bring_in()`` or complete
    with ``raise_to(small_bet)``). ``street()``: 0 third street .. 4 seventh.

    >>> cards = [['Ac', 'Ad', '9s'], ['Kc', 'Kd', '2c'], ['Qc', 'Qd', '5h']]
    >>> h = PKStudHand([100, 100, 100], 1, 3, 10, 20, cards)
    >>> h.actor(), h.legal()['bring_in'], h.legal()['fold'], h.legal()['raise_min_to']
    (1, True, False, 10)
    >>> h.bring_in(); h.actor(), h.legal()['call_amount'], h.legal()['raise_min_to']
    (2, 3, 10)
    >>> h.fold(); h.fold(); h.done(), h.street(), h.stacks()
    (True, 0, [99, 102, 99])
    """

    _holes: list[deque[str]]
    _board: deque[str]
    _order: list[str] | None
    _next: int

    def __init__(
        self,
        stacks: list[int],
        ante: int,
        bring_in: int,
        small_bet: int,
        big_bet: int,
        cards: list[list[str]],
        board: list[str] | None = None,
    ) -> None:
        if len(cards) != len(stacks) or any(len(c) > 7 for c in cards):
            raise ValueError("cards: one list of at most 7 cards per player")
        self._holes = [deque(c) for c in cards]
        self._board = deque(board or ())
        self._order = None
        self._start(stacks, ante, bring_in, small_bet, big_bet)

    @classmethod
    def from_deck(
        cls,
        stacks: list[int],
        ante: int,
        bring_in: int,
        small_bet: int,
        big_bet: int,
        order: Sequence[str],
    ) -> PKStudHand:
        """The hand dealt from a deck order as a dealer would (``simulate_stud``):
        third street one card at a time round the table from player 0, three rounds
        (down, down, up): player i gets ``order[i]``, ``order[p + i]``,
        ``order[2p + i]``. Then each later street: one burn (the next card), then
        one card to each player still in, from the lowest index up. Raises
        ``StudDealMismatch`` if the stub cannot give a street its burn plus one card
        per player still in (rule D4 would reshuffle the burns: not modelled)."""
        hand = cls.__new__(cls)
        hand._holes = [deque() for _ in stacks]
        hand._board = deque()
        hand._order = list(order)
        hand._start(stacks, ante, bring_in, small_bet, big_bet)
        return hand

    def _start(self, stacks: list[int], ante: int, bring_in: int, small_bet: int, big_bet: int) -> None:
        pk = _pokerkit()
        a = pk.Automation
        automations = (
            a.ANTE_POSTING, a.BET_COLLECTION, a.RUNOUT_COUNT_SELECTION,
            a.HOLE_CARDS_SHOWING_OR_MUCKING, a.HAND_KILLING, a.CHIPS_PUSHING, a.CHIPS_PULLING,
        )
        game = pk.FixedLimitSevenCardStud(
            automations, True, ante, bring_in, small_bet, big_bet, mode=pk.Mode.TOURNAMENT
        )
        self.state = game(list(stacks), len(stacks))
        self._next = 0
        self._street = 0
        self._advance()

    def _draw(self) -> str:
        assert self._order is not None
        if self._next >= len(self._order):
            raise StudDealMismatch("the deck order ran out")
        card = self._order[self._next]
        self._next += 1
        return card

    def _burn(self) -> None:
        s = self.state
        if self._order is not None:
            live = sum(s.statuses)
            if len(self._order) - self._next < live + 1:
                raise StudDealMismatch(
                    f"street {s.street_index}: {len(self._order) - self._next} cards left for a burn "
                    f"and {live} players (rule D4 reshuffles the burns; not modelled)"
                )
            self._draw()
        super()._burn()

    def _hole_card(self, i: int) -> str:
        if self._order is not None:
            return self._draw()
        if not self._holes[i]:
            raise StudDealMismatch(
                f"PokerKit deals player {i} a card on street {self.state.street_index}; "
                f"cards[{i}] has no more (on 7th street PokerKit may deal hole cards where "
                "rule D4 turns a community card: it counts folded cards as dealable)"
            )
        return self._holes[i].popleft()

    def _board_cards(self) -> str:
        if self._order is not None:
            return self._draw()
        if not self._board:
            raise StudDealMismatch(
                "PokerKit turns a community card on 7th street but the caller's deal has none"
            )
        return self._board.popleft()

    def legal(self) -> dict[str, Any]:
        """fold, check_call, bring_in (bools), call_amount, raise_min_to / raise_max_to
        (complete/bet/raise "to" amounts, or None). The player who owes the bring-in
        has bring_in True, fold and check_call False, call_amount 0 and may
        complete: raise_min_to == raise_max_to == the small bet."""
        s = self.state
        if s.actor_index is None:
            return {"fold": False, "check_call": False, "call_amount": 0, "bring_in": False,
                    "raise_min_to": None, "raise_max_to": None}
        return {
            "fold": s.can_fold(),
            "check_call": s.can_check_or_call(),
            "call_amount": s.checking_or_calling_amount or 0,
            "bring_in": s.can_post_bring_in(),
            "raise_min_to": s.min_completion_betting_or_raising_to_amount,
            "raise_max_to": s.max_completion_betting_or_raising_to_amount,
        }

    def bring_in(self) -> None:
        self.state.post_bring_in()
        self._advance()


def simulate_stud(
    n_hands: int,
    seed: int,
    players: int = 6,
    stack: int = 1000,
    ante: int = 1,
    bring_in: int = 3,
    small_bet: int = 10,
    big_bet: int = 20,
) -> int:
    """Play ``n_hands`` fixed-limit seven card stud hands with PokerKit and random
    legal actions.

    Exact policy, to be mirrored call for call by our engine::

        rng = random.Random(seed)                 # one generator for the whole run
        for each hand:
            order = list(DECK); rng.shuffle(order)   # DECK = 2c 2d 2h 2s 3c ... As
            every stack = stack; everybody antes; players in PHH order (0 = left of
            the dealer); the hand is dealt from order as PKStudHand.from_deck says:
              third street: order[i], order[p+i] (down), order[2p+i] (up) to player i
              4th..7th street: next card burned, then the next card to each player
              still in, lowest index first (up on 4th-6th, down on 7th)
            at each decision:
                kinds = (['fold'] if call_amount > 0 else [])
                        + (['bring_in'] if the bring-in may be posted else ['check_call'])
                        + (['raise'] if a completion/bet/raise is allowed else [])
                kind = rng.choice(kinds)
                if kind == 'raise': raise_to(rng.randint(raise_min_to, raise_max_to))

    Fixed limit makes raise_min_to == raise_max_to, but ``randint`` is still called
    (it consumes the generator). At most 6 players: 7 players all reaching 7th
    street need 7 x 7 + 4 burns = 53 cards, which rule D4 covers by reshuffling
    the burns. Returns the number of hands played.
    """
    if not 2 <= players <= 6:
        raise ValueError("simulate_stud plays 2 to 6 players (7 can run the deck short)")
    rng = random.Random(seed)
    for _ in range(n_hands):
        order = list(DECK)
        rng.shuffle(order)
        hand = PKStudHand.from_deck([stack] * players, ante, bring_in, small_bet, big_bet, order)
        _play_randomly(hand, rng)
        if not hand.done() or sum(hand.stacks()) != stack * players:
            raise AssertionError("PokerKit lost or made chips")
    return n_hands


def main(argv: Sequence[str] = ()) -> None:
    folder = argv[0] if argv else PLURIBUS
    hands = load_phh_hands([folder])  # parsing is not timed
    start = time.perf_counter()
    results = replay_all(hands)
    replay_s = time.perf_counter() - start
    matches = count_matches(hands, results)
    print(f"replay_all: {len(hands)} hands in {replay_s:.2f} s = "
          f"{len(hands) / replay_s:,.0f} hands/s; {matches} match finishing_stacks")
    start = time.perf_counter()
    n = simulate(500, seed=0)
    sim_s = time.perf_counter() - start
    print(f"simulate: {n} hands in {sim_s:.2f} s = {n / sim_s:,.0f} hands/s")
    stud = load_phh_hands([folder], variants=("F7S",))
    if stud:
        matches = count_matches(stud, replay_all(stud))
        print(f"replay_all F7S: {len(stud)} hands; {matches} match finishing_stacks")
    start = time.perf_counter()
    n = simulate_stud(300, seed=0)
    sim_s = time.perf_counter() - start
    print(f"simulate_stud: {n} hands in {sim_s:.2f} s = {n / sim_s:,.0f} hands/s")


if __name__ == "__main__":
    main(sys.argv[1:])
