"""The framing of RFC 6455, with no I/O: the opcodes and close codes, building a frame
(``frame``, ``mask_bytes``, ``close_payload``), and ``FrameReader``, which turns a byte
stream into messages and control frames and raises ``ProtocolError`` at the peer's
mistakes (``parse_close`` reads a close frame's payload)."""

from __future__ import annotations

from typing import Any

CONTINUATION, TEXT, BINARY, CLOSE, PING, PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA
_DATA = (CONTINUATION, TEXT, BINARY)
_CONTROL = (CLOSE, PING, PONG)

NORMAL, GOING_AWAY, PROTOCOL_ERROR, UNSUPPORTED = 1000, 1001, 1002, 1003
NO_STATUS, ABNORMAL, INVALID_DATA, POLICY, TOO_BIG = 1005, 1006, 1007, 1008, 1009
INTERNAL, TRY_LATER = 1011, 1013
# codes a peer may send in a close frame (RFC 6455 7.4; 1015 and 1005/1006 never on the wire)
_SENDABLE = frozenset({1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014})


def mask_bytes(data: bytes, mask: bytes) -> bytes:
    """``data`` XOR the 4-byte ``mask`` repeated (masking and unmasking are the same)."""
    n = len(data)
    if not n:
        return data
    key = (mask * ((n >> 2) + 1))[:n]
    return (int.from_bytes(data, "little") ^ int.from_bytes(key, "little")).to_bytes(n, "little")


def frame(opcode: int, payload: bytes, mask: bytes | None = None) -> bytes:
    """One final frame. Clients mask (``mask``: 4 bytes), servers do not."""
    n = len(payload)
    b0 = 0x80 | opcode
    bit = 0x80 if mask is not None else 0
    if n < 126:
        head = bytes((b0, bit | n))
    elif n < 65536:
        head = bytes((b0, bit | 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((b0, bit | 127)) + n.to_bytes(8, "big")
    if mask is None:
        return head + payload
    return head + mask + mask_bytes(payload, mask)


_last: list[Any] = [None, b""]  # the last text framed by a server, and its frame


def _server_text_frame(text: str) -> bytes:
    """A server's (unmasked) frame of ``text``: made once when several peers get the same
    text in a row (every watcher of a table gets the same events)."""
    if text is not _last[0]:
        _last[0], _last[1] = text, frame(TEXT, text.encode())
    return _last[1]  # type: ignore[no-any-return]


def close_payload(code: int, reason: str = "") -> bytes:
    if code == NO_STATUS:
        return b""
    # at most 125 bytes in all (a control frame), not cutting a character in two
    return code.to_bytes(2, "big") + reason.encode()[:123].decode("utf-8", "ignore").encode()


class ProtocolError(Exception):
    """The peer broke the protocol: the connection is closed with ``code``."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class FrameReader:
    """Frames out of a byte stream, assembled into messages. ``feed`` returns, in order,
    ``(opcode, payload)`` for each complete message (TEXT with a str, BINARY with bytes)
    and each control frame (CLOSE, PING, PONG with bytes); it raises ``ProtocolError``."""

    def __init__(self, *, masked: bool, max_size: int, max_fragments: int = 256) -> None:
        self.masked = masked  # frames from a client are masked, from a server not
        self.max_size = max_size
        self.max_fragments = max_fragments
        self._buffer = b""
        self._opcode: int | None = None  # of the fragmented message under way
        self._parts: list[bytes] = []
        self._size = 0

    def feed(self, data: bytes) -> list[tuple[int, Any]]:
        if self._buffer:
            data = self._buffer + data
        out: list[tuple[int, Any]] = []
        pos, end = 0, len(data)
        while end - pos >= 2:
            b0, b1 = data[pos], data[pos + 1]
            if b0 & 0x70:
                raise ProtocolError(PROTOCOL_ERROR, "reserved bits set (no extension was agreed)")
            opcode, fin = b0 & 0x0F, b0 & 0x80
            if bool(b1 & 0x80) != self.masked:
                raise ProtocolError(PROTOCOL_ERROR, "client frames must be masked" if self.masked
                                    else "server frames must not be masked")
            length, head = b1 & 0x7F, 2
            if length == 126:
                if end - pos < 4:
                    break
                length, head = int.from_bytes(data[pos + 2 : pos + 4], "big"), 4
            elif length == 127:
                if end - pos < 10:
                    break
                length, head = int.from_bytes(data[pos + 2 : pos + 10], "big"), 10
                if length >> 63:
                    raise ProtocolError(PROTOCOL_ERROR, "a frame length must be below 2**63")
            if opcode >= 8:
                if opcode not in _CONTROL:
                    raise ProtocolError(PROTOCOL_ERROR, f"unknown opcode {opcode}")
                if length > 125 or not fin:
                    raise ProtocolError(PROTOCOL_ERROR, "a control frame is one frame of at most 125 bytes")
            elif opcode not in _DATA:
                raise ProtocolError(PROTOCOL_ERROR, f"unknown opcode {opcode}")
            elif self._size + length > self.max_size:  # refused before it is buffered
                raise ProtocolError(TOO_BIG, f"messages are at most {self.max_size} bytes")
            start = pos + head + (4 if self.masked else 0)
            stop = start + length
            if stop > end:
                break
            payload = data[start:stop]
            if self.masked:
                payload = mask_bytes(payload, data[start - 4 : start])
            pos = stop
            if opcode >= 8:
                out.append((opcode, payload))
            elif opcode == CONTINUATION:
                if self._opcode is None:
                    raise ProtocolError(PROTOCOL_ERROR, "a continuation frame without a message to continue")
                if len(self._parts) >= self.max_fragments:
                    raise ProtocolError(TOO_BIG, f"messages are at most {self.max_fragments} frames")
                self._parts.append(payload)
                self._size += length
                if fin:
                    whole = b"".join(self._parts)
                    kind, self._opcode, self._parts, self._size = self._opcode, None, [], 0
                    out.append((kind, _text(whole) if kind == TEXT else whole))
            elif self._opcode is not None:
                raise ProtocolError(PROTOCOL_ERROR, "a new message before the last one ended")
            elif fin:
                out.append((opcode, _text(payload) if opcode == TEXT else payload))
            else:
                self._opcode, self._parts, self._size = opcode, [payload], length
        self._buffer = data[pos:] if pos < end else b""
        return out


def _text(payload: bytes) -> str:
    try:
        return payload.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError(INVALID_DATA, "text messages must be UTF-8") from None


def parse_close(payload: bytes) -> tuple[int, str]:
    """The code and reason of a close frame's payload (NO_STATUS when it has none)."""
    if not payload:
        return NO_STATUS, ""
    if len(payload) == 1:
        raise ProtocolError(PROTOCOL_ERROR, "a close frame of one byte")
    code = int.from_bytes(payload[:2], "big")
    if code not in _SENDABLE and not 3000 <= code <= 4999:
        raise ProtocolError(PROTOCOL_ERROR, f"close code {code} is not allowed")
    try:
        reason = payload[2:].decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError(INVALID_DATA, "a close reason must be UTF-8") from None
    return code, reason
