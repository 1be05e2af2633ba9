"""pokerroom.websocket (RFC 6455): the framing on its own, then both ends on loopback
sockets, against the ``websockets`` library (an independent, strict peer) and against raw
sockets that write handshakes and frames by hand and read back exactly what was sent.

Frames are built and read here with the test's own ``raw_frame`` and ``unframe`` (not the
module's ``frame``), so a mistake shared by the encoder and the decoder cannot hide."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import socket
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection
from websockets.asyncio.server import serve as ws_serve
from websockets.exceptions import ConnectionClosed, InvalidStatus

from pokerroom import websocket as w
from tests.helpers import (
    KEY,
    MASK,
    SIZES,
    WAIT,
    Collector,
    Echo,
    client,
    close_code_of,
    echo_server,
    error_code,
    exchange,
    expected_accept,
    fake_server,
    handshake,
    opened_raw,
    raw,
    raw_frame,
    reader,
    switching,
    unframe,
    until,
    wait,
    websockets_client,
    xor,
)

# ============================================================================ framing


def test_accept_key_is_the_rfc_example() -> None:
    """RFC 6455 1.3: SHA-1 b37a4f2c c0624f16 90f64606 cf385945 b2bec4ea, in base64."""
    accept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
    assert base64.b64decode(accept).hex() == "b37a4f2cc0624f1690f64606cf385945b2bec4ea"
    assert w.accept_key(KEY) == accept
    assert w.accept_key(KEY.encode()) == accept
    assert w.accept_key(" " + KEY + " ") == accept  # header whitespace
    assert w.accept_key(base64.b64encode(bytes(16)).decode()) != accept


def test_valid_key() -> None:
    assert w.valid_key(KEY)
    assert w.valid_key(base64.b64encode(bytes(range(16))).decode())
    for bad in ("", "abc", base64.b64encode(bytes(15)).decode(), base64.b64encode(bytes(17)).decode(),
                KEY[:-2] + "!!", "dGhlIHNhbXBsZSBub25jZQ", KEY + "\u00e9", KEY + ", " + KEY):
        assert not w.valid_key(bad), bad


def test_frames_are_the_rfc_examples() -> None:
    """RFC 6455 5.7, byte for byte."""
    assert w.frame(w.TEXT, b"Hello") == bytes.fromhex("810548656c6c6f")
    assert w.frame(w.TEXT, b"Hello", MASK) == bytes.fromhex("818537fa213d7f9f4d5158")
    assert w.frame(w.PING, b"Hello") == bytes.fromhex("890548656c6c6f")
    assert w.frame(w.PONG, b"Hello", MASK) == bytes.fromhex("8a8537fa213d7f9f4d5158")
    assert w.frame(w.BINARY, bytes(256))[:4] == bytes.fromhex("827e0100")
    assert w.frame(w.BINARY, bytes(65536))[:10] == bytes.fromhex("827f0000000000010000")
    assert reader(masked=True).feed(bytes.fromhex("818537fa213d7f9f4d5158")) == [(w.TEXT, "Hello")]
    assert reader(masked=False).feed(bytes.fromhex("890548656c6c6f")) == [(w.PING, b"Hello")]


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 7, 8, 9, 1000, 65537])
def test_mask_bytes(n: int) -> None:
    data = bytes((i * 7 + 3) % 256 for i in range(n))
    masked = w.mask_bytes(data, MASK)
    assert masked == xor(data, MASK)
    assert w.mask_bytes(masked, MASK) == data


@pytest.mark.parametrize("masked", [True, False], ids=["masked", "unmasked"])
@pytest.mark.parametrize("size", SIZES)
def test_round_trip(size: int, masked: bool) -> None:
    mask = MASK if masked else None
    data = bytes(i % 251 for i in range(size))
    encoded = w.frame(w.BINARY, data, mask)
    assert encoded == raw_frame(w.BINARY, data, mask=mask)
    head = 2 if size < 126 else 4 if size < 65536 else 10
    assert len(encoded) == head + (4 if masked else 0) + size
    assert reader(masked).feed(encoded) == [(w.BINARY, data)]
    text = "".join(chr(97 + i % 26) for i in range(size))
    assert reader(masked).feed(w.frame(w.TEXT, text.encode(), mask)) == [(w.TEXT, text)]
    # the same frame in two pieces, cut inside the header and just before the end
    for cut in {1, head - 1, head, len(encoded) - 1}:
        if 0 < cut < len(encoded):
            r = reader(masked)
            assert r.feed(encoded[:cut]) == []
            assert r.feed(encoded[cut:]) == [(w.BINARY, data)]


def test_several_frames_in_one_feed() -> None:
    stream = (raw_frame(w.TEXT, b"one", mask=MASK) + raw_frame(w.BINARY, b"\x00\xff", mask=MASK)
              + raw_frame(w.PING, b"p", mask=MASK) + raw_frame(w.TEXT, "zwei \u00e9".encode(), mask=MASK)
              + raw_frame(w.PONG, b"", mask=MASK) + raw_frame(w.BINARY, bytes(300), mask=MASK)
              + raw_frame(w.CLOSE, b"\x03\xe8", mask=MASK))
    expected = [(w.TEXT, "one"), (w.BINARY, b"\x00\xff"), (w.PING, b"p"), (w.TEXT, "zwei \u00e9"),
                (w.PONG, b""), (w.BINARY, bytes(300)), (w.CLOSE, b"\x03\xe8")]
    assert reader().feed(stream) == expected
    # and with the start of the next frame at the end of a feed
    r = reader()
    assert r.feed(stream + raw_frame(w.TEXT, b"next", mask=MASK)[:3]) == expected
    assert r.feed(raw_frame(w.TEXT, b"next", mask=MASK)[3:]) == [(w.TEXT, "next")]


@pytest.mark.parametrize("masked", [True, False], ids=["masked", "unmasked"])
def test_one_byte_at_a_time(masked: bool) -> None:
    """Every byte boundary: each message comes out exactly when its last byte arrives."""
    mask = MASK if masked else None
    parts = [
        (raw_frame(w.TEXT, b"", mask=mask), (w.TEXT, "")),
        (raw_frame(w.TEXT, "h\u00e9llo \u20ac".encode(), mask=mask), (w.TEXT, "h\u00e9llo \u20ac")),
        (raw_frame(w.BINARY, bytes(range(125)), mask=mask), (w.BINARY, bytes(range(125)))),
        (raw_frame(w.BINARY, bytes(200), mask=mask), (w.BINARY, bytes(200))),
        (raw_frame(w.PING, b"abc", mask=mask), (w.PING, b"abc")),
        (raw_frame(w.TEXT, b"fr", fin=False, mask=mask) + raw_frame(w.PONG, b"x", mask=mask), (w.PONG, b"x")),
        (raw_frame(w.CONTINUATION, b"ag", mask=mask), (w.TEXT, "frag")),
        (raw_frame(w.CLOSE, b"\x03\xe8bye", mask=mask), (w.CLOSE, b"\x03\xe8bye")),
    ]
    stream = b"".join(data for data, _ in parts)
    ends = {}
    pos = 0
    for data, message in parts:
        pos += len(data)
        ends[pos - 1] = message
    r = reader(masked)
    got = []
    for i in range(len(stream)):
        out = r.feed(stream[i : i + 1])
        assert out == ([ends[i]] if i in ends else []), i
        got += out
    assert got == [m for _, m in parts]
    # every cut into two pieces gives the same messages
    for cut in range(len(stream) + 1):
        r = reader(masked)
        assert r.feed(stream[:cut]) + r.feed(stream[cut:]) == got, cut


@pytest.mark.parametrize("size", [126, 65535, 65536, 70000])
def test_long_frame_split_in_its_header(size: int) -> None:
    data = bytes(i % 256 for i in range(size))
    encoded = raw_frame(w.BINARY, data, mask=MASK)
    for cut in range(1, 15):
        r = reader()
        assert r.feed(encoded[:cut]) == []
        assert r.feed(encoded[cut:]) == [(w.BINARY, data)]
    r = reader()
    out = []
    for i in range(0, len(encoded), 4093):
        out += r.feed(encoded[i : i + 4093])
    assert out == [(w.BINARY, data)]


@pytest.mark.parametrize("kind", [w.TEXT, w.BINARY])
def test_fragmented_messages_with_control_frames_between(kind: int) -> None:
    pieces = ["Hel", "", "lo, w\u00f6", "rld"]
    stream = (raw_frame(kind, pieces[0].encode(), fin=False, mask=MASK)
              + raw_frame(w.PING, b"1", mask=MASK)
              + raw_frame(w.CONTINUATION, pieces[1].encode(), fin=False, mask=MASK)
              + raw_frame(w.PONG, b"2", mask=MASK)
              + raw_frame(w.CONTINUATION, pieces[2].encode(), fin=False, mask=MASK)
              + raw_frame(w.PING, b"", mask=MASK)
              + raw_frame(w.CONTINUATION, pieces[3].encode(), mask=MASK)
              + raw_frame(kind, b"after", mask=MASK))
    whole = "".join(pieces)
    payload: Any = whole if kind == w.TEXT else whole.encode()
    after: Any = "after" if kind == w.TEXT else b"after"
    expected = [(w.PING, b"1"), (w.PONG, b"2"), (w.PING, b""), (kind, payload), (kind, after)]
    assert reader().feed(stream) == expected
    r = reader()
    assert [m for i in range(len(stream)) for m in r.feed(stream[i : i + 1])] == expected


def test_a_close_frame_between_fragments() -> None:
    stream = raw_frame(w.TEXT, b"a", fin=False, mask=MASK) + raw_frame(w.CLOSE, b"\x03\xe8", mask=MASK)
    assert reader().feed(stream) == [(w.CLOSE, b"\x03\xe8")]


@pytest.mark.parametrize("text", ["\u20ac", "\U0001f0a1 ace", "\u00e9t\u00e9"])
def test_utf8_split_across_fragments(text: str) -> None:
    data = text.encode()
    for cut in range(1, len(data)):
        stream = (raw_frame(w.TEXT, data[:cut], fin=False, mask=MASK)
                  + raw_frame(w.CONTINUATION, data[cut:], mask=MASK))
        assert reader().feed(stream) == [(w.TEXT, text)], cut
    # one byte a fragment
    frames = [raw_frame(w.TEXT if i == 0 else w.CONTINUATION, data[i : i + 1], fin=i == len(data) - 1,
                        mask=MASK) for i in range(len(data))]
    assert reader().feed(b"".join(frames)) == [(w.TEXT, text)]


@pytest.mark.parametrize("rsv", [0x40, 0x20, 0x10, 0x70])
def test_reserved_bits(rsv: int) -> None:
    assert error_code(raw_frame(w.TEXT, b"x", rsv=rsv, mask=MASK)) == w.PROTOCOL_ERROR
    assert error_code(raw_frame(w.PING, b"", rsv=rsv, mask=MASK)) == w.PROTOCOL_ERROR
    assert error_code(raw_frame(w.BINARY, b"x", rsv=rsv), masked=False) == w.PROTOCOL_ERROR
    assert error_code(raw_frame(w.TEXT, b"x", rsv=rsv, mask=MASK)[:2]) == w.PROTOCOL_ERROR  # header alone


@pytest.mark.parametrize("opcode", [3, 4, 5, 6, 7, 11, 12, 13, 14, 15])
def test_unknown_opcodes(opcode: int) -> None:
    assert error_code(raw_frame(opcode, b"x", mask=MASK)) == w.PROTOCOL_ERROR
    assert error_code(raw_frame(opcode, b""), masked=False) == w.PROTOCOL_ERROR
    assert error_code(raw_frame(opcode, b"x", fin=False, mask=MASK)) == w.PROTOCOL_ERROR
    assert error_code(raw_frame(opcode, bytes(200), mask=MASK)[:4]) == w.PROTOCOL_ERROR  # header alone


@pytest.mark.parametrize("opcode", [w.TEXT, w.BINARY, w.PING, w.CLOSE])
def test_masking_the_wrong_way(opcode: int) -> None:
    payload = b"\x03\xe8" if opcode == w.CLOSE else b"hi"
    assert error_code(raw_frame(opcode, payload), masked=True) == w.PROTOCOL_ERROR  # client unmasked
    assert error_code(raw_frame(opcode, payload, mask=MASK), masked=False) == w.PROTOCOL_ERROR  # server
    assert error_code(raw_frame(opcode, payload)[:2], masked=True) == w.PROTOCOL_ERROR


@pytest.mark.parametrize("opcode", [w.PING, w.PONG, w.CLOSE])
def test_bad_control_frames(opcode: int) -> None:
    ok = b"\x03\xe8" + b"r" * 123 if opcode == w.CLOSE else bytes(125)
    assert reader().feed(raw_frame(opcode, ok, mask=MASK)) == [(opcode, ok)]
    assert error_code(raw_frame(opcode, ok + b"x", mask=MASK)) == w.PROTOCOL_ERROR  # 126 bytes
    assert error_code(raw_frame(opcode, bytes(70000), mask=MASK)) == w.PROTOCOL_ERROR
    assert error_code(raw_frame(opcode, bytes(1000), mask=MASK)[:8]) == w.PROTOCOL_ERROR  # header alone
    assert error_code(raw_frame(opcode, b"\x03\xe8", fin=False, mask=MASK)) == w.PROTOCOL_ERROR


def test_continuation_without_a_start() -> None:
    assert error_code(raw_frame(w.CONTINUATION, b"x", mask=MASK)) == w.PROTOCOL_ERROR
    assert error_code(raw_frame(w.CONTINUATION, b"x", fin=False, mask=MASK)) == w.PROTOCOL_ERROR
    # after a finished fragmented message, too
    done = raw_frame(w.TEXT, b"a", fin=False, mask=MASK) + raw_frame(w.CONTINUATION, b"b", mask=MASK)
    assert error_code(done + raw_frame(w.CONTINUATION, b"c", mask=MASK)) == w.PROTOCOL_ERROR
    assert error_code(raw_frame(w.CONTINUATION, b""), masked=False) == w.PROTOCOL_ERROR


@pytest.mark.parametrize("second", [w.TEXT, w.BINARY])
@pytest.mark.parametrize("fin", [True, False])
def test_a_new_message_inside_a_fragmented_one(second: int, fin: bool) -> None:
    start = raw_frame(w.TEXT, b"a", fin=False, mask=MASK)
    assert error_code(start + raw_frame(second, b"b", fin=fin, mask=MASK)) == w.PROTOCOL_ERROR
    assert error_code([start, raw_frame(second, b"b", fin=fin, mask=MASK)]) == w.PROTOCOL_ERROR
    start = raw_frame(w.BINARY, b"a", fin=False)
    assert error_code(start + raw_frame(second, b"", fin=fin), masked=False) == w.PROTOCOL_ERROR


@pytest.mark.parametrize("bad", [b"\xff", b"abc\xc3", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
                                 b"\xe2\x82", b"ok\x80"])
def test_invalid_utf8_text(bad: bytes) -> None:
    assert error_code(raw_frame(w.TEXT, bad, mask=MASK)) == w.INVALID_DATA
    fragmented = (raw_frame(w.TEXT, b"fine ", fin=False, mask=MASK)
                  + raw_frame(w.CONTINUATION, bad, mask=MASK))
    assert error_code(fragmented) == w.INVALID_DATA
    assert error_code(raw_frame(w.TEXT, bad), masked=False) == w.INVALID_DATA
    # binary is not text
    assert reader().feed(raw_frame(w.BINARY, bad, mask=MASK)) == [(w.BINARY, bad)]


def test_max_size() -> None:
    assert reader(max_size=100).feed(raw_frame(w.TEXT, b"x" * 100, mask=MASK)) == [(w.TEXT, "x" * 100)]
    assert error_code(raw_frame(w.TEXT, b"x" * 101, mask=MASK), max_size=100) == w.TOO_BIG
    assert error_code(raw_frame(w.BINARY, bytes(101)), masked=False, max_size=100) == w.TOO_BIG
    # from fragments: 60 + 40 fits, 60 + 41 does not, nor 40 + 40 + 21
    start = raw_frame(w.BINARY, bytes(60), fin=False, mask=MASK)
    ok = start + raw_frame(w.CONTINUATION, bytes(40), mask=MASK)
    assert reader(max_size=100).feed(ok) == [(w.BINARY, bytes(100))]
    over = start + raw_frame(w.CONTINUATION, bytes(41), mask=MASK)
    assert error_code(over, max_size=100) == w.TOO_BIG
    three = (raw_frame(w.TEXT, b"a" * 40, fin=False, mask=MASK)
             + raw_frame(w.CONTINUATION, b"b" * 40, fin=False, mask=MASK)
             + raw_frame(w.CONTINUATION, b"c" * 21, mask=MASK))
    assert error_code(three, max_size=100) == w.TOO_BIG
    # a fragmented message under way does not count against the next one
    r = reader(max_size=100)
    assert r.feed(ok + ok) == [(w.BINARY, bytes(100)), (w.BINARY, bytes(100))]
    # control frames between fragments do not count
    r = reader(max_size=100)
    mixed = (raw_frame(w.BINARY, bytes(60), fin=False, mask=MASK) + raw_frame(w.PING, bytes(100), mask=MASK)
             + raw_frame(w.CONTINUATION, bytes(40), mask=MASK))
    assert r.feed(mixed) == [(w.PING, bytes(100)), (w.BINARY, bytes(100))]


@pytest.mark.parametrize("masked", [True, False], ids=["masked", "unmasked"])
@pytest.mark.parametrize("length", [65537, 1 << 20, 1 << 40, (1 << 63) - 1])
def test_too_big_refused_from_its_header(masked: bool, length: int) -> None:
    """A frame over max_size is refused as soon as its length is read, before any of its
    payload has arrived (and before the mask key, for a client frame)."""
    head = raw_frame(w.BINARY, b"", length=length, mask=MASK if masked else None)[:10]
    assert error_code(head, masked=masked, max_size=65536) == w.TOO_BIG
    # a continuation frame that would take the message over
    start = raw_frame(w.BINARY, bytes(10), fin=False, mask=MASK if masked else None)
    cont = raw_frame(w.CONTINUATION, b"", length=65527, mask=MASK if masked else None)[:4]
    assert error_code(start + cont, masked=masked, max_size=65536) == w.TOO_BIG


def fragments(count: int, payload: bytes = b"", opcode: int = w.TEXT) -> bytes:
    """One message in ``count`` frames, each carrying ``payload``."""
    frames = [raw_frame(opcode if i == 0 else w.CONTINUATION, payload, fin=i == count - 1, mask=MASK)
              for i in range(count)]
    return b"".join(frames)


@pytest.mark.parametrize("payload", [b"", b"ab"], ids=["empty", "two-bytes"])
def test_fragments_per_message_are_capped(payload: bytes) -> None:
    """A message is at most ``max_fragments`` frames, empty ones counted: 4 million empty
    continuation frames weighed 0 bytes against max_size and were all kept."""
    r = w.FrameReader(masked=True, max_size=1 << 20, max_fragments=8)
    assert r.feed(fragments(8, payload)) == [(w.TEXT, (payload * 8).decode())]
    assert r.feed(fragments(8, payload, w.BINARY)) == [(w.BINARY, payload * 8)]  # each message anew
    with pytest.raises(w.ProtocolError) as e:
        r.feed(fragments(9, payload))
    assert e.value.code == w.TOO_BIG and "8 frames" in e.value.reason
    # refused at the frame over the cap, before the message's end comes
    endless = raw_frame(w.TEXT, payload, fin=False, mask=MASK)
    endless += raw_frame(w.CONTINUATION, payload, fin=False, mask=MASK) * 8
    with pytest.raises(w.ProtocolError) as e:
        w.FrameReader(masked=True, max_size=1 << 20, max_fragments=8).feed(endless)
    assert e.value.code == w.TOO_BIG
    # control frames between the fragments are not fragments
    pings = raw_frame(w.PING, b"p", mask=MASK) * 20
    mixed = fragments(8, payload)
    first_end = len(raw_frame(w.TEXT, payload, fin=False, mask=MASK))
    r = w.FrameReader(masked=True, max_size=1 << 20, max_fragments=8)
    out = r.feed(mixed[:first_end] + pings + mixed[first_end:])
    assert out[-1] == (w.TEXT, (payload * 8).decode()) and len(out) == 21
    assert w.FrameReader(masked=True, max_size=100).max_fragments == 256  # the default


@pytest.mark.parametrize("max_size", [65536, 1 << 64])
def test_a_64_bit_length_with_the_top_bit_set(max_size: int) -> None:
    for length in (1 << 63, (1 << 64) - 1):
        head = bytes((0x82, 0x80 | 127)) + length.to_bytes(8, "big") + MASK
        assert error_code(head, max_size=max_size) == w.PROTOCOL_ERROR
        assert error_code(head[:10], max_size=max_size) == w.PROTOCOL_ERROR


def test_parse_close() -> None:
    assert w.parse_close(b"") == (w.NO_STATUS, "")
    with pytest.raises(w.ProtocolError) as e:
        w.parse_close(b"\x03")
    assert e.value.code == w.PROTOCOL_ERROR
    for code in (0, 1, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535):
        with pytest.raises(w.ProtocolError) as e:
            w.parse_close(code.to_bytes(2, "big") + b"why")
        assert e.value.code == w.PROTOCOL_ERROR, code
    for code in (1000, 1001, 1002, 1003, *range(1007, 1015), 3000, 3999, 4000, 4999):
        assert w.parse_close(code.to_bytes(2, "big")) == (code, ""), code
        assert w.parse_close(code.to_bytes(2, "big") + "bye \u00e9".encode()) == (code, "bye \u00e9")
    for bad in (b"\xff", b"ab\xc3", b"\xed\xa0\x80"):
        with pytest.raises(w.ProtocolError) as e:
            w.parse_close(b"\x03\xe8" + bad)
        assert e.value.code == w.INVALID_DATA


@pytest.mark.parametrize("reason", ["", "bye", "x" * 200, "\u00e9" * 100, "\u20ac" * 60,
                                    "a" + "\U0001f0a1" * 40],
                         ids=["empty", "short", "ascii-200", "e-acute-100", "euro-60", "cards-40"])
def test_close_payload_fits_a_control_frame_and_stays_utf8(reason: str) -> None:
    payload = w.close_payload(w.POLICY, reason)
    assert len(payload) <= 125
    code, got = w.parse_close(payload)  # a reason cut inside a character would be a 1007
    assert code == w.POLICY and reason.startswith(got)
    if len(reason.encode()) <= 123:
        assert got == reason
    assert w.close_payload(w.NO_STATUS) == b""
    assert w.close_payload(w.NORMAL) == b"\x03\xe8"


# ============================================================================ our server, websockets client


@pytest.mark.parametrize("sizes", [(0, 1, 125, 126), (65535, 65536, 70000, 300_000)])
def test_echo_to_the_websockets_client(sizes: tuple[int, ...]) -> None:
    async def main() -> None:
        async with echo_server(max_size=1 << 20) as hub, websockets_client(hub.url, max_size=1 << 20) as ws:
            for n in sizes:
                text = "".join(chr(0x61 + i % 26) if i % 7 else "\u00e9" for i in range(n))
                await ws.send(text)
                assert await asyncio.wait_for(ws.recv(), WAIT) == text
                data = bytes(i % 256 for i in range(n))
                await ws.send(data)
                assert await asyncio.wait_for(ws.recv(), WAIT) == data
            proto = hub.servers[0]
            assert proto.opens == 1 and len(proto.texts) == len(sizes) and len(proto.binaries) == len(sizes)
            assert proto.request is not None and proto.request.path == "/"
            # no extension was agreed, though the client offered permessage-deflate
            assert ws.response.headers.get("Sec-WebSocket-Extensions") is None
            assert ws.request.headers.get("Sec-WebSocket-Extensions")

    asyncio.run(main())


def test_fragmented_messages_from_the_websockets_client() -> None:
    async def main() -> None:
        async with echo_server() as hub, websockets_client(hub.url) as ws:
            await ws.send(["fr", "ag", "m\u00e9nt", "", "ed"])
            assert await asyncio.wait_for(ws.recv(), WAIT) == "fragm\u00e9nted"
            await ws.send([b"\x00", b"\x01\x02", b"\xff" * 1000])
            assert await asyncio.wait_for(ws.recv(), WAIT) == b"\x00\x01\x02" + b"\xff" * 1000

    asyncio.run(main())


def test_a_message_over_max_size_closes_with_1009() -> None:
    async def main() -> None:
        async with echo_server() as hub, websockets_client(hub.url, max_size=1 << 20) as ws:
            await ws.send("x" * 65536)  # the default max_size: just fits
            assert await asyncio.wait_for(ws.recv(), WAIT) == "x" * 65536
            await ws.send("y" * 65537)
            with pytest.raises(ConnectionClosed) as e:
                await asyncio.wait_for(ws.recv(), WAIT)
            assert e.value.rcvd is not None and e.value.rcvd.code == 1009
            proto = hub.servers[0]
            await wait(proto.ended, "the server's end")
            assert proto.closes == 1 and proto.texts == ["x" * 65536]

    asyncio.run(main())


def test_server_close_code_reaches_the_websockets_client() -> None:
    async def main() -> None:
        for code, reason in ((1008, "x"), (1000, ""), (4000, "custom"), (1011, "\u00e9" * 100)):
            async with echo_server() as hub, websockets_client(hub.url) as ws:
                proto = await hub.next()
                await wait(proto.is_open, "the server to open")
                start = time.monotonic()
                proto.close(code, reason)
                assert proto.state == w.CLOSING
                with pytest.raises(ConnectionClosed) as e:
                    await asyncio.wait_for(ws.recv(), WAIT)
                assert e.value.rcvd is not None
                assert e.value.rcvd.code == code
                assert reason.startswith(e.value.rcvd.reason)
                assert e.value.sent is not None and e.value.sent.code == code  # the client's echo
                await wait(proto.ended, "the server's end")
                await ws.wait_closed()
                assert time.monotonic() - start < 1.0  # the handshake, not a timeout
                assert proto.closes == 1 and proto.state == w.CLOSED
                assert proto.close_code == code
                proto.close(1000)  # closing again does nothing
                proto.send_text("late")
                assert proto.closes == 1

    asyncio.run(main())


def test_client_initiated_close_completes_both_ways() -> None:
    async def main() -> None:
        async with echo_server() as hub:
            async with websockets_client(hub.url) as ws:
                proto = await hub.next()
                await ws.send("hi")
                assert await asyncio.wait_for(ws.recv(), WAIT) == "hi"
                start = time.monotonic()
                await ws.close(1001, "going")
                assert time.monotonic() - start < 1.0  # the server answered and dropped TCP
                assert ws.close_code == 1001  # the server echoed the code
                assert ws.protocol.close_rcvd is not None and ws.protocol.close_rcvd.code == 1001
            await wait(proto.ended, "the server's end")
            await asyncio.sleep(0.05)  # nothing more may happen to it
            assert proto.closes == 1
            assert (proto.close_code, proto.close_reason) == (1001, "going")
            assert proto.state == w.CLOSED
            assert proto.transport is not None and proto.transport.is_closing()

    asyncio.run(main())


def test_websockets_client_ping_gets_a_pong() -> None:
    async def main() -> None:
        async with echo_server() as hub, websockets_client(hub.url) as ws:
            for payload in (b"", b"abc", bytes(125)):
                pong = await ws.ping(payload)
                latency = await asyncio.wait_for(pong, WAIT)
                assert latency >= 0
            await ws.send("still here")
            assert await asyncio.wait_for(ws.recv(), WAIT) == "still here"

    asyncio.run(main())


def test_server_keepalive_pings_are_answered_and_the_connection_stays() -> None:
    async def main() -> None:
        async with echo_server(ping_interval=0.05, ping_timeout=2.0) as hub, websockets_client(hub.url) as ws:
            proto = await hub.next()
            # the next ping is only sent once the last one's pong is in: six pings, five pongs
            await until(lambda: proto.pings_sent >= 6, "six keepalive pings")  # ~0.3 s
            assert proto.state == w.OPEN and proto.closes == 0
            await ws.send("alive")
            assert await asyncio.wait_for(ws.recv(), WAIT) == "alive"

    asyncio.run(main())


def test_a_peer_that_speaks_is_not_pinged_and_pings_resume_when_it_stops() -> None:
    """A message from the peer within the interval shows it alive: no ping then (a room's
    players send commands; thousands of needless pings cost writes). Silent again, it is
    pinged again."""

    async def main() -> None:
        async with echo_server(ping_interval=0.05, ping_timeout=2.0) as hub, websockets_client(hub.url) as ws:
            proto = await hub.next()
            for _ in range(30):  # 0.3 s of messages, one every 10 ms: six intervals
                await ws.send("here")
                assert await asyncio.wait_for(ws.recv(), WAIT) == "here"
                await asyncio.sleep(0.01)
            assert proto.pings_sent == 0
            await until(lambda: proto.pings_sent >= 3, "pings once it is silent")
            assert proto.state == w.OPEN

    asyncio.run(main())


def test_a_peer_that_never_answers_pings_is_dropped() -> None:
    async def main() -> None:
        async with echo_server(ping_interval=0.05, ping_timeout=0.1) as hub, \
                contextlib.AsyncExitStack() as stack:
            peer, proto = await opened_raw(stack, hub)
            start = time.monotonic()
            await wait(proto.ended, "the server to drop a silent peer")
            assert time.monotonic() - start < 1.0
            assert proto.pings_sent == 1 and proto.close_code == w.ABNORMAL and proto.closes == 1
            frames = unframe(await peer.read_to_end())
            assert [(fin, op, masked) for fin, op, _, masked in frames] == [(True, w.PING, False)]

    asyncio.run(main())


def test_keepalive_pings_go_on_without_a_ping_timeout() -> None:
    """ping_timeout None: pings every interval, and no pong is waited for."""

    async def main() -> None:
        async with echo_server(ping_interval=0.02, ping_timeout=None) as hub, \
                contextlib.AsyncExitStack() as stack:
            peer, proto = await opened_raw(stack, hub)
            await until(lambda: proto.pings_sent >= 4, "four pings")
            frames = await peer.frames(4)
            assert [op for _, op, _, _ in frames] == [w.PING] * 4
            assert proto.state == w.OPEN

    asyncio.run(main())


def test_pongs_are_sent_for_pings_from_a_raw_peer() -> None:
    """Each ping read on its own gets its pong; of pings read together, only the last
    (RFC 6455 5.5.3), before what came after them."""

    async def main() -> None:
        async with echo_server() as hub, contextlib.AsyncExitStack() as stack:
            peer, _ = await opened_raw(stack, hub)
            peer.write(raw_frame(w.PING, b"alone", mask=MASK))
            assert await peer.frames(1) == [(True, w.PONG, b"alone", False)]
            peer.write(raw_frame(w.PING, b"one", mask=MASK) + raw_frame(w.PING, b"", mask=MASK)
                       + raw_frame(w.PONG, b"unasked", mask=MASK) + raw_frame(w.TEXT, b"t", mask=MASK)
                       + raw_frame(w.PING, b"two", mask=MASK))
            frames = await peer.frames(3)
            assert frames == [(True, w.PONG, b"", False), (True, w.TEXT, b"t", False),
                              (True, w.PONG, b"two", False)]

    asyncio.run(main())


# ---------------------------------------------------------------------------- the opening handshake


def test_the_handshake_answer() -> None:
    key = base64.b64encode(bytes(range(16))).decode()
    status, headers, _, proto = exchange(handshake("/room?x=1&y=2", key=key, extra={"X-Thing": "a"}))
    assert status == 101
    assert headers["upgrade"].lower() == "websocket"
    assert "upgrade" in headers["connection"].lower()
    assert headers["sec-websocket-accept"] == expected_accept(key)
    assert "sec-websocket-extensions" not in headers and "sec-websocket-protocol" not in headers
    assert proto.request is not None
    assert (proto.request.method, proto.request.path, proto.request.query) == ("GET", "/room", "x=1&y=2")
    assert proto.request.headers["x-thing"] == "a"
    assert proto.opens == 1


def test_a_handshake_in_pieces() -> None:
    request = handshake(extra={"Origin": "http://example.com"})
    status, headers, _, proto = exchange([request[i : i + 1] for i in range(len(request))])
    assert status == 101 and headers["sec-websocket-accept"] == expected_accept(KEY)
    assert proto.opens == 1


def test_headers_are_case_insensitive_and_repeats_are_joined() -> None:
    request = (b"GET / HTTP/1.1\r\nhost: x\r\nUPGRADE: WebSocket\r\nconnection: keep-alive, Upgrade\r\n"
               b"sec-websocket-key: " + KEY.encode() + b"\r\nSec-Websocket-Version: 13\r\n"
               b"X-A: 1\r\nx-a: 2\r\n\r\n")
    status, _, _, proto = exchange(request)
    assert status == 101
    assert proto.request is not None and proto.request.headers["x-a"] == "1, 2"
    # two keys are not one key
    status, _, _, _ = exchange(handshake(extra={"Sec-WebSocket-Key": KEY}))
    assert status == 400


def test_the_check_hook_refuses_with_a_body() -> None:
    status, headers, body, proto = exchange(handshake("/refused?q=1"))
    assert status == 404
    assert body == b"nothing at /refused"
    assert headers["content-length"] == str(len(body)) and headers["connection"] == "close"
    assert proto.opens == 0 and proto.closes == 1


def test_the_websockets_client_sees_the_refusal() -> None:
    async def main() -> None:
        async with echo_server() as hub:
            with pytest.raises(InvalidStatus) as e:
                async with websockets_client(hub.url + "refused"):
                    pass
            assert e.value.response.status_code == 404
            assert e.value.response.body == b"nothing at /refused"

    asyncio.run(main())


@pytest.mark.parametrize(("request_bytes", "status"), [
    (handshake(upgrade=None), 400),
    (handshake(upgrade="h2c"), 400),
    (handshake(connection=None), 400),
    (handshake(connection="keep-alive"), 400),
    (handshake(key=None), 400),
    (handshake(key="not a key"), 400),
    (handshake(key="abc"), 400),
    (handshake(key=base64.b64encode(bytes(15)).decode()), 400),
    (handshake(key=base64.b64encode(bytes(20)).decode()), 400),
    (handshake(method="POST"), 400),
    (handshake(method="HEAD"), 400),
    (handshake(http="HTTP/1.0"), 400),
    (b"GET /\r\n\r\n", 400),
    (b"GARBAGE\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\nNo colon here\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\nUpgrade : websocket\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\n: empty name\r\n\r\n", 400),
], ids=["no-upgrade", "upgrade-h2c", "no-connection", "connection-keep-alive", "no-key", "key-not-base64",
        "key-short", "key-15-bytes", "key-20-bytes", "post", "head", "http-1.0", "no-version", "garbage",
        "header-no-colon", "header-space-before-colon", "header-empty-name"])
def test_bad_handshakes_are_refused(request_bytes: bytes, status: int) -> None:
    got, headers, body, proto = exchange(request_bytes)
    assert got == status, body
    assert body and headers["content-type"].startswith("text/plain")
    assert proto.opens == 0


@pytest.mark.parametrize("version", ["8", "7", "14", "", None])
def test_another_websocket_version_gets_426(version: str | None) -> None:
    status, headers, body, proto = exchange(handshake(version=version))
    assert status == 426, body
    assert headers["sec-websocket-version"] == "13"
    assert proto.opens == 0


def test_an_over_long_handshake_gets_431() -> None:
    # headers that never end, sent in pieces
    pieces = [b"GET / HTTP/1.1\r\nHost: x\r\n"] + [b"X-Pad: " + b"p" * 1000 + b"\r\n"] * 20
    status, _, body, proto = exchange(pieces)
    assert status == 431 and body
    assert proto.opens == 0


def test_an_over_long_handshake_in_one_packet_gets_431() -> None:
    """The limit holds however the bytes arrive: a complete 20 KB handshake in one write."""
    status, _, _, proto = exchange(handshake(extra={"X-Pad": "p" * 20000}))
    assert status == 431
    assert proto.opens == 0


def test_frames_in_the_same_packet_as_the_handshake() -> None:
    async def main() -> None:
        async with echo_server() as hub, raw(hub.port) as peer:
            early = (raw_frame(w.TEXT, b"first", mask=MASK) + raw_frame(w.BINARY, b"\x01\x02", mask=MASK)
                     + raw_frame(w.PING, b"p", mask=MASK) + raw_frame(w.TEXT, "\u00e9".encode(), mask=MASK))
            peer.write(handshake() + early)
            status, headers, _ = await peer.response()
            assert status == 101 and headers["sec-websocket-accept"] == expected_accept(KEY)
            frames = await peer.frames(4)
            assert frames == [(True, w.TEXT, b"first", False), (True, w.BINARY, b"\x01\x02", False),
                              (True, w.PONG, b"p", False), (True, w.TEXT, "\u00e9".encode(), False)]
            assert hub.servers[0].texts == ["first", "\u00e9"]

    asyncio.run(main())


# ---------------------------------------------------------------------------- a peer that misbehaves


@pytest.mark.parametrize(("bad", "code"), [
    (raw_frame(w.TEXT, b"unmasked"), 1002),
    (raw_frame(w.TEXT, b"x", rsv=0x40, mask=MASK), 1002),
    (raw_frame(5, b"x", mask=MASK), 1002),
    (raw_frame(w.PING, bytes(126), mask=MASK), 1002),
    (raw_frame(w.CONTINUATION, b"x", mask=MASK), 1002),
    (raw_frame(w.TEXT, b"\xff\xfe", mask=MASK), 1007),
    (raw_frame(w.BINARY, bytes(65537), mask=MASK), 1009),
    (raw_frame(w.CLOSE, b"\x03", mask=MASK), 1002),
    (raw_frame(w.CLOSE, (1005).to_bytes(2, "big"), mask=MASK), 1002),
    (raw_frame(w.CLOSE, b"\x03\xe8\xff", mask=MASK), 1007),
], ids=["unmasked", "rsv", "opcode-5", "big-ping", "continuation", "bad-utf8", "too-big", "close-one-byte",
        "close-1005", "close-bad-reason"])
def test_bad_frames_close_with_the_right_code(bad: bytes, code: int) -> None:
    async def main() -> None:
        async with echo_server() as hub, contextlib.AsyncExitStack() as stack:
            peer, proto = await opened_raw(stack, hub)
            peer.write(raw_frame(w.TEXT, b"good", mask=MASK))
            assert await peer.frames(1) == [(True, w.TEXT, b"good", False)]
            peer.write(bad + raw_frame(w.TEXT, b"ignored", mask=MASK))
            frames = unframe(await peer.read_to_end())
            assert len(frames) == 1 and frames[0][1] == w.CLOSE and not frames[0][3], frames
            assert close_code_of(frames[0][2]) == code
            w.parse_close(frames[0][2])  # a well-formed close frame
            await wait(proto.ended, "the server's end")
            assert proto.closes == 1 and proto.texts == ["good"]

    asyncio.run(main())


@pytest.mark.parametrize(("payload", "echo"), [(b"", 1000), (b"\x03\xe8", 1000), (b"\x03\xe9bye", 1001),
                                                (b"\x0f\xa0", 4000)])
def test_a_close_from_a_raw_peer_is_echoed(payload: bytes, echo: int) -> None:
    async def main() -> None:
        async with echo_server() as hub, contextlib.AsyncExitStack() as stack:
            peer, proto = await opened_raw(stack, hub)
            peer.write(raw_frame(w.CLOSE, payload, mask=MASK) + raw_frame(w.TEXT, b"after", mask=MASK))
            frames = unframe(await peer.read_to_end())
            assert [(op, close_code_of(p)) for _, op, p, _ in frames] == [(w.CLOSE, echo)]
            await wait(proto.ended, "the server's end")
            assert proto.closes == 1 and proto.texts == []
            assert proto.close_code == (1005 if not payload else echo)

    asyncio.run(main())


@pytest.mark.parametrize("how", ["text", "binary"])
def test_a_peer_that_stops_reading_is_closed_on_overflow(how: str) -> None:
    async def main() -> None:
        options = {"max_buffer": 65536, "ping_interval": None, "close_timeout": 0.2}
        async with echo_server(**options) as hub, contextlib.AsyncExitStack() as stack:
            peer, proto = await opened_raw(stack, hub, rcvbuf=4096)
            peer_transport = peer.writer.transport
            assert isinstance(peer_transport, asyncio.ReadTransport)
            peer_transport.pause_reading()  # and never reads again
            assert proto.transport is not None
            message = "x" * 16384
            sent = 0
            for _ in range(2000):  # at most 32 MB
                if proto.state != w.OPEN:
                    break
                if how == "text":
                    proto.send_text(message)
                else:
                    proto.send_binary(message.encode())
                sent += 1
                await asyncio.sleep(0.001)  # time for the kernel to take what it can
            assert proto.overflows == 1, (sent, proto.transport.get_write_buffer_size())
            assert proto.state == w.CLOSING
            size = proto.transport.get_write_buffer_size()
            proto.send_text(message)  # nothing more is buffered once closing
            proto.send_binary(b"x" * 16384)
            assert proto.transport.get_write_buffer_size() == size
            await wait(proto.ended, "the close timeout")
            assert proto.closes == 1 and proto.close_code == w.ABNORMAL and proto.overflows == 1

    asyncio.run(main())


def test_a_reading_peer_does_not_overflow() -> None:
    async def main() -> None:
        options = {"max_buffer": 65536, "ping_interval": None}
        async with echo_server(**options) as hub, \
                websockets_client(hub.url, max_size=None, max_queue=None) as ws:
            proto = await hub.next()
            await wait(proto.is_open, "the server to open")
            got = 0

            async def read() -> None:
                nonlocal got
                while got < 100:
                    await ws.recv()
                    got += 1

            task = asyncio.create_task(read())
            transport = proto.transport
            assert transport is not None
            for _ in range(100):
                proto.send_text("x" * 16384)
                await until(lambda: transport.get_write_buffer_size() < 32768, "the buffer to drain")
            await asyncio.wait_for(task, WAIT)
            assert proto.overflows == 0 and proto.state == w.OPEN and got == 100

    asyncio.run(main())


def test_a_peer_that_vanishes_during_the_handshake() -> None:
    async def main() -> None:
        async with echo_server() as hub:
            async with raw(hub.port) as peer:
                peer.write(handshake()[:20])
                await peer.writer.drain()
                proto = await hub.next()
            await wait(proto.ended, "the server to see the peer go")
            assert proto.opens == 0 and proto.closes == 1 and proto.state == w.CLOSED

    asyncio.run(main())


def test_close_during_the_handshake_drops_the_connection() -> None:
    async def main() -> None:
        async with echo_server() as hub, raw(hub.port) as peer:
            peer.write(b"GET / HTTP/1.1\r\n")
            proto = await hub.next()
            await until(lambda: proto.transport is not None, "the connection")
            proto.close()
            assert await peer.read_to_end() == b""
            assert proto.state == w.CLOSED and proto.closes == 1 and proto.opens == 0

    asyncio.run(main())


def test_wait_closed() -> None:
    async def main() -> None:
        async with echo_server() as hub, websockets_client(hub.url) as ws:
            proto = await hub.next()
            await wait(proto.is_open, "the server to open")
            waiter = asyncio.create_task(proto.wait_closed())
            await asyncio.sleep(0)
            assert not waiter.done()
            await ws.close()
            await asyncio.wait_for(waiter, WAIT)
            await asyncio.wait_for(proto.wait_closed(), WAIT)  # at once, once closed
            assert proto.closes == 1

    asyncio.run(main())


# ============================================================================ our client


@pytest.mark.parametrize("sizes", [(0, 1, 125, 126), (65535, 65536, 70000, 300_000)])
def test_our_client_against_our_server(sizes: tuple[int, ...]) -> None:
    async def main() -> None:
        async with echo_server(max_size=1 << 20) as hub, client(hub.url, max_size=1 << 20) as c:
            assert c.state == w.OPEN
            for n in sizes:
                text = "".join("\u20ac" if i % 5 == 0 else "z" for i in range(n))
                c.send_text(text)
                assert await c.next() == text
                data = bytes((i * 13) % 256 for i in range(n))
                c.send_binary(data)
                assert await c.next() == data

    asyncio.run(main())


def test_our_client_masks_every_frame_with_a_fresh_key() -> None:
    async def main() -> None:
        async with fake_server(switching) as fake, client(f"ws://127.0.0.1:{fake.port}/") as c:
            c.send_text("a" * 10)
            c.send_text("a" * 10)
            c.send_binary(b"b" * 300)
            c.ping(b"p")
            await until(lambda: len(fake.received) >= 2 * 16 + 308 + 7, "the frames")
            frames = unframe(fake.received)
            assert [(fin, op, p, m) for fin, op, p, m in frames] == [
                (True, w.TEXT, b"a" * 10, True), (True, w.TEXT, b"a" * 10, True),
                (True, w.BINARY, b"b" * 300, True), (True, w.PING, b"p", True)]
            first, second = fake.received[2:6], fake.received[18:22]
            assert first != second  # not the same mask twice (a 2**-32 chance of a false failure)

    asyncio.run(main())


def test_our_client_sends_the_request_it_is_given() -> None:
    async def main() -> None:
        async with echo_server() as hub, client(f"ws://127.0.0.1:{hub.port}/table/7?seat=2",
                                               headers={"Authorization": "Bearer t0k", "Origin": "http://o"}):
            proto = await hub.next()
            await wait(proto.is_open, "the server to open")
            request = proto.request
            assert request is not None
            assert (request.method, request.path, request.query) == ("GET", "/table/7", "seat=2")
            assert request.headers["authorization"] == "Bearer t0k"
            assert request.headers["origin"] == "http://o"
            assert request.headers["host"] == f"127.0.0.1:{hub.port}"
            assert w.valid_key(request.headers["sec-websocket-key"])
        # no path at all is "/"
        async with echo_server() as hub, client(f"ws://127.0.0.1:{hub.port}"):
            proto = await hub.next()
            await wait(proto.is_open, "the server to open")
            assert proto.request is not None and proto.request.target == "/"

    asyncio.run(main())


def test_server_close_reaches_our_client() -> None:
    async def main() -> None:
        async with echo_server() as hub, client(hub.url) as c:
            proto = await hub.next()
            await wait(proto.is_open, "the server to open")
            start = time.monotonic()
            proto.close(1008, "x")
            await asyncio.wait_for(c.wait_closed(), WAIT)
            assert time.monotonic() - start < 1.0  # the server dropped TCP: no client timeout
            assert (c.close_code, c.close_reason) == (1008, "x")
            assert c.closes == 1 and c.state == w.CLOSED
            await wait(proto.ended, "the server's end")
            assert proto.closes == 1 and proto.close_code == 1008

    asyncio.run(main())


def test_our_client_closes() -> None:
    async def main() -> None:
        async with echo_server() as hub, client(hub.url) as c:
            proto = await hub.next()
            c.send_text("before")
            assert await c.next() == "before"
            start = time.monotonic()
            c.close(4001, "done here")
            assert c.state == w.CLOSING
            c.send_text("after")  # not sent: the client is closing
            await asyncio.wait_for(c.wait_closed(), WAIT)
            assert time.monotonic() - start < 1.0
            assert c.close_code == 4001 and c.closes == 1
            await wait(proto.ended, "the server's end")
            assert (proto.close_code, proto.close_reason) == (4001, "done here")
            assert proto.texts == ["before"] and proto.closes == 1

    asyncio.run(main())


def test_our_client_refused() -> None:
    async def main() -> None:
        async with echo_server() as hub:
            c = Collector()
            with pytest.raises(w.HandshakeError, match="404"):
                await w.connect(hub.url + "refused", c, timeout=WAIT)
            assert c.state == w.CLOSED
            assert c.transport is not None and c.transport.is_closing()
        with pytest.raises(ValueError):
            await w.connect("http://127.0.0.1:1/", Collector())
        with pytest.raises(OSError):
            await w.connect(f"ws://127.0.0.1:{free_port()}/", Collector(), timeout=WAIT)

    asyncio.run(main())


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.parametrize("answer", [
    lambda key: b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n",
    lambda key: b"HTTP/1.1 403 Forbidden\r\n\r\n",
    lambda key: switching(key).replace(b"Sec-WebSocket-Accept: ", b"Sec-WebSocket-Accept: x"),
    lambda key: switching(key).replace(b"Upgrade: websocket\r\n", b""),
    lambda key: switching(key).replace(b"Upgrade: websocket", b"Upgrade: h2c"),
    lambda key: switching(key, "Sec-WebSocket-Extensions: permessage-deflate\r\n"),
    lambda key: b"HTTP/1.1 101 Switching Protocols\r\n" + b"X-Pad: " + b"p" * 20000,
    lambda key: b"HTTP/1.1 101 Swit",  # then the server closes
    lambda key: b"",
], ids=["200", "403", "bad-accept", "no-upgrade", "upgrade-h2c", "extension", "too-long", "cut-short",
        "nothing"])
def test_our_client_checks_the_answer(answer: Callable[[str], bytes]) -> None:
    async def main() -> None:
        def respond(key: str) -> bytes:
            data = answer(key)
            if data in (b"", b"HTTP/1.1 101 Swit"):
                asyncio.get_running_loop().call_soon(hang_up)
            return data

        def hang_up() -> None:
            for writer in fake.writers:
                writer.close()

        async with fake_server(respond) as fake:
            c = Collector()
            with pytest.raises(w.HandshakeError):
                await w.connect(f"ws://127.0.0.1:{fake.port}/", c, timeout=WAIT)
            assert c.state == w.CLOSED and c.closes == 1
            assert c.transport is not None and c.transport.is_closing()

    asyncio.run(main())


def test_our_client_times_out_and_closes_its_connection() -> None:
    async def main() -> None:
        async with fake_server(lambda key: b"") as fake:
            c = Collector()
            with pytest.raises(TimeoutError):
                await w.connect(f"ws://127.0.0.1:{fake.port}/", c, timeout=0.2)
            assert c.transport is not None and c.transport.is_closing()
            await wait(fake.done, "the fake server to see the client go")

    asyncio.run(main())


def test_frames_in_the_same_packet_as_the_101() -> None:
    async def main() -> None:
        def respond(key: str) -> bytes:
            return (switching(key) + raw_frame(w.TEXT, b"hello") + raw_frame(w.PING, b"q")
                    + raw_frame(w.BINARY, bytes(200)))

        async with fake_server(respond) as fake, client(f"ws://127.0.0.1:{fake.port}/") as c:
            assert await c.next() == "hello"
            assert await c.next() == bytes(200)
            await until(lambda: len(fake.received) >= 7, "the pong")
            assert unframe(fake.received) == [(True, w.PONG, b"q", True)]

    asyncio.run(main())


@pytest.mark.parametrize(("bad", "code"), [
    (raw_frame(w.TEXT, b"masked", mask=MASK), 1002),
    (raw_frame(w.TEXT, b"\xc3", fin=True), 1007),
    (raw_frame(9, b"x", fin=False), 1002),
    (raw_frame(w.BINARY, bytes(70000)), 1009),
], ids=["masked", "bad-utf8", "fragmented-ping", "too-big"])
def test_our_client_fails_a_bad_server(bad: bytes, code: int) -> None:
    async def main() -> None:
        async with fake_server(lambda key: switching(key) + bad) as fake:
            c = Collector()
            with contextlib.suppress(w.HandshakeError):
                await w.connect(f"ws://127.0.0.1:{fake.port}/", c, timeout=WAIT)
            await wait(c.ended, "the client to fail the connection")
            await wait(fake.done, "the client to drop TCP")
            frames = unframe(fake.received)
            assert [(op, masked) for _, op, _, masked in frames] == [(w.CLOSE, True)]
            assert close_code_of(frames[0][2]) == code
            assert c.close_code == w.ABNORMAL and c.closes == 1

    asyncio.run(main())


def test_our_client_keepalive_against_our_server() -> None:
    async def main() -> None:
        async with echo_server(ping_interval=None) as hub, \
                client(hub.url, ping_interval=0.03, ping_timeout=2.0) as c:
            proto = await hub.next()
            await until(lambda: c.pings_sent >= 6, "six pings, the last five each after a pong")
            assert c.state == w.OPEN and proto.state == w.OPEN
            c.send_text("alive")
            assert await c.next() == "alive"

    asyncio.run(main())


def test_our_client_drops_a_server_that_never_answers_pings() -> None:
    async def main() -> None:
        async with fake_server(switching) as fake, \
                client(f"ws://127.0.0.1:{fake.port}/", ping_interval=0.03, ping_timeout=0.1) as c:
            await wait(c.ended, "the client to drop the silent server")
            assert c.close_code == w.ABNORMAL
            await wait(fake.done, "the fake server to see it")
            assert [op for _, op, _, _ in unframe(fake.received)] == [w.PING]

    asyncio.run(main())


# ---------------------------------------------------------------------------- our client, websockets server


@contextlib.asynccontextmanager
async def websockets_server() -> AsyncIterator[int]:
    async def handler(ws: ServerConnection) -> None:
        async for message in ws:
            if message == "close please":
                await ws.close(4002, "as asked")
            elif message == "fragments":
                await ws.send(["fr", "ag", "m\u00e9nt"])
                await ws.send([b"\x01", b"\x02\x03"])
            elif message == "ping me":
                latency = await asyncio.wait_for(await ws.ping(b"from server"), WAIT)
                await ws.send(f"pong after {latency:.3f}")
            else:
                await ws.send(message)

    async with ws_serve(handler, "127.0.0.1", 0, ping_interval=None, max_size=1 << 20,
                        compression=None) as server:
        yield next(iter(server.sockets)).getsockname()[1]


def test_our_client_against_the_websockets_server() -> None:
    async def main() -> None:
        async with websockets_server() as port, client(f"ws://127.0.0.1:{port}/", max_size=1 << 20) as c:
            for n in (0, 125, 126, 65536, 200_000):
                c.send_text("t" * n)
                assert await c.next() == "t" * n
                c.send_binary(b"\xfe" * n)
                assert await c.next() == b"\xfe" * n
            c.send_text("fragments")
            assert await c.next() == "fragm\u00e9nt"
            assert await c.next() == b"\x01\x02\x03"
            c.send_text("ping me")
            reply = await c.next()
            assert isinstance(reply, str) and reply.startswith("pong after")
            c.send_text("close please")
            await asyncio.wait_for(c.wait_closed(), WAIT)
            assert (c.close_code, c.close_reason) == (4002, "as asked") and c.closes == 1

    asyncio.run(main())


def test_our_client_closes_the_websockets_server() -> None:
    async def main() -> None:
        async with websockets_server() as port, client(f"ws://127.0.0.1:{port}/", close_timeout=2.0) as c:
            c.send_text("x")
            assert await c.next() == "x"
            start = time.monotonic()
            c.close(1000, "bye")
            await asyncio.wait_for(c.wait_closed(), WAIT)
            assert time.monotonic() - start < 1.0  # the server dropped TCP after the handshake
            assert c.close_code == 1000 and c.closes == 1

    asyncio.run(main())


class RecordingTransport(asyncio.Transport):
    """A transport that keeps each write (to count the system calls a real one would make)."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.writes.append(bytes(data))

    def get_write_buffer_size(self) -> int:
        return 0

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self.limits = (high, low)

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.closed = True


