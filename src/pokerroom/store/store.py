"""Storage: accounts, sessions, seats, the double-entry ledger, hand histories, and what
the room's rules remember across tables and restarts (protection uses, D7; departures,
D13; cards shown after a hand, D12).

One ``Store`` per server, on SQLAlchemy's async engine: SQLite (aiosqlite, a file created
on first start) by default, PostgreSQL (asyncpg) by URL. Migrations (Alembic) run on
start. Every movement of chips is one transaction of ledger entries that sum to zero,
written together with the balances and seat stacks it changes (invariant 1 and 5): the
sum over all accounts and seats changes only by grants, which come from the 'bank' book.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy import Connection, bindparam, delete, event, exc, func, insert, select, update
from sqlalchemy import text as sql_text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from pokerroom.histories import full_history
from pokerroom.store.faults import Faults
from pokerroom.store.schema import (
    accounts,
    departures,
    hand_players,
    hands,
    ledger,
    protection_uses,
    reveals,
    seats,
    sessions,
)

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_T = TypeVar("_T")


SESSION_IDLE = 7 * 24 * 3600.0  # a session unused this long has ended (sliding expiry)
SESSION_TOUCH = 60.0  # a session's last use is written at most this often


class StoreError(Exception):
    """A storage operation the rules refuse (``code`` for machines)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    balance: int
    password_hash: str
    last_grant_at: float


@dataclass(frozen=True)
class Departure:
    """A player left a table with ``stack`` chips at ``at`` (seconds since the epoch)."""

    stack: int
    at: float


def database_url(url: str) -> str:
    """The async driver's URL for a plain one: sqlite → aiosqlite, postgresql → asyncpg."""
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        return str(parsed.set(drivername="sqlite+aiosqlite"))
    if backend == "postgresql":
        return parsed.set(drivername="postgresql+asyncpg").render_as_string(hide_password=False)
    raise StoreError("bad_database", f"unsupported database {backend!r}: sqlite or postgresql")


def balance_book(account_id: int) -> str:
    return f"balance:{account_id}"


def table_book(table: str, account_id: int) -> str:
    return f"table:{table}:{account_id}"


def _upgrade(connection: Connection) -> None:
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


