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

from tests.server.helpers import ClusterServer, Server, serving


def _databases() -> list[str]:
    kinds = ["sqlite"]
    if os.environ.get("POKERROOM_TEST_DATABASE_URL"):
        kinds.append("postgresql")
    return kinds


@pytest.fixture(params=_databases())
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str | None]]:
    """(URL, schema) of an empty database for one test: an SQLite file, or a fresh schema
    of the PostgreSQL database (dropped afterwards)."""
    yield from fresh_database(request.param, tmp_path)


def fresh_database(kind: str, tmp_path: Path) -> Iterator[tuple[str, str | None]]:
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'room.db'}", None
        return
    # the cluster runs on PostgreSQL: this machine's when the variable names none
    url = os.environ.get("POKERROOM_TEST_DATABASE_URL") or "postgresql://postgres@127.0.0.1:5432/test"
    schema = f"test_{secrets.token_hex(6)}"
    yield url, schema
    asyncio.run(_drop_schema(url, schema))


@pytest.fixture
def pg_database(tmp_path: Path) -> Iterator[tuple[str, str | None]]:
    """A fresh schema of PostgreSQL (POKERROOM_TEST_DATABASE_URL, else this machine's),
    for the tests of what only PostgreSQL has: it must be reachable (fail, never skip)."""
    yield from fresh_database("postgresql", tmp_path)


# (database, kind of room) for the suites that run against both kinds of room: every
# database with `pokerroom serve`, and the cluster (issue 18: two workers and a gateway on
# NATS) on PostgreSQL
DEPLOYMENTS = [*((d, "serve") for d in _databases()), ("postgresql", "cluster")]


@pytest.fixture(params=DEPLOYMENTS, ids=lambda d: f"{d[0]}-{d[1]}")
def deployment(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[tuple[tuple[str, str | None], type[Server]]]:
    """(database, the server class) of one room to test: ``pokerroom serve``, or the cluster."""
    kind, room = request.param
    for database in fresh_database(kind, tmp_path):
        yield database, ClusterServer if room == "cluster" else Server


@pytest.fixture
def any_server(tmp_path: Path, deployment: tuple[tuple[str, str | None], type[Server]]) -> Iterator[Server]:
    """The test room served by `pokerroom serve` or by the cluster."""
    database, kind = deployment
    yield from serving(kind(tmp_path, database))


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