def test_messages_of_one_turn_of_the_loop_go_out_in_one_write_before_a_close() -> None:
    async def main() -> tuple[list[bytes], list[bytes]]:
        proto = w.WebSocketProtocol(ping_interval=None)
        transport = RecordingTransport()
        proto.connection_made(transport)
        proto.opened()
        proto.send_text("one")
        proto.send_text("two")
        proto.send_binary(b"three")
        assert transport.writes == []  # not yet: at the end of the loop's turn
        await asyncio.sleep(0)
        first = list(transport.writes)
        proto.send_text("four")
        proto.close(1000, "bye")  # the queued message goes before the close frame
        return first, transport.writes[len(first):]

    first, then = asyncio.run(main())
    assert len(first) == 1
    assert [(op, payload) for _, op, payload, _ in unframe(first[0])] == [
        (1, b"one"), (1, b"two"), (2, b"three")]
    assert [(op, payload) for _, op, payload, _ in unframe(b"".join(then))] == [
        (1, b"four"), (8, b"\x03\xe8bye")]


def test_the_same_text_to_many_peers_is_framed_once() -> None:
    text = "".join(["{\"type\":", "\"events\"}"])  # a str made at run time
    assert w._server_text_frame(text) is w._server_text_frame(text)
    assert w._server_text_frame(text) == w.frame(w.TEXT, text.encode())
    other = text + " "
    assert w._server_text_frame(other) == w.frame(w.TEXT, other.encode())


