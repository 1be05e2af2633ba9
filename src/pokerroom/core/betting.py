"""The betting rounds: who opens a street, who acts next, what he may bet, when it ends.

The third layer of the hand (``Dealing`` <- ``Showdown`` <- ``Betting`` <- ``Hand``). Each
street opens as its ``Street`` says (after the blinds, first left of the button, the
bring-in, or the best hand showing) with its bet size; the structure's rules
(structures.py) bound every bet and raise. When a round ends the uncalled bet comes back,
the bets go to the pot, and the next street is dealt, or the showdown begins.
"""

from __future__ import annotations

from pokerroom.core.events import StreetEnded, UncalledReturned
from pokerroom.core.legal import COMPLETE, NO_ACTION, SHOWDOWN, Legal
from pokerroom.core.pots import Pot, build_pots, uncalled
from pokerroom.core.showdown import Showdown
from pokerroom.core.stud import bring_in_player, has_open_pair, opener
from pokerroom.core.variants import BEST_SHOWING, BLINDS, BRING_IN

_NEW = tuple.__new__  # see dealing.py


class Betting(Showdown):
    """A street's betting round, from its opener to its end."""

    bets: list[int]
    acted: list[int | None]  # the level each player last acted at this round (None: not yet)
    level: int  # the total bet to call this round
    last_full_raise: int
    last_full_level: int
    bets_count: int  # fixed limit: bets and raises this round, for the cap
    bet_size: int
    big_blind_position: int
    _put_in: set[int]  # who called, bet or raised on this street
    _live: int  # players who have not folded
    _active: int  # live players with chips behind
    # the game's rules as plain values, read on every action
    _fixed: bool
    _pot_limit: bool
    _min_bet: int
    _cap: int
    _uncapped_heads_up: bool
    _straddle: int  # D10: a live straddle, the player after the big blind (-1: none)
    _phantom: int  # pot limit preflop: what short or missing blinds count for
    _bring_in_round: bool  # this round opens with a bring-in: the first full bet completes it
    _bring_in_open: bool  # the bring-in is still to be made
    _bringer_can_fold: bool
    _big_option: bool  # fourth street with an open pair: big bets allowed (D8)

    def _start_round(self) -> None:
        n = self.n
        self.acted = [None] * n
        self.aggressor = None
        self._put_in = set()
        g = self.game
        street = self._streets[self.street]
        self.level = self.last_full_raise = self.last_full_level = self.bets_count = 0
        if self._fixed:
            self.bet_size = g.big_bet if street.big_bet else g.small_bet
        else:
            self.bet_size = self._min_bet
        self._big_option = (
            street.open_pair_option and g.open_pair_big_bet
            and has_open_pair(self._up_cards(), [not f for f in self.folded])
        )
        self._bring_in_round = self._bring_in_open = False
        # The ways to open differ in kind (blinds already in, the lowest up card, the best
        # hand showing), so each has its branch; the street's description picks it, never
        # the variant's name.
        how = street.opener
        if how == BLINDS:
            self._round_opener = start = 0
            top = 0
            for b in self.bets:  # max(self.bets), without a call of the builtin
                if b > top:
                    top = b
            if top:
                # D3: the call is the full big blind even when the big blind is short; D10: the
                # full straddle, a raise is to twice it, the straddler acts last (his option).
                last = self.big_blind_position if self._straddle < 0 else self._straddle
                floor = g.big_blind if self._straddle < 0 else 2 * g.big_blind
                self.level = self.last_full_raise = self.last_full_level = max(top, floor)
                self.bets_count = 1
                start = (last + 1) % n
        elif how == BRING_IN:
            # S4: the lowest up card brings in; all in on the ante, the next player opens (case 40)
            low = bring_in_player(self._up_cards())
            self._round_opener = start = low
            self._bring_in_round = self._bring_in_open = True
            self._bringer_can_fold = self.stacks[low] == 0
        elif how == BEST_SHOWING:
            if self.board:  # a community card on seventh: sixth street's opener opens (case 43d)
                start = self._round_opener
            else:
                start = self._round_opener = opener(self._up_cards(), [not f for f in self.folded])
        else:  # FIRST_LEFT
            self._round_opener = start = 0
        self.actor = self._next_actor(start)
        if self.actor is None:
            self._end_round()

    def _next_actor(self, start: int) -> int | None:
        n, stacks, folded, bets, acted, level = (
            self.n, self.stacks, self.folded, self.bets, self.acted, self.level,
        )
        for k in range(n):
            p = (start + k) % n
            if folded[p] or not stacks[p]:
                continue
            if bets[p] < level:
                if self._active > 1 or bets[p] < self._top_other_bet(p):
                    return p
                continue  # everyone else is all in for no more than p has in: nothing to do
            if acted[p] is None and self._others_can_respond(p):
                return p
        return None

    def _top_other_bet(self, p: int) -> int:
        bets, folded = self.bets, self.folded
        return max([bets[q] for q in range(self.n) if q != p and not folded[q]], default=0)

    def _others_can_respond(self, p: int) -> bool:
        """Whether anyone but p could still put in more than the current bet: if not,
        a bet or raise by p could never be called."""
        if self._active < 2:
            return False
        stacks, bets, folded, level = self.stacks, self.bets, self.folded, self.level
        for q in range(self.n):
            if q != p and stacks[q] and not folded[q] and stacks[q] + bets[q] > level:
                return True
        return False

    def _after_action(self, p: int) -> None:
        if self._live == 1:
            self._end_round()
            return
        self.actor = self._next_actor(p + 1)
        if self.actor is None:
            self._end_round()

    def _end_round(self) -> None:
        self.actor = None
        bets, stacks, collected, ev = self.bets, self.stacks, self.collected, self.events
        if self._live == 1:
            # everyone else folded: the part of the winner's bet on this street that nobody
            # called comes back; a blind nobody completed is not a call (case 1, H12)
            who = self.folded.index(False)
            called = max([bets[q] for q in self._put_in if q != who], default=0)
            amount = bets[who] - called if bets[who] > called else 0
        else:
            who, amount = uncalled(bets)
        if amount:
            bets[who] -= amount
            stacks[who] += amount
            ev.append(_NEW(UncalledReturned, (who, amount)))
        for i in range(self.n):
            collected[i] += bets[i]
            bets[i] = 0
        ev.append(_NEW(StreetEnded, (self.street, sum(collected) + self.dead + sum(self.dead_antes))))
        if self._live == 1:
            self._award_uncontested(self.folded.index(False))
            return
        folded = self.folded
        able = 0  # uncalled chips may have come back to an all-in player
        for i in range(self.n):
            if stacks[i] and not folded[i]:
                able += 1
        self._active = able
        if self.street < self.last_street and able >= 2:
            self.street += 1
            self._deal_street()
            self._start_round()
            return
        self._begin_showdown(run_out=self.street < self.last_street)

    @property
    def pot(self) -> int:
        """All chips in the middle: collected pots, current bets and dead money."""
        return sum(self.collected) + sum(self.bets) + self.dead + sum(self.dead_antes)

    def pots(self) -> list[Pot]:
        """The main pot and side pots as they stand (current bets included)."""
        if self.phase == COMPLETE:
            return []
        total = [c + b for c, b in zip(self.collected, self.bets, strict=True)]
        return build_pots(total, self.folded, [s == 0 for s in self.stacks], self.dead, self.dead_antes)

    def _raise_range(self, p: int) -> tuple[int, int] | None:
        stacks, bets, level = self.stacks, self.bets, self.level
        all_in_to = bets[p] + stacks[p]
        if all_in_to <= level or not self._others_can_respond(p):
            return None
        if self._bring_in_open and all_in_to <= self.game.bring_in:
            return None  # case 40: short of a full bring-in, all he can do is post it
        acted = self.acted[p]
        if self._fixed:
            if self.bets_count >= self._cap and not (
                self._uncapped_heads_up and self._live == 2
            ):
                return None
            if acted is not None and acted >= self.last_full_level:
                return None  # D2: only a full (or half-bet) raise reopens the betting
            to = self.last_full_level + self.bet_size
            to = to if to < all_in_to else all_in_to
            if self._big_option:  # D8: on fourth street with an open pair, a big bet too
                big = self.last_full_level + self.game.big_bet
                return to, (big if big < all_in_to else all_in_to)
            return to, to
        full = self.last_full_raise if self.last_full_raise > self._min_bet else self._min_bet
        if acted is not None and level - acted < full:
            return None  # D2/TDA 47: not facing a full raise since acting
        low = level + full
        if self._pot_limit:
            pot = self.pot + (level - bets[p])
            if self.street == 0:
                pot += self._phantom
            high = level + pot
            if high < low:
                high = low  # a pot smaller than the minimum bet: the minimum is allowed (L3)
            if high > all_in_to:
                high = all_in_to
        else:
            high = all_in_to
        return (low if low < high else high), high

    def _no_raise_reason(self, p: int) -> str:
        if self.bets[p] + self.stacks[p] <= self.level:
            return "not enough chips to do more than call"
        if not self._others_can_respond(p):
            return "every other player is all-in"
        if self._bring_in_open and self.bets[p] + self.stacks[p] <= self.game.bring_in:
            return "short of a full bring-in, the only choice is to post it"
        if self.game.structure.fixed and self.bets_count >= (self.game.cap or 4):
            return f"the betting is capped at {self.game.cap} bets"
        return "the betting was not reopened by a full raise since the last action"

    def legal_actions(self) -> Legal:
        """Exactly what the player to act may do now."""
        p = self.actor
        if p is None:
            return NO_ACTION
        if self.phase == SHOWDOWN:
            return Legal(p, False, False, 0, None, None, True, self._muck_error(p) is None)
        if self._bring_in_open:  # stud: post the bring-in or complete (S4)
            r = self._raise_range(p)
            bring = min(self.game.bring_in, self.stacks[p])
            low, high = r if r is not None else (None, None)
            return Legal(p, self._bringer_can_fold, False, 0, low, high, False, False, bring)
        owe = self.level - self.bets[p]
        call = owe if owe < self.stacks[p] else self.stacks[p]
        r = self._raise_range(p)
        if r is None:
            return Legal(p, owe > 0, owe == 0, call, None, None, False, False)
        return Legal(p, owe > 0, owe == 0, call, r[0], r[1], False, False)
