"""A player's own hands over HTTP: the list (paged, filtered), each hand (JSON, .phh,
.txt) and every hand at once as one archive for a tracker.

- ``GET /api/hands``: newest first by id, ``?limit=`` 1-200 (50), ``?before=<id>`` (the
  page after the one that gave that cursor), ``?game=``, ``?since=`` and ``?until=``
  (UTC days, ``YYYY-MM-DD``, both included: by the hand's end). The answer is
  ``{"hands": [...], "next": id or null}``: ``next`` is the ``before`` of the next,
  older page, null on the last one. A bad value is a 400 ``bad_query`` naming it.
- ``GET /api/hands/games``: the games of his hands with their counts (the filter's
  choices), the most played first, each with ``game_info`` from a table that deals it
  (null when none does now).
- ``GET /api/hands/archive?format=pokerstars|phh`` (and the list's filters): every hand
  he played, oldest first, in one download: PokerStars text as one ``.txt`` (hands apart
  by two blank lines, as the site writes its files and trackers split them), or PHH as
  one ``.phhs`` file (the standard's multi-hand form: tables ``[1]``, ``[2]``, ... each
  holding a hand's fields; PokerKit's ``HandHistory.loads_all`` and ``pokerroom replay``
  read it). Each hand's text is the one his per-hand download gives him (D6: his own
  cards, the showdown's and the shown ones, nobody else's), written by the same
  ``stored_text``. It streams: the store reads the hands a batch at a time and the texts
  are written off the event loop, so a player's 100,000 hands are never in memory at
  once and the room's other requests go on meanwhile.
- ``GET /api/hands/{id}`` (``.json``, ``.phh``, ``.txt``): one hand, to its players only.

``add_hand_routes`` registers them on the room's FastAPI app (app.py).
"""

from __future__ import annotations

import asyncio
import datetime
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse

from pokerroom.config import RoomConfig
from pokerroom.gateway.auth import AuthError
from pokerroom.histories import HistoryError, stored_text
from pokerroom.store import Account, Store
from pokerroom.table.view import info_of
from pokerroom.wire import jsonable

MAX_LIMIT = 200  # hands in one page of the list
DEFAULT_LIMIT = 50
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_ID = re.compile(r"^[0-9]{1,10}$")
_FORMATS = {"pokerstars": ("txt", "text/plain; charset=utf-8"), "phh": ("phhs", "application/toml")}
_SAFE = re.compile(r"[^A-Za-z0-9_-]+")


def _bad(message: str) -> AuthError:
    return AuthError("bad_query", message, 400)


def _number(value: str | None, name: str, low: int, high: int) -> int | None:
    if value is None:
        return None
    if not _ID.fullmatch(value) or not low <= int(value) <= high:
        raise _bad(f"{name} is a whole number from {low} to {high}")
    return int(value)


def _day(value: str | None, name: str) -> datetime.date | None:
    if value is None:
        return None
    try:
        if not _DAY.fullmatch(value):
            raise ValueError(value)
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise _bad(f"{name} is a date, YYYY-MM-DD") from None


def _start(day: datetime.date) -> float:
    return datetime.datetime(day.year, day.month, day.day, tzinfo=datetime.UTC).timestamp()


def filters(request: Request) -> dict[str, Any]:
    """The list's and the archive's filters from the query: ``game``, ``since`` and
    ``until`` (seconds since the epoch: the start of the first day, the end of the
    last), each None when not asked; a bad value raises a 400."""
    query = request.query_params
    game = query.get("game")
    if game is not None and not 0 < len(game) <= 80:
        raise _bad("game is a game's name, 1 to 80 characters")
    since, until = _day(query.get("since"), "since"), _day(query.get("until"), "until")
    if since and until and since > until:
        raise _bad("since is a day before until (or the same)")
    return {
        "game": game,
        "since": _start(since) if since else None,
        "until": _start(until + datetime.timedelta(days=1)) if until else None,
    }


def _info(room: RoomConfig, game: str, table: str | None = None) -> Any:
    """The game as data (protocol 3) from ``table``'s config (the config's, or a template's),
    or from the first of the room's tables that deals it when none is named; None when
    none does."""
    named = room.table_config(table) if table else None
    every = [*room.tables, *(t.config_of(1) for t in room.templates)]
    for config in [named] if named else [] if table else every:
        try:
            return jsonable(info_of(config, game))
        except KeyError:  # a game this table does not deal
            continue
    return None


def hand_for(data: dict[str, Any], seat: int, suffix: str) -> Response:
    """A stored hand as the player in ``seat`` may see it: his own cards, the board and
    the hands that reached the showdown (D6), and the openings that prove those cards
    against the deal's commitment (fairness.py). The .phh and .txt texts are written now,
    from the hand's snapshot (older hands kept each player's texts: those are served)."""
    history = json.loads(data["history"])
    if suffix == "phh":
        return PlainTextResponse(stored_text(history, seat, "phh"), media_type="application/toml")
    if suffix == "txt":
        return PlainTextResponse(stored_text(history, seat, "txt"))
    private = history.pop("private")
    own = private["holes"][str(seat)]
    record = history["record"]
    visible = set(record["board"]) | set(own)
    for player in record["players"]:
        visible |= {c for c in player["cards"] if c}
    history["your_cards"] = own
    history["your_seat"] = seat
    history.setdefault("deal", {"scheme": 1})  # hands dealt before seeds and dealing order (fairness.py)
    history["openings"] = [o for o in private["openings"] if o["card"] in visible]
    history["id"] = data["id"]
    history["nets"] = {str(x["seat"]): x["net"] for x in data["players"]}
    return JSONResponse(history)