# ---------------------------------------------------------------------------- floods (issue 16, item 3)


def test_an_empty_fragment_flood_is_closed_with_1009() -> None:
    async def main() -> None:
        async with echo_server(ping_interval=None) as hub, contextlib.AsyncExitStack() as stack:
            peer, proto = await opened_raw(stack, hub)
            peer.write(raw_frame(w.TEXT, b"{", fin=False, mask=MASK))
            empty = raw_frame(w.CONTINUATION, b"", fin=False, mask=MASK)
            for _ in range(100):  # 100,000 empty fragments at most
                if proto.state is not w.OPEN:
                    break
                peer.write(empty * 1000)
                with contextlib.suppress(ConnectionError):
                    await asyncio.wait_for(peer.writer.drain(), WAIT)
            frames = unframe(await peer.read_to_end())
            assert [(op, close_code_of(p)) for _, op, p, _ in frames] == [(w.CLOSE, w.TOO_BIG)]
            await wait(proto.ended, "the server's end")
            assert proto.texts == []
            assert len(proto.reader._parts) <= 256

    asyncio.run(main())


class NeverRead(RecordingTransport):
    """A transport whose peer never reads: everything written stays in its buffer."""

    def __init__(self) -> None:
        super().__init__()
        self.reading = True

    def get_write_buffer_size(self) -> int:
        return sum(map(len, self.writes))

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True


