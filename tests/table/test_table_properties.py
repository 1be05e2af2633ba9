"""Hypothesis properties of the table (pokerroom.table): thousands of hands with random
joins, leaves, sit-outs, sit-ins, option changes, posting answers, time-outs and busts, at
no-limit, fixed-limit, mixed NL/FL (L4, case 46, D9) and stud tables, under both timeout
policies (R1, D7, case 47). Stacks are often tiny, so players bust and go all in on blinds.

A driver keeps its own model of every seat (player, stack, state, debts, options, time-outs
in a row, missed orbits, time bank) built only from the events the table returned, and
after every command checks:

1. Chips (R3, S1, case 48): everything bought in (``Seated.stack`` + ``ChipsAdded.amount``)
   minus everything given back (``Left.stack``) is ``table.chips()``; in a hand, the hand's
   stacks + pot + protected chips stay what the dealt players brought; no stack, bet or
   protected amount is ever negative; each ``HandFinished`` stack is the stack at the deal
   plus the net, and the nets add up to zero; when everybody has left, nothing is left at
   the table. A refused command (``TableError``) changes nothing at all (the table's whole
   state is compared), and the commands meant to be refused (short or excessive buy-ins,
   adding chips in a hand, acting out of turn or too late, posting when nothing is asked,
   a bad deck, ...) are refused with the right code.
2. Dealing (H6, H7, S2): nobody sitting out, asking to sit out, leaving or without chips
   is dealt in; nobody is dealt twice; every dealt seat is occupied; every active player
   with chips is dealt in; a newcomer or returning player is dealt only as the big blind,
   by posting what he owes from a seat after the big blind other than the small blind and
   the button (wait_for_big_blind off), or in a fresh deal; a player who does not post
   automatically is dealt only after accepting exactly what he then posts; the model's
   states, debts (``SatIn.owes``), options and time-outs agree with the table's seats.
3. Button and blinds (H3-H5, H7, cases 3-8): heads-up the button posts the small blind and
   the other player the big blind; the big blind moves to the first ready player clockwise
   after the last big blind (never the same seat twice in a row; every seat passed is
   sitting out or leaving, and a player who asked to sit out at his big blind never posts
   it); with three or more players the small blind position is the last big blind seat and
   the button the last small blind position (the dead button); the posted blinds match
   ``HandStarted`` and the game of the hand (short only when all in); the games follow the
   mixed schedule. Stud (S2, S3): everyone dealt posts the ante, nothing else, and the
   dealer position moves to the next player dealt in.

   The orbit accounting. A player's *orbit* is the hands after a big blind he posted as the
   big blind (Posted kind 'big_blind') up to and including his next one, when he was dealt
   every hand from the one to the other (consecutive hand numbers). It is checked when the
   same players were dealt every one of those hands (nobody joined, left, sat out or came
   back into the game: the orbit then lasts exactly as many hands as there are players), or
   when every hand of it was dealt to three players or more and not fresh (others may come
   and go). Over an orbit he pays exactly one big blind ('big_blind', or a live 'blind'
   while entering) and one small blind ('small_blind', or the missed-blind equivalent
   'dead'). Heads-up hands are left out of the second kind: when a newcomer takes the big
   blind heads-up, the other player is on the button and posts the small blind again (H4).
   And while he is dealt every hand the big blind never skips him: it reaches him within
   ``config.seats`` hands of his first hand and of his last big blind. Players who sit out
   cannot be held to this: waiting for the big blind forgives missed blinds (H7, case 8).
4. Missed orbits and the clock (R1, D7, case 47): a player sitting out misses an orbit each
   time the big blind (stud: the dealer) passes him; ``max_missed_orbits`` are allowed, one
   more costs him the seat at once (Left 'sat_out_too_long'). A time-out checks when that
   is free, else folds (or, with all-in protection, keeps a player with chips in the pot
   in for them), posts a stud bring-in, shows or mucks at the showdown; ``max_timeouts`` in
   a row sit him out. The time bank is refilled for every hand dealt, drawn on past the
   action time and emptied by a time-out; the clock never runs for an all-in player.

The orbits, posts and deals are checked as each hand is dealt, so a failure stops at the
command that broke a rule and reports the commands before it (examples are not shrunk).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from pokerroom.core.cards import Card, seeded_deck, stacked_deck
from pokerroom.core.events import (
    Acted,
    BoardDealt,
    HoleDealt,
    Mucked,
    Posted,
    PotAwarded,
    Shown,
    StreetEnded,
    UncalledReturned,
)
from pokerroom.core.hand import SHOWDOWN
from pokerroom.core.structures import Game
from pokerroom.table import (
    ACTIVE,
    ALL_IN_PROTECTION,
    CHECK_FOLD,
    ENTERING,
    IDLE,
    PLAYING,
    POSTING,
    SITTING_OUT,
    Options,
    Positions,
    Stage,
    Table,
    TableConfig,
    TableError,
    game_label,
)
from pokerroom.table.events import (
    BlindMissed,
    ChipsAdded,
    GameChanged,
    HandFinished,
    HandStarted,
    Left,
    PostRequested,
    SatIn,
    SatOut,
    Seated,
    TimedOut,
    TurnStarted,
)

NL = Game.no_limit(1, 2)
FL = Game.fixed_limit(4, 8, small_blind=2, big_blind=4)
STUD = Game.stud(2, 4, ante=1, bring_in=1)
KINDS = ("no_limit", "fixed_limit", "mixed", "stud")

# Each example plays HANDS hands (or stops after MAX_STEPS commands); EXAMPLES examples per
# kind of table: about 2,500 hands a kind, 10,000 in all, in about 20 s. Derandomized: the
# same examples on every run.
EXAMPLES = 60
HANDS = 40
MAX_STEPS = 900
# No shrinking: an example is hundreds of commands and shrinking one takes minutes; a failure
# reports the last commands and their events instead (enough to replay it by hand).
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

TRACE = 120  # commands shown when a check fails
QUIET = (HoleDealt, BoardDealt, StreetEnded, Shown, Mucked, PotAwarded, UncalledReturned, TurnStarted)
OK = "ok"  # the command must succeed
MAY = "may"  # it may succeed or be refused with one of the codes given


def distance(a: int, b: int, n: int) -> int:
    """Seats clockwise from a to b (0 when a == b)."""
    return (b - a) % n


def strictly_between(a: int, b: int, s: int, n: int) -> bool:
    """Whether seat s lies strictly after a and before b going clockwise from a."""
    return 0 < distance(a, s, n) < distance(a, b, n)


def owes_word(big: bool, small: bool) -> str:
    if big and small:
        return "big_and_small_blind"
    return "big_blind" if big else "small_blind" if small else "nothing"


def fingerprint(table: Table) -> object:
    """Everything a command could change: the seats, the hand and the table's own fields."""
    hand = table.hand
    core = None if hand is None else (
        hand.phase, hand.street, hand.actor, tuple(hand.stacks), tuple(hand.bets),
        tuple(hand.protected), tuple(hand.folded), len(hand.events), hand.pot,
    )
    own = {
        k: dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v
        for k, v in vars(table).items() if k not in ("seats", "hand")
    }
    seats = {n: dataclasses.replace(s) for n, s in table.seats.items()}
    return seats, core, own


