"""The room's /ws endpoint (gateway/ws.py) through a real room server: which upgrades it
takes (the path, the Origin, the handshake as uvicorn hands it over) and that nothing a
client sends with its handshake is lost."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
from typing import Any, ClassVar

import pytest
import uvicorn
from uvicorn.server import ServerState
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from pokerroom.gateway import ws
from tests.helpers import KEY, MASK, Echo, Raw, expected_accept, handshake, raw, raw_frame, unframe
from tests.server.helpers import Server

WAIT = 10.0


async def _welcome(server: Server, origin: str | None) -> dict[str, Any]:
    options: dict[str, Any] = {"proxy": None, "open_timeout": WAIT}
    if origin is not None:
        options["origin"] = origin
    async with connect(server.ws, **options) as ws:
        welcome = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        await ws.send(json.dumps({"type": "ping", "id": "p"}))
        pong = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        assert pong == {"type": "pong", "id": "p"}, pong
        return welcome  # type: ignore[no-any-return]


async def _refused(server: Server, path: str = "/ws", origin: str | None = None) -> tuple[int, bytes]:
    options: dict[str, Any] = {"proxy": None, "open_timeout": WAIT}
    if origin is not None:
        options["origin"] = origin
    with pytest.raises(InvalidStatus) as e:
        async with connect(f"ws://127.0.0.1:{server.port}{path}", **options):
            pass
    return e.value.response.status_code, bytes(e.value.response.body or b"")


async def _answer(server: Server, request: bytes) -> tuple[int, dict[str, str], bytes]:
    async with raw(server.port) as peer:
        peer.write(request)
        return await peer.response()


def test_an_upgrade_on_another_path_is_404(server: Server) -> None:
    async def main() -> None:
        for path in ("/", "/wsx", "/ws/", "/api/me", "/nothing/ws", "/WS"):
            status, body = await _refused(server, path)
            assert status == 404, (path, status, body)
            assert path.split("?")[0].encode() in body, body
            status, headers, body = await _answer(server, handshake(path))
            assert status == 404 and body, (path, status, body)
            assert "sec-websocket-accept" not in headers
        # /ws with a query string is /ws
        status, headers, _ = await _answer(server, handshake("/ws?token=nothing"))
        assert status == 101 and headers["sec-websocket-accept"] == expected_accept(KEY)

    asyncio.run(main())


def test_an_origin_of_another_site_is_refused(server: Server) -> None:
    async def main() -> None:
        same = f"http://127.0.0.1:{server.port}"
        for origin in ("http://evil.example", f"http://evil.example:{server.port}", "http://127.0.0.1:1",
                       f"http://127.0.0.1:{server.port}.evil.example", "http://localhost",
                       f"http://user@127.0.0.1:{server.port}x"):
            status, body = await _refused(server, origin=origin)
            assert status == 403, (origin, status, body)
            assert body
            status, _, body = await _answer(server, handshake("/ws", host=f"127.0.0.1:{server.port}",
                                                              extra={"Origin": origin}))
            assert status == 403, (origin, status, body)
        assert (await _welcome(server, same))["type"] == "welcome"
        assert (await _welcome(server, same.upper().replace("HTTP", "http")))["type"] == "welcome"
        welcome = await _welcome(server, None)
        assert welcome["type"] == "welcome" and welcome["player"] is None

    asyncio.run(main())


def test_the_handshake_is_checked_after_uvicorn_hands_it_over(server: Server) -> None:
    async def main() -> None:
        status, headers, _ = await _answer(server, handshake("/ws", version="8"))
        assert status == 426 and headers["sec-websocket-version"] == "13"
        status, _, _ = await _answer(server, handshake("/ws", host=f"127.0.0.1:{server.port}",
                                                       extra={"Origin": f"http://127.0.0.1:{server.port}"}))
        assert status == 101  # the same origin, by hand
        status, _, _ = await _answer(server, handshake("/ws", key="not-a-key"))
        assert status == 400
        status, _, _ = await _answer(server, handshake("/ws", key=None))
        assert status == 400
        # and the room is still there
        assert (await _welcome(server, None))["type"] == "welcome"

    asyncio.run(main())


def test_a_server_that_stops_closes_with_1012(server: Server) -> None:
    async def main() -> None:
        async with connect(server.ws, proxy=None, open_timeout=WAIT, close_timeout=WAIT) as ws:
            assert json.loads(await asyncio.wait_for(ws.recv(), WAIT))["type"] == "welcome"
            stopping = asyncio.create_task(asyncio.to_thread(server.stop))
            with pytest.raises(ConnectionClosed) as e:
                while True:
                    await asyncio.wait_for(ws.recv(), WAIT)
            assert e.value.rcvd is not None and e.value.rcvd.code == 1012, e.value
            await asyncio.wait_for(stopping, 20)
        # a clean stop (uvicorn re-raises the SIGTERM it handled once it has shut down)
        assert server.process is not None and server.process.returncode in (0, -signal.SIGTERM)

    asyncio.run(main())


async def _messages(peer: Raw, until_id: str) -> list[dict[str, Any]]:
    """The server's text messages up to the answer carrying ``until_id``."""
    data = b""
    async with asyncio.timeout(WAIT):
        while True:
            chunk = await peer.reader.read(65536)
            assert chunk, f"the server closed after {data!r}"
            data += chunk
            try:
                frames = unframe(data)
            except (AssertionError, IndexError):
                continue
            messages = [json.loads(payload) for _, opcode, payload, _ in frames if opcode == 1]
            if any(m.get("id") == until_id for m in messages):
                return messages


