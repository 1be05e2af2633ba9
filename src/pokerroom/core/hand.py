"""The hold'em hand state machine.

A ``Hand`` is made from a ``Game`` (structure and stakes), the starting stacks in PHH
order (player 0 is the first seat left of the button, the last player is the button;
heads-up, player 0 is the big blind and player 1 the button and small blind, H4), and a
deck in the order the caller chose: the hand never shuffles. Forced bets are posted and
cards dealt at once; then the hand waits for the player in ``actor``. A blind of twice the
big blind by the player after the big blind (3+ players, no or pot limit) is a straddle (D10).

Every action has three forms: ``verify_x`` raises ``IllegalAction`` saying why the action
is not allowed (and changes nothing), ``can_x`` answers True or False, and ``x`` applies it
and returns the events it produced (the dealing and awarding that follow automatically
included). ``legal_actions()`` gives the exact minimum and maximum amounts.

>>> from pokerroom.core.cards import parse_cards
>>> deck = parse_cards('AsKs 2c7d QhJh 2h3h TsQs 8c 4h 9c 5d')
>>> hand = Hand(Game.no_limit(1, 2), [100, 100], deck)
>>> hand.actor, hand.legal_actions()
(1, Legal(player=1, fold=True, check=False, call=1, min_to=4, max_to=100, show=False, muck=False, bring_in=0))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import NamedTuple, cast

from pokerroom.core.cards import Card, check_deck
from pokerroom.core.evaluator import evaluate_ints
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
from pokerroom.core.pots import Pot, build_pots, split, uncalled
from pokerroom.core.structures import Game, GameError, Structure
from pokerroom.core.stud import bring_in_player, has_open_pair, odd_chip_order, opener

# Events are named tuples; their generated constructor is Python code, so the hot paths
# build them with tuple.__new__ directly, fields in declaration order (a test checks that
# every event has exactly its fields).
_NEW = tuple.__new__

BETTING, SHOWDOWN, COMPLETE = "betting", "showdown", "complete"
STREET_NAMES = ("preflop", "flop", "turn", "river")
STUD_STREET_NAMES = ("third street", "fourth street", "fifth street", "sixth street", "seventh street")
MAX_STUD_PLAYERS = 8
_BOARD_COUNTS = (0, 3, 1, 1)
MAX_PLAYERS = 22  # 2 x 22 hole cards + 3 burns + 5 board = 52


class IllegalAction(ValueError):
    """An action the rules do not allow now; ``code`` names the reason for machines."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Legal(NamedTuple):
    """What the player to act may do. Amounts are chips: ``call`` is what calling adds
    (0 means a check), ``min_to``/``max_to`` the total street bet after a bet or raise
    (None when no bet or raise is allowed)."""

    player: int | None
    fold: bool
    check: bool
    call: int
    min_to: int | None
    max_to: int | None
    show: bool
    muck: bool
    bring_in: int = 0  # stud: posting the bring-in is allowed, for this many chips


NO_ACTION = Legal(None, False, False, 0, None, None, False, False)


