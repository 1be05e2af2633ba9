"""Attacks on a table's event log through a real server (issue 16, items 4 and 9).

- Replay on subscribe was a CPU amplifier: one anonymous connection's 40 subscribes with
  ``since`` (2.6 KB sent) drew 16.5 MB and 59,960 re-encoded events. Now each event is
  encoded once when published, and a replay is charged to the connection's message
  budget by the events it sends, so the same 40 subscribes draw a few replays and then
  ``rate_limited``; the players at the table see no time-out meanwhile.
- Chat came from anyone (not seated, not even watching), without a limit per account,
  and filled the reconnect log. Now only the table's players chat, a few lines at a time
  whatever their connections, and chat has a log of its own.
"""

from __future__ import annotations

import asyncio
import gc
import json
import time

import httpx
from websockets.asyncio.client import connect

from pokerroom.bots import Tally, crowd
from pokerroom.worker.eventlog import REPLAY_COST, EventLog
from pokerroom.worker.runner import CHAT_LINES
from tests.server.helpers import Client, Server, run

SUBSCRIBES = 40


def test_replaying_the_log_again_and_again_is_charged_and_hurts_no_player(server: Server) -> None:
    tables = [t for t in httpx.get(f"{server.http}/api/tables").json()["tables"] if t["name"] == "NL"]
    tally = Tally()
    bots = crowd(server.http, 4, tables, strategies=["station"], seed=4, think=0.0, tally=tally,
                 per_table={"NL": 4})

    async def main() -> dict[str, int]:
        stop = asyncio.Event()
        runs = asyncio.gather(*(b.run(stop) for b in bots), return_exceptions=True)
        watcher = Client(server.http, server.ws)
        await watcher.connect(anonymous=True)
        await watcher.request({"type": "subscribe", "table": "NL"})
        try:
            deadline = time.monotonic() + 120
            while watcher.versions.get("NL", 0) < 1600:  # the log is full
                assert time.monotonic() < deadline and not runs.done(), watcher.versions
                await asyncio.sleep(0.2)
            timeouts_before = len(watcher.events("NL", "TimedOut"))
            async with connect(server.ws, max_size=2**25) as attacker:  # anonymous
                json.loads(await attacker.recv())  # welcome
                await attacker.send(json.dumps({"type": "subscribe", "table": "NL"}))
                version = None
                while version is None:
                    m = json.loads(await attacker.recv())
                    version = m.get("version") if m["type"] == "snapshot" else None
                since = version - 1400  # as far back as the log goes
                sent = 0
                for k in range(SUBSCRIBES):
                    text = json.dumps({"type": "subscribe", "table": "NL", "since": since, "id": k})
                    sent += len(text)
                    await attacker.send(text)
                got = {"bytes": 0, "events": 0, "replays": 0, "rate_limited": 0, "sent": sent}
                answered = 0
                with_deadline = time.monotonic() + 20
                while answered < SUBSCRIBES and time.monotonic() < with_deadline:
                    try:
                        raw = await asyncio.wait_for(attacker.recv(), 5)
                    except TimeoutError:
                        break
                    got["bytes"] += len(raw)
                    m = json.loads(raw)
                    if m["type"] == "events" and len(m["events"]) > 50:
                        got["replays"] += 1
                        got["events"] += len(m["events"])
                    elif m["type"] == "error" and m.get("id") is not None:
                        got["rate_limited"] += m["code"] == "rate_limited"
                        answered += 1
                    elif m["type"] == "ok" and m.get("id") is not None:
                        answered += 1
            await asyncio.sleep(3)  # the table plays on: nobody timed out for the attack
            got["timeouts"] = len(watcher.events("NL", "TimedOut")) - timeouts_before
            got["hands"] = len(tally.hands.get("NL", ()))
            return got
        finally:
            stop.set()
            await asyncio.wait_for(runs, 30)
            await watcher.aclose()

    got = run(main())
    print("replay attack:", got)
    assert got["replays"] >= 1  # a client that comes back still gets what it missed
    # before: 40 replays, about 56,000 events and 15 MB; now the budget (40 messages, 20 a
    # second) pays for 40 / (1 + 1400 * REPLAY_COST) replays at once
    assert got["replays"] <= 3 and got["events"] <= 3 * 1400, got
    assert got["rate_limited"] >= SUBSCRIBES - 5, got
    assert got["bytes"] < 1_500_000, got
    assert got["timeouts"] == 0, got


