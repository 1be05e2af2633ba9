"""Issue 19, statistics on a real server: bots play a few hundred hands of no-limit hold'em
and stud, then each bot's figures from GET /api/players/{name}/stats are checked against a
count made here, independently, from the histories the API serves for each of his hands
(the PokerStars text /api/hands/{id}.txt for the actions, the .json's record for who
reached the showdown, the pots' winners and the nets). And what another player may see:
the figures, not the graph nor the results."""

from __future__ import annotations

import asyncio
import re
from collections import defaultdict
from typing import Any

import httpx
from sqlalchemy import select

from pokerroom.bots import Tally, crowd
from pokerroom.store import Store
from pokerroom.store.schema import accounts, hand_players, hands
from tests.rooms import STUD, room, table
from tests.server.helpers import Server
from tests.server.helpers.bots import play_until
from tests.soak import SEED, size

HANDS = size(45, 120)  # per table; the long run under make soak
STREET = re.compile(r"^\*\*\* (FLOP|TURN|RIVER|4th STREET|5th STREET|6th STREET) \*\*\*")
ACTION = re.compile(r"^(?P<name>[^:]+): (?P<what>folds|checks|calls|bets|raises|brings in|completes)\b")


def count(text: str, record: dict[str, Any], me: str, seat: int) -> dict[str, Any]:
    """His part in one hand, counted from its PokerStars text and its record."""
    round_, raises = 0, 0
    folded_in: dict[str, int] = {}
    names: set[str] = set()
    mine = {"vpip": False, "pfr": False, "three_bet": False, "chance": False, "bets": 0, "calls": 0}
    for line in text.split("*** SHOW DOWN ***")[0].split("*** SUMMARY ***")[0].splitlines():
        if line.startswith("Seat ") and " in chips" in line:
            names.add(line.split(": ", 1)[1].rsplit(" (", 1)[0])
        if STREET.match(line):
            round_ += 1
            continue
        m = ACTION.match(line)
        if m is None:
            continue
        who, what = m["name"], m["what"]
        aggressive = what in ("bets", "raises", "completes")
        if what == "folds":
            folded_in[who] = round_
        if round_ == 0:
            if who == me and raises == 1 and what != "brings in":
                mine["chance"] = True
                mine["three_bet"] = mine["three_bet"] or aggressive
            if who == me and (aggressive or what == "calls"):
                mine["vpip"] = True
                mine["pfr"] = mine["pfr"] or aggressive
            raises += aggressive
        elif who == me:
            mine["bets"] += aggressive
            mine["calls"] += what == "calls"
    still_in = [n for n in names if folded_in.get(n) != 0]
    player = next(p for p in record["players"] if p["seat"] == seat)
    won = any(seat in pot["winners"] for pot in record["pots"])
    return {**mine, "saw_flop": len(still_in) >= 2 and me in still_in,
            "showdown": player["reached_showdown"], "won": player["reached_showdown"] and won,
            "net": player["net"]}


