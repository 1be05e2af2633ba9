"""The worker's side of the room: the tables it owns, each one's task, the room's one limit
on all-in protections (D7) that they share, and the leases that say which tables are its
(store/leases.py). Clients reach the tables through the bus, never here; sessions and
logins are the gateway's (gateway/sessions.py).

Twice a second the worker renews its leases by the database's clock, drops the tables
whose lease another worker claimed, and claims free or expired tables up to its share
(the tables over the workers alive); over its share (a worker joined), it marks tables
that deal no new hand and releases each once its hand ends. A round's claims and
releases stop after ``ROUND_BUDGET`` (the next round renews first). A table it claims is
taken over as of its last settled hand (``TableRunner.take_over``): the hand an old
owner left unfinished is void and every player keeps his seat. A worker that cannot
renew stops dealing and refuses commands when its lease would end by its own clock
(``lease_ok``), before another can claim. Each round also reads the all-in protections
(D7) given at the other workers' tables into the room's one limit. Stopping, it lets
the hands being played finish for up to ``drain`` seconds, then gives its tables up, so
that the others claim them at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from pokerroom.config import RoomConfig, TemplateConfig
from pokerroom.loop import cancel
from pokerroom.store import Claim, Store, fair_share
from pokerroom.table import IDLE
from pokerroom.table.protection import ProtectionLimit
from pokerroom.worker.buyin import Settings
from pokerroom.worker.runner import TableRunner

log = logging.getLogger("pokerroom.worker")

LEASE_TTL = 3.0  # seconds a lease lasts after its renewal (by the database's clock)
RENEW_EVERY = 0.5  # seconds between renewals (and claims)
MARGIN = 0.75  # seconds before its lease ends by its own clock that a worker stops dealing
ROUND_BUDGET = 0.4  # seconds a round may spend claiming or handing over: renewals must go on
TEMPLATES_EVERY = 1.0  # seconds between looks at the templates' tables (issue 19)
PROTECTIONS_OVERLAP = 10.0  # seconds each reading of the others' protections goes back (late commits, clocks)


class Host(Protocol):
    """The bus's side of the worker (pokerroom.bus.tables.TableHost)."""

    def attach(self, runner: TableRunner) -> None: ...

    def detach(self, name: str) -> None: ...

    def closed(self, name: str) -> None: ...


class _NoHost:
    def attach(self, runner: TableRunner) -> None:
        pass

    def detach(self, name: str) -> None:
        pass

    def closed(self, name: str) -> None:
        pass


