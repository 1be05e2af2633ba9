"""One asyncio task per table: it owns the table, takes commands from a queue, runs the
clock, deals from a secure shuffle, commits money before it tells anyone, and sends each
connection its own view of every event (DESIGN.md data flow, invariants 2-6).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

from pydantic import BaseModel

from pokerroom import protocol as p
from pokerroom.core.events import PotAwarded, audience, redact
from pokerroom.fairness import SCHEME, salt_text
from pokerroom.histories import snapshot
from pokerroom.store import StoreError, new_txn
from pokerroom.table import IDLE, PLAYING, Table, TableConfig, TableError
from pokerroom.table.events import (
    AnyEvent,
    CardsRevealed,
    GameChanged,
    HandFinished,
    HandStarted,
    Left,
    TimedOut,
    TurnStarted,
)
from pokerroom.table.view import info_of, table_view, with_game_info
from pokerroom.wire import (
    event_item,
    events_text,
    jsonable,
    record_model,
    view_model,
    wire_event,
    your_turn_text,
)
from pokerroom.worker.deal import Deal, Dealer
from pokerroom.worker.deal import secure_deck as secure_deck  # its home was here
from pokerroom.worker.eventlog import NOBODY, REPLAY_COST, Entry, EventLog

if TYPE_CHECKING:
    from pokerroom.worker.room import Room

log = logging.getLogger("pokerroom.table")
_T = TypeVar("_T")
_RANDOM = secrets.SystemRandom()
_CORE_EVENTS = "pokerroom.core.events"  # the module of events that may be private (audience)
_OK = p.Ok().model_dump_json()  # the answer to a command without an id
# a hand's history, compact (it is read back as JSON, never shown as it is stored)
_encode_history = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
_LOBBY_EVENTS = frozenset({"Seated", "Left", "HandFinished"})  # events that change a lobby line
CHAT_LINES, CHAT_SECONDS = 5, 10.0  # a player's chat at a table: at most so many lines in so long
PAUSE_RETRY = (0.05, 2.0)  # seconds between tries of a write not confirmed: the first, the longest
PAUSE_ALERT = 60.0  # seconds paused after which the log says so as an error
# what a paused table still takes (queued until it resumes); other commands are refused
_WHILE_PAUSED = (p.Subscribe, p.Unsubscribe, p.PreviousHand)


@wire_event("DeckCommitted")
class DeckCommitted(NamedTuple):
    """Published at the deal, before the first card: the commitment to the deck that is
    dealt (fairness.py; its salts and cards are revealed, as each reader may see them, in
    the hand's history)."""

    number: int
    commitment: str


@wire_event("DeckSeeded")
class DeckSeeded(NamedTuple):
    """Published at the deal after ``HandStarted``, before the first card: the players'
    seeds mixed into this deal (seat, seed), and the commitment to the next hand's deck,
    which the seated players' seeds for that hand name (deal.py)."""

    number: int
    seeds: tuple[tuple[int, str], ...]
    next_commitment: str


@wire_event("ChatLine")
class ChatLine(NamedTuple):
    player: str
    text: str


def _nowhere(text: str) -> None:
    pass


def _free(cost: float) -> None:
    pass


@dataclass(eq=False)
class Connection:
    """One client connection: who it is, what it watches, and ``write``, which sends one
    message's text at once (the transport buffers it; gateway/ws.py)."""

    player: str | None
    account_id: int | None
    write: Callable[[str], None] = _nowhere
    tables: set[str] = field(default_factory=set)
    lobby: bool = False
    overflowed: bool = False  # it stopped reading: it is being closed, nothing more is sent
    snapshots: set[str] = field(default_factory=set)  # tables it wants a snapshot after each batch of
    # takes a share of its message budget for work done for it beyond one message (a replay)
    charge: Callable[[float], None] = _free

    def send(self, message: BaseModel | str) -> None:
        """Send a message (a model, or its JSON text already made)."""
        if not self.overflowed:
            self.write(message if type(message) is str else message.model_dump_json())  # type: ignore[union-attr]


def _release(waiter: asyncio.Future[None] | None) -> None:
    """Wake a table task sleeping on ``waiter`` (a command came, or its clock is due)."""
    if waiter is not None and not waiter.done():
        waiter.set_result(None)


class TableRunner:
    def __init__(self, config: TableConfig, room: Room) -> None:
        self.config = config
        self.name = config.name
        self.room = room
        self.table = Table(config, protections=room.protections)  # the room's one limit (D7)
        self.inbox: deque[tuple[Connection | None, Any, asyncio.Future[None]]] = deque()
        self._waiter: asyncio.Future[None] | None = None  # set while the task sleeps
        self.version = 0
        self.log = EventLog()
        self.watchers: set[Connection] = set()
        self.accounts: dict[str, int] = {}  # seated player name -> account id
        self.next_hand_at: float | None = None
        self.hand_id: int | None = None
        self._last_hand: tuple[int, int] | None = None  # (number, id) of the last hand stored
        self._cards = ""  # the deck of the hand being played as text, 'AsKd...'
        self.dealer = Dealer()  # the decks, committed to a hand ahead, and the players' seeds
        self._commitment = ""
        self._started_at = 0.0
        self._game = ""  # the label of the game of the hand being played ('NL 1/2')
        self._finished: deque[float] = deque(maxlen=500)
        self._pots: deque[int] = deque(maxlen=50)
        self.task: asyncio.Task[None] | None = None
        self._summary: p.LobbyRow | None = None  # the lobby line, while it holds
        self._summary_at = 0.0
        self._dealt_to: dict[int, str] = {}  # seat -> player, of the hand being played or the last
        self._chat_times: dict[str, deque[float]] = {}  # a seated player's last chat lines' times
        self.paused: str | None = None  # what the database has not confirmed, while it has not (_write)
        self._resumed: list[AnyEvent] = []  # what the table said when its clocks moved on, not sent yet

    # ------------------------------------------------------------------ outside

    def submit(self, conn: Connection | None, message: Any) -> asyncio.Future[None]:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self.paused is not None and conn is not None and not isinstance(message, _WHILE_PAUSED):
            conn.send(p.Error(code="table_paused", message=f"the table is paused: the room could not save "
                              f"{self.paused}; try again when it resumes", id=getattr(message, "id", None)))
            done.set_result(None)
            return done
        self.inbox.append((conn, message, done))
        _release(self._waiter)
        return done

    def summary(self) -> p.LobbyRow:
        """The table's lobby line, made again only after the table changed (or a minute on,
        for the hands per hour): the lobby asks for every table each second."""
        now = time.time()
        if self._summary is not None and now - self._summary_at < 60:
            return self._summary
        table = self.table
        recent = [t for t in self._finished if t > now - 3600]
        now_game, next_game, left = table.schedule()
        self._summary_at = now
        self._summary = p.LobbyRow.model_validate({
            "name": self.name,
            "game": now_game,
            "next_game": next_game,
            "hands_to_switch": left,
            "variant": self.config.variant,
            "seats": self.config.seats,
            "taken": len(table.seats),
            "players": [s.player for _, s in sorted(table.seats.items())],
            "min_buy_in": self.config.min_buy_in,
            "max_buy_in": self.config.max_buy_in,
            "action_time": self.config.action_time,
            "average_pot": round(sum(self._pots) / len(self._pots)) if self._pots else 0,
            "hands_per_hour": len(recent),
            "hands": table.hand_number,
            "game_info": jsonable(info_of(self.config, now_game)),
            "next_game_info": jsonable(info_of(self.config, next_game)),
        })
        return self._summary

    # ------------------------------------------------------------------ the task

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            if self._resumed:  # a pause ended (in a command or a tick): say so before anything else
                try:
                    await self._after_pause()
                except Exception:
                    log.exception("table %s: announcing the end of a pause failed", self.name)
            if not self.inbox:  # sleep until a command comes or the clock is due
                wake = self._wake_at()
                delay = None if wake is None else wake - time.time()
                if delay is None or delay > 0:
                    self._waiter = waiter = loop.create_future()
                    timer = None if delay is None else loop.call_later(delay, _release, waiter)
                    try:
                        await waiter
                    finally:
                        self._waiter = None
                        if timer is not None:
                            timer.cancel()
                else:  # due now: still let the other tasks run first
                    await asyncio.sleep(0)
            if self.inbox:
                conn, message, done = self.inbox.popleft()
                try:
                    await self._handle(conn, message)
                except (TableError, StoreError) as e:
                    if conn is not None:
                        conn.send(p.Error(code=e.code, message=str(e), id=getattr(message, "id", None)))
                except Exception:  # a bug must not kill the table: log it, tell the client
                    log.exception("table %s: command %r failed", self.name, message)
                    if conn is not None:
                        conn.send(
                            p.Error(
                                code="internal",
                                message="the server could not do that",
                                id=getattr(message, "id", None),
                            )
                        )
                finally:
                    if not done.done():
                        done.set_result(None)
            try:
                now = time.time()
                if self._due(now):  # not after most commands: then no coroutine for the clock
                    await self._tick(now)
            except Exception:
                log.exception("table %s: clock tick failed", self.name)
                await asyncio.sleep(0.5)

    def _wake_at(self) -> float | None:
        deadline, next_hand_at = self.table.deadline, self.next_hand_at
        if deadline is None or next_hand_at is None:
            return next_hand_at if deadline is None else deadline
        return min(deadline, next_hand_at)

    def _due(self, now: float) -> bool:
        """Whether ``_tick`` has anything to do at ``now``."""
        deadline = self.table.deadline
        if deadline is not None and now >= deadline:
            return True
        return self.table.phase == IDLE and self.next_hand_at is not None and now >= self.next_hand_at

    async def _tick(self, now: float) -> None:
        table = self.table
        deadline = table.deadline
        if deadline is not None and now >= deadline:
            await self._publish(table.advance(now))
        if table.phase == IDLE and self.next_hand_at is not None and now >= self.next_hand_at:
            self.next_hand_at = None
            if table.can_start():
                await self._deal(now)

    async def _deal(self, now: float) -> None:
        # the deck committed to at the deal before, ordered by the seated players' seeds
        deal = self._dealt = self.dealer.deal({s: seat.player for s, seat in self.table.seats.items()})
        self._cards = deal.card_text  # stored when the hand ends
        self._commitment = deal.commitment
        self._started_at = now
        button = None
        if self.table.positions is None:  # the table starts: draw for the button
            ready = [n for n, s in self.table.seats.items() if s.ready]
            button = _RANDOM.choice(ready) if ready else None
        events: list[Any] = self.table.start_hand(deal.cards, now, reshuffle=deal.reshuffle, button=button)
        at = next((i for i, e in enumerate(events) if type(e) is HandStarted), None)
        if at is not None:  # the seeds and the next commitment, before the first card
            seeds = tuple(sorted(deal.seeds.items()))
            events.insert(at + 1, DeckSeeded(events[at].number, seeds, deal.next_commitment))
        await self._publish(events)

    def _soon(self, delay: float = 1.0) -> None:
        if self.table.phase == IDLE and self.next_hand_at is None:
            self.next_hand_at = time.time() + delay

    # ------------------------------------------------------------------ commands

    async def _handle(self, conn: Connection | None, m: Any) -> None:
        table, now = self.table, time.time()
        if isinstance(m, p.Subscribe):
            assert conn is not None
            conn.snapshots = conn.snapshots | ({self.name} if m.snapshots else set())
            self._subscribe(conn, m.since)
            conn.send(p.Ok(id=m.id))
            return
        if isinstance(m, p.Unsubscribe):
            assert conn is not None
            self.watchers.discard(conn)
            conn.tables.discard(self.name)
            conn.snapshots.discard(self.name)
            conn.send(p.Ok(id=m.id))
            return
        if isinstance(m, p.PreviousHand):
            assert conn is not None
            record = table.previous
            conn.send(p.PreviousHandRecord(table=self.name, hand=record_model(record) if record else None))
            return
        player = self._player(conn)
        if isinstance(m, p.Seed):  # a seated player's randomness for the next deal (deal.py)
            self.dealer.take_seed(player, m.commitment, m.seed, [s.player for s in table.seats.values()])
            conn.send(p.Ok(id=m.id))  # type: ignore[union-attr]
            return
        if isinstance(m, p.Chat):
            self._may_chat(player, now)
            await self._publish([ChatLine(player, m.text)])
            conn.send(p.Ok(id=m.id))  # type: ignore[union-attr]
            return
        events: list[AnyEvent]
        if isinstance(m, p.Sit):
            assert conn is not None and conn.account_id is not None
            left = await self.room.rathole(self.name, conn.account_id, now)  # D13
            at_least = 0 if left is None else left.stack
            table.verify_sit(player, m.seat, m.buy_in, at_least=at_least)
            account, txn = conn.account_id, new_txn()
            await self._write(
                "a buy-in",
                partial(self.room.store.buy_in, self.name, m.seat, account, m.buy_in, txn=txn),
            )
            self.accounts[player] = conn.account_id
            events = table.sit(player, m.seat, m.buy_in, now, at_least=at_least)
            if conn not in self.watchers:
                self._subscribe(conn, None)
            self._soon()
        elif isinstance(m, p.TopUp):
            table.verify_add_chips(player, m.amount)
            account, txn = self.accounts[player], new_txn()
            await self._write(
                "adding chips",
                partial(self.room.store.top_up, self.name, account, m.amount, txn=txn),
            )
            events = table.add_chips(player, m.amount, now)
            self._soon()
        elif isinstance(m, p.Act):
            events = table.act(player, m.action, m.amount, now)
        elif isinstance(m, p.Options):
            values = {k: v for k, v in m.model_dump(exclude={"type", "id", "table"}).items() if v is not None}
            events = table.set_options(player, now, **values)
            self._soon()
        elif isinstance(m, p.SitOut):
            events = table.sit_out(player, now)
        elif isinstance(m, p.SitIn):
            events = table.sit_in(player, now)
            self._soon()
        elif isinstance(m, p.Leave):
            events = table.leave(player, now)
        elif isinstance(m, p.Post):
            events = table.post(player, m.accept, now)
        elif isinstance(m, p.ShowCards):
            events = table.reveal(player, list(m.cards), now)
        else:
            raise TableError("bad_message", f"{type(m).__name__} is not a table command")
        await self._publish(events)
        assert conn is not None
        conn.send(_OK if m.id is None else p.Ok(id=m.id))

    def _may_chat(self, player: str, now: float) -> None:
        """Players at the table may chat (the browser says so), ``CHAT_LINES`` lines in
        ``CHAT_SECONDS`` at most, whatever their connections."""
        if player not in self.accounts:
            raise TableError("not_seated", "only players at the table may chat")
        said = self._chat_times.setdefault(player, deque(maxlen=CHAT_LINES))
        if len(said) == CHAT_LINES and now - said[0] < CHAT_SECONDS:
            raise TableError("chat_limited", f"at most {CHAT_LINES} chat lines in {CHAT_SECONDS:g} seconds")
        said.append(now)

    def _player(self, conn: Connection | None) -> str:
        if conn is None or conn.player is None or conn.account_id is None:
            raise TableError("login_required", "log in to play")
        return conn.player

    def _subscribe(self, conn: Connection, since: int | None) -> None:
        self.watchers.add(conn)
        conn.tables.add(self.name)
        if since is not None and since <= self.version and self.log.covers(since):
            missed = self.log.since(since, conn.player)
            if missed:
                conn.charge(len(missed) * REPLAY_COST)
                conn.send(events_text(self.name, missed))
            if self.name in conn.snapshots:  # a client drawing views gets the view too
                conn.send(p.Snapshot(table=self.name, version=self.version, view=self._view(conn)))
        else:
            conn.send(p.Snapshot(table=self.name, version=self.version, view=self._view(conn)))
        self._send_turn(conn)

    def _view(self, conn: Connection) -> p.TableView:
        seated = conn.player is not None and any(s.player == conn.player for s in self.table.seats.values())
        viewer = conn.player if seated else None
        return view_model(table_view(self.table, viewer, time.time()))

    # ------------------------------------------------------------------ events out

    async def _publish(self, events: Sequence[Any]) -> None:
        """Commit what changed money, then send every watcher its view of each event."""
        if not events:
            return
        table = self.table
        out: list[Any] = []
        for e in events:
            kind = type(e)
            if kind is HandStarted:
                self._game = e.game
                out.append(DeckCommitted(e.number, self._commitment))
                players = [(self.accounts[table.seats[s].player], s) for s in e.seats]
                store = self.room.store
                start = partial(store.start_hand, self.name, e.number, e.game, self._commitment, players)
                self.hand_id = await self._write("the start of a hand", start)
            elif kind is HandFinished:
                await self._store_hand(e)
                self._soon(self.room.config.pause)
            elif kind is Left:  # the chips back, and the departure (D13) in the same transaction
                account = self.accounts[e.player]
                await self._write(
                    "a cash-out",
                    partial(self.room.store.cash_out, self.name, account, e.stack, departed_at=time.time()),
                )
                del self.accounts[e.player]
                self._chat_times.pop(e.player, None)
            elif kind is TimedOut and e.action == "protected":  # D7: a protection of the room's spent
                await self._record_protection(e.player, table.clock)
            elif kind is CardsRevealed and self._last_hand is not None and self._last_hand[0] == e.number:
                # D12: shown after the last hand: kept in its history
                await self._record_reveal(self._last_hand[1], e.seat, "".join(map(str, e.cards)))
            out.append(e)
        # one ``events`` message per watcher: the same text for all but the owners of
        # private events (hole cards), who each get theirs
        public: list[str] = []  # the items as everybody else sees them
        own: dict[str, list[str]] = {}  # owner -> his items, where they differ
        turn_started = lobby_changed = False
        dealt = self._dealt_to  # seat -> the player dealt in there, in the hand of these events
        for e in out:
            self.version += 1
            version = self.version
            kind = type(e)
            if kind is TurnStarted:
                turn_started = True
            elif kind is HandStarted or kind is GameChanged:
                e = with_game_info(e, self.config)  # the game as data for clients (protocol 3)
                if kind is HandStarted and table.plan is not None:
                    dealt = self._dealt_to = dict(zip(table.plan.seats, table.hand_players, strict=True))
            elif kind.__name__ in _LOBBY_EVENTS:
                lobby_changed = True
            who = audience(e) if kind.__module__ == _CORE_EVENTS else None
            if who is None:
                item = event_item(version, e)
                self.log.add(Entry(version, item), chat=kind is ChatLine)
                public.append(item)
                for items in own.values():
                    items.append(item)
                continue
            # the player dealt in at that seat: he may have left by the end of these events
            # (a leaving player folds and goes when the hand ends) and still sees his cards
            owner = dealt.get(who) or (table.seats[who].player if who in table.seats else None)
            hidden, mine = event_item(version, redact(e)), event_item(version, e)
            # a seat left empty: nobody may see the card
            self.log.add(Entry(version, hidden, NOBODY if owner is None else owner, mine))
            for player, items in own.items():
                items.append(hidden if player != owner else mine)
            if owner is not None and owner not in own:
                own[owner] = [*public, mine]
            public.append(hidden)
        name = self.name
        everyone = events_text(name, public)
        texts = {player: events_text(name, items) for player, items in own.items()}
        # to every watcher his events; then the snapshots to those who draw views; then
        # the your_turn to the player whose turn began (one pass to find them all)
        actor = self._turn_player() if turn_started else None
        views: list[Connection] = []
        turns: list[Connection] = []
        for conn in list(self.watchers):
            viewer = conn.player
            conn.send(texts.get(viewer, everyone) if viewer is not None else everyone)
            if name in conn.snapshots:
                views.append(conn)
            if actor is not None and viewer == actor:
                turns.append(conn)
        for conn in views:
            conn.send(p.Snapshot(table=name, version=self.version, view=self._view(conn)))
        if turns:  # made once, for his connections only
            text = self._turn_text()
            for conn in turns:
                conn.send(text)
        self._summary = None  # the lobby line is made again (after the store's wait, if any)
        if lobby_changed:
            self.room.lobby_changed()

    async def _write(self, what: str, write: Callable[..., Awaitable[_T]]) -> _T:
        """Do a write of chips (``write(again=...)``) until the database answers for certain.

        The table has changed in memory already, or is about to on the answer: it must
        never run ahead of what is committed. A refusal (StoreError: a balance too small)
        is an answer. Any other failure leaves it unknown whether the write was committed
        (the connection may have dropped after the commit), so the table pauses: it tells
        its watchers, refuses commands ('table_paused'), stops its clock, and asks again
        with ``again=True`` (the store then finds a committed first try by its key and
        writes nothing) until the database answers; then it resumes where it was, every
        clock moved on by the pause (``_after_pause``)."""
        started: float | None = None  # when it paused
        delay, alerted = PAUSE_RETRY[0], False
        try:
            while True:
                try:
                    return await write(again=started is not None)
                except StoreError:
                    raise
                except Exception as e:
                    log.warning("table %s: %s was not confirmed (%s)", self.name, what, e)
                if started is None:
                    started, self.paused = time.time(), what
                    self._broadcast(p.TablePaused(
                        table=self.name,
                        message=f"paused: the room could not save {what}; it goes on as soon as it can, "
                        "and no chip is lost",
                    ))
                await asyncio.sleep(delay)
                delay = min(delay * 2, PAUSE_RETRY[1])
                if not alerted and time.time() - started > PAUSE_ALERT:  # for the operator's eyes
                    alerted = True
                    log.error("table %s: paused for over %g s: %s is still not confirmed", self.name,
                              PAUSE_ALERT, what)
        finally:
            if started is not None:
                self.paused = None
                paused_for = time.time() - started
                self._resumed += self.table.resume(paused_for)  # its clocks move on now, said soon
                self._broadcast(p.TableResumed(table=self.name, paused_for=round(paused_for, 3)))
                log.warning("table %s: resumed after %.1f s", self.name, paused_for)

    async def _after_pause(self) -> None:
        """Say that the table's clocks moved on by the time it was paused (the turn that
        was running, with its new deadline)."""
        events, self._resumed = self._resumed, []
        await self._publish(events)

    def _broadcast(self, message: BaseModel) -> None:
        text = message.model_dump_json()
        for conn in list(self.watchers):
            conn.send(text)

    async def _record_reveal(self, hand_id: int, seat: int, cards: str) -> None:
        """Keep cards shown after the hand (D12) in its history. No chip moves: a failure
        is logged, not allowed to hold up the events."""
        try:
            await self.room.store.add_reveal(hand_id, seat, cards)
        except Exception as e:
            log.warning("table %s: cards %s shown by seat %s were not stored: %r", self.name, cards, seat, e)

    async def _record_protection(self, player: str, at: float) -> None:
        """Keep a protection the table gave (D7) for the limit after a restart. On the
        clock's path: a failure to write it is logged, not allowed to hold up the events
        (the room's limit in memory has it already)."""
        account_id = self.accounts.get(player)
        if account_id is None:
            return
        try:
            await self.room.store.record_protection(account_id, at)
        except Exception as e:
            log.warning("table %s: the protection of %s at %s was not stored: %r", self.name, player, at, e)

    def _send_turn(self, conn: Connection) -> None:
        actor = self._turn_player()
        if actor is not None and conn.player == actor:
            conn.send(self._turn_text())

    def _turn_player(self) -> str | None:
        """The player whose turn it is, if his clock runs."""
        table = self.table
        if table.phase != PLAYING or table.actor is None or table.turn is None:
            return None
        seat = table.seats.get(table.actor)
        return None if seat is None else seat.player

    def _turn_text(self) -> str:
        """The ``your_turn`` message of the player whose turn it is (``_turn_player``)."""
        table = self.table
        hand, plan = table.hand, table.plan
        assert hand is not None and plan is not None and table.actor is not None and table.turn is not None
        assert hand is not None and plan is not None
        me = plan.seats.index(table.actor)
        holes, face_up, folded = hand.holes, hand.face_up, hand.folded
        live = [q for q in range(hand.n) if not folded[q]]
        deadline = table.turn.deadline
        legal = hand.legal_actions()
        cards: list[str | None] = [str(c) for c in holes[me]]
        up = list(face_up[me])
        board = [str(c) for c in hand.board]
        opponents_up = [  # stud: the others' up cards (hold'em: none, seen at a glance)
            [str(c) for c, shown in zip(holes[q], face_up[q], strict=False) if shown]
            if True in face_up[q]
            else []
            for q in live
            if q != me
        ]
        game, street, pot, stack = hand.game.code, hand.street_name, hand.pot, hand.stacks[me]
        text = your_turn_text(
            self.name, legal, deadline, game, street, cards, up, board, pot, stack, len(live), opponents_up
        )
        if text is None:  # a value the text writer leaves to pydantic
            text = p.YourTurn(
                table=self.name, legal=jsonable(legal), deadline=deadline, game=game, street=street,
                cards=cards, up=up, board=board, pot=pot, stack=stack, players=len(live),
                opponents_up=opponents_up,
            ).model_dump_json()
        return text

    async def _store_hand(self, finished: HandFinished) -> None:
        table = self.table
        hand, plan = table.hand, table.plan
        assert hand is not None and plan is not None and self.hand_id is not None
        names = table.hand_players  # those who left at its end too
        accounts = [self.accounts[n] for n in names]
        deal: Deal = self._dealt
        cards = self._cards
        history = {
            "table": self.name,
            "number": finished.number,
            "started_at": self._started_at,
            "commitment": deal.commitment,
            "deal": {"scheme": SCHEME, "seeds": sorted(deal.seeds.items())},  # fairness.verify_history
            "players": [{"seat": s, "name": n} for s, n in zip(plan.seats, names, strict=True)],
            # made when the history is read, not stored (Store.hand, histories.full_history):
            # the deal's "leaves" and "openings" from its salts and the deck, and the
            # previous-hand "record" from the hand's snapshot, as the table makes it
            # for the owner's eyes only; the API hands out what each reader may see
            "private": {
                "salts": salt_text(deal.salts),
                "holes": {str(s): [str(c) for c in hand.holes[i]] for i, s in enumerate(plan.seats)},
                # no text is written now: the .phh and .txt each player may see are written
                # from the hand's snapshot when he asks (histories.stored_text)
                "hand": snapshot(hand),
                "button_seat": plan.positions.button,
                "max_seats": self.config.seats,
                "game": self._game,
            },
        }
        results = [
            (a, net, stack)
            for a, (_, net), (_, stack) in zip(accounts, finished.net, finished.stacks, strict=True)
        ]
        await self._write(  # the hands row's phh and text columns stay NULL
            "the end of a hand",
            partial(
                self.room.store.finish_hand,
                self.hand_id, self.name, results, salt="", deck=cards, history=_encode_history(history),
            ),
        )
        self._finished.append(time.time())
        self._pots.append(sum(e.amount for e in hand.events if type(e) is PotAwarded))
        self._last_hand = (finished.number, self.hand_id)
        self.hand_id = None

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
