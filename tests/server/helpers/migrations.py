"""Migrations as the migration tests run them: a database brought to an older revision
(its schema created first, on PostgreSQL), for that time's data to be written before the
store's own ``migrate()`` takes it on."""

from __future__ import annotations

from alembic import command
from alembic.config import Config as AlembicConfig
from alembic.script import ScriptDirectory
from sqlalchemy import Connection
from sqlalchemy.ext.asyncio import AsyncConnection

from pokerroom.store import MIGRATIONS, Store


async def upgrade_to(conn: AsyncConnection, store: Store, revision: str) -> None:
    """Bring ``store``'s database to ``revision``, on ``conn`` (in its transaction)."""
    if store.schema:
        await conn.exec_driver_sql(f'CREATE SCHEMA IF NOT EXISTS "{store.schema}"')
    await conn.run_sync(_upgrade, revision)


def _upgrade(connection: Connection, revision: str) -> None:
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, revision)


def head_revision() -> str:
    """The latest migration's revision: where ``migrate()`` leaves a database."""
    config = AlembicConfig()
    config.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert head is not None
    return head
