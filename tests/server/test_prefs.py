"""A player's own bet presets (issue 19, item 9) over HTTP, on a real server (SQLite, and
PostgreSQL when POKERROOM_TEST_DATABASE_URL names one): saved, read back as kept (sorted),
changed and cleared by their owner; never seen by another account; bad presets (too many,
out of range, too precise, repeated, not numbers, an unknown kind or setting, not JSON,
not logged in, a cookie's write from another site) refused with a clear error that
changes nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from pokerroom.store.prefs import MAX_PRESETS
from tests.server.helpers import Server, bearer, register

NONE = {"preflop": [], "postflop": []}


def tokens(server: Server, *names: str) -> dict[str, dict[str, str]]:
    async def all_of() -> list[str]:
        return [await register(server, name) for name in names]

    return {name: bearer(token) for name, token in zip(names, asyncio.run(all_of()), strict=True)}


def call(server: Server, method: str, path: str, headers: dict[str, str], body: Any = None) -> httpx.Response:
    return httpx.request(method, f"{server.http}{path}", headers=headers, json=body, timeout=10)


def error(r: httpx.Response) -> tuple[int, str]:
    return r.status_code, r.json()["error"]["code"]


def presets(server: Server, who: dict[str, str]) -> Any:
    r = call(server, "GET", "/api/prefs", who)
    assert r.status_code == 200, r.text
    return r.json()


def test_presets_are_their_owners_and_follow_him(server: Server) -> None:
    who = tokens(server, "Ann", "Bob")
    ann, bob = who["Ann"], who["Bob"]
    first = presets(server, ann)
    assert (first["presets"], first["updated_at"]) == (NONE, None)
    assert first["limits"]["max"] == MAX_PRESETS

    r = call(server, "PUT", "/api/prefs", ann, {"presets": {"preflop": [3, 2.5], "postflop": [125, 33, 66]}})
    assert r.status_code == 200, r.text
    saved = r.json()
    assert saved["presets"] == {"preflop": [2.5, 3], "postflop": [33, 66, 125]}
    assert saved["updated_at"] is not None
    assert presets(server, ann) == saved  # read back as kept: sorted

    # another account sees only his own (none), and his own changes nothing of Ann's
    assert presets(server, bob)["presets"] == NONE
    r = call(server, "PUT", "/api/prefs", bob, {"presets": {"postflop": [50]}})
    assert r.json()["presets"] == {"preflop": [], "postflop": [50]}
    assert presets(server, ann) == saved

    # the most and the extremes of each kind; one kind alone; cleared
    most = {"preflop": [1.5, 2.25, 7, 20], "postflop": [5, 100, 250.0, 500]}
    r = call(server, "PUT", "/api/prefs", ann, {"presets": most})
    assert r.json()["presets"] == {"preflop": [1.5, 2.25, 7, 20], "postflop": [5, 100, 250, 500]}
    assert call(server, "PUT", "/api/prefs", ann, {"presets": {}}).json()["presets"] == NONE
    assert presets(server, ann)["presets"] == NONE
    assert presets(server, bob)["presets"] == {"preflop": [], "postflop": [50]}


BAD: list[dict[str, Any]] = [
    {"presets": {"preflop": [2, 2.5, 3, 4, 5]}},  # too many
    {"presets": {"postflop": [10, 20, 30, 40, 50]}},
    {"presets": {"preflop": [1.4]}},  # out of range
    {"presets": {"preflop": [20.5]}},
    {"presets": {"preflop": [0]}},
    {"presets": {"preflop": [-3]}},
    {"presets": {"postflop": [4]}},
    {"presets": {"postflop": [501]}},
    {"presets": {"postflop": [1e308]}},
    {"presets": {"preflop": [2.125]}},  # too precise
    {"presets": {"postflop": [33.3]}},
    {"presets": {"preflop": [3, 3.0]}},  # twice
    {"presets": {"preflop": ["3"]}},  # not numbers
    {"presets": {"preflop": [True]}},
    {"presets": {"preflop": [None]}},
    {"presets": {"preflop": [[3]]}},
    {"presets": {"preflop": 3}},
    {"presets": {"preflop": {"a": 3}}},
    {"presets": [2.5, 3]},
    {"presets": "2.5 3"},
    {"presets": None},
    {"presets": {"turn": [50]}},  # a kind it does not know
    {"presets": {"preflop": [3]}, "sound": True},  # a setting it does not know
    {},
]


def test_bad_presets_are_refused_and_change_nothing(server: Server) -> None:
    cid = tokens(server, "Cid")["Cid"]
    kept = {"preflop": [2.5], "postflop": [33, 75]}
    assert call(server, "PUT", "/api/prefs", cid, {"presets": kept}).status_code == 200
    before = presets(server, cid)
    for body in BAD:  # one server for them all: each starts in ~10 s
        r = call(server, "PUT", "/api/prefs", cid, body)
        assert error(r) == (400, "bad_prefs"), (body, r.text)
        assert r.json()["error"]["message"]  # says what is wrong
        assert presets(server, cid) == before, body


def test_not_json_not_logged_in_and_other_sites(server: Server) -> None:
    dan = tokens(server, "Dan")["Dan"]
    r = httpx.put(f"{server.http}/api/prefs", headers={**dan, "content-type": "application/json"},
                  content=b'{"presets": ')
    assert error(r) == (400, "bad_json")
    for method in ("GET", "PUT"):
        assert error(call(server, method, "/api/prefs", {}, {"presets": {}})) == (401, "login_required")
    token = dan["Authorization"].split()[1]
    cookie = {"cookie": f"pokerroom_session={token}"}
    body = {"presets": {"postflop": [40]}}
    with httpx.Client(base_url=server.http) as http:
        r = http.put("/api/prefs", headers={**cookie, "origin": "https://evil.example"}, json=body)
        assert error(r) == (403, "cross_site")
        r = http.put("/api/prefs", headers={**cookie, "origin": server.http, "content-type": "text/plain"},
                     content=b'{"presets": {"postflop": [40]}}')
        assert error(r) == (415, "bad_content_type")
        assert http.get("/api/prefs", headers=cookie).json()["presets"] == NONE
        r = http.put("/api/prefs", headers={**cookie, "origin": server.http}, json=body)
        assert r.status_code == 200, r.text
        assert http.get("/api/prefs", headers=cookie).json()["presets"] == {"preflop": [], "postflop": [40]}