class Store:
    def __init__(self, url: str, schema: str | None = None) -> None:
        """``schema`` (PostgreSQL): keep the room's tables in that schema, created if
        needed, so several rooms (or test runs) can share one database."""
        self.url = database_url(url)
        self.journal_wait = 0.01  # seconds the journal's first write waits for others
        self._queued: list[tuple[_Op, asyncio.Future[Any]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._write_lock: asyncio.Lock | None = None  # SQLite's writers, one at a time (_writing)
        self._write_conn: AsyncConnection | None = None  # and the connection they share
        parsed = make_url(self.url)
        self.sqlite = parsed.get_backend_name() == "sqlite"
        # SQLite: the hot writes (hands, buy-ins, top-ups, cash-outs) run as one function
        # in aiosqlite's thread (_run_sqlite), not statement by statement
        self._sqlite_direct = self.sqlite
        self.schema = schema
        self.faults = Faults.from_environment()  # injected failures, for fault tests (faults.py)
        if self.sqlite and parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        connect_args: dict[str, Any] = {}
        if schema and not self.sqlite:
            if not schema.replace("_", "").isalnum():
                raise StoreError("bad_database", f"bad schema name {schema!r}")
            connect_args["server_settings"] = {"search_path": schema}
        self.engine: AsyncEngine = create_async_engine(self.url, connect_args=connect_args)
        if self.sqlite:
            self._write_lock = asyncio.Lock()

            @event.listens_for(self.engine.sync_engine, "connect")
            def _pragmas(dbapi_connection: Any, _record: Any) -> None:
                if not _sqlite_reachable(getattr(dbapi_connection, "_connection", None)):
                    self._sqlite_direct = False  # pragma: no cover (another aiosqlite)
                cursor = dbapi_connection.cursor()
                cursor.execute("PRAGMA foreign_keys=ON")
                cursor.execute("PRAGMA journal_mode=WAL")
                cursor.execute("PRAGMA synchronous=FULL")
                cursor.close()

    async def migrate(self) -> None:
        async with self._writing() as conn:
            if self.schema and not self.sqlite:
                await conn.exec_driver_sql(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"')
            await conn.run_sync(_upgrade)

    @contextlib.asynccontextmanager
    async def _writing(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction. SQLite takes one writer at a time: its writers queue here,
        in the event loop, rather than in SQLite's busy wait (which gives up with
        'database is locked' after its timeout, as seen under load with the journal and
        many tables' buy-ins and top-ups at once)."""
        faults = self.faults
        fault = faults.draw() if faults is not None else None  # injected: for fault tests only
        if self._write_lock is None:
            async with self.engine.begin() as conn:
                yield conn
                if fault == "before":
                    faults.fail(fault)  # type: ignore[union-attr]
            if fault == "after":
                faults.fail(fault)  # type: ignore[union-attr]
            return
        async with self._write_lock:
            # one connection kept for the writers, who take turns anyway: a connection from
            # the pool for each transaction cost ~0.2 ms of CPU more (checkout, and a
            # rollback on its return, a trip to its thread, even after a commit)
            kept = self._write_conn
            if kept is None or kept.closed or kept.invalidated:
                kept = self._write_conn = await self.engine.connect()
            conn = kept
            try:
                async with conn.begin():
                    yield conn
                    if fault == "before":
                        faults.fail(fault)  # type: ignore[union-attr]
            except BaseException:
                if conn.invalidated or conn.in_transaction():  # not rolled back: not to be used again
                    self._write_conn = None
                    with contextlib.suppress(Exception):
                        await conn.close()
                raise
            if fault == "after":
                faults.fail(fault)  # type: ignore[union-attr]

    async def close(self) -> None:
        if self._writer is not None and not self._writer.done():
            with contextlib.suppress(Exception):
                await self._writer  # what is queued is written first
        if self._write_conn is not None:
            conn, self._write_conn = self._write_conn, None
            with contextlib.suppress(Exception):
                await conn.close()
        await self.engine.dispose()

    # ------------------------------------------------------------------ ledger

    @staticmethod
    async def _transfer(
        conn: AsyncConnection,
        kind: str,
        moves: Sequence[tuple[str, int | None, int]],
        hand_id: int | None = None,
        txn: str | None = None,
    ) -> None:
        """One ledger transaction: (book, account id, amount) entries summing to zero."""
        rows = _ledger_rows(kind, moves, hand_id, txn)
        if rows:
            await conn.execute(_INSERT_LEDGER, rows)

    # ------------------------------------------------------------------ accounts

    async def create_account(self, name: str, password_hash: str, grant: int) -> Account:
        now = time.time()
        taken = StoreError("name_taken", f"the name {name!r} is taken")
        try:
            async with self._writing() as conn:
                found = await conn.scalar(
                    select(accounts.c.id).where(func.lower(accounts.c.name) == name.lower())
                )
                if found is not None:
                    raise taken
                result = await conn.execute(
                    insert(accounts).values(
                        name=name,
                        password_hash=password_hash,
                        balance=grant,
                        created_at=now,
                        last_grant_at=now,
                    )
                )
                account_id = int(result.inserted_primary_key[0])  # type: ignore[index]
                await self._transfer(
                    conn, "grant", [("bank", None, -grant), (balance_book(account_id), account_id, grant)]
                )
        except IntegrityError:  # the same name signed up at the same moment
            raise taken from None
        return Account(account_id, name, grant, password_hash, now)

    async def create_accounts(
        self,
        names: Sequence[str],
        password_hash: str,
        grant: int,
        session_hashes: Sequence[str] = (),
        ttl: float = 0.0,
    ) -> list[int]:
        """Many accounts at once (the load test's bots), all or none, in one transaction of
        a few multi-row statements: each as ``create_account`` makes it, ``grant`` chips
        from the bank in a ledger transaction of its own, and, when ``session_hashes`` gives
        one token hash per name, a session expiring in ``ttl`` seconds. A name taken (or
        given twice) raises StoreError 'name_taken'. Returns the ids, in the names' order."""
        if session_hashes and len(session_hashes) != len(names):
            raise ValueError("one session hash per name, or none")
        if not names:
            return []
        now = time.time()
        try:
            async with self._writing() as conn:
                result = await conn.execute(
                    insert(accounts).returning(accounts.c.id, accounts.c.name),
                    [
                        {
                            "name": name,
                            "password_hash": password_hash,
                            "balance": grant,
                            "created_at": now,
                            "last_grant_at": now,
                        }
                        for name in names
                    ],
                )
                by_name = {row.name: int(row.id) for row in result}
                ids = [by_name[name] for name in names]
                if grant:  # what _transfer writes for one grant, for each
                    entries = [
                        row
                        for account_id in ids
                        for row in _ledger_rows(
                            "grant", [("bank", None, -grant), (balance_book(account_id), account_id, grant)]
                        )
                    ]
                    await conn.execute(insert(ledger), entries)
                if session_hashes:
                    await conn.execute(
                        insert(sessions),
                        [
                            {"token_hash": h, "account_id": a, "created_at": now, "expires_at": now + ttl}
                            for a, h in zip(ids, session_hashes, strict=True)
                        ],
                    )
        except IntegrityError:
            raise StoreError("name_taken", "a name is taken (or given twice)") from None
        return ids

    async def account_by_name(self, name: str) -> Account | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(select(accounts).where(func.lower(accounts.c.name) == name.lower()))
            ).first()
        return _account(row)

    async def account(self, account_id: int) -> Account | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(accounts).where(accounts.c.id == account_id))).first()
        return _account(row)

    async def set_password_hash(self, account_id: int, password_hash: str) -> None:
        async with self._writing() as conn:
            await conn.execute(
                update(accounts).where(accounts.c.id == account_id).values(password_hash=password_hash)
            )

    async def grant(self, account_id: int, amount: int, kind: str = "topup") -> int:
        """Give play chips from the bank; returns the new balance."""
        async with self._writing() as conn:
            await self._grant(conn, account_id, amount, kind, time.time())
            return int(await conn.scalar(select(accounts.c.balance).where(accounts.c.id == account_id)) or 0)

    async def _grant(
        self, conn: AsyncConnection, account_id: int, amount: int, kind: str, now: float
    ) -> None:
        """A grant from the bank, within the caller's write transaction."""
        await conn.execute(
            update(accounts)
            .where(accounts.c.id == account_id)
            .values(balance=accounts.c.balance + amount, last_grant_at=now)
        )
        await self._transfer(
            conn, kind, [("bank", None, -amount), (balance_book(account_id), account_id, amount)]
        )

    async def daily_topup(self, account_id: int, target: int, every: float) -> int:
        """The broke player's top-up: back to ``target`` chips (balance and seats together),
        at most once in ``every`` seconds; returns the new balance. The check and the grant
        are one step of one write transaction, the account's row locked (PostgreSQL: FOR
        UPDATE; SQLite: one writer at a time), so requests at once grant once. Refused:
        StoreError 'not_broke' or 'too_soon'."""
        now = time.time()
        async with self._writing() as conn:
            row = (
                await conn.execute(
                    select(accounts.c.balance, accounts.c.last_grant_at)
                    .where(accounts.c.id == account_id)
                    .with_for_update()
                )
            ).first()
            if row is None:
                raise StoreError("no_account", f"no account {account_id}")
            at_tables = int(await conn.scalar(_at_tables(account_id)) or 0)
            if row.balance + at_tables >= target:
                raise StoreError("not_broke", f"top-ups are for players with less than {target} chips")
            if now - row.last_grant_at < every:
                raise StoreError("too_soon", "one top-up a day")
            amount = target - row.balance - at_tables
            await self._grant(conn, account_id, amount, "topup", now)
            return int(row.balance + amount)

    async def chips_at_tables(self, account_id: int) -> int:
        async with self.engine.connect() as conn:
            return int(await conn.scalar(_at_tables(account_id)) or 0)

    # ------------------------------------------------------------------ sessions

    async def create_session(self, account_id: int, token_hash: str, ttl: float) -> None:
        now = time.time()
        async with self._writing() as conn:
            await conn.execute(
                insert(sessions).values(
                    token_hash=token_hash, account_id=account_id, created_at=now, expires_at=now + ttl,
                    last_seen=now,
                )
            )

    async def session_account(self, token_hash: str, idle: float = SESSION_IDLE) -> Account | None:
        """The account of a live session: not past its expiry, and used within ``idle``
        seconds (a sliding expiry: each use moves it on, written at most once a minute so
        a busy session does not write on every request)."""
        now = time.time()
        seen = func.coalesce(sessions.c.last_seen, sessions.c.created_at)
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(accounts, seen.label("session_seen"))
                    .join(sessions, sessions.c.account_id == accounts.c.id)
                    .where(sessions.c.token_hash == token_hash)
                    .where(sessions.c.expires_at > now, seen > now - idle)
                )
            ).first()
        if row is not None and row.session_seen < now - SESSION_TOUCH:
            async with self._writing() as conn:
                await conn.execute(
                    update(sessions).where(sessions.c.token_hash == token_hash).values(last_seen=now)
                )
        return _account(row)

    async def delete_session(self, token_hash: str) -> int | None:
        """End one session; the account it was of (None: there was none)."""
        async with self._writing() as conn:
            account_id = await conn.scalar(
                select(sessions.c.account_id).where(sessions.c.token_hash == token_hash)
            )
            await conn.execute(delete(sessions).where(sessions.c.token_hash == token_hash))
        return None if account_id is None else int(account_id)

    async def delete_sessions_of(self, account_id: int) -> int:
        """End every session of an account ("log out everywhere"); how many there were."""
        async with self._writing() as conn:
            result = await conn.execute(delete(sessions).where(sessions.c.account_id == account_id))
        return int(result.rowcount or 0)

    async def purge_sessions(self, now: float, idle: float = SESSION_IDLE) -> int:
        """Delete the sessions past their expiry or idle for longer than ``idle``."""
        seen = func.coalesce(sessions.c.last_seen, sessions.c.created_at)
        async with self._writing() as conn:
            result = await conn.execute(
                delete(sessions).where((sessions.c.expires_at <= now) | (seen <= now - idle))
            )
        return int(result.rowcount or 0)

    # ------------------------------------------------------------------ money at tables

    # A money write whose outcome is unknown (its transaction failed, perhaps after the
    # commit) is asked again with ``again=True`` and the same key (a buy-in's or top-up's
    # ``txn``, a hand's commitment or id, a cash-out's seat): if the first try was
    # committed, the second finds it (``_DONE``) and writes nothing, so a table that
    # retries until the database answers never moves a chip twice (TableRunner._write).

    async def buy_in(
        self, table: str, seat: int, account_id: int, amount: int, *,
        txn: str | None = None, again: bool = False,
    ) -> int:
        """Move ``amount`` from the balance to a seat; returns the balance left."""
        if self._sqlite_direct:
            direct = (_SQL_INSERT_SEAT, (table, seat, account_id, amount))
            op = _move("buy_in", table, account_id, amount, direct, txn=txn, again=again)
            return await self._journal(op)  # type: ignore[no-any-return]
        row = {"table_name": table, "seat": seat, "account_id": account_id, "stack": amount}
        return await self._to_table("buy_in", table, account_id, amount, _INSERT_SEAT, row, txn, again)

    async def top_up(
        self, table: str, account_id: int, amount: int, *, txn: str | None = None, again: bool = False
    ) -> int:
        """Move ``amount`` from the balance to the player's seat; returns the balance left."""
        if self._sqlite_direct:
            direct = (_SQL_ADD_TO_SEAT, (amount, table, account_id))
            op = _move("top_up", table, account_id, amount, direct, txn=txn, again=again)
            return await self._journal(op)  # type: ignore[no-any-return]
        change = {"b_table": table, "b_account": account_id, "b_amount": amount}
        return await self._to_table("top_up", table, account_id, amount, _ADD_TO_SEAT, change, txn, again)

    async def _to_table(
        self, kind: str, table: str, account_id: int, amount: int, seat_change: Any, values: dict[str, Any],
        txn: str | None, again: bool,
    ) -> int:
        async with self._writing() as conn:
            if again and txn is not None and await conn.scalar(sql_text(_DONE_MOVE), {"txn": txn}):
                balance = await conn.scalar(select(accounts.c.balance).where(accounts.c.id == account_id))
                return int(balance or 0)
            # the balance taken, if it holds the amount, and what is left of it (RETURNING:
            # what a SELECT after the ledger's rows would read, the row locked until the commit)
            left = (await conn.execute(_TAKE_BALANCE, {"b_id": account_id, "b_amount": amount})).all()
            if len(left) != 1:
                raise StoreError("insufficient_balance", f"your balance is less than {amount}")
            if (await conn.execute(seat_change, values)).rowcount != 1:
                raise StoreError("not_seated", f"no seat at {table!r} to add chips to")
            moves = [
                (balance_book(account_id), account_id, -amount),
                (table_book(table, account_id), account_id, amount),
            ]
            await self._transfer(conn, kind, moves, txn=txn)
            return int(left[0][0] or 0)

    async def cash_out(
        self,
        table: str,
        account_id: int,
        stack: int,
        kind: str = "cash_out",
        departed_at: float | None = None,
        *,
        again: bool = False,
    ) -> None:
        """The player left the table with ``stack``: back to his balance, the seat freed;
        with ``departed_at``, his departure (D13) in the same transaction. Asked ``again``,
        a seat already freed means the first try was committed."""
        if self._sqlite_direct:
            free = (_SQL_FREE_SEAT, (table, account_id))
            extra: tuple[tuple[str, tuple[Any, ...]], ...] = ()
            if departed_at is not None:
                extra = ((_SQL_INSERT_DEPARTURE, (table, account_id, stack, departed_at)),)
            op = _move(kind, table, account_id, stack, free, back=True, extra=extra, again=again)
            await self._journal(op)
            return
        async with self._writing() as conn:
            held = {"table": table, "account_id": account_id}
            if again and await conn.scalar(sql_text(_SEAT_HELD), held) is None:
                return
            await self._cash_out(conn, table, account_id, stack, kind, departed_at)

    async def _cash_out(
        self, conn: AsyncConnection, table: str, account_id: int, stack: int, kind: str,
        departed_at: float | None = None,
    ) -> None:
        await conn.execute(_FREE_SEAT, {"b_table": table, "b_account": account_id})
        if departed_at is not None:
            await conn.execute(
                _INSERT_DEPARTURE,
                {"table_name": table, "account_id": account_id, "stack": stack, "at": departed_at},
            )
        await conn.execute(_GIVE_BALANCE, {"b_id": account_id, "b_amount": stack})
        await self._transfer(
            conn,
            kind,
            [
                (table_book(table, account_id), account_id, -stack),
                (balance_book(account_id), account_id, stack),
            ],
        )

    async def return_all_seats(self) -> int:
        """At start-up: every chip left at a table goes back to its owner's balance (the
        tables start empty; a hand cut short by a crash was never written, so these are
        the stacks from before it). Returns how many seats were emptied. No departure
        (D13) is written: the players did not leave, the room stopped under them."""
        async with self._writing() as conn:
            rows = (await conn.execute(select(seats))).all()
            for row in rows:
                await self._cash_out(conn, row.table_name, row.account_id, row.stack, "restart")
            await conn.execute(update(hands).where(hands.c.status == "playing").values(status="void"))
        return len(rows)

    # ------------------------------------------------------------------ the rules' memory

    async def record_protection(self, account_id: int, at: float) -> None:
        """A timeout of this player's answered with all-in protection at ``at`` (D7)."""
        async with self._writing() as conn:
            await conn.execute(insert(protection_uses).values(account_id=account_id, at=at))

    async def protection_uses(self, since: float) -> dict[str, list[float]]:
        """The protections used from ``since`` on, by account name, each player's times in
        order (the room loads them into its limit at start)."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(accounts.c.name, protection_uses.c.at)
                    .join(accounts, accounts.c.id == protection_uses.c.account_id)
                    .where(protection_uses.c.at >= since)
                    .order_by(protection_uses.c.at, protection_uses.c.id)
                )
            ).all()
        out: dict[str, list[float]] = {}
        for name, at in rows:
            out.setdefault(name, []).append(float(at))
        return out

    async def last_departure(self, table: str, account_id: int, since: float) -> Departure | None:
        """The player's last departure from ``table`` from ``since`` on, if any (D13: the
        last one counts; he sat down again with at least the ones before)."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(departures.c.stack, departures.c.at)
                    .where(
                        departures.c.table_name == table,
                        departures.c.account_id == account_id,
                        departures.c.at >= since,
                    )
                    .order_by(departures.c.at.desc(), departures.c.id.desc())
                    .limit(1)
                )
            ).first()
        return None if row is None else Departure(int(row.stack), float(row.at))

    async def add_reveal(self, hand_id: int, seat: int, cards: str, at: float | None = None) -> None:
        """Cards the player in ``seat`` showed after hand ``hand_id`` ended ('AhKd', or
        one card; D12). Public: the hand's history carries them (``hand``)."""
        async with self._writing() as conn:
            await conn.execute(
                insert(reveals).values(
                    hand_id=hand_id, seat=seat, cards=cards, at=time.time() if at is None else at
                )
            )

    # ------------------------------------------------------------------ hands

    async def start_hand(
        self, table: str, number: int, game: str, commitment: str, players: Sequence[tuple[int, int]],
        *, again: bool = False,
    ) -> int:
        """A hand begins (``players``: (account id, seat)); its id, once committed. Written
        through the journal (``_journal``) with other tables' hands. Asked ``again``, the
        hand of that table, number and commitment already written is the answer."""
        op = _HandStart(table, number, game, commitment, list(players), time.time(), again)
        return await self._journal(op)  # type: ignore[no-any-return]

    async def finish_hand(
        self,
        hand_id: int,
        table: str,
        results: Sequence[tuple[int, int, int]],  # (account id, net, final stack)
        *,
        salt: str,
        deck: str,
        history: str,
        phh: str | None = None,
        text: str | None = None,
        again: bool = False,
    ) -> None:
        """The hand's result, history and ledger entries, committed when this returns
        (invariant 5), in one transaction with whatever else the journal holds. ``phh`` and
        ``text`` (public texts) are optional: the server leaves them NULL and writes texts
        from ``history`` on request. Asked ``again``, a hand no longer 'playing' was settled
        by the first try: it is settled once."""
        moves = [(table_book(table, a), a, net) for a, net, _ in results]
        ledger_rows = _ledger_rows("hand", moves, hand_id)  # checks the sum before anything
        op = _HandFinish(hand_id, table, list(results), salt, deck, history, phh, text, ledger_rows, again)
        await self._journal(op)

    # ------------------------------------------------------------------ the journal

    async def _journal(self, op: _Op) -> Any:
        """Queue a hand write (on SQLite, a buy-in, top-up or cash-out too) and wait until
        it is committed. One writer task commits what is queued in one transaction of a
        few multi-row statements: at hundreds of hands a second, hands of many tables share
        a commit, so the cost per hand falls as the room gets busier (a statement costs the
        event loop ~0.5 ms however few rows it has; on SQLite the batch is one trip to its
        thread, _run_sqlite, and a move refused is undone alone, under a savepoint)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()
        self._queued.append((op, done))
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_queued(), name="store journal")
        return await done

    async def _write_queued(self) -> None:
        while self._queued:
            await asyncio.sleep(self.journal_wait)  # company for the first write
            batch, self._queued = self._queued, []
            try:
                await self._write_batch(batch)
            finally:  # cancelled (the room stops): nobody waits for ever
                for _, done in batch:
                    if not done.done():
                        done.set_exception(StoreError("unavailable", "the room's database stopped"))

    async def _write_batch(self, batch: list[tuple[_Op, asyncio.Future[Any]]]) -> None:
        applied = False  # every statement ran: a failure now is in the commit itself
        try:
            async with self._writing() as conn:
                results = await self._apply(conn, [op for op, _ in batch])
                applied = True
        except Exception as e:
            if applied:  # the commit may have happened: retrying could write twice
                for _, done in batch:
                    if not done.done():
                        done.set_exception(e)
                return
            # rolled back: one at a time, so that a bad write fails alone
            for op, done in batch:
                try:
                    async with self._writing() as conn:
                        (result,) = await self._apply(conn, [op])
                except Exception as e:
                    if not done.done():
                        done.set_exception(e)
                else:
                    _answer(done, result)
        else:
            for (_, done), result in zip(batch, results, strict=True):
                _answer(done, result)

    async def _apply(self, conn: AsyncConnection, ops: Sequence[_Op]) -> list[Any]:
        if self._sqlite_direct:
            return await self._run_sqlite(conn, partial(_apply_sqlite, ops))
        return await _apply(conn, ops)

    async def _run_sqlite(self, conn: AsyncConnection, fn: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``fn`` on the sqlite3 connection under ``conn``, in its aiosqlite thread, within
        the transaction ``conn`` began (SQLAlchemy commits or rolls it back, as for its own
        statements). One trip to that thread for all of ``fn``'s statements: through
        SQLAlchemy each statement takes three or four, and each trip costs the event loop a
        wake-up and the thread a turn at the GIL (~0.2 ms of CPU for a statement on a busy
        loop; a top-up took ~3 ms). It goes through aiosqlite's own ``_execute`` (what its
        methods use; SQLAlchemy's dialect reaches into its queue and ``_conn`` likewise);
        if aiosqlite stops having them, the store keeps to SQLAlchemy's statements (checked
        when a connection opens). sqlite3's errors come out as SQLAlchemy's
        (IntegrityError, OperationalError, ...), as from its own statements."""
        driver: Any = (await conn.get_raw_connection()).driver_connection
        result: _T = await driver._execute(_sqlite_call, fn, driver._conn)
        return result

    async def hand(self, hand_id: int) -> dict[str, Any] | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(hands).where(hands.c.id == hand_id))).first()
            if row is None:
                return None
            players = (
                await conn.execute(
                    select(hand_players.c.account_id, hand_players.c.seat, hand_players.c.net).where(
                        hand_players.c.hand_id == hand_id
                    )
                )
            ).all()
            shown = (
                await conn.execute(
                    select(reveals.c.seat, reveals.c.cards)
                    .where(reveals.c.hand_id == hand_id)
                    .order_by(reveals.c.id)
                )
            ).all()
        data = dict(row._mapping)
        data["players"] = [dict(p._mapping) for p in players]
        if shown and data.get("history"):  # D12: the cards shown after the hand, by seat
            data["history"] = _with_reveals(data["history"], shown)
        if data.get("history") and data.get("deck"):  # leaves, openings, record; the id its texts carry
            data["history"] = full_history(data["history"], data["deck"], data["id"])
        return data

    async def hands_of(self, account_id: int, limit: int = 50) -> list[dict[str, Any]]:
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(
                        hands.c.id,
                        hands.c.table_name,
                        hands.c.number,
                        hands.c.game,
                        hands.c.ended_at,
                        hand_players.c.seat,
                        hand_players.c.net,
                    )
                    .join(hand_players, hand_players.c.hand_id == hands.c.id)
                    .where(hand_players.c.account_id == account_id, hands.c.status == "complete")
                    .order_by(hands.c.id.desc())
                    .limit(limit)
                )
            ).all()
        return [dict(r._mapping) for r in rows]

    # ------------------------------------------------------------------ audits

    async def totals(self, within: AsyncConnection | None = None) -> dict[str, int]:
        """Chips on balances, at seats, and granted; balances + seats == granted. Read on
        ``within`` (in its snapshot) when given."""
        if within is not None:
            return await _totals(within)
        async with self.engine.connect() as conn:
            return await _totals(conn)


