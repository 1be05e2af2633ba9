"""The hand state machine: hold'em (no limit, pot limit, fixed limit) and seven card stud.

A ``Hand`` is made from a ``Game`` (variant, structure and stakes), the starting stacks in
PHH order (player 0 is the first seat left of the button, the last player is the button;
heads-up, player 0 is the big blind and player 1 the button and small blind, H4), and a
deck in the order the caller chose: the hand never shuffles. Forced bets are posted and
cards dealt at once; then the hand waits for the player in ``actor``. A blind of twice the
big blind by the player after the big blind (3+ players, no or pot limit) is a straddle (D10).

Every action has three forms: ``verify_x`` raises ``IllegalAction`` saying why the action
is not allowed (and changes nothing), ``can_x`` answers True or False, and ``x`` applies it
and returns the events it produced (the dealing and awarding that follow automatically
included). ``legal_actions()`` gives the exact minimum and maximum amounts.

The variant is data (variants.py); the hand is built in layers, one job each: dealing.py
(the cards), showdown.py (showing and the pots), betting.py (the rounds), and this module,
the facade: set-up, forced bets and the player's actions.

>>> from pokerroom.core.cards import parse_cards
>>> deck = parse_cards('AsKs 2c7d QhJh 2h3h TsQs 8c 4h 9c 5d')
>>> hand = Hand(Game.no_limit(1, 2), [100, 100], deck)
>>> hand.actor, hand.legal_actions()
(1, Legal(player=1, fold=True, check=False, call=1, min_to=4, max_to=100, show=False, muck=False, bring_in=0))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from pokerroom.core.betting import Betting
from pokerroom.core.cards import Card
from pokerroom.core.dealing import checked_deck
from pokerroom.core.events import Acted, Event, HandEnded, Mucked, Posted
from pokerroom.core.forced import check_blinds, check_chips, locate_big_blind
from pokerroom.core.legal import BETTING, COMPLETE, NO_ACTION, SHOWDOWN, IllegalAction, Legal
from pokerroom.core.structures import Game, GameError, Structure
from pokerroom.core.variants import HOLDEM, STUD, VARIANTS

__all__ = [
    "BETTING", "COMPLETE", "MAX_PLAYERS", "MAX_STUD_PLAYERS", "NO_ACTION", "SHOWDOWN",
    "STREET_NAMES", "STUD_STREET_NAMES", "Hand", "IllegalAction", "Legal",
]

_NEW = tuple.__new__  # see dealing.py

STREET_NAMES = HOLDEM.street_names
STUD_STREET_NAMES = STUD.street_names
MAX_PLAYERS = HOLDEM.max_players
MAX_STUD_PLAYERS = STUD.max_players


class Hand(Betting):
    """One hand of hold'em (no limit, pot limit or fixed limit) or seven card stud: set-up,
    forced bets, and the actions a player takes (the rules behind them in the layers)."""

    def __init__(
        self,
        game: Game,
        stacks: Sequence[int],
        deck: Sequence[int],
        *,
        antes: Sequence[int] | None = None,
        blinds: Sequence[int] | None = None,
        dead_blinds: Sequence[int] | None = None,
        big_blind_position: object = None,
        small_blind: bool = True,
        reshuffle: Callable[[tuple[Card, ...]], Sequence[int]] | None = None,
        _trusted: bool = False,
    ) -> None:
        # _trusted: the caller (the PHH replay) built the deck of distinct Cards itself;
        # everything else is still checked.
        if not _trusted and not isinstance(game, Game):
            raise GameError(f"a hand needs a Game, got {game!r}")
        try:
            n = len(stacks)
        except TypeError:
            raise GameError(f"stacks must be a list of integers, got {stacks!r}") from None
        variant = self._variant = VARIANTS[game.variant]
        if not 2 <= n <= variant.max_players:
            raise GameError(f"a {variant.name} hand needs 2 to {variant.max_players} players, got {n}")
        check_chips("stacks", stacks, n, 1)
        self.game = game
        self.n = n
        self._streets = variant.streets
        self.last_street = len(variant.streets) - 1
        self._fixed = game.structure is Structure.FIXED_LIMIT
        self._pot_limit = game.structure is Structure.POT_LIMIT
        self._min_bet = game.min_bet
        self._cap = game.cap or 4
        self._uncapped_heads_up = game.heads_up_uncapped
        need = variant.cards_needed(n)
        self.deck = (
            tuple(deck) if _trusted and len(deck) >= need else checked_deck(deck, need)  # type: ignore[arg-type]
        )
        if antes is None:
            antes = [game.ante] * n
        if not variant.blinds:
            if (blinds is not None and any(blinds)) or (dead_blinds is not None and any(dead_blinds)):
                raise GameError(f"{variant.name} has antes and a bring-in, not blinds")
            blinds, big_blind_position = [0] * n, 0
        elif blinds is None:
            blinds = [game.big_blind, game.small_blind] if n == 2 else (
                [game.small_blind, game.big_blind] + [0] * (n - 2)
            )
        check_chips("antes", antes, n, 0)
        check_chips("blinds", blinds, n, 0)
        if dead_blinds is None:
            dead_blinds = [0] * n
        else:
            check_chips("dead_blinds", dead_blinds, n, 0)
        if big_blind_position is None:
            big_blind_position = locate_big_blind(blinds, game.big_blind)
        elif type(big_blind_position) is not int or not 0 <= big_blind_position < n:
            raise GameError(f"big_blind_position {big_blind_position!r} is not a player")
        self._straddle = check_blinds(game, blinds, big_blind_position)
        # small_blind=False: no small blind this hand (the dead-button rule when the player
        # due it has gone); a blind posted before the big blind is then a live big blind
        if type(small_blind) is not bool:
            raise GameError(f"small_blind must be True or False, got {small_blind!r}")
        self._has_small_blind = small_blind
        self.big_blind_position = big_blind_position

        self.starting_stacks = tuple(stacks)
        self.stacks = list(stacks)
        self.bets = [0] * n
        self.collected = [0] * n
        self.dead = 0
        self.dead_antes = [0] * n
        self._put_in = set()
        self.folded = [False] * n
        self.holes = [[] for _ in range(n)]
        self.face_up = [[] for _ in range(n)]
        self._marks_up = variant.up_cards
        self.board = []
        self.events = []
        self.street = 0
        self.phase = BETTING
        self.actor = None
        self.aggressor = None
        self.shown = set()
        self.mucked = set()
        self.reached_showdown = set()
        self.winnings = [0] * n
        self.protected = [0] * n
        self._order = []
        self._pots = []
        self._values = {}
        self._forced_first = -1
        self._stock = self.deck
        self._pos = 0
        self._burned = []
        self._reshuffle = reshuffle
        self._round_opener = 0
        self._bring_in_round = self._bring_in_open = self._bringer_can_fold = False
        self._big_option = False

        self._post(antes, blinds, dead_blinds)
        self._live = n
        self._active = n - self.stacks.count(0)
        self._deal_street()
        self._start_round()

    # ------------------------------------------------------------------ forced bets

    def _post(
        self, antes: Sequence[int], blinds: Sequence[int], dead_blinds: Sequence[int]
    ) -> None:
        ev = self.events
        stacks = self.stacks
        posted_antes = [a for a in antes if a] if any(antes) else []
        uniform = len(posted_antes) == self.n and len(set(posted_antes)) == 1
        # Antes everyone pays alike count like bets in the pots. Other antes (a big-blind
        # ante) are posted after the blinds (TDA: the blind comes first) and are dead
        # money, which a player all in on his ante can win only as far as he matched it.
        for i, a in enumerate(antes if uniform else ()):
            amount = min(a, stacks[i])
            stacks[i] -= amount
            self.collected[i] += amount
            ev.append(_NEW(Posted, (i, "ante", amount, stacks[i] == 0)))
        for i, d in enumerate(dead_blinds if any(dead_blinds) else ()):
            if d and stacks[i]:
                amount = min(d, stacks[i])
                stacks[i] -= amount
                self.dead += amount
                ev.append(_NEW(Posted, (i, "dead", amount, stacks[i] == 0)))
        bb = self.big_blind_position
        sb = ((bb - 1) % self.n if self.n > 2 else 1 - bb) if self._has_small_blind else -1
        for i, b in enumerate(blinds):
            if b and stacks[i]:
                amount = min(b, stacks[i])
                stacks[i] -= amount
                self.bets[i] = amount
                kind = "big_blind" if i == bb else "small_blind" if i == sb else (
                    "straddle" if i == self._straddle else "blind")
                ev.append(_NEW(Posted, (i, kind, amount, stacks[i] == 0)))
        for i, a in enumerate(antes if posted_antes and not uniform else ()):
            if a and stacks[i]:
                amount = min(a, stacks[i])
                stacks[i] -= amount
                self.dead_antes[i] += amount
                ev.append(_NEW(Posted, (i, "ante", amount, stacks[i] == 0)))
        g = self.game
        # Pot limit: short or missing blinds count as if full preflop (TDA 54-B/C, case 20),
        # each blind on its own, so another player's live blind does not hide a short one.
        self._phantom = 0
        if any(blinds):
            small = self.bets[sb] if sb >= 0 else 0
            self._phantom = max(0, g.small_blind - small) + max(0, g.big_blind - self.bets[bb])
            if self._straddle >= 0:  # a short straddle counts as full too (D10, D3)
                self._phantom += max(0, 2 * g.big_blind - self.bets[self._straddle])

    # ------------------------------------------------------------------ actions

    def _check_turn(self, player: object, phase: str) -> int:
        if player is not None and type(player) is not int:
            raise IllegalAction("bad_player", f"a player is a seat index (a whole number), not {player!r}")
        p = self.actor
        if p is None:
            if self.phase == COMPLETE:
                raise IllegalAction("hand_over", "the hand is over")
            raise IllegalAction("no_actor", "nobody is to act")
        if player is not None and player != p:
            raise IllegalAction("not_your_turn", f"it is player {p}'s turn, not player {player}'s")
        if self.phase != phase:
            what = "show or muck" if self.phase == SHOWDOWN else "bet, call, check or fold"
            raise IllegalAction("wrong_phase", f"it is time to {what}")
        return p

    def verify_fold(self, player: object = None) -> int:
        p = self._check_turn(player, BETTING)
        if self._bring_in_open and self._bringer_can_fold:
            return p  # case 40: the bring-in is all in on the ante; the next player may fold
        if self._bring_in_open:
            raise IllegalAction("bring_in_first", "the lowest up card must bring in or complete")
        if self.bets[p] >= self.level:
            raise IllegalAction("nothing_to_call", "there is no bet to fold to: check instead")
        return p

    def verify_check_call(self, player: object = None) -> int:
        p = self._check_turn(player, BETTING)
        if self._bring_in_open:
            raise IllegalAction("bring_in_first", "bring in or complete: there is nothing to call yet")
        return p

    def verify_bring_in(self, player: object = None) -> int:
        p = self._check_turn(player, BETTING)
        if not self._bring_in_open:
            raise IllegalAction("no_bring_in", "there is no bring-in to post now")
        return p

    def can_bring_in(self, player: object = None) -> bool:
        return _can(self.verify_bring_in, player)

    def bring_in(self, player: object = None) -> tuple[Event, ...]:
        """Stud: post the bring-in (S4); short of chips, all in for less (case 40)."""
        p = self.verify_bring_in(player)
        mark = len(self.events)
        stack = self.stacks[p]
        amount = min(self.game.bring_in, stack)
        self.stacks[p] = stack - amount
        self.bets[p] = amount
        if amount == stack:
            self._active -= 1
        self.level = self.game.bring_in  # the others call the full bring-in (case 40)
        self.acted[p] = self.level
        self._put_in.add(p)
        self._bring_in_open = False
        self.events.append(_NEW(Acted, (p, "bring_in", amount, amount, amount == stack)))
        self._after_action(p)
        return tuple(self.events[mark:])

    def verify_bet_raise(self, amount: object, player: object = None) -> int:
        p = self._check_turn(player, BETTING)
        if type(amount) is not int:
            raise IllegalAction("bad_amount", f"the amount must be a whole number of chips, got {amount!r}")
        r = self._raise_range(p)
        word = "bet" if self.level == 0 else "raise"
        if r is None:
            raise IllegalAction("cannot_raise", f"no {word} is allowed now: {self._no_raise_reason(p)}")
        low, high = r
        if self._fixed and amount != low and amount != high:
            span = f"exactly {low}" if low == high else f"exactly {low} or {high}"
            raise IllegalAction(
                "amount_out_of_range",
                f"a {word} must be {span} chips (the total bet on this street), not {amount}",
            )
        if not low <= amount <= high:
            span = f"exactly {low}" if low == high else f"between {low} and {high}"
            raise IllegalAction(
                "amount_out_of_range",
                f"a {word} must be {span} chips (the total bet on this street), not {amount}",
            )
        return p

    def verify_show(self, player: object = None) -> int:
        return self._check_turn(player, SHOWDOWN)

    def verify_muck(self, player: object = None) -> int:
        p = self._check_turn(player, SHOWDOWN)
        reason = self._muck_error(p)
        if reason:
            raise IllegalAction("must_show", reason)
        return p

    def verify_protect(self, player: object = None) -> int:
        """All-in protection (R1, D7): a player facing a bet who has chips in the pot may be
        kept in for what he already committed instead of folding."""
        p = self._check_turn(player, BETTING)
        if self._bring_in_open:
            raise IllegalAction("bring_in_first", "the bring-in is posted, not protected")
        if self.bets[p] >= self.level:
            raise IllegalAction("nothing_to_call", "there is no bet to face: check instead")
        if not self.bets[p] and not self.collected[p]:
            raise IllegalAction("nothing_committed", "no chips in the pot to stay in for")
        return p

    def can_protect(self, player: object = None) -> bool:
        return _can(self.verify_protect, player)

    def protect(self, player: object = None) -> tuple[Event, ...]:
        """Treat the player as all in for the chips already committed (the seeds' timeout
        policy, D7): the rest of his stack is set aside, out of play, and comes back to him
        when the hand ends; side pots form for further betting between the others."""
        p = self.verify_protect(player)
        mark = len(self.events)
        self.protected[p] += self.stacks[p]
        self.stacks[p] = 0
        self._active -= 1
        self.acted[p] = self.level
        self.events.append(_NEW(Acted, (p, "protected", 0, self.bets[p], True)))
        self._after_action(p)
        return tuple(self.events[mark:])

    def can_fold(self, player: object = None) -> bool:
        return _can(self.verify_fold, player)

    def can_check_call(self, player: object = None) -> bool:
        return _can(self.verify_check_call, player)

    def can_bet_raise(self, amount: object, player: object = None) -> bool:
        try:
            self.verify_bet_raise(amount, player)
        except IllegalAction:
            return False
        return True

    def can_show(self, player: object = None) -> bool:
        return _can(self.verify_show, player)

    def can_muck(self, player: object = None) -> bool:
        return _can(self.verify_muck, player)

    def fold(self, player: object = None) -> tuple[Event, ...]:
        p = self.verify_fold(player)
        mark = len(self.events)
        self.folded[p] = True
        self._live -= 1
        self._active -= 1
        self.events.append(_NEW(Acted, (p, "fold", 0, self.bets[p], False)))
        self._after_action(p)
        return tuple(self.events[mark:])

    def check_call(self, player: object = None) -> tuple[Event, ...]:
        p = self.verify_check_call(player)
        mark = len(self.events)
        owe = self.level - self.bets[p]
        if owe <= 0:
            self.events.append(_NEW(Acted, (p, "check", 0, self.bets[p], False)))
        else:
            stack = self.stacks[p]
            amount = owe if owe < stack else stack
            self.stacks[p] = stack - amount
            if amount == stack:
                self._active -= 1
            self.bets[p] += amount
            self._put_in.add(p)
            self.events.append(_NEW(Acted, (p, "call", amount, self.bets[p], amount == stack)))
        self.acted[p] = self.level
        self._after_action(p)
        return tuple(self.events[mark:])

    def bet_raise(self, amount: object, player: object = None) -> tuple[Event, ...]:
        """Bet or raise to ``amount``: the player's total bet on this street afterwards."""
        p = self.verify_bet_raise(amount, player)
        amount = cast(int, amount)
        mark = len(self.events)
        level, added = self.level, amount - self.bets[p]
        increment = amount - level
        self.stacks[p] -= added
        self.bets[p] = amount
        all_in = self.stacks[p] == 0
        if all_in:
            self._active -= 1
        completing = self._bring_in_round and self.bets_count == 0 and amount >= self.game.small_bet
        self._bring_in_open = False
        if self._fixed:
            if self._big_option and amount - self.last_full_level >= self.game.big_bet:
                self.bet_size = self.game.big_bet  # D8: after a big bet, every raise is big
                self._big_option = False
            # a completion, or an all-in of at least half a bet, counts as a full bet (D2)
            if amount >= self.last_full_level + self.bet_size or 2 * increment >= self.bet_size:
                self.bets_count += 1
                self.last_full_level = amount
        else:
            full = self.last_full_raise if self.last_full_raise > self._min_bet else self._min_bet
            if increment >= full:
                self.last_full_raise = increment
                self.last_full_level = amount
        self.level = amount
        self.acted[p] = amount
        self._put_in.add(p)
        self.aggressor = p
        word = "complete" if completing else "bet" if level == 0 else "raise"
        self.events.append(_NEW(Acted, (p, word, added, amount, all_in)))
        self._after_action(p)
        return tuple(self.events[mark:])

    def show(self, player: object = None) -> tuple[Event, ...]:
        p = self.verify_show(player)
        mark = len(self.events)
        self._show(p, forced=False)
        self._showdown_next()
        return tuple(self.events[mark:])

    def muck(self, player: object = None) -> tuple[Event, ...]:
        p = self.verify_muck(player)
        mark = len(self.events)
        self.mucked.add(p)
        self.events.append(_NEW(Mucked, (p, tuple(self.holes[p]))))
        self._showdown_next()
        return tuple(self.events[mark:])

    def act(self, action: object, amount: object = None, player: object = None) -> tuple[Event, ...]:
        """Apply an action by name: 'fold', 'check', 'call', 'bet', 'raise', 'show', 'muck'
        (or the PHH verbs 'f', 'cc', 'cbr'; PHH's 'sm' is show or muck by its cards)."""
        kind = _ALIASES.get(action) if type(action) is str else None
        if kind is None:
            raise IllegalAction("unknown_action", f"unknown action {action!r}")
        if kind == "bet_raise":
            if amount is None:
                raise IllegalAction("bad_amount", f"{action!r} needs an amount")
            return self.bet_raise(amount, player)
        if amount is not None:
            raise IllegalAction("bad_amount", f"{action!r} takes no amount")
        if kind == "check_call":
            if action == "check" and self.actor is not None and self.phase == BETTING:
                p = self._check_turn(player, BETTING)
                if self.bets[p] < self.level and not self._bring_in_open:
                    raise IllegalAction("cannot_check", "there is a bet to call: call, raise or fold")
            return self.check_call(player)
        apply = {"fold": self.fold, "show": self.show, "muck": self.muck, "bring_in": self.bring_in}
        return apply[kind](player)

    # ------------------------------------------------------------------ results

    @property
    def street_name(self) -> str:
        return self._streets[self.street].name

    @property
    def complete(self) -> bool:
        return self.phase == COMPLETE

    def result(self) -> HandEnded:
        """The final stacks and net results; raises if the hand is still live."""
        if self.phase != COMPLETE:
            raise IllegalAction("hand_live", "the hand is not over yet")
        last = self.events[-1]
        assert type(last) is HandEnded
        return last

    def hand_value(self, p: object) -> int | None:
        """The strength of player p's best five cards, once all the cards are out."""
        if type(p) is not int or not 0 <= p < self.n:
            raise IllegalAction("bad_player", f"{p!r} is not a player of this hand")
        if len(self.holes[p]) + len(self.board) < self._variant.hand_cards:
            return None
        return self._value(p)

    def __repr__(self) -> str:
        return (
            f"<Hand {self.game.code} {self.street_name} {self.phase} "
            f"stacks={self.stacks} bets={self.bets} pot={self.pot} actor={self.actor}>"
        )


_ALIASES = {
    "fold": "fold", "f": "fold",
    "check": "check_call", "call": "check_call", "cc": "check_call",
    "bet": "bet_raise", "raise": "bet_raise", "cbr": "bet_raise",
    "show": "show", "muck": "muck",
    "bring_in": "bring_in", "pb": "bring_in", "complete": "bet_raise",
}


def _can(verify: object, player: object) -> bool:
    try:
        verify(player)  # type: ignore[operator]
    except IllegalAction:
        return False
    return True
