"""A player with many hands in the database, for the tests of his hand list's pages, its
filters and his archive (tests/server/test_hands_paging.py, test_archive.py and the
browser's tests/web/test_history_paging_ui.py): hands played at a table of each game
(helpers.tables), stored through the Store's journal as the runner stores them, their
ends spread over three days; the two players who played the most of them can log in."""

from __future__ import annotations

import asyncio
import concurrent.futures
import datetime
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from sqlalchemy import bindparam, update

from pokerroom.core.cards import FULL_DECK
from pokerroom.passwords import hash_password
from pokerroom.store import Store
from pokerroom.store.schema import hands
from tests.server.conftest import fresh_database
from tests.server.helpers.players import bearer
from tests.server.helpers.servers import Server, serving
from tests.server.helpers.tables import played_tables, runner_history

# the three days the hands ended on (UTC), a third of them each, in the order played
DAYS = [datetime.date(2026, 11, 28), datetime.date(2026, 11, 29), datetime.date(2026, 11, 30)]


@dataclass(frozen=True)
class Hand:
    id: int
    table: str
    game: str
    ended_at: float
    seats: dict[str, int]  # account name -> seat
    holes: dict[int, list[str]]  # seat -> his hole cards (stud: all seven or fewer)


@dataclass
class Seeded:
    hero: str  # the account with the most hands; his password is ``password``
    rival: str  # the one with the next most, the same password
    password: str
    hands: list[Hand] = field(default_factory=list)

    def mine(self, who: str | None = None) -> list[Hand]:
        """The hero's hands (or ``who``'s), newest first (by id)."""
        name = who or self.hero
        return sorted((h for h in self.hands if name in h.seats), key=lambda h: -h.id)


def _day_of(k: int, total: int) -> float:
    """When the ``k``-th of ``total`` hands ended: noon of its third's day, a second apart."""
    day = DAYS[min(3 * k // total, 2)]
    noon = datetime.datetime(day.year, day.month, day.day, 12, tzinfo=datetime.UTC).timestamp()
    return noon + k


def seed_hands(
    database: tuple[str, str | None], password: str, per_table: int = 45, seed: int = 21,
) -> Seeded:
    """Hands at the six tables of helpers.tables.GAMES (``per_table`` each, at most),
    stored in the migrated ``database``; accounts ``acct_<player>``. In a thread of its
    own: a browser test's thread runs Playwright's event loop."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, _seed(database, password, per_table, seed)).result()


async def _seed(database: tuple[str, str | None], password: str, per_table: int, seed: int) -> Seeded:
    rng = random.Random(seed)
    store = Store(*database)
    try:
        await store.migrate()
        store.journal_wait = 0.0
        accounts: dict[str, int] = {}
        stored: list[tuple[int, str, str, dict[str, int], dict[int, list[str]]]] = []
        for k, table in enumerate(played_tables(seed, hands=per_table)):
            assert table.hand is not None and table.plan is not None and table.previous is not None
            deck = list(FULL_DECK)
            rng.shuffle(deck)
            history, cards, _ = runner_history(table, deck, k)
            name = f"{table.config.seats}-max {table.previous.game}"
            history["table"] = name
            for player in table.hand_players:
                if player not in accounts:
                    accounts[player] = (await store.create_account(f"acct_{player}", "h", 0)).id
            seats = list(table.plan.seats)
            players = [(accounts[p], s) for p, s in zip(table.hand_players, seats, strict=True)]
            hand_id = await store.start_hand(name, history["number"], table.previous.game,
                                             history["commitment"], players)
            hand = table.hand
            results = [(accounts[p], hand.stacks[i] - hand.starting_stacks[i], hand.stacks[i])
                       for i, p in enumerate(table.hand_players)]
            await store.finish_hand(hand_id, name, results, salt="", deck=cards, history=json.dumps(history))
            holes = {int(s): list(c) for s, c in history["private"]["holes"].items()}
            stored.append((hand_id, name, table.previous.game,
                           {f"acct_{p}": s for p, s in zip(table.hand_players, seats, strict=True)}, holes))
        ends = {hand_id: _day_of(k, len(stored)) for k, (hand_id, *_) in enumerate(stored)}
        async with store.engine.begin() as conn:
            await conn.execute(
                update(hands).where(hands.c.id == bindparam("b_id")).values(ended_at=bindparam("b_at")),
                [{"b_id": i, "b_at": at} for i, at in ends.items()],
            )
        counts: dict[str, int] = {}
        for _, _, _, seats_of, _ in stored:
            for who in seats_of:
                counts[who] = counts.get(who, 0) + 1
        hero, rival = sorted(counts, key=lambda who: (-counts[who], who))[:2]
        for name in (hero, rival):
            account = await store.account_by_name(name)
            assert account is not None
            await store.set_password_hash(account.id, hash_password(password))
        out = Seeded(hero, rival, password)
        out.hands = [Hand(i, table, game, ends[i], seats_of, holes)
                     for i, table, game, seats_of, holes in stored]
        return out
    finally:
        await store.close()


Room = tuple[Server, Seeded, dict[str, str], dict[str, str]]  # and the hero's, the rival's logins


def login(server: Server, name: str, password: str) -> dict[str, str]:
    """The headers of ``name``'s new session."""
    r = httpx.post(f"{server.http}/api/login", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    return bearer(r.json()["token"])


def seeded_room(kind: str, path: Path, password: str) -> Iterator[Room]:
    """A real server on a fresh database of ``kind`` ("sqlite" or "postgresql") seeded by
    ``seed_hands``, with the hero and the rival logged in (a module's fixture)."""
    for database in fresh_database(kind, path):
        data = seed_hands(database, password)
        for server in serving(Server(path, database)):
            yield server, data, login(server, data.hero, password), login(server, data.rival, password)
