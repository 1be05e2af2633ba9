"""The players' statistics folded forward from the stored hands, so that a page reads a
few rows however many hands its player has (``PlayerStats``).

The journal's write path is not touched: the hands are read after they are committed,
counted (counting.py) outside any transaction, and their counts added in one short write
transaction per batch (``fold_once``). That transaction first moves the one cursor row
(store/schema.py ``stats_cursor``) from the version it read to the next: two folders (two
gateways, or a page and the periodic fold) never count a hand twice; the one that lost
the race drops its batch, and the next fold reads on from where the winner stopped.

Hands may commit out of id order (another table's hand started later and ended first;
another worker's journal): a hand found still 'playing', and an id skipped over (not
committed yet, or never: a rolled-back start; within ``GAP_WINDOW`` of the newest id read),
are kept ``pending`` with the time first
seen and looked at again by every fold: counted once complete, dropped once void, a
skipped id dropped after ``GAP_PATIENCE`` seconds.
"""

from __future__ import annotations

import asyncio
import json
import time
import zlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from sqlalchemy import bindparam, insert, select, text, update
from sqlalchemy.ext.asyncio import AsyncConnection

from pokerroom.store.database import Database
from pokerroom.store.schema import hand_players, hands, player_stats, stats_cursor, stats_graphs
from pokerroom.store.stats.counting import CountedHand, NotCountable, count_hand
from pokerroom.store.stats.graph import Graph

BATCH = 500  # hands read and counted per write transaction
GAP_PATIENCE = 600.0  # seconds an id skipped over is looked for before it is given up
GAP_WINDOW = 1_000  # ids skipped over are looked for only this close to the newest one read
MAX_PENDING = 10_000  # pending ids kept at most (the oldest go first)
COUNTERS = ("hands", "vpip", "pfr", "three_bet", "three_bet_chances", "bets", "calls", "saw_flop",
            "showdowns", "showdowns_won", "net", "net_showdown")


@dataclass(slots=True)
class Counters:
    """One row of ``player_stats``: a player's counters at one game and stakes."""

    game: str
    stakes: str
    bb: int
    hands: int = 0
    vpip: int = 0
    pfr: int = 0
    three_bet: int = 0
    three_bet_chances: int = 0
    bets: int = 0
    calls: int = 0
    saw_flop: int = 0
    showdowns: int = 0
    showdowns_won: int = 0
    net: int = 0
    net_showdown: int = 0

    def add(self, hand: CountedHand, seat: int) -> None:
        f = hand.seats[seat]
        self.hands += 1
        self.vpip += f.vpip
        self.pfr += f.pfr
        self.three_bet += f.three_bet
        self.three_bet_chances += f.three_bet_chance
        self.bets += f.bets
        self.calls += f.calls
        self.saw_flop += f.saw_flop
        self.showdowns += f.showdown
        self.showdowns_won += f.won_showdown
        self.net += f.net
        self.net_showdown += f.net if f.showdown else 0

    def values(self) -> dict[str, int]:
        return {name: getattr(self, name) for name in COUNTERS}


_FIELDS = tuple(f.name for f in fields(Counters))
_TRY_LOCK = text("SELECT pg_try_advisory_xact_lock(:key)")
_BUMP = (
    update(player_stats)
    .where(player_stats.c.account_id == bindparam("b_account"), player_stats.c.game == bindparam("b_game"),
           player_stats.c.stakes == bindparam("b_stakes"))
    .values({name: player_stats.c[name] + bindparam(f"b_{name}") for name in COUNTERS})
)
_SET_GRAPH = (
    update(stats_graphs)
    .where(stats_graphs.c.account_id == bindparam("b_account"))
    .values(hands=bindparam("b_hands"), net=bindparam("b_net"), net_showdown=bindparam("b_net_showdown"),
            step=bindparam("b_step"), points=bindparam("b_points"))
)


@dataclass(slots=True)
class _Batch:
    """What one fold read and counted, before it is written."""

    version: int
    last: int
    pending: dict[str, float]
    counters: dict[tuple[int, str, str], Counters]
    graphs: dict[int, list[tuple[int, int]]]  # account -> (net, net at the showdown) in hand order
    changed: bool
    hands: int
    more: bool  # a full batch of new ids was read: more may be waiting


