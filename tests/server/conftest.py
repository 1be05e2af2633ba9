"""The server tests' fixtures: a real room server (tests/server/helpers.py: `pokerroom
serve` in a subprocess on a free loopback port) with a fresh database: an SQLite file
always, and PostgreSQL whenever POKERROOM_TEST_DATABASE_URL names one (then it must be
reachable: the tests fail, never skip)."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.server.helpers import Server, serving


def _databases() -> list[str]:
    kinds = ["sqlite"]
    if os.environ.get("POKERROOM_TEST_DATABASE_URL"):
        kinds.append("postgresql")
    return kinds


@pytest.fixture(params=_databases())
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str | None]]:
    """(URL, schema) of an empty database for one test: an SQLite file, or a fresh schema
    of the PostgreSQL database (dropped afterwards)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'room.db'}", None
        return
    url = os.environ["POKERROOM_TEST_DATABASE_URL"]
    schema = f"test_{secrets.token_hex(6)}"
    yield url, schema
    asyncio.run(_drop_schema(url, schema))


async def _drop_schema(url: str, schema: str) -> None:
    import asyncpg  # type: ignore[import-untyped]

    conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
    finally:
        await conn.close()


@pytest.fixture
def server(tmp_path: Path, database: tuple[str, str | None]) -> Iterator[Server]:
    yield from serving(Server(tmp_path, database))