async def _totals(conn: AsyncConnection) -> dict[str, int]:
    balances = int(await conn.scalar(select(func.coalesce(func.sum(accounts.c.balance), 0))) or 0)
    at_seats = int(await conn.scalar(select(func.coalesce(func.sum(seats.c.stack), 0))) or 0)
    bank = select(func.coalesce(func.sum(ledger.c.amount), 0)).where(ledger.c.book == "bank")
    granted = -int(await conn.scalar(bank) or 0)
    entries = int(await conn.scalar(select(func.coalesce(func.sum(ledger.c.amount), 0))) or 0)
    return {"balances": balances, "seats": at_seats, "granted": granted, "ledger_sum": entries}


@dataclass
class _HandStart:
    table: str
    number: int
    game: str
    commitment: str
    players: list[tuple[int, int]]  # (account id, seat)
    at: float
    again: bool = False


@dataclass
class _HandFinish:
    hand_id: int
    table: str
    results: list[tuple[int, int, int]]  # (account id, net, final stack)
    salt: str
    deck: str
    history: str
    phh: str | None
    text: str | None
    ledger: list[dict[str, Any]]
    again: bool = False


@dataclass
class _Move:
    """Chips between a balance and a seat (SQLite's journal): ``amount`` taken from the
    balance to the seat (buy_in, top_up) or, ``back``, from the seat to the balance
    (cash_out); ``seat`` the SQL and parameters that change the seat's row."""

    kind: str
    table: str
    account_id: int
    amount: int
    back: bool
    seat: tuple[str, tuple[Any, ...]]
    ledger: list[dict[str, Any]]
    extra: tuple[tuple[str, tuple[Any, ...]], ...] = ()  # more statements of its transaction
    txn: str = ""
    again: bool = False


