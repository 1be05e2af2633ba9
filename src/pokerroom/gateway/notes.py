"""A player's notes and colour tags on other players over HTTP (issue 19, item 6): private
to him, kept on the server (store/notes.py).

- ``GET /api/notes``: all his notes, ``{"notes": [{"name", "text", "colour",
  "updated_at"}], "palette": [...]}`` (by the other players' names).
- ``GET /api/notes/{name}``: his note on that player (404 ``no_note`` when he has none).
- ``PUT /api/notes/{name}`` with ``{"text": "...", "colour": "red" | null}``: write it
  (text up to 1,000 characters, '' for a tag alone; a colour of the palette or null; not
  both empty); the note as stored.
- ``DELETE /api/notes/{name}``: remove it (``{"ok": true, "deleted": bool}``).

A player that does not exist (or a name no account could have) is a 404 ``no_player``; a
bad note a 400 ``bad_note`` saying what is wrong. Nobody but the author ever reads a note:
every query is by the session's account. A PUT or DELETE a browser's cookie authenticates
must come from the room's own page as JSON (app.py's ``same_site``).

``add_note_routes`` registers them on the room's FastAPI app (app.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from pokerroom.gateway.auth import NAME, AuthError
from pokerroom.store import Account, Store
from pokerroom.store.notes import PALETTE, Note, NoteError, delete_note, note_of, notes_of, put_note


def _json(note: Note) -> dict[str, Any]:
    return {"name": note.subject, "text": note.text, "colour": note.colour, "updated_at": note.updated_at}


def add_note_routes(
    app: FastAPI, *, store: Callable[[], Store], account_of: Callable[[Request], Awaitable[Account]],
    body: Callable[[Request], Awaitable[dict[str, Any]]], same_site: Callable[[Request], None],
) -> None:
    """The notes' routes on ``app``: ``store`` gives the room's store, ``account_of`` the
    request's account (401 when none), ``body`` the request's JSON object and
    ``same_site`` refuses a cookie's write from another site (app.py's)."""

    async def subject(name: str, author: Account) -> Account:
        found = await store().account_by_name(name) if NAME.fullmatch(name) else None
        if found is None:
            raise AuthError("no_player", f"no player named {name!r}", 404)
        if found.id == author.id:
            raise AuthError("bad_note", "a note is on another player", 400)
        return found

    @app.get("/api/notes", operation_id="notes")
    async def my_notes(request: Request) -> JSONResponse:
        account = await account_of(request)
        notes = await notes_of(store(), account.id)
        return JSONResponse({"notes": [_json(n) for n in notes], "palette": list(PALETTE)})

    @app.get("/api/notes/{name}", operation_id="note")
    async def my_note(name: str, request: Request) -> JSONResponse:
        account = await account_of(request)
        other = await subject(name, account)
        note = await note_of(store(), account.id, other.id)
        if note is None:
            raise AuthError("no_note", f"you have no note on {other.name}", 404)
        return JSONResponse(_json(note))

    @app.put("/api/notes/{name}", operation_id="put_note")
    async def write_note(name: str, request: Request) -> JSONResponse:
        account = await account_of(request)
        same_site(request)
        data = await body(request)
        other = await subject(name, account)
        try:
            await put_note(store(), account.id, other.id, data.get("text", ""), data.get("colour"))
        except NoteError as e:
            raise AuthError("bad_note", str(e), 400) from None
        note = await note_of(store(), account.id, other.id)
        assert note is not None
        return JSONResponse(_json(note))

    @app.delete("/api/notes/{name}", operation_id="delete_note")
    async def remove_note(name: str, request: Request) -> JSONResponse:
        account = await account_of(request)
        same_site(request)
        await body(request)  # read (and bounded) like every write's, though it says nothing
        other = await subject(name, account)
        deleted = await delete_note(store(), account.id, other.id)
        return JSONResponse({"ok": True, "deleted": deleted})
