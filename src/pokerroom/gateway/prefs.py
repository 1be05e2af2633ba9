"""A player's own bet presets over HTTP (issue 19, item 9), kept on the server
(store/prefs.py) so that they follow him to another browser.

- ``GET /api/prefs``: ``{"presets": {"preflop": [2.5, 3], "postflop": [33, 66, 125]},
  "updated_at": float | null, "limits": {...}}``; empty lists when he never set any
  (the action bar's own buttons then). ``limits`` says what a PUT may hold.
- ``PUT /api/prefs`` with ``{"presets": {...}}``: check and keep them (over the old);
  the same answer as the GET. Bad presets are a 400 ``bad_prefs`` saying what is wrong,
  and change nothing.

Every query is by the session's account. A PUT a browser's cookie authenticates must come
from the room's own page as JSON (app.py's ``same_site``). ``add_prefs_routes`` registers
them on the room's FastAPI app (app.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from pokerroom.gateway.auth import AuthError
from pokerroom.store import Account, Store
from pokerroom.store.prefs import DECIMALS, MAX_PRESETS, RANGES, Prefs, PrefsError, prefs_of, put_prefs

LIMITS = {"max": MAX_PRESETS, **{kind: {"min": lo, "max": hi, "decimals": DECIMALS[kind]}
                                 for kind, (lo, hi) in RANGES.items()}}


def _json(prefs: Prefs) -> dict[str, Any]:
    return {"presets": prefs.presets, "updated_at": prefs.updated_at, "limits": LIMITS}


def add_prefs_routes(
    app: FastAPI, *, store: Callable[[], Store], account_of: Callable[[Request], Awaitable[Account]],
    body: Callable[[Request], Awaitable[dict[str, Any]]], same_site: Callable[[Request], None],
) -> None:
    """The presets' routes on ``app``: ``store`` gives the room's store, ``account_of`` the
    request's account (401 when none), ``body`` the request's JSON object and
    ``same_site`` refuses a cookie's write from another site (app.py's)."""

    @app.get("/api/prefs", operation_id="prefs")
    async def my_prefs(request: Request) -> JSONResponse:
        account = await account_of(request)
        return JSONResponse(_json(await prefs_of(store(), account.id)))

    @app.put("/api/prefs", operation_id="put_prefs")
    async def write_prefs(request: Request) -> JSONResponse:
        account = await account_of(request)
        same_site(request)
        data = await body(request)
        unknown = sorted(k for k in data if k != "presets")
        try:
            if unknown:
                raise PrefsError(f"unknown setting {unknown[0]!r} (presets)")
            if "presets" not in data:
                raise PrefsError('send {"presets": {"preflop": [...], "postflop": [...]}}')
            prefs = await put_prefs(store(), account.id, data["presets"])
        except PrefsError as e:
            raise AuthError("bad_prefs", str(e), 400) from None
        return JSONResponse(_json(prefs))