def _move(
    kind: str,
    table: str,
    account_id: int,
    amount: int,
    seat: tuple[str, tuple[Any, ...]],
    back: bool = False,
    extra: tuple[tuple[str, tuple[Any, ...]], ...] = (),
    txn: str | None = None,
    again: bool = False,
) -> _Move:
    """The ledger entries as ``_to_table`` and ``_cash_out`` write them, made now."""
    moves: list[tuple[str, int | None, int]] = [
        (balance_book(account_id), account_id, -amount),
        (table_book(table, account_id), account_id, amount),
    ]
    if back:
        moves = [
            (table_book(table, account_id), account_id, -amount),
            (balance_book(account_id), account_id, amount),
        ]
    txn = txn or new_txn()
    rows = _ledger_rows(kind, moves, txn=txn)
    return _Move(kind, table, account_id, amount, back, seat, rows, extra, txn, again)


_Op = _HandStart | _HandFinish | _Move


@dataclass
class _Refused:
    """A journal write that failed alone (its savepoint rolled back): its error."""

    error: BaseException


def _answer(done: asyncio.Future[Any], result: Any) -> None:
    if done.done():
        return
    if type(result) is _Refused:
        done.set_exception(result.error)
    else:
        done.set_result(result)


# The hot writes' statements for SQLAlchemy (PostgreSQL), made once: building a statement
# cost more than running it (~0.1 ms of CPU each time)
_TAKE_BALANCE = (
    update(accounts)
    .where(accounts.c.id == bindparam("b_id"), accounts.c.balance >= bindparam("b_amount"))
    .values(balance=accounts.c.balance - bindparam("b_amount"))
    .returning(accounts.c.balance)
)
_GIVE_BALANCE = (
    update(accounts)
    .where(accounts.c.id == bindparam("b_id"))
    .values(balance=accounts.c.balance + bindparam("b_amount"))
)
_INSERT_SEAT = insert(seats)
_ADD_TO_SEAT = (
    update(seats)
    .where(seats.c.table_name == bindparam("b_table"), seats.c.account_id == bindparam("b_account"))
    .values(stack=seats.c.stack + bindparam("b_amount"))
)
_FREE_SEAT = delete(seats).where(
    seats.c.table_name == bindparam("b_table"), seats.c.account_id == bindparam("b_account")
)
_INSERT_LEDGER = insert(ledger)
_INSERT_DEPARTURE = insert(departures)
_NEW_HANDS = insert(hands).returning(hands.c.id, sort_by_parameter_order=True)
_INSERT_HAND_PLAYERS = insert(hand_players)
_SET_STACKS = (
    update(seats)
    .where(seats.c.table_name == bindparam("b_table"), seats.c.account_id == bindparam("b_account"))
    .values(stack=bindparam("b_stack"))
)
_SET_NETS = (
    update(hand_players)
    .where(hand_players.c.hand_id == bindparam("b_hand"), hand_players.c.account_id == bindparam("b_account"))
    .values(net=bindparam("b_net"))
)
_FINISH_HANDS = (
    update(hands)
    .where(hands.c.id == bindparam("b_id"))
    .values(
        status="complete",
        ended_at=bindparam("b_ended"),
        salt=bindparam("b_salt"),
        deck=bindparam("b_deck"),
        history=bindparam("b_history"),
        phh=bindparam("b_phh"),
        text=bindparam("b_text"),
    )
)