@dataclass
class Player:
    """The driver's model of one occupied seat, kept from the table's events."""

    name: str
    stack: int
    state: str
    owe_big: bool
    owe_small: bool
    options: Options = field(default_factory=Options)
    timeouts: int = 0
    leaving: bool = False
    missed: int = 0  # big blinds (stud: dealer positions) passed while he sat out
    bank: float = 0.0  # his time bank (R1)


@dataclass
class HandLog:
    number: int
    game: Game
    seats: tuple[int, ...]
    names: dict[int, str]
    before: dict[int, Player]  # the dealt players as they were just before the deal
    fresh: bool  # dealt fresh (positions.py): everyone ready is dealt, debts are forgiven
    posts: dict[int, list[Posted]] = field(default_factory=dict)


@st.composite
def configs(draw: st.DrawFn, kind: str) -> TableConfig:
    if kind == "stud":
        schedule = [Stage(STUD, 1)]
    elif kind == "no_limit":
        schedule = [Stage(NL, 1)]
    elif kind == "fixed_limit":
        schedule = [Stage(FL, 1)]
    else:
        schedule = [Stage(NL, draw(st.integers(1, 4))), Stage(FL, draw(st.integers(1, 4)))]
    unit = max(s.game.small_bet if kind == "stud" else s.game.big_blind for s in schedule)
    low = unit * draw(st.sampled_from([1, 2, 5, 20]))
    high = low * draw(st.sampled_from([1, 3, 10]))
    time_bank = draw(st.sampled_from([0.0, 2.0, 20.0]))
    return TableConfig.mixed(
        schedule,
        seats=min(draw(st.sampled_from([2, 3, 4, 6, 6, 9, 9])), 8 if kind == "stud" else 9),
        min_buy_in=low,
        max_buy_in=high,
        action_time=draw(st.sampled_from([1.0, 10.0])),
        time_bank=time_bank,
        time_bank_max=max(time_bank, 30.0),
        timeout_policy=draw(st.sampled_from([CHECK_FOLD, ALL_IN_PROTECTION])),
        max_timeouts=draw(st.integers(1, 3)),
        max_missed_orbits=draw(st.integers(0, 3)),
    )


