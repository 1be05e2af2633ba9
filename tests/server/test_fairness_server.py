"""Provably fair deals through a real `pokerroom serve` (issue 16 item 10), on SQLite and
PostgreSQL: players who send seeds see them mixed into the next deal, players who send none
are dealt from the commitment alone, eight stud players staying to seventh street get the
reshuffle drawn from the committed mix; every hand each player downloads verifies against
the commitment and the seeds he saw announced at its deal, in Python and with
``pokerroom verify``."""

from __future__ import annotations

import asyncio
import json
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

from pokerroom.fairness import verify_history
from tests.policies import passive_policy
from tests.server.helpers import Client, Server, is_event, run


async def seeder(c: Client, table: str, sent: dict[int, str]) -> None:
    """Send a fresh seed for each deck announced (``DeckSeeded.next_commitment``); ``sent``:
    hand number -> the seed taken for it."""
    i = c.mark()
    while True:
        i, m = await c.wait_for(is_event(table, "DeckSeeded"), 600, i)
        i += 1
        seed = secrets.token_hex(16)
        answer = await c.request({"type": "seed", "table": table, "commitment": m["event"]["next_commitment"],
                                  "seed": seed})
        assert answer["type"] == "ok", answer
        sent[m["event"]["number"] + 1] = seed


def announced(c: Client, table: str) -> dict[int, dict[str, Any]]:
    """What ``c`` saw announced at each deal: the commitment and the seeds."""
    seen: dict[int, dict[str, Any]] = {}
    for m in c.events(table, "DeckCommitted", "DeckSeeded"):
        e = m["event"]
        seen.setdefault(e["number"], {}).update(
            {"commitment": e["commitment"]} if e["type"] == "DeckCommitted" else {"seeds": e["seeds"]})
    return seen


async def check_hands(c: Client, table: str, folder: Path) -> list[dict[str, Any]]:
    """Every hand ``c`` played at ``table``, downloaded and verified as he saw it dealt."""
    seen = announced(c, table)
    listed = [h for h in (await c.get("/api/hands")).json()["hands"] if h["table_name"] == table]
    assert listed
    out = []
    for h in listed:
        data = (await c.get(f"/api/hands/{h['id']}")).json()
        deal = seen[h["number"]]
        verdict = verify_history(data, announced=deal["commitment"], announced_seeds=deal["seeds"])
        assert verdict.ok and verdict.seat == c.seats[table], (c.name, h["number"], verdict)
        assert data["deal"] == {"scheme": 2, "seeds": deal["seeds"]}
        path = folder / f"{c.name}-{h['id']}.json"
        path.write_text(json.dumps(data))
        done = subprocess.run([sys.executable, "-m", "pokerroom.cli", "verify", str(path), "--commitment",
                               deal["commitment"]], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and done.stdout.startswith("verified:"), done
        out.append(data)
    return out


async def players(server: Server, names: list[str], table: str, buy_in: int) -> list[Client]:
    """Registered and connected, then seated all at once (the first hand deals them all)."""
    clients = []
    for name in names:
        c = Client(server.http, server.ws, name)
        assert (await c.register()).status_code == 200
        await c.connect()
        clients.append(c)
    answers = await asyncio.gather(*(c.sit(table, k + 1, buy_in) for k, c in enumerate(clients)))
    assert all(a["type"] == "ok" for a in answers), answers
    return clients


def test_seeded_holdem_hands_verify_for_each_player(server: Server, tmp_path: Path) -> None:
    async def scenario() -> None:
        ann, bob = await players(server, ["ann", "bob"], "NL", 200)
        sent: dict[str, dict[int, str]] = {"ann": {}, "bob": {}}
        tasks = [asyncio.create_task(seeder(c, "NL", sent[c.name or ""])) for c in (ann, bob)]
        try:
            await asyncio.gather(*(c.play("NL", 5, passive_policy) for c in (ann, bob)))
        finally:
            for t in tasks:
                t.cancel()
        for c in (ann, bob):
            hands = await check_hands(c, "NL", tmp_path)
            seeded = [h for h in hands if h["deal"]["seeds"]]
            assert len(seeded) >= 3, [h["deal"] for h in hands]  # from the second hand on
            for h in seeded:
                mine = {seat: seed for seat, seed in h["deal"]["seeds"]}.get(c.seats["NL"])
                assert mine == sent[c.name or ""][h["number"]], (h["number"], mine)
        for c in (ann, bob):
            await c.aclose()

    run(scenario())


def test_eight_stud_players_unseeded_to_seventh_street_verify_with_the_reshuffle(
    server: Server, tmp_path: Path
) -> None:
    async def scenario() -> None:
        clients = await players(server, [f"stud{k}" for k in range(8)], "Stud", 1000)
        await asyncio.gather(*(c.play("Stud", 2, passive_policy, timeout=60) for c in clients))
        reshuffled = 0
        for c in clients:
            for data in await check_hands(c, "Stud", tmp_path):
                assert data["deal"]["seeds"] == []
                kinds = [e["type"] for e in data["record"]["events"]]
                reshuffled += "Reshuffled" in kinds
        assert reshuffled >= 8  # every player's history of a hand that reshuffled
        for c in clients:
            await c.aclose()

    run(scenario())

