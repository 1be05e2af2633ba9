"""The bus's side of a worker: it serves the subjects of the tables the worker owns and
publishes what they say (messages.py for the subjects), in one process or over NATS.

A request becomes a command submitted to the table's runner by a stand-in for the client
connection (``_Caller``), which collects what the table sends that connection alone (a
replay, a snapshot, its ``your_turn``) into the response. A batch of events is published
once for everybody on the table's subject and once per player who sees it otherwise (his
hole cards, his snapshot, his turn) on his own subject. The lobby lines of the worker's
tables go out at most once a second when they changed, and all of them every few seconds
(a gateway that starts learns every table within that time).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Hashable
from typing import Any

from pydantic import BaseModel, ValidationError

from pokerroom import protocol as p
from pokerroom.bus.messages import (
    Alive,
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
from pokerroom.bus.transport import Subscription, Transport
from pokerroom.loop import cancel
from pokerroom.worker.runner import TableRunner
from pokerroom.worker.viewer import OK, OK_TEXT, PlayerPart

log = logging.getLogger("pokerroom.bus")

LOBBY_EVERY = 1.0  # seconds: changed lines at most so often
LOBBY_ALL_EVERY = 3.0  # seconds: every line so often
GATEWAY_SILENT = 15.0  # seconds without a gateway's "alive" after which its watchers are forgotten


class _Caller:
    """A client connection as the table sees it, for one request."""

    __slots__ = ("account_id", "charged", "key", "player", "sends")

    def __init__(self, request: Request) -> None:
        caller = request.caller
        self.key: Hashable = (caller.gateway, caller.conn)
        self.player = caller.player
        self.account_id = caller.account_id
        self.sends: list[str] = []
        self.charged = 0.0

    def send(self, message: BaseModel | str) -> None:
        self.sends.append(message if type(message) is str else message.model_dump_json())  # type: ignore[union-attr]

    def charge(self, cost: float) -> None:
        self.charged += cost


class TableHost:
    def __init__(self, transport: Transport, prefix: str, worker: str) -> None:
        self.transport = transport
        self.prefix = prefix
        self.worker = worker
        self.runners: dict[str, TableRunner] = {}
        self._subs: dict[str, list[Subscription]] = {}
        self._dirty: set[str] = set()
        self._wake = asyncio.Event()
        self._lobby_task: asyncio.Task[None] | None = None
        self._gateways: dict[str, float] = {}  # gateway -> when it last said it is alive (monotonic)
        self._started_at = time.monotonic()
        self._alive_sub: Subscription | None = None

    # ------------------------------------------------------------------ tables

    def attach(self, runner: TableRunner) -> None:
        """Serve ``runner``'s table on the bus, and say that it has a new owner (its epoch):
        gateways resync their watchers with it."""
        name = runner.name
        runner.outlet = self
        self.runners[name] = runner
        transport, prefix = self.transport, self.prefix

        def on_request(request: Request, answer: Callable[[Response], None]) -> None:
            self._request(runner, request, answer)

        def on_gone(message: Unwatch) -> None:
            runner.unwatch((message.gateway, message.conn))

        self._subs[name] = [transport.serve(command_subject(prefix, name), on_request),
                            transport.subscribe(gone_subject(prefix, name), on_gone)]
        version = runner.stream.version
        transport.publish(events_subject(prefix, name), TableBatch(name, runner.epoch, version, version))
        self.lobby_changed(name)

    def detach(self, name: str) -> None:
        """Stop serving the table (its lease is gone or given up)."""
        self.runners.pop(name, None)
        for sub in self._subs.pop(name, ()):
            sub.unsubscribe()

    def closed(self, name: str) -> None:
        """The table was closed (a template's surplus table): off every lobby."""
        self.detach(name)
        self.transport.publish(lobby_subject(self.prefix), LobbyRows(self.worker, [], gone=[name]))

    def _request(self, runner: TableRunner, request: Request, answer: Callable[[Response], None]) -> None:
        if request.ask == "buy_in":
            asyncio.get_running_loop().create_task(self._buy_in(runner, request, answer))
            return
        command = request.command
        if isinstance(command, str):
            try:
                command = p.CLIENT.validate_json(command)
            except ValidationError:
                command = None
        if not isinstance(command, p.TableCommand):
            answer(Response(p.Error(code="bad_message", message="not a table command").model_dump_json()))
            return
        caller = _Caller(request)

        def reply(answered: Any) -> None:  # where the table is now: what the caller was sent covers it
            text = OK_TEXT if answered is OK else answered.model_dump_json()
            watcher = runner.watching(caller.key)
            answer(Response(text, caller.sends, caller.charged, runner.epoch, runner.stream.version,
                            watching=watcher is not None,
                            views=watcher is not None and watcher.views))

        runner.submit(caller, command, reply)

    async def _buy_in(self, runner: TableRunner, request: Request,
                      answer: Callable[[Response], None]) -> None:
        account = request.caller.account_id
        if account is None:
            answer(Response(p.Error(code="login_required", message="log in first").model_dump_json()))
            return
        allowed = await runner.buy_in(account, request.at or time.time())
        left = allowed.rathole
        rathole = (None if left is None else
                   {"stack": left.stack, "left_at": left.at, "until": allowed.until})
        answer(Response(OK_TEXT, data={"min": allowed.low, "max": allowed.high, "rathole": rathole}))

    # ------------------------------------------------------------------ the runners' outlet

    def batch(self, table: str, epoch: int, prev: int, version: int, events: str | None,
              snapshot: str | None, players: dict[str, PlayerPart]) -> None:
        publish, prefix = self.transport.publish, self.prefix
        for player, part in players.items():  # before the public part: a gateway gets them first
            publish(player_subject(prefix, part.account_id),
                    PlayerBatch(table, player, part.account_id, epoch, version, part.events, part.snapshot,
                                part.turn))
        publish(events_subject(prefix, table), TableBatch(table, epoch, prev, version, events, list(players),
                                                          snapshot))

    def to_player(self, account_id: int, text: str) -> None:
        self.transport.publish(player_subject(self.prefix, account_id), PlayerNotice(account_id, text))

    def notice(self, table: str, epoch: int, text: str) -> None:
        notice = TableBatch(table, epoch, -1, -1, notice=text)
        self.transport.publish(events_subject(self.prefix, table), notice)

    def lobby_changed(self, table: str) -> None:
        self._dirty.add(table)
        self._wake.set()

    # ------------------------------------------------------------------ the lobby

    def lobby_rows(self, names: set[str] | None = None) -> LobbyRows:
        rows = [r.summary_data() for n, r in self.runners.items()
                if names is None or n in names]
        return LobbyRows(self.worker, rows)

    def publish_lobby(self) -> None:
        """Every line now (a worker's start, and the loop's full rounds)."""
        self._dirty.clear()
        self.transport.publish(lobby_subject(self.prefix), self.lobby_rows())

    def start(self) -> None:
        self._alive_sub = self.transport.subscribe(alive_subject(self.prefix), self._on_alive)
        self._lobby_task = asyncio.get_running_loop().create_task(self._lobby_loop(), name="lobby lines")

    def _on_alive(self, message: Alive) -> None:
        self._gateways[message.gateway] = time.monotonic()

    def forget_silent_gateways(self) -> None:
        """Drop the watchers of gateways gone silent (stopped without saying goodbye for
        their connections): their snapshots are no longer made for nobody."""
        now = time.monotonic()
        silent = {g for g, at in self._gateways.items() if now - at > GATEWAY_SILENT}
        for g in silent:
            del self._gateways[g]
        for runner in self.runners.values():
            for key in [k for k in runner.watchers
                        if isinstance(k, tuple) and (k[0] in silent or k[0] not in self._gateways)]:
                runner.unwatch(key)

    async def stop(self) -> None:
        task, self._lobby_task = self._lobby_task, None
        await cancel(task)
        if self._alive_sub is not None:
            self._alive_sub.unsubscribe()
        for name in list(self._subs):
            self.detach(name)

    async def _lobby_loop(self) -> None:
        last_all = self._started_at = time.monotonic()
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), LOBBY_ALL_EVERY)
            self._wake.clear()
            try:
                if time.monotonic() - last_all >= LOBBY_ALL_EVERY:
                    last_all = time.monotonic()
                    self.publish_lobby()
                    if self._started_at + GATEWAY_SILENT < last_all:  # every gateway has spoken by now
                        self.forget_silent_gateways()
                elif self._dirty:
                    dirty, self._dirty = self._dirty, set()
                    self.transport.publish(lobby_subject(self.prefix), self.lobby_rows(dirty))
            except Exception:
                log.exception("publishing the lobby failed")
            await asyncio.sleep(LOBBY_EVERY)
