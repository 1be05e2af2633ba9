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
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic import BaseModel

from pokerroom.core.cards import FULL_DECK, Card
from pokerroom.core.events import PotAwarded, audience, redact
from pokerroom.server import protocol as p
from pokerroom.server.fairness import commit, opening
from pokerroom.server.histories import to_phh, to_pokerstars
from pokerroom.server.store import StoreError
from pokerroom.server.wire import event_json, jsonable, record_json
from pokerroom.table import IDLE, PLAYING, Table, TableConfig, TableError
from pokerroom.table.events import AnyEvent, HandFinished, HandStarted, Left, TurnStarted
from pokerroom.table.view import table_view

if TYPE_CHECKING:
    from pokerroom.server.room import Room

log = logging.getLogger("pokerroom.table")
_RANDOM = secrets.SystemRandom()
LOG_SIZE = 4000  # events kept per table for clients that reconnect


class DeckCommitted(NamedTuple):
    """Published at the deal: SHA-256 of the salt followed by the deck order ('AsKd...'),
    both revealed in the hand's history when it ends (provably fair deal)."""

    number: int
    commitment: str


class ChatLine(NamedTuple):
    player: str
    text: str


@dataclass(eq=False)
class Connection:
    """One client connection: who it is and the messages waiting to be written to it."""

    player: str | None
    account_id: int | None
    outbox: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(maxsize=2000))
    tables: set[str] = field(default_factory=set)
    lobby: bool = False
    overflowed: bool = False
    snapshots: set[str] = field(default_factory=set)  # tables it wants a snapshot after each batch of

    def send(self, message: BaseModel) -> None:
        if self.overflowed:
            return
        try:
            self.outbox.put_nowait(message.model_dump_json())
        except asyncio.QueueFull:  # a client that does not read: the connection is closed
            self.overflowed = True


@dataclass
class _Entry:
    version: int
    event: Any
    owner: str | None  # the player a private event belongs to


def secure_deck() -> list[Card]:
    deck = list(FULL_DECK)
    _RANDOM.shuffle(deck)
    return deck


