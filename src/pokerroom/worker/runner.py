"""One asyncio task per table: it owns the table, takes commands from a queue, runs the
clock, deals from a secure shuffle, commits money before it tells anyone, and sends each
viewer his own view of every event (DESIGN.md data flow, invariants 2-6).

The runner knows the store, its settings (buyin.py) and the ``Outlet`` it publishes to; of
the clients, only ``Viewer`` (viewer.py): it never imports the gateway or the bus. Who sees
what is projection.py's; the lobby line lobby.py's; the stored history record.py's; the
deal deal.py's; when it wakes clock.py's; its lease, its worker's (room.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Hashable, Sequence
from functools import partial
from typing import Never

from pydantic import BaseModel

from pokerroom import protocol as p
from pokerroom.core.events import Acted, PotAwarded
from pokerroom.loop import cancel
from pokerroom.store import Claim, Fence, Store, StoreError, new_txn
from pokerroom.table import IDLE, Table, TableConfig, TableError
from pokerroom.table.config import buy_in_range
from pokerroom.table.events import CardsRevealed, HandFinished, HandStarted, Left, TimedOut, WaitingChanged
from pokerroom.table.memory import remember, restore
from pokerroom.table.protection import ProtectionLimit
from pokerroom.table.view import turn_player, turn_view
from pokerroom.wire import events_text, record_model
from pokerroom.worker.buyin import BuyIn, Settings, rathole
from pokerroom.worker.clock import Clock
from pokerroom.worker.confirmed import ConfirmedWrites
from pokerroom.worker.deal import Deal, Dealer
from pokerroom.worker.eventlog import REPLAY_COST
from pokerroom.worker.events import ChatLine, DeckCommitted, DeckSeeded, HandVoided, Published
from pokerroom.worker.lobby import LobbyLine
from pokerroom.worker.projection import Stream, Watcher, parts_of, turn_text
from pokerroom.worker.record import hand_history
from pokerroom.worker.viewer import OK, Answer, NoOutlet, Outlet, PlayerPart, Reply, Viewer

log = logging.getLogger("pokerroom.table")
_RANDOM = secrets.SystemRandom()
CHAT_LINES, CHAT_SECONDS = 5, 10.0  # a player's chat at a table: at most so many lines in so long
# what a paused table still takes (queued until it resumes); other commands are refused
_WHILE_PAUSED = (p.Subscribe, p.Unsubscribe, p.PreviousHand)


def _always() -> bool:
    return True


EPOCH_GAP = 1_000_000  # a new owner numbers its events this far past the last it knows of


def _unknown(m: Never) -> TableError:
    """A command of the union with no case in ``_handle``: mypy says so (``m`` is not
    ``Never`` there); at run time it is refused, never dropped."""
    return TableError("bad_message", f"{type(m).__name__} is not a table command")


class TableRunner:
    def __init__(self, config: TableConfig, store: Store, settings: Settings | None = None, *,
                 protections: ProtectionLimit | None = None, worker: str = "serve",
                 lease_ok: Callable[[], bool] = _always) -> None:
        self.config = config
        self.name = config.name
        self.store = store
        self.settings = settings or Settings()
        self.outlet: Outlet = NoOutlet()  # where it publishes (the bus sets it)
        self.worker = worker  # the worker that owns it: its name in the table's lease
        self.epoch = 0  # the lease's epoch (0: no lease, no fence: a table of tests)
        self.lease_ok = lease_ok  # whether the worker's lease still holds (by its own clock)
        self.lost = False  # the lease went to another worker: this runner is done
        self.closing = False  # the task ends after the step it is in (close)
        self.table = Table(config, protections=protections)  # the room's one limit (D7)
        self.inbox: deque[tuple[Viewer, p.TableCommand, Reply]] = deque()
        self.stream = Stream(self.name)
        self.watchers: dict[Hashable, Watcher] = {}  # connection key -> who watches
        self.accounts: dict[str, int] = {}  # seated player name -> account id
        self._known: dict[str, int] = {}  # every player seated since the last hand began -> account
        # when the task wakes; ``clock.draining``: its worker is stopping or hands it over,
        # no new hand is dealt
        self.clock = Clock(lambda: self.table.deadline, lambda: self.table.phase == IDLE)
        self.hand_id: int | None = None
        self._last_hand: tuple[int, int] | None = None  # (number, id) of the last hand stored
        self.dealer = Dealer()  # the decks, committed to a hand ahead, and the players' seeds
        self._dealt: Deal | None = None  # the deal of the hand being played
        self._cards = ""  # its deck as text, 'AsKd...', as dealt (stored when the hand ends)
        self._started_at = 0.0
        self._game = ""  # the label of the game of the hand being played ('NL 1/2')
        self.lobby = LobbyLine(config)
        self.task: asyncio.Task[None] | None = None
        self._waiting: dict[str, int] = {}  # the waiting list's players -> their accounts
        self._chat_times: dict[str, deque[float]] = {}  # a seated player's last chat lines' times
        # writes of chips, each until the database answers for certain (the table paused meanwhile)
        self.writes = ConfirmedWrites(self.name, self.table, self._broadcast, self._lose)
        self._voided: list[Published] = []  # the hands an old owner left unfinished, to announce
        # the connection of the command being handled when it did not watch the table before
        # it: what the command publishes after it starts watching (a sit) goes to it directly,
        # as the bus learns that it watches only from the command's answer
        self._newcomer: Viewer | None = None

    # ------------------------------------------------------------------ outside

    def submit(self, viewer: Viewer, command: p.TableCommand, reply: Reply) -> None:
        """Queue ``command``; ``reply`` gets its answer once the table has handled it (at
        once when the table is paused and cannot take it)."""
        if self.lost or not self.lease_ok():
            reply(p.Error(code="table_moving", message="the table is moving to another server: "
                          "try again in a moment", id=command.id))
            return
        paused = self.writes.paused
        if paused is not None and not isinstance(command, _WHILE_PAUSED):
            reply(p.Error(code="table_paused", message=f"the table is paused: the room could not save "
                          f"{paused}; try again when it resumes", id=command.id))
            return
        self.inbox.append((viewer, command, reply))
        self.clock.release()

    def unwatch(self, key: Hashable) -> None:
        """The connection ``key`` went away: no more events for it (a seated player keeps
        his seat and his clock runs as usual)."""
        self.watchers.pop(key, None)

    def watching(self, key: Hashable) -> Watcher | None:
        return self.watchers.get(key)

    @property
    def fence(self) -> Fence | None:
        """What the table's chip writes are fenced by (issue 18), when it has a lease."""
        return Fence(self.name, self.worker, self.epoch) if self.epoch else None

    def take_over(self, claim: Claim) -> None:
        """Start as the table's owner under ``claim``: its players seated with their stacks
        as of the last settled hand and what the table remembered of them, its events
        numbered on past any the old owner may have sent; the hand it left unfinished
        (voided by the claim) is announced when the task starts."""
        self.epoch = claim.epoch
        memory = claim.memory or {}
        restore(self.table, [(s.seat, s.player, s.stack) for s in claim.seats], memory)
        # the next hand's number follows the voided one's: a table's hand numbers stay unique
        self.table.hand_number = max([self.table.hand_number, *(n for _, n in claim.voided)])
        self.accounts = {s.player: s.account_id for s in claim.seats}
        self._known = dict(self.accounts)
        version = memory.get("version")
        base = version if type(version) is int and version >= 0 else 0
        base += EPOCH_GAP if claim.epoch > 1 else 0
        self.stream.start_at(base)
        self._voided = [HandVoided(number, len(claim.seats)) for _, number in claim.voided]
        if self.table.seats:
            self.clock.soon(self.settings.pause)

    async def buy_in(self, account_id: int, now: float) -> BuyIn:
        """What this player may sit down with now (a read: not queued behind commands)."""
        left = await rathole(self.store, self.settings, self.name, account_id, now)
        low, high = buy_in_range(self.config, 0 if left is None else left.stack)
        if left is None or left.stack <= self.config.min_buy_in:
            return BuyIn(low, high)
        return BuyIn(low, high, left, left.at + self.settings.rathole_window)

    def summary(self) -> p.LobbyRow:
        """The table's lobby line (lobby.py)."""
        return self.lobby.of(self.table)

    def summary_data(self) -> dict[str, object]:
        """The table's lobby line as JSON data."""
        return self.lobby.data(self.table)

    # ------------------------------------------------------------------ the task

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        if self._voided:
            voided, self._voided = self._voided, []
            await self._publish(voided)
        while not self.lost and not self.closing:
            if self.writes.resumed:  # a pause ended (in a command or a tick): say so before anything else
                try:
                    await self._after_pause()
                except Exception:
                    log.exception("table %s: announcing the end of a pause failed", self.name)
            if not self.inbox:  # sleep until a command comes or the clock is due
                await self.clock.sleep(loop)
            if self.inbox:
                viewer, command, reply = self.inbox.popleft()
                answer: Answer
                self._newcomer = None if viewer.key in self.watchers else viewer
                try:
                    answer = await self._handle(viewer, command)
                except (TableError, StoreError) as e:
                    answer = p.Error(code=e.code, message=str(e), id=command.id)
                except Exception:  # a bug must not kill the table: log it, tell the client
                    log.exception("table %s: command %r failed", self.name, command)
                    answer = p.Error(code="internal", message="the server could not do that", id=command.id)
                self._newcomer = None
                try:
                    reply(answer)
                except Exception:
                    log.exception("table %s: the answer to %r was not taken", self.name, command)
            try:
                now = time.time()
                if self.clock.due(now):  # not after most commands: then no coroutine for the clock
                    await self._tick(now)
            except StoreError as e:
                if e.code != "fenced":  # fenced: another worker has the table, said by _lose; the loop ends
                    log.exception("table %s: clock tick failed", self.name)
                    await asyncio.sleep(0.5)
            except Exception:
                log.exception("table %s: clock tick failed", self.name)
                await asyncio.sleep(0.5)

    async def _tick(self, now: float) -> None:
        if not self.lease_ok():  # its lease may be another's by now: the clock waits for the renewal
            await asyncio.sleep(0.25)
            return
        table = self.table
        deadline = table.deadline
        if deadline is not None and now >= deadline:
            await self._publish(table.advance(now))
        # draining (its worker is stopping, or hands the table over): no new hand, until told
        # otherwise (the worker that came went away again)
        if self.clock.hand_due(now):
            self.clock.next_hand_at = None
            if table.can_start():
                await self._deal(now)

    async def _deal(self, now: float) -> None:
        # the deck committed to at the deal before, ordered by the seated players' seeds
        deal = self._dealt = self.dealer.deal({s: seat.player for s, seat in self.table.seats.items()})
        self._cards = deal.card_text
        self._started_at = now
        button = None
        if self.table.positions is None:  # the table starts: draw for the button
            ready = [n for n, s in self.table.seats.items() if s.ready]
            button = _RANDOM.choice(ready) if ready else None
        events: list[Published] = list(self.table.start_hand(deal.cards, now, reshuffle=deal.reshuffle,
                                                             button=button))
        at = next((i for i, e in enumerate(events) if type(e) is HandStarted), None)
        if at is not None:  # the seeds and the next commitment, before the first card
            seeds = tuple(sorted(deal.seeds.items()))
            started = events[at]
            assert type(started) is HandStarted
            events.insert(at + 1, DeckSeeded(started.number, seeds, deal.next_commitment))
        await self._publish(events)

    # ------------------------------------------------------------------ commands

    async def _handle(self, viewer: Viewer, m: p.TableCommand) -> Answer:
        """Do one command; its answer. Every table command has its case (mypy checks)."""
        table, now = self.table, time.time()
        events: Sequence[Published]
        match m:
            case p.Subscribe():
                self._subscribe(viewer, m.since, m.snapshots)
                return p.Ok(id=m.id)
            case p.Unsubscribe():
                self.watchers.pop(viewer.key, None)
                return p.Ok(id=m.id)
            case p.PreviousHand():
                record = table.previous
                return p.PreviousHandRecord(table=self.name, hand=record_model(record) if record else None)
            case p.Seed():  # a seated player's randomness for the next deal (deal.py)
                player = self._player(viewer)
                self.dealer.take_seed(player, m.commitment, m.seed, [s.player for s in table.seats.values()])
                return p.Ok(id=m.id)
            case p.Chat():
                player = self._player(viewer)
                self._may_chat(player, now)
                await self._publish([ChatLine(player, m.text)])
                return p.Ok(id=m.id)
            case p.Sit():
                events = await self._sit(viewer, m, now)
            case p.TopUp():
                events = await self._top_up(self._player(viewer), m.amount, now)
            case p.Act():
                events = table.act(self._player(viewer), m.action, m.amount, now)
            case p.Options():
                values = m.model_dump(exclude={"type", "id", "table"}, exclude_none=True)
                events = table.set_options(self._player(viewer), now, **values)
                self.clock.soon()
            case p.SitOut():
                events = table.sit_out(self._player(viewer), now)
            case p.SitIn():
                events = table.sit_in(self._player(viewer), now)
                self.clock.soon()
            case p.Leave():
                events = table.leave(self._player(viewer), now)
            case p.Post():
                events = table.post(self._player(viewer), m.accept, now)
            case p.ShowCards():
                events = table.reveal(self._player(viewer), list(m.cards), now)
            case p.JoinWaiting():
                player, account = self._player(viewer), viewer.account_id
                assert account is not None  # _player checked it
                bot = await self.store.is_bot(account)  # behind every person (one read per join)
                events = table.join_waiting(player, bot, now)
                self._waiting[player] = account
            case p.LeaveWaiting():
                events = table.leave_waiting(self._player(viewer), now)
            case _:
                raise _unknown(m)
        await self._publish(events)
        return OK if m.id is None else p.Ok(id=m.id)

    async def _sit(self, viewer: Viewer, m: p.Sit, now: float) -> Sequence[Published]:
        player, account = self._player(viewer), viewer.account_id
        assert account is not None  # _player checked it
        left = await rathole(self.store, self.settings, self.name, account, now)  # D13
        at_least = 0 if left is None else left.stack
        table = self.table
        table.verify_sit(player, m.seat, m.buy_in, at_least=at_least)
        buy_in = partial(self.store.buy_in, self.name, m.seat, account, m.buy_in, txn=new_txn(),
                         fence=self.fence)
        await self.writes.write("a buy-in", buy_in)
        self.accounts[player] = self._known[player] = account
        events = table.sit(player, m.seat, m.buy_in, now, at_least=at_least)
        if viewer.key not in self.watchers:
            self._subscribe(viewer, None)
        self.clock.soon()
        return events

    async def _top_up(self, player: str, amount: int, now: float) -> Sequence[Published]:
        table = self.table
        table.verify_add_chips(player, amount)
        account, txn = self.accounts[player], new_txn()
        top_up = partial(self.store.top_up, self.name, account, amount, txn=txn, fence=self.fence)
        await self.writes.write("adding chips", top_up)
        events = table.add_chips(player, amount, now)
        self.clock.soon()
        return events

    def _may_chat(self, player: str, now: float) -> None:
        """Players at the table may chat (the browser says so), ``CHAT_LINES`` lines in
        ``CHAT_SECONDS`` at most, whatever their connections."""
        if player not in self.accounts:
            raise TableError("not_seated", "only players at the table may chat")
        said = self._chat_times.setdefault(player, deque(maxlen=CHAT_LINES))
        if len(said) == CHAT_LINES and now - said[0] < CHAT_SECONDS:
            raise TableError("chat_limited", f"at most {CHAT_LINES} chat lines in {CHAT_SECONDS:g} seconds")
        said.append(now)

    def _player(self, viewer: Viewer) -> str:
        """The logged-in player behind ``viewer`` (with an account), or a typed refusal."""
        player = viewer.player
        if player is None or viewer.account_id is None:
            raise TableError("login_required", "log in to play")
        return player

    def _subscribe(self, viewer: Viewer, since: int | None, snapshots: bool = False) -> None:
        """Watch the table: what he missed since ``since`` if the log still has it, else a
        snapshot; then his ``your_turn`` if it is his. With ``snapshots``, a snapshot after
        each batch too (from then on, whatever later subscribes say)."""
        key = viewer.key
        was = self.watchers.get(key)
        views = snapshots or (was is not None and was.views)
        self.watchers[key] = Watcher(viewer.player, viewer.account_id, views)
        stream = self.stream
        missed = stream.since(since, viewer.player)
        if missed is not None:
            if missed:
                viewer.charge(len(missed) * REPLAY_COST)
                viewer.send(events_text(self.name, missed))
            if views:  # a client drawing views gets the view too
                viewer.send(stream.snapshot(self.table, viewer.player))
        else:
            viewer.send(stream.snapshot(self.table, viewer.player))
        self._send_turn(viewer)

    # ------------------------------------------------------------------ events out

    async def _publish(self, events: Sequence[Published]) -> None:
        """Commit what changed money, then send every watcher his view of each event.

        The action that ends a hand goes out before the hand's settlement is committed, as
        every action before it did (an action moves no money in the record: invariant 5 is
        about the hand's result); the result, the hand's end and what follows go out after
        the commit, in a batch of their own. So the last action of a hand reaches the table
        as fast as the others instead of a journal commit later; the first batch carries no
        snapshot (the table in memory has settled the hand already: a view would show the
        result before its commit)."""
        if not events:
            return
        ahead = _ahead_of_settlement(events)
        if ahead:
            self._send_batch(await self._commit(ahead), views=False)
            events = events[len(ahead):]
        self._send_batch(await self._commit(events))

    def _send_batch(self, events: list[Published], views: bool = True) -> None:
        """Number, log and send events committed already; ``views``: with the snapshots of
        the watchers who draw views."""
        table, stream = self.table, self.stream
        prev = stream.version
        batch = stream.add(events, table)
        everyone = batch.everyone
        actor = turn_player(table) if batch.turn_started else None
        parts, snapshot = parts_of(batch, table, stream, self.watchers.values(), self._known,
                                   actor, self.accounts.get(actor) if actor else None, self._turn_text,
                                   views)
        self.outlet.batch(self.name, self.epoch, prev, stream.version, everyone, snapshot, parts)
        newcomer = self._newcomer
        if newcomer is not None and newcomer.key in self.watchers:
            self._to_newcomer(newcomer, everyone, parts)
        if batch.lobby_changed:  # the lobby line is made again (after the store's wait, if any)
            self.lobby.changed()
            self.outlet.lobby_changed(self.name)

    async def _commit(self, events: Sequence[Published]) -> list[Published]:
        """Write what ``events`` change of chips and records, in order; the events to send
        (with the deck's commitment before a hand's start)."""
        table = self.table
        out: list[Published] = []
        for e in events:
            if type(e) is HandStarted:
                self._game = e.game
                assert self._dealt is not None
                commitment = self._dealt.commitment
                out.append(DeckCommitted(e.number, commitment))
                players = [(self.accounts[table.seats[s].player], s) for s in e.seats]
                self._known = {table.seats[s].player: a for a, s in players} | self.accounts
                start = partial(self.store.start_hand, self.name, e.number, e.game, commitment, players,
                                fence=self.fence)
                self.hand_id = await self.writes.write("the start of a hand", start)
            elif type(e) is HandFinished:
                await self._store_hand(e)
                self.clock.soon(self.settings.pause)
            elif type(e) is Left:  # the chips back, and the departure (D13) in the same transaction
                account = self.accounts[e.player]
                await self.writes.write(
                    "a cash-out",
                    partial(self.store.cash_out, self.name, account, e.stack, departed_at=time.time(),
                            fence=self.fence),
                )
                del self.accounts[e.player]
                self._chat_times.pop(e.player, None)
            elif type(e) is TimedOut and e.action == "protected":  # D7: a protection of the room's spent
                owner = self.accounts.get(e.player)
                if owner is not None:  # kept for the limit after a restart
                    await self._keep(f"the protection of {e.player} at {table.clock}",
                                     self.store.record_protection(owner, table.clock))
            elif type(e) is WaitingChanged:
                self._offer(e)
            elif type(e) is CardsRevealed and self._last_hand is not None and self._last_hand[0] == e.number:
                cards = "".join(map(str, e.cards))  # D12: shown after the last hand: kept in its history
                await self._keep(f"cards {cards} shown by seat {e.seat}",
                                 self.store.add_reveal(self._last_hand[1], e.seat, cards))
            out.append(e)
        return out

    async def _after_pause(self) -> None:
        """Say that the table's clocks moved on by the time it was paused (the turn that
        was running, with its new deadline)."""
        events, self.writes.resumed = self.writes.resumed, []
        await self._publish(events)

    def _to_newcomer(self, viewer: Viewer, everyone: str, parts: dict[str, PlayerPart]) -> None:
        """A batch to the connection that began watching in the command being handled."""
        player = viewer.player
        part = parts.get(player) if player is not None else None
        viewer.send(part.events or everyone if part is not None else everyone)
        watcher = self.watchers[viewer.key]
        if watcher.views:
            viewer.send(self.stream.snapshot(self.table, player))
        if part is not None and part.turn is not None:
            viewer.send(part.turn)

    def _broadcast(self, message: BaseModel) -> None:
        self.outlet.notice(self.name, self.epoch, message.model_dump_json())

    def _lose(self, quiet: bool = False) -> None:
        """The table's lease is another worker's (or given up: ``quiet``): stop (nothing
        more is written or dealt; the worker takes the runner off the bus: worker/room.py)."""
        if not self.lost and not quiet:
            log.warning("table %s: the lease (epoch %s) is no longer %s's: stopping", self.name, self.epoch,
                        self.worker)
        self.lost = True
        self.clock.stop()

    def _offer(self, e: WaitingChanged) -> None:
        """Tell each player a seat is newly held for, wherever he is (``seat_offered``)."""
        waiting = self._waiting
        for player in e.offered:
            account = waiting.get(player)
            if account is not None:
                until = dict(e.offers)[player]
                self.outlet.to_player(account, p.SeatOffered(table=self.name, until=until).model_dump_json())
        for player in [n for n in waiting if n not in e.waiting]:
            del waiting[player]

    async def _keep(self, what: str, write: Awaitable[None]) -> None:
        """Keep a record of no chip (D7's protection, on the clock's path, in the room's limit
        in memory already; D12's cards shown after a hand, in its history): a failure is
        logged, not allowed to hold up the events."""
        try:
            await write
        except Exception as e:
            log.warning("table %s: %s was not stored: %r", self.name, what, e)

    def _send_turn(self, viewer: Viewer) -> None:
        actor = turn_player(self.table)  # whose clock runs (table/view.py)
        if actor is not None and viewer.player == actor:
            viewer.send(self._turn_text())

    def _turn_text(self) -> str:
        """The ``your_turn`` message of the player whose turn it is (``turn_player``)."""
        turn = turn_view(self.table)
        assert turn is not None
        return turn_text(self.name, turn)

    async def _store_hand(self, finished: HandFinished) -> None:
        table = self.table
        hand = table.hand
        assert hand is not None and self.hand_id is not None and self._dealt is not None
        accounts = [self.accounts[n] for n in table.hand_players]  # those who left at its end too
        results = [
            (a, net, stack)
            for a, (_, net), (_, stack) in zip(accounts, finished.net, finished.stacks, strict=True)
        ]
        history = hand_history(self.name, table, finished, self._dealt, self._started_at, self._game)
        memory = json.dumps(remember(table) | {"version": self.stream.version}, separators=(",", ":"))
        await self.writes.write(  # the hands row's phh and text columns stay NULL
            "the end of a hand",
            partial(
                self.store.finish_hand,
                self.hand_id, self.name, results, salt="", deck=self._cards, history=history,
                fence=self.fence, number=finished.number, memory=memory,
            ),
        )
        pots = sum(e.amount for e in hand.events if type(e) is PotAwarded)
        self.lobby.hand_finished(pots, self._started_at)
        self._last_hand = (finished.number, self.hand_id)
        self.hand_id = None

    async def close(self, timeout: float = 10.0) -> None:
        """End the table's task between two steps, its writes done (a hand's result written
        before the lease is given up, never after: that write would be refused), then
        answer what is still queued 'table_moving'. Past ``timeout`` (a database away),
        stop it where it is."""
        self.closing = self.clock.draining = True  # no new hand in the step it is in either
        self.clock.release()
        if self.task is not None and not self.task.done():
            try:
                await asyncio.wait_for(asyncio.shield(self.task), timeout)
            except TimeoutError:
                log.warning("table %s: still busy after %g s: stopped where it was", self.name, timeout)
        await self.stop()

    async def stop(self) -> None:
        """Stop the table's task; the commands still queued are answered 'table_moving' (the
        gateway tries them again at the table's next owner)."""
        await cancel(self.task)
        self.refuse_queued()

    def refuse_queued(self) -> None:
        while self.inbox:
            _, command, reply = self.inbox.popleft()
            with contextlib.suppress(Exception):
                reply(p.Error(code="table_moving", message="the table is moving to another server: "
                              "try again in a moment", id=command.id))


def _ahead_of_settlement(events: Sequence[Published]) -> Sequence[Published]:
    """The actions that lead a batch ending a hand (a fold, a call, the clock's fold): what
    may go out before the hand's settlement is committed. Empty when the batch ends no hand
    or has nothing after its actions."""
    n = 0
    while n < len(events) and type(events[n]) in (Acted, TimedOut):
        n += 1
    return events[:n] if any(type(e) is HandFinished for e in events[n:]) else ()