# What a write asked again (``again``) finds when its first try was committed: the hand
# started, the hand settled, the buy-in's or top-up's ledger transaction, the seat freed
_DONE_START = (
    "SELECT id FROM hands WHERE table_name = :table AND number = :number AND commitment = :commitment"
)
_DONE_FINISH = "SELECT id FROM hands WHERE id = :hand_id AND status <> 'playing'"
_DONE_MOVE = "SELECT 1 FROM ledger WHERE txn = :txn"
_SEAT_HELD = "SELECT 1 FROM seats WHERE table_name = :table AND account_id = :account_id"
_PENDING = object()  # not written yet: write it


def _done_query(op: _Op) -> tuple[str, dict[str, Any], bool]:
    """The query telling whether ``op`` was committed already: its SQL (named parameters,
    which both sqlite3 and SQLAlchemy's ``text`` take), the parameters, and whether a row
    found means it was (a cash-out: a seat still held means it was not)."""
    if isinstance(op, _HandStart):
        return _DONE_START, {"table": op.table, "number": op.number, "commitment": op.commitment}, True
    if isinstance(op, _HandFinish):
        return _DONE_FINISH, {"hand_id": op.hand_id}, True
    if op.back:
        return _SEAT_HELD, {"table": op.table, "account_id": op.account_id}, False
    return _DONE_MOVE, {"txn": op.txn}, True


