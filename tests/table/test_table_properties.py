"""Hypothesis properties of the table (pokerroom.table): thousands of hands with random
joins, leaves, sit-outs, sit-ins, option changes (straddles among them), posting answers,
time-outs and busts, at no-limit or pot-limit, fixed-limit, mixed NL/FL (L4, case 46, D9)
and stud tables, under both timeout policies (R1, D7, case 47), both missed-blind rules
(H7, D11) and with straddles allowed or not (D10). Stacks are often tiny, so players bust
and go all in on blinds.

A driver keeps its own model of every seat (player, stack, state, debts, options, time-outs
in a row, missed orbits, time bank) and of every player's all-in protections. The model
follows the rules, not the table: it reads what happened from the table's events (who sat,
acted, posted, was dealt), but what a player owes, who must be dealt, what each posts, when
a hand may be dealt fresh and what a time-out does are its own, and after every command it
checks the table agrees:

1. Chips (R3, S1, case 48): everything bought in (``Seated.stack`` + ``ChipsAdded.amount``)
   minus everything given back (``Left.stack``) is ``table.chips()``; in a hand, the hand's
   stacks + pot + protected chips stay what the dealt players brought; no stack, bet or
   protected amount is ever negative; each ``HandFinished`` stack is the stack at the deal
   plus the net, and the nets add up to zero; when everybody has left, nothing is left at
   the table. A refused command (``TableError``) changes nothing at all (the table's whole
   state is compared), and the commands meant to be refused (short or excessive buy-ins,
   adding chips in a hand, acting out of turn or too late, posting when nothing is asked,
   a bad deck, ...) are refused with the right code.
2. Debts, the model's own (H6, H7, D11, case 8). A newcomer owes a live big blind. At each
   deal the model works out who missed what: every player sitting out in a seat the big
   blind passed (strictly between the last big blind and the new one) missed the big blind;
   the player sitting out in the seat that had the last big blind missed the small blind
   when the dead-button positions hold (below). By the seeds' rule (``missed_blinds``
   "seeds", the default) any miss means one live post the size of the big blind; by the
   ``standard`` rule a missed big blind means the big blind live plus the small blind dead,
   a missed small blind only the small blind dead. The table must report exactly those
   misses (``BlindMissed``, only when a debt grows), ``SatIn.owes`` and its seats must show
   the model's debts, and a player dealt in owes nothing afterwards.
3. Who is dealt (H6, H7, cases 4, 7, 8). Nobody sitting out, asking to sit out, leaving or
   without chips is dealt in; nobody is dealt twice; every dealt seat is occupied; every
   player who owes nothing and is ready is dealt in. A player who owes is dealt only (a) as
   the big blind, posting it, or (b) by posting exactly what he owes (by the D11 rule) from
   a seat after the big blind and before the button, never the small blind's or the
   button's, having asked to (``wait_for_big_blind`` off) - and such a player in such a
   seat of a hand of three or more is dealt in - or (c) in a fresh deal. *Fresh* is the
   model's own notion: only when the table starts (no hand yet) or restarts, that is when
   fewer than two players could be dealt otherwise (the big blind and the players who owe
   nothing are fewer than two); then everyone ready is dealt and debts are forgiven. The
   small blind and the button of a hand not dealt fresh are players who owed nothing: no
   one is dealt in free on the button (the bug of issue 15). A player who does not post
   automatically is dealt only after accepting exactly what he then posts.
4. Button and blinds (H3-H5, H8, H10, cases 3-8): heads-up the button posts the small blind
   and the other player the big blind; the big blind moves to the first ready player
   clockwise after the last big blind (never the same seat twice in a row; every seat
   passed is sitting out or leaving, and a player who asked to sit out at his big blind
   never posts it). With three players or more: when the dead-button positions fit (the
   last big blind's seat and the last small blind's seat lie, in that order, before the
   new big blind) the small blind position is the last big blind seat and the button the
   last small blind position (cases 5, 6); otherwise (heads-up becomes three-handed) the
   small blind and the button are dealt players who owed nothing. After a hand of three or
   more with dead-button positions, no dealt player sits between the button and the big
   blind but the small blind (after a restart or a re-placement a player who was out may
   come back there owing nothing: the orbits below still hold him to both blinds). The
   first to act preflop is the first player with chips after the big blind (or the
   straddler; one whose live post matches the bet and whom nobody can outbid may be passed
   over), and the big blind (or the straddler) acts before the round ends when anybody
   else can still bet (the option).
   The posted blinds match ``HandStarted`` and the game of the hand (short only when all
   in); the games follow the mixed schedule. Stud (S2, S3): everyone dealt posts the ante,
   nothing else, and the dealer position moves to the next player dealt in.

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
   ``config.seats`` hands of his first hand and of his last big blind.
5. Straddles (D10): where the table allows them, in a no-limit or pot-limit hand of three
   players or more, the first player after the big blind who ticked ``straddle``, posts
   nothing else and has more than twice the big blind posts a live straddle of exactly
   twice the big blind (kind 'straddle', never asked for); nobody else ever straddles. The
   player after the straddler acts first, the minimum raise is to twice the straddle, in
   pot limit the straddle is the current bet, and the straddler acts last with the option.
6. Missed orbits and the clock (R1, D7, case 47): a player sitting out misses an orbit each
   time the big blind (stud: the dealer) passes him; ``max_missed_orbits`` are allowed, one
   more costs him the seat at once (Left 'sat_out_too_long'). A time-out checks when that
   is free, else folds; with all-in protection a player with chips in the pot is kept in
   for them while he has protections left: the model counts them itself, at most
   ``limit`` in any ``window`` seconds per player across tables (the table shares one
   ``ProtectionLimit`` with "other tables", which spend from it between commands and whose
   earlier uses are loaded at the start); past the limit his time-outs fold. A protection
   is given (spent) only with a ``TimedOut(..., 'protected')``. A time-out posts a stud
   bring-in, shows or mucks at the showdown; ``max_timeouts`` in a row sit him out. The
   time bank is refilled for every hand dealt, drawn on past the action time and emptied by
   a time-out; the clock never runs for an all-in player.

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
    ProtectionLimit,
    Stage,
    Table,
    TableConfig,
    TableError,
    game_label,
)
from pokerroom.table.config import SEEDS, STANDARD
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
from pokerroom.table.view import table_view

NL = Game.no_limit(1, 2)
PL = Game.pot_limit(1, 2)
FL = Game.fixed_limit(4, 8, small_blind=2, big_blind=4)
STUD = Game.stud(2, 4, ante=1, bring_in=1)
KINDS = ("no_or_pot_limit", "fixed_limit", "mixed", "stud")
BLIND_KINDS = ("small_blind", "big_blind", "blind", "dead")  # forced bets a player may be asked for

# Each example plays HANDS hands (or stops after MAX_STEPS commands); EXAMPLES examples per
# kind of table: about 2,500 hands a kind, 10,000 in all. Derandomized: the same examples on
# every run.
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
    # ``clock`` is only the latest time a command brought (what a view counts protections
    # at): a command that does nothing, or is refused, may still bring the time
    own = {
        k: dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v
        for k, v in vars(table).items() if k not in ("seats", "hand", "clock")
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

    @property
    def ready(self) -> bool:
        """Wants to play and can: chips, not sitting out, not leaving."""
        return self.state != SITTING_OUT and self.stack > 0 and not self.leaving


@dataclass
class HandLog:
    number: int
    game: Game
    seats: tuple[int, ...]
    names: dict[int, str]
    before: dict[int, Player]  # the dealt players as they were just before the deal
    fresh: bool  # dealt fresh (a start or restart, checked): everyone ready, debts forgiven
    straddle: int | None = None  # the seat the model expects to straddle (D10)
    dead_button: bool = False  # positions by the dead-button rule (not fresh, not placed anew)
    posts: dict[int, list[Posted]] = field(default_factory=dict)
    # preflop, for the order of action (H8, H10, D10)
    acted: set[int] = field(default_factory=set)  # seats that acted preflop
    folded: set[int] = field(default_factory=set)
    all_in: set[int] = field(default_factory=set)
    preflop: bool = True


@st.composite
def configs(draw: st.DrawFn, kind: str) -> TableConfig:
    if kind == "stud":
        schedule = [Stage(STUD, 1)]
    elif kind == "no_or_pot_limit":
        schedule = [Stage(draw(st.sampled_from([NL, PL])), 1)]
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
        max_timeouts=draw(st.integers(1, 3)),
        max_missed_orbits=draw(st.integers(0, 3)),
    )


# Each kind of table runs under every combination of the rules it has, EXAMPLES examples
# shared among them: the missed-blind rule (H7, D11; hold'em), the timeout policy (R1, D7)
# and whether straddles are allowed (D10; tables with no-limit or pot-limit hands).
def rule_sets(kind: str) -> list[tuple[str, str, bool]]:
    missed = (SEEDS,) if kind == "stud" else (SEEDS, STANDARD)
    straddles = (False, True) if kind in ("no_or_pot_limit", "mixed") else (False,)
    return list(itertools.product(missed, (CHECK_FOLD, ALL_IN_PROTECTION), straddles))


RUNS = [
    pytest.param(kind, rules, id=f"{kind}-{rules[0]}-{rules[1]}" + ("-straddles" if rules[2] else ""))
    for kind in KINDS for rules in rule_sets(kind)
]


# D7: at most ``limit`` protections in any ``window`` seconds (the room's setting)
protection_limits = st.tuples(st.sampled_from([0, 1, 2, 2, 3]), st.sampled_from([40.0, 400.0, 86_400.0]))


class Run:
    """Drives one table with commands hypothesis chooses and checks it after each."""

    def __init__(
        self, config: TableConfig, data: st.DataObject, stats: Counter[str], limit: tuple[int, float]
    ) -> None:
        # D7: the room's one ProtectionLimit, shared with other tables (simulated: they spend
        # from it between commands) and loaded with the uses of before a restart
        self.limit, self.window = limit
        self.protections = ProtectionLimit(*limit)
        self.uses: dict[str, list[float]] = {}  # the model's count: when each was protected
        for k in range(4):  # the first players' protections of before the (re)start
            ages = data.draw(st.lists(st.sampled_from([0.05, 0.5, 0.99, 2.0]), max_size=2))
            times = [-self.window * f for f in ages]
            if times:
                self.protections.load(f"p{k}", times)
                self.uses[f"p{k}"] = list(times)
        self.table = Table(config, self.protections)
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
        self.missed_seen: set[tuple[int, str]] = set()  # BlindMissed events before the next deal
        self.removed: dict[int, Player] = {}  # seats lost for sitting out too long, this command

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
        self.removed = {}
        cfg = self.config
        timed: dict[int, str] = {}  # seats timed out by this command: what the table did for them
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
            elif t is BlindMissed:  # checked against the model's own misses at the deal (D11)
                assert not self.stud
                p = self.model[e.seat]
                assert p.state == SITTING_OUT, f"{e} for a player who is {p.state}"
                assert p.name == e.player and e.blind in ("big", "small"), e
                assert (e.seat, e.blind) not in self.missed_seen, f"{e} twice"
                self.missed_seen.add((e.seat, e.blind))
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
                if e.all_in:
                    log.all_in.add(e.player)
            elif t is Acted:
                self.on_acted(e, timed.pop(e.player, None))
            elif t is StreetEnded:
                if e.street == 0 and self.logs and self.logs[-1].preflop:
                    self.end_preflop(self.logs[-1])
            elif t is TimedOut:
                if e.action != "declined":  # R1: the time bank is spent
                    p = self.model[e.seat]
                    p.timeouts += 1
                    p.bank = 0.0
                    assert self.turn is not None and self.turn.seat == e.seat
                    self.turn = None
                    if e.action in ("check", "fold", "protected", "bring_in"):  # an Acted follows
                        timed[e.seat] = e.action
                    if e.action == "protected":  # D7: one of his protections, counted by the model
                        self.uses.setdefault(e.player, []).append(self.now)
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
        table = self.table
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
        dead_button = not self.stud and self.deal_holdem(e, seats, positions)
        self.missed_orbits(positions, seats)
        self.prev = positions
        # what the first player dealt sees of the rules and of his protections (D7, D10, D11)
        view = table_view(table, self.model[seats[0]].name)
        assert view.protections_left == self.protections_left(self.model[seats[0]].name), view
        assert (view.missed_blinds, view.straddles) == (self.config.missed_blinds, self.config.straddles)
        hand = table.hand
        assert list(hand.starting_stacks) == [self.model[s].stack for s in seats]
        self.hand_total = sum(hand.starting_stacks)
        log = HandLog(
            e.number, game, seats, {s: self.model[s].name for s in seats},
            {s: dataclasses.replace(self.model[s]) for s in seats}, plan.fresh,
            None if self.stud else self.straddler(game, seats, positions.big_blind, plan.fresh), dead_button,
        )
        self.logs.append(log)
        for s in seats:
            p = self.model[s]
            p.state, p.owe_big, p.owe_small = ACTIVE, False, False
            p.bank = min(self.config.time_bank_max, p.bank + self.config.time_bank_refill)
        return log

    def deal_holdem(self, e: HandStarted, seats: tuple[int, ...], positions: Positions) -> bool:
        """The model's rules for a hold'em deal: the big blind, a fresh deal only at a start or
        restart, the button and blinds, nobody dealt in free, the misses (H3-H7, D11, cases 3-8).
        Whether the positions are the dead-button rule's (not fresh, not placed anew)."""
        n, plan, prev, model = self.n, self.table.plan, self.prev, self.model
        assert plan is not None
        bb = e.big_blind
        assert bb is not None and bb in seats and positions.big_blind == bb
        assert not model[bb].options.sit_out_next_big_blind, f"seat {bb} asked to sit out at his BB"
        if prev is not None:
            self.passes(prev.big_blind, bb, seats)
        ready = {s for s, p in model.items() if p.ready}
        owing_nothing = {s for s in ready if model[s].state == ACTIVE}
        # The model's restart: fewer than two players could be dealt without forgiving a debt
        # (the big blind and those who owe nothing). Only then, or at the start, is a hand fresh.
        restart = prev is None or len({bb} | owing_nothing) < 2
        assert restart or not plan.fresh, (
            f"hand {e.number} is dealt fresh, forgiving debts, but {sorted({bb} | owing_nothing)} could "
            f"be dealt without: {plan}"
        )
        # the dead-button positions: the last small blind's seat, the last big blind's seat and
        # the new big blind, in that order clockwise
        fit = prev is not None and strictly_between(prev.small_blind, bb, prev.big_blind, n)
        if plan.fresh:
            self.stats["fresh"] += 1
            assert ready <= set(seats), f"a fresh deal leaves out ready players {ready - set(seats)}: {e}"
        if len(seats) == 2:  # H4, case 3-4
            assert e.small_blind == e.button and seats == (bb, e.button), e
        else:
            key = {s: distance(e.button, s, n) or n for s in seats}
            assert list(seats) == sorted(seats, key=key.__getitem__), f"not in order from the button: {e}"
            assert e.small_blind in (None, positions.small_blind) and positions.small_blind != bb
            # After a hand of three or more not dealt fresh, nobody sits between the button and
            # the big blind but the small blind. (After a restart, or heads-up, a player who was
            # not dealt may come back there owing nothing: the orbits below still hold him to
            # both blinds.)
            between = [s for s in seats if strictly_between(e.button, bb, s, n)]
            if self.logs and self.logs[-1].dead_button and len(self.logs[-1].seats) >= 3:
                assert between in ([], [positions.small_blind]), f"{between} dealt before the BB: {e}"
            if plan.fresh:  # the two players dealt before the big blind
                ring = sorted(seats, key=lambda s: distance(bb, s, n) or n)  # ends with bb
                assert (positions.small_blind, positions.button) == (ring[-2], ring[-3])
                assert e.small_blind == positions.small_blind
            elif fit:  # the dead button rule (cases 5, 6)
                assert prev is not None
                assert positions.small_blind == prev.big_blind, (prev, positions)
                assert positions.button == prev.small_blind, (prev, positions)
            else:  # heads-up becomes three-handed: button and blinds among those who owe nothing
                assert e.small_blind is not None and e.button in seats, (prev, e)
                self.stats["unfit_3+"] += 1
        if prev is not None and len(prev_seats := self.logs[-1].seats) != len(seats) and 2 in (
            len(prev_seats), len(seats)
        ):
            self.stats["two_three"] += 1
        if not plan.fresh:
            # nobody is dealt in free: the button and the small blind owed nothing (H6, H7)
            for s in {e.button, e.small_blind} & set(seats):
                assert model[s].state == ACTIVE, f"seat {s} ({model[s]}) dealt on the button or SB: {e}"
            if len(seats) >= 3:  # who asked to post and sits where he may is dealt in (H6, H7)
                for s in ready - set(seats):
                    p = model[s]
                    if p.state == ENTERING and not p.options.wait_for_big_blind:
                        may = strictly_between(bb, e.button, s, n)
                        assert not may, f"seat {s} ({p}) may post, not dealt: {e}"
        self.blind_misses(bb, fit and not plan.fresh)
        return fit and not plan.fresh

    def blind_misses(self, bb: int, small_blind_seat: bool) -> None:
        """H7, D11, case 8: who missed a blind in this deal, by the model, and what he owes now;
        the table must have said exactly that (BlindMissed, only when a debt grows)."""
        prev, n, standard = self.prev, self.n, self.config.missed_blinds == STANDARD
        expected: set[tuple[int, str]] = set()

        def miss(s: int, blind: str) -> None:
            p = self.model.get(s) or self.removed.get(s)
            if p is None or p.state != SITTING_OUT or p.leaving:
                return
            before = (p.owe_big, p.owe_small)
            if not standard:  # the seeds: one live post the size of the big blind
                p.owe_big = True
            elif blind == "big":  # the big blind live and the small blind dead
                p.owe_big = p.owe_small = True
            else:  # the small blind dead
                p.owe_small = True
            if (p.owe_big, p.owe_small) != before:
                expected.add((s, blind))

        if prev is not None:
            for s in range(1, n + 1):
                if strictly_between(prev.big_blind, bb, s, n):
                    miss(s, "big")
            if small_blind_seat:  # the seat of the last big blind has the small blind now
                miss(prev.big_blind, "small")
        assert self.missed_seen == expected, f"missed: table {self.missed_seen}, model {expected}"
        self.stats["blinds_missed"] += len(expected)
        self.missed_seen = set()

    def straddler(self, game: Game, seats: tuple[int, ...], bb: int, fresh: bool) -> int | None:
        """D10: the seat that straddles in this hand by the model, if any: the first player
        after the big blind, in a no-limit or pot-limit hand of three or more, at a table that
        allows it, if he ticked it, posts nothing else and has more than the straddle."""
        if not self.config.straddles or game.structure.fixed or len(seats) < 3:
            return None
        s = seats[(seats.index(bb) + 1) % len(seats)]
        p = self.model[s]
        posts_debt = not fresh and p.state == ENTERING
        if p.options.straddle and not posts_debt and p.stack >= 2 * game.big_blind:
            return s
        return None

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
        for s in log.seats:
            before = log.before[s]
            posts = log.posts.get(s, [])
            asked = (not before.options.auto_post_blinds and any(p.kind in BLIND_KINDS for p in posts)) or (
                not before.options.auto_post_antes and any(p.kind == "ante" for p in posts)
            )
            if asked:  # S2: posted only after saying yes to exactly this
                assert self.accepted.get((s, before.name)) == plan.post_of(s), (s, posts, self.accepted)
            for p in posts:
                nominal = {
                    "ante": game.ante, "small_blind": game.small_blind, "dead": game.small_blind,
                    "big_blind": game.big_blind, "blind": game.big_blind, "straddle": 2 * game.big_blind,
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
        standard = self.config.missed_blinds == STANDARD
        for s in log.seats:
            before = log.before[s]
            kinds = [p.kind for p in log.posts.get(s, [])]
            if s == e_bb:
                assert kinds == ["big_blind"], (s, kinds, plan)
                continue
            if s == hs_sb:
                assert kinds == ["small_blind"], (s, kinds, plan)
                continue
            if s == log.straddle:  # D10: a live straddle of twice the big blind, his choice
                if before.stack > 2 * game.big_blind or kinds:
                    assert kinds == ["straddle"], f"seat {s} ({before}) straddles, posts {kinds}: {plan}"
                    self.stats["straddles"] += 1
                continue
            if before.state == ACTIVE or plan.fresh:
                assert kinds == [], f"seat {s} ({before}) posted {kinds} in {plan}"
                continue
            # H6, H7, case 7, 8: entering, not the big blind, dealt at once: posts what he owes
            assert before.state == ENTERING and not before.options.wait_for_big_blind, (s, before)
            assert s not in (plan.positions.button, plan.positions.small_blind), (s, plan)
            assert strictly_between(e_bb, plan.positions.button, s, self.n), (s, plan)
            # the model's debts: by the seeds' rule one live big blind (D11), never a dead one
            assert before.owe_big or (standard and before.owe_small), f"seat {s} entering, owes nothing"
            assert standard or not before.owe_small, before
            owed = (["dead"] if before.owe_small else []) + (["blind"] if before.owe_big else [])
            posts = log.posts.get(s, [])
            cut = kinds == owed[: len(kinds)] and bool(posts) and posts[-1].all_in
            assert kinds == owed or cut, f"seat {s} owed {owed}, posted {kinds}"
            self.stats["made_up"] += 1
        self.stats["blind_checks"] += 1

    def first_to_act(self, log: HandLog) -> set[int]:
        """H4, H8, D10: preflop the first player with chips after the big blind, or after the
        straddler (heads-up: the button, who has the small blind). A player whose live post
        already matches the bet and whom nobody else could put more chips in against has
        nothing to decide and may be passed over (returned as well)."""
        forced = self.forced(log)
        order, k = log.seats, len(log.seats)
        i = order.index(forced)
        straddled = self.table.plan is not None and forced != self.table.plan.positions.big_blind
        floor = (2 if straddled else 1) * log.game.big_blind  # a short blind counts as full (D3)
        level = max([floor, *(p.amount for ps in log.posts.values() for p in ps if p.kind != "dead")])
        first: set[int] = set()
        for j in range(1, k + 1):
            s = order[(i + j) % k]
            live = sum(p.amount for p in log.posts.get(s, []) if p.kind != "dead")
            if log.before[s].stack <= sum(p.amount for p in log.posts.get(s, [])):
                continue  # all in
            first.add(s)
            outbid = max(log.before[t].stack for t in order if t != s)
            if not (live >= level and outbid <= level):
                return first
        raise AssertionError(f"nobody can act in hand {log.number}")

    def forced(self, log: HandLog) -> int:
        """The player who closes the preflop round with the option: the straddler or the big blind."""
        straddles = [s for s, ps in log.posts.items() if any(p.kind == "straddle" for p in ps)]
        if straddles:
            return straddles[0]
        plan = self.table.plan
        assert plan is not None
        return plan.positions.big_blind

    def on_acted(self, e: Acted, timed_out: str | None) -> None:
        """``timed_out``: the action of the TimedOut this Acted answers, if it does."""
        if timed_out is not None:
            assert e.action == timed_out, (e, timed_out)
        else:  # D7: a protection answers the player's own time-out and says so (it is recorded)
            assert e.action != "protected", f"{e} without a TimedOut 'protected': the use goes unrecorded"
            p = self.model[e.player]
            if p.leaving or p.state == SITTING_OUT:  # the table decides for him: check or fold
                assert e.action in ("check", "fold", "bring_in"), (e, p)
        if self.stud or not self.logs or not self.logs[-1].preflop:
            return
        log = self.logs[-1]
        if not log.acted:
            first = self.first_to_act(log)
            assert e.player in first, f"seat {e.player} acted first preflop, not {first}: {log.posts}"
        log.acted.add(e.player)
        if e.action == "fold":
            log.folded.add(e.player)
        if e.all_in:
            log.all_in.add(e.player)

    def end_preflop(self, log: HandLog) -> None:
        """H10, D10: the big blind (or the straddler) has the option: when anyone else can still
        bet, he acts before the preflop round ends."""
        log.preflop = False
        if self.stud:
            return
        forced = self.forced(log)
        if forced in log.folded or forced in log.all_in:
            return
        others = [s for s in log.seats if s != forced and s not in log.folded and s not in log.all_in]
        if others:
            assert forced in log.acted, f"seat {forced} had no option preflop in hand {log.number}"
            self.stats["options"] += 1

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
            left = self.protections_left(p.name)
            assert table.protections.left(p.name, self.now) == left, (
                f"{p.name} has {table.protections.left(p.name, self.now)} protections left, the model "
                f"counts {left} (uses at {self.uses.get(p.name)}, now {self.now})"
            )
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
            log = self.logs[-1]
            if log.preflop and not log.acted and log.straddle is not None and hand.street == 0:
                self.check_straddle_bets(log)
        elif table.phase == POSTING:
            assert table.deadline is not None
        else:
            assert table.phase == IDLE and table.turn is None and table.deadline is None

    def check_straddle_bets(self, log: HandLog) -> None:
        """D10: facing the straddle, the minimum raise is to twice it; in pot limit the
        straddle is the current bet (the pot after the call, plus the call)."""
        hand, game = self.table.hand, log.game
        assert hand is not None
        straddle = [p for p in log.posts.get(log.straddle, []) if p.kind == "straddle"]  # type: ignore[arg-type]
        if not straddle or straddle[0].all_in:
            return
        legal = hand.legal_actions()
        if legal.min_to is None or legal.max_to is None:
            return
        level = 2 * game.big_blind
        assert legal.min_to == min(2 * level, legal.max_to), (legal, log.posts)
        kinds = sorted(p.kind for ps in log.posts.values() for p in ps)
        if game.structure.value == "PL" and kinds == ["big_blind", "small_blind", "straddle"]:
            assert self.table.plan is not None
            i = self.table.plan.seats.index(self.table.actor)  # type: ignore[arg-type]
            pot = game.small_blind + game.big_blind + level  # short blinds count as full (case 20)
            cap = hand.stacks[i] + hand.bets[i]
            assert legal.max_to == min(level + pot + level - hand.bets[i], cap), (legal, log.posts)
        self.stats["straddle_bets"] += 1

    def protections_left(self, name: str) -> int:
        """D7, by the model: ``limit`` protections in any ``window`` seconds."""
        recent = [t for t in self.uses.get(name, []) if t > self.now - self.window]
        return max(0, self.limit - len(recent))

    def timeout_action(self) -> str:
        """Case 47, D7: what a time-out does now, by the model: at the showdown show (or muck
        a beaten hand); a stud bring-in is posted; check when free; facing a bet, with all-in
        protection and chips in the pot, protected while he has protections left; else fold."""
        table = self.table
        hand, actor = table.hand, table.actor
        assert hand is not None and actor is not None
        legal = hand.legal_actions()
        if hand.phase == SHOWDOWN:
            return "show_or_muck" if legal.muck else "show"
        if legal.bring_in:
            return "bring_in"
        if legal.check:
            return "check"
        if self.config.timeout_policy == ALL_IN_PROTECTION and hand.can_protect():
            if self.protections_left(self.model[actor].name) > 0:
                return "protected"
            self.stats["protections_used_up"] += 1
        return "fold"

    def clock_runs_out(self) -> None:
        """The turn's clock runs out at ``self.now``: the table acts as the model says."""
        actor = self.table.actor
        expected = self.timeout_action()
        events = self.call("advance", self.now)
        assert events is not None
        first = events[0]
        allowed = {"show", "muck"} if expected == "show_or_muck" else {expected}
        assert type(first) is TimedOut and first.seat == actor and first.action in allowed, (first, expected)
        acted = [e for e in events if type(e) is Acted]
        if first.action in ("check", "fold", "protected", "bring_in"):
            assert acted and acted[0].player == actor and acted[0].action == first.action, (first, acted)
        self.stats["timeouts"] += 1
        self.stats[f"timeout_{first.action}"] += 1

    def elsewhere(self) -> None:
        """D7: another table of the room protects one of these players (the shared limit)."""
        names = [p.name for p in self.model.values()]
        if not names:
            return
        name = self.pick(sorted(names))
        if self.protections_left(name) > 0:
            self.protections.spend(name, self.now)
            self.uses.setdefault(name, []).append(self.now)
            self.stats["protected_elsewhere"] += 1
        self.check()

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
        self.style(seat)

    def style(self, seat: int) -> None:
        """How a newcomer plays: as he is, posting by hand, eager to play at once, straddling."""
        style = self.pick(["plain", "plain", "by_hand", "eager", "straddler"])
        if style == "by_hand":  # posts blinds (stud: antes) only when he says so
            self.set_options(seat, {"auto_post_antes" if self.stud else "auto_post_blinds": False})
        elif style == "eager":  # posts a big blind to play at once (H6)
            self.set_options(seat, {"wait_for_big_blind": False})
        elif style == "straddler":  # straddles when left of the big blind, where allowed (D10)
            self.set_options(seat, {"straddle": True})

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
            "auto_post_antes", "auto_muck", "sit_out_next_big_blind", "straddle", "straddle", "bad_name",
            "bad_value",
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
            seat = self.pick(free)
            self.call("sit", f"p{self.names - 1}", seat, self.pick([low, high]), now=self.now)
            self.style(seat)
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
            op = self.pick(["revive"] * 4 + ["options"] * 2 + ["sit", "leave", "add", "sit_out", "elsewhere"])
        else:
            op = self.pick(["sit", "leave", "add", "sit_out", "sit_in", "options", "options", "elsewhere"])
        {"sit": self.sit, "leave": self.leave, "add": self.add_chips, "sit_out": self.sit_out_cmd,
         "sit_in": self.sit_in, "options": self.options_cmd, "revive": self.revive,
         "elsewhere": self.elsewhere}[op]()

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
        """Case 47, D7: the clock runs out (or not yet: then nothing happens)."""
        table = self.table
        hand, actor, deadline = table.hand, table.actor, table.deadline
        assert hand is not None and actor is not None and deadline is not None
        if self.pick([False, False, True]):  # not yet: nothing happens
            before = fingerprint(table)
            assert table.advance(max(self.now, deadline - 0.01)) == [] and fingerprint(table) == before
            p = self.model[actor]
            self.call("act", p.name, "fold", now=deadline, expect=frozenset({"too_late"}))
            return
        self.now = max(self.now, deadline + self.pick([0.0, 7.5]))
        self.clock_runs_out()

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
            if self.table.phase == PLAYING:
                self.clock_runs_out()
            else:
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


@pytest.mark.parametrize(("kind", "rules"), RUNS)
def test_table_chips_dealing_button_and_blinds_H4_H7_R1_R3_S1_S2_case_8_D7_D10_D11(
    kind: str, rules: tuple[str, str, bool]
) -> None:
    stats: Counter[str] = Counter()
    missed, policy, straddles = rules
    examples = EXAMPLES // len(rule_sets(kind))

    @settings(SETTINGS, max_examples=examples)
    @given(configs(kind), protection_limits, st.data())
    def run(config: TableConfig, limit: tuple[int, float], data: st.DataObject) -> None:
        config = dataclasses.replace(config, missed_blinds=missed, timeout_policy=policy, straddles=straddles)
        Run(config, data, stats, limit).play(HANDS)

    run()
    print(kind, rules, dict(stats))
    # the runs did what they are meant to: many hands, orbits and every kind of event
    assert stats["hands"] >= examples * HANDS // 2
    assert stats["refused"] > examples and stats["timeouts"] > examples and stats["leaves"] > examples
    assert stats["protected_elsewhere"] > 0
    if policy == ALL_IN_PROTECTION:  # D7: protected, and past the limit folded
        assert stats["timeout_protected"] > 0 and stats["protections_used_up"] > 0
    else:
        assert stats["timeout_protected"] == 0
    if kind != "stud":
        assert stats["orbits"] > examples and stats["blind_checks"] >= stats["hands"] - 1
        assert stats["posts_answered"] > 0 and stats["options"] > examples
        assert stats["blinds_missed"] > examples and stats["made_up"] > 0 and stats["fresh"] >= examples  # H7
        assert stats["two_three"] > examples  # heads-up to three-handed and back
    if straddles:
        assert stats["straddles"] > 0 and stats["straddle_bets"] > 0  # D10


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


def test_missed_orbits_count_alike_when_three_become_two_H7_case_4() -> None:
    """With ``max_missed_orbits`` 0, everyone the big blind passes while sitting out loses
    his seat, whether he sat out before or asked to sit out at this big blind. Here the
    big blind wraps past the old button (b, the old small blind, is due it): heads-up, c on
    the button; b and c owe nothing, so this is no restart and nothing is dealt fresh."""
    table = Table(TableConfig.single(NL, seats=6, max_missed_orbits=0))
    for name, seat in (("a", 1), ("b", 2), ("c", 3), ("d", 4)):
        table.sit(name, seat, 200)
    table.start_hand(seeded_deck(1), 0.0, button=1)  # SB 2, BB 3
    while table.phase == PLAYING:
        table.advance(table.deadline)  # type: ignore[arg-type]
    table.sit_out("d")
    table.set_options("a", sit_out_next_big_blind=True)
    events = table.start_hand(seeded_deck(2), 100.0)
    assert table.plan is not None and not table.plan.fresh and table.plan.seats == (2, 3)
    assert table.positions == Positions(3, 3, 2)
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


def test_a_player_sat_out_by_his_time_outs_is_not_protected_silently_D7_case_47() -> None:
    """Found by the model: b's clock runs out (he checks) and, max_timeouts being 1, he is
    sat out; on the flop he faces a bet and the table decides for him. It must not spend one
    of his all-in protections there without a ``TimedOut(..., 'protected')``: that event is
    what the room records a protection by (D7: counted across tables and restarts). Like a
    player who leaves, a player the table decides for checks or folds."""
    table = Table(TableConfig.single(NL, seats=2, max_timeouts=1))  # all-in protection by default (D7)
    table.sit("a", 1, 200)
    table.sit("b", 2, 200)
    table.start_hand(seeded_deck(1), now=0.0, button=1)  # a: button and small blind, b: big blind
    table.act("a", "call", now=1.0)
    events = table.advance(100.0)
    assert events[0] == TimedOut(2, "b", "check") and SatOut(2, "b", "timeouts") in events
    events = table.act("a", "bet", 2, now=101.0)
    answers = [e for e in events if type(e) is Acted and e.player == 2]
    assert answers and answers[0].action == "fold", answers
    assert table.protections.left("b", 101.0) == 2


def test_protections_are_counted_across_tables_sharing_one_limit_D7_case_47() -> None:
    """D7: the room hands one ``ProtectionLimit`` to every table: ann, protected at one table
    and then at another, has none left at any, so her next time-out facing a bet folds; once
    her first protection leaves the window she is protected again. Her uses from before a
    restart are loaded into the new limit and count too."""
    config = TableConfig.single(NL, seats=2)
    assert config.timeout_policy == ALL_IN_PROTECTION  # the default (D7)

    def time_out_facing_a_raise(limit: ProtectionLimit, now: float) -> str:
        """At a new table of the room: ann is the big blind, bob raises, ann's clock runs out."""
        table = Table(config, limit)
        table.sit("ann", 1, 200, now=now)
        table.sit("bob", 2, 200, now=now)
        table.start_hand(seeded_deck(1), now=now, button=2)
        table.act("bob", "raise", 6, now=now)
        timed = table.advance(now + 100.0)[0]
        assert type(timed) is TimedOut and timed.player == "ann"
        return timed.action

    limit = ProtectionLimit(limit=2, window=1000.0)
    assert time_out_facing_a_raise(limit, 0.0) == "protected"  # her clock ran out at 100
    assert time_out_facing_a_raise(limit, 200.0) == "protected"  # another table, at 300
    assert limit.left("ann", 400.0) == 0
    assert time_out_facing_a_raise(limit, 400.0) == "fold"  # past the limit (case 47)
    assert time_out_facing_a_raise(limit, 1150.0) == "protected"  # the use at 0 left the window
    again = ProtectionLimit(limit=2, window=1000.0)  # the room restarts and loads the uses
    again.load("ann", [500.0, 1200.0])
    assert time_out_facing_a_raise(again, 1300.0) == "fold"  # her clock ran out at 1400
    assert time_out_facing_a_raise(again, 2250.0) == "protected"


def test_the_view_counts_protections_at_the_time_of_the_latest_command_D7() -> None:
    """Found by the model: ``TableView.protections_left`` is counted at the time of the
    table's latest command. b's one protection of the window was used at -45; the hand is
    set up at 50 (still used up) and dealt when b posts his blind at 56, when it has left the
    window: the view must say he has one again."""
    limit = ProtectionLimit(limit=1, window=100.0)
    limit.load("b", [-45.0])
    table = Table(TableConfig.single(NL, seats=3), limit)
    for name, seat in (("a", 1), ("b", 2), ("c", 3)):
        table.sit(name, seat, 200)
    table.set_options("b", auto_post_blinds=False)
    assert [type(e) for e in table.start_hand(seeded_deck(1), now=50.0, button=1)] == [PostRequested]
    assert table_view(table, "b").protections_left == 0 == limit.left("b", 50.0)
    events = table.post("b", True, now=56.0)
    assert HandStarted(1, "NL 1/2", 1, 2, 3, (2, 3, 1)) in events
    assert table_view(table, "b").protections_left == 1
    assert limit.left("b", 56.0) == 1