def test_pongs_count_toward_the_write_buffer_bound() -> None:
    """Pings read one at a time from a peer that never reads: the pongs pile up in the
    same bounded buffer as messages, and past ``max_buffer`` the connection is closed
    with 1008 (before, control frames were written past the bound without a check)."""

    async def main() -> None:
        proto = Echo(max_buffer=4096, ping_interval=None)
        transport = NeverRead()
        proto.connection_made(transport)
        proto.opened()
        for _ in range(1000):
            if proto.state is not w.OPEN:
                break
            proto.data_received(raw_frame(w.PING, b"p" * 125, mask=MASK))
        assert proto.overflows == 1 and proto.state == w.CLOSING
        assert transport.get_write_buffer_size() <= 4096 + 2 * (2 + 125)
        sent = unframe(b"".join(transport.writes))
        assert sent[-1][1] == w.CLOSE and close_code_of(sent[-1][2]) == w.POLICY
        assert {op for _, op, _, _ in sent[:-1]} == {w.PONG}
        proto.connection_lost(None)

    asyncio.run(main())


def test_flow_control_limits_are_set_from_read_pause() -> None:
    proto = w.WebSocketProtocol(read_pause=8192, max_buffer=1 << 20, ping_interval=None)
    transport = NeverRead()
    proto.connection_made(transport)
    assert transport.limits == (8192, 2048)
    proto.pause_writing()
    assert proto.reading_paused and not transport.reading
    proto.resume_writing()
    assert not proto.reading_paused and transport.reading
    # read_pause is never above max_buffer: reading stops before the connection is closed
    assert w.WebSocketProtocol(read_pause=1 << 30, max_buffer=4096).read_pause == 4096


