"""The HTTP and WebSocket application (FastAPI on uvicorn).

HTTP: /healthz, /api/register, /api/login, /api/logout, /api/me, /api/topup, /api/tables,
/api/hands, /api/hands/{id} (.json, .phh, .txt). WebSocket: /ws, see protocol.py and
docs/protocol.md. Errors are JSON ``{"error": {"code", "message"}}``; no stack trace ever
reaches a client.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Receive, Scope, Send

from pokerroom.server import protocol as p
from pokerroom.server.auth import COOKIE, SESSION_SECONDS, AuthError
from pokerroom.server.histories import stored_text
from pokerroom.server.room import Room, TokenBucket
from pokerroom.server.rooms import RoomConfig
from pokerroom.server.runner import Connection
from pokerroom.server.store import Account, Store

log = logging.getLogger("pokerroom.server")
WEB = Path(__file__).resolve().parent.parent / "web"


def _error(code: str, message: str, status: int) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def create_app(config: RoomConfig, database: str, schema: str | None = None) -> ASGIApp:
    """The room's ASGI application: /ws is served by a bare ASGI handler (every message
    of every table goes through it, so it skips the framework's per-message layers);
    everything else by FastAPI."""
    state: dict[str, Any] = {"ready": False}
    api = _create_api(config, database, schema, state)

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] == "/ws":
            await _websocket(state, scope, receive, send)
        else:
            await api(scope, receive, send)

    return app


def server_config(app: ASGIApp, host: str, port: int) -> Any:
    """uvicorn's settings for the room: WebSocket frames up to 64 KiB, no per-message
    compression (small JSON messages gain little from it and it cost ~8% of the server's
    CPU under load), and keepalive pings at 20 s +-50% per connection, so connections
    opened together do not all ping in the same instant (docs/performance.md)."""
    import uvicorn

    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        ws=_jittered_protocol(),
        ws_max_size=65536,
        ws_per_message_deflate=False,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
    )


def _jittered_protocol() -> Any:
    try:
        from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    except ImportError:  # an older uvicorn: its default protocol, pings unjittered
        return "auto"

    class JitteredPings(WebSocketsSansIOProtocol):
        def schedule_ping(self) -> None:
            interval = self.ping_interval
            if interval is None:
                return
            self.ping_interval = interval * (0.5 + secrets.randbelow(1001) / 1000)
            try:
                super().schedule_ping()
            finally:
                self.ping_interval = interval

    return JitteredPings


def _create_api(config: RoomConfig, database: str, schema: str | None, state: dict[str, Any]) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(database, schema)
        room = Room(config, store)
        await room.start()
        state["room"] = room
        state["ready"] = True
        try:
            yield
        finally:
            state["ready"] = False
            await room.stop()
            await store.close()

    app = FastAPI(title="pokerroom", lifespan=lifespan, docs_url="/api/docs", openapi_url="/api/openapi.json")

    def room() -> Room:
        return state["room"]  # type: ignore[no-any-return]

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

    async def body(request: Request) -> dict[str, Any]:
        raw = await request.body()
        if len(raw) > 4096:
            raise AuthError("too_big", "the request is too large", 413)
        try:
            data = json.loads(raw or b"{}")
        except (ValueError, UnicodeDecodeError):
            raise AuthError("bad_json", "the body must be a JSON object", 400) from None
        if not isinstance(data, dict):
            raise AuthError("bad_json", "the body must be a JSON object", 400)
        return data

    def token_of(request: Request) -> str | None:
        return _token(request.scope, query=False)

    async def account_of(request: Request) -> Account:
        account = await room().accounts.from_token(token_of(request))
        if account is None:
            raise AuthError("login_required", "log in first", 401)
        return account

    def signed_in(account: Account, token: str) -> JSONResponse:
        response = JSONResponse({"name": account.name, "balance": account.balance, "token": token})
        response.set_cookie(COOKIE, token, max_age=SESSION_SECONDS, httponly=True, samesite="strict")
        return response

    @app.get("/healthz")
    async def healthz() -> JSONResponse:
        if not state["ready"]:
            return _error("starting", "the room is starting", 503)
        return JSONResponse({"ok": True, "tables": len(room().runners)})

    @app.post("/api/register")
    async def register(request: Request) -> JSONResponse:
        data = await body(request)
        account, token = await room().accounts.register(data.get("name"), data.get("password"))
        return signed_in(account, token)

    @app.post("/api/login")
    async def login(request: Request) -> JSONResponse:
        data = await body(request)
        client = request.client.host if request.client else "?"
        account, token = await room().accounts.login(data.get("name"), data.get("password"), client)
        return signed_in(account, token)

    @app.post("/api/logout")
    async def logout(request: Request) -> JSONResponse:
        token = token_of(request)
        if token:
            await room().accounts.logout(token)
        response = JSONResponse({"ok": True})
        response.delete_cookie(COOKIE)
        return response

    @app.get("/api/me")
    async def me(request: Request) -> JSONResponse:
        account = await account_of(request)
        at_tables = await room().store.chips_at_tables(account.id)
        return JSONResponse({"name": account.name, "balance": account.balance, "at_tables": at_tables})

    @app.post("/api/topup")
    async def topup(request: Request) -> JSONResponse:
        account = await account_of(request)
        balance = await room().accounts.daily_topup(account)
        return JSONResponse({"balance": balance})

    @app.get("/api/tables")
    async def tables() -> JSONResponse:
        return JSONResponse({"tables": room().tables()})

    @app.get("/api/hands")
    async def my_hands(request: Request) -> JSONResponse:
        account = await account_of(request)
        return JSONResponse({"hands": await room().store.hands_of(account.id)})

    @app.get("/api/hands/{ref}")
    async def hand(ref: str, request: Request) -> Response:
        account = await account_of(request)
        stem, _, suffix = ref.partition(".")
        if not (stem.isascii() and stem.isdigit() and len(stem) <= 10 and int(stem) < 2**31):
            raise AuthError("not_found", "no such hand", 404)
        if suffix not in ("", "json", "phh", "txt"):
            raise AuthError("not_found", "no such hand", 404)
        data = await room().store.hand(int(stem))
        seat_of = {x["account_id"]: x["seat"] for x in data["players"]} if data else {}
        if data is None or data["status"] != "complete" or account.id not in seat_of:
            raise AuthError("not_found", "no such hand among yours", 404)
        return hand_for(data, seat_of[account.id], suffix)

    if WEB.is_dir():
        from fastapi.staticfiles import StaticFiles

        app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
    return app


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
    history["openings"] = [o for o in private["openings"] if o["card"] in visible]
    history["id"] = data["id"]
    history["nets"] = {str(x["seat"]): x["net"] for x in data["players"]}
    return JSONResponse(history)


async def _websocket(state: dict[str, Any], scope: Scope, receive: Receive, send: Send) -> None:
    """One WebSocket connection (docs/protocol.md): the first message is ``welcome``; each
    client message is checked (text, size, rate, schema) and handed to the room; what the
    room queues for the connection is written by its own writer task, so a slow reader
    never holds up a table."""
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    if not state["ready"]:
        await send({"type": "websocket.close", "code": 1013, "reason": "the room is starting"})
        return
    room: Room = state["room"]
    account = await room.accounts.from_token(_token(scope))
    conn = Connection(account.name if account else None, account.id if account else None)
    conn.send(p.Welcome(player=conn.player, balance=account.balance if account else None))
    writer = asyncio.create_task(_writer(send, conn))
    bucket = TokenBucket(rate=20.0, burst=40.0)
    try:
        while not conn.overflowed:
            frame = await receive()
            if frame["type"] != "websocket.receive":  # websocket.disconnect
                break
            raw = frame.get("text")
            if raw is None:  # a binary frame
                conn.send(p.Error(code="bad_message", message="messages are JSON text frames"))
                continue
            if len(raw) > p.MAX_MESSAGE_BYTES or len(raw.encode()) > p.MAX_MESSAGE_BYTES:
                too_big = f"messages are at most {p.MAX_MESSAGE_BYTES} bytes"
                conn.send(p.Error(code="too_big", message=too_big))
                continue
            if not bucket.take():
                slow = "too many messages: slow down"
                conn.send(p.Error(code="rate_limited", message=slow, id=_id_of(raw)))
                continue
            try:
                message = p.CLIENT.validate_json(raw)
            except ValidationError as e:
                conn.send(p.Error(code="bad_message", message=_explain(e), id=_id_of(raw)))
                continue
            await room.dispatch(conn, message)
    except OSError:  # the client went away while we wrote (uvicorn's ClientDisconnected)
        pass
    finally:
        room.disconnected(conn)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer
        with contextlib.suppress(Exception):
            await send({"type": "websocket.close", "code": 1000})


def _token(scope: Scope, query: bool = True) -> str | None:
    """The session token of a request: ``Authorization: Bearer``, else the session cookie,
    else (the WebSocket handshake only, ``query``) ``?token=``."""
    cookie = ""
    for key, value in scope.get("headers", ()):
        if key == b"authorization":
            header: str = value.decode("latin-1")
            if header.lower().startswith("bearer ") and header[7:].strip():
                return header[7:].strip()
        elif key == b"cookie":
            cookie = value.decode("latin-1")
    if cookie:
        token = cookie_parser(cookie).get(COOKIE)
        if token:
            return token
    if not query:
        return None
    tokens = parse_qs(bytes(scope.get("query_string", b"")).decode("latin-1")).get("token")
    return tokens[-1] if tokens else None


async def _writer(send: Send, conn: Connection) -> None:
    outbox = conn.outbox
    while True:
        text = await outbox.get()
        await send({"type": "websocket.send", "text": text})
        if conn.overflowed and outbox.empty():
            await send({"type": "websocket.close", "code": 1008, "reason": "too many unread messages"})
            return


def _explain(error: ValidationError) -> str:
    problems = []
    for item in error.errors()[:3]:
        where = ".".join(str(x) for x in item.get("loc", ()) if not isinstance(x, int)) or "message"
        problems.append(f"{where}: {item.get('msg', 'invalid')}")
    return "; ".join(problems)


def _id_of(raw: str) -> str | int | None:
    """The command's id, to echo in an error, if the text has a usable one."""
    if len(raw) > p.MAX_MESSAGE_BYTES:
        return None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if isinstance(data, dict):
        value = data.get("id")
        if type(value) is str and len(value) <= 64:
            return value
        if type(value) is int and 0 <= value <= 2**53:
            return value
    return None