def test_only_the_tables_players_chat_a_few_lines_at_a_time(server: Server) -> None:
    async def main() -> None:
        ann, bob, cy = (Client(server.http, server.ws, name) for name in ("Annie", "Boris", "Cyril"))
        ann2 = Client(server.http, server.ws, "Annie")
        try:
            for c in (ann, bob, cy):
                assert (await c.register()).status_code == 200
            assert (await ann2.login()).status_code == 200
            for c in (ann, ann2, bob, cy):
                await c.connect()
            sit = {"type": "sit", "table": "NL", "seat": 1, "buy_in": 100}
            assert (await ann.request(sit))["type"] == "ok"
            await bob.request({"type": "subscribe", "table": "NL"})  # watching, not seated
            line = {"type": "chat", "table": "NL", "text": "hello"}
            for outsider in (bob, cy):  # cy does not even watch the table
                answer = await outsider.request(line)
                assert answer["type"] == "error" and answer["code"] == "not_seated", answer
            answers = []
            for k in range(2 * CHAT_LINES):  # the same player on two connections
                answers.append(await (ann if k % 2 else ann2).request({**line, "text": f"line {k}"}))
            codes = [a["code"] if a["type"] == "error" else "ok" for a in answers]
            assert codes == ["ok"] * CHAT_LINES + ["chat_limited"] * CHAT_LINES, codes
            last = f"line {CHAT_LINES - 1}"
            await bob.wait_for(lambda m: m["type"] == "event" and m["event"].get("text") == last)
            said = [m["event"]["text"] for m in bob.events("NL", "ChatLine")]
            assert said == [f"line {k}" for k in range(CHAT_LINES)], said
        finally:
            for c in (ann, ann2, bob, cy):
                await c.aclose()

    run(main())


def test_chat_keeps_out_of_the_events_reconnect_window() -> None:
    """A flood of chat drops old chat lines, never the hand's events; a replay after
    dropped chat is refused whole (a snapshot instead), never given with holes."""
    log = EventLog(size=10, chat_size=3)
    for version in range(1, 9):
        log.add(version, f"e{version}")
    for version in range(9, 19):
        log.add(version, f"c{version}", chat=True)
    log.add(19, "e19", owner="ann", private="e19-ann")
    assert log.covers(15) and not log.covers(14)  # chat 9 .. 15 dropped
    assert log.since(15, "bob") == ["c16", "c17", "c18", "e19"]
    assert log.since(15, "ann") == ["c16", "c17", "c18", "e19-ann"]
    assert 1 / REPLAY_COST >= 20  # a reconnect's replay costs a little of the budget


def test_a_full_reconnect_log_holds_nothing_the_garbage_collector_walks() -> None:
    """A room's logs hold about a million entries (1,500 per table). Kept as an object
    each, they were most of what survived each young collection while the logs filled,
    and a collection over them stopped the room's event loop for 100-200 ms every 10-20 s
    at 1,000 tables (docs/scaling.md). Now a log is numbers and strings only."""
    log = EventLog()
    texts = [f"e{version}" for version in range(1, 4001)]
    gc.collect()
    before = len(gc.get_objects())
    for version, text in enumerate(texts, 1):
        mine = version % 3 == 0  # every third event a hole card, with its owner's text
        log.add(version, text, owner="ann" if mine else None, private=text + "-ann" if mine else None)
    gc.collect()
    assert len(log) == 1500  # full: every add now drops the oldest entry
    assert len(gc.get_objects()) - before < 20
    assert log.since(len(texts) - 3, "ann") == [texts[-3], texts[-2] + "-ann", texts[-1]]
