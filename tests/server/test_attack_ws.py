"""Issue 16, item 3, against a real `pokerroom serve`: floods of WebSocket frames that cost
the attacker little and the server much.

- A ping flood from a peer that never reads: every ping asks for a pong, and a server that
  reads on while its pongs pile up unsent holds them all (before the fix, 64 MiB of pings
  grew the server by 90 MiB and the connection stayed open). Now a run of pings read
  together gets one pong, pongs count toward the write buffer's bounds, and the server
  stops reading from a peer whose output is backed up.
- An empty-fragment flood: a message that never ends, of continuation frames with no
  payload, each counted as 0 bytes against the 64 KiB message limit (before the fix, 4
  million of them, 23 MiB, were all read, the server grew by 45-49 MiB and the room's
  answers took up to 2 s: a player timed out). Now a message is at most 256 frames.

The server's memory is read from /proc/<pid>/status (VmRSS sampled during the flood, and
VmHWM, the kernel's own peak) and must grow by less than ``GROWTH``. Meanwhile two players
play heads-up at another table and an observer pings the room: nobody times out and no
answer takes longer than ``STALL``. Each flood is bounded: at most ``FLOOD_BYTES`` and
``FLOOD_SECONDS``, and it stops when the server stops reading for ``BLOCKED`` seconds.
"""

from __future__ import annotations

import asyncio

from pokerroom.websocket import CONTINUATION, PING, TEXT
from tests.helpers import MASK, handshake, raw_frame
from tests.server.helpers import FLOOD_BYTES, GROWTH, Server, stalled, under_flood


def test_a_ping_flood_from_a_peer_that_never_reads(server: Server) -> None:
    """64 MiB of pings (125 bytes each, the most a control frame holds) from a peer that
    never reads: the server answers a read's pings with one pong, and would stop reading
    once its pongs back up, so it never holds the flood."""
    ping = raw_frame(PING, b"p" * 125, mask=MASK)
    chunk = ping * ((1 << 20) // len(ping))

    outcome = asyncio.run(under_flood(server, b"", chunk, FLOOD_BYTES))
    print(f"ping flood: {outcome}")
    assert outcome.growth < GROWTH, f"the server grew too much under a ping flood: {outcome}"
    assert not stalled(outcome), f"the room stalled: {outcome}"


def test_an_empty_fragment_flood(server: Server) -> None:
    """A text message begun, then 4 million empty continuation frames (6 bytes each, 24
    MiB): the server closes the connection (1009) after the fragments a message may have,
    so it never holds more than those."""
    opening = raw_frame(TEXT, b"{", fin=False, mask=MASK)
    empty = raw_frame(CONTINUATION, b"", fin=False, mask=MASK)
    chunk = empty * ((1 << 20) // len(empty))
    count = 4_000_000

    outcome = asyncio.run(under_flood(server, opening, chunk, len(opening) + count * len(empty)))
    print(f"fragment flood: {outcome}")
    result = outcome.flood
    assert outcome.growth < GROWTH, f"the server grew too much under empty fragments: {outcome}"
    assert result.closed, f"the server read the empty fragments and stayed open: {outcome}"
    assert result.sent < count * len(empty) // 4, outcome
    assert result.close_code in (None, 1009), outcome  # None: the reset came before it could be read
    assert not stalled(outcome), f"the room stalled: {outcome}"


def test_an_opaque_origin_is_refused(server: Server) -> None:
    """Issue 16, item 9: ``Origin: null`` is what a sandboxed frame or a data: or file:
    page sends, and any site can make one, so it is refused (403) like another site's
    origin; an Origin that is not a URL is refused too, and does not upset the server."""

    async def answer(origin: str) -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        try:
            writer.write(handshake("/ws", host=f"127.0.0.1:{server.port}", extra={"Origin": origin}))
            return await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        finally:
            writer.close()

    async def main() -> None:
        for origin in ("null", "NULL", "http://[::1", "http://[127.0.0.1:1/", "file://", "data:,x"):
            head = await answer(origin)
            assert head.startswith(b"HTTP/1.1 403 "), (origin, head)
        same = await answer(f"http://127.0.0.1:{server.port}")
        assert same.startswith(b"HTTP/1.1 101 "), same

    asyncio.run(main())