class PlayerStats:
    """The statistics of a store's players: ``fold`` the hands committed since the last
    fold, then read a player's counters (``counters``) and graph (``graph``)."""

    def __init__(self, store: Database, batch: int = BATCH) -> None:
        self.store = store
        self.batch = batch
        self._lock = asyncio.Lock()  # this process's folds, one at a time (others: the version)
        self.behind = False  # the last fold stopped at its budget with hands still to fold

    async def fold(self, budget: float | None = None) -> int:
        """Fold every hand committed since the last fold, batch by batch (or until
        ``budget`` seconds have passed); the number of hands counted."""
        started, total = time.monotonic(), 0
        while True:
            done = await self.fold_once()
            if done is None:  # another folder moved the cursor first: read on from there
                continue
            total += done[0]
            self.behind = done[1]
            if not done[1] or (budget is not None and time.monotonic() - started > budget):
                return total
            await asyncio.sleep(0)  # let the loop breathe between batches

    async def fold_unless_busy(self, budget: float | None = None) -> int | None:
        """``fold``, unless another process is folding this store right now (None: then
        this turn is skipped; the next one reads on from where that fold stopped). Every
        gateway runs a periodic fold; gateways whose turns coincide (started together,
        their timers in step) would read and count the same hands, and all but one throw
        their batch away at the cursor: twice the work at 2 gateways, a hundred times at
        a hundred. On PostgreSQL an advisory lock of the store's schema, held by the
        transaction of a connection kept for the fold (ended with it, or with the process),
        lets one fold at a time; SQLite is one process's (its folds: this object's lock)."""
        if self.store.sqlite:
            return await self.fold(budget)
        async with self.store.engine.connect() as conn:
            key = zlib.crc32(f"pokerroom stats fold {self.store.schema or ''}".encode())
            if not (await conn.execute(_TRY_LOCK, {"key": key})).scalar():
                return None
            return await self.fold(budget)

    async def fold_once(self, now: float | None = None) -> tuple[int, bool] | None:
        """One batch: (hands counted, whether more may be waiting); None when another
        folder moved the cursor first (nothing written)."""
        async with self._lock:
            batch = await self._read(time.time() if now is None else now)
            if not batch.changed:
                return 0, False
            if not await self._write(batch):
                return None
            return batch.hands, batch.more

    async def _read(self, now: float) -> _Batch:
        async with self.store.engine.connect() as conn:
            cursor = (await conn.execute(select(stats_cursor).where(stats_cursor.c.id == 1))).one()
            last, version = int(cursor.last_hand), int(cursor.version)
            pending: dict[str, float] = json.loads(cursor.pending)
            rows = list((await conn.execute(
                select(hands.c.id, hands.c.status, hands.c.game, hands.c.history)
                .where(hands.c.id > last).order_by(hands.c.id).limit(self.batch)
            )).all())
            if pending:
                ids = [int(k) for k in pending]
                for i in range(0, len(ids), 1000):
                    rows += (await conn.execute(
                        select(hands.c.id, hands.c.status, hands.c.game, hands.c.history)
                        .where(hands.c.id.in_(ids[i:i + 1000]))
                    )).all()
            complete = [r for r in rows if r.status == "complete"]
            players: dict[int, list[tuple[int, int]]] = defaultdict(list)
            ids = [r.id for r in complete]
            for i in range(0, len(ids), 1000):
                for p in (await conn.execute(
                    select(hand_players.c.hand_id, hand_players.c.account_id, hand_players.c.seat)
                    .where(hand_players.c.hand_id.in_(ids[i:i + 1000]))
                )).all():
                    players[p.hand_id].append((p.account_id, p.seat))
        new = [r.id for r in rows if r.id > last]
        batch = _Batch(version, last, dict(pending), {}, defaultdict(list), False, 0, len(new) >= self.batch)
        top = max(new, default=last)
        seen = {r.id: r.status for r in rows}
        for r in rows:  # hands still in play
            if r.id > last and r.status == "playing":
                batch.pending.setdefault(str(r.id), now)
        # ids skipped over: a late commit is a recent hand's, so those near the top only
        for hand_id in range(max(last + 1, top - GAP_WINDOW), top + 1):
            if hand_id not in seen:
                batch.pending.setdefault(str(hand_id), now)
        for key, first in list(batch.pending.items()):
            status = seen.get(int(key))
            if status in ("complete", "void") or (status is None and now - first > GAP_PATIENCE):
                del batch.pending[key]
        if len(batch.pending) > MAX_PENDING:
            keep = sorted(batch.pending.items(), key=lambda kv: (kv[1], int(kv[0])))[-MAX_PENDING:]
            batch.pending = dict(keep)
        batch.last = top
        batch.changed = top != last or batch.pending != pending
        # the counting (JSON read back, ~0.1 ms a hand) in a thread: in `pokerroom serve` this
        # loop also runs the tables, whose clocks and messages must not wait for a batch
        await asyncio.to_thread(self._count_all, sorted(complete, key=lambda r: r.id), players, batch)
        return batch

    def _count_all(self, rows: Sequence[Any], players: dict[int, list[tuple[int, int]]],
                   batch: _Batch) -> None:
        for row in rows:
            batch.hands += self._count(row, players[row.id], batch)

    @staticmethod
    def _count(row: Any, players: Sequence[tuple[int, int]], batch: _Batch) -> int:
        try:
            counted = count_hand(json.loads(row.history or "null"))
        except (NotCountable, ValueError):
            return 0  # the room's first cut's histories have no snapshot: not counted
        for account, seat in players:
            if seat not in counted.seats:
                continue
            key = (account, counted.game, row.game)
            counters = batch.counters.get(key)
            if counters is None:
                counters = batch.counters[key] = Counters(counted.game, row.game, counted.bb)
            counters.add(counted, seat)
            f = counted.seats[seat]
            batch.graphs[account].append((f.net, f.net if f.showdown else 0))
        return 1

    async def _write(self, batch: _Batch) -> bool:
        async with self.store._writing() as conn:
            moved = await conn.execute(
                update(stats_cursor).where(stats_cursor.c.id == 1, stats_cursor.c.version == batch.version)
                .values(last_hand=batch.last, pending=json.dumps(batch.pending, separators=(",", ":")),
                        version=batch.version + 1)
            )
            if moved.rowcount != 1:
                return False
            await _add_counters(conn, batch.counters)
            await _add_graphs(conn, batch.graphs)
        return True

    async def counters(self, account_id: int) -> list[Counters]:
        """The player's counters, a row per game and stakes."""
        async with self.store.engine.connect() as conn:
            rows = (await conn.execute(
                select(player_stats).where(player_stats.c.account_id == account_id)
                .order_by(player_stats.c.game, player_stats.c.stakes)
            )).all()
        return [Counters(**{name: getattr(r, name) for name in _FIELDS}) for r in rows]

    async def graph(self, account_id: int) -> Graph:
        async with self.store.engine.connect() as conn:
            row = (await conn.execute(
                select(stats_graphs).where(stats_graphs.c.account_id == account_id)
            )).first()
        if row is None:
            return Graph.empty()
        return Graph.stored(row.hands, row.net, row.net_showdown, row.step, row.points)


