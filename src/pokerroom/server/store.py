"""Storage: accounts, sessions, seats, the double-entry ledger and hand histories.

One ``Store`` per server, on SQLAlchemy's async engine: SQLite (aiosqlite, a file created
on first start) by default, PostgreSQL (asyncpg) by URL. Migrations (Alembic) run on
start. Every movement of chips is one transaction of ledger entries that sum to zero,
written together with the balances and seat stacks it changes (invariant 1 and 5): the
sum over all accounts and seats changes only by grants, which come from the 'bank' book.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy import Connection, bindparam, delete, event, func, insert, select, update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from pokerroom.server.schema import accounts, hand_players, hands, ledger, seats, sessions

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


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
        self._queued: list[tuple[_HandStart | _HandFinish, asyncio.Future[Any]]] = []
        self._writer: asyncio.Task[None] | None = None
        self._write_lock: asyncio.Lock | None = None  # SQLite's writers, one at a time (_writing)
        parsed = make_url(self.url)
        self.sqlite = parsed.get_backend_name() == "sqlite"
        self.schema = schema
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
        if self._write_lock is None:
            async with self.engine.begin() as conn:
                yield conn
            return
        async with self._write_lock, self.engine.begin() as conn:
            yield conn

    async def close(self) -> None:
        if self._writer is not None and not self._writer.done():
            with contextlib.suppress(Exception):
                await self._writer  # what is queued is written first
        await self.engine.dispose()

    # ------------------------------------------------------------------ ledger

    @staticmethod
    async def _transfer(
        conn: AsyncConnection,
        kind: str,
        moves: Sequence[tuple[str, int | None, int]],
        hand_id: int | None = None,
    ) -> None:
        """One ledger transaction: (book, account id, amount) entries summing to zero."""
        rows = _ledger_rows(kind, moves, hand_id)
        if rows:
            await conn.execute(insert(ledger), rows)

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
            await conn.execute(
                update(accounts)
                .where(accounts.c.id == account_id)
                .values(balance=accounts.c.balance + amount, last_grant_at=time.time())
            )
            await self._transfer(
                conn, kind, [("bank", None, -amount), (balance_book(account_id), account_id, amount)]
            )
            return int(await conn.scalar(select(accounts.c.balance).where(accounts.c.id == account_id)) or 0)

    async def chips_at_tables(self, account_id: int) -> int:
        async with self.engine.connect() as conn:
            return int(
                await conn.scalar(
                    select(func.coalesce(func.sum(seats.c.stack), 0)).where(seats.c.account_id == account_id)
                )
                or 0
            )

    # ------------------------------------------------------------------ sessions

    async def create_session(self, account_id: int, token_hash: str, ttl: float) -> None:
        now = time.time()
        async with self._writing() as conn:
            await conn.execute(
                insert(sessions).values(
                    token_hash=token_hash, account_id=account_id, created_at=now, expires_at=now + ttl
                )
            )

    async def session_account(self, token_hash: str) -> Account | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(accounts)
                    .join(sessions, sessions.c.account_id == accounts.c.id)
                    .where(sessions.c.token_hash == token_hash, sessions.c.expires_at > time.time())
                )
            ).first()
        return _account(row)

    async def delete_session(self, token_hash: str) -> None:
        async with self._writing() as conn:
            await conn.execute(delete(sessions).where(sessions.c.token_hash == token_hash))

    # ------------------------------------------------------------------ money at tables

    async def buy_in(self, table: str, seat: int, account_id: int, amount: int) -> int:
        """Move ``amount`` from the balance to a seat; returns the balance left."""
        insert_seat = insert(seats).values(table_name=table, seat=seat, account_id=account_id, stack=amount)
        return await self._to_table("buy_in", table, account_id, amount, insert_seat)

    async def top_up(self, table: str, account_id: int, amount: int) -> int:
        """Move ``amount`` from the balance to the player's seat; returns the balance left."""
        add = (
            update(seats)
            .where(seats.c.table_name == table, seats.c.account_id == account_id)
            .values(stack=seats.c.stack + amount)
        )
        return await self._to_table("top_up", table, account_id, amount, add)

    async def _to_table(self, kind: str, table: str, account_id: int, amount: int, seat_change: Any) -> int:
        async with self._writing() as conn:
            result = await conn.execute(
                update(accounts)
                .where(accounts.c.id == account_id, accounts.c.balance >= amount)
                .values(balance=accounts.c.balance - amount)
            )
            if result.rowcount != 1:
                raise StoreError("insufficient_balance", f"your balance is less than {amount}")
            if (await conn.execute(seat_change)).rowcount != 1:
                raise StoreError("not_seated", f"no seat at {table!r} to add chips to")
            moves = [
                (balance_book(account_id), account_id, -amount),
                (table_book(table, account_id), account_id, amount),
            ]
            await self._transfer(conn, kind, moves)
            return int(await conn.scalar(select(accounts.c.balance).where(accounts.c.id == account_id)) or 0)

    async def cash_out(self, table: str, account_id: int, stack: int, kind: str = "cash_out") -> None:
        """The player left the table with ``stack``: back to his balance, the seat freed."""
        async with self._writing() as conn:
            await self._cash_out(conn, table, account_id, stack, kind)

    async def _cash_out(
        self, conn: AsyncConnection, table: str, account_id: int, stack: int, kind: str
    ) -> None:
        await conn.execute(delete(seats).where(seats.c.table_name == table, seats.c.account_id == account_id))
        await conn.execute(
            update(accounts).where(accounts.c.id == account_id).values(balance=accounts.c.balance + stack)
        )
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
        the stacks from before it). Returns how many seats were emptied."""
        async with self._writing() as conn:
            rows = (await conn.execute(select(seats))).all()
            for row in rows:
                await self._cash_out(conn, row.table_name, row.account_id, row.stack, "restart")
            await conn.execute(update(hands).where(hands.c.status == "playing").values(status="void"))
        return len(rows)

    # ------------------------------------------------------------------ hands

    async def start_hand(
        self, table: str, number: int, game: str, commitment: str, players: Sequence[tuple[int, int]]
    ) -> int:
        """A hand begins (``players``: (account id, seat)); its id, once committed. Written
        through the journal (``_journal``) with other tables' hands."""
        op = _HandStart(table, number, game, commitment, list(players), time.time())
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
    ) -> None:
        """The hand's result, history and ledger entries, committed when this returns
        (invariant 5), in one transaction with whatever else the journal holds. ``phh`` and
        ``text`` (public texts) are optional: the server leaves them NULL and writes texts
        from ``history`` on request."""
        moves = [(table_book(table, a), a, net) for a, net, _ in results]
        ledger_rows = _ledger_rows("hand", moves, hand_id)  # checks the sum before anything
        op = _HandFinish(hand_id, table, list(results), salt, deck, history, phh, text, ledger_rows)
        await self._journal(op)

    # ------------------------------------------------------------------ the journal

    async def _journal(self, op: _HandStart | _HandFinish) -> Any:
        """Queue a hand write and wait until it is committed. One writer task commits what
        is queued in one transaction of a few multi-row statements: at hundreds of hands a
        second, hands of many tables share a commit, so the cost per hand falls as the room
        gets busier (a statement costs the event loop ~0.5 ms however few rows it has)."""
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

    async def _write_batch(self, batch: list[tuple[_HandStart | _HandFinish, asyncio.Future[Any]]]) -> None:
        applied = False  # every statement ran: a failure now is in the commit itself
        try:
            async with self._writing() as conn:
                results = await _apply(conn, [op for op, _ in batch])
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
                        (result,) = await _apply(conn, [op])
                except Exception as e:
                    if not done.done():
                        done.set_exception(e)
                else:
                    if not done.done():
                        done.set_result(result)
        else:
            for (_, done), result in zip(batch, results, strict=True):
                if not done.done():
                    done.set_result(result)

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
        data = dict(row._mapping)
        data["players"] = [dict(p._mapping) for p in players]
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

    async def totals(self) -> dict[str, int]:
        """Chips on balances, at seats, and granted; balances + seats == granted."""
        async with self.engine.connect() as conn:
            balances = int(await conn.scalar(select(func.coalesce(func.sum(accounts.c.balance), 0))) or 0)
            at_seats = int(await conn.scalar(select(func.coalesce(func.sum(seats.c.stack), 0))) or 0)
            granted = -int(
                await conn.scalar(
                    select(func.coalesce(func.sum(ledger.c.amount), 0)).where(ledger.c.book == "bank")
                )
                or 0
            )
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