def share(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def figures(parts: list[dict[str, Any]], bb: int) -> dict[str, Any]:
    n = len(parts)
    total = {k: sum(p[k] for p in parts) for k in parts[0]}
    return {
        "hands": n, "vpip": share(total["vpip"], n), "pfr": share(total["pfr"], n),
        "three_bet": share(total["three_bet"], total["chance"]),
        "af": round(total["bets"] / total["calls"], 2) if total["calls"] else None,
        "wtsd": share(total["showdown"], total["saw_flop"]), "wsd": share(total["won"], total["showdown"]),
        "bb100": round(100 * total["net"] / bb / n, 2),
    }


async def hands_of(database: tuple[str, str | None], name: str) -> list[tuple[int, int, str]]:
    """(hand id, his seat, table) of every complete hand he played, read from the store."""
    store = Store(*database)
    try:
        async with store.engine.connect() as conn:
            rows = (await conn.execute(
                select(hands.c.id, hand_players.c.seat, hands.c.table_name)
                .join(hand_players, hand_players.c.hand_id == hands.c.id)
                .join(accounts, accounts.c.id == hand_players.c.account_id)
                .where(accounts.c.name == name, hands.c.status == "complete").order_by(hands.c.id)
            )).all()
        return [(r.id, r.seat, r.table_name) for r in rows]
    finally:
        await store.close()


async def until_no_hand_is_playing(database: tuple[str, str | None], timeout: float = 60.0) -> None:
    """Wait for the hands the leaving bots were still in to end (a leaver is folded when his
    clock runs out): the counts below and the player's page must see the same hands, and a
    hand ending between the two reads would make them differ by one."""
    store = Store(*database)
    try:
        for _ in range(int(timeout / 0.2)):
            async with store.engine.connect() as conn:
                playing = (await conn.execute(
                    select(hands.c.id).where(hands.c.status == "playing"))).all()
            if not playing:
                return
            await asyncio.sleep(0.2)
        raise AssertionError(f"hands still playing after {timeout} s: {playing}")
    finally:
        await store.close()


def test_bots_figures_match_a_count_from_their_histories(tmp_path):
    database = (f"sqlite:///{tmp_path / 'room.db'}", None)
    server = Server(tmp_path, database, action_time=5.0)
    server.config.write_text(room(table("NL", seats=6, action_time=5),
                                  table("Stud", **STUD, seats=6, action_time=5),
                                  pause=0.02, registrations_per_hour=100))
    server.start()
    try:
        tables = httpx.get(f"{server.http}/api/tables").json()["tables"]
        tally = Tally()
        bots = crowd(server.http, 8, tables, strategies=["solid", "station", "random"], seed=18 + SEED,
                     tally=tally, per_table={t["name"]: 4 for t in tables})

        asyncio.run(asyncio.wait_for(play_until(bots, tally, tables, HANDS), 400))
        asyncio.run(until_no_hand_is_playing(database))
        bb = {"NL": 2, "Stud": STUD["small_bet"]}
        game = {"NL": "NLHE", "Stud": "Stud"}
        checked = 0
        with httpx.Client(base_url=server.http, timeout=30) as http:
            for bot in bots:
                auth = {"authorization": f"Bearer {bot.token}"}
                played = asyncio.run(hands_of(database, bot.name))
                parts: dict[str, list[dict[str, Any]]] = defaultdict(list)
                for hand_id, seat, table_name in played:
                    text = http.get(f"/api/hands/{hand_id}.txt", headers=auth)
                    record = http.get(f"/api/hands/{hand_id}.json", headers=auth).json()["record"]
                    parts[table_name].append(count(text.text, record, bot.name, seat))
                page = http.get(f"/api/players/{bot.name}/stats", headers=auth).json()
                assert page["own"] is True and page["complete"] is True
                expected = {game[t]: figures(p, bb[t]) for t, p in parts.items()}
                got = {g["game"]: {k: v for k, v in g.items() if k not in ("game", "net", "net_showdown")}
                       for g in page["games"]}
                assert got == expected, bot.name
                nets = [p["net"] for t in ("NL", "Stud") for p in parts.get(t, [])]
                assert sum(g["net"] for g in page["games"]) == sum(nets)
                # his graph: every hand a point (fewer than the graph keeps), from 0 to his net
                points = page["graph"]["points"]
                assert len(points) == len(played) + 1 and points[0] == [0, 0, 0]
                assert points[-1][:2] == [len(played), sum(nets)]
                at_showdown = sum(p["net"] for t in parts for p in parts[t] if p["showdown"])
                assert points[-1][2] == sum(nets) - at_showdown
                assert {s["stakes"] for s in page["stakes"]} <= {"NL 1/2", "Stud 10/20 (ante 1, bring-in 3)"}
                checked += len(played)
            # another player sees the figures only
            other = http.get(f"/api/players/{bots[0].name}/stats",
                             headers={"authorization": f"Bearer {bots[1].token}"}).json()
            assert other["own"] is False and "graph" not in other and "stakes" not in other
            assert all("net" not in g for g in other["games"]) and other["games"]
            assert http.get(f"/api/players/{bots[0].name}/stats").status_code == 401
            missing = http.get("/api/players/nobody_here/stats",
                               headers={"authorization": f"Bearer {bots[1].token}"})
            assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
        assert checked >= 2 * HANDS * 3  # each hand counted for each of its players
    finally:
        server.stop()
    assert not server.errors(), server.errors()
