"""A small WebSocket (RFC 6455) for the room's hot path, on asyncio protocols: no task,
no queue and no thread per connection, one ``transport.write`` per message.

The room's server runs one ``ServerProtocol`` per connection on /ws (gateway/ws.py plugs
it into uvicorn, which keeps serving HTTP on the same port) and the load-test bots run
thousands of ``ClientProtocol`` in one process. Both sides share the framing here:

- frames of any size up to ``max_size``, text and binary messages, fragmented messages
  (continuation frames, at most ``max_fragments`` to a message) with control frames
  between the fragments, ping/pong, and the closing handshake with its status codes;
- the peer's mistakes end the connection with the code the RFC names: 1002 for a
  protocol error (reserved bits, an unknown opcode, masking the wrong way, a bad control
  frame, a continuation out of place), 1007 for text that is not UTF-8, 1009 for a
  message over ``max_size`` or in more than ``max_fragments`` frames (an empty frame
  weighs nothing against ``max_size``, so without a count a message that never ends, of
  empty fragments, held the connection's memory and the loop's time for ever);
- keepalive pings at an interval jittered per connection (+-50%), so that connections
  opened in the same second do not all ping in the same second, and a connection whose
  peer does not answer within ``ping_timeout`` is dropped;
- a peer that does not read: while more than ``read_pause`` bytes wait to be written to
  it, nothing more is read from it (each ping read asks for a pong, each message maybe
  for an answer: reading on from a peer that does not read back only piles them up); past
  ``max_buffer`` bytes waiting, whatever they are (messages, pongs, a close), the
  connection is closed with 1008 (``on_overflow``). Of a run of pings read together only
  the last is answered (RFC 6455 5.5.3 allows it), so a ping flood costs one pong a read.

No extension is negotiated (no per-message deflate) and no subprotocol.

The package, one way (each module imports only those before it): ``frames`` (opcodes,
close codes, building and reading frames), ``protocol`` (``WebSocketProtocol``, what both
ends share once open), ``handshake`` (``Request``, ``ServerProtocol``, ``ClientProtocol``,
``connect``). Every name is here too: ``from pokerroom import websocket as w; w.TEXT``.
"""

from __future__ import annotations

from pokerroom.websocket.frames import (
    ABNORMAL,
    BINARY,
    CLOSE,
    CONTINUATION,
    GOING_AWAY,
    INTERNAL,
    INVALID_DATA,
    NO_STATUS,
    NORMAL,
    PING,
    POLICY,
    PONG,
    PROTOCOL_ERROR,
    TEXT,
    TOO_BIG,
    TRY_LATER,
    UNSUPPORTED,
    FrameReader,
    ProtocolError,
    close_payload,
    frame,
    mask_bytes,
    parse_close,
)
from pokerroom.websocket.frames import _server_text_frame as _server_text_frame  # the tests use it
from pokerroom.websocket.handshake import (
    GUID,
    ClientProtocol,
    HandshakeError,
    Request,
    ServerProtocol,
    accept_key,
    connect,
    valid_key,
)
from pokerroom.websocket.protocol import CLOSED, CLOSING, CONNECTING, OPEN, WebSocketProtocol

__all__ = [
    "ABNORMAL", "BINARY", "CLOSE", "CLOSED", "CLOSING", "CONNECTING", "CONTINUATION", "GOING_AWAY", "GUID",
    "INTERNAL", "INVALID_DATA", "NORMAL", "NO_STATUS", "OPEN", "PING", "POLICY", "PONG", "PROTOCOL_ERROR",
    "TEXT", "TOO_BIG", "TRY_LATER", "UNSUPPORTED", "ClientProtocol", "FrameReader", "HandshakeError",
    "ProtocolError", "Request", "ServerProtocol", "WebSocketProtocol", "accept_key", "close_payload",
    "connect", "frame", "mask_bytes", "parse_close", "valid_key",
]