def _merge(count: int, settled: dict[int, Any], written: list[Any]) -> list[Any]:
    """The results of ``count`` ops: those ``settled`` already by index, and in order the
    ``written`` results of the others."""
    results = iter(written)
    return [settled[i] if i in settled else next(results) for i in range(count)]


async def _apply(conn: AsyncConnection, ops: Sequence[_Op]) -> list[Any]:
    """``_write`` for the ops not committed already (those asked ``again`` and found)."""
    settled: dict[int, Any] = {}
    for i, op in enumerate(ops):
        if op.again:
            sql, values, found_means_done = _done_query(op)
            row = (await conn.execute(sql_text(sql), values)).first()
            if (row is not None) == found_means_done:
                settled[i] = int(row[0]) if isinstance(op, _HandStart) and row is not None else None
    if not settled:
        return await _write(conn, ops)  # type: ignore[arg-type]  # no _Move but on SQLite
    todo = [op for i, op in enumerate(ops) if i not in settled]
    return _merge(len(ops), settled, await _write(conn, todo))  # type: ignore[arg-type]


async def _write(conn: AsyncConnection, ops: Sequence[_HandStart | _HandFinish]) -> list[int | None]:
    """Hand writes in one transaction, as executemany statements in this order: new
    hands (their ids come back in order), their players; then for finished hands the
    seats' stacks, the players' nets, the ledger, the hands' rows. Returns each op's
    result (a new hand's id, None for a finish)."""
    out: list[int | None] = [None] * len(ops)
    starts = [(i, op) for i, op in enumerate(ops) if isinstance(op, _HandStart)]
    ends = [op for op in ops if isinstance(op, _HandFinish)]
    if starts:
        new = [
            {"table_name": op.table, "number": op.number, "game": op.game, "status": "playing",
             "started_at": op.at, "commitment": op.commitment}
            for _, op in starts
        ]
        result = await conn.execute(_NEW_HANDS, new)
        ids = [int(x) for x in result.scalars().all()]
        for (i, _), hand_id in zip(starts, ids, strict=True):
            out[i] = hand_id
        players = [
            {"hand_id": hand_id, "account_id": account, "seat": seat}
            for (_, op), hand_id in zip(starts, ids, strict=True)
            for account, seat in op.players
        ]
        if players:
            await conn.execute(_INSERT_HAND_PLAYERS, players)
    if ends:
        stacks = [
            {"b_table": op.table, "b_account": a, "b_stack": stack}
            for op in ends
            for a, _, stack in op.results
        ]
        if stacks:
            await conn.execute(_SET_STACKS, stacks)
            await conn.execute(
                _SET_NETS,
                [
                    {"b_hand": op.hand_id, "b_account": a, "b_net": net}
                    for op in ends
                    for a, net, _ in op.results
                ],
            )
        entries = [row for op in ends for row in op.ledger]
        if entries:
            await conn.execute(_INSERT_LEDGER, entries)
        now = time.time()
        await conn.execute(
            _FINISH_HANDS,
            [
                {"b_id": op.hand_id, "b_ended": now, "b_salt": op.salt, "b_deck": op.deck,
                 "b_history": op.history, "b_phh": op.phh, "b_text": op.text}
                for op in ends
            ],
        )
    return out


