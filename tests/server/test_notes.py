"""Notes and colour tags on other players (issue 19, item 6) over HTTP, on a real server
(SQLite, and PostgreSQL when POKERROOM_TEST_DATABASE_URL names one): written, read,
changed and deleted by their author; never seen by anyone else, the player they are on
included; bad input (too long, a colour not of the palette, empty, on oneself, a player
who does not exist, not JSON, not logged in, a cookie's write from another site) refused
with a clear error that changes nothing."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest

from pokerroom.store.notes import MAX_TEXT, PALETTE
from tests.server.helpers import Server, bearer, register


def tokens(server: Server, *names: str) -> dict[str, dict[str, str]]:
    async def all_of() -> list[str]:
        return [await register(server, name) for name in names]

    return {name: bearer(token) for name, token in zip(names, asyncio.run(all_of()), strict=True)}


def call(server: Server, method: str, path: str, headers: dict[str, str], body: Any = None) -> httpx.Response:
    return httpx.request(method, f"{server.http}{path}", headers=headers,
                         json=body if body is not None else None, timeout=10)


def error(r: httpx.Response) -> tuple[int, str]:
    return r.status_code, r.json()["error"]["code"]


def test_a_note_is_its_authors_alone(server: Server) -> None:
    who = tokens(server, "Ann", "Bob", "Cid")
    ann, bob, cid = who["Ann"], who["Bob"], who["Cid"]
    r = call(server, "PUT", "/api/notes/bob", ann, {"text": "calls too much, bluffs rivers", "colour": "red"})
    assert r.status_code == 200, r.text
    note = r.json()
    assert (note["name"], note["text"], note["colour"]) == ("Bob", "calls too much, bluffs rivers", "red")
    assert call(server, "GET", "/api/notes/Bob", ann).json() == note
    listed = call(server, "GET", "/api/notes", ann).json()
    assert listed == {"notes": [note], "palette": list(PALETTE)}

    # a second note, a tag alone; a note changed keeps one row
    tag = call(server, "PUT", "/api/notes/Cid", ann, {"text": "", "colour": "teal"}).json()
    assert (tag["text"], tag["colour"]) == ("", "teal")
    changed = call(server, "PUT", "/api/notes/Bob", ann, {"text": "tight now", "colour": None}).json()
    assert (changed["text"], changed["colour"]) == ("tight now", None)
    assert changed["updated_at"] >= note["updated_at"]
    assert [n["name"] for n in call(server, "GET", "/api/notes", ann).json()["notes"]] == ["Bob", "Cid"]

    # nobody else reads them: not Bob (they are on him), not Cid
    for other in (bob, cid):
        assert call(server, "GET", "/api/notes", other).json()["notes"] == []
        assert error(call(server, "GET", "/api/notes/Ann", other)) == (404, "no_note")
        assert error(call(server, "GET", "/api/notes/Bob" if other is cid else "/api/notes/Cid", other)) == (
            404, "no_note")
    # Bob's own note on Ann is his, and changes nothing of Ann's
    assert call(server, "PUT", "/api/notes/Ann", bob, {"text": "nit", "colour": "grey"}).status_code == 200
    assert [n["text"] for n in call(server, "GET", "/api/notes", ann).json()["notes"]] == ["tight now", ""]
    assert [n["text"] for n in call(server, "GET", "/api/notes", bob).json()["notes"]] == ["nit"]

    # deleted: gone, and a second delete says there was none
    assert call(server, "DELETE", "/api/notes/Bob", ann, {}).json() == {"ok": True, "deleted": True}
    assert call(server, "DELETE", "/api/notes/Bob", ann, {}).json() == {"ok": True, "deleted": False}
    assert error(call(server, "GET", "/api/notes/Bob", ann)) == (404, "no_note")
    assert [n["name"] for n in call(server, "GET", "/api/notes", ann).json()["notes"]] == ["Cid"]
    assert [n["text"] for n in call(server, "GET", "/api/notes", bob).json()["notes"]] == ["nit"]


def test_the_longest_note_and_every_colour(server: Server) -> None:
    who = tokens(server, "Dan", "Eve")
    dan = who["Dan"]

    def put(body: dict[str, Any]) -> dict[str, Any]:
        r = call(server, "PUT", "/api/notes/Eve", dan, body)
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    for colour in PALETTE:
        assert put({"text": "x", "colour": colour})["colour"] == colour
    longest = "ы" * MAX_TEXT  # 1,000 characters, 2,000 bytes
    assert put({"text": longest, "colour": None})["text"] == longest
    lines = "raises\nlimps\n<b>&amp;</b>"  # kept as written: the client shows it as text
    assert put({"text": lines})["text"] == lines


@pytest.mark.parametrize(("path", "body", "expected"), [
    ("/api/notes/Gil", {"text": "x" * (MAX_TEXT + 1), "colour": None}, (400, "bad_note")),
    ("/api/notes/Gil", {"text": "x", "colour": "pink"}, (400, "bad_note")),
    ("/api/notes/Gil", {"text": "x", "colour": "#ff0000"}, (400, "bad_note")),
    ("/api/notes/Gil", {"text": "x", "colour": 3}, (400, "bad_note")),
    ("/api/notes/Gil", {"text": "x", "colour": "RED"}, (400, "bad_note")),
    ("/api/notes/Gil", {"text": 5, "colour": "red"}, (400, "bad_note")),
    ("/api/notes/Gil", {"text": ["x"]}, (400, "bad_note")),
    ("/api/notes/Gil", {"text": "   ", "colour": None}, (400, "bad_note")),
    ("/api/notes/Gil", {}, (400, "bad_note")),
    ("/api/notes/Fay", {"text": "me", "colour": "red"}, (400, "bad_note")),  # on oneself
    ("/api/notes/Nobody", {"text": "x", "colour": "red"}, (404, "no_player")),
    ("/api/notes/a%20b", {"text": "x", "colour": "red"}, (404, "no_player")),
    ("/api/notes/" + "G" * 30, {"text": "x", "colour": "red"}, (404, "no_player")),
])
def test_bad_notes_are_refused_and_change_nothing(
    server: Server, path: str, body: dict[str, Any], expected: tuple[int, str],
) -> None:
    who = tokens(server, "Fay", "Gil")
    fay = who["Fay"]
    assert error(call(server, "PUT", path, fay, body)) == expected
    assert call(server, "GET", "/api/notes", fay).json()["notes"] == []


def test_reads_and_deletes_of_nobody_and_without_a_login(server: Server) -> None:
    hal = tokens(server, "Hal")["Hal"]
    assert error(call(server, "GET", "/api/notes/Nobody", hal)) == (404, "no_player")
    assert error(call(server, "DELETE", "/api/notes/Nobody", hal, {})) == (404, "no_player")
    r = httpx.put(f"{server.http}/api/notes/Hal", headers={**hal, "content-type": "application/json"},
                  content=b"{not json")
    assert error(r) == (400, "bad_json")
    for method in ("GET", "PUT", "DELETE"):
        assert error(call(server, method, "/api/notes/Hal", {}, {"text": "x"})) == (401, "login_required")
    assert error(call(server, "GET", "/api/notes", {})) == (401, "login_required")


def test_a_cookies_write_must_come_from_the_rooms_page(server: Server) -> None:
    names = tokens(server, "Ivy", "Jon")
    token = names["Ivy"]["Authorization"].split()[1]
    cookie = {"cookie": f"pokerroom_session={token}"}
    with httpx.Client(base_url=server.http) as http:
        r = http.put("/api/notes/Jon", headers={**cookie, "origin": "https://evil.example"},
                     json={"text": "x", "colour": "red"})
        assert error(r) == (403, "cross_site")
        plain = {**cookie, "origin": server.http, "content-type": "text/plain"}
        r = http.put("/api/notes/Jon", headers=plain, content=b'{"text": "x"}')
        assert error(r) == (415, "bad_content_type")
        r = http.put("/api/notes/Jon", headers={**cookie, "origin": server.http}, json={"text": "x"})
        assert r.status_code == 200, r.text
        assert http.get("/api/notes", headers=cookie).json()["notes"][0]["name"] == "Jon"