class Hand:
    """One hand of hold'em (no limit, pot limit or fixed limit) or seven card stud."""

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
        stud = self._stud = game.variant == "stud"
        most = MAX_STUD_PLAYERS if stud else MAX_PLAYERS
        if not 2 <= n <= most:
            name = "stud" if stud else "hold'em"
            raise GameError(f"a {name} hand needs 2 to {most} players, got {n}")
        _check_chips("stacks", stacks, n, 1)
        self.game = game
        self.n = n
        # the game's rules as plain values, read on every action
        self._fixed = game.structure is Structure.FIXED_LIMIT
        self._pot_limit = game.structure is Structure.POT_LIMIT
        self._min_bet = game.min_bet
        self._cap = game.cap or 4
        self._uncapped_heads_up = game.heads_up_uncapped
        need = min(52, 7 * n + 4) if stud else 2 * n + 8
        self.deck: tuple[Card, ...] = (
            tuple(deck) if _trusted and len(deck) >= need else _checked_deck(deck, need)  # type: ignore[arg-type]
        )
        if antes is None:
            antes = [game.ante] * n
        if stud:
            if (blinds is not None and any(blinds)) or (dead_blinds is not None and any(dead_blinds)):
                raise GameError("stud has antes and a bring-in, not blinds")
            blinds, big_blind_position = [0] * n, 0
        elif blinds is None:
            blinds = [game.big_blind, game.small_blind] if n == 2 else (
                [game.small_blind, game.big_blind] + [0] * (n - 2)
            )
        _check_chips("antes", antes, n, 0)
        _check_chips("blinds", blinds, n, 0)
        if dead_blinds is None:
            dead_blinds = [0] * n
        else:
            _check_chips("dead_blinds", dead_blinds, n, 0)
        if big_blind_position is None:
            big_blind_position = _big_blind_position(blinds, game.big_blind)
        elif type(big_blind_position) is not int or not 0 <= big_blind_position < n:
            raise GameError(f"big_blind_position {big_blind_position!r} is not a player")
        # D10: a live straddle, the player after the big blind (-1: none)
        self._straddle = _check_blinds(game, blinds, big_blind_position)
        # small_blind=False: no small blind this hand (the dead-button rule when the player
        # due it has gone); a blind posted before the big blind is then a live big blind
        if type(small_blind) is not bool:
            raise GameError(f"small_blind must be True or False, got {small_blind!r}")
        self._has_small_blind = small_blind
        self.big_blind_position = big_blind_position

        self.starting_stacks = tuple(stacks)
        self.stacks = list(stacks)
        self.bets = [0] * n
        self.collected = [0] * n  # chips each player put in on earlier streets (and antes)
        self.dead = 0  # dead blinds: dead money for the main pot
        self.dead_antes = [0] * n  # antes not everyone pays alike (a big-blind ante)
        self._put_in: set[int] = set()  # who called, bet or raised on this street
        self.folded = [False] * n
        self.holes: list[list[Card]] = [[] for _ in range(n)]
        self.board: list[Card] = []
        self.events: list[Event] = []
        self.street = 0
        self.phase = BETTING
        self.actor: int | None = None
        self.shown: set[int] = set()
        self.mucked: set[int] = set()
        self.reached_showdown: set[int] = set()
        self.winnings = [0] * n
        self.protected = [0] * n  # chips set aside by all-in protection (D7), returned at the end
        self._pos = 0  # next card of the deck
        self._order: list[int] = []  # showdown order
        self._pots: list[Pot] = []
        self._values: dict[int, int] = {}
        self._forced_first = -1
        self.last_street = 4 if stud else 3
        self.face_up: list[list[bool]] = [[] for _ in range(n)]  # stud: which cards are up
        self._stock: list[Card] = list(self.deck) if stud else []  # stud deals from here
        self._burned: list[Card] = []
        self._reshuffle = reshuffle
        self._round_opener = 0  # who first had the chance to bet this round
        self._bring_in_open = False  # stud third street: the bring-in is still to be made
        self._bringer_can_fold = False
        self._big_option = False  # stud fourth street with an open pair: big bets allowed

        self._post(antes, blinds, dead_blinds)
        self._live = n  # players who have not folded
        self._active = n - self.stacks.count(0)  # live players with chips behind
        self._deal_holes()
        self._start_round(preflop=True)

    # ------------------------------------------------------------------ set-up

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

    def _deal_holes(self) -> None:
        deck, n = self.deck, self.n
        if self._stud:  # two down and one up, one at a time from the dealer's left (S3)
            self.holes = [[deck[i], deck[n + i], deck[2 * n + i]] for i in range(n)]
            self.face_up = [[False, False, True] for _ in range(n)]
            self.events.extend([_NEW(HoleDealt, (i % n, deck[i], i >= 2 * n)) for i in range(3 * n)])
            self._pos = 3 * n
            return
        # one card at a time, starting with the small blind (H1)
        self.holes = [[deck[i], deck[n + i]] for i in range(n)]
        self.events.extend([_NEW(HoleDealt, (i % n, deck[i], False)) for i in range(2 * n)])
        self._pos = 2 * n

    def _start_round(self, preflop: bool = False) -> None:
        n = self.n
        self.acted: list[int | None] = [None] * n
        self.aggressor: int | None = None
        self._put_in = set()
        g = self.game
        if self._stud:
            self._start_stud_round()
            return
        if preflop:
            top = max(self.bets)
            # D3: the call is the full big blind even when the big blind is short; D10: the full
            # straddle, a raise is to twice it, the straddler acts last (he has the option).
            last = self.big_blind_position if self._straddle < 0 else self._straddle
            floor = g.big_blind if self._straddle < 0 else 2 * g.big_blind
            self.level = max(top, floor) if top else 0
            self.last_full_raise = self.level
            self.last_full_level = self.level
            self.bets_count = 1 if self.level else 0
            start = (last + 1) % n if top else 0
        else:
            self.level = 0
            self.last_full_raise = 0
            self.last_full_level = 0
            self.bets_count = 0
            start = 0
        self.bet_size = g.bet_size(self.street) if self._fixed else self._min_bet
        self._round_opener = 0
        self.actor = self._next_actor(start)
        if self.actor is None:
            self._end_round()

    def _up_cards(self) -> list[list[Card]]:
        return [
            [c for c, up in zip(h, u, strict=True) if up]
            for h, u in zip(self.holes, self.face_up, strict=True)
        ]

    def _start_stud_round(self) -> None:
        g = self.game
        self.level = self.last_full_raise = self.last_full_level = self.bets_count = 0
        self.bet_size = g.bet_size(self.street)
        live = [not f for f in self.folded]
        ups = self._up_cards()
        if self.street == 0:
            # S4: the lowest up card brings in; all in on the ante, the next player opens (case 40)
            low = bring_in_player(ups)
            self._round_opener = low
            self._bring_in_open = True
            self._bringer_can_fold = self.stacks[low] == 0
            start = low
        else:
            self._bring_in_open = False
            if self.board:  # a community card on seventh: sixth street's opener opens (case 43d)
                start = self._round_opener
            else:
                start = self._round_opener = opener(ups, live)
            self._big_option = self.street == 1 and g.open_pair_big_bet and has_open_pair(ups, live)
        self.actor = self._next_actor(start)
        if self.actor is None:
            self._end_round()

    # ------------------------------------------------------------------ flow

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

    def _deal_street(self) -> None:
        if self._stud:
            self._deal_stud_street()
            return
        count = _BOARD_COUNTS[self.street]
        start = self._pos + 1  # burn one (implicit)
        cards = self.deck[start : start + count]
        self._pos = start + count
        self.board.extend(cards)
        self.events.append(_NEW(BoardDealt, (self.street, cards)))

    def _deal_stud_street(self) -> None:
        """Burn, then one card to each live player from the dealer's left: up on fourth to
        sixth street, down on seventh (S5, S8). Card shortage as D4 says (S9, case 43)."""
        live = [p for p in range(self.n) if not self.folded[p]]
        need = len(live) + 1
        stock, pos, ev = self._stock, self._pos, self.events
        if len(stock) - pos < need:
            # shuffle the burned cards into the stub; folded cards are never used again
            pool = tuple(stock[pos:] + self._burned)
            order = list(pool) if self._reshuffle is None else _permutation(self._reshuffle(pool), pool)
            self._stock = stock = order
            pos = 0
            self._burned = []
            ev.append(_NEW(Reshuffled, (self.street, len(order))))
        face_up = self.street < 4
        if len(stock) - pos >= need:
            self._burned.append(stock[pos])
            pos += 1
            for p in live:
                card = stock[pos]
                pos += 1
                self.holes[p].append(card)
                self.face_up[p].append(face_up)
                ev.append(_NEW(HoleDealt, (p, card, face_up)))
        else:  # not even that is enough: one community card face up for everyone
            if len(stock) - pos >= 2:
                self._burned.append(stock[pos])
                pos += 1
            card = stock[pos]
            pos += 1
            self.board.append(card)
            ev.append(_NEW(BoardDealt, (self.street, (card,))))
        self._pos = pos

    # ------------------------------------------------------------------ showdown

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
            if self._stud:  # the cards dealt after the hands were turned up are shown too
                for p in self._order:
                    self._show(p, forced=True)
        self.phase = SHOWDOWN
        self._showdown_next()

    def _must_show(self, p: int) -> bool:
        return p == self._forced_first or self.stacks[p] == 0

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
            if self._stud and len(winners) > 1:  # D5: highest card by suit among the five played
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
        self.events.append(HandEnded(
            tuple(self.stacks),
            tuple(s - s0 for s, s0 in zip(self.stacks, self.starting_stacks, strict=True)),
        ))

    # ------------------------------------------------------------------ queries

    @property
    def street_name(self) -> str:
        return (STUD_STREET_NAMES if self._stud else STREET_NAMES)[self.street]

    @property
    def complete(self) -> bool:
        return self.phase == COMPLETE

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

    def _muck_error(self, p: int) -> str | None:
        if self.stacks[p] == 0:
            return "an all-in hand is always shown"
        if p == self._forced_first:
            return "a bettor who was called must show"
        for pot in self._pots:
            if p in pot.eligible and all(q == p or q in self.mucked for q in pot.eligible):
                return "the last hand in a pot cannot be mucked"
        return None

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
        completing = (
            self._stud and self.street == 0 and self.bets_count == 0 and amount >= self.game.small_bet
        )
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
        if len(self.holes[p]) + len(self.board) < 7:
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


