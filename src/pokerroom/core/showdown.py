"""The showdown and the settlement: who shows first, who may muck, who wins each pot.

The second layer of the hand (``Dealing`` <- ``Showdown`` <- ``Betting`` <- ``Hand``): once
the betting is over, it runs out the board if the players are all in, asks each player
in turn to show or muck (a called bettor and an all-in hand are shown for him), awards
each pot from the last side pot down, and ends the hand.
"""

from __future__ import annotations

from itertools import combinations

from pokerroom.core.cards import Card
from pokerroom.core.dealing import Dealing
from pokerroom.core.evaluator import evaluate_ints
from pokerroom.core.events import HandEnded, PotAwarded, Shown
from pokerroom.core.legal import COMPLETE, SHOWDOWN
from pokerroom.core.pots import Pot, build_pots, split
from pokerroom.core.stud import odd_chip_order
from pokerroom.core.variants import Variant

_NEW = tuple.__new__  # see dealing.py


class Showdown(Dealing):
    """Showing, mucking and awarding the pots."""

    _variant: Variant
    last_street: int
    phase: str
    actor: int | None
    aggressor: int | None
    _round_opener: int  # who first had the chance to bet this round
    starting_stacks: tuple[int, ...]
    stacks: list[int]
    collected: list[int]  # chips each player put in on earlier streets (and antes)
    dead: int  # dead blinds: dead money for the main pot
    dead_antes: list[int]  # antes not everyone pays alike (a big-blind ante)
    shown: set[int]
    mucked: set[int]
    reached_showdown: set[int]
    winnings: list[int]
    protected: list[int]  # chips set aside by all-in protection (D7), returned at the end
    _order: list[int]  # showdown order
    _pots: list[Pot]
    _values: dict[int, int]
    _forced_first: int  # the called bettor, who must show first (-1: none)

    def _begin_showdown(self, run_out: bool) -> None:
        n, folded = self.n, self.folded
        first = self.aggressor if self.aggressor is not None and not folded[self.aggressor] else None
        if first is None:  # H14/S10: no bet in the last round: who first could bet shows first
            start = self._round_opener
            first = next((start + k) % n for k in range(n) if not folded[(start + k) % n])
        self._order = [(first + k) % n for k in range(n) if not folded[(first + k) % n]]
        self.reached_showdown = set(self._order)
        self._pots = build_pots(
            self.collected, folded, [s == 0 for s in self.stacks], self.dead, self.dead_antes
        )
        # H14/case 33: a bettor who was called must show; all-in hands are tabled (case 31).
        self._forced_first = first if self.aggressor == first else -1
        if run_out:
            for p in self._order:
                self._show(p, forced=True)
            while self.street < self.last_street:
                self.street += 1
                self._deal_street()
            if self._variant.late_hole_cards:  # the cards dealt after the hands were turned up are shown too
                for p in self._order:
                    self._show(p, forced=True)
        self.phase = SHOWDOWN
        self._showdown_next()

    def _must_show(self, p: int) -> bool:
        return p == self._forced_first or self.stacks[p] == 0

    def _muck_error(self, p: int) -> str | None:
        if self.stacks[p] == 0:
            return "an all-in hand is always shown"
        if p == self._forced_first:
            return "a bettor who was called must show"
        for pot in self._pots:
            if p in pot.eligible and all(q == p or q in self.mucked for q in pot.eligible):
                return "the last hand in a pot cannot be mucked"
        return None

    def _showdown_next(self) -> None:
        for p in self._order:
            if p in self.shown or p in self.mucked:
                continue
            if all(q in self.mucked for q in self._order if q != p):
                continue  # everyone else gave up: wins without showing
            if self._must_show(p):
                self._show(p, forced=True)
                continue
            self.actor = p
            return
        self.actor = None
        self._award()

    def _show(self, p: int, forced: bool) -> None:
        self.shown.add(p)
        self.events.append(_NEW(Shown, (p, tuple(self.holes[p]), forced)))

    def _value(self, p: int) -> int:
        v = self._values.get(p)
        if v is None:
            v = self._values[p] = evaluate_ints(self.holes[p] + self.board)
        return v

    def _best_top_card(self, p: int) -> Card:
        """D5 (stud): the highest card by suit among five cards that make p's best hand;
        when several fives are equally good, the player plays the most favourable."""
        cards = self.holes[p] + self.board
        value = self._value(p)
        return max(max(five) for five in combinations(cards, 5) if evaluate_ints(five) == value)

    def _award(self) -> None:
        stacks, ev, mucked = self.stacks, self.events, self.mucked
        for index in range(len(self._pots) - 1, -1, -1):
            pot = self._pots[index]
            contenders = [p for p in pot.eligible if p not in mucked]
            if len(contenders) == 1:
                winners: tuple[int, ...] = (contenders[0],)
                value = None
            else:
                values = {p: self._value(p) for p in contenders}
                value = max(values.values())
                winners = tuple(p for p in contenders if values[p] == value)
            if len(winners) > 1 and self._variant.odd_chip_by_suit:  # D5: highest card by suit first
                tops = [self._best_top_card(p) for p in winners]
                winners = tuple(odd_chip_order(winners, tops))
            shares = split(pot.amount, winners)
            for p, s in zip(winners, shares, strict=True):
                stacks[p] += s
                self.winnings[p] += s
            ev.append(_NEW(PotAwarded, (index, pot.amount, pot.eligible, winners, shares, value)))
        self._finish()

    def _award_uncontested(self, p: int) -> None:
        amount = sum(self.collected) + self.dead + sum(self.dead_antes)
        self.stacks[p] += amount
        self.winnings[p] += amount
        self.events.append(_NEW(PotAwarded, (0, amount, (p,), (p,), (amount,), None)))
        self._finish()

    def _finish(self) -> None:
        self.phase = COMPLETE
        if any(self.protected):
            for p in range(self.n):
                self.stacks[p] += self.protected[p]
                self.protected[p] = 0
        self.actor = None
        self.collected = [0] * self.n
        self.dead = 0
        self.dead_antes = [0] * self.n
        stacks, start = self.stacks, self.starting_stacks
        net = tuple([stacks[p] - start[p] for p in range(self.n)])
        self.events.append(_NEW(HandEnded, (tuple(stacks), net)))
