"""Who owns which table (issue 18): leases in the database, by the database's clock.

A worker holds a table while its lease is not expired; it renews all of its leases at
once every second or so (``renew``), for ``ttl`` seconds. A lease that expired (a worker
killed, paused, cut off) or was released (a worker that stops) is claimed by another
(``claim``): the claim raises the table's epoch, and every chip write of the table is
fenced by the epoch in its own transaction (ops.Fence), so a paused old owner that wakes
up can never commit. In the claim's transaction the hand the old owner was playing is
voided (its chips never left the seats: a hand's result is written when it ends), and the
new owner gets the seats as of the last settled hand, with the table's memory (its
button, the players' debts: table/memory.py).

Workers say they are alive in ``workers`` with their renewals, so that each claims its
share of the tables (``fair_share``).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection

from pokerroom.store.database import Database


@dataclass(frozen=True)
class SeatRow:
    seat: int
    player: str
    account_id: int
    stack: int


@dataclass(frozen=True)
class Claim:
    """A table this worker now owns: under ``epoch``, its seats as of ``last_hand``, its
    memory (None: never written), and the hands the old owner left unfinished (voided)."""

    table: str
    epoch: int
    last_hand: int
    memory: dict[str, Any] | None
    seats: list[SeatRow] = field(default_factory=list)
    voided: list[tuple[int, int]] = field(default_factory=list)  # (hand id, number)


@dataclass(frozen=True)
class Lease:
    table: str
    owner: str | None
    epoch: int
    expires_in: float  # seconds (negative: expired)
    last_hand: int


class Leases(Database):
    def _now(self) -> str:
        """The database's clock in seconds since 1970, as SQL."""
        if self.sqlite:
            return "((julianday('now') - 2440587.5) * 86400.0)"
        return "extract(epoch from clock_timestamp())::float8"

    async def declare_tables(self, names: list[str]) -> None:
        """Make sure every table named has a lease row (nobody's, epoch 0, if new)."""
        insert = ("INSERT OR IGNORE INTO table_leases (table_name) VALUES (:t)" if self.sqlite else
                  "INSERT INTO table_leases (table_name) VALUES (:t) ON CONFLICT DO NOTHING")
        async with self._writing() as conn:
            for name in names:
                await conn.execute(text(insert), {"t": name})

    async def heartbeat(self, worker: str, within: float = 3.0) -> int:
        """``worker`` is alive now; how many workers are (seen within ``within`` seconds: a
        lease's length, so that a dead worker stops counting when its leases end)."""
        now = self._now()
        upsert = (f"INSERT INTO workers (name, started_at, seen_at) VALUES (:w, {now}, {now}) "
                  f"ON CONFLICT (name) DO UPDATE SET seen_at = {now}")
        async with self._writing() as conn:
            await conn.execute(text(upsert), {"w": worker})
            alive = await conn.scalar(text(f"SELECT count(*) FROM workers WHERE seen_at > {now} - :within"),
                                      {"within": within})
        return int(alive or 1)

    async def gone(self, worker: str) -> None:
        """``worker`` stopped (its leases released first)."""
        async with self._writing() as conn:
            await conn.execute(text("DELETE FROM workers WHERE name = :w"), {"w": worker})

    async def renew(self, worker: str, ttl: float) -> dict[str, int]:
        """Renew every lease ``worker`` holds for ``ttl`` seconds: table -> epoch of those
        it still holds (a table missing was claimed by another)."""
        sql = (f"UPDATE table_leases SET expires_at = {self._now()} + :ttl WHERE owner = :w "
               "RETURNING table_name, epoch")
        if not self.sqlite:  # the rows locked in the tables' order, as the journal's fences lock them
            sql = ("WITH locked AS MATERIALIZED (SELECT table_name FROM table_leases WHERE owner = :w "
                   "ORDER BY table_name FOR UPDATE) "
                   f"UPDATE table_leases SET expires_at = {self._now()} + :ttl FROM locked "
                   "WHERE table_leases.table_name = locked.table_name AND table_leases.owner = :w "
                   "RETURNING table_leases.table_name, table_leases.epoch")
        async with self._writing() as conn:
            rows = (await conn.execute(text(sql), {"w": worker, "ttl": ttl})).all()
        return {str(r[0]): int(r[1]) for r in rows}

    async def claimable(self, names: list[str], worker: str) -> list[str]:
        """Of ``names``, the tables nobody holds (never held, released, or expired), and
        those held under ``worker``'s own name (by an earlier run of it that stopped)."""
        sql = (f"SELECT table_name FROM table_leases WHERE (owner IS NULL OR expires_at < {self._now()} "
               "OR owner = :w) AND NOT closed")
        async with self.engine.connect() as conn:
            free = {str(r[0]) for r in (await conn.execute(text(sql), {"w": worker})).all()}
        return [n for n in names if n in free]

    async def claim(self, worker: str, table: str, ttl: float) -> Claim | None:
        """Take ``table`` if nobody holds it (or ``worker``'s own name does: an earlier run
        of it): its epoch raised, the hand left unfinished voided, its seats read, in one
        transaction. None: another holds it. Worker names must be unique in a room."""
        now = self._now()
        take = (f"UPDATE table_leases SET owner = :w, epoch = epoch + 1, expires_at = {now} + :ttl "
                f"WHERE table_name = :t AND (owner IS NULL OR expires_at < {now} OR owner = :w) "
                "RETURNING epoch, last_hand, memory")
        async with self._writing() as conn:
            row = (await conn.execute(text(take), {"w": worker, "t": table, "ttl": ttl})).first()
            if row is None:
                return None
            voided = await _void_unfinished(conn, table, now)
            seats = await _seats_of(conn, table)
        memory = json.loads(row[2]) if row[2] else None
        return Claim(table, int(row[0]), int(row[1]), memory, seats, voided)

    async def release(self, worker: str, table: str, epoch: int) -> bool:
        """Give ``table`` up (a worker stopping between hands): the next claimer takes it
        at once. False: it was not ``worker``'s under ``epoch`` any more."""
        sql = ("UPDATE table_leases SET owner = NULL, expires_at = 0 WHERE table_name = :t AND owner = :w "
               "AND epoch = :e")
        async with self._writing() as conn:
            done = (await conn.execute(text(sql), {"t": table, "w": worker, "e": epoch})).rowcount
        return bool(done == 1)

    # ------------------------------------------------------------------ tables that open themselves

    async def open_tables(self) -> dict[str, str | None]:
        """The tables open now: name -> the template it was opened from (None: the config's)."""
        async with self.engine.connect() as conn:
            sql = "SELECT table_name, template FROM table_leases WHERE NOT closed"
            rows = (await conn.execute(text(sql))).all()
        return {str(r[0]): r[1] for r in rows}

    async def open_table(self, name: str, template: str) -> None:
        """Open table ``name`` of ``template`` (again, if it was closed: its row keeps its hand
        numbers). Workers that open the same name at once open one table."""
        insert = "INSERT INTO table_leases (table_name, template) VALUES (:t, :tp) ON CONFLICT DO NOTHING"
        async with self._writing() as conn:
            await conn.execute(text(insert), {"t": name, "tp": template})
            reopen = "UPDATE table_leases SET closed = :no, template = :tp WHERE table_name = :t AND closed"
            await conn.execute(text(reopen), {"t": name, "tp": template, "no": False})

    async def close_table(self, worker: str, name: str, epoch: int) -> bool:
        """Close a table of a template that ``worker`` holds under ``epoch`` with nobody
        seated: nobody claims it until it opens again. False: not closed (it was no longer
        this worker's, or somebody sits there)."""
        sql = ("UPDATE table_leases SET closed = :yes, owner = NULL, expires_at = 0 WHERE table_name = :t "
               "AND owner = :w AND epoch = :e AND template IS NOT NULL "
               "AND NOT EXISTS (SELECT 1 FROM seats WHERE seats.table_name = :t)")
        async with self._writing() as conn:
            done = (await conn.execute(text(sql), {"t": name, "w": worker, "e": epoch, "yes": True})).rowcount
        return bool(done == 1)

    async def seated_at(self, template: str) -> dict[str, int]:
        """The open tables of ``template``: name -> players seated there."""
        sql = ("SELECT l.table_name, count(s.account_id) FROM table_leases l LEFT JOIN seats s "
               "ON s.table_name = l.table_name WHERE l.template = :tp AND NOT l.closed GROUP BY l.table_name")
        async with self.engine.connect() as conn:
            rows = (await conn.execute(text(sql), {"tp": template})).all()
        return {str(r[0]): int(r[1]) for r in rows}

    async def leases(self) -> list[Lease]:
        """Every table's lease, for ``pokerroom status``."""
        sql = (f"SELECT table_name, owner, epoch, expires_at - {self._now()}, last_hand FROM table_leases "
               "ORDER BY table_name")
        async with self.engine.connect() as conn:
            rows = (await conn.execute(text(sql))).all()
        return [Lease(str(r[0]), r[1], int(r[2]), float(r[3]), int(r[4])) for r in rows]

    async def workers(self) -> list[tuple[str, float]]:
        """(worker, seconds since it was last seen), most recent first."""
        sql = f"SELECT name, {self._now()} - seen_at FROM workers ORDER BY seen_at DESC"
        async with self.engine.connect() as conn:
            rows = (await conn.execute(text(sql))).all()
        return [(str(r[0]), float(r[1])) for r in rows]


def fair_share(tables: int, workers: int) -> int:
    """How many tables one of ``workers`` workers should hold at most."""
    return math.ceil(tables / max(1, workers))


async def _void_unfinished(conn: AsyncConnection, table: str, now: str) -> list[tuple[int, int]]:
    """Void the table's hands still 'playing' (the old owner's, cut short): no chip of them
    was written (a hand's result is written when it ends), so the seats hold the stacks
    from before it."""
    sql = (f"UPDATE hands SET status = 'void', ended_at = {now} WHERE table_name = :t AND status = 'playing' "
           "RETURNING id, number")
    rows = (await conn.execute(text(sql), {"t": table})).all()
    return sorted((int(r[0]), int(r[1])) for r in rows)


async def _seats_of(conn: AsyncConnection, table: str) -> list[SeatRow]:
    sql = ("SELECT s.seat, a.name, s.account_id, s.stack FROM seats s JOIN accounts a ON a.id = s.account_id "
           "WHERE s.table_name = :t ORDER BY s.seat")
    rows = (await conn.execute(text(sql), {"t": table})).all()
    return [SeatRow(int(r[0]), str(r[1]), int(r[2]), int(r[3])) for r in rows]
