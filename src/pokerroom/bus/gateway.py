"""The bus's side of a gateway: the tables reached by their subjects, their events fanned
out to the connections that watch them (DESIGN.md, the split of lila and lila-ws).

A command goes to its table's owner as a request; the answer is the client's. Nobody owns
the table (its worker stopped, another is taking it over): the client is told the table
is moving and the command is tried again with backoff. The gateway subscribes to a
table's subject while one of its connections watches the table, and to a player's
subject while one of his connections is here: it receives no hidden card of a player it
does not serve.

Each table's batches carry ``(epoch, version)``: a batch seen already, or from an older
epoch (a paused old owner that woke up), is dropped; on a gap or a new epoch every
watching connection is subscribed again, which sends it a snapshot: the client sees
nothing but a redraw. The lobby is every worker's lines, pushed to lobby watchers at most
once a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel, ValidationError

from pokerroom import protocol as p
from pokerroom.bus.messages import (
    Alive,
    Caller,
    LobbyRows,
    PlayerBatch,
    PlayerNotice,
    Request,
    Response,
    TableBatch,
    Unwatch,
    alive_subject,
    command_subject,
    events_subject,
    gone_subject,
    lobby_subject,
    player_subject,
)
from pokerroom.bus.transport import BusDown, BusTimeout, NoResponders, Subscription, Transport
from pokerroom.loop import cancel

log = logging.getLogger("pokerroom.bus")

LOBBY_EVERY = 1.0  # seconds: at most one lobby update so often
OWN_WAIT = 1.0  # seconds a batch waits for a player's own part before the table is resynced
ALIVE_EVERY = 3.0  # seconds between this gateway's "alive" (workers forget a silent one's watchers)
REQUEST_TIMEOUT = 30.0  # seconds a table may take to answer (it may wait for its database)
RETRY = (0.1, 0.2, 0.4, 0.8, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0)  # a moving table: ~10 s in all

Reply = Callable[[Any], None]  # gets the answer: its text, or a model
_MOVING = '"code":"table_moving"'  # in an answer: the table is leaving its worker


class Client(Protocol):
    """A gateway connection, as the router sees it (gateway/connection.py)."""

    player: str | None
    account_id: int | None

    def send(self, message: BaseModel | str) -> None: ...

    def charge(self, cost: float) -> None: ...


@dataclass(eq=False)
class _Conn:
    client: Client
    number: int
    tables: dict[str, bool] = field(default_factory=dict)  # watched table -> wants views
    waits: bool = False  # on a waiting list: it listens to its player's messages while it lives
    # a command that may start watching a table is out: the table's batches meanwhile (with
    # this player's own part of each, if he had one), kept until its answer says from which
    # version on they are news to this connection
    pending: dict[str, list[tuple[TableBatch, PlayerBatch | None]]] = field(default_factory=dict)


@dataclass(eq=False)
class _Table:
    epoch: int = 0  # 0: not known yet
    version: int = 0
    watchers: dict[int, _Conn] = field(default_factory=dict)
    pending: dict[int, _Conn] = field(default_factory=dict)  # whose command is out (_Conn.pending)
    sub: Subscription | None = None
    # the batches received, in the table's order, each waiting until the own parts of the
    # players it names who watch here have come too (they come on other subscriptions, whose
    # messages the client may hand over in another order): (epoch, version) -> player -> part
    queue: deque[TableBatch] = field(default_factory=deque)
    own: dict[tuple[int, int], dict[str, PlayerBatch]] = field(default_factory=dict)
    stuck: asyncio.TimerHandle | None = None


@dataclass(eq=False)
class _Player:
    sub: Subscription
    conns: dict[int, _Conn] = field(default_factory=dict)


class Router:
    def __init__(self, transport: Transport, prefix: str, name: str) -> None:
        self.transport = transport
        self.prefix = prefix
        self.name = name
        # connection numbers: unique across this gateway's restarts too (workers key watchers by them)
        self._numbers = itertools.count(int(time.time() * 1000) % 10**13)
        self._conns: dict[Client, _Conn] = {}
        self._tables: dict[str, _Table] = {}
        self._players: dict[int, _Player] = {}
        self._rows: dict[str, p.LobbyRow] = {}
        self._rows_data: dict[str, Any] = {}  # each line as it came, to see what a full round changed
        self._lobby: set[Client] = set()
        self._lobby_dirty = asyncio.Event()
        self._lobby_task: asyncio.Task[None] | None = None
        self._lobby_sub: Subscription | None = None

    # ------------------------------------------------------------------ commands

    def submit(self, client: Client, command: p.TableCommand, reply: Reply) -> None:
        """Send ``command`` to its table; ``reply`` gets the answer once the table handled it
        (in one process, in the same turn of the event loop as the table's reply)."""
        conn = self._conn(client)
        if isinstance(command, p.Subscribe | p.Sit):  # listen before asking: no batch falls between
            self._listen(command.table, conn)
        elif isinstance(command, p.JoinWaiting):  # a seat offered must reach him wherever he is
            conn.waits = True
            self._listen_player(conn)
            if command.table not in conn.tables:
                self._hold(command.table, conn)
        self._send(conn, command, reply, 0, False)

    def _conn(self, client: Client) -> _Conn:
        conn = self._conns.get(client)
        if conn is None:
            conn = self._conns[client] = _Conn(client, next(self._numbers))
        return conn

    def _hold(self, name: str, conn: _Conn) -> None:
        """Keep the table's batches for ``conn`` until its command's answer (_answered)."""
        conn.pending.setdefault(name, [])
        self._tables[name].pending[conn.number] = conn

    def _send(self, conn: _Conn, command: p.TableCommand, reply: Reply, attempt: int, resync: bool) -> None:
        """One try of ``command`` at its table; a table between owners is tried again with
        backoff (``RETRY``), the client told once that it is moving."""
        client = conn.client
        request = Request(Caller(self.name, conn.number, client.player, client.account_id), command)

        def answered(response: Response) -> None:
            if _MOVING in response.answer:  # the worker is giving the table up: its next owner is asked
                self._again(conn, command, reply, attempt, resync)
                return
            self._answered(command.table, conn, response)
            reply(response.answer)

        def failed(error: Exception) -> None:
            name = command.table
            if isinstance(error, NoResponders) and name not in self._rows:
                self._abandon(name, conn)
                reply(p.Error(code="unknown_table", message=f"no table named {name!r}", id=command.id))
            elif isinstance(error, BusTimeout):
                self._abandon(name, conn)
                reply(p.Error(code="table_unavailable", message="the table did not answer in time",
                              id=command.id))
            else:  # nobody serves it now, or the bus is away: again, a little later
                self._again(conn, command, reply, attempt, resync)

        self.transport.call(command_subject(self.prefix, command.table), request, answered, failed,
                            REQUEST_TIMEOUT)

    def _again(self, conn: _Conn, command: p.TableCommand, reply: Reply, attempt: int, resync: bool) -> None:
        if attempt >= len(RETRY):
            self._abandon(command.table, conn)
            reply(p.Error(code="table_unavailable", message="no server took the table over in time: "
                          "try again later", id=command.id))
            return
        if attempt == 0 and not resync:
            conn.client.send(p.TableMoving(table=command.table, retry_for=sum(RETRY)))
        asyncio.get_running_loop().call_later(RETRY[attempt], self._send, conn, command, reply, attempt + 1,
                                              resync)

    def _abandon(self, name: str, conn: _Conn) -> None:
        """The command got no answer from the table: stop what it started listening to (a
        watcher whose resync failed watches on: its client sees the gap and asks again)."""
        conn.pending.pop(name, None)
        table = self._tables.get(name)
        if table is not None:
            table.pending.pop(conn.number, None)
            if name in conn.tables:
                table.watchers[conn.number] = conn
        self._unlisten(name, conn)

    def _answered(self, name: str, conn: _Conn, response: Response) -> None:
        kept = conn.pending.pop(name, None)
        table = self._tables.get(name)
        if table is not None:
            table.pending.pop(conn.number, None)
        client = conn.client
        for text in response.sends:
            client.send(text)
        if response.charge:
            client.charge(response.charge)
        if response.watching is True:
            self._watch(name, conn, response.views)
            for batch, part in kept or ():  # what came while the command was out, after what it sent
                if batch.epoch == response.epoch and batch.version > response.version:
                    self._deliver(name, conn, batch, part)
        elif response.watching is False:
            self._unwatch(name, conn)
        elif name not in conn.tables:
            self._unlisten(name, conn)

    async def buy_in(self, table: str, account_id: int, now: float) -> dict[str, Any] | None:
        """What the player may sit down with at ``table`` now; None: no such table."""
        request = Request(Caller(self.name, 0, None, account_id), ask="buy_in", at=now)
        for delay in (*RETRY[:6], None):
            try:
                response: Response = await self.transport.request(
                    command_subject(self.prefix, table), request, REQUEST_TIMEOUT)
                return response.data
            except NoResponders:
                if table not in self._rows:
                    return None
            except (BusTimeout, BusDown):
                pass
            if delay is None:
                break
            await asyncio.sleep(delay)
        return None

    # ------------------------------------------------------------------ who watches what

    def _listen(self, name: str, conn: _Conn) -> None:
        """Receive ``name``'s batches (and the player's own) from now on."""
        table = self._tables.get(name)
        if table is None:
            table = self._tables[name] = _Table()
            table.sub = self.transport.subscribe(events_subject(self.prefix, name), self._on_table)
        self._listen_player(conn)

    def _listen_player(self, conn: _Conn) -> None:
        account = conn.client.account_id
        if account is not None:
            player = self._players.get(account)
            if player is None:
                sub = self.transport.subscribe(player_subject(self.prefix, account), self._on_player)
                player = self._players[account] = _Player(sub)
            player.conns[conn.number] = conn

    def _watch(self, name: str, conn: _Conn, views: bool) -> None:
        self._listen(name, conn)
        conn.tables[name] = views
        self._tables[name].watchers[conn.number] = conn

    def _unwatch(self, name: str, conn: _Conn) -> None:
        conn.tables.pop(name, None)
        table = self._tables.get(name)
        if table is not None:
            table.watchers.pop(conn.number, None)
        self._unlisten(name, conn)

    def _unlisten(self, name: str, conn: _Conn) -> None:
        """Stop receiving what nobody here needs any more."""
        table = self._tables.get(name)
        if table is not None and not table.watchers and name not in conn.tables:
            if table.sub is not None:
                table.sub.unsubscribe()
            del self._tables[name]
        account = conn.client.account_id
        if account is not None and not conn.tables and not conn.waits:
            player = self._players.get(account)
            if player is not None:
                player.conns.pop(conn.number, None)
                if not player.conns:
                    player.sub.unsubscribe()
                    del self._players[account]

    def watching(self, client: Client) -> set[str]:
        """The tables whose events ``client`` gets."""
        conn = self._conns.get(client)
        return set() if conn is None else set(conn.tables)

    def disconnected(self, client: Client) -> None:
        """The connection went: it stops watching the lobby and its tables (a seated player
        keeps his seat, and his clock runs as usual)."""
        self._lobby.discard(client)
        conn = self._conns.pop(client, None)
        if conn is None:
            return
        for name in list(conn.tables):
            self.transport.publish(gone_subject(self.prefix, name), Unwatch(self.name, conn.number))
            self._unwatch(name, conn)
        account = client.account_id
        player = self._players.get(account) if account is not None else None
        if player is not None:
            player.conns.pop(conn.number, None)
            if not player.conns:
                player.sub.unsubscribe()
                del self._players[account]  # type: ignore[arg-type]

    # ------------------------------------------------------------------ events in

    def _on_table(self, batch: TableBatch) -> None:
        table = self._tables.get(batch.table)
        if table is None or batch.epoch < table.epoch:
            return  # not watched here, or a stale owner's
        if batch.version < 0:  # a notice: to every watcher
            if batch.notice is not None and batch.epoch == table.epoch:
                for conn in table.watchers.values():
                    conn.client.send(batch.notice)
            return
        table.queue.append(batch)
        self._drain(batch.table, table)

    def _on_player(self, batch: PlayerBatch | PlayerNotice) -> None:
        if type(batch) is PlayerNotice:
            player = self._players.get(batch.account_id)
            for conn in list(player.conns.values()) if player is not None else ():
                conn.client.send(batch.text)
            return
        assert type(batch) is PlayerBatch
        table = self._tables.get(batch.table)
        if table is None or batch.epoch < table.epoch or (
                batch.epoch == table.epoch and batch.version <= table.version):
            return
        table.own.setdefault((batch.epoch, batch.version), {})[batch.player] = batch
        if table.queue:
            self._drain(batch.table, table)

    def _drain(self, name: str, table: _Table) -> None:
        """Hand out the table's batches in order, each once the own parts it needs came."""
        while table.queue:
            batch = table.queue[0]
            if table.epoch == 0:  # the first batch seen here: the chain starts with it
                table.epoch, table.version = batch.epoch, batch.prev
            if batch.epoch == table.epoch and batch.version <= table.version:
                table.queue.popleft()  # seen already
                continue
            if batch.epoch > table.epoch or batch.prev != table.version:  # a new owner, or a gap
                table.queue.popleft()
                table.epoch, table.version = batch.epoch, batch.version
                self._forget_own(table)
                self._resync(name, table)
                continue
            parts = table.own.get((batch.epoch, batch.version), {})
            if batch.covered:
                here = {c.client.player for c in (*table.watchers.values(), *table.pending.values())}
                if any(p in here and p not in parts for p in batch.covered):
                    if table.stuck is None:  # it should come at once; if not, start afresh
                        table.stuck = asyncio.get_running_loop().call_later(OWN_WAIT, self._unstick, name)
                    return
            if table.stuck is not None:
                table.stuck.cancel()
                table.stuck = None
            table.queue.popleft()
            table.version = batch.version
            table.own.pop((batch.epoch, batch.version), None)
            for conn in table.watchers.values():
                self._deliver(name, conn, batch, parts.get(conn.client.player or ""))
            for conn in table.pending.values():
                conn.pending[name].append((batch, parts.get(conn.client.player or "")))
        self._forget_own(table)

    def _forget_own(self, table: _Table) -> None:
        done = [k for k in table.own if k[0] < table.epoch or (k[0] == table.epoch and k[1] <= table.version)]
        for key in done:
            del table.own[key]

    def _unstick(self, name: str) -> None:
        """A player's own part never came (lost while his subscription was being made): the
        table's watchers start afresh from snapshots."""
        table = self._tables.get(name)
        if table is None or not table.queue:
            return
        table.stuck = None
        last = table.queue[-1]
        table.queue.clear()
        table.epoch, table.version = last.epoch, last.version
        self._forget_own(table)
        self._resync(name, table)

    def _deliver(self, name: str, conn: _Conn, batch: TableBatch, part: PlayerBatch | None) -> None:
        client = conn.client
        views = conn.tables.get(name)
        if part is not None:  # his own part: his cards, his snapshot, his turn
            if part.events is not None:
                client.send(part.events)
            if part.snapshot is not None and views:
                client.send(part.snapshot)
            if part.turn is not None:
                client.send(part.turn)
            return
        if batch.events is not None:
            client.send(batch.events)
        if batch.snapshot is not None and views:
            client.send(batch.snapshot)

    def _resync(self, name: str, table: _Table) -> None:
        """A gap or a new owner: every watcher subscribes again (a snapshot each); till the
        answer comes, what the table sends waits for it (``_Conn.pending``)."""
        for conn in list(table.watchers.values()):
            del table.watchers[conn.number]
            command = p.Subscribe(type="subscribe", table=name, snapshots=conn.tables.get(name, False))
            self._hold(name, conn)
            self._send(conn, command, _ignore, 0, True)

    # ------------------------------------------------------------------ the lobby

    def _on_lobby(self, message: LobbyRows) -> None:
        changed = False
        for name in message.gone:
            changed |= self._rows.pop(name, None) is not None
            self._rows_data.pop(name, None)
        for data in message.rows:
            known = self._rows_data.get(str(data.get("name"))) if type(data) is dict else None
            if known is not None and known == data:
                continue  # as it was (a worker's full round): nothing to validate or push
            try:
                row = p.LobbyRow.model_validate(data)
            except ValidationError:
                continue
            self._rows[row.name] = row
            self._rows_data[row.name] = data
            changed = True
        if changed:
            self._lobby_dirty.set()

    def lobby(self) -> list[p.LobbyRow]:
        """Every table's lobby line."""
        return list(self._rows.values())

    @property
    def table_count(self) -> int:
        return len(self._rows)

    def watch_lobby(self, client: Client) -> p.LobbyList:
        """The table list now; ``client`` gets its updates from then on."""
        self._lobby.add(client)
        return p.LobbyList(tables=self.lobby())

    def start(self) -> None:
        self._lobby_sub = self.transport.subscribe(lobby_subject(self.prefix), self._on_lobby)
        self._lobby_task = asyncio.get_running_loop().create_task(self._lobby_loop(), name="lobby")

    async def stop(self) -> None:
        task, self._lobby_task = self._lobby_task, None
        await cancel(task)

    async def _lobby_loop(self) -> None:
        alive_at = 0.0
        while True:  # at most one lobby update a second
            if time.monotonic() - alive_at >= ALIVE_EVERY:
                alive_at = time.monotonic()
                self.transport.publish(alive_subject(self.prefix), Alive(self.name))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._lobby_dirty.wait(), ALIVE_EVERY)
            if not self._lobby_dirty.is_set():
                continue
            self._lobby_dirty.clear()
            if self._lobby:  # nobody watching: a newcomer gets the list when he asks
                text = p.LobbyList(tables=self.lobby()).model_dump_json()
                for client in list(self._lobby):
                    client.send(text)
            await asyncio.sleep(LOBBY_EVERY)



def _ignore(answer: Any) -> None:
    """The answer to a resync's subscribe: the client asked for nothing."""
