"""The bus's own NATS client (pokerroom.bus.natsclient) against a real nats-server on a
free port, with nats-py beside it as an independent peer, and the bus's message codec."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nats
import pytest

from pokerroom.bus.messages import (
    Alive,
    Caller,
    LobbyRows,
    PlayerBatch,
    PlayerNotice,
    Request,
    Response,
    TableBatch,
    Unwatch,
    decode,
    encode,
)
from pokerroom.bus.natsclient import NatsClient
from pokerroom.bus.transport import BusDown, BusTimeout, NoResponders
from tests.cluster.helpers import Nats


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Nats]:
    n = Nats(tmp_path)
    n.start()
    try:
        yield n
    finally:
        n.stop()


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 60))


async def until(predicate: Any, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        assert loop.time() < deadline, "timed out"
        await asyncio.sleep(0.01)


def test_publish_subscribe_in_order_both_ways_with_nats_py(server: Nats) -> None:
    async def main() -> None:
        ours = NatsClient(server.url, "ours")
        await ours.connect()
        theirs = await nats.connect(server.url)
        got: list[bytes] = []
        ours.subscribe("a.*", lambda reply, data, status: got.append(data))
        heard: list[bytes] = []

        async def keep(msg: Any) -> None:
            heard.append(msg.data)

        await theirs.subscribe("b", cb=keep)
        await theirs.flush()
        await ours.flush()
        payloads = [b"", b"x", "é\r\nMSG a.b 1 3\r\n".encode(), bytes(range(256)) * 300]
        for i in range(200):
            await theirs.publish(f"a.{i}", payloads[i % 4] + str(i).encode())
            ours.publish("b", payloads[i % 4] + str(i).encode())
        await theirs.flush()
        await until(lambda: len(got) == 200 and len(heard) == 200)
        expected = [payloads[i % 4] + str(i).encode() for i in range(200)]
        assert got == expected and heard == expected
        await theirs.close()
        await ours.close()

    run(main())


def test_requests_answered_refused_timed_out_and_down(server: Nats) -> None:
    async def main() -> None:
        client = NatsClient(server.url, "ours")
        await client.connect()
        served = NatsClient(server.url, "server")
        await served.connect()
        served.subscribe("echo", lambda reply, data, status: served.publish(reply, data[::-1]))
        served.subscribe("mute", lambda reply, data, status: None)
        await served.flush()
        outcomes: dict[str, Any] = {}

        def ask(key: str, subject: str, timeout: float = 5.0) -> None:
            client.request(subject, key.encode(), lambda data: outcomes.__setitem__(key, data),
                           lambda e: outcomes.__setitem__(key, e), timeout)

        for i in range(50):
            ask(f"q{i}", "echo")
        ask("nobody", "nobody.serves.this")
        ask("mute", "mute", timeout=0.3)
        await until(lambda: len(outcomes) == 52)
        assert all(outcomes[f"q{i}"] == f"q{i}".encode()[::-1] for i in range(50))
        assert isinstance(outcomes["nobody"], NoResponders)
        assert isinstance(outcomes["mute"], BusTimeout)
        assert not client._requests  # every token gone

        # a request out when the server goes: BusTimeout at once (it may have been handled);
        # while it is down: BusDown (nothing sent); back: answered again
        ask("lost", "mute", timeout=30)
        server.stop()
        await until(lambda: "lost" in outcomes)
        assert isinstance(outcomes["lost"], BusTimeout)
        ask("down", "echo")
        assert isinstance(outcomes["down"], BusDown)
        server.start()
        await until(lambda: client.connected and served.connected, 15)
        await served.flush()
        ask("again", "echo")
        await until(lambda: "again" in outcomes)
        assert outcomes["again"] == b"niaga"
        await client.close()
        await served.close()

    run(main())


def test_what_is_published_while_down_goes_out_once_back_and_subscriptions_are_renewed(
        server: Nats) -> None:
    async def main() -> None:
        sender = NatsClient(server.url, "sender")
        await sender.connect()
        receiver = NatsClient(server.url, "receiver")
        await receiver.connect()
        got: list[bytes] = []
        receiver.subscribe("x", lambda reply, data, status: got.append(data))
        await receiver.flush()
        server.stop()
        await until(lambda: not sender.connected and not receiver.connected)
        late: list[bytes] = []
        receiver.subscribe("y", lambda reply, data, status: late.append(data))  # made on the next connection
        for i in range(5):
            sender.publish("x", b"kept %d" % i)
        server.start()
        await until(lambda: sender.connected and receiver.connected, 15)
        await receiver.flush()
        await sender.flush()
        await asyncio.sleep(0.2)
        # what the sender kept may reach the server before the receiver is back: it is not
        # kept for him; what is sent once both are back arrives
        sender.publish("x", b"after")
        sender.publish("y", b"late")
        await until(lambda: b"after" in got and late == [b"late"])
        await sender.close()
        await receiver.close()

    run(main())


def test_a_server_that_is_not_there_and_bad_addresses() -> None:
    async def main() -> None:
        from tests.server.helpers.servers import free_port

        with pytest.raises(BusDown):
            await NatsClient(f"nats://127.0.0.1:{free_port()}", "x").connect(timeout=1)
        with pytest.raises(ValueError):
            NatsClient("http://127.0.0.1:4222", "x")

    run(main())


def test_a_broken_stream_drops_the_connection_and_it_comes_back(server: Nats) -> None:
    async def main() -> None:
        client = NatsClient(server.url, "ours")
        await client.connect()
        wire = client._wire
        assert wire is not None
        client._received(wire, b"MSG a 1 zz\r\n")  # not a size: the stream is not trusted further
        await until(lambda: client._wire is not None and client._wire is not wire, 10)
        got: list[bytes] = []
        client.subscribe("a", lambda reply, data, status: got.append(data))
        await client.flush()
        client.publish("a", b"fine")
        await until(lambda: got == [b"fine"])
        await client.close()

    run(main())


def test_the_codec_carries_every_kind_and_refuses_what_is_not_one() -> None:
    caller = Caller("gw-1", 12, "Анна", 7)
    snapshot = '{"type":"snapshot","text":"a \\"quoted\\" \\n line é"}'
    messages = [
        Request(caller, '{"type":"act","table":"NL"}', None, 0.0),
        Request(Caller("g", 0, None, None), None, "buy_in", 12.5),
        Response("ok", ["a", "", snapshot], 1.5, 3, 44, True, False, {"min": 1}),
        Response('{"type":"error"}'),
        TableBatch("NL 1/2 #3", 2, 40, 41, "[1]", ["Анна", "b"], snapshot, None),
        TableBatch("NL", 2, -1, -1, notice="paused"),
        PlayerBatch("NL", "Анна", 7, 2, 41, None, snapshot, '{"type":"your_turn"}'),
        PlayerNotice(7, "offered"),
        Unwatch("gw-1", 12),
        Alive("gw-2"),
        LobbyRows("w1", [{"name": "NL", "players": 3}], gone=["x"]),
    ]
    for message in messages:
        assert decode(encode(message)) == message
    good = encode(messages[4])
    bad = [b"", b"\n", b"[]\n", b'["Nope"]\n', b'["Alive"]\n', b'["Alive","a","b"]\n', good[:-1],
           good + b"x", good.replace(b"[1]", b"[\xff]"), b'["PlayerNotice",7,99]\nabc',
           b'["PlayerNotice",7,-2]\n', b'["PlayerNotice",7,"3"]\nabc', b'{"k":"Alive"}\n',
           b'["Request",[1],-1,null,0]\n']
    for raw in bad:
        with pytest.raises(ValueError):
            decode(raw)
