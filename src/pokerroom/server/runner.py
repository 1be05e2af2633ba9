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
import struct
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic import BaseModel

from pokerroom.core.cards import FULL_DECK, Card
from pokerroom.core.events import PotAwarded, audience, redact
from pokerroom.server import protocol as p
from pokerroom.server.fairness import commit, salt_text
from pokerroom.server.histories import snapshot
from pokerroom.server.store import StoreError
from pokerroom.server.wire import event_item, events_text, jsonable, record_json, your_turn_text
from pokerroom.table import IDLE, PLAYING, Table, TableConfig, TableError
from pokerroom.table.events import (
    AnyEvent,
    CardsRevealed,
    HandFinished,
    HandStarted,
    Left,
    TimedOut,
    TurnStarted,
)
from pokerroom.table.view import table_view

if TYPE_CHECKING:
    from pokerroom.server.room import Room

log = logging.getLogger("pokerroom.table")
_RANDOM = secrets.SystemRandom()
_CORE_EVENTS = "pokerroom.core.events"  # the module of events that may be private (audience)
_WORDS = 1 << 32
_OK = p.Ok().model_dump_json()  # the answer to a command without an id
# a hand's history, compact (it is read back as JSON, never shown as it is stored)
_encode_history = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode
_LOBBY_EVENTS = frozenset({"Seated", "Left", "HandFinished"})  # events that change a lobby line
LOG_SIZE = 1500  # events kept per table for clients that reconnect (20-30 hands at 6-max)


class DeckCommitted(NamedTuple):
    """Published at the deal: SHA-256 of the salt followed by the deck order ('AsKd...'),
    both revealed in the hand's history when it ends (provably fair deal)."""

    number: int
    commitment: str


class ChatLine(NamedTuple):
    player: str
    text: str


def _nowhere(text: str) -> None:
    pass


@dataclass(eq=False)
class Connection:
    """One client connection: who it is, what it watches, and ``write``, which sends one
    message's text at once (the transport buffers it; server/ws.py)."""

    player: str | None
    account_id: int | None
    write: Callable[[str], None] = _nowhere
    tables: set[str] = field(default_factory=set)
    lobby: bool = False
    overflowed: bool = False  # it stopped reading: it is being closed, nothing more is sent
    snapshots: set[str] = field(default_factory=set)  # tables it wants a snapshot after each batch of

    def send(self, message: BaseModel | str) -> None:
        """Send a message (a model, or its JSON text already made)."""
        if not self.overflowed:
            self.write(message if type(message) is str else message.model_dump_json())  # type: ignore[union-attr]


@dataclass(slots=True)
class _Entry:
    version: int
    event: Any
    owner: str | None  # the player a private event belongs to


def _release(waiter: asyncio.Future[None] | None) -> None:
    """Wake a table task sleeping on ``waiter`` (a command came, or its clock is due)."""
    if waiter is not None and not waiter.done():
        waiter.set_result(None)


def secure_deck(random_bytes: Callable[[int], bytes] = secrets.token_bytes) -> list[Card]:
    """The full deck in a uniformly random order: the Fisher-Yates shuffle of
    ``SystemRandom.shuffle``, each index drawn without bias (32-bit words from the OS's
    CSPRNG, those past the last whole multiple of the range drawn again), but with the
    random bytes of a whole deck from one call rather than one system call per card."""
    deck = list(FULL_DECK)
    count = len(deck)
    words: tuple[int, ...] = ()
    k = 0
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        limit = _WORDS - _WORDS % n  # words below it fall evenly on 0 .. n - 1
        while True:
            if k == len(words):
                words, k = struct.unpack(f"<{count}I", random_bytes(4 * count)), 0
            word = words[k]
            k += 1
            if word < limit:
                break
        j = word % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