def archive_texts(rows: list[dict[str, Any]], kind: str) -> list[str]:
    """The ``kind`` ("txt" or "phh") texts of a batch of Store.histories_of's rows, each
    as its player's own download of that hand gives it (``stored_text`` for his seat;
    the history carries what it reads: its snapshot, players, shows after the hand, and
    the room-wide hand id set here). Hands of the room's first cut, with no snapshot,
    have no text (their download has none either): left out."""
    out = []
    for row in rows:
        try:
            history = json.loads(row["history"])
            history["private"]["hand_id"] = row["id"]
            out.append(stored_text(history, row["seat"], kind))
        except (HistoryError, KeyError, TypeError, ValueError):
            continue
    return out


def _phhs_table(index: int, text: str) -> str:
    """A .phh text as table ``[index]`` of a .phhs file: its keys are all top level (the
    writer makes no tables), so a header before them puts them in one."""
    return f"[{index}]\n{text.rstrip()}\n\n"


async def archive_chunks(
    store: Store, account: Account, kind: str, found: dict[str, Any],
) -> AsyncIterator[bytes]:
    """The archive's bytes, a batch of hands at a time."""
    index = 0
    async for rows in store.histories_of(account.id, **found):
        texts = await asyncio.to_thread(archive_texts, rows, "txt" if kind == "txt" else "phh")
        if kind == "txt":
            chunk = "".join(f"{t.rstrip()}\n\n\n" for t in texts)
        else:
            parts = []
            for text in texts:
                index += 1
                parts.append(_phhs_table(index, text))
            chunk = "".join(parts)
        if chunk:
            yield chunk.encode()


def add_hand_routes(
    app: FastAPI, *, store: Callable[[], Store], account_of: Callable[[Request], Awaitable[Account]],
    room: RoomConfig,
) -> None:
    """The routes of a player's hands on ``app``: ``store`` gives the room's store and
    ``account_of`` the request's account (401 when none); ``room`` is the room's config,
    for the list's ``game_info``."""
    links = {"hand": {"operationId": "hand", "parameters": {"ref": "$response.body#/hands/0/id"}}}

    @app.get("/api/hands", operation_id="hands",
             responses={200: {"description": "your hands, newest first, a page", "links": links}})
    async def my_hands(request: Request) -> JSONResponse:
        account = await account_of(request)
        query = request.query_params
        limit = _number(query.get("limit"), "limit", 1, MAX_LIMIT) or DEFAULT_LIMIT
        before = _number(query.get("before"), "before", 1, 2**31 - 1)
        rows = await store().hands_of(account.id, limit + 1, before=before, **filters(request))
        more = len(rows) > limit
        rows = rows[:limit]
        for row in rows:  # the game as data (protocol 3), where the room still deals that table
            row["game_info"] = _info(room, row["game"], row["table_name"])
        return JSONResponse({"hands": rows, "next": rows[-1]["id"] if more else None})

    @app.get("/api/hands/games", operation_id="hand_games")
    async def my_games(request: Request) -> JSONResponse:
        account = await account_of(request)
        games = await store().hand_games_of(account.id)
        return JSONResponse({"games": [{"game": game, "hands": n, "game_info": _info(room, game)}
                                       for game, n in games]})

    @app.get("/api/hands/archive", operation_id="hand_archive")
    async def archive(request: Request) -> Response:
        account = await account_of(request)
        chosen = request.query_params.get("format")
        if chosen not in _FORMATS:
            raise _bad("format is 'pokerstars' or 'phh'")
        found = filters(request)
        suffix, media = _FORMATS[chosen]
        name = _SAFE.sub("_", account.name) or "player"
        headers = {"content-disposition": f'attachment; filename="pokerroom-{name}-hands.{suffix}"',
                   "cache-control": "no-store"}
        kind = "txt" if chosen == "pokerstars" else "phh"
        return StreamingResponse(archive_chunks(store(), account, kind, found), media_type=media,
                                 headers=headers)

    @app.get("/api/hands/{ref}", operation_id="hand")
    async def hand(ref: str, request: Request) -> Response:
        account = await account_of(request)
        stem, _, suffix = ref.partition(".")
        if not (stem.isascii() and stem.isdigit() and len(stem) <= 10 and int(stem) < 2**31):
            raise AuthError("not_found", "no such hand", 404)
        if suffix not in ("", "json", "phh", "txt"):
            raise AuthError("not_found", "no such hand", 404)
        data = await store().hand(int(stem))
        seat_of = {x["account_id"]: x["seat"] for x in data["players"]} if data else {}
        if data is None or data["status"] != "complete" or account.id not in seat_of:
            raise AuthError("not_found", "no such hand among yours", 404)
        return hand_for(data, seat_of[account.id], suffix)