# ---------------------------------------------------------------- SQLite, one trip per transaction
# The statements SQLAlchemy writes for the schema (schema.py), as plain SQLite SQL, run by
# Store._run_sqlite; the same rows as the SQLAlchemy path beside them (tests/server/
# test_store_paths.py checks that the two leave identical databases).

_SQL_INSERT_HAND = (
    "INSERT INTO hands (table_name, number, game, status, started_at, commitment) VALUES (?, ?, ?, ?, ?, ?)"
)
_SQL_INSERT_HAND_PLAYER = "INSERT INTO hand_players (hand_id, account_id, seat) VALUES (?, ?, ?)"
_SQL_SET_STACK = "UPDATE seats SET stack=? WHERE seats.table_name = ? AND seats.account_id = ?"
_SQL_SET_NET = "UPDATE hand_players SET net=? WHERE hand_players.hand_id = ? AND hand_players.account_id = ?"
_SQL_INSERT_LEDGER = (
    "INSERT INTO ledger (txn, at, kind, book, account_id, amount, hand_id) VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_SQL_FINISH_HAND = (
    "UPDATE hands SET status=?, ended_at=?, salt=?, deck=?, history=?, phh=?, text=? WHERE hands.id = ?"
)
_SQL_TAKE_BALANCE = (
    "UPDATE accounts SET balance=(accounts.balance - ?) WHERE accounts.id = ? AND accounts.balance >= ?"
)
_SQL_ADD_BALANCE = "UPDATE accounts SET balance=(accounts.balance + ?) WHERE accounts.id = ?"
_SQL_BALANCE = "SELECT accounts.balance FROM accounts WHERE accounts.id = ?"
_SQL_INSERT_SEAT = "INSERT INTO seats (table_name, seat, account_id, stack) VALUES (?, ?, ?, ?)"
_SQL_ADD_TO_SEAT = (
    "UPDATE seats SET stack=(seats.stack + ?) WHERE seats.table_name = ? AND seats.account_id = ?"
)
_SQL_FREE_SEAT = "DELETE FROM seats WHERE seats.table_name = ? AND seats.account_id = ?"
_SQL_INSERT_DEPARTURE = "INSERT INTO departures (table_name, account_id, stack, at) VALUES (?, ?, ?, ?)"


def _at_tables(account_id: int) -> Any:
    """The chips an account has at tables: the sum of its seats' stacks."""
    return select(func.coalesce(func.sum(seats.c.stack), 0)).where(seats.c.account_id == account_id)


def _sqlite_reachable(driver: Any) -> bool:
    """Whether an aiosqlite connection has what _run_sqlite uses: its ``_execute`` (a
    function run in its thread, once it checked the connection is open) and ``_conn``."""
    try:
        return callable(getattr(driver, "_execute", None)) and isinstance(driver._conn, sqlite3.Connection)
    except Exception:  # pragma: no cover
        return False


def _sqlite_call(fn: Callable[[sqlite3.Connection], _T], db: sqlite3.Connection) -> _T:
    try:
        return fn(db)
    except sqlite3.Error as e:
        raise _sqlalchemy_error(e) from e


def _sqlalchemy_error(e: sqlite3.Error) -> exc.DBAPIError:
    """A sqlite3 error as SQLAlchemy raises it from its own statements."""
    kind: type[exc.DBAPIError]
    if isinstance(e, sqlite3.IntegrityError):
        kind = exc.IntegrityError
    elif isinstance(e, sqlite3.OperationalError):
        kind = exc.OperationalError
    elif isinstance(e, sqlite3.DatabaseError):
        kind = exc.DatabaseError
    else:
        kind = exc.DBAPIError
    error = kind(None, None, e)
    error.__cause__ = e
    return error


