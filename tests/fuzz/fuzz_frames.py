"""Fuzz the WebSocket frame reader: pokerroom.websocket's FrameReader and a server
protocol (ServerProtocol, past its handshake) fed through a transport whose peer never
reads.

An input is one byte that chooses how the stream is cut into reads, then the stream of
frames a client sends (tests/fuzz/corpus/frames/: valid masked frames, made by
make_corpus.py). What may escape:

- ``FrameReader.feed``: only ``ProtocolError`` (its documented error), and the same
  messages, or the same error code, however the stream is cut into reads;
- ``ServerProtocol.data_received``: nothing. A peer's mistake closes the connection, it
  never raises.

Bounds, checked after every read: the reader's unparsed buffer is at most one frame head
and ``max_size`` bytes; the message being assembled is at most ``max_size`` bytes in at
most ``max_size`` fragments (every frame counts toward the limit, an empty one too; or
the reader's own ``max_fragments`` when it has one); a delivered message is at most
``max_size``; and the bytes written to a peer that never reads stay within
``max_buffer`` plus two control frames (the frame that crossed the bound and the close).

    python tests/fuzz/fuzz_frames.py -runs=100000 -seed=1
"""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import _harness
import atheris

with atheris.instrument_imports(include=["pokerroom"]):
    from pokerroom import websocket as ws

MAX_SIZE = 256
MAX_BUFFER = 1024
HEAD = 14  # the longest frame head: 2 bytes, an 8-byte length and a 4-byte mask
CONTROL = HEAD + 125


class Server(ws.ServerProtocol):
    def __init__(self) -> None:
        super().__init__(max_size=MAX_SIZE, max_buffer=MAX_BUFFER, ping_interval=None, ping_timeout=None)
        self.messages: list[tuple[int, Any]] = []

    def on_text(self, text: str) -> None:
        self.messages.append((ws.TEXT, text))

    def on_binary(self, data: bytes) -> None:
        self.messages.append((ws.BINARY, data))


def check_reader(reader: ws.FrameReader) -> None:
    assert len(reader._buffer) <= HEAD + MAX_SIZE, f"the reader buffers {len(reader._buffer)} bytes"
    parts = getattr(reader, "_parts", [])
    held = sum(len(p) for p in parts)
    assert held <= MAX_SIZE, f"a message under way holds {held} bytes"
    most = getattr(reader, "max_fragments", None) or MAX_SIZE
    assert len(parts) <= most, f"a message under way holds {len(parts)} fragments"


def check_message(opcode: int, payload: Any) -> None:
    size = len(payload.encode()) if isinstance(payload, str) else len(payload)
    if opcode in (ws.TEXT, ws.BINARY):
        assert size <= MAX_SIZE, f"a message of {size} bytes was delivered"
        assert isinstance(payload, str) == (opcode == ws.TEXT)
    else:
        assert size <= 125, f"a control frame of {size} bytes"


def read_all(pieces: list[bytes]) -> tuple[list[tuple[int, Any]], int | None, bytes]:
    """Feed ``pieces`` to a FrameReader: the messages, the error code (None) and the rest."""
    reader = ws.FrameReader(masked=True, max_size=MAX_SIZE)
    out: list[tuple[int, Any]] = []
    for piece in pieces:
        try:
            messages = reader.feed(piece)
        except ws.ProtocolError as e:
            return out, e.code, b""
        for message in messages:
            check_message(*message)
        out += messages
        check_reader(reader)
    return out, None, reader._buffer


async def through_protocol(pieces: list[bytes]) -> None:
    transport = _harness.Transport()
    server = Server()
    server.connection_made(transport)  # type: ignore[arg-type]
    server.opened()
    try:
        for piece in pieces:
            server.data_received(piece)
            await asyncio.sleep(0)  # the queued writes go out
            check_reader(server.reader)
            bound = MAX_BUFFER + 2 * CONTROL
            assert transport.size <= bound, (
                f"{transport.size} bytes written to a peer that never reads (bound {bound}), "
                f"state {server.state}")
            if server.state == ws.OPEN:
                assert not transport.closing, "the transport closed under an open connection"
        for message in server.messages:
            check_message(*message)
    finally:
        server.connection_lost(None)  # its timers go


def test_one(data: bytes) -> None:
    stream, pieces = _harness.split(data)
    whole = read_all([stream])
    cut = read_all(pieces)
    if whole[1] is None and cut[1] is None:
        assert whole == cut, "the messages depend on how the stream was cut into reads"
    else:
        assert whole[1] == cut[1], f"error {whole[1]} at once, {cut[1]} in pieces"
    LOOP.run_until_complete(through_protocol(pieces))


LOOP = asyncio.new_event_loop()

if __name__ == "__main__":
    _harness.run("frames", test_one)
    sys.exit(0)