def test_a_ping_flood_from_a_peer_that_never_reads_stops_the_reading() -> None:
    """A peer that sends pings and never reads: once its pongs back up past read_pause,
    the server reads nothing more from it (TCP pushes back on the sender), so what the
    server holds stays under read_pause and one read's pongs; the peer reads again: the
    server reads again and answers."""

    async def main() -> None:
        options = {"read_pause": 8192, "max_buffer": 1 << 20, "ping_interval": None}
        async with echo_server(**options) as hub, contextlib.AsyncExitStack() as stack:
            peer, proto = await opened_raw(stack, hub, rcvbuf=4096)
            peer_transport = peer.writer.transport
            assert isinstance(peer_transport, asyncio.ReadTransport)
            peer_transport.pause_reading()  # and never reads, for now
            transport = proto.transport
            assert transport is not None
            # a small, fixed kernel buffer on the server's side too, so the pongs back up soon
            transport.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
            ping = raw_frame(w.PING, b"p" * 125, mask=MASK)
            most = written = 0
            deadline = time.monotonic() + 10
            while not proto.reading_paused and time.monotonic() < deadline and written < 64 << 20:
                peer.write(ping)  # one frame a write: each read may ask a pong
                written += len(ping)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(peer.writer.drain(), 0.5)
                most = max(most, transport.get_write_buffer_size())
                await asyncio.sleep(0)
            assert proto.reading_paused, f"{written} bytes of pings and the server still reads"
            assert not transport.is_reading()  # type: ignore[attr-defined]
            # the server reads nothing more: its buffer stays where it stopped
            held = transport.get_write_buffer_size()
            peer.write(ping * 20000)  # 2.6 MB the server does not read
            await asyncio.sleep(0.2)
            assert transport.get_write_buffer_size() == held
            assert most <= 8192 + 65536 * 2, most
            assert proto.state == w.OPEN
            # the peer reads again: the server reads again, answers, and echoes
            peer_transport.resume_reading()
            peer.write(raw_frame(w.TEXT, b"after", mask=MASK))
            data = b""
            async with asyncio.timeout(WAIT):
                while b"after" not in data:
                    chunk = await peer.reader.read(1 << 20)
                    assert chunk
                    data += chunk
            assert not proto.reading_paused and proto.texts == ["after"]

    asyncio.run(main())