async def _apply(conn: AsyncConnection, ops: Sequence[_HandStart | _HandFinish]) -> list[int | None]:
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
        result = await conn.execute(insert(hands).returning(hands.c.id, sort_by_parameter_order=True), new)
        ids = [int(x) for x in result.scalars().all()]
        for (i, _), hand_id in zip(starts, ids, strict=True):
            out[i] = hand_id
        players = [
            {"hand_id": hand_id, "account_id": account, "seat": seat}
            for (_, op), hand_id in zip(starts, ids, strict=True)
            for account, seat in op.players
        ]
        if players:
            await conn.execute(insert(hand_players), players)
    if ends:
        stacks = [
            {"b_table": op.table, "b_account": a, "b_stack": stack}
            for op in ends
            for a, _, stack in op.results
        ]
        if stacks:
            await conn.execute(
                update(seats)
                .where(
                    seats.c.table_name == bindparam("b_table"), seats.c.account_id == bindparam("b_account")
                )
                .values(stack=bindparam("b_stack")),
                stacks,
            )
            await conn.execute(
                update(hand_players)
                .where(
                    hand_players.c.hand_id == bindparam("b_hand"),
                    hand_players.c.account_id == bindparam("b_account"),
                )
                .values(net=bindparam("b_net")),
                [
                    {"b_hand": op.hand_id, "b_account": a, "b_net": net}
                    for op in ends
                    for a, net, _ in op.results
                ],
            )
        entries = [row for op in ends for row in op.ledger]
        if entries:
            await conn.execute(insert(ledger), entries)
        now = time.time()
        await conn.execute(
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
            ),
            [
                {"b_id": op.hand_id, "b_ended": now, "b_salt": op.salt, "b_deck": op.deck,
                 "b_history": op.history, "b_phh": op.phh, "b_text": op.text}
                for op in ends
            ],
        )
    return out


def _ledger_rows(
    kind: str, moves: Sequence[tuple[str, int | None, int]], hand_id: int | None = None
) -> list[dict[str, Any]]:
    """The rows of one ledger transaction: (book, account id, amount) entries that sum to
    zero, under one fresh transaction id."""
    if sum(m[2] for m in moves) != 0:
        raise AssertionError(f"unbalanced ledger transaction {kind}: {moves}")
    txn, at = secrets.token_hex(16), time.time()
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


def _account(row: Any) -> Account | None:
    if row is None:
        return None
    return Account(row.id, row.name, int(row.balance), row.password_hash, float(row.last_grant_at))
