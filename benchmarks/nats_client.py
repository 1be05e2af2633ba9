"""The bus's own NATS client (pokerroom.bus.natsclient) against nats-py, same work, same run.

A private nats-server on a free port (Debian's nats-server); each client, in this process,
does the same two things, and the CPU time of this process is measured (the server runs
in its own):

- ``fan``: publish ``--messages`` messages of about 700 bytes (a table's batch of events)
  over 50 subjects and receive every one of them on a subscription per subject, as a
  worker publishes and a gateway receives (both ends in this process);
- ``requests``: ``--requests`` requests with 100 out at a time to a responder of the same
  library in this process, each answered with its payload (a command and its answer).

Both are the way the bus used each library: nats-py's ``subscribe(cb=...)``, awaited
``publish`` and ``request``; ours through its callbacks. Medians of ``--repeats`` runs,
CPU seconds (user + system) and wall seconds, and the ratio nats-py / ours.

    python benchmarks/nats_client.py --messages 100000 --requests 20000 --repeats 5
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import socket
import statistics
import subprocess
import time
from collections.abc import Awaitable, Callable
from typing import Any

import nats

from pokerroom.bus.natsclient import NatsClient
from pokerroom.loop import run

PAYLOAD = (b'{"type":"events","table":"NL","events":['
           + b'{"v":1,"e":"Acted","seat":3,"action":"call"},' * 15 + b"]}")
SUBJECTS = 50
OUTSTANDING = 100


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def until(done: Callable[[], bool]) -> None:
    while not done():
        await asyncio.sleep(0.001)


async def ours_fan(url: str, messages: int) -> None:
    client = NatsClient(url, "bench")
    await client.connect()
    got = 0

    def on(reply: str, data: bytes, status: int) -> None:
        nonlocal got
        got += 1

    for i in range(SUBJECTS):
        client.subscribe(f"t.{i}.ev", on)
    await client.flush()
    for i in range(messages):
        client.publish(f"t.{i % SUBJECTS}.ev", PAYLOAD)
        if i % 100 == 99:
            await asyncio.sleep(0)  # a turn of the loop, as a worker's tables take turns
    await until(lambda: got == messages)
    await client.close()


async def natspy_fan(url: str, messages: int) -> None:
    client = await nats.connect(url, pending_size=64 * 1024 * 1024)
    got = 0

    async def on(msg: Any) -> None:
        nonlocal got
        got += 1

    for i in range(SUBJECTS):
        await client.subscribe(f"t.{i}.ev", cb=on, pending_msgs_limit=65536)
    await client.flush()
    for i in range(messages):
        await client.publish(f"t.{i % SUBJECTS}.ev", PAYLOAD)
        if i % 100 == 99:
            await asyncio.sleep(0)
    await until(lambda: got == messages)
    await client.close()


async def ours_requests(url: str, requests: int) -> None:
    server = NatsClient(url, "server")
    await server.connect()
    client = NatsClient(url, "client")
    await client.connect()
    server.subscribe("t.NL.cmd", lambda reply, data, status: server.publish(reply, data))
    await server.flush()
    answered = sent = 0

    def on_reply(data: bytes) -> None:
        nonlocal answered
        answered += 1
        send()

    def failed(error: Exception) -> None:
        raise error

    def send() -> None:
        nonlocal sent
        if sent < requests:
            sent += 1
            client.request("t.NL.cmd", PAYLOAD[:200], on_reply, failed, 30)

    for _ in range(OUTSTANDING):
        send()
    await until(lambda: answered == requests)
    await client.close()
    await server.close()


async def natspy_requests(url: str, requests: int) -> None:
    server = await nats.connect(url)
    client = await nats.connect(url)

    async def serve(msg: Any) -> None:
        await server.publish(msg.reply, msg.data)

    await server.subscribe("t.NL.cmd", cb=serve)
    await server.flush()
    left = requests

    async def asker() -> None:
        nonlocal left
        while left > 0:
            left -= 1
            await client.request("t.NL.cmd", PAYLOAD[:200], timeout=30)

    await asyncio.gather(*(asker() for _ in range(OUTSTANDING)))
    await client.close()
    await server.close()


def measure(work: Callable[[], Awaitable[None]]) -> tuple[float, float]:
    async def timed() -> tuple[float, float]:  # on the room's loop (uvloop), as the bus runs
        cpu0, wall0 = sum(os.times()[:2]), time.perf_counter()
        await work()
        return sum(os.times()[:2]) - cpu0, time.perf_counter() - wall0

    return run(timed())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    binary = shutil.which("nats-server") or "/usr/sbin/nats-server"
    port = free_port()
    server = subprocess.Popen([binary, "-a", "127.0.0.1", "-p", str(port)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    url = f"nats://127.0.0.1:{port}"
    try:
        time.sleep(0.5)
        works = {
            "fan": (lambda: ours_fan(url, args.messages), lambda: natspy_fan(url, args.messages),
                    args.messages),
            "requests": (lambda: ours_requests(url, args.requests),
                         lambda: natspy_requests(url, args.requests), args.requests),
        }
        print(f"{'work':<9} {'client':<7} {'CPU s':>7} {'wall s':>7} {'per item CPU':>13}  "
              "ratio (nats-py / ours)")
        for name, (ours, theirs, items) in works.items():
            runs: dict[str, list[tuple[float, float]]] = {"ours": [], "nats-py": []}
            for _ in range(args.repeats):  # alternated, so both see the same noise
                runs["ours"].append(measure(ours))
                runs["nats-py"].append(measure(theirs))
            cpu = {k: statistics.median(c for c, _ in v) for k, v in runs.items()}
            wall = {k: statistics.median(w for _, w in v) for k, v in runs.items()}
            ratio = f"  CPU {cpu['nats-py'] / cpu['ours']:.2f}x, wall {wall['nats-py'] / wall['ours']:.2f}x"
            for k in runs:
                print(f"{name:<9} {k:<7} {cpu[k]:7.3f} {wall[k]:7.3f} {cpu[k] / items * 1e6:10.1f} us"
                      + (ratio if k == "nats-py" else ""))
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
