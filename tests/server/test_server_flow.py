"""The room end to end on a real server: accounts, sitting down, bots playing hands to the
showdown under an observer's eyes, hand histories and their provably fair deals, the
previous hand, reconnecting in the middle of a hand, the action clock, leaving, and the
chips: after everyone leaves, every account's balance adds up to what was granted."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest

from pokerroom.fairness import verify
from tests.policies import limit_policy, passive_policy, random_policy
from tests.server.helpers import GRANT, PASSWORD, Client, Message, Players, Server, in_room, is_event, run


@pytest.fixture
def server(any_server: Server) -> Server:
    """This suite runs against `pokerroom serve` and against the cluster (issue 18)."""
    return any_server


def error_code(r: httpx.Response) -> tuple[int, str]:
    return r.status_code, r.json()["error"]["code"]


# ---------------------------------------------------------------------- accounts


def test_register_login_and_rate_limit(server: Server) -> None:
    async def scenario() -> None:
        async with httpx.AsyncClient(base_url=server.http) as http:
            for name in ("ab", "x" * 21, "two words", "semi;colon", "", 12345, None):
                r = await http.post("/api/register", json={"name": name, "password": PASSWORD})
                assert error_code(r) == (400, "bad_name"), (name, r.text)
            for password in ("short", "x" * 7, "x" * 129, 123456789, None):
                r = await http.post("/api/register", json={"name": "alice", "password": password})
                assert error_code(r) == (400, "bad_password"), (password, r.text)
            r = await http.post("/api/register", content=b"not json")
            assert error_code(r) == (400, "bad_json")
            r = await http.post("/api/register", json=["alice", PASSWORD])
            assert error_code(r) == (400, "bad_json")

            r = await http.post("/api/register", json={"name": "alice", "password": PASSWORD})
            assert r.status_code == 200
            first = r.json()
            assert first["name"] == "alice" and first["balance"] == GRANT and len(first["token"]) >= 40
            assert r.cookies.get("pokerroom_session") == first["token"]
            r = await http.get("/api/me")  # a browser: the session cookie alone
            assert r.status_code == 200 and r.json()["name"] == "alice"
            http.cookies.clear()
            r = await http.post("/api/register", json={"name": "ALICE", "password": PASSWORD})
            assert error_code(r) == (409, "name_taken")

            def me(token: str | None) -> Any:
                headers = {"Authorization": f"Bearer {token}"} if token else {}
                return http.get("/api/me", headers=headers)

            r = await me(first["token"])
            assert r.status_code == 200
            assert r.json() == {"name": "alice", "balance": GRANT, "at_tables": 0}
            assert error_code(await me(None)) == (401, "login_required")
            assert error_code(await me("not-a-token")) == (401, "login_required")

            # a name nobody has (asked from another address: failures count per address too)
            async with httpx.AsyncClient(
                base_url=server.http, transport=httpx.AsyncHTTPTransport(local_address="127.0.0.2")
            ) as elsewhere:
                r = await elsewhere.post("/api/login", json={"name": "nobody", "password": PASSWORD})
                assert error_code(r) == (401, "bad_login")

            # alice: a wrong password, then the right one
            r = await http.post("/api/login", json={"name": "alice", "password": "wrong password"})
            assert error_code(r) == (401, "bad_login")
            r = await http.post("/api/login", json={"name": "Alice", "password": PASSWORD})
            assert r.status_code == 200 and r.json()["balance"] == GRANT
            second = r.json()["token"]
            http.cookies.clear()
            assert second != first["token"]
            assert (await me(second)).json()["name"] == "alice"
            r = await http.post("/api/logout", headers={"Authorization": f"Bearer {second}"})
            assert r.json() == {"ok": True}
            assert error_code(await me(second)) == (401, "login_required")
            assert (await me(first["token"])).status_code == 200  # only that session ended
            # five failures in a minute: even the right password is refused for a while
            for _ in range(4):
                r = await http.post("/api/login", json={"name": "alice", "password": "wrong password"})
                assert error_code(r) == (401, "bad_login")
            r = await http.post("/api/login", json={"name": "alice", "password": PASSWORD})
            assert error_code(r) == (429, "too_many_attempts")
            assert (await me(first["token"])).status_code == 200  # a live session goes on
            # registering is not a login: still open, and the new account works
            for name, password in (("bob", "x" * 8), ("b" * 20, "y" * 128), ("c_-9", PASSWORD)):
                r = await http.post("/api/register", json={"name": name, "password": password})
                http.cookies.clear()
                assert r.status_code == 200, (name, r.text)
                assert (await me(r.json()["token"])).json() == {
                    "name": name,
                    "balance": GRANT,
                    "at_tables": 0,
                }

    run(scenario())


# ---------------------------------------------------------------------- playing hands

GAMES: dict[str, dict[str, Any]] = {
    # buy-ins, the table's limits, how many hands a round, the bots' policy
    "NL": {"buy_ins": [200, 150, 100], "limits": (40, 200), "hands": 10, "policy": random_policy},
    "Stud": {"buy_ins": [1000, 700, 500, 300], "limits": (200, 1000), "hands": 8, "policy": limit_policy},
}


def board_positions(n: int, board: int) -> list[int]:
    """Where the board cards lie in the deck, hold'em with n players: the hole cards go
    one at a time round the table twice, then a burn before the flop, turn and river."""
    return [2 * n + 1, 2 * n + 2, 2 * n + 3, 2 * n + 5, 2 * n + 7][:board]


async def check_histories(table: str, c: Client, outsider: Client, watcher: Client) -> int:
    """Every hand this player played, as the API gives it to him, against what he and the
    observer saw on the WebSocket; returns the sum of his nets."""
    finished = {m["event"]["number"]: m["event"] for m in watcher.events(table, "HandFinished")}
    commitments = {
        m["event"]["number"]: m["event"]["commitment"] for m in watcher.events(table, "DeckCommitted")
    }
    seat = c.seats[table]
    dealt = [m["event"]["number"] for m in c.events(table, "HandStarted") if seat in m["event"]["seats"]]
    r = await c.get("/api/hands")
    assert r.status_code == 200
    listed = r.json()["hands"]
    assert [h["number"] for h in listed] == sorted(dealt, reverse=True)
    assert [h["id"] for h in listed] == sorted((h["id"] for h in listed), reverse=True)
    total = 0
    for h in listed:
        assert h["table_name"] == table and h["seat"] == seat
        net = dict(map(tuple, finished[h["number"]]["net"]))[seat]
        assert h["net"] == net
        total += net
        r = await c.get(f"/api/hands/{h['id']}")
        assert r.status_code == 200 and r.headers["content-type"] == "application/json"
        data = r.json()
        assert (data["id"], data["table"], data["number"]) == (h["id"], table, h["number"])
        assert data["nets"][str(seat)] == net
        cards = c.hole_cards(table, h["number"])
        assert data["your_cards"] == cards and None not in cards
        assert (len(cards) == 2) if table == "NL" else (3 <= len(cards) <= 7)
        # the deal was committed before the first card, and the history proves his cards
        assert data["commitment"] == commitments[h["number"]]
        assert len(data["leaves"]) == 52
        assert verify(data["commitment"], data["leaves"], data["openings"])
        opened = {o["card"]: o["position"] for o in data["openings"]}
        board = data["record"]["board"]
        assert set(cards) | set(board) <= set(opened)
        if table == "NL":  # dealt one at a time from the first player left of the button
            order = [p["seat"] for p in data["players"]]
            n, i = len(order), order.index(seat)
            assert [opened[x] for x in cards] == [i, i + n]
            assert [opened[x] for x in board] == board_positions(n, len(board))
        forged = [dict(o) for o in data["openings"]]
        forged[0]["card"] = next(x for x in ("As", "Kd") if x != forged[0]["card"])
        assert not verify(data["commitment"], data["leaves"], forged)
        assert not verify("0" * 64, data["leaves"], data["openings"])
        # the texts, with his own cards
        r = await c.get(f"/api/hands/{h['id']}.phh")
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/toml")
        assert f"\nhand = {h['id']}\n" in r.text and f'table = "{table}"' in r.text  # room-wide id
        if table == "NL":
            assert f"d dh p{i + 1} {cards[0]}{cards[1]}" in r.text
        r = await c.get(f"/api/hands/{h['id']}.txt")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
        assert r.text.startswith(f"PokerStars Hand #{h['id']}:  ")  # the room-wide id (item 8)
        if table == "NL":
            assert f"Dealt to {c.name} [{cards[0]} {cards[1]}]" in r.text
        # nobody else reads it
        for suffix in ("", ".phh", ".txt"):
            assert error_code(await outsider.get(f"/api/hands/{h['id']}{suffix}")) == (404, "not_found")
        assert error_code(await c.get(f"/api/hands/{h['id']}.xml")) == (404, "not_found")
    return total


async def play_table(room: Players, table: str) -> None:
    game = GAMES[table]
    low, high = game["limits"]
    watcher = await room.observer(table)
    names = [f"{table.lower()}{k}x" for k in range(len(game["buy_ins"]))]
    players = [await room.player(n) for n in names]
    outsider = await room.player("outsider")
    first = players[0]
    # sitting down: what the table refuses changes nothing
    buy_in = game["buy_ins"][0]
    assert (await first.sit(table, 1, buy_in))["type"] == "ok"
    assert await first.me() == {"name": first.name, "balance": GRANT - buy_in, "at_tables": buy_in}
    second = players[1]
    refusals = [
        ({"table": table, "seat": 1, "buy_in": low}, second, "seat_taken"),
        ({"table": table, "seat": 2, "buy_in": low - 1}, second, "below_minimum"),
        ({"table": table, "seat": 2, "buy_in": high + 1}, second, "above_maximum"),
        ({"table": table, "seat": 3, "buy_in": low}, first, "already_seated"),
        ({"table": table, "seat": 2, "buy_in": low}, watcher, "login_required"),
        ({"table": "Nowhere", "seat": 2, "buy_in": low}, second, "unknown_table"),
        ({"table": table, "seat": 11, "buy_in": low}, second, "bad_message"),
        ({"table": table, "seat": 2}, second, "bad_message"),
    ]
    for fields, who, code in refusals:
        answer = await who.request({"type": "sit", **fields})
        assert answer["type"] == "error" and answer["code"] == code, (fields, answer)
    assert await second.me() == {"name": second.name, "balance": GRANT, "at_tables": 0}
    for c in (first, second):
        c.errors.clear()
    for k, c in enumerate(players[1:], start=2):
        assert (await c.sit(table, k, game["buy_ins"][k - 1]))["type"] == "ok"
    for c, b in zip(players, game["buy_ins"], strict=True):
        assert await c.me() == {"name": c.name, "balance": GRANT - b, "at_tables": b}

    # bots play until a hand reaches the showdown (nearly always the first round)
    rng = random.Random()
    for _ in range(3):
        await asyncio.gather(
            *(c.play(table, game["hands"], game["policy"], random.Random(rng.random()), low) for c in players)
        )
        if watcher.events(table, "Shown"):
            break
    assert watcher.events(table, "Shown"), "no hand reached the showdown"
    assert not any(c.errors for c in players), [c.errors for c in players]

    # the previous hand: the same record for everyone, showdown hands face up (D6)
    last = watcher.events(table, "HandFinished")[-1]["event"]["number"]
    record = await first.previous_hand(table)
    assert record is not None and record["number"] >= last
    assert await watcher.previous_hand(table) == record
    await check_record(table, record, players)

    # the observer looks again: a snapshot with no card but the stud up cards
    at, answer = await watcher.command({"type": "subscribe", "table": table})
    assert answer["type"] == "ok"
    snapshot = watcher.messages[at - 1]
    before = [m["version"] for m in watcher.messages[: at - 1] if m["type"] == "event"]
    assert snapshot["type"] == "snapshot" and snapshot["version"] == before[-1]
    view = snapshot["view"]
    assert (view["viewer"], view["seat"], view["legal"], view["options"]) == (None, None, None, None)
    assert len(view["seats"]) == len(players)
    up = {m["event"]["card"] for m in watcher.events(table, "HoleDealt") if m["event"]["face_up"]}
    assert all(x is None or x in up for s in view["seats"] for x in s["cards"]), view

    # leaving: the stack goes back to the balance, exactly
    stacks = {}
    for c, left in zip(players, await asyncio.gather(*(c.leave(table) for c in players)), strict=True):
        assert left["player"] == c.name and left["reason"] == "left"
        stacks[c.name] = left["stack"]
    topped = {c.name: 0 for c in players}
    for m in watcher.events(table, "ChipsAdded"):
        topped[m["event"]["player"]] += m["event"]["amount"]
    for c, b in zip(players, game["buy_ins"], strict=True):
        assert await c.me() == {
            "name": c.name,
            "balance": GRANT - b - topped[c.name] + stacks[c.name],
            "at_tables": 0,
        }

    # what the observer saw: every event, no hidden card
    check_observer(table, watcher, players)
    for c in players:
        check_own_cards(table, c)

    # the histories; the nets of a player's hands are what he won or lost
    for c, b in zip(players, game["buy_ins"], strict=True):
        net = await check_histories(table, c, outsider, watcher)
        assert net == stacks[c.name] - b - topped[c.name]
    assert error_code(await first.get("/api/hands/999999")) == (404, "not_found")
    assert error_code(await first.get("/api/hands/abc")) == (404, "not_found")
    assert error_code(await watcher.get("/api/hands")) == (401, "login_required")

    # no chip lost: all the balances hold all the grants
    balances = [await c.balance() for c in [*players, outsider]]
    assert sum(balances) == GRANT * (len(players) + 1)


async def check_record(table: str, record: Message, players: list[Client]) -> None:
    """The previous-hand record shows the hands that reached the showdown, shown or
    mucked, and no other down card (D6)."""
    by_seat = {c.seats[table]: c for c in players}
    assert {p["seat"] for p in record["players"]} <= set(by_seat)
    for p in record["players"]:
        owner = by_seat[p["seat"]]
        cards = owner.hole_cards(table, record["number"])
        assert p["player"] == owner.name
        if p["reached_showdown"]:
            assert p["cards"] == cards and not p["folded"]
        elif table == "NL":
            assert p["cards"] == [None, None]
        else:  # stud: the up cards stay up, the down cards stay down
            dealt = owner.hole_dealt(table, record["number"])
            up = [x for x, e in zip(cards, dealt, strict=True) if e["face_up"]]
            assert [x for x in p["cards"] if x is not None] == up
            assert len(p["cards"]) == len(cards)


def check_observer(table: str, watcher: Client, players: list[Client]) -> None:
    """The observer got every event, in order, and never a hidden card."""
    events = watcher.events(table)
    snapshots = [m for m in watcher.messages if m["type"] == "snapshot"]
    # from the first view on (version 0 under `serve`; in a cluster a table that changed
    # workers before the test numbers its events on from its new owner's start)
    assert snapshots and snapshots[0]["version"] % 1_000_000 == 0
    first = snapshots[0]["version"] + 1
    assert [m["version"] for m in events] == list(range(first, first + len(events)))
    # the players saw the same events (their own cards apart)
    for c in players:
        mine = {m["version"]: m["event"] for m in c.events(table)}
        assert mine
        for m in events:
            if m["version"] in mine and m["event"] != mine[m["version"]]:
                e = m["event"]
                assert e["type"] in ("HoleDealt", "Mucked") and e["player"] == c.seats[table], (m, c.name)
    kinds = {m["event"]["type"] for m in events}
    assert {"Seated", "DeckCommitted", "HandStarted", "HoleDealt", "TurnStarted", "Acted", "Shown"} <= kinds
    assert {"PotAwarded", "HandFinished", "Left"} <= kinds
    for m in events:
        e = m["event"]
        if e["type"] == "HoleDealt":
            assert (e["card"] is not None) == e["face_up"], m
        elif e["type"] == "Mucked":
            assert e["cards"] == [], m


def check_own_cards(table: str, c: Client) -> None:
    """A player's own face-down cards come to him; the others' come as null."""
    seat = c.seats[table]
    own = others = 0
    for m in c.events(table, "HoleDealt"):
        e = m["event"]
        if e["player"] == seat:
            assert e["card"] is not None, m
            own += 1
        elif not e["face_up"]:
            assert e["card"] is None, m
            others += 1
    assert own and others


@pytest.mark.parametrize("table", ["NL", "Stud"])
def test_bots_play_to_showdown_with_histories_and_no_chip_lost(server: Server, table: str) -> None:
    in_room(server, lambda room: play_table(room, table))


# ---------------------------------------------------------------------- reconnecting


def test_reconnect_mid_hand_replays_missed_events_or_a_snapshot(server: Server) -> None:
    async def scenario(room: Players) -> None:
        watcher = await room.observer("NL")
        anna, boris = await room.player("anna"), await room.player("boris")
        assert (await anna.sit("NL", 1, 200))["type"] == "ok"
        assert (await boris.sit("NL", 2, 200))["type"] == "ok"
        bot = asyncio.create_task(anna.play("NL", 10**6, passive_policy))
        try:
            # boris gets his two cards, and goes away in the middle of the hand
            _, started = await boris.wait_for(is_event("NL", "HandStarted"))
            number = started["event"]["number"]
            await boris.wait_for(lambda m: len(boris.hole_cards("NL", number)) == 2)
            since = boris.versions["NL"]
            cards = boris.hole_cards("NL", number)
            assert None not in cards
            await boris.close()

            # his seat stays; his clock runs as usual, and the table acts for him: a check,
            # or all-in protection (D7, the default: anna never raises, so he faces at most
            # the big blind with his own blind in)
            _, timed = await watcher.wait_for(is_event("NL", "TimedOut", seat=2), timeout=10)
            assert timed["event"]["player"] == "boris" and timed["event"]["action"] in ("check", "protected")
            assert not watcher.events("NL", "Left")

            # back (logged in afresh) with the last version seen: exactly the events
            # missed, then live ones
            r = await boris.login()
            assert r.status_code == 200 and r.json()["balance"] == GRANT - 200
            welcome = await boris.connect()
            assert welcome["balance"] == GRANT - 200
            start = boris.mark()
            at, answer = await boris.command({"type": "subscribe", "table": "NL", "since": since})
            assert answer["type"] == "ok"
            missed = [m for m in boris.messages[start:at] if m["type"] == "event"]
            turns = boris.messages[start + len(missed) : at]  # his turn, if it is
            assert missed and all(m["type"] == "your_turn" for m in turns) and len(turns) <= 1, turns
            versions = [m["version"] for m in missed]
            assert versions == list(range(since + 1, since + 1 + len(missed)))
            assert any(m["event"]["type"] == "TimedOut" and m["event"]["seat"] == 2 for m in missed)
            await watcher.wait_for(lambda m: m["type"] == "event" and m["version"] >= versions[-1])
            seen = {m["version"]: m["event"] for m in watcher.events("NL")}
            for m in missed:
                e = m["event"]
                if e["type"] == "HoleDealt" and e["player"] == 2:  # his own new cards
                    assert e["card"] is not None and seen[m["version"]] == {**e, "card": None}
                else:
                    assert seen[m["version"]] == e, (m, seen[m["version"]])
            # live events go on from there, without a gap
            for turn in turns:
                action, _ = passive_policy(turn["legal"], random.Random())
                assert (await boris.act("NL", action))["type"] == "ok"
            _, live = await boris.wait_for(lambda m: m["type"] == "event", start=at)
            assert live["version"] == versions[-1] + 1

            # away again on his turn; back without a version: a snapshot with his cards
            _, turn = await boris.wait_for(lambda m: m["type"] == "your_turn", start=at)
            hand = [m for m in boris.events("NL", "HandStarted")][-1]["event"]["number"]
            cards = boris.hole_cards("NL", hand)
            assert len(cards) == 2 and None not in cards
            version = boris.versions["NL"]
            await boris.close()
            await boris.connect()
            start = boris.mark()
            at, answer = await boris.command({"type": "subscribe", "table": "NL"})
            assert answer["type"] == "ok"
            snapshot, again = boris.messages[start:at]
            view = snapshot["view"]
            # nothing happened meanwhile: it is his turn
            assert snapshot["type"] == "snapshot" and snapshot["version"] == version
            assert (view["viewer"], view["seat"], view["phase"], view["hand_number"]) == (
                "boris",
                2,
                "playing",
                hand,
            )
            assert view["actor"] == 2 and view["legal"] is not None
            seats = {s["seat"]: s for s in view["seats"]}
            assert seats[2]["cards"] == cards and seats[1]["cards"] == [None, None]
            assert (
                again["type"] == "your_turn"
                and again["deadline"] == turn["deadline"]
                and again["legal"] == turn["legal"]
            )
            action, _ = passive_policy(again["legal"], random.Random())
            assert (await boris.act("NL", action))["type"] == "ok"
            assert watcher.events("NL", "Left") == []
        finally:
            bot.cancel()
            await asyncio.gather(bot, return_exceptions=True)
        await asyncio.gather(anna.leave("NL"), boris.leave("NL"))
        assert await anna.balance() + await boris.balance() == 2 * GRANT

    in_room(server, scenario)


# ---------------------------------------------------------------------- the clock


def test_the_clock_acts_for_a_silent_player_then_sits_him_out(server: Server) -> None:
    async def scenario(room: Players) -> None:
        watcher = await room.observer("NL")
        anna, boris, cyril = [await room.player(n) for n in ("anna", "boris", "cyril")]
        for seat, c in enumerate((anna, boris, cyril), start=1):
            assert (await c.sit("NL", seat, 100))["type"] == "ok"
        bots = [asyncio.create_task(c.play("NL", 10**6, passive_policy)) for c in (anna, boris)]
        try:
            at = seen = 0
            for _ in range(2):
                # cyril's turn comes, he says nothing: after the action time the table
                # checks for him when it can, else (D7, the default timeout policy) keeps
                # him in by all-in protection when he has chips in the pot (the small blind
                # facing the big: nobody raises), else folds
                i, turn = await cyril.wait_for(lambda m: m["type"] == "your_turn", start=at)
                started = is_event("NL", "TurnStarted", seat=3, deadline=turn["deadline"])
                _, begun = await watcher.wait_for(started, start=seen)
                assert begun["event"]["deadline"] - begun["event"]["started"] == pytest.approx(2.0)
                j, timed = await watcher.wait_for(is_event("NL", "TimedOut", seat=3), timeout=5, start=seen)
                legal = turn["legal"]
                expected = "check" if legal["check"] else "protected" if legal["call"] < 2 else "fold"
                assert timed["event"] == {
                    "type": "TimedOut",
                    "seat": 3,
                    "player": "cyril",
                    "action": expected,
                }
                assert watcher.received[j][0] >= turn["deadline"]
                _, acted = await watcher.wait_for(is_event("NL", version=timed["version"] + 1), start=j)
                assert acted["event"]["type"] == "Acted"
                assert (acted["event"]["player"], acted["event"]["action"]) == (3, expected)
                at, seen = i + 1, j + 1
            # two timeouts in a row: he sits out, keeps his seat, and is dealt no more
            _, sat = await watcher.wait_for(is_event("NL", "SatOut", seat=3), start=seen)
            assert sat["event"] == {"type": "SatOut", "seat": 3, "player": "cyril", "reason": "timeouts"}
            k, nxt = await watcher.wait_for(is_event("NL", "HandStarted"), start=seen)
            assert nxt["version"] > sat["version"]
            assert 3 not in nxt["event"]["seats"] and len(nxt["event"]["seats"]) == 2
            await watcher.wait_for(is_event("NL", "HandFinished", number=nxt["event"]["number"]), start=k)
            assert not [m for m in cyril.messages[at:] if m["type"] == "your_turn"]
            assert not watcher.events("NL", "Left")
            # and comes back when he says so
            mark = watcher.mark()
            assert (await cyril.request({"type": "sit_in", "table": "NL"}))["type"] == "ok"
            _, back = await watcher.wait_for(is_event("NL", "SatIn", seat=3), start=mark)
            assert back["event"]["player"] == "cyril"
        finally:
            for b in bots:
                b.cancel()
            await asyncio.gather(*bots, return_exceptions=True)
        stacks = [
            left["stack"] for left in await asyncio.gather(*(c.leave("NL") for c in (anna, boris, cyril)))
        ]
        assert sum(stacks) == 300
        assert sum([await c.balance() for c in (anna, boris, cyril)]) == 3 * GRANT

    in_room(server, scenario)


# ---------------------------------------------------------------------- the previous hand

HAND_EVENTS = (
    "Posted",
    "HoleDealt",
    "BoardDealt",
    "Acted",
    "UncalledReturned",
    "StreetEnded",
    "Shown",
    "Mucked",
    "PotAwarded",
    "Reshuffled",
)


def test_previous_hand_record_events_are_the_hands_events_with_their_types(server: Server) -> None:
    """The record's events are the hand's events as the observer saw them, the hands that
    reached the showdown face up (D6), and, like every event, each says what it is."""

    async def scenario(room: Players) -> None:
        watcher = await room.observer("NL")
        anna, boris = await room.player("anna"), await room.player("boris")
        assert (await anna.sit("NL", 1, 100))["type"] == "ok"
        assert (await boris.sit("NL", 2, 100))["type"] == "ok"
        # two passive players: every hand goes to the showdown
        await asyncio.gather(*(c.play("NL", 1, passive_policy) for c in (anna, boris)))
        record = await watcher.previous_hand("NL")
        assert record is not None and record["number"] == 1
        await asyncio.gather(anna.leave("NL"), boris.leave("NL"))
        inside, seen = False, []
        for m in watcher.events("NL"):
            e = m["event"]
            inside = inside or e["type"] == "HandStarted"
            if e["type"] == "HandFinished":
                break
            if inside and e["type"] in HAND_EVENTS:
                seen.append(e)
        holes = {c.seats["NL"]: c.hole_cards("NL", 1) for c in (anna, boris)}
        assert {p["seat"]: p["cards"] for p in record["players"]} == holes
        revealed = []
        dealt = {1: iter(holes[1]), 2: iter(holes[2])}
        for e in seen:  # both reached the showdown: their cards are in the record
            if e["type"] == "HoleDealt":
                e = {**e, "card": next(dealt[e["player"]])}
            elif e["type"] == "Mucked":
                e = {**e, "cards": holes[e["player"]]}
            revealed.append(e)
        untyped = [{k: v for k, v in e.items() if k != "type"} for e in revealed]
        assert [{k: v for k, v in e.items() if k != "type"} for e in record["events"]] == untyped
        untyped_events = [e for e in record["events"] if "type" not in e]
        assert not untyped_events, f"the record's events do not say what they are: {untyped_events[:4]}"
        assert [e["type"] for e in record["events"]] == [e["type"] for e in revealed]

    in_room(server, scenario)
