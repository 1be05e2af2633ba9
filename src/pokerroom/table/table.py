"""A table: seats, the button and blinds, the action clock, mixed games, previous hand.

``Table`` is a pure, deterministic layer over the hand engine: it has no clock (every
command takes ``now``, in seconds, from the caller), no randomness (the caller hands it a
shuffled deck and, when the table starts, may choose the first button) and no I/O. Every
command returns the events it produced, table events and the hand's own events with seat
numbers in their player fields (see ``pokerroom.table.events``); a command the table
refuses raises ``TableError`` with a code and a reason, and changes nothing.

>>> from pokerroom.core.cards import stacked_deck
>>> from pokerroom.core.structures import Game
>>> from pokerroom.table.config import TableConfig
>>> table = Table(TableConfig.single(Game.no_limit(1, 2), seats=6))
>>> _ = table.sit('ann', 1, 200); _ = table.sit('bob', 4, 150)
>>> _ = table.start_hand(stacked_deck('AsKs2c7d'), now=0.0, button=1)
>>> table.positions, table.actor
(Positions(button=1, small_blind=1, big_blind=4), 1)
>>> [type(e).__name__ for e in table.act('ann', 'fold', now=3.0)][:3]
['Acted', 'UncalledReturned', 'StreetEnded']
>>> table.seats[4].stack, table.previous.pots[0].winners
(151, (4,))
"""

from __future__ import annotations

from collections.abc import Sequence

from pokerroom.core.cards import CardError, check_deck
from pokerroom.core.events import Event, HandEnded
from pokerroom.core.hand import BETTING, SHOWDOWN, Hand, IllegalAction
from pokerroom.core.structures import GameError
from pokerroom.table.config import (
    ALL_IN_PROTECTION,
    STANDARD,
    TableError,
    check_buy_in,
    game_label,
)
from pokerroom.table.decisions import beaten, decide_for, would_protect
from pokerroom.table.events import (
    AnyEvent,
    BlindMissed,
    ChipsAdded,
    GameChanged,
    HandStarted,
    Left,
    PostRequested,
    SatIn,
    SatOut,
    Seated,
    TimedOut,
    TurnStarted,
    WaitingChanged,
)
from pokerroom.table.positions import Plan, plan_hand
from pokerroom.table.record import finished, to_seats
from pokerroom.table.seating import ACTIVE, ENTERING, SITTING_OUT, Seat
from pokerroom.table.state import IDLE, PLAYING, POSTING, Reshuffle, TableState, _check_time

__all__ = ["IDLE", "PLAYING", "POSTING", "Reshuffle", "Table"]