class Worker:
    def __init__(self, config: RoomConfig, store: Store, name: str = "serve", host: Host | None = None,
                 drain: float = 0.0) -> None:
        self.config = config
        self.store = store
        self.name = name
        self.host: Host = host or _NoHost()
        self.drain = drain
        self.settings = Settings.of(config)
        self.tables = {t.name: t for t in config.tables}  # and the templates' tables open now
        self._templates_at = -TEMPLATES_EVERY  # by time.monotonic(): when they were last looked at
        self._empty_since: dict[str, float] = {}  # a template's table of this worker -> empty since
        # D7: ONE limit on all-in protections for every table of the room: this worker's
        # tables share it, and the others' uses are read into it every round
        self.protections = ProtectionLimit(config.max_protections, config.protection_window)
        self._protections_read = 0.0  # when the protections given in the room were last read
        self.runners: dict[str, TableRunner] = {}
        self._valid_until = 0.0  # by time.monotonic(): when its leases end, as far as it knows
        self._task: asyncio.Task[None] | None = None
        self._room_task: asyncio.Task[None] | None = None
        self.stopping = False

    def lease_ok(self) -> bool:
        return time.monotonic() < self._valid_until

    async def start(self) -> None:
        await self.store.migrate()
        await self.store.declare_tables(list(self.tables))
        await self._templates()
        # a table the room no longer has (renamed, removed from the config): its seats' chips
        # go back to their owners' balances
        await self.store.return_seats_elsewhere(list(self.tables))
        self._protections_read = time.time() - self.config.protection_window
        await self._read_protections()
        while await self._round():  # its share claimed (or all it can) before it serves
            pass
        # renewals in a task of their own: nothing else the worker reads or writes may delay
        # them (a burst of thousands sitting down kept the database's reading of the
        # protections waiting for seconds, and the room's tables refused every command as
        # moving meanwhile); the others' protections and the templates' tables beside them
        loop = asyncio.get_running_loop()
        self._task = loop.create_task(self._every("renewing leases", self._round),
                                      name=f"leases of {self.name}")
        room = self._every("reading the room", self._read_protections, self._templates)
        self._room_task = loop.create_task(room, name=f"room of {self.name}")

    async def _every(self, what: str, *steps: Callable[[], Awaitable[object]]) -> None:
        """``steps`` in turn every ``RENEW_EVERY`` seconds; a failure (the database away) is
        logged and tried again next time (leases not renewed run out by our own clock)."""
        while True:
            await asyncio.sleep(RENEW_EVERY)
            try:
                for step in steps:
                    await step()
            except Exception as e:
                log.warning("worker %s: %s failed: %r", self.name, what, e)

    async def _read_protections(self) -> None:
        """The protections (D7) given at any worker's tables since the last reading: the
        room's limit is one count across its tables, and a player may sit at tables of
        several workers. Each reading goes back ``PROTECTIONS_OVERLAP`` seconds (a use
        read twice counts once), so another worker's protection counts here within a
        round of being written."""
        now = time.time()
        given = await self.store.protection_uses(self._protections_read - PROTECTIONS_OVERLAP)
        for player, times in given.items():
            self.protections.load(player, times)
        self._protections_read = now  # once read: a failed reading is made again

    async def _round(self) -> bool:
        """Renew, drop what was lost, claim up to the share; whether the round's time ran
        out with more to claim."""
        started = time.monotonic()
        alive = await self.store.heartbeat(self.name, LEASE_TTL)
        held = await self.store.renew(self.name, LEASE_TTL)
        self._valid_until = started + LEASE_TTL - MARGIN
        for name, runner in list(self.runners.items()):
            if runner.lost or held.get(name) != runner.epoch:
                self._drop(name)
        if self.stopping:
            return False
        share = fair_share(len(self.tables), alive)
        self._mark_leaving(len(self.runners) - share)
        if len(self.runners) > share:  # another worker came: the tables over the share go to it
            await self._hand_over(started)
            return False
        if len(self.runners) >= share:
            return False
        for name in await self.store.claimable(list(self.tables), self.name):
            if len(self.runners) >= share:
                break
            if time.monotonic() - started > ROUND_BUDGET:
                return True  # the next round claims more (with the workers alive counted again)
            if name in self.runners:
                continue
            claim = await self.store.claim(self.name, name, LEASE_TTL)
            if claim is not None:
                self._start(claim)
        return False

    async def _templates(self) -> None:
        """Tables that open themselves (issue 19), every ``TEMPLATES_EVERY`` seconds: open
        the next table of a template that has fewer than ``min_free`` with a free seat, close
        this worker's surplus tables empty for ``close_after``, and learn the tables open
        now (others' workers open and close them too: a name is opened once, whoever asks)."""
        if not self.config.templates or time.monotonic() - self._templates_at < TEMPLATES_EVERY:
            return
        self._templates_at = time.monotonic()
        opened = await self.store.open_tables()
        for template in self.config.templates:
            seated = await self.store.seated_at(template.name)
            free = [name for name, n in seated.items() if n < template.table.seats]
            if len(free) < template.min_free and len(seated) < template.max_tables:
                number = next(k for k in range(1, template.max_tables + 1)
                              if template.table_name(k) not in seated)
                name = template.table_name(number)
                await self.store.open_table(name, template.name)
                opened[name] = template.name
                free.append(name)
                log.info("worker %s: opened table %s (%d of its template with a free seat)", self.name, name,
                         len(free))
            for name in await self._close_surplus(template, seated, len(free) - template.min_free):
                opened.pop(name, None)
        tables = {t.name: t for t in self.config.tables}
        for name, template_name in opened.items():
            config = self.config.table_config(name) if template_name is not None else None
            if config is not None and config.template == template_name:
                tables[name] = config
        self.tables = tables | {name: runner.config for name, runner in self.runners.items()}

    async def _close_surplus(self, template: TemplateConfig, seated: dict[str, int],
                             surplus: int) -> list[str]:
        """Close this worker's tables of ``template`` empty for ``close_after`` seconds, the
        highest numbers first, while more than ``min_free`` have a free seat; those closed."""
        now, closed = time.monotonic(), []
        # the lowest-numbered tables with a free seat stay, whoever owns them: two workers
        # closing at once never close them all, and the room keeps '#1' open
        free = sorted((n for n, k in seated.items() if k < template.table.seats),
                      key=lambda n: template.number_of(n) or 0)
        kept = set(free[: template.min_free])
        mine = sorted((n for n in self.runners if template.number_of(n) is not None and n not in kept),
                      key=lambda n: template.number_of(n) or 0, reverse=True)
        for name in mine:
            runner = self.runners[name]
            table = runner.table
            busy = table.seats or table.phase != IDLE or len(table.waiting) or runner.writes.paused
            if busy or seated.get(name):
                self._empty_since.pop(name, None)
                continue
            since = self._empty_since.setdefault(name, now)
            if surplus <= 0 or now - since < template.close_after:
                continue
            epoch = runner.epoch
            await runner.close()
            self._empty_since.pop(name, None)
            if not self._drop(name, quiet=True, only=runner):  # lost or handed over meanwhile
                continue
            if await self.store.close_table(self.name, name, epoch):
                self.host.closed(name)
                closed.append(name)
                surplus -= 1
                log.info("worker %s: closed table %s (empty, %d others free)", self.name, name, surplus)
            else:  # somebody sat down meanwhile (or it is another's): served again by whoever claims it
                await self.store.release(self.name, name, epoch)
        return closed

    def _start(self, claim: Claim) -> None:
        runner = TableRunner(self.tables[claim.table], self.store, self.settings,
                             protections=self.protections, worker=self.name, lease_ok=self.lease_ok)
        runner.take_over(claim)
        self.runners[claim.table] = runner
        self.host.attach(runner)
        runner.task = asyncio.get_running_loop().create_task(runner.run(), name=f"table {claim.table}")
        if claim.voided:
            log.warning("worker %s: took table %s over (epoch %s); voided hand(s) %s", self.name, claim.table,
                        claim.epoch, [n for _, n in claim.voided])

    def _drop(self, name: str, quiet: bool = False, only: TableRunner | None = None) -> bool:
        """Stop serving ``name``, if it is still served (by ``only``, when given): the
        renewals' task and the room's may both let a table go, each after an await. Whether
        it was dropped now."""
        runner = self.runners.get(name)
        if runner is None or (only is not None and runner is not only):
            return False
        del self.runners[name]
        runner._lose(quiet)
        self.host.detach(name)
        if runner.task is not None:
            runner.task.cancel()
        runner.refuse_queued()
        return True

    def _mark_leaving(self, excess: int) -> None:
        """Mark ``excess`` tables to be handed over (idle ones first): they deal no new hand
        and go once the hand in play ends. Fewer over the share (a worker left again):
        those marked too many deal on."""
        if self.stopping:
            return
        leaving = [r for r in self.runners.values() if r.clock.draining]
        if len(leaving) > max(0, excess):
            back = len(leaving) - max(0, excess)
            for runner in sorted(leaving, key=lambda r: r.table.phase == IDLE)[:back]:
                runner.clock.draining = False
        elif len(leaving) < excess:
            staying = sorted((r for r in self.runners.values() if not r.clock.draining),
                             key=lambda r: r.table.phase != IDLE)
            for runner in staying[: excess - len(leaving)]:
                runner.clock.draining = True

    async def _hand_over(self, started: float) -> None:
        """Give up the marked tables that are between hands (more than its share: a worker
        joined), as many as the round's time allows; the others in later rounds."""
        for name, runner in list(self.runners.items()):
            if time.monotonic() - started > ROUND_BUDGET:
                return
            if runner.clock.draining and runner.table.phase == IDLE and runner.writes.paused is None:
                epoch = runner.epoch
                await runner.close()  # its last hand's result written first
                if not self._drop(name, quiet=True, only=runner):  # closed as surplus, or lost, meanwhile
                    continue
                await self.store.release(self.name, name, epoch)
                log.info("worker %s: handed table %s over (epoch %s)", self.name, name, epoch)

    async def stop(self) -> None:
        """Let the hands being played end (up to ``drain`` seconds), then give every table
        up: the other workers claim them at once."""
        self.stopping = True
        if self.drain > 0:
            for runner in self.runners.values():
                runner.clock.draining = True
            deadline = time.monotonic() + self.drain
            while time.monotonic() < deadline and any(r.table.phase != IDLE for r in self.runners.values()):
                await asyncio.sleep(0.1)
        for task in (self._task, self._room_task):
            await cancel(task)
        self._task = self._room_task = None
        for name, runner in list(self.runners.items()):
            epoch = runner.epoch
            await runner.close()
            self._drop(name, quiet=True)
            with contextlib.suppress(Exception):
                await self.store.release(self.name, name, epoch)
        with contextlib.suppress(Exception):
            await self.store.gone(self.name)
