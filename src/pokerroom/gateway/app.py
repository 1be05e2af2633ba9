"""The HTTP and WebSocket application (FastAPI on uvicorn).

HTTP: /healthz, /api/register, /api/login, /api/logout, /api/me, /api/topup, /api/tables,
/api/tables/{name}/buy-in; a player's hands, /api/hands..., are gateway/hands.py's, his
notes on others gateway/notes.py's, the statistics gateway/stats.py's. WebSocket: /ws
(gateway/ws.py), see protocol.py and docs/protocol.md. Errors are JSON
``{"error": {"code", "message"}}``; no stack trace ever reaches a client. Every request
passes gate.py first (the client's address, bodies over the limit, the pages' security
headers), and the HTTP protocol (ws.py) bounds heads and slow requests.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Receive, Scope, Send

from pokerroom.bus.gateway import Router
from pokerroom.config import RoomConfig
from pokerroom.gateway.auth import COOKIE, NAME, SESSION_SECONDS, AuthError, session_token
from pokerroom.gateway.gate import Gate
from pokerroom.gateway.hands import add_hand_routes
from pokerroom.gateway.hands import hand_for as hand_for  # where the tests and tools import it from
from pokerroom.gateway.limits import AddressCount, Limits, address_key
from pokerroom.gateway.notes import add_note_routes
from pokerroom.gateway.prefs import add_prefs_routes
from pokerroom.gateway.replay import register as register_replay
from pokerroom.gateway.sessions import Sessions
from pokerroom.gateway.stats import register as register_stats
from pokerroom.gateway.ws import http_protocol, socket_class
from pokerroom.store import Account, Store

log = logging.getLogger("pokerroom.server")
WEB = Path(__file__).resolve().parent.parent / "web"


def _error(code: str, message: str, status: int) -> JSONResponse:
    headers = {"connection": "close"} if status == 413 else None  # the rest of the body is not read
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status, headers=headers)


class Credentials(BaseModel):
    """The body of /api/register and /api/login (declared for the OpenAPI spec; the
    routes check it themselves, so each problem keeps its own error code)."""

    name: str = Field(min_length=3, max_length=20, pattern=NAME.pattern)
    password: str = Field(min_length=8, max_length=128)
    bot: bool = False  # registering: a program's account (behind people on waiting lists)


class Empty(BaseModel):
    """The body of the POSTs that take none (``{}``; a browser sends it as JSON)."""


_AGAIN = {"requestBody": "$request.body"}  # a link that sends the same body on


def _links(description: str, **links: dict[str, Any]) -> dict[int | str, dict[str, Any]]:
    """A 200 answer's OpenAPI links to the operations that naturally follow it (what
    a stateful test of the spec walks: register, log in, top up, hands)."""
    follow = {name: {"operationId": name, **spec} for name, spec in links.items()}
    return {200: {"description": description, "links": follow}}


def _body_spec(model: type[BaseModel], required: bool = True) -> dict[str, Any]:
    schema = model.model_json_schema()
    return {"requestBody": {"required": required, "content": {"application/json": {"schema": schema}}}}


# What reaches the tables for this gateway, for as long as it runs: the router of the bus
# (pokerroom.bus.gateway) over NATS (``pokerroom gateway``), or over the in-process bus
# with the worker beside it (``pokerroom serve``: pokerroom.bus.local)
Tables = Callable[[RoomConfig, Store], AbstractAsyncContextManager[Router]]


class RoomApp:
    """The room's ASGI application (FastAPI: every HTTP route) and what /ws needs: the
    WebSocket endpoint is not ASGI (gateway/ws.py) and reaches the bus and the sessions
    through ``state``."""

    def __init__(
        self, config: RoomConfig, database: str, schema: str | None = None, limits: Limits | None = None,
        *, tables: Tables,
    ) -> None:
        self.limits = limits or Limits()
        # the WebSockets open per client address, and of them the anonymous ones (ws.py)
        self.state: dict[str, Any] = {"ready": False, "limits": self.limits, "sockets": AddressCount(),
                                      "anonymous": AddressCount()}
        self.api = _create_api(config, database, schema, self.state, tables)
        self.gate = Gate(self.api, self.limits)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.gate(scope, receive, send)


def create_app(
    config: RoomConfig, database: str, schema: str | None = None, limits: Limits | None = None,
    *, tables: Tables,
) -> RoomApp:
    return RoomApp(config, database, schema, limits, tables=tables)


def server_config(app: RoomApp, host: str, port: int) -> Any:
    """uvicorn's settings for the room: HTTP by httptools, and every WebSocket upgrade
    handed (with any bytes that came after it) to the room's own protocol (gateway/ws.py:
    frames up to 64 KiB, no compression, keepalive pings at 20 s +-50% per connection, so
    connections opened together do not all ping in the same instant;
    docs/performance.md)."""
    import uvicorn

    limits = app.limits
    # proxy_headers off: the room reads forwarded headers from trusted proxies only (gate.py)
    return uvicorn.Config(app, host=host, port=port, log_level="warning", http=http_protocol(limits),
                          ws=socket_class(app.state), lifespan="on", proxy_headers=False,
                          limit_concurrency=limits.max_connections, timeout_keep_alive=int(limits.keep_alive),
                          h11_max_incomplete_event_size=limits.max_head)


def _create_api(config: RoomConfig, database: str, schema: str | None, state: dict[str, Any],
                tables: Tables) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # the gateway's own part is the sessions; the tables are reached through the bus
        store = Store(database, schema)
        sessions = Sessions(config, store)
        try:
            async with tables(config, store) as router:
                await sessions.start()
                state["bus"], state["sessions"] = router, sessions
                state["ready"] = True
                try:
                    yield
                finally:
                    state["ready"] = False
                    await sessions.stop()
        finally:
            await store.close()

    app = FastAPI(title="pokerroom", lifespan=lifespan, docs_url="/api/docs", openapi_url="/api/openapi.json")

    def bus() -> Router:
        return state["bus"]  # type: ignore[no-any-return]

    def sessions() -> Sessions:
        return state["sessions"]  # type: ignore[no-any-return]

    @app.exception_handler(AuthError)
    async def _auth_error(request: Request, exc: AuthError) -> JSONResponse:
        return _error(exc.code, str(exc), exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return _error("http", str(exc.detail), exc.status_code)

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception) -> JSONResponse:
        log.exception("request %s failed", request.url.path)
        return _error("internal", "the server could not do that", 500)

    limit = state["limits"].max_body

    async def body(request: Request) -> dict[str, Any]:
        """The request's JSON object, read as it comes and refused (413) past the limit
        without reading the rest."""
        raw = bytearray()
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > limit:
                raise AuthError("too_big", f"a request body is at most {limit} bytes", 413)
        try:
            data = json.loads(bytes(raw) or b"{}")
        except (ValueError, UnicodeDecodeError, RecursionError):  # nesting past the parser's depth
            raise AuthError("bad_json", "the body must be a JSON object", 400) from None
        if not isinstance(data, dict):
            raise AuthError("bad_json", "the body must be a JSON object", 400)
        return data

    def token_of(request: Request) -> str | None:
        return session_token(request.headers.get("authorization"), request.headers.get("cookie"))

    def same_site(request: Request) -> None:
        """A POST that a browser's session cookie authenticates must be JSON (no HTML form
        can send that without CORS) from a page of this room (``Origin``, or
        ``Sec-Fetch-Site: same-origin``). A bot's bearer token needs neither: no other
        site's page can send it."""
        headers = request.headers
        bearer = session_token(headers.get("authorization"), None)
        if bearer or not session_token(None, headers.get("cookie")):
            return
        if headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            raise AuthError("bad_content_type", "send JSON (Content-Type: application/json)", 415)
        origin, host = headers.get("origin"), headers.get("host", "")
        fetch_site = headers.get("sec-fetch-site")
        if fetch_site == "same-origin" or (origin and _netloc(origin) == host.lower()):
            return
        raise AuthError("cross_site", "requests from pages of other sites are refused", 403)

    async def account_of(request: Request) -> Account:
        account = await sessions().accounts.from_token(token_of(request))
        if account is None:
            raise AuthError("login_required", "log in first", 401)
        return account

    def client_of(request: Request) -> str:
        """The address the limits count (IPv6 by its /64)."""
        return address_key(request.client.host) if request.client else "?"

    def signed_in(request: Request, account: Account, token: str) -> JSONResponse:
        response = JSONResponse({"name": account.name, "balance": account.balance, "token": token})
        secure = request.url.scheme == "https"  # --https, or a trusted proxy's X-Forwarded-Proto
        response.set_cookie(COOKIE, token, max_age=SESSION_SECONDS, httponly=True, samesite="strict",
                            secure=secure)
        return response

    @app.get("/healthz")
    async def healthz() -> JSONResponse:
        if not state["ready"]:
            return _error("starting", "the room is starting", 503)
        return JSONResponse({"ok": True, "tables": bus().table_count})

    @app.post("/api/register", operation_id="register", openapi_extra=_body_spec(Credentials),
              responses=_links("the new account, its balance and a session", login=_AGAIN))
    async def register(request: Request) -> JSONResponse:
        data = await body(request)
        name, password = data.get("name"), data.get("password")
        account, token = await sessions().accounts.register(name, password, client_of(request),
                                                            data.get("bot", False))
        return signed_in(request, account, token)

    @app.post("/api/login", operation_id="login", openapi_extra=_body_spec(Credentials),
              responses=_links("the account, its balance and a new session", me={}, topup={}, hands={}))
    async def login(request: Request) -> JSONResponse:
        data = await body(request)
        name, password = data.get("name"), data.get("password")
        account, token = await sessions().accounts.login(name, password, client_of(request))
        return signed_in(request, account, token)

    @app.post("/api/logout", operation_id="logout", openapi_extra=_body_spec(Empty, required=False))
    async def logout(request: Request, all: str | None = None) -> JSONResponse:
        """End this session (``?all=1``: every session of the account, "log out
        everywhere"), and close the connections that came in on them."""
        same_site(request)
        await body(request)
        token = token_of(request)
        if token:
            await sessions().logout(token, everywhere=all not in (None, "", "0", "false"))
        response = JSONResponse({"ok": True})
        response.delete_cookie(COOKIE)
        return response

    @app.get("/api/me", operation_id="me")
    async def me(request: Request) -> JSONResponse:
        account = await account_of(request)
        at_tables = await sessions().store.chips_at_tables(account.id)
        return JSONResponse({"name": account.name, "balance": account.balance, "at_tables": at_tables})

    @app.post("/api/topup", operation_id="topup", openapi_extra=_body_spec(Empty, required=False),
              responses=_links("the balance after the top-up", me={}))
    async def topup(request: Request) -> JSONResponse:
        account = await account_of(request)
        same_site(request)
        await body(request)
        balance = await sessions().accounts.daily_topup(account)
        return JSONResponse({"balance": balance})

    @app.get("/api/tables")
    async def table_list() -> JSONResponse:
        return JSONResponse({"tables": [row.model_dump(mode="json") for row in bus().lobby()]})

    @app.get("/api/tables/{name:path}/buy-in")
    async def buy_in(name: str, request: Request) -> JSONResponse:
        """The buy-in this player may sit down with now at table ``name``, and why the
        minimum is higher when it is (D13: he left within the rathole window with more)."""
        account = await account_of(request)
        allowed = await bus().buy_in(name, account.id, time.time())
        if allowed is None:
            raise AuthError("not_found", f"no table named {name!r}", 404)
        return JSONResponse(allowed)

    def store() -> Store:
        return sessions().store

    add_hand_routes(app, store=store, account_of=account_of, room=config)
    add_note_routes(app, store=store, account_of=account_of, body=body, same_site=same_site)
    add_prefs_routes(app, store=store, account_of=account_of, body=body, same_site=same_site)

    register_stats(app, state)  # issue 19: /api/players/{name}/stats, the periodic fold
    register_replay(app, state, body)  # issue 19: /api/hands/{id}/replay, POST /api/replay (a PHH file)
    if WEB.is_dir():
        from fastapi.staticfiles import StaticFiles

        app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
    return app


def _netloc(url: str) -> str | None:
    """The host (and port) of ``url``, lower case; None when it is not a URL."""
    try:
        return urlsplit(url).netloc.lower()
    except ValueError:  # 'http://[' and the like
        return None