_INT = frozenset((int,))
_CARD_TYPE = frozenset((Card,))


def _checked_deck(deck: Sequence[int], need: int) -> tuple[Card, ...]:
    """The deck as Cards, checked; a deck of distinct Card objects passes as it is."""
    try:
        cards = tuple(deck)
    except TypeError:
        return check_deck(deck, need)  # says what is wrong
    if len(cards) >= need and _CARD_TYPE.issuperset(map(type, cards)) and len(set(cards)) == len(cards):
        return cast("tuple[Card, ...]", cards)
    return check_deck(deck, need)  # converts ints and strings, or says what is wrong


def _check_chips(name: str, values: Sequence[int], n: int, least: int) -> None:
    if len(values) != n or not _INT.issuperset(map(type, values)) or min(values) < least:
        kind = "positive" if least else "non-negative"
        raise GameError(f"{name} must be {n} {kind} integers, got {list(values)!r}")


def _permutation(order: Sequence[int], pool: tuple[Card, ...]) -> list[Card]:
    """The reshuffled stub a caller returned, checked to be the same cards."""
    cards = [Card(c) for c in order]
    if sorted(cards) != sorted(pool):
        raise GameError("the reshuffle must return the same cards in a new order")
    return cards


def _check_blinds(game: Game, blinds: Sequence[int], bb: int) -> int:
    """Blinds that make sense: the big blind's is the largest, each one is the small or the
    big blind, and heads-up the big blind is player 0 (H4); or a straddle (D10). Returns the
    straddler, -1 when there is none."""
    small, big = game.small_blind, game.big_blind
    n = len(blinds)
    straddle = (bb + 1) % n
    if n < 3 or not big or blinds[straddle] != 2 * big:
        straddle = -1
    elif game.structure is Structure.FIXED_LIMIT:
        raise GameError("fixed limit has no straddles: they are for no limit and pot limit (D10)")
    elif blinds[bb] != big:
        raise GameError(f"a straddle needs the big blind: player {bb} posts {blinds[bb]}, not {big}")
    top = 0
    for i, b in enumerate(blinds):
        if b and b != small and b != big and i != straddle:
            raise GameError(f"blinds must be 0, the small blind or the big blind, got {list(blinds)} (D10: "
                            "a straddle of twice the big blind, by the player after it, 3+ players)")
        if b > top and i != straddle:
            top = b
    if not top:
        return straddle
    if blinds[bb] != top:
        raise GameError(f"player {bb} is the big blind but posts {blinds[bb]}, less than another blind")
    if n == 2 and blinds[0] and blinds[1] and bb != 0:
        raise GameError("heads-up the button posts the small blind: player 0 is the big blind (H4)")
    return straddle


def _big_blind_position(blinds: Sequence[int], big: int) -> int:
    """The largest blind in the first run of blinds (ties: the earlier one, so that a
    newcomer's live big blind after the big blind is not mistaken for it); a straddle
    (more than the big blind) ends the run."""
    best, best_amount = 0, -1
    start = next((i for i, b in enumerate(blinds) if b), len(blinds))
    for i in range(start, len(blinds)):
        b = blinds[i]
        if not b or b > big:
            break
        if b > best_amount:
            best, best_amount = i, b
    return best