def test_a_peer_that_sends_and_never_reads_is_paused_then_closed_at_max_buffer() -> None:
    """Messages whose answers back up: reading stops at read_pause; what the server sends
    on its own (here: a flood of texts) still reaches max_buffer, and the peer is closed
    with 1008 at that bound."""

    async def main() -> None:
        options = {"read_pause": 4096, "max_buffer": 1 << 20, "ping_interval": None, "close_timeout": 0.2}
        async with echo_server(**options) as hub, contextlib.AsyncExitStack() as stack:
            peer, proto = await opened_raw(stack, hub, rcvbuf=4096)
            peer_transport = peer.writer.transport
            assert isinstance(peer_transport, asyncio.ReadTransport)
            peer_transport.pause_reading()
            message = raw_frame(w.TEXT, b"x" * 60000, mask=MASK)
            deadline = time.monotonic() + 10
            for _ in range(1000):  # 60 MB at most
                if proto.reading_paused or time.monotonic() > deadline:
                    break
                peer.write(message)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(peer.writer.drain(), 0.2)
            assert proto.reading_paused and proto.state == w.OPEN
            echoed = len(proto.texts)
            for _ in range(2000):  # 32 MB at most
                if proto.state is not w.OPEN:
                    break
                proto.send_text("y" * 16384)
                await asyncio.sleep(0.001)
            assert proto.overflows == 1 and len(proto.texts) == echoed
            assert proto.transport is not None and proto.transport.get_write_buffer_size() < (1 << 20) + 40000
            await wait(proto.ended, "the close timeout")

    asyncio.run(main())