class TableRunner:
    def __init__(self, config: TableConfig, room: Room) -> None:
        self.config = config
        self.name = config.name
        self.room = room
        self.table = Table(config, protections=room.protections)  # the room's one limit (D7)
        self.inbox: deque[tuple[Connection | None, Any, asyncio.Future[None]]] = deque()
        self._waiter: asyncio.Future[None] | None = None  # set while the task sleeps
        self.version = 0
        self.log: deque[_Entry] = deque(maxlen=LOG_SIZE)
        self.watchers: set[Connection] = set()
        self.accounts: dict[str, int] = {}  # seated player name -> account id
        self.next_hand_at: float | None = None
        self.hand_id: int | None = None
        self._last_hand: tuple[int, int] | None = None  # (number, id) of the last hand stored
        self._cards = ""  # the deck of the hand being played as text, 'AsKd...'
        self._deal_commitment = commit(())
        self._commitment = ""
        self._started_at = 0.0
        self._game = ""  # the label of the game of the hand being played ('NL 1/2')
        self._finished: deque[float] = deque(maxlen=500)
        self._pots: deque[int] = deque(maxlen=50)
        self.task: asyncio.Task[None] | None = None
        self._summary: dict[str, Any] | None = None  # the lobby line, while it holds
        self._summary_at = 0.0

    # ------------------------------------------------------------------ outside

    def submit(self, conn: Connection | None, message: Any) -> asyncio.Future[None]:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.inbox.append((conn, message, done))
        _release(self._waiter)
        return done

    def summary(self) -> dict[str, Any]:
        """The table's lobby line, made again only after the table changed (or a minute on,
        for the hands per hour): the lobby asks for every table each second."""
        now = time.time()
        if self._summary is not None and now - self._summary_at < 60:
            return self._summary
        table = self.table
        recent = [t for t in self._finished if t > now - 3600]
        now_game, next_game, left = table.schedule()
        self._summary_at = now
        self._summary = {
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
        }
        return self._summary

    # ------------------------------------------------------------------ the task

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
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
        deck = secure_deck()
        cards = [str(c) for c in deck]  # 'As', ...: committed to now, stored when the hand ends
        self._cards = "".join(cards)
        self._deal_commitment = commit(cards)
        self._commitment = self._deal_commitment.commitment
        self._started_at = now
        button = None
        if self.table.positions is None:  # the table starts: draw for the button
            ready = [n for n, s in self.table.seats.items() if s.ready]
            button = _RANDOM.choice(ready) if ready else None
        events = self.table.start_hand(
            deck, now, reshuffle=lambda pool: _RANDOM.sample(list(pool), len(pool)), button=button
        )
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
            conn.send(p.PreviousHandRecord(table=self.name, hand=record_json(record) if record else None))
            return
        player = self._player(conn)
        if isinstance(m, p.Chat):
            await self._publish([ChatLine(player, m.text)])
            conn.send(p.Ok(id=m.id))  # type: ignore[union-attr]
            return
        events: list[AnyEvent]
        if isinstance(m, p.Sit):
            assert conn is not None and conn.account_id is not None
            left = await self.room.rathole(self.name, conn.account_id, now)  # D13
            at_least = 0 if left is None else left.stack
            table.verify_sit(player, m.seat, m.buy_in, at_least=at_least)
            await self.room.store.buy_in(self.name, m.seat, conn.account_id, m.buy_in)
            self.accounts[player] = conn.account_id
            events = table.sit(player, m.seat, m.buy_in, now, at_least=at_least)
            if conn not in self.watchers:
                self._subscribe(conn, None)
            self._soon()
        elif isinstance(m, p.TopUp):
            table.verify_add_chips(player, m.amount)
            await self.room.store.top_up(self.name, self.accounts[player], m.amount)
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

    def _player(self, conn: Connection | None) -> str:
        if conn is None or conn.player is None or conn.account_id is None:
            raise TableError("login_required", "log in to play")
        return conn.player

    def _subscribe(self, conn: Connection, since: int | None) -> None:
        self.watchers.add(conn)
        conn.tables.add(self.name)
        if (
            since is not None
            and since <= self.version
            and ((self.log and self.log[0].version <= since + 1) or since == self.version)
        ):
            missed = [self._item(conn, entry) for entry in self.log if entry.version > since]
            if missed:
                conn.send(events_text(self.name, missed))
            if self.name in conn.snapshots:  # a client drawing views gets the view too
                conn.send(p.Snapshot(table=self.name, version=self.version, view=self._view(conn)))
        else:
            conn.send(p.Snapshot(table=self.name, version=self.version, view=self._view(conn)))
        self._send_turn(conn)

    def _view(self, conn: Connection) -> dict[str, Any]:
        seated = conn.player is not None and any(s.player == conn.player for s in self.table.seats.values())
        viewer = conn.player if seated else None
        return jsonable(table_view(self.table, viewer, time.time()))  # type: ignore[no-any-return]

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
                self.hand_id = await self.room.store.start_hand(
                    self.name, e.number, e.game, self._commitment, players
                )
            elif kind is HandFinished:
                await self._store_hand(e)
                self._soon(self.room.config.pause)
            elif kind is Left:  # the chips back, and the departure (D13) in the same transaction
                account = self.accounts.pop(e.player)
                await self.room.store.cash_out(self.name, account, e.stack, departed_at=time.time())
            elif kind is TimedOut and e.action == "protected":  # D7: a protection of the room's spent
                await self._record_protection(e.player, table.clock)
            elif kind is CardsRevealed and self._last_hand is not None and self._last_hand[0] == e.number:
                # D12: shown after the last hand: kept in its history
                await self.room.store.add_reveal(self._last_hand[1], e.seat, "".join(map(str, e.cards)))
            out.append(e)
        # one ``events`` message per watcher: the same text for all but the owners of
        # private events (hole cards), who each get theirs
        public: list[str] = []  # the items as everybody else sees them
        own: dict[str, list[str]] = {}  # owner -> his items, where they differ
        turn_started = lobby_changed = False
        for e in out:
            self.version += 1
            version = self.version
            kind = type(e)
            if kind is TurnStarted:
                turn_started = True
            elif kind.__name__ in _LOBBY_EVENTS:
                lobby_changed = True
            who = audience(e) if kind.__module__ == _CORE_EVENTS else None
            if who is None:
                self.log.append(_Entry(version, e, None))
                item = event_item(version, e)
                public.append(item)
                for items in own.values():
                    items.append(item)
                continue
            owner = table.seats[who].player if who in table.seats else None
            # a seat left empty: nobody may see the card
            self.log.append(_Entry(version, e, "\x00nobody" if owner is None else owner))
            hidden = event_item(version, redact(e))
            for player, items in own.items():
                items.append(hidden if player != owner else event_item(version, e))
            if owner is not None and owner not in own:
                own[owner] = [*public, event_item(version, e)]
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

    async def _record_protection(self, player: str, at: float) -> None:
        """Keep a protection the table gave (D7) for the limit after a restart. On the
        clock's path: a failure to write it is logged, not allowed to hold up the events
        (the room's limit in memory has it already)."""
        account_id = self.accounts.get(player)
        if account_id is None:
            return
        try:
            await self.room.store.record_protection(account_id, at)
        except Exception:
            log.exception("table %s: the protection of %s at %s was not stored", self.name, player, at)

    @staticmethod
    def _item(conn: Connection, entry: _Entry) -> str:
        """A logged event again, as ``conn`` may see it (``subscribe`` with ``since``)."""
        event = entry.event
        if entry.owner is not None and entry.owner != conn.player:
            event = redact(event)
        return event_item(entry.version, event)

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
        deal, cards = self._deal_commitment, self._cards
        history = {
            "table": self.name,
            "number": finished.number,
            "started_at": self._started_at,
            "commitment": deal.commitment,
            "players": [{"seat": s, "name": n} for s, n in zip(plan.seats, names, strict=True)],
            # made when the history is read, not stored (Store.hand, histories.full_history):
            # the deal's "leaves" and "openings" from its salts and the deck, and the
            # previous-hand "record" from the hand's snapshot, as the table makes it
            # for the owner's eyes only; the API hands out what each reader may see
            "private": {
                "salts": salt_text(deal),
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
        await self.room.store.finish_hand(  # the hands row's phh and text columns stay NULL
            self.hand_id,
            self.name,
            results,
            salt="",
            deck=cards,
            history=_encode_history(history),
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