def test_a_command_in_the_same_packet_as_the_handshake_is_answered(server: Server) -> None:
    async def main() -> None:
        command = raw_frame(1, json.dumps({"type": "ping", "id": "early"}).encode(), mask=MASK)
        second = raw_frame(1, json.dumps({"type": "ping", "id": "second"}).encode(), mask=MASK)
        async with raw(server.port) as peer:
            peer.write(handshake("/ws", host=f"127.0.0.1:{server.port}") + command + second)
            status, headers, _ = await peer.response()
            assert status == 101 and headers["sec-websocket-accept"] == expected_accept(KEY)
            messages = await _messages(peer, "second")
        assert [m["type"] for m in messages] == ["welcome", "pong", "pong"], messages
        assert [m.get("id") for m in messages[1:]] == ["early", "second"]

    asyncio.run(main())


# ---------------------------------------------------------------------------- uvicorn's hand-over


class UvicornEcho(Echo):
    """An echoing ServerProtocol as uvicorn builds its ``ws`` class."""

    made: ClassVar[list[UvicornEcho]] = []

    def __init__(self, config: Any = None, server_state: Any = None, app_state: Any = None) -> None:
        super().__init__()
        UvicornEcho.made.append(self)


async def _http_app(scope: Any, receive: Any, send: Any) -> None:
    assert scope["type"] == "http"
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"ok"})


async def _uvicorn_upgrade(http: Any, request: bytes, frames: int) -> tuple[int, list[bytes], bytes]:
    """``request`` to uvicorn with ``http`` as its HTTP protocol and UvicornEcho as its
    WebSocket: the status, the payloads of up to ``frames`` frames echoed within 0.5 s,
    and the body of a plain HTTP request on a second connection."""
    config = uvicorn.Config(_http_app, http=http, ws=UvicornEcho, lifespan="off", log_level="warning")
    config.load()
    state = ServerState()
    loop = asyncio.get_running_loop()
    server = await loop.create_server(
        lambda: config.http_protocol_class(config=config, server_state=state, app_state={}),  # type: ignore[call-arg]
        "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    UvicornEcho.made = []
    try:
        async with raw(port) as peer:
            peer.write(request)
            status, _, _ = await peer.response()
            got: list[bytes] = []
            data = b""
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(0.5):
                    while len(got) < frames:
                        data += await peer.reader.read(65536)
                        with contextlib.suppress(AssertionError, IndexError):
                            got = [payload for _, _, payload, _ in unframe(data)]
        async with raw(port) as peer:
            peer.write(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            _, _, body = await peer.response()
        return status, got, body
    finally:
        server.close()
        for proto in [*UvicornEcho.made, *state.connections]:
            if proto.transport is not None and not proto.transport.is_closing():
                proto.transport.abort()
        await server.wait_closed()
        for _ in range(3):
            await asyncio.sleep(0)


def test_frames_sent_with_the_handshake_reach_the_socket_through_uvicorn() -> None:
    early = (raw_frame(1, b"first", mask=MASK) + raw_frame(2, b"\x00\x01", mask=MASK)
             + raw_frame(1, b"3", mask=MASK))
    request = handshake("/ws") + early
    status, got, body = asyncio.run(_uvicorn_upgrade(ws.http_protocol(), request, 3))
    assert status == 101 and body == b"ok"
    assert got == [b"first", b"\x00\x01", b"3"]
    # the handshake alone, and a handshake cut after its headers: nothing extra
    status, got, _ = asyncio.run(_uvicorn_upgrade(ws.http_protocol(), handshake("/ws"), 1))
    assert status == 101 and got == []


def test_uvicorn_itself_still_drops_what_follows_an_upgrade() -> None:
    """Why ws.http_protocol exists. Should uvicorn start passing those bytes on itself, this
    fails: then ws.http_protocol would hand them over twice and must go."""
    request = handshake("/ws") + raw_frame(1, b"first", mask=MASK)
    status, got, body = asyncio.run(_uvicorn_upgrade("httptools", request, 1))
    assert status == 101 and body == b"ok"
    assert got == []
