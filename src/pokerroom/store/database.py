"""The store's database: the async engine (SQLite by default, PostgreSQL by URL), the
migrations run on start, and the write transaction every write goes through
(``Database._writing``), where SQLite's writers take turns and injected faults
(faults.py) strike.

The store's jobs (accounts.py, money.py, journal.py) are classes on top of ``Database``;
``pokerroom.store.Store`` is all of them together.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, TypeVar

from alembic import command
from alembic.config import Config as AlembicConfig
from sqlalchemy import Connection, event, exc
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from pokerroom.store.faults import Faults

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_T = TypeVar("_T")

# The journal's connection plans its statements as index lookups, whatever the planner
# thinks of the tables' sizes: each statement writes a handful of rows by their keys
# (journal_pg.py), but its plan is cached when the connection first runs it, often while
# the tables are small, and a plan that scans a whole table (hands, hand_players, seats)
# then reads all the room's history for every batch: measured on the cluster at 700
# tables, 350,000 rows read a second and 0.1 core of PostgreSQL per worker, growing with
# the history. The connection is the journal's alone (Database._writing_pg); the pool
# closes it with the store.
_JOURNAL_PLANS = ("SELECT set_config('enable_seqscan', 'off', false), "
                  "set_config('enable_hashjoin', 'off', false), set_config('enable_mergejoin', 'off', false)")


class StoreError(Exception):
    """A storage operation the rules refuse (``code`` for machines)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def database_url(url: str) -> str:
    """The async driver's URL for a plain one: sqlite → aiosqlite, postgresql → asyncpg."""
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        return str(parsed.set(drivername="sqlite+aiosqlite"))
    if backend == "postgresql":
        return parsed.set(drivername="postgresql+asyncpg").render_as_string(hide_password=False)
    raise StoreError("bad_database", f"unsupported database {backend!r}: sqlite or postgresql")


def _upgrade(connection: Connection) -> None:
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


