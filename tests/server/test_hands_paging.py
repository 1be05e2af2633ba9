"""A player's hand list in pages (issue 19, item 8): ``GET /api/hands`` newest first by id,
``?before=`` and ``?limit=`` with a ``next`` cursor, filtered by ``?game=`` and by the days
``?since=``/``?until=``; bad values are a 400 ``bad_query``. On a real server (SQLite, and
PostgreSQL when POKERROOM_TEST_DATABASE_URL names one) whose database holds 234 hands
played at six tables, 140 of them the hero's (tests/server/helpers/hands.py)."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.server.conftest import _databases
from tests.server.helpers import Server
from tests.server.helpers.hands import DAYS, Room, seeded_room

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module", params=_databases())
def seeded(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    yield from seeded_room(request.param, tmp_path_factory.mktemp("hands"), PASSWORD)


def get(server: Server, headers: dict[str, str], **params: Any) -> httpx.Response:
    return httpx.get(f"{server.http}/api/hands", params=params, headers=headers, timeout=30)


def pages(server: Server, headers: dict[str, str], **params: Any) -> list[list[dict[str, Any]]]:
    """Every page of the list, following ``next`` to the end."""
    out: list[list[dict[str, Any]]] = []
    before = None
    while True:
        r = get(server, headers, **params, **({"before": before} if before else {}))
        assert r.status_code == 200, r.text
        data = r.json()
        out.append(data["hands"])
        before = data["next"]
        if before is None:
            return out
        assert before == data["hands"][-1]["id"]
        assert len(out) < 100


def test_paging_through_every_hand_newest_first(seeded: Room) -> None:
    server, data, headers, _ = seeded
    mine = data.mine()
    assert len(mine) >= 120
    every = pages(server, headers, limit=25)
    assert [len(p) for p in every] == [25] * (len(mine) // 25) + ([len(mine) % 25] if len(mine) % 25 else [])
    rows = [row for page in every for row in page]
    assert [row["id"] for row in rows] == [h.id for h in mine]  # all his, newest first, none twice
    for row, hand in zip(rows, mine, strict=True):
        assert row["table_name"] == hand.table and row["game"] == hand.game
        assert row["seat"] == hand.seats[data.hero]
        assert row["ended_at"] == pytest.approx(hand.ended_at)
        assert set(row) >= {"id", "table_name", "number", "game", "ended_at", "seat", "net", "game_info"}

    # the default page: the newest 50, as before paging; the largest page: 200
    first = get(server, headers).json()
    assert [r["id"] for r in first["hands"]] == [h.id for h in mine[:50]]
    assert first["next"] == mine[49].id
    assert [r["id"] for r in get(server, headers, limit=200).json()["hands"]] == [h.id for h in mine]
    assert get(server, headers, limit=200).json()["next"] is None
    # a page exactly at the end has no next; a cursor past the oldest hand gives nothing
    assert get(server, headers, limit=len(mine)).json()["next"] is None
    assert get(server, headers, before=mine[-1].id).json() == {"hands": [], "next": None}
    # a cursor that is not one of his hands still pages by id
    between = next(h.id for h in data.hands if data.hero not in h.seats and mine[-1].id < h.id < mine[0].id)
    expected = [h.id for h in mine if h.id < between][:5]
    assert [r["id"] for r in get(server, headers, before=between, limit=5).json()["hands"]] == expected


def test_each_player_pages_his_own_hands_only(seeded: Room) -> None:
    server, data, *_ = seeded
    for who, headers in zip((data.hero, data.rival), seeded[2:], strict=True):
        ids = [r["id"] for page in pages(server, headers, limit=200) for r in page]
        assert ids == [h.id for h in data.mine(who)]
    assert {h.id for h in data.mine()} - {h.id for h in data.mine(data.rival)}  # they differ


def test_filters_by_game_and_by_day(seeded: Room) -> None:
    server, data, headers, _ = seeded
    mine = data.mine()
    games = httpx.get(f"{server.http}/api/hands/games", headers=headers).json()["games"]
    counted: dict[str, int] = {}
    for hand in mine:
        counted[hand.game] = counted.get(hand.game, 0) + 1
    assert {g["game"]: g["hands"] for g in games} == counted
    assert [g["hands"] for g in games] == sorted(counted.values(), reverse=True)
    for game in counted:
        rows = [r for page in pages(server, headers, game=game, limit=10) for r in page]
        assert [r["id"] for r in rows] == [h.id for h in mine if h.game == game]
    assert get(server, headers, game="Razz 1/2").json() == {"hands": [], "next": None}

    def on(day: datetime.date) -> list[int]:
        start = datetime.datetime(day.year, day.month, day.day, tzinfo=datetime.UTC).timestamp()
        return [h.id for h in mine if start <= h.ended_at < start + 86400]

    first, middle, last = (d.isoformat() for d in DAYS)
    for day in DAYS:
        iso = day.isoformat()
        rows = [r for p in pages(server, headers, since=iso, until=iso, limit=20) for r in p]
        assert [r["id"] for r in rows] == on(day) and on(day)
    since = [r["id"] for p in pages(server, headers, since=middle, limit=200) for r in p]
    assert since == on(DAYS[2]) + on(DAYS[1])
    until = [r["id"] for p in pages(server, headers, until=middle, limit=200) for r in p]
    assert until == on(DAYS[1]) + on(DAYS[0])
    assert get(server, headers, since="2026-12-01").json()["hands"] == []
    assert len(get(server, headers, since=first, until=last, limit=200).json()["hands"]) == len(mine)
    game = mine[0].game
    found = pages(server, headers, game=game, since=middle, until=middle, limit=3)
    both = [r["id"] for p in found for r in p]
    assert both == [i for i in on(DAYS[1]) if i in {h.id for h in mine if h.game == game}]


@pytest.mark.parametrize(("params", "says"), [
    ({"limit": "0"}, "limit"), ({"limit": "201"}, "limit"), ({"limit": "-5"}, "limit"),
    ({"limit": "ten"}, "limit"), ({"limit": "1e2"}, "limit"), ({"limit": ""}, "limit"),
    ({"limit": "9" * 40}, "limit"), ({"before": "0"}, "before"), ({"before": "abc"}, "before"),
    ({"before": "2147483648"}, "before"), ({"before": " 5"}, "before"), ({"before": "５"}, "before"),
    ({"since": "yesterday"}, "since"), ({"since": "2026-13-01"}, "since"), ({"since": "2026-02-30"}, "since"),
    ({"until": "2026-1-5"}, "until"), ({"until": "20261105"}, "until"),
    ({"until": "2026-11-05T00:00"}, "until"), ({"since": "2026-11-30", "until": "2026-11-28"}, "since"),
    ({"game": ""}, "game"), ({"game": "x" * 81}, "game"),
])
def test_bad_values_are_a_400_naming_them(seeded: Room, params: dict[str, str], says: str) -> None:
    server, _, headers, _ = seeded
    r = get(server, headers, **params)
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error["code"] == "bad_query" and error["message"].startswith(says), error


def test_the_list_needs_a_login(seeded: Room) -> None:
    server, *_ = seeded
    for path in ("/api/hands", "/api/hands/games", "/api/hands?limit=0", "/api/hands/archive?format=phh"):
        r = httpx.get(f"{server.http}{path}")
        assert (r.status_code, r.json()["error"]["code"]) == (401, "login_required")
