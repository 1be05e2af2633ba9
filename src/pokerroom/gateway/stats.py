"""Issue 19: the players' statistics over HTTP, GET /api/players/{name}/stats, and the
gateway's periodic fold of newly stored hands into them (store/stats/).

Any logged-in player may ask for anyone's figures per game (what his tables saw: the
counting never reads a hidden card); his own page adds his graph (chips won over his
hands, with and without the showdowns, a bounded series) and his results by game and by
stakes. Each request first folds what was stored since the last fold (a few hands: the
periodic fold keeps the backlog short), within ``REQUEST_BUDGET`` seconds; past it the
answer says ``"complete": false`` and the rest is folded by the next.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from pokerroom.gateway.auth import AuthError, session_token
from pokerroom.store.stats import PlayerStats, by_game, by_stakes

log = logging.getLogger("pokerroom.stats")
REQUEST_BUDGET = 0.25  # seconds a page may spend folding new hands
FOLD_EVERY = 5.0  # seconds between the periodic folds
FOLD_BUDGET = 2.0  # seconds a periodic fold may take before it lets the next turn go on


async def stats_page(stats: PlayerStats, account_id: int, name: str, own: bool) -> dict[str, Any]:
    """The page of ``account_id``'s statistics (the route's whole work on the store: the
    fold of any new hands, then his rows): figures per game; ``own``, his graph and his
    results by game and stakes too."""
    try:
        await stats.fold(budget=REQUEST_BUDGET)
        complete = not stats.behind
    except Exception as e:  # the database away: the figures folded so far
        log.warning("statistics: the fold failed (%s)", e)
        complete = False
    rows = await stats.counters(account_id)
    page: dict[str, Any] = {"name": name, "own": own, "complete": complete,
                            "games": by_game(rows, results=own)}
    if own:
        graph = await stats.graph(account_id)
        page["graph"] = {"hands": graph.hands, "step": graph.step, "points": graph.series()}
        page["stakes"] = by_stakes(rows)
    return page


def register(app: FastAPI, state: dict[str, Any]) -> None:
    """Add the statistics route to the room's ``app`` (before its static files) and the
    periodic fold to its lifespan (``state["sessions"]``: its Sessions, once started)."""
    held: dict[str, PlayerStats] = {}

    def stats() -> PlayerStats:
        store = state["sessions"].store
        have = held.get("stats")
        if have is None or have.store is not store:
            have = held["stats"] = PlayerStats(store)
        return have

    @app.get("/api/players/{name}/stats", operation_id="player_stats")
    async def player_stats(name: str, request: Request) -> JSONResponse:
        """A player's statistics per game; your own with your graph and results."""
        sessions = state["sessions"]
        token = session_token(request.headers.get("authorization"), request.headers.get("cookie"))
        me = await sessions.accounts.from_token(token)
        if me is None:
            raise AuthError("login_required", "log in first", 401)
        if not 0 < len(name) <= 40:
            raise AuthError("not_found", "no such player", 404)
        account = me if name.lower() == me.name.lower() else await sessions.store.account_by_name(name)
        if account is None:
            raise AuthError("not_found", "no such player", 404)
        page = await stats_page(stats(), account.id, account.name, account.id == me.id)
        return JSONResponse(page)

    async def periodic() -> None:
        while True:
            await asyncio.sleep(FOLD_EVERY)
            try:
                await stats().fold_unless_busy(budget=FOLD_BUDGET)  # one gateway at a time
            except Exception as e:  # tried again next turn
                log.warning("statistics: the periodic fold failed (%s)", e)

    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(app_: FastAPI) -> AsyncIterator[Any]:
        async with inner(app_) as value:
            task = asyncio.create_task(periodic())
            try:
                yield value
            finally:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task

    app.router.lifespan_context = lifespan