class Table(TableState):
    """One table of the room. See the module docstring."""

    # ------------------------------------------------------------------ seating

    def sit(
        self, player: object, seat: object, buy_in: object, now: float = 0.0, at_least: int = 0
    ) -> list[AnyEvent]:
        """Take a free seat with a buy-in between the table minimum and maximum (R3, S1,
        case 48). In hold'em a newcomer then waits for the big blind or posts one (H6).
        ``at_least``: the stack he left this table with lately (the shell remembers it,
        D13): he must bring at least that much, even above the table maximum."""
        self.verify_sit(player, seat, buy_in, at_least)
        self.clock = now
        assert type(player) is str and type(seat) is int and type(buy_in) is int
        stud = self.config.variant == "stud"
        self.seats[seat] = Seat(
            seat, player, buy_in, self.config.time_bank, state=ACTIVE if stud else ENTERING, owe_big=not stud
        )
        self._by_player[player] = seat
        out: list[AnyEvent] = [Seated(seat, player, buy_in)]
        if player in self.waiting:  # his offer taken, or a seat free beyond those held
            self.waiting.leave(player)
            out.append(self._waiting_changed(()))
        return out

    def verify_sit(self, player: object, seat: object, buy_in: object, at_least: int = 0) -> None:
        """Raise ``TableError`` if ``sit`` would be refused; changes nothing."""
        if type(player) is not str or not player.strip():
            raise TableError("bad_player", f"a player is a non-empty name, not {player!r}")
        if player in self._by_player:
            raise TableError("already_seated", f"{player} already sits in seat {self._by_player[player]}")
        n = self.config.seats
        if type(seat) is not int or not 1 <= seat <= n:
            raise TableError("bad_seat", f"seats are numbered 1 to {n}, not {seat!r}")
        if seat in self.seats:
            raise TableError("seat_taken", f"seat {seat} is taken")
        held = self.waiting.held(player)
        if held and n - len(self.seats) <= held:
            raise TableError("seat_held", "the free seats are held for the players on the waiting list: "
                             "join it")
        if type(at_least) is not int or at_least < 0:
            raise TableError("bad_amount", f"at_least is a whole number of chips, not {at_least!r}")
        if at_least > self.config.min_buy_in and type(buy_in) is int and 0 < buy_in < at_least:
            raise TableError(  # D13: no ratholing
                "rathole",
                f"you left this table with {at_least} chips a short while ago: "
                f"sit down with at least {at_least}",
            )
        check_buy_in(self.config, buy_in, 0, "buy in", at_least)

    def add_chips(self, player: object, amount: object, now: float = 0.0) -> list[AnyEvent]:
        """Add chips between hands (case 48), up to the maximum buy-in; a busted player
        buying in again is back in the game."""
        s = self.verify_add_chips(player, amount)
        self.clock = now
        seat = self.seats[s]
        assert type(amount) is int
        busted = seat.stack == 0
        seat.stack += amount
        out: list[AnyEvent] = [ChipsAdded(s, seat.player, amount, seat.stack)]
        if busted and seat.state == SITTING_OUT:
            seat.come_back()
            out.append(SatIn(s, seat.player, seat.owes_text))
        if self.phase == POSTING:
            out += self._continue_posting(now)
        return out

    def verify_add_chips(self, player: object, amount: object) -> int:
        """The player's seat if ``add_chips`` would be allowed, else ``TableError``."""
        s = self.seat_of(player)
        if self.in_hand(s):
            raise TableError("in_hand", "chips can be added only between hands")
        check_buy_in(self.config, amount, self.seats[s].stack, "add")
        return s

    def leave(self, player: object, now: float = 0.0) -> list[AnyEvent]:
        """Leave the table. Between hands the seat is free at once and the chips go back to
        the balance; in a hand the player folds when his turn comes (checks when that is
        free) and leaves when the hand ends, with whatever he then has."""
        s = self.seat_of(player)
        seat = self.seats[s]
        self.clock = now
        if self.in_hand(s):
            seat.leaving = True
            return self._after_change(now)
        out = self._remove(s, "left")
        if self.phase == POSTING:
            self._pending.pop(s, None)
            out += self._continue_posting(now)
        return out

    def _remove(self, s: int, reason: str) -> list[AnyEvent]:
        seat = self.seats.pop(s)
        del self._by_player[seat.player]
        return [Left(s, seat.player, seat.stack, reason), *self._offer_seats()]

    # ------------------------------------------------------------------ the waiting list

    def join_waiting(self, player: object, bot: bool = False, now: float = 0.0) -> list[AnyEvent]:
        """Wait for a seat at this table (waiting.py): only when none is free for him;
        a bot goes behind every person. His place is his index in ``waiting.names`` + 1."""
        _check_time(now)
        if type(player) is not str or not player.strip():
            raise TableError("bad_player", f"a player is a non-empty name, not {player!r}")
        if player in self._by_player:
            raise TableError("already_seated", f"{player} already sits in seat {self._by_player[player]}")
        if player in self.waiting:
            raise TableError("already_waiting", "you are on this table's waiting list already")
        if self.config.seats - len(self.seats) > self.waiting.held(player):
            raise TableError("seat_free", "a seat is free at this table: sit down")
        self.clock = now
        self.waiting.join(player, bool(bot))
        return [self._waiting_changed(())]

    def leave_waiting(self, player: object, now: float = 0.0) -> list[AnyEvent]:
        """Off the waiting list; a seat held for him goes to the next."""
        _check_time(now)
        if player not in self.waiting:
            raise TableError("not_waiting", "you are not on this table's waiting list")
        assert type(player) is str
        self.clock = now
        self.waiting.leave(player)
        return [self._waiting_changed(()), *self._offer_seats()]

    def _offer_seats(self) -> list[AnyEvent]:
        free = self.config.seats - len(self.seats)
        taken = self.waiting.withdraw(free)
        offered = self.waiting.offer(free, self.clock, self.config.seat_offer_time)
        return [self._waiting_changed(tuple(offered))] if offered or taken else []

    def _waiting_changed(self, offered: tuple[str, ...]) -> WaitingChanged:
        return WaitingChanged(*self.waiting.state(), offered)

    def set_options(self, player: object, now: float = 0.0, **values: object) -> list[AnyEvent]:
        """Change a player's settings (``Options``): auto-post blinds and antes, wait for
        the big blind, sit out next hand or at the next big blind, auto-muck."""
        s = self.seat_of(player)
        seat = self.seats[s]
        seat.options = seat.options.with_values(values)
        self.clock = now
        if seat.options.sit_out_next_hand and not self.in_hand(s):
            out = self._sit_out(s, "asked")
            if self.phase == POSTING:
                self._pending.pop(s, None)
                out += self._continue_posting(now)
            return out
        return []

    def sit_out(self, player: object, now: float = 0.0) -> list[AnyEvent]:
        """Sit out: at once between hands, from the next hand when in one."""
        return self.set_options(player, now, sit_out_next_hand=True)

    def sit_in(self, player: object, now: float = 0.0) -> list[AnyEvent]:
        """Come back from sitting out ("I'm back"); what was missed is owed (H7)."""
        s = self.seat_of(player)
        seat = self.seats[s]
        if seat.state == SITTING_OUT and seat.stack == 0:
            raise TableError("no_chips", "add chips to play again")
        seat.options = seat.options.with_values({"sit_out_next_hand": False, "sit_out_next_big_blind": False})
        self.clock = now
        if seat.state != SITTING_OUT:
            return []
        seat.come_back()
        out: list[AnyEvent] = [SatIn(s, seat.player, seat.owes_text)]
        if self.phase == POSTING:
            out += self._continue_posting(now)
        return out

    def _sit_out(self, s: int, reason: str) -> list[AnyEvent]:
        seat = self.seats[s]
        seat.options = seat.options.with_values({"sit_out_next_hand": False, "sit_out_next_big_blind": False})
        if seat.state == SITTING_OUT:
            return []
        seat.sit_out()
        seat.timeouts = 0
        return [SatOut(s, seat.player, reason)]

    # ------------------------------------------------------------------ starting a hand
    def can_start(self) -> bool:
        """Whether ``start_hand`` would deal (or ask for blinds) now."""
        if self.phase != IDLE:
            return False
        return self._plan_for(None) is not None

    def start_hand(
        self,
        deck: Sequence[int],
        now: float = 0.0,
        *,
        reshuffle: Reshuffle | None = None,
        button: int | None = None,
    ) -> list[AnyEvent]:
        """Deal the next hand from ``deck`` (the caller shuffled it). Players who post by
        hand are asked first (``post``); the deal waits for them or their clock."""
        _check_time(now)
        if self.phase != IDLE:
            raise TableError("hand_running", "a hand is already being played or set up")
        try:
            cards = check_deck(deck, 52)
        except CardError as e:
            raise TableError("bad_deck", f"{e} (the table deals from a full shuffled deck)") from None
        if button is not None and (type(button) is not int or button not in self.seats):
            raise TableError("bad_seat", f"the first button must be an occupied seat, not {button!r}")
        plan = self._plan_for(button)
        if plan is None:
            raise TableError("not_enough_players", "two players ready to play are needed to deal")
        self.clock = now
        out: list[AnyEvent] = []
        asked = False
        for s, seat in list(self.seats.items()):
            if seat.options.sit_out_next_hand:
                asked = True
                out += self._sit_out(s, "asked")
        self._deck, self._reshuffle, self._button = cards, reshuffle, button
        self._confirmed = {}
        self._pending = {}
        self.phase = POSTING
        # the plan holds unless somebody sat out just now (nothing else it reads changed)
        return out + self._continue_posting(now, None if asked else plan)

    def _plan_for(self, button: int | None) -> Plan | None:
        stage = self.config.schedule[self._next_stage()[0]]
        return plan_hand(
            self.seats, self.config.seats, stage.game, self.positions, button, straddles=self.config.straddles
        )

    def _continue_posting(self, now: float, known: Plan | None = None) -> list[AnyEvent]:
        plan = known if known is not None else self._plan_for(self._button)
        if plan is None:  # not enough players left to deal: back to waiting
            self.phase = IDLE
            self._pending = {}
            return []
        out: list[AnyEvent] = []
        wanted: dict[int, PostRequested] = {}
        for s in plan.seats:
            seat = self.seats[s]
            blind, dead, ante = plan.post_of(s)
            options = seat.options
            blinds_asked = (blind or dead) and not options.auto_post_blinds and s != plan.straddle
            asks = blinds_asked or (ante and not options.auto_post_antes)
            if not asks or self._confirmed.get(s) == (seat.player, blind, dead, ante):
                continue
            old = self._pending.get(s)
            if old is not None and (old.blind, old.dead, old.ante) == (blind, dead, ante):
                wanted[s] = old
            else:
                wanted[s] = PostRequested(s, seat.player, blind, dead, ante, now + self.config.action_time)
                out.append(wanted[s])
        self._pending = wanted
        if wanted:
            return out
        return out + self._deal(plan, now)

    def post(self, player: object, accept: object = True, now: float = 0.0) -> list[AnyEvent]:
        """Answer a posting request: post (True) or sit out (False)."""
        s = self.seat_of(player)
        if self.phase != POSTING or s not in self._pending:
            raise TableError("nothing_to_post", "nothing is asked of this seat now")
        if type(accept) is not bool:
            raise TableError("bad_answer", f"post takes true or false, not {accept!r}")
        if now >= self._pending[s].deadline:
            raise TableError("too_late", "the time to post ran out")
        request = self._pending.pop(s)
        self.clock = now
        if accept:
            self._confirmed[s] = (request.player, request.blind, request.dead, request.ante)
            return self._continue_posting(now)
        return self._sit_out(s, "declined") + self._continue_posting(now)

    def _deal(self, plan: Plan, now: float) -> list[AnyEvent]:
        out: list[AnyEvent] = []
        index, done = self._next_stage()
        game = self.config.schedule[index].game
        stud = game.variant == "stud"
        # made first: nothing changes at the table if the hand cannot be dealt
        hand = Hand(
            game, [self.seats[s].stack for s in plan.seats], self._deck,
            antes=plan.antes,
            blinds=None if stud else plan.blinds,
            dead_blinds=None if stud else plan.dead,
            big_blind_position=None if stud else plan.big_blind_position,
            small_blind=stud or plan.small_blind_posted,
            reshuffle=self._reshuffle,
        )
        if index != self.stage:
            self.stage = index
            out.append(GameChanged(game_label(game), index))
        self._stage_hands = done + 1
        # the big blind passed these players while they sat out (H7), or they sit out now
        for s in plan.sit_out_now:
            out += self._sit_out(s, "big_blind")
        passed = sorted(set(plan.sit_out_now) | set(plan.missed_big))  # one orbit each
        standard = self.config.missed_blinds == STANDARD  # D11: else one big blind live
        for s in passed:
            seat = self.seats[s]
            if self.positions is not None:  # the first hand of a table ends no orbit
                seat.missed_orbits += 1
            if game.variant != "stud" and seat.miss("big", standard):
                out.append(BlindMissed(s, seat.player, "big"))
        for s in plan.missed_small:
            seat = self.seats[s]
            if seat.miss("small", standard):
                out.append(BlindMissed(s, seat.player, "small"))
        for s in passed:
            if self.seats[s].missed_orbits > self.config.max_missed_orbits:
                out += self._remove(s, "sat_out_too_long")
        for s in plan.seats:
            seat = self.seats[s]
            seat.clear_debts()
            seat.missed_orbits = 0
            seat.hands += 1
            seat.time_bank = min(self.config.time_bank_max, seat.time_bank + self.config.time_bank_refill)
        self.hand, self.plan, self._game, self.positions = hand, plan, game, plan.positions
        self._players = tuple(self.seats[s].player for s in plan.seats)
        self.hand_number += 1
        self.phase = PLAYING
        self._reveals = {}
        self._pending, self._confirmed, self._deck = {}, {}, ()
        pos = plan.positions
        out.append(HandStarted(
            self.hand_number, game_label(game), pos.button,
            pos.small_blind if plan.small_blind_posted else None,
            None if stud else pos.big_blind, plan.seats,
        ))
        out += self._seated_events(hand.events)
        return out + self._after_change(now)

    # ------------------------------------------------------------------ playing

    def _seated_events(self, events: Sequence[Event]) -> list[AnyEvent]:
        assert self.plan is not None
        seats = self.plan.seats
        number = self.hand_number
        return [finished(number, e, seats) if type(e) is HandEnded else to_seats(e, seats) for e in events]

    def act(self, player: object, action: object, amount: object = None, now: float = 0.0) -> list[AnyEvent]:
        """The player's decision: 'fold', 'check', 'call', 'bet', 'raise' (with the total
        amount), 'bring_in', 'complete' (with the amount), 'show' or 'muck'."""
        _check_time(now)
        s = self.seat_of(player)
        if not self.in_hand(s):
            raise TableError("not_in_hand", f"{player} is not in a hand being played")
        self.clock = now
        hand, plan = self.hand, self.plan
        assert hand is not None and plan is not None
        index = plan.seats.index(s)
        if hand.folded[index]:
            raise TableError("folded", "you folded this hand")
        if self.actor != s:
            turn = f"seat {self.actor}'s turn" if self.actor is not None else "nobody's turn"
            raise TableError("not_your_turn", f"it is {turn}, not seat {s}'s")
        if self.turn is not None and self.turn.seat == s and now >= self.turn.deadline:
            raise TableError("too_late", "the clock ran out: the table acts for you")
        try:
            events = hand.act(action, amount, player=index)
        except (IllegalAction, GameError) as e:
            raise TableError(getattr(e, "code", "illegal"), str(e)) from None
        seat = self.seats[s]
        seat.timeouts = 0
        if self.turn is not None and self.turn.seat == s:
            used = now - self.turn.started - self.config.action_time
            if used > 0:
                seat.time_bank = max(0.0, seat.time_bank - used)
        self.turn = None
        return self._seated_events(events) + self._after_change(now)

    def advance(self, now: float) -> list[AnyEvent]:
        """Apply what the clock decides at time ``now``: a turn or a posting request whose
        time ran out (R1, D7, case 47), a seat held for the waiting list too long."""
        _check_time(now)
        self.clock = now
        out: list[AnyEvent] = []
        if self.waiting.lapse(now):
            out += self._offer_seats() or [self._waiting_changed(())]
        return out + self._advance_clocks(now)

    def _advance_clocks(self, now: float) -> list[AnyEvent]:
        if self.phase == POSTING:
            out: list[AnyEvent] = []
            late = [s for s, r in self._pending.items() if now >= r.deadline]
            for s in late:
                seat = self.seats[s]
                del self._pending[s]
                out.append(TimedOut(s, seat.player, "declined"))
                out += self._sit_out(s, "declined")
            return out + (self._continue_posting(now) if late else [])
        if self.phase != PLAYING or self.turn is None or now < self.turn.deadline:
            return []
        s = self.turn.seat
        seat = self.seats[s]
        seat.time_bank = 0.0
        seat.timeouts += 1
        self.turn = None
        verb, events = self._act_for(s, now, timed_out=True)
        out = [TimedOut(s, seat.player, verb)]
        out += self._seated_events(events)
        if seat.timeouts >= self.config.max_timeouts:
            out += self._sit_out(s, "timeouts")
        return out + self._after_change(now)

    def resume(self, paused: float) -> list[AnyEvent]:
        """The room held this table still for ``paused`` seconds (its database did not
        confirm a write): every running clock moves on by as much, so nobody times out for
        the room's fault; the turn that was running is announced again with its new deadline."""
        if not paused > 0:
            return []
        self._pending = {s: r._replace(deadline=r.deadline + paused) for s, r in self._pending.items()}
        if self.phase != PLAYING or self.turn is None:
            return []
        turn = self.turn
        self.turn = turn._replace(started=turn.started + paused, deadline=turn.deadline + paused)
        return [self.turn]

    def _act_for(self, s: int, now: float, timed_out: bool = False) -> tuple[str, tuple[Event, ...]]:
        """The table's decision for a player who is not deciding (timed out, left or sat out):
        on a time-out a protection (D7) while he has one left, else check or fold
        (table.decisions). Only a time-out is protected: a player who leaves, or whose
        time-outs sat him out, has his later turns checked or folded."""
        hand, plan = self.hand, self.plan
        assert hand is not None and plan is not None
        p = plan.seats.index(s)
        seat = self.seats[s]
        policy = self.config.timeout_policy
        protect = timed_out and policy == ALL_IN_PROTECTION and not seat.leaving and would_protect(hand, p)
        if protect and self.protections.left(seat.player, now) > 0:
            self.protections.spend(seat.player, now)
            return decide_for(hand, p, True)
        return decide_for(hand, p, False)

    def _after_change(self, now: float) -> list[AnyEvent]:
        """Play on after the hand changed: the table's automatic decisions, then the clock
        for whoever must decide, or the end of the hand."""
        out: list[AnyEvent] = []
        hand, plan = self.hand, self.plan
        assert hand is not None and plan is not None
        while not hand.complete and hand.actor is not None:
            s = plan.seats[hand.actor]
            seat = self.seats[s]
            if hand.phase == SHOWDOWN:
                p = hand.actor
                if not beaten(hand, p):
                    out += self._seated_events(hand.show(p))  # a hand that can win is shown
                    continue
                if seat.options.auto_muck or seat.leaving or seat.state == SITTING_OUT:
                    out += self._seated_events(hand.muck(p) if hand.can_muck(p) else hand.show(p))
                    continue
            elif seat.leaving or seat.state == SITTING_OUT:
                out += self._seated_events(self._act_for(s, now)[1])
                continue
            if self.turn is None or self.turn.seat != s:
                bank = seat.time_bank
                self.turn = TurnStarted(s, now, now + self.config.action_time + bank, bank)
                out.append(self.turn)
            return out
        if hand.complete:
            out += self._finish_hand()
        return out

    def _finish_hand(self) -> list[AnyEvent]:
        hand, plan = self.hand, self.plan
        assert hand is not None and plan is not None and hand.phase != BETTING
        self.turn = None
        self.phase = IDLE
        self._previous = None
        self._previous_of = (
            self.hand_number, game_label(self._game), plan.positions.button, hand, plan.seats, self._players
        )
        self.previous_number = self.hand_number
        out: list[AnyEvent] = []
        ended = hand.result()
        for s, stack in zip(plan.seats, ended.stacks, strict=True):
            seat = self.seats[s]
            seat.stack = stack
            if seat.leaving:
                out += self._remove(s, "left")
            elif stack == 0:
                out += self._sit_out(s, "busted")
        return out