class TableRunner:
    def __init__(self, config: TableConfig, room: Room) -> None:
        self.config = config
        self.name = config.name
        self.room = room
        self.table = Table(config)
        self.queue: asyncio.Queue[tuple[Connection | None, Any, asyncio.Future[None]]] = asyncio.Queue()
        self.version = 0
        self.log: deque[_Entry] = deque(maxlen=LOG_SIZE)
        self.watchers: set[Connection] = set()
        self.accounts: dict[str, int] = {}  # seated player name -> account id
        self.next_hand_at: float | None = None
        self.hand_id: int | None = None
        self._deck: list[Card] = []
        self._deal_commitment = commit(())
        self._commitment = ""
        self._started_at = 0.0
        self._finished: deque[float] = deque(maxlen=500)
        self._pots: deque[int] = deque(maxlen=50)
        self.task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ outside

    def submit(self, conn: Connection | None, message: Any) -> asyncio.Future[None]:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.queue.put_nowait((conn, message, done))
        return done

    def summary(self) -> dict[str, Any]:
        table = self.table
        now = time.time()
        recent = [t for t in self._finished if t > now - 3600]
        now_game, next_game, left = table.schedule()
        return {
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

    # ------------------------------------------------------------------ the task

    async def run(self) -> None:
        while True:
            wake = self._wake_at()
            timeout = None if wake is None else max(0.0, wake - time.time())
            item = None
            with contextlib.suppress(TimeoutError):
                item = await asyncio.wait_for(self.queue.get(), timeout)
            if item is not None:
                conn, message, done = item
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
                await self._tick()
            except Exception:
                log.exception("table %s: clock tick failed", self.name)
                await asyncio.sleep(0.5)

    def _wake_at(self) -> float | None:
        times = [t for t in (self.table.deadline, self.next_hand_at) if t is not None]
        return min(times) if times else None

    async def _tick(self) -> None:
        now = time.time()
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
        self._deck = deck
        self._deal_commitment = commit(deck)
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
            table.verify_sit(player, m.seat, m.buy_in)
            assert conn is not None and conn.account_id is not None
            await self.room.store.buy_in(self.name, m.seat, conn.account_id, m.buy_in)
            self.accounts[player] = conn.account_id
            events = table.sit(player, m.seat, m.buy_in, now)
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
        else:
            raise TableError("bad_message", f"{type(m).__name__} is not a table command")
        await self._publish(events)
        assert conn is not None
        conn.send(p.Ok(id=m.id))

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
            for entry in self.log:
                if entry.version > since:
                    self._send_entry(conn, entry)
            if self.name in conn.snapshots:  # a client drawing views gets the view too
                conn.send(p.Snapshot(table=self.name, version=self.version, view=self._view(conn)))
        else:
            conn.send(p.Snapshot(table=self.name, version=self.version, view=self._view(conn)))
        self._send_turn(conn)

    def _view(self, conn: Connection) -> dict[str, Any]:
        seated = conn.player is not None and any(s.player == conn.player for s in self.table.seats.values())
        viewer = conn.player if seated else None
        return jsonable(table_view(self.table, viewer))  # type: ignore[no-any-return]

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
                out.append(DeckCommitted(e.number, self._commitment))
                players = [(self.accounts[table.seats[s].player], s) for s in e.seats]
                self.hand_id = await self.room.store.start_hand(
                    self.name, e.number, e.game, self._commitment, players
                )
            elif kind is HandFinished:
                await self._store_hand(e)
                self._soon(self.room.config.pause)
            elif kind is Left:
                account = self.accounts.pop(e.player)
                await self.room.store.cash_out(self.name, account, e.stack)
            out.append(e)
        for e in out:
            self.version += 1
            who = audience(e) if type(e).__module__ == "pokerroom.core.events" else None
            owner = table.seats[who].player if who is not None and who in table.seats else None
            entry = _Entry(self.version, e, owner if who is not None else None)
            if who is not None and owner is None:
                entry.owner = "\x00nobody"  # a seat left empty: nobody may see it
            self.log.append(entry)
            for conn in list(self.watchers):
                self._send_entry(conn, entry)
        for conn in list(self.watchers):
            if self.name in conn.snapshots:
                conn.send(p.Snapshot(table=self.name, version=self.version, view=self._view(conn)))
        if any(type(e) is TurnStarted for e in out):
            for conn in list(self.watchers):
                self._send_turn(conn)
        if any(type(e).__name__ in ("Seated", "Left", "HandFinished") for e in out):
            self.room.lobby_changed()

    def _send_entry(self, conn: Connection, entry: _Entry) -> None:
        event = entry.event
        if entry.owner is not None and entry.owner != conn.player:
            event = redact(event)
        conn.send(p.EventMessage(table=self.name, version=entry.version, event=event_json(event)))

    def _send_turn(self, conn: Connection) -> None:
        table = self.table
        if conn.player is None or table.phase != PLAYING or table.actor is None or table.turn is None:
            return
        if table.seats.get(table.actor) is None or table.seats[table.actor].player != conn.player:
            return
        hand, plan = table.hand, table.plan
        assert hand is not None and plan is not None
        me = plan.seats.index(table.actor)
        live = [q for q in range(hand.n) if not hand.folded[q]]
        conn.send(
            p.YourTurn(
                table=self.name,
                legal=jsonable(hand.legal_actions()),
                deadline=table.turn.deadline,
                game=hand.game.code,
                street=hand.street_name,
                cards=[str(c) for c in hand.holes[me]],
                up=list(hand.face_up[me]),
                board=[str(c) for c in hand.board],
                pot=hand.pot,
                stack=hand.stacks[me],
                players=len(live),
                opponents_up=[
                    [str(c) for c, up in zip(hand.holes[q], hand.face_up[q], strict=False) if up]
                    for q in live
                    if q != me
                ],
            )
        )

    async def _store_hand(self, finished: HandFinished) -> None:
        table = self.table
        hand, plan, record = table.hand, table.plan, table.previous
        assert hand is not None and plan is not None and record is not None and self.hand_id is not None
        names = [table.seats[s].player if s in table.seats else record.player(s).player for s in plan.seats]
        accounts = [self.accounts[n] for n in names]
        started = self._started_at

        def render(viewer: int | None) -> tuple[str, str]:
            phh = to_phh(
                hand,
                names=names,
                seats=plan.seats,
                table=self.name,
                number=finished.number,
                viewer=viewer,
                started_at=started,
            )
            text = to_pokerstars(
                hand,
                names=names,
                seats=plan.seats,
                table=self.name,
                number=finished.number,
                button_seat=plan.positions.button,
                started_at=started,
                viewer=viewer,
                max_seats=self.config.seats,
            )
            return phh, text

        phh, text = render(None)
        deal, deck = self._deal_commitment, self._deck
        history = {
            "table": self.name,
            "number": finished.number,
            "started_at": started,
            "commitment": deal.commitment,
            "leaves": list(deal.leaves),
            "players": [{"seat": s, "name": n} for s, n in zip(plan.seats, names, strict=True)],
            "record": record_json(record),
            # for the owner's eyes only; the API hands out what each reader may see
            "private": {
                "openings": [opening(deal, deck, i) for i in range(len(deck))],
                "holes": {str(s): [str(c) for c in hand.holes[i]] for i, s in enumerate(plan.seats)},
                "views": {
                    str(s): dict(zip(("phh", "text"), render(i), strict=True))
                    for i, s in enumerate(plan.seats)
                },
            },
        }
        results = [
            (a, net, stack)
            for a, (_, net), (_, stack) in zip(accounts, finished.net, finished.stacks, strict=True)
        ]
        await self.room.store.finish_hand(
            self.hand_id,
            self.name,
            results,
            salt="",
            deck="".join(str(c) for c in deck),
            history=json.dumps(history),
            phh=phh,
            text=text,
        )
        self._finished.append(time.time())
        self._pots.append(sum(e.amount for e in hand.events if type(e) is PotAwarded))
        self.hand_id = None

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