class Database:
    def __init__(self, url: str, schema: str | None = None) -> None:
        """``schema`` (PostgreSQL): keep the room's tables in that schema, created if
        needed, so several rooms (or test runs) can share one database."""
        self.url = database_url(url)
        self._write_lock: asyncio.Lock | None = None  # SQLite's writers, one at a time (_writing)
        self._write_conn: AsyncConnection | None = None  # and the connection they share
        parsed = make_url(self.url)
        self.sqlite = parsed.get_backend_name() == "sqlite"
        # SQLite: the hot writes (hands, buy-ins, top-ups, cash-outs) run as one function
        # in aiosqlite's thread (_run_sqlite, journal_sqlite.py), not statement by statement
        self._sqlite_direct = self.sqlite
        # PostgreSQL: they run as a few statements on the asyncpg connection itself
        # (_writing_pg, journal_pg.py), on a connection kept for them
        self._pg_direct = not self.sqlite
        self._pg_conn: AsyncConnection | None = None
        self._pg_lock = asyncio.Lock()
        self.schema = schema
        self.faults = Faults.from_environment()  # injected failures, for fault tests (faults.py)
        if self.sqlite and parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        connect_args: dict[str, Any] = {}
        if not self.sqlite:  # the room's connections, as pg_stat_activity names them
            connect_args["server_settings"] = {"application_name": f"pokerroom:{schema or 'public'}"}
        if schema and not self.sqlite:
            if not schema.replace("_", "").isalnum():
                raise StoreError("bad_database", f"bad schema name {schema!r}")
            connect_args["server_settings"]["search_path"] = schema
        self.engine: AsyncEngine = create_async_engine(self.url, connect_args=connect_args)
        if not self.sqlite:

            @event.listens_for(self.engine.sync_engine, "connect")
            def _adapter(dbapi_connection: Any, _record: Any) -> None:
                if not _pg_reachable(dbapi_connection):
                    self._pg_direct = False  # pragma: no cover (another SQLAlchemy)

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
            if not self.sqlite:  # processes of one room starting together migrate one at a time
                await conn.exec_driver_sql("SELECT pg_advisory_xact_lock(7220018)")
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

    @property
    def _direct(self) -> bool:
        """Whether the hot writes take a raw path (SQLite's or PostgreSQL's): the journal's
        batches then carry the buy-ins, top-ups and cash-outs too."""
        return self._sqlite_direct or self._pg_direct

    @contextlib.asynccontextmanager
    async def _writing_pg(self) -> AsyncIterator[Any]:
        """A write transaction on PostgreSQL's raw path, for the journal's writer (one
        batch at a time): SQLAlchemy's transaction on a connection kept from its pool (no
        checkout per transaction), begun at once on the asyncpg connection under it, which
        it yields: statements run on that one directly (journal_pg.py), and SQLAlchemy
        commits or rolls back as for its own (its "commit" events fire as on the other
        paths).
        It goes through its asyncpg adapter's ``_start_transaction`` (what its cursors
        call before a first statement) and ``_connection``; if the adapter stops having
        them, the store keeps to SQLAlchemy's statements (``_pg_reachable``). Injected
        faults strike as in ``_writing``."""
        faults = self.faults
        fault = faults.draw() if faults is not None else None  # injected: for fault tests only
        async with self._pg_lock:
            kept = self._pg_conn
            if kept is None or kept.closed or kept.invalidated:
                kept = self._pg_conn = await self.engine.connect()
                async with kept.begin():  # for the life of this connection: see _JOURNAL_PLANS
                    await kept.exec_driver_sql(_JOURNAL_PLANS)
            driver: Any = None
            try:
                async with kept.begin():
                    adapter: Any = (await kept.get_raw_connection()).dbapi_connection
                    driver = adapter._connection
                    if adapter._transaction is None:
                        await adapter._start_transaction()
                    yield driver
                    if fault == "before":
                        faults.fail(fault)  # type: ignore[union-attr]
            except BaseException as e:
                # kept only after a refusal or an error of the server's, the transaction
                # rolled back; anything else (the connection lost, a cancellation in the
                # middle of a statement) may have left it unusable: a new one next time
                if not (isinstance(e, StoreError | exc.DBAPIError) and driver is not None
                        and not driver.is_closed() and not driver.is_in_transaction()
                        and not kept.invalidated and not kept.in_transaction()):
                    self._pg_conn = None
                    with contextlib.suppress(Exception):
                        await kept.invalidate()
                raise
        if fault == "after":
            faults.fail(fault)  # type: ignore[union-attr]

    async def close(self) -> None:
        for attribute in ("_write_conn", "_pg_conn"):
            conn = getattr(self, attribute)
            if conn is not None:
                setattr(self, attribute, None)
                with contextlib.suppress(Exception):
                    await conn.close()
        await self.engine.dispose()

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


def _sqlite_reachable(driver: Any) -> bool:
    """Whether an aiosqlite connection has what _run_sqlite uses: its ``_execute`` (a
    function run in its thread, once it checked the connection is open) and ``_conn``."""
    try:
        return callable(getattr(driver, "_execute", None)) and isinstance(driver._conn, sqlite3.Connection)
    except Exception:  # pragma: no cover
        return False


def _pg_reachable(adapter: Any) -> bool:
    """Whether SQLAlchemy's asyncpg adapter has what _writing_pg uses: ``_transaction``,
    ``_start_transaction`` and the asyncpg connection as ``_connection``."""
    try:
        import asyncpg  # type: ignore[import-untyped]

        return (callable(getattr(adapter, "_start_transaction", None)) and hasattr(adapter, "_transaction")
                and isinstance(adapter._connection, asyncpg.Connection))
    except Exception:  # pragma: no cover
        return False


def _sqlite_call(fn: Callable[[sqlite3.Connection], _T], db: sqlite3.Connection) -> _T:
    try:
        return fn(db)
    except sqlite3.Error as e:
        raise sqlalchemy_error(e) from e


def sqlalchemy_error(e: sqlite3.Error) -> exc.DBAPIError:
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
