"""Fuzz the WebSocket opening handshake, both ends: a ServerProtocol reading a client's
request and a ClientProtocol reading a server's answer (pokerroom.websocket), each fed
through a fake transport in reads the input's first byte chooses.

Seeds (tests/fuzz/corpus/handshake/, make_corpus.py): valid requests as browsers and our
client send them, and valid 101 answers to our client's fixed key, some with frames
after the blank line. What may escape ``data_received``: nothing, on either end. A bad
handshake is answered with an HTTP error (server) or fails the ``handshake`` future with
``HandshakeError`` (client), and the connection ends.

Checked: the head read so far is never over the handshake limit while the handshake is
under way; the server writes only a well-formed status line, and 101 only for a request
with a valid Sec-WebSocket-Key, answered with that key's accept; whatever the server
refused is closed; the client is either still reading, open with its future done, or
closed with HandshakeError.

    python tests/fuzz/fuzz_handshake.py -runs=100000 -seed=1
"""

from __future__ import annotations

import asyncio
import re
import sys

import _harness
import atheris

with atheris.instrument_imports(include=["pokerroom"]):
    from pokerroom import websocket as ws

LIMIT = 1024  # the handshake limit for the fuzz (the server's own is 16 KiB)
KEY = "dGhlIHNhbXBsZSBub25jZQ=="  # the client's key (RFC 6455's example)
STATUS = re.compile(rb"HTTP/1\.1 (101|4\d\d|5\d\d) [A-Za-z ]+\r\n")


class Server(ws.ServerProtocol):
    max_handshake = LIMIT

    def __init__(self) -> None:
        super().__init__(ping_interval=None, ping_timeout=None)

    def check(self, request: ws.Request) -> tuple[int, str] | None:
        return (404, "no such path") if request.path != "/ws" else None


async def server_side(pieces: list[bytes]) -> None:
    transport = _harness.Transport()
    server = Server()
    server.connection_made(transport)  # type: ignore[arg-type]
    try:
        for piece in pieces:
            server.data_received(piece)
            await asyncio.sleep(0)
            if server.state == ws.CONNECTING:
                assert len(server._head) <= LIMIT, f"a head of {len(server._head)} bytes kept"
                assert not transport.written(), "an answer before the request was read"
        out = transport.written()
        if not out:
            assert server.state == ws.CONNECTING
            return
        assert STATUS.match(out), f"a bad status line: {out[:80]!r}"
        head = out.split(b"\r\n\r\n", 1)[0]
        if out.startswith(b"HTTP/1.1 101 "):
            assert server.request is not None and server.request.path == "/ws"
            key = server.request.headers["sec-websocket-key"]
            assert ws.valid_key(key), f"accepted the key {key!r}"
            assert f"Sec-WebSocket-Accept: {ws.accept_key(key)}".encode() in head
        else:
            assert server.request is None and transport.closing, "a refused handshake left open"
    finally:
        server.connection_lost(None)


class Client(ws.ClientProtocol):
    def __init__(self) -> None:
        super().__init__(ping_interval=None, ping_timeout=None)
        self._key = KEY
        self._request = b"GET /ws HTTP/1.1\r\n\r\n"


async def client_side(pieces: list[bytes]) -> None:
    transport = _harness.Transport()
    client = Client()
    client.connection_made(transport)  # type: ignore[arg-type]
    future = client.handshake
    assert future is not None
    try:
        for piece in pieces:
            client.data_received(piece)
            await asyncio.sleep(0)
            if client.state == ws.CONNECTING:
                assert len(client._head) <= 16384
                assert not future.done(), "the handshake ended but the client still reads it"
        if future.done():
            error = future.exception()
            if error is None:
                assert client.state != ws.CONNECTING
            else:
                assert isinstance(error, ws.HandshakeError), f"the handshake failed with {error!r}"
                assert client.state == ws.CLOSED
    finally:
        client.connection_lost(None)
        if future.done():
            future.exception()  # retrieved: no "never retrieved" warning


def test_one(data: bytes) -> None:
    _, pieces = _harness.split(data)
    LOOP.run_until_complete(server_side(pieces))
    LOOP.run_until_complete(client_side(pieces))


LOOP = asyncio.new_event_loop()

if __name__ == "__main__":
    _harness.run("handshake", test_one)
    sys.exit(0)