class Run:
    """Drives one table with commands hypothesis chooses and checks it after each."""

    def __init__(self, config: TableConfig, data: st.DataObject, stats: Counter[str]) -> None:
        self.table = Table(config)
        self.config = config
        self.n = config.seats
        self.stud = config.variant == "stud"
        self.data = data
        self.stats = stats
        self.now = 0.0
        self.bank = 0  # chips bought in minus chips given back
        self.model: dict[int, Player] = {}
        self.names = 0
        self.decks = 0
        self.logs: list[HandLog] = []
        self.hand_total = 0
        self.prev: Positions | None = None
        self.requested: dict[int, PostRequested] = {}  # the open posting requests, by seat
        self.accepted: dict[tuple[int, str], tuple[int, int, int]] = {}
        self.schedule: list[Game] = [s.game for s in config.schedule for _ in range(s.hands)]
        self.changed = False  # a GameChanged came before the next HandStarted
        self.turn: TurnStarted | None = None  # the clock running now
        self.trace: list[str] = []  # the commands so far and what they did, for failure reports
        self.labels: dict[tuple[Card, ...], str] = {}
        self.target = 2

    # ------------------------------------------------------------------ choices

    def pick(self, options: list[object]) -> object:
        assert options
        return options[0] if len(options) == 1 else options[self.data.draw(st.integers(0, len(options) - 1))]

    def seated(self) -> list[int]:
        return sorted(self.model)

    def in_hand(self, s: int) -> bool:
        t = self.table
        return t.phase == PLAYING and t.plan is not None and s in t.plan.seats

    # ------------------------------------------------------------------ the command wrapper

    def call(
        self,
        name: str,
        *args: object,
        expect: str | frozenset[str] = OK,
        codes: frozenset[str] = frozenset(),
        before_events: Callable[[], None] | None = None,
        **kwargs: object,
    ) -> list[object] | None:
        """Run a table command. ``expect`` OK: it must succeed; a set of codes: it must be
        refused with one of them; MAY: either (refused only with one of ``codes``). A refused
        command must change nothing. ``before_events`` updates the model for what the
        command itself does (options), before its events are read."""
        before = fingerprint(self.table)
        shown = ", ".join([*(self.label(a) for a in args), *(f"{k}={v!r}" for k, v in kwargs.items())])
        self.trace.append(f"table.{name}({shown})")
        try:
            events = getattr(self.table, name)(*args, **kwargs)
        except TableError as e:
            assert fingerprint(self.table) == before, f"the refused {name}({shown}) changed the table"
            allowed = expect if isinstance(expect, frozenset) else codes
            assert expect != OK and e.code in allowed, f"{name}({shown}) refused: {e.code}: {e}"
            self.stats["refused"] += 1
            return None
        assert not isinstance(expect, frozenset), f"{name}({shown}) should be refused ({set(expect)})"
        if before_events is not None:
            before_events()
        self.trace.append("    -> " + ", ".join(repr(e) for e in events if type(e) not in QUIET))
        self.process(list(events))
        self.check()
        self.stats["commands"] += 1
        return list(events)

    # ------------------------------------------------------------------ reading events

    def process(self, events: list[object]) -> None:
        log: HandLog | None = None
        self.removed: dict[int, Player] = {}  # seats lost for sitting out too long, this command
        cfg = self.config
        for e in events:
            t = type(e)
            if t is Seated:
                assert e.seat not in self.model and cfg.min_buy_in <= e.stack <= cfg.max_buy_in
                state = ACTIVE if self.stud else ENTERING  # hold'em: owes a big blind (H6)
                player = Player(e.player, e.stack, state, not self.stud, False, bank=cfg.time_bank)
                self.model[e.seat] = player
                self.bank += e.stack
            elif t is ChipsAdded:
                p = self.model[e.seat]
                assert e.amount > 0 and p.stack + e.amount == e.stack <= cfg.max_buy_in
                assert e.stack >= cfg.min_buy_in
                p.stack = e.stack
                self.bank += e.amount
            elif t is Left:
                p = self.model.pop(e.seat)
                assert (p.name, p.stack) == (e.player, e.stack), (p, e)
                if e.reason == "sat_out_too_long":  # checked with the deal that follows
                    assert p.state == SITTING_OUT and not self.in_hand(e.seat)
                    self.removed[e.seat] = p
                else:
                    assert e.reason == "left"
                self.bank -= e.stack
                self.requested.pop(e.seat, None)
            elif t is SatOut:
                p = self.model[e.seat]
                assert p.state != SITTING_OUT, f"{e} twice"
                if e.reason == "busted":
                    assert p.stack == 0
                elif e.reason == "timeouts":
                    assert p.timeouts >= cfg.max_timeouts
                elif e.reason == "big_blind":
                    assert p.options.sit_out_next_big_blind
                elif e.reason == "asked":
                    assert p.options.sit_out_next_hand
                else:
                    assert e.reason == "declined" and e.seat in self.requested, e
                self.sit_out(p)
                self.requested.pop(e.seat, None)
            elif t is SatIn:
                p = self.model[e.seat]
                assert p.state == SITTING_OUT and p.stack > 0
                assert e.owes == owes_word(p.owe_big, p.owe_small), (e, p)
                p.state = ENTERING if p.owe_big or p.owe_small else ACTIVE
                p.missed = 0
            elif t is BlindMissed:
                assert not self.stud
                p = self.model[e.seat]
                assert p.state == SITTING_OUT, f"{e} for a player who is {p.state}"
                if e.blind == "big":
                    p.owe_big = p.owe_small = True
                else:
                    assert e.blind == "small"
                    p.owe_small = True
            elif t is PostRequested:
                p = self.model[e.seat]
                blinds_asked = (e.blind or e.dead) and not p.options.auto_post_blinds
                assert blinds_asked or (e.ante and not p.options.auto_post_antes), e
                self.requested[e.seat] = e
                assert e.deadline == self.now + cfg.action_time
            elif t is GameChanged:
                game = self.schedule[len(self.logs) % len(self.schedule)]
                assert cfg.is_mixed and e.game == game_label(game)
                assert self.schedule[(len(self.logs) - 1) % len(self.schedule)] is not game
                self.changed = True
            elif t is HandStarted:
                log = self.on_deal(e)
            elif t is Posted:
                assert log is not None, "a blind posted outside a deal"
                log.posts.setdefault(e.player, []).append(e)
            elif t is TimedOut:
                if e.action != "declined":  # R1: the time bank is spent
                    p = self.model[e.seat]
                    p.timeouts += 1
                    p.bank = 0.0
                    assert self.turn is not None and self.turn.seat == e.seat
                    self.turn = None
            elif t is TurnStarted:  # R1: the action time plus his whole time bank
                assert e.time_bank == self.model[e.seat].bank and e.started == self.now
                assert e.deadline == e.started + cfg.action_time + e.time_bank
                self.turn = e
            elif t is HandFinished:
                self.turn = None
                self.on_finish(e)
        if log is not None:
            self.check_blinds(log)
            self.check_orbits(count=False)  # the hands so far: fails on the hand that breaks a rule

    def sit_out(self, p: Player) -> None:
        p.state = SITTING_OUT
        p.timeouts = 0
        p.options = dataclasses.replace(p.options, sit_out_next_hand=False, sit_out_next_big_blind=False)

    def on_deal(self, e: HandStarted) -> HandLog:
        table, n = self.table, self.n
        self.stats["hands"] += 1
        assert e.number == len(self.logs) + 1 == table.hand_number
        game = self.schedule[len(self.logs) % len(self.schedule)]  # L4, case 46
        switch = bool(self.logs) and self.logs[-1].game is not game
        assert self.changed == switch, f"hand {e.number}: GameChanged {self.changed}, switch {switch}"
        self.changed = False
        assert e.game == game_label(game) and table.hand is not None and table.hand.game == game
        seats = e.seats
        plan = table.plan
        assert plan is not None and plan.seats == seats
        assert len(seats) >= 2 and len(set(seats)) == len(seats), f"dealt twice: {e}"
        for s in seats:
            assert s in self.model, f"seat {s} dealt but empty: {e}"
            p = self.model[s]
            assert p.state != SITTING_OUT, f"seat {s} is dealt in while sitting out: {e}"
            assert not p.leaving and p.stack > 0 and not p.options.sit_out_next_hand, (e, p)
        for s, p in self.model.items():  # every active player with chips plays
            if p.state == ACTIVE and p.stack > 0 and not p.leaving:
                assert s in seats, f"active seat {s} not dealt in: {e}"
        positions = table.positions
        assert positions is not None and positions.button == e.button
        if self.stud:
            assert e.small_blind is None and e.big_blind is None and e.button in seats
            if self.prev is not None:
                self.passes(self.prev.button, e.button, seats)
        else:
            bb = e.big_blind
            assert bb is not None and bb in seats and positions.big_blind == bb
            assert not self.model[bb].options.sit_out_next_big_blind, f"seat {bb} asked to sit out at his BB"
            if len(seats) == 2:  # H4, case 3-4
                assert e.small_blind == e.button and seats == (bb, e.button), e
            else:
                key = {s: distance(e.button, s, n) or n for s in seats}
                assert list(seats) == sorted(seats, key=key.__getitem__), f"not in order from the button: {e}"
                assert e.small_blind in (None, positions.small_blind) and positions.small_blind != bb
                if plan.fresh:  # the two players dealt before the big blind
                    ring = sorted(seats, key=lambda s: distance(bb, s, n) or n)  # ends with bb
                    assert (positions.small_blind, positions.button) == (ring[-2], ring[-3])
                    assert e.small_blind == positions.small_blind
                elif self.prev is not None:  # the dead button rule (cases 5, 6)
                    assert positions.small_blind == self.prev.big_blind, (self.prev, positions)
                    assert positions.button == self.prev.small_blind, (self.prev, positions)
            if self.prev is not None:
                self.passes(self.prev.big_blind, bb, seats)
        self.missed_orbits(positions, seats)
        self.prev = positions
        hand = table.hand
        assert list(hand.starting_stacks) == [self.model[s].stack for s in seats]
        self.hand_total = sum(hand.starting_stacks)
        log = HandLog(
            e.number, game, seats, {s: self.model[s].name for s in seats},
            {s: dataclasses.replace(self.model[s]) for s in seats}, plan.fresh,
        )
        self.logs.append(log)
        for s in seats:
            p = self.model[s]
            p.state, p.owe_big, p.owe_small = ACTIVE, False, False
            p.bank = min(self.config.time_bank_max, p.bank + self.config.time_bank_refill)
        return log

    def missed_orbits(self, positions: Positions, seats: tuple[int, ...]) -> None:
        """Every player sitting out whom the big blind (stud: the dealer) passed missed an
        orbit; ``max_missed_orbits`` of them are allowed, one more costs him the seat."""
        passed: set[int] = set()
        if self.prev is not None:
            last, new = (self.prev.button, positions.button) if self.stud else (
                self.prev.big_blind, positions.big_blind)
            passed = {s for s in range(1, self.n + 1) if strictly_between(last, new, s, self.n)}
        assert set(self.removed) <= passed, f"seats {set(self.removed) - passed} removed, not passed"
        limit = self.config.max_missed_orbits
        for s in sorted(passed):
            p = self.model.get(s) or self.removed.get(s)
            if p is None or p.leaving:
                continue
            p.missed += 1
            if s in self.removed:
                assert p.missed > limit, f"seat {s} removed after {p.missed} missed orbits, {limit} allowed"
            else:
                assert p.missed <= limit, f"seat {s} missed {p.missed} orbits, {limit} allowed, still seated"
        for s in seats:
            self.model[s].missed = 0

    def passes(self, last: int, new: int, seats: tuple[int, ...]) -> None:
        """The big blind (stud: the dealer) moved from ``last`` to ``new``, the first ready
        seat clockwise: everyone passed sits out or is leaving, nobody dealt was passed."""
        assert new != last, f"seat {new} has the big blind (button) twice in a row"
        for s in range(1, self.n + 1):
            if strictly_between(last, new, s, self.n):
                assert s not in seats, f"the big blind (button) skipped seat {s}, dealt in: {last} -> {new}"
                p = self.model.get(s)
                assert p is None or p.state == SITTING_OUT or p.leaving, (
                    f"the big blind (button) skipped seat {s} ({p}): {last} -> {new}"
                )

    def check_blinds(self, log: HandLog) -> None:
        table, game = self.table, log.game
        plan = table.plan
        assert plan is not None and plan.seats == log.seats
        started = [s for s in log.seats]
        for s in started:
            before = log.before[s]
            posts = log.posts.get(s, [])
            asked = (not before.options.auto_post_blinds and any(p.kind != "ante" for p in posts)) or (
                not before.options.auto_post_antes and any(p.kind == "ante" for p in posts)
            )
            if asked:  # S2: posted only after saying yes to exactly this
                assert self.accepted.get((s, before.name)) == plan.post_of(s), (s, posts, self.accepted)
            for p in posts:
                nominal = {
                    "ante": game.ante, "small_blind": game.small_blind, "dead": game.small_blind,
                    "big_blind": game.big_blind, "blind": game.big_blind,
                }[p.kind]
                assert p.amount == nominal or (p.all_in and 0 < p.amount < nominal), (p, game)
        if self.stud:
            for s in log.seats:  # S2: everyone dealt posts the ante, nothing else
                assert [p.kind for p in log.posts.get(s, [])] == ["ante"], log.posts
            return
        e_bb = plan.positions.big_blind
        bbs = [s for s, ps in log.posts.items() for p in ps if p.kind == "big_blind"]
        sbs = [s for s, ps in log.posts.items() for p in ps if p.kind == "small_blind"]
        assert bbs == [e_bb], f"big blinds posted by {bbs}, the big blind is {e_bb}"
        hs_sb = plan.positions.small_blind if plan.small_blind_posted else None
        assert sbs == ([] if hs_sb is None else [hs_sb]), (sbs, plan)
        for s in log.seats:
            before = log.before[s]
            kinds = [p.kind for p in log.posts.get(s, [])]
            if s == e_bb:
                assert kinds == ["big_blind"], (s, kinds, plan)
                continue
            if s == hs_sb:
                assert kinds == ["small_blind"], (s, kinds, plan)
                continue
            if before.state == ACTIVE or plan.fresh:
                assert kinds == [], f"seat {s} ({before}) posted {kinds} in {plan}"
                continue
            # H6, H7, case 7, 8: entering, not the big blind, dealt at once: posts what he owes
            assert before.state == ENTERING and not before.options.wait_for_big_blind, (s, before)
            assert s not in (plan.positions.button, plan.positions.small_blind), (s, plan)
            assert strictly_between(e_bb, plan.positions.button, s, self.n), (s, plan)
            owed = (["dead"] if before.owe_small else []) + (["blind"] if before.owe_big else [])
            assert owed, f"seat {s} owes nothing but was entering: {before}"
            posts = log.posts.get(s, [])
            cut = kinds == owed[: len(kinds)] and bool(posts) and posts[-1].all_in
            assert kinds == owed or cut, f"seat {s} owed {owed}, posted {kinds}"
        self.stats["blind_checks"] += 1

    def on_finish(self, e: HandFinished) -> None:
        log = self.logs[-1]
        assert e.number == log.number
        assert tuple(s for s, _ in e.stacks) == log.seats == tuple(s for s, _ in e.net)
        assert sum(net for _, net in e.net) == 0
        for (s, final), (_, net) in zip(e.stacks, e.net, strict=True):
            p = self.model[s]
            assert final >= 0 and final == p.stack + net, (e, p)
            p.stack = final
            if final == 0 and not p.leaving and p.state == SITTING_OUT:
                self.sit_out(p)  # busted, out already: no SatOut comes, the requests are cleared

    # ------------------------------------------------------------------ the invariants

    def check(self) -> None:
        table = self.table
        assert self.bank == table.chips(), f"bought in - returned = {self.bank}, at the table {table.chips()}"
        assert set(table.seats) == set(self.model)
        for s, seat in table.seats.items():
            p = self.model[s]
            assert seat.player == p.name and seat.stack == p.stack >= 0, (seat, p)
            assert (seat.state, seat.owe_big, seat.owe_small) == (p.state, p.owe_big, p.owe_small), (seat, p)
            assert seat.options == p.options, (seat, p)
            assert seat.timeouts == p.timeouts, (seat, p)
            assert seat.leaving == p.leaving, (seat, p)
            assert seat.missed_orbits == p.missed, (seat, p)
            assert seat.time_bank == p.bank <= self.config.time_bank_max, (seat, p)
            if seat.stack == 0 and not self.in_hand(s):
                assert seat.state == SITTING_OUT, f"busted seat {s} is {seat.state}"
        hand = table.hand
        if table.phase == PLAYING:
            assert hand is not None and not hand.complete
            assert min(hand.stacks) >= 0 and min(hand.bets) >= 0 and min(hand.protected) >= 0
            assert sum(hand.stacks) + hand.pot + sum(hand.protected) == self.hand_total
            actor = table.actor
            assert actor is not None and table.turn is not None and table.turn.seat == actor
            assert table.deadline == table.turn.deadline
            p = self.model[actor]
            assert not p.leaving and p.state != SITTING_OUT, f"the table waits for {p}"
            assert table.plan is not None and hand.stacks[table.plan.seats.index(actor)] > 0, (
                "an all-in player has the clock (D7)"
            )
        elif table.phase == POSTING:
            assert table.deadline is not None
        else:
            assert table.phase == IDLE and table.turn is None and table.deadline is None

    # ------------------------------------------------------------------ commands

    def sit(self, valid: bool = False) -> None:
        """Sit a newcomer, or try a sit the table must refuse (R3, S1, case 48)."""
        cfg = self.config
        free = [s for s in range(1, self.n + 1) if s not in self.model]
        if valid and not free:
            return
        how = "ok" if valid else self.pick(
            ["ok", "ok", "ok", "below", "above", "zero", "float", "taken", "bad_seat", "again"]
        )
        name = f"p{self.names}"
        low, high = cfg.min_buy_in, cfg.max_buy_in
        amount: object = self.pick([low, high, (low + high) // 2])
        seat: object = self.pick(free) if free else 1
        if how == "below":
            amount = low - 1
        elif how == "above":
            amount = high + 1
        elif how == "zero":
            amount = self.pick([0, -low])
        elif how == "float":
            amount = float(low)
        elif how == "taken" and self.model:
            seat = self.pick(self.seated())
        elif how == "bad_seat":
            seat = self.pick([0, self.n + 1, "1"])
        elif how == "again" and self.model:
            name = self.model[self.pick(self.seated())].name
        codes = set()
        if any(p.name == name for p in self.model.values()):
            codes.add("already_seated")
        if type(seat) is not int or not 1 <= seat <= self.n:
            codes.add("bad_seat")
        elif seat in self.model:
            codes.add("seat_taken")
        if type(amount) is not int or amount <= 0:
            codes.add("bad_amount")
        elif amount < low:
            codes.add("below_minimum")
        elif amount > high:
            codes.add("above_maximum")
        if codes:
            self.call("sit", name, seat, amount, now=self.now, expect=frozenset(codes))
            return
        self.names += 1
        self.call("sit", name, seat, amount, now=self.now)
        assert type(seat) is int
        style = self.pick(["plain", "plain", "by_hand", "eager"])
        if style == "by_hand":  # posts blinds (stud: antes) only when he says so
            self.set_options(seat, {"auto_post_antes" if self.stud else "auto_post_blinds": False})
        elif style == "eager":  # posts a big blind to play at once (H6)
            self.set_options(seat, {"wait_for_big_blind": False})

    def leave(self) -> None:
        if not self.model:
            self.call("leave", "nobody", now=self.now, expect=frozenset({"not_seated"}))
            return
        s = self.pick(self.seated())
        p = self.model[s]
        if self.in_hand(s):
            def mark() -> None:
                p.leaving = True
            self.call("leave", p.name, now=self.now, before_events=mark)
        else:
            self.call("leave", p.name, now=self.now)
        self.stats["leaves"] += 1

    def add_chips(self) -> None:
        if not self.model:
            return
        cfg = self.config
        s = self.pick(self.seated())
        p = self.model[s]
        room = cfg.max_buy_in - p.stack
        amount = self.pick([1, room, room + 1, max(1, cfg.min_buy_in - p.stack), 0])
        codes = set()
        if self.in_hand(s):
            codes.add("in_hand")
        elif amount <= 0:
            codes.add("bad_amount")
        elif p.stack + amount < cfg.min_buy_in:
            codes.add("below_minimum")
        elif p.stack + amount > cfg.max_buy_in:
            codes.add("above_maximum")
        self.call("add_chips", p.name, amount, now=self.now, expect=frozenset(codes) if codes else OK)

    def sit_out_cmd(self) -> None:
        if not self.model:
            return
        s = self.pick(self.seated())
        if self.pick([True, False]):
            self.set_options(s, {"sit_out_next_hand": True}, "sit_out")
        else:
            self.set_options(s, {"sit_out_next_big_blind": True})

    def set_options(self, s: int, values: dict[str, object], command: str = "set_options") -> None:
        p = self.model[s]
        in_hand = self.in_hand(s)

        def update() -> None:
            p.options = p.options.with_values(values)
            if p.options.sit_out_next_hand and not in_hand and p.state == SITTING_OUT:
                self.sit_out(p)  # out already: no SatOut comes, the request is used up

        args = () if command == "sit_out" else tuple(values.items())
        done = self.call(command, p.name, now=self.now, before_events=update, **dict(args))
        if done is not None and p.options.sit_out_next_hand and not in_hand:
            raise AssertionError(f"{p.name} asked to sit out between hands and is {p.state}")
        if done is not None and values.get("sit_out_next_hand") and not in_hand and s in self.model:
            assert self.table.seats[s].state == SITTING_OUT  # (he may have lost the seat at once)

    def options_cmd(self) -> None:
        if not self.model:
            self.call("set_options", "nobody", now=self.now, auto_muck=True, expect=frozenset({"not_seated"}))
            return
        s = self.pick(self.seated())
        name = self.pick([
            "wait_for_big_blind", "wait_for_big_blind", "auto_post_blinds", "auto_post_blinds",
            "auto_post_antes", "auto_muck", "sit_out_next_big_blind", "bad_name", "bad_value",
        ])
        if name == "bad_name":
            self.call("set_options", self.model[s].name, now=self.now, post_blinds=True,
                      expect=frozenset({"bad_option"}))
        elif name == "bad_value":
            self.call("set_options", self.model[s].name, now=self.now, auto_muck=1,
                      expect=frozenset({"bad_option"}))
        else:
            self.set_options(s, {name: self.pick([False, True])})

    def sit_in(self, s: int | None = None) -> None:
        if s is None:
            out = [s for s, p in self.model.items() if p.state == SITTING_OUT] or self.seated()
            if not out:
                return
            s = self.pick(sorted(out))
        p = self.model[s]

        def update() -> None:
            p.options = dataclasses.replace(p.options, sit_out_next_hand=False, sit_out_next_big_blind=False)

        expect = frozenset({"no_chips"}) if p.state == SITTING_OUT and p.stack == 0 else OK
        self.call("sit_in", p.name, now=self.now, before_events=update, expect=expect)

    def revive(self) -> None:
        """Somebody for the next hand: a newcomer, a player back, or a rebuy."""
        busted = [s for s, p in self.model.items() if p.stack == 0]
        out = [s for s, p in self.model.items() if p.state == SITTING_OUT and p.stack > 0]
        how = self.pick(["sit", "sit_in", "rebuy"])
        if how == "sit_in" and out:
            self.sit_in(self.pick(sorted(out)))
        elif how == "rebuy" and busted:
            p = self.model[self.pick(sorted(busted))]
            self.call("add_chips", p.name, self.config.min_buy_in, now=self.now)
        elif len(self.model) < self.n:
            free = [s for s in range(1, self.n + 1) if s not in self.model]
            low, high = self.config.min_buy_in, self.config.max_buy_in
            self.names += 1
            self.call("sit", f"p{self.names - 1}", self.pick(free), self.pick([low, high]), now=self.now)
        elif busted:
            p = self.model[self.pick(sorted(busted))]
            self.call("add_chips", p.name, self.config.min_buy_in, now=self.now)
        elif out:
            self.sit_in(out[0])
        else:
            self.leave()

    def deck(self) -> tuple[Card, ...]:
        self.decks += 1
        deck = seeded_deck(self.decks)
        self.labels[deck] = f"seeded_deck({self.decks})"
        return deck

    def label(self, arg: object) -> str:
        if type(arg) is tuple and arg in self.labels:
            return self.labels[arg]
        if type(arg) is tuple and len(arg) > 5:
            return f"<bad deck of {len(arg)} cards>"
        return repr(arg)

    def start(self) -> None:
        table = self.table
        self.now += self.pick([0.0, 1.0, 30.0])
        if not table.can_start():
            self.call("start_hand", self.deck(), now=self.now, expect=frozenset({"not_enough_players"}))
            self.revive()
            return
        if self.pick([False] * 9 + [True]):
            full = self.deck()
            deck = self.pick([full[:51], full[:51] + full[:1], full[1:] + full[:1] + full[:1]])
            self.call("start_hand", deck, now=self.now, expect=frozenset({"bad_deck"}))
        button = self.pick([None, *self.seated()]) if table.hand_number == 0 else None
        asked = {s for s, p in self.model.items() if p.options.sit_out_next_hand}

        def update() -> None:
            for s in asked:  # out already: no SatOut comes, the request is used up
                if self.model[s].state == SITTING_OUT:
                    self.sit_out(self.model[s])

        self.requested.clear()
        self.accepted.clear()
        # can_start() plans with no button: with one chosen, the big blind may fall on a player
        # who asked to sit out at his big blind, and then two players are not there
        self.call("start_hand", self.deck(), now=self.now, button=button, before_events=update,
                  expect=OK if button is None else MAY, codes=frozenset({"not_enough_players"}))
        if table.phase != IDLE and self.pick([False] * 9 + [True]):
            self.call("start_hand", self.deck(), now=self.now, expect=frozenset({"hand_running"}))

    # ------------------------------------------------------------------ phases

    def short_handed(self) -> bool:
        """Fewer players ready to play than the table tends to: bring more in than out."""
        return sum(1 for p in self.model.values() if p.state != SITTING_OUT and p.stack > 0) < self.target

    def seating_step(self) -> None:
        if self.short_handed():
            op = self.pick(["revive"] * 4 + ["options"] * 2 + ["sit", "leave", "add", "sit_out"])
        else:
            op = self.pick(["sit", "leave", "add", "sit_out", "sit_in", "options", "options"])
        {"sit": self.sit, "leave": self.leave, "add": self.add_chips, "sit_out": self.sit_out_cmd,
         "sit_in": self.sit_in, "options": self.options_cmd, "revive": self.revive}[op]()

    def idle_step(self) -> None:
        op = self.pick(["start"] * 6 + ["seating"] * 3 + ["refused"])
        if op == "start" and self.short_handed() and self.pick([True, True, False]):
            self.revive()
        elif op == "start":
            self.start()
        elif op == "seating":
            self.seating_step()
        else:
            self.refusals_between_hands()

    def refusals_between_hands(self) -> None:
        if not self.model:
            return
        p = self.model[self.pick(self.seated())]
        what = self.pick(["post", "act", "answer"])
        if what == "post":
            self.call("post", p.name, True, now=self.now, expect=frozenset({"nothing_to_post"}))
        elif what == "act":
            self.call("act", p.name, "check", now=self.now, expect=frozenset({"not_in_hand"}))
        else:
            assert self.table.advance(self.now) == []

    def posting_step(self) -> None:
        table = self.table
        op = self.pick(["answer"] * 5 + ["timeout"] * 2 + ["seating"] * 2 + ["bad"])
        pending = sorted(s for s in self.requested if s in self.model)
        if op == "answer" and pending:
            s = self.pick(pending)
            p = self.model[s]
            request = self.requested[s]
            accept = self.pick([True, True, False])
            later = self.now + self.pick([0.0, 0.4])
            if later < min(r.deadline for r in self.requested.values()):
                self.now = later

            def update() -> None:
                if accept:  # a refusal is read from its SatOut
                    self.accepted[(s, p.name)] = (request.blind, request.dead, request.ante)
                    self.requested.pop(s, None)

            done = self.call("post", p.name, accept, now=self.now, before_events=update, expect=MAY,
                             codes=frozenset({"nothing_to_post"}))
            if done is None:  # the table no longer asks him: the plan changed
                self.requested.pop(s, None)
            self.stats["posts_answered"] += 1
        elif op == "timeout" or (op == "answer" and not pending):
            deadline = table.deadline
            assert deadline is not None
            if self.pick([True, False, False]):  # not yet: nothing happens
                before = fingerprint(table)
                assert table.advance(max(self.now, deadline - 0.5)) == [] and fingerprint(table) == before
                return
            self.now = max(self.now, deadline + self.pick([0.0, 3.0]))
            late = {s for s, r in self.requested.items() if r.deadline <= self.now}
            events = self.call("advance", self.now)
            assert events is not None
            timed = {e.seat for e in events if type(e) is TimedOut}
            assert timed and timed <= late
            assert all(e.action == "declined" for e in events if type(e) is TimedOut)
            self.stats["post_timeouts"] += 1
        elif op == "seating":
            self.seating_step()
        else:
            p = self.model[self.pick(self.seated())]
            codes = {"bad_answer", "nothing_to_post"}
            self.call("post", p.name, "yes", now=self.now, expect=frozenset(codes))
            self.call("start_hand", self.deck(), now=self.now, expect=frozenset({"hand_running"}))

    def playing_step(self) -> None:
        op = self.pick(["act"] * 14 + ["timeout"] * 3 + ["seating"] * 2 + ["bad"])
        if op == "act":
            self.act()
        elif op == "timeout":
            self.timeout()
        elif op == "seating":
            self.seating_step()
        else:
            self.bad_act()

    def act(self) -> None:
        table = self.table
        hand, actor, deadline = table.hand, table.actor, table.deadline
        assert hand is not None and actor is not None and deadline is not None
        legal = hand.legal_actions()
        options: list[tuple[str, int | None]] = []
        if legal.show:
            options.append(("show", None))
        if legal.muck:
            options.append(("muck", None))
        if legal.fold:
            options.append(("fold", None))
        if legal.bring_in:
            options.append(("bring_in", None))
        elif legal.check:
            options.append(("check", None))
        elif legal.call or (legal.player is not None and hand.phase != SHOWDOWN):
            options.append(("call", None))
        if legal.min_to is not None and legal.max_to is not None:
            amounts = {legal.min_to, legal.max_to}
            if not hand.game.structure.fixed:
                amounts.add((legal.min_to + legal.max_to) // 2)
            verb = "complete" if legal.bring_in else "raise"
            options += [(verb, a) for a in sorted(amounts)]
        verb, amount = self.pick(options)  # type: ignore[misc]
        self.now = self.now + (deadline - self.now) * self.pick([0.0, 0.3, 0.95])
        p = self.model[actor]

        def update() -> None:
            p.timeouts = 0
            turn = self.turn
            assert turn is not None and turn.seat == actor
            used = self.now - turn.started - self.config.action_time
            if used > 0:  # R1: time past the action time comes out of the time bank
                p.bank = max(0.0, p.bank - used)
            self.turn = None

        self.call("act", p.name, verb, amount, now=self.now, before_events=update)
        self.stats["actions"] += 1

    def timeout(self) -> None:
        """Case 47, D7: facing a bet fold (or protected), otherwise check; a stud bring-in is
        posted; at the showdown the hand is shown or mucked."""
        table = self.table
        hand, actor, deadline = table.hand, table.actor, table.deadline
        assert hand is not None and actor is not None and deadline is not None
        if self.pick([False, False, True]):  # not yet: nothing happens
            before = fingerprint(table)
            assert table.advance(max(self.now, deadline - 0.01)) == [] and fingerprint(table) == before
            p = self.model[actor]
            self.call("act", p.name, "fold", now=deadline, expect=frozenset({"too_late"}))
            return
        legal = hand.legal_actions()
        if hand.phase == SHOWDOWN:
            allowed = {"show", "muck"} if legal.muck else {"show"}
        elif legal.bring_in:
            allowed = {"bring_in"}
        elif legal.check:
            allowed = {"check"}
        elif self.config.timeout_policy == ALL_IN_PROTECTION and hand.can_protect():
            allowed = {"protected"}
        else:
            allowed = {"fold"}
        self.now = max(self.now, deadline + self.pick([0.0, 7.5]))
        events = self.call("advance", self.now)
        assert events is not None
        first = events[0]
        assert type(first) is TimedOut and first.seat == actor and first.action in allowed, (first, allowed)
        acted = [e for e in events if type(e) is Acted]
        if first.action in ("check", "fold", "protected", "bring_in"):
            assert acted and acted[0].player == actor and acted[0].action == first.action, (first, acted)
        self.stats["timeouts"] += 1
        self.stats[f"timeout_{first.action}"] += 1

    def bad_act(self) -> None:
        table = self.table
        hand, actor = table.hand, table.actor
        assert hand is not None and actor is not None and table.plan is not None
        others = [s for s in table.plan.seats if s != actor and s in self.model]
        outside = [s for s in self.model if not self.in_hand(s)]
        how = self.pick(["other", "outside", "amount", "verb"])
        if how == "other" and others:
            p = self.model[self.pick(others)]
            self.call("act", p.name, "check", now=self.now, expect=frozenset({"not_your_turn", "folded"}))
        elif how == "outside" and outside:
            p = self.model[self.pick(sorted(outside))]
            self.call("act", p.name, "fold", now=self.now, expect=frozenset({"not_in_hand"}))
        else:
            p = self.model[actor]
            legal = hand.legal_actions()
            if how == "amount":
                too_much = (legal.max_to or 0) + 1 + 10 ** 6
                codes = {"amount_out_of_range", "cannot_raise", "wrong_phase", "bring_in_first"}
                self.call("act", p.name, "raise", too_much, now=self.now, expect=frozenset(codes))
            else:
                self.call("act", p.name, "dance", now=self.now, expect=frozenset({"unknown_action"}))

    # ------------------------------------------------------------------ the whole run

    def play(self, hands: int) -> None:
        try:
            self.play_hands(hands)
        except AssertionError as e:
            tail = "\n".join(self.trace[-TRACE:])
            raise AssertionError(f"{e}\n{self.table!r}\nthe last commands:\n{tail}") from None

    def play_hands(self, hands: int) -> None:
        self.target = self.pick(list(range(max(2, self.n // 2), self.n + 1)))  # players it tends to
        for _ in range(self.target):
            self.sit(valid=True)
        steps = 0
        while self.table.hand_number < hands and steps < MAX_STEPS:
            steps += 1
            phase = self.table.phase
            if phase == IDLE:
                self.idle_step()
            elif phase == POSTING:
                self.posting_step()
            else:
                self.playing_step()
        self.stats["steps"] += steps
        # the clock ends what is left, then everybody leaves with his chips
        while self.table.phase != IDLE:
            deadline = self.table.deadline
            assert deadline is not None
            self.now = max(self.now, deadline)
            self.call("advance", self.now)
        for s in self.seated():
            self.call("leave", self.model[s].name, now=self.now)
        assert self.bank == 0 and self.table.chips() == 0 and not self.table.seats
        self.check_orbits(count=True)

    def check_orbits(self, count: bool) -> None:
        if self.stud:
            return
        dealt: dict[str, list[HandLog]] = {}
        for log in self.logs:
            for name in log.names.values():
                dealt.setdefault(name, []).append(log)
        for name, logs in dealt.items():
            runs: list[list[HandLog]] = []
            for log in logs:
                if runs and runs[-1][-1].number + 1 == log.number:
                    runs[-1].append(log)
                else:
                    runs.append([log])
            for run in runs:
                self.check_run(name, run, count)

    def check_run(self, name: str, run: list[HandLog], count: bool) -> None:
        def posts(log: HandLog) -> list[Posted]:
            (seat,) = [s for s, who in log.names.items() if who == name]
            return log.posts.get(seat, [])

        big = [i for i, log in enumerate(run) if any(p.kind == "big_blind" for p in posts(log))]
        # while he is dealt every hand, the big blind reaches him within config.seats hands
        marks = [-1, *big, len(run)]
        for a, b in itertools.pairwise(marks):
            assert b - a <= self.n, (
                f"{name}, dealt in hands {run[0].number}-{run[-1].number}, posted the big blind in "
                f"{[run[i].number for i in big]}: skipped for more than {self.n} hands"
            )
        for a, b in itertools.pairwise(big):
            orbit = run[a + 1 : b + 1]
            players = set(run[a].names.values())
            stable = all(set(log.names.values()) == players for log in orbit)
            ringed = all(len(log.seats) >= 3 and not log.fresh for log in orbit)
            if not (stable or ringed):
                continue  # heads-up, the button posts the small blind whoever had it last (H4)
            if stable:  # the big blind went round the table once
                assert b - a == len(players), f"{name}: an orbit of {b - a} hands for {len(players)} players"
            bigs = smalls = 0
            for log in orbit:
                for p in posts(log):
                    if p.kind in ("big_blind", "blind"):
                        bigs += 1
                    elif p.kind in ("small_blind", "dead"):
                        smalls += 1
            assert (bigs, smalls) == (1, 1), (
                f"{name} paid {bigs} big and {smalls} small blinds in the orbit of hands "
                f"{run[a + 1].number}-{run[b].number}: "
                + "; ".join(f"{g.number}: {[(p.kind, p.amount) for p in posts(g)]}" for g in run[a : b + 1])
            )
            self.stats["orbits"] += count
            self.stats["stable_orbits"] += count and stable


@pytest.mark.parametrize("kind", KINDS)
def test_table_chips_dealing_button_and_blinds_H4_H7_R1_R3_S1_S2(kind: str) -> None:
    stats: Counter[str] = Counter()

    @SETTINGS
    @given(configs(kind), st.data())
    def run(config: TableConfig, data: st.DataObject) -> None:
        Run(config, data, stats).play(HANDS)

    run()
    print(kind, dict(stats))
    # the runs did what they are meant to: many hands, orbits and every kind of event
    assert stats["hands"] >= EXAMPLES * HANDS // 2
    assert stats["refused"] > 100 and stats["timeouts"] > 50 and stats["leaves"] > 50
    if kind != "stud":
        assert stats["orbits"] > 100 and stats["blind_checks"] >= stats["hands"] - 1
        assert stats["posts_answered"] > 10


# ---------------------------------------------------------------- found by the properties above
# Each reproduces, in a few commands, a failure the property test found.


def test_a_refused_sit_in_changes_nothing_R3() -> None:
    """A busted player who asked to sit out at his next big blind and then says "I'm back"
    without chips is refused (no_chips): his settings must stay as they were."""
    table = Table(TableConfig.single(NL, seats=2, min_buy_in=2, max_buy_in=200))
    table.sit("a", 1, 2)
    table.sit("b", 2, 200)
    # heads-up: b on the button; a all in on his big blind with 7-2 against aces
    table.start_hand(stacked_deck("2cAs7dAhKdKhKsQcJdJh9s8c"), 0.0, button=2)
    table.act("b", "call", now=1.0)
    assert table.phase == IDLE and table.seats[1].stack == 0 and table.seats[1].state == SITTING_OUT
    table.set_options("a", sit_out_next_big_blind=True)
    before = fingerprint(table)
    with pytest.raises(TableError) as info:
        table.sit_in("a")
    assert info.value.code == "no_chips"
    assert table.seats[1].options.sit_out_next_big_blind
    assert fingerprint(table) == before


def test_sitting_out_at_the_big_blind_misses_one_orbit_H7() -> None:
    """``max_missed_orbits`` orbits sitting out are allowed: with 1, a player who sits out
    when the big blind reaches him has missed one orbit and keeps his seat."""
    table = Table(TableConfig.single(NL, seats=4, max_missed_orbits=1))
    for name, seat in (("a", 1), ("b", 2), ("c", 3), ("d", 4)):
        table.sit(name, seat, 200)
    table.start_hand(seeded_deck(1), 0.0, button=1)  # SB 2, BB 3: d is due the next big blind
    table.set_options("d", sit_out_next_big_blind=True)
    while table.phase == PLAYING:
        table.advance(table.deadline)  # type: ignore[arg-type]
    events = table.start_hand(seeded_deck(2), 100.0)
    assert SatOut(4, "d", "big_blind") in events and BlindMissed(4, "d", "big") in events
    assert not [e for e in events if type(e) is Left], events
    assert table.seats[4].missed_orbits == 1


def test_missed_orbits_count_alike_in_a_fresh_deal_H7() -> None:
    """With ``max_missed_orbits`` 0, everyone the big blind passes while sitting out loses
    his seat, whether he sat out before or asked to sit out at this big blind. Here the
    big blind wraps past the old button, so the hand is dealt fresh (heads-up)."""
    table = Table(TableConfig.single(NL, seats=6, max_missed_orbits=0))
    for name, seat in (("a", 1), ("b", 2), ("c", 3), ("d", 4)):
        table.sit(name, seat, 200)
    table.start_hand(seeded_deck(1), 0.0, button=1)  # SB 2, BB 3
    while table.phase == PLAYING:
        table.advance(table.deadline)  # type: ignore[arg-type]
    table.sit_out("d")
    table.set_options("a", sit_out_next_big_blind=True)
    events = table.start_hand(seeded_deck(2), 100.0)
    assert table.plan is not None and table.plan.fresh and table.plan.seats == (2, 3)
    assert BlindMissed(1, "a", "big") in events and BlindMissed(4, "d", "big") in events
    assert {e.seat for e in events if type(e) is Left} == {1, 4}, events


def test_a_new_player_in_a_seat_posts_only_what_he_accepted_S2() -> None:
    """a confirms his big blind and leaves before the deal; d takes his seat, posting blinds
    only when asked. d must be asked: he never accepted a's big blind."""
    table = Table(TableConfig.single(NL, seats=3))
    for name, seat in (("a", 1), ("b", 2), ("c", 3)):
        table.sit(name, seat, 200)
    table.start_hand(seeded_deck(1), 0.0, button=1)  # SB 2, BB 3
    while table.phase == PLAYING:
        table.advance(table.deadline)  # type: ignore[arg-type]
    table.set_options("a", auto_post_blinds=False)  # a is the next big blind
    table.set_options("c", auto_post_blinds=False)  # c the next small blind
    asked = table.start_hand(seeded_deck(2), 100.0)
    assert {(e.player, e.blind) for e in asked if type(e) is PostRequested} == {("a", 2), ("c", 1)}
    table.post("a", True, now=100.5)
    table.leave("a", now=100.6)
    table.sit("d", 1, 200, now=100.7)
    table.set_options("d", now=100.8, auto_post_blinds=False)
    events = table.post("c", True, now=101.0)
    assert not [e for e in events if type(e) is HandStarted], "d posted a big blind he was never asked for"
    assert [(e.player, e.blind) for e in events if type(e) is PostRequested] == [("d", 2)]


@pytest.mark.parametrize("game", [NL, Game.pot_limit(1, 2)], ids=["NL", "PL"])
def test_a_newcomers_blind_with_a_dead_small_blind_is_a_live_blind_H6_case_7_case_20(game: Game) -> None:
    """Dead small blind and dead button (case 5): the seat due the button and the one due
    the small blind sit out; a newcomer posts a big blind to play at once from the last seat
    before the button (H6). His post is a live 'blind', not a small blind; in pot limit the
    missing small blind counts as if posted (case 20): the first player may raise to 9."""
    table = Table(TableConfig.single(game, seats=6))
    for name, seat in (("b", 2), ("c", 3), ("d", 4), ("e", 5)):
        table.sit(name, seat, 200)
    table.start_hand(seeded_deck(1), 0.0, button=5)  # SB 2, BB 3
    while table.phase == PLAYING:
        table.advance(table.deadline)  # type: ignore[arg-type]
    table.sit_out("b")  # due the button
    table.sit_out("c")  # due the small blind
    table.sit("f", 6, 200)
    table.set_options("f", wait_for_big_blind=False)
    events = table.start_hand(seeded_deck(2), 100.0)
    assert HandStarted(2, game_label(game), 2, None, 4, (4, 5, 6)) in events
    posted = [(e.player, e.kind, e.amount) for e in events if type(e) is Posted]
    assert posted == [(4, "big_blind", 2), (6, "blind", 2)]
    if game.structure.value == "PL":
        assert table.actor == 5 and table.hand is not None and table.hand.legal_actions().max_to == 9
