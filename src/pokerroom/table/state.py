"""A table's state and what can be asked of it, without changing it (``Table``'s base):
the seats, the phase, the hand and its plan, the schedule of a mixed table, the record of
the previous hand, and the cards a player may still show after it (D12, the one command
here: it changes no chips and no seat)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pokerroom.core.cards import Card
from pokerroom.core.hand import Hand
from pokerroom.core.structures import Game
from pokerroom.table.config import TableConfig, TableError, game_label
from pokerroom.table.events import AnyEvent, CardsRevealed, PostRequested, TurnStarted
from pokerroom.table.positions import Plan, Positions
from pokerroom.table.protection import ProtectionLimit
from pokerroom.table.record import HandRecord, record_hand
from pokerroom.table.seating import Seat
from pokerroom.table.waiting import WaitingList

IDLE, POSTING, PLAYING = "idle", "posting", "playing"
Reshuffle = Callable[[tuple[Card, ...]], Sequence[int]]


class TableState:
    """What a table is now (see table.py: ``Table`` adds the commands)."""

    def __init__(self, config: TableConfig, protections: ProtectionLimit | None = None) -> None:
        if not isinstance(config, TableConfig):
            raise TableError("bad_config", f"a table needs a TableConfig, got {config!r}")
        if protections is not None and not isinstance(protections, ProtectionLimit):
            raise TableError("bad_config", f"protections must be a ProtectionLimit, got {protections!r}")
        self.config = config
        # all-in protections left per player (D7): the room shares one among its tables
        self.protections = protections if protections is not None else ProtectionLimit()
        self.clock = 0.0  # the latest time a command brought (what views count protections at)
        self.seats: dict[int, Seat] = {}
        self._by_player: dict[str, int] = {}
        self.phase = IDLE
        self.positions: Positions | None = None  # of the last hand dealt
        self.hand: Hand | None = None  # the hand being played, or the last one
        self.plan: Plan | None = None  # who is in self.hand, by seat
        self.hand_number = 0
        self.stage = 0  # index in config.schedule of the game being dealt
        self._stage_hands = 0  # hands dealt in this stage so far
        self._previous: HandRecord | None = None
        # what record_hand needs, until somebody asks for the record (most hands: nobody)
        self._previous_of: tuple[int, str, int, Hand, tuple[int, ...], tuple[str, ...]] | None = None
        self._reveals: dict[int, tuple[int, ...]] = {}  # after the last hand: player -> card indices (D12)
        self.previous_number: int | None = None  # the number of the hand ``previous`` records
        self.turn: TurnStarted | None = None
        self._players: tuple[str, ...] = ()
        self._game: Game = config.schedule[0].game
        # the posting phase: blinds and antes to confirm before the deal
        self._pending: dict[int, PostRequested] = {}
        self._confirmed: dict[int, tuple[str, int, int, int]] = {}
        self._deck: Sequence[int] = ()
        self._reshuffle: Reshuffle | None = None
        self._button: int | None = None
        self.waiting = WaitingList()  # who waits for a seat, and the seats held for them

    # ------------------------------------------------------------------ queries

    @property
    def previous(self) -> HandRecord | None:
        """The record of the last hand played ("show previous hand", H16), made the first
        time it is asked for: from the finished hand, which no longer changes."""
        if self._previous is None and self._previous_of is not None:
            hand = self._previous_of[3]
            reveals = {p: tuple(hand.holes[p][k] for k in ks) for p, ks in self._reveals.items()}
            self._previous = record_hand(*self._previous_of, reveals=reveals or None)
        return self._previous

    @property
    def hand_players(self) -> tuple[str, ...]:
        """The names of the players dealt in the hand being played, or the last one, in the
        order of ``plan.seats`` (those who left since included)."""
        return self._players

    @property
    def game(self) -> Game:
        """The game of the hand being played, or of the next hand between hands."""
        return self._game if self.phase == PLAYING else self.config.schedule[self._next_stage()[0]].game

    @property
    def actor(self) -> int | None:
        """The seat whose turn it is, or None."""
        if self.phase != PLAYING or self.hand is None or self.hand.actor is None:
            return None
        assert self.plan is not None
        return self.plan.seats[self.hand.actor]

    @property
    def deadline(self) -> float | None:
        """When the table next needs ``advance``: a turn's clock, a posting request, or a
        seat held for the waiting list."""
        clock: float | None = None
        if self.phase == POSTING and self._pending:
            clock = min(r.deadline for r in self._pending.values())
        elif self.phase == PLAYING and self.turn is not None:
            clock = self.turn.deadline
        held = self.waiting.deadline
        return held if clock is None else clock if held is None else min(clock, held)

    def seat_of(self, player: object) -> int:
        if type(player) is not str or player not in self._by_player:
            raise TableError("not_seated", f"{player!r} is not seated at this table")
        return self._by_player[player]

    def post_request(self, seat: int) -> PostRequested | None:
        """What the player in ``seat`` is asked to post before the deal, if anything."""
        return self._pending.get(seat) if self.phase == POSTING else None

    def in_hand(self, seat: int) -> bool:
        """Whether the player in ``seat`` is dealt in the hand being played."""
        return self.phase == PLAYING and self.plan is not None and seat in self.plan.seats

    def schedule(self) -> tuple[str, str, int]:
        """(the game now, the game next, hands before the switch) for a mixed table (L4);
        for a single game the next game is the same and the count is 0."""
        stages = self.config.schedule
        if len(stages) == 1:
            return game_label(stages[0].game), game_label(stages[0].game), 0
        if self.phase == PLAYING:
            index, done = self.stage, self._stage_hands
        else:
            index, done = self._next_stage()
        nxt = stages[(index + 1) % len(stages)]
        return game_label(stages[index].game), game_label(nxt.game), stages[index].hands - done

    def chips(self) -> int:
        """Every chip at the table: stacks, and in a hand the pots and set-aside chips."""
        total = sum(s.stack for n, s in self.seats.items() if not self.in_hand(n))
        if self.phase == PLAYING and self.hand is not None:
            hand = self.hand
            total += sum(hand.stacks) + hand.pot + sum(hand.protected)
        return total

    def stack(self, seat: int) -> int:
        """The chips in front of the player in ``seat`` now (in a hand: behind his bets)."""
        if self.in_hand(seat):
            assert self.hand is not None and self.plan is not None
            i = self.plan.seats.index(seat)
            return self.hand.stacks[i] + self.hand.protected[i]
        return self.seats[seat].stack

    def _next_stage(self) -> tuple[int, int]:
        """The index of the stage the next hand is dealt in, and how many hands of it
        were dealt already."""
        stages = self.config.schedule
        if self.hand_number and self._stage_hands >= stages[self.stage].hands and len(stages) > 1:
            return (self.stage + 1) % len(stages), 0
        return self.stage, self._stage_hands


    # ------------------------------------------------------------------ showing after the hand

    def revealable(self, seat: int) -> tuple[int, ...]:
        """The indices of the hole cards the player in ``seat`` may still show now (D12):
        after a hand he was dealt in, before the next deal, those nobody has seen."""
        hand, plan = self.hand, self.plan
        if self.phase == PLAYING or hand is None or plan is None or seat not in plan.seats:
            return ()
        p = plan.seats.index(seat)
        if self._players[p] != self.seats[seat].player or p in hand.shown:
            return ()
        done = self._reveals.get(p, ())
        up = hand.face_up[p] or [False] * len(hand.holes[p])  # hold'em: no list of up cards
        return tuple(k for k, face_up in enumerate(up) if not face_up and k not in done)

    def reveal(self, player: object, cards: object, now: float = 0.0) -> list[AnyEvent]:
        """Show some or all of one's hidden cards to everyone after the hand (D12: the
        winner nobody called, or a player who folded): ``cards`` are indices into his
        hole cards, in the order they were dealt."""
        _check_time(now)
        s = self.seat_of(player)
        allowed = self.revealable(s)
        if not allowed:
            raise TableError("nothing_to_show", "there is nothing of yours to show now")
        if (
            not isinstance(cards, list | tuple) or not cards
            or any(type(k) is not int for k in cards) or len(set(cards)) != len(cards)
        ):
            raise TableError("bad_cards", f"cards are distinct indices of your cards, not {cards!r}")
        wrong = [k for k in cards if k not in allowed]
        if wrong:
            raise TableError("bad_cards", f"you cannot show card {wrong[0]}: you may show {list(allowed)}")
        hand, plan = self.hand, self.plan
        assert hand is not None and plan is not None
        p = plan.seats.index(s)
        self.clock = now
        self._reveals[p] = self._reveals.get(p, ()) + tuple(cards)
        self._previous = None  # the record shows them from now on
        shown = tuple(hand.holes[p][k] for k in cards)
        return [CardsRevealed(self.hand_number, s, self.seats[s].player, shown)]
    def __repr__(self) -> str:
        seats = ", ".join(f"{n}:{s.player}={s.stack}" for n, s in sorted(self.seats.items()))
        return f"<Table {self.config.name} {self.phase} hand {self.hand_number} [{seats}]>"


def _check_time(now: object) -> None:
    if type(now) not in (int, float) or now != now or now in (float("inf"), float("-inf")):
        raise TableError("bad_time", f"the time is a number of seconds, not {now!r}")