def _chunks(items: Sequence[Any], size: int = 500) -> Iterable[Sequence[Any]]:
    for i in range(0, len(items), size):
        yield items[i:i + size]


async def _add_counters(conn: AsyncConnection, counters: dict[tuple[int, str, str], Counters]) -> None:
    """Add the batch's counts: to the rows there are, and new rows for the others."""
    if not counters:
        return
    accounts = sorted({k[0] for k in counters})
    have: set[tuple[int, str, str]] = set()
    for chunk in _chunks(accounts):
        have |= {(r.account_id, r.game, r.stakes) for r in (await conn.execute(
            select(player_stats.c.account_id, player_stats.c.game, player_stats.c.stakes)
            .where(player_stats.c.account_id.in_(chunk))
        )).all()}
    bumps = [{"b_account": k[0], "b_game": k[1], "b_stakes": k[2],
              **{f"b_{n}": v for n, v in c.values().items()}}
             for k, c in counters.items() if k in have]
    new = [{"account_id": k[0], "game": c.game, "stakes": c.stakes, "bb": c.bb, **c.values()}
           for k, c in counters.items() if k not in have]
    if bumps:
        await conn.execute(_BUMP, bumps)
    if new:
        await conn.execute(insert(player_stats), new)


async def _add_graphs(conn: AsyncConnection, graphs: dict[int, list[tuple[int, int]]]) -> None:
    if not graphs:
        return
    accounts = sorted(graphs)
    have: dict[int, Graph] = {}
    for chunk in _chunks(accounts):
        for r in (await conn.execute(select(stats_graphs).where(stats_graphs.c.account_id.in_(chunk)))).all():
            have[r.account_id] = Graph.stored(r.hands, r.net, r.net_showdown, r.step, r.points)
    updates, new = [], []
    for account in accounts:
        graph = have.get(account) or Graph.empty()
        for net, at_showdown in graphs[account]:
            graph.add(net, at_showdown)
        values = {"hands": graph.hands, "net": graph.net, "net_showdown": graph.net_showdown,
                  "step": graph.step, "points": graph.points_text()}
        if account in have:
            updates.append({"b_account": account, **{f"b_{k}": v for k, v in values.items()}})
        else:
            new.append({"account_id": account, **values})
    if updates:
        await conn.execute(_SET_GRAPH, updates)
    if new:
        await conn.execute(insert(stats_graphs), new)