def _ledger_tuples(rows: Sequence[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [
        (r["txn"], r["at"], r["kind"], r["book"], r["account_id"], r["amount"], r["hand_id"]) for r in rows
    ]


def _apply_sqlite(ops: Sequence[_Op], db: sqlite3.Connection) -> list[Any]:
    """``_apply`` on SQLite, in its thread."""
    settled: dict[int, Any] = {}
    for i, op in enumerate(ops):
        if op.again:
            sql, values, found_means_done = _done_query(op)
            row = db.execute(sql, values).fetchone()
            if (row is not None) == found_means_done:
                settled[i] = _settled_sqlite(op, row, db)
    if not settled:
        return _write_sqlite(ops, db)
    return _merge(len(ops), settled, _write_sqlite([op for i, op in enumerate(ops) if i not in settled], db))


def _settled_sqlite(op: _Op, row: Any, db: sqlite3.Connection) -> Any:
    """What a write committed already answers: a hand's id, a buy-in's balance left, None."""
    if isinstance(op, _HandStart):
        return int(row[0])
    if isinstance(op, _Move) and not op.back:
        balance = db.execute(_SQL_BALANCE, (op.account_id,)).fetchone()
        return int(balance[0] if balance is not None and balance[0] is not None else 0)
    return None


def _write_sqlite(ops: Sequence[_Op], db: sqlite3.Connection) -> list[Any]:
    """``_write`` on SQLite, in its thread: the same statements in the same order, with the
    buy-ins, top-ups and cash-outs (``_move_sqlite``) between the new hands and the ends."""
    out: list[Any] = [None] * len(ops)
    players: list[tuple[int, int, int]] = []
    for i, op in enumerate(ops):
        if isinstance(op, _HandStart):
            cursor = db.execute(
                _SQL_INSERT_HAND, (op.table, op.number, op.game, "playing", op.at, op.commitment)
            )
            hand_id = cursor.lastrowid
            assert hand_id is not None
            out[i] = hand_id
            players += [(hand_id, account, seat) for account, seat in op.players]
    if players:
        db.executemany(_SQL_INSERT_HAND_PLAYER, players)
    for i, op in enumerate(ops):
        if isinstance(op, _Move):
            out[i] = _move_sqlite(op, db)
    ends = [op for op in ops if isinstance(op, _HandFinish)]
    if ends:
        stacks = [(stack, op.table, a) for op in ends for a, _, stack in op.results]
        if stacks:
            db.executemany(_SQL_SET_STACK, stacks)
            db.executemany(_SQL_SET_NET, [(net, op.hand_id, a) for op in ends for a, net, _ in op.results])
        entries = [row for op in ends for row in op.ledger]
        if entries:
            db.executemany(_SQL_INSERT_LEDGER, _ledger_tuples(entries))
        now = time.time()
        db.executemany(
            _SQL_FINISH_HAND,
            [("complete", now, op.salt, op.deck, op.history, op.phh, op.text, op.hand_id) for op in ends],
        )
    return out


def _move_sqlite(op: _Move, db: sqlite3.Connection) -> int | _Refused | None:
    """One buy-in, top-up or cash-out in the journal's transaction, under a savepoint: a
    refused one (a balance too small, no seat, a seat taken) is undone alone and its error
    returned. Writes what Store._to_table or Store._cash_out writes; returns the balance
    left (buy-in, top-up) or None (cash-out)."""
    if not db.in_transaction:  # the savepoint must not be the transaction (its release would commit)
        db.execute("BEGIN")
    db.execute("SAVEPOINT chips")
    try:
        if op.back:
            db.execute(*op.seat)
            db.execute(_SQL_ADD_BALANCE, (op.amount, op.account_id))
            for statement in op.extra:
                db.execute(*statement)
        else:
            if db.execute(_SQL_TAKE_BALANCE, (op.amount, op.account_id, op.amount)).rowcount != 1:
                raise StoreError("insufficient_balance", f"your balance is less than {op.amount}")
            if db.execute(*op.seat).rowcount != 1:
                raise StoreError("not_seated", f"no seat at {op.table!r} to add chips to")
        if op.ledger:
            db.executemany(_SQL_INSERT_LEDGER, _ledger_tuples(op.ledger))
        result = None
        if not op.back:
            row = db.execute(_SQL_BALANCE, (op.account_id,)).fetchone()
            result = int(row[0] if row is not None and row[0] is not None else 0)
    except (StoreError, sqlite3.Error) as e:
        db.execute("ROLLBACK TO chips")
        db.execute("RELEASE chips")
        return _Refused(e if isinstance(e, StoreError) else _sqlalchemy_error(e))
    db.execute("RELEASE chips")
    return result


def new_txn() -> str:
    """A fresh ledger transaction id: the key of a buy-in or top-up asked again."""
    return secrets.token_hex(16)


def _ledger_rows(
    kind: str,
    moves: Sequence[tuple[str, int | None, int]],
    hand_id: int | None = None,
    txn: str | None = None,
) -> list[dict[str, Any]]:
    """The rows of one ledger transaction: (book, account id, amount) entries that sum to
    zero, under one transaction id (``txn``, else a fresh one)."""
    if sum(m[2] for m in moves) != 0:
        raise AssertionError(f"unbalanced ledger transaction {kind}: {moves}")
    txn, at = txn or new_txn(), time.time()
    return [
        {
            "txn": txn,
            "at": at,
            "kind": kind,
            "book": book,
            "account_id": account,
            "amount": amount,
            "hand_id": hand_id,
        }
        for book, account, amount in moves
        if amount
    ]


def _with_reveals(text: str, shown: Sequence[Any]) -> str:
    """A stored history's JSON text with ``"reveals": {"<seat>": ["Ah", "Kd"]}`` from the
    reveals rows (seat, 'AhKd'), a seat's showings joined in order (one card, then the other)."""
    by_seat: dict[str, list[str]] = {}
    for seat, cards in shown:
        have = by_seat.setdefault(str(seat), [])
        have += [c for c in (cards[i : i + 2] for i in range(0, len(cards), 2)) if c not in have]
    history = json.loads(text)
    if not isinstance(history, dict):
        return text
    history["reveals"] = by_seat
    return json.dumps(history, separators=(",", ":"))


def _account(row: Any) -> Account | None:
    if row is None:
        return None
    return Account(row.id, row.name, int(row.balance), row.password_hash, float(row.last_grant_at))
