"""No hidden card ever reaches a connection that may not see it (issue 6, D6, DESIGN.md
invariant 3).

Bots play over a hundred hands of NL and Stud (hundreds under ``make soak``) on a real
server, four players a table and an anonymous observer on each, while every connection
records every raw message it receives. Now and then the bots re-subscribe (snapshots),
reconnect and catch up with ``since`` (replayed events), and ask for the previous hand;
some of them answer the showdown themselves (show or muck) instead of auto-mucking.
Afterwards the secrets of every hand are rebuilt from the message streams and from the
stored histories (each hand fetched as each of its players): a player's down cards may
appear in a message to another connection only once they were Shown in that hand, or,
after the hand ended, if he reached the showdown (D6). Every raw message, and every
history served to each player, is scanned for card texts.
"""

from __future__ import annotations

import asyncio
import bisect
import json
import math
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from pokerroom.fairness import verify
from tests import rooms
from tests.policies import limit_policy, random_policy
from tests.server.helpers import Client, Message, Server, is_event, run
from tests.soak import SEED, share, size


@pytest.fixture
def server(any_server: Server) -> Server:
    """This suite runs against `pokerroom serve` and against the cluster (issue 18)."""
    return any_server

# a card as the server writes it ('As', 'Td'): not part of a longer word or hex digest
CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][cdhs](?![A-Za-z0-9])")
PLAYERS = 4
TABLES = {  # table: (hands to play, buy-in); the long run under make soak
    "NL": (size(70, 170), 200),
    "Stud": (size(55, 135), 1000),
}
PLANNED = sum(hands for hands, _ in TABLES.values())


def need(count: int) -> int:
    """A threshold set for the long run's 305 hands, scaled to this run's."""
    return share(count, 305, PLANNED)
SEATS = (1, 2, 4, 5)


@dataclass
class HandInfo:
    table: str
    number: int
    start: int  # the version of its DeckCommitted
    commitment: str
    end: int = 0  # the version of its HandFinished
    seats: tuple[int, ...] = ()
    names: dict[int, str] = field(default_factory=dict)  # seat -> player
    up: dict[int, list[str]] = field(default_factory=dict)  # stud up cards, seen by all
    down: dict[int, set[str]] = field(default_factory=dict)  # seat -> his face-down cards
    dealt: dict[int, list[str]] = field(default_factory=dict)  # seat -> every card, in order
    shown_at: dict[int, int] = field(default_factory=dict)  # seat -> version of his Shown
    shown: dict[int, list[str]] = field(default_factory=dict)
    mucked: set[int] = field(default_factory=set)
    folded: set[int] = field(default_factory=set)
    hand_id: int | None = None

    @property
    def reached(self) -> set[int]:
        """The seats that reached the showdown: those left when two or more were."""
        left = set(self.seats) - self.folded
        return left if len(left) > 1 else set()

    def seat_of(self, name: str | None) -> int | None:
        return next((s for s, n in self.names.items() if n == name), None)

    def secret(self, viewer: str | None, version: float) -> set[str]:
        """The cards of this hand that ``viewer`` may not see at ``version`` (math.inf:
        after the hand)."""
        mine = self.seat_of(viewer)
        out: set[str] = set()
        for s in self.seats:
            if s == mine or (s in self.shown_at and self.shown_at[s] <= version):
                continue
            if version >= self.end and s in self.reached:
                continue  # D6: hands that reached the showdown are revealed afterwards
            out |= self.down[s]
        return out


def parse_hands(observer: Client, table: str) -> list[HandInfo]:
    """The hands of ``table`` from an observer that watched it from the start."""
    hands: list[HandInfo] = []
    names: dict[int, str] = {}
    hand: HandInfo | None = None
    for m in observer.events(table):
        e, v = m["event"], m["version"]
        kind = e["type"]
        if kind == "Seated":
            names[e["seat"]] = e["player"]
        elif kind == "Left":
            del names[e["seat"]]
        elif kind == "DeckCommitted":
            assert hand is None
            hand = HandInfo(table, e["number"], v, e["commitment"])
        elif kind == "HandStarted":
            assert hand is not None and e["number"] == hand.number
            hand.seats = tuple(e["seats"])
            hand.names = {s: names[s] for s in hand.seats}
            hand.up = {s: [] for s in hand.seats}
            hand.down = {s: set() for s in hand.seats}
        elif kind == "HoleDealt":
            assert hand is not None
            if e["face_up"]:
                assert e["card"] is not None, m
                hand.up[e["player"]].append(e["card"])
            else:
                assert e["card"] is None, f"the observer saw a down card: {m}"
        elif kind == "Acted" and e["action"] == "fold":
            assert hand is not None
            hand.folded.add(e["player"])
        elif kind == "Shown":
            assert hand is not None
            hand.shown_at.setdefault(e["player"], v)
            hand.shown[e["player"]] = e["cards"]
        elif kind == "Mucked":
            assert hand is not None and e["cards"] == [], f"the observer saw mucked cards: {m}"
            hand.mucked.add(e["player"])
        elif kind == "HandFinished":
            assert hand is not None and e["number"] == hand.number
            hand.end = v
            hands.append(hand)
            hand = None
    assert hand is None, "a hand was still being played"
    return hands


def check_versions(client: Client, table: str) -> None:
    """Event versions rise by one (a snapshot says where they continue)."""
    last: int | None = None
    for m in client.messages:
        if m.get("table") != table or m["type"] not in ("event", "snapshot"):
            continue
        if m["type"] == "snapshot":
            assert last is None or m["version"] == last, (client.name, last, m["version"])
        else:
            assert last is None or m["version"] == last + 1, (client.name, last, m["version"])
        last = m["version"]


async def bot(client: Client, table: str, hands: int, rebuy: int, rng: random.Random) -> None:
    async def on_turn(m: Message) -> None:
        if rng.random() < 0.03:  # a fresh snapshot in the middle of a hand
            await client.send({"type": "subscribe", "table": table})

    async def on_finished(m: Message) -> None:
        if rng.random() < 0.2:
            await client.send({"type": "previous_hand", "table": table})
        if rng.random() < 0.03:  # away for a moment: back with the missed events
            await client.close()
            await client.connect()
            await client.send({"type": "subscribe", "table": table, "since": client.versions[table]})

    policy = random_policy if table == "NL" else limit_policy
    await client.play(table, hands, policy, rng, rebuy, on_turn=on_turn, on_finished=on_finished)


async def watch(observer: Client, table: str, hands: int) -> None:
    i = observer.mark()
    for k in range(hands):
        i, _ = await observer.wait_for(is_event(table, "HandFinished"), 30.0, i)
        i += 1
        await observer.send({"type": "previous_hand", "table": table})
        if k % 9 == 4:
            await observer.send({"type": "subscribe", "table": table})
        if k % 25 == 12:
            await observer.close()
            await observer.connect(anonymous=True)
            await observer.send({"type": "subscribe", "table": table, "since": observer.versions[table]})
            await observer.send({"type": "lobby"})


async def scenario(server: Server) -> dict[str, Any]:
    t0 = time.monotonic()
    rng = random.Random(SEED)
    observers = {t: Client(server.http, server.ws) for t in TABLES}
    players = {
        t: [Client(server.http, server.ws, f"{t.lower()}bot{k}") for k in range(PLAYERS)] for t in TABLES
    }
    everyone = [*observers.values(), *(c for cs in players.values() for c in cs)]
    try:
        for table, observer in observers.items():
            assert (await observer.connect(anonymous=True))["player"] is None
            assert (await observer.subscribe(table))["type"] == "ok"
            await observer.send({"type": "lobby"})  # the table list and its updates too
            await observer.wait_for(lambda m: m["type"] == "lobby")
        for table, clients in players.items():
            for k, c in enumerate(clients):
                assert (await c.register()).status_code == 200
                await c.connect()
                assert (await c.sit(table, SEATS[k], TABLES[table][1]))["type"] == "ok"
                if k % 2:  # these answer the showdown themselves: show or muck
                    answer = await c.request({"type": "options", "table": table, "auto_muck": False})
                    assert answer["type"] == "ok", answer
        await asyncio.gather(
            *(watch(observers[t], t, TABLES[t][0]) for t in TABLES),
            *(
                bot(c, t, TABLES[t][0], TABLES[t][1], random.Random(rng.random()))
                for t, cs in players.items()
                for c in cs
            ),
        )
        played = time.monotonic() - t0
        await asyncio.gather(*(c.leave(t) for t, cs in players.items() for c in cs))
        for table, observer in observers.items():
            for c in players[table]:
                await observer.wait_for(is_event(table, "Left", player=c.name))
        # the observers' last requests are answered before their own unsubscribe
        for table, observer in observers.items():
            assert (await observer.request({"type": "unsubscribe", "table": table}))["type"] == "ok"
        hands = {t: parse_hands(observers[t], t) for t in TABLES}
        histories = await fetch_histories(hands, players)
        return {
            "hands": hands,
            "histories": histories,
            "clients": everyone,
            "players": players,
            "observers": observers,
            "played": played,
            "totals": sum([await c.balance() for cs in players.values() for c in cs]),
        }
    finally:
        for c in everyone:
            await c.aclose()


async def fetch_histories(
    hands: dict[str, list[HandInfo]], players: dict[str, list[Client]]
) -> dict[tuple[str, int, str], tuple[dict[str, Any], str, str]]:
    """Every stored hand as each of its players gets it: (json, phh, txt) by (table,
    number, player); the texts of every other hand where another player's cards stay
    hidden. Hand ids are found by asking for 1, 2, ... as the players in turn."""
    by_name = {c.name: c for cs in players.values() for c in cs}
    # the first player of each table first: he is in most of its hands
    everyone = sorted(by_name.values(), key=lambda c: (c.name or "")[-1])
    total = sum(len(h) for h in hands.values())
    index = {(h.table, h.number): h for hs in hands.values() for h in hs}
    out: dict[tuple[str, int, str], tuple[dict[str, Any], str, str]] = {}
    gate = asyncio.Semaphore(8)

    async def get_json(client: Client, hand_id: int) -> dict[str, Any] | None:
        async with gate:
            r = await client.get(f"/api/hands/{hand_id}")
        if r.status_code == 404:
            assert r.json()["error"]["code"] == "not_found"
            return None
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    async def texts(client: Client, hand_id: int) -> tuple[str, str]:
        async with gate:
            phh = await client.get(f"/api/hands/{hand_id}.phh")
            txt = await client.get(f"/api/hands/{hand_id}.txt")
        assert phh.status_code == txt.status_code == 200
        return phh.text, txt.text

    async def as_player(name: str, hand_id: int, data: dict[str, Any] | None) -> None:
        client = by_name[name]
        if data is None:
            data = await get_json(client, hand_id)
            assert data is not None, (hand_id, name)
        hand = index[(data["table"], data["number"])]
        hidden = [s for s in hand.seats if s not in hand.reached and hand.names[s] != name]
        # the texts can leak only where another player's cards stay hidden for good: those
        # of every other such hand are read (time)
        pair = await texts(client, hand_id) if hidden and hand.number % 2 == 0 else ("", "")
        out[(hand.table, hand.number, name)] = (data, *pair)

    async def locate(hand_id: int) -> None:
        for client in everyone:
            data = await get_json(client, hand_id)
            if data is not None:
                break
        else:
            raise AssertionError(f"hand {hand_id} is nobody's")
        hand = index[(data["table"], data["number"])]
        assert hand.hand_id is None
        hand.hand_id = hand_id
        names = [p["name"] for p in data["players"]]
        assert sorted(names) == sorted(hand.names.values())
        await asyncio.gather(*(as_player(n, hand_id, data if n == client.name else None) for n in names))

    await asyncio.gather(*(locate(i) for i in range(1, total + 1)))
    assert all(h.hand_id is not None for h in index.values())
    for name, client in by_name.items():  # nobody gets a hand that is not his
        hand = next(h for hs in hands.values() for h in hs if name not in h.names.values())
        assert (await client.get(f"/api/hands/{hand.hand_id}")).status_code == 404
    return out


def learn_cards(hands: dict[str, list[HandInfo]], players: dict[str, list[Client]], histories: Any) -> None:
    """Each player's cards, from his own stream, checked against his stored history, and
    each player's HoleDealt events: his own carry cards, the others' down cards null."""
    for table, clients in players.items():
        by_number = {h.number: h for h in hands[table]}
        for client in clients:
            hand: HandInfo | None = None
            for m in client.events(table):
                e = m["event"]
                if e["type"] == "HandStarted":
                    hand = by_number[e["number"]]
                elif e["type"] == "HandFinished":
                    hand = None
                elif e["type"] == "HoleDealt":
                    assert hand is not None
                    if hand.seat_of(client.name) == e["player"]:
                        assert e["card"] is not None, (client.name, m, _context(client, m))
                        hand.dealt.setdefault(e["player"], []).append(e["card"])
                        if not e["face_up"]:
                            hand.down[e["player"]].add(e["card"])
                    elif e["face_up"]:
                        assert e["card"] is not None, (client.name, m, _context(client, m))
                    else:
                        assert e["card"] is None, f"{client.name} saw another's card: {m}"
    for table_hands in hands.values():
        for hand in table_hands:
            for seat, name in hand.names.items():
                data = histories[(hand.table, hand.number, name)][0]
                assert data["your_cards"] == hand.dealt[seat], (hand.number, name)
                assert hand.down[seat] == set(data["your_cards"]) - set(hand.up[seat])
                if hand.table == "NL":
                    assert len(hand.down[seat]) == 2 and not hand.up[seat]
                if seat in hand.shown:
                    assert hand.shown[seat] == data["your_cards"]


def _context(client: Client, message: Message) -> list[Any]:
    """What came before ``message`` on ``client``'s stream (for a failure's report): the
    welcome of its connection and the messages just before."""
    at = next(i for i, m in enumerate(client.messages) if m is message)
    welcome = next((m for m in reversed(client.messages[:at]) if m["type"] == "welcome"), None)
    before = [(m["type"], m.get("version"), m.get("event", {}).get("type"))
              for m in client.messages[max(0, at - 12) : at]]
    return [welcome, *before]


def check_histories(hands: dict[str, list[HandInfo]], histories: Any) -> int:
    """The stored histories agree with the streams, prove their cards, and show each
    reader only what D6 lets him see. Returns how many texts were scanned."""
    scanned = 0
    for table_hands in hands.values():
        for hand in table_hands:
            for name in hand.names.values():
                data, phh, txt = histories[(hand.table, hand.number, name)]
                assert data["commitment"] == hand.commitment
                assert verify(data["commitment"], data["leaves"], data["openings"])
                opened = {o["card"] for o in data["openings"]}
                assert set(data["your_cards"]) <= opened
                record = data["record"]
                reached = {p["seat"] for p in record["players"] if p["reached_showdown"]}
                assert reached == hand.reached, (hand.table, hand.number, reached, hand.reached)
                secret = hand.secret(name, math.inf)
                assert not secret & opened, (hand.table, hand.number, name)
                for text in (phh, txt, _without_digests(data)):
                    if not text:
                        continue
                    leaked = set(CARD.findall(text)) & secret
                    where = f"{hand.table} #{hand.number}"
                    assert not leaked, f"{name} reads {leaked} in the history of {where}: {text[:3000]}"
                    scanned += 1
    return scanned


def _without_digests(data: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in data.items() if k not in ("leaves", "commitment")})


def scan_messages(clients: list[Any], hands: dict[str, list[HandInfo]]) -> tuple[int, list[str]]:
    """Every raw message against the secrets of the hand it belongs to at that moment:
    (messages scanned, the leaks found)."""
    starts = {t: [h.start for h in hs] for t, hs in hands.items()}
    numbers = {t: {h.number: h for h in hs} for t, hs in hands.items()}

    def hand_at(table: str, version: int) -> HandInfo | None:
        k = bisect.bisect_right(starts[table], version) - 1
        return hands[table][k] if k >= 0 else None

    scanned = 0
    leaks: list[str] = []
    for client in clients:
        last: dict[str, int] = {}
        for (_, text), m in zip(client.received, client.messages, strict=True):
            scanned += 1
            cards = set(CARD.findall(text))
            if m["type"] in ("event", "snapshot"):
                last[m["table"]] = m["version"]
                contexts = [(hand_at(m["table"], m["version"]), m["version"])]
            elif m["type"] == "previous_hand":
                record = m["hand"]
                contexts = [(numbers[m["table"]][record["number"]], math.inf)] if record else []
            else:  # ok, error, your_turn...: where the connection is in the table's stream
                tables = [m["table"]] if "table" in m else list(last)
                contexts = [(hand_at(t, last[t]), last[t]) for t in tables if t in last]
            for hand, version in contexts:
                if hand is None:
                    continue
                leaked = cards & hand.secret(client.name, version)
                if leaked:
                    who = client.name or "an observer"
                    leaks.append(f"{who} got {sorted(leaked)} of {hand.table} #{hand.number}: {text}")
    return scanned, leaks


def doctored(observer: Client, hands: list[HandInfo]) -> SimpleNamespace:
    """The observer's stream with leaks put in, to show that ``scan_messages`` finds them:
    a face-down card filled in, a card shown before its Shown event, and a previous-hand
    record giving away a folded hand."""
    folded = next(h for h in hands if set(h.seats) - h.reached - set(h.shown))
    loser = next(s for s in folded.seats if s not in folded.reached)
    shown = next(h for h in hands if h.shown)
    seat, at = next(iter(shown.shown_at.items()))
    dealt = next(
        m
        for m in observer.events(folded.table, "HoleDealt")
        if folded.start < m["version"] < folded.end and m["event"]["player"] == loser
    )
    card = sorted(folded.down[loser])[0]
    early = {
        "type": "event",
        "table": shown.table,
        "version": at - 1,
        "event": {"type": "Shown", "player": seat, "cards": shown.shown[seat], "forced": False},
    }
    record = {
        "type": "previous_hand",
        "table": folded.table,
        "hand": {"number": folded.number, "players": [{"seat": loser, "cards": [card, None]}]},
    }
    messages = [
        {**dealt, "event": {**dealt["event"], "card": card}},
        early,
        record,
    ]
    return SimpleNamespace(
        name=None, messages=messages, received=[(0.0, json.dumps(m, separators=(",", ":"))) for m in messages]
    )


def test_no_hidden_card_reaches_anyone_before_d6_allows(server: Server) -> None:
    t0 = time.monotonic()
    result: dict[str, Any] = run(scenario(server))  # type: ignore[assignment]
    hands, histories, clients = result["hands"], result["histories"], result["clients"]
    players = result["players"]
    for table in TABLES:
        for c in [result["observers"][table], *players[table]]:
            check_versions(c, table)
    learn_cards(hands, players, histories)
    histories_scanned = check_histories(hands, histories)
    messages, leaks = scan_messages(clients, hands)
    assert not leaks, f"{len(leaks)} leaks, the first: {leaks[:5]}"
    for table in TABLES:  # the scan does find leaks
        _, found = scan_messages([doctored(result["observers"][table], hands[table])], hands)
        assert len(found) == 3, found
    total_hands = sum(len(h) for h in hands.values())
    showdowns = sum(1 for hs in hands.values() for h in hs if h.reached)
    mucked = sum(len(h.mucked) for hs in hands.values() for h in hs)
    folded_down = sum(
        len(h.down[s]) for hs in hands.values() for h in hs for s in h.seats if s not in h.reached
    )
    kinds = Counter(m["type"] for c in clients for m in c.messages)
    reconnects = kinds["welcome"] - len(clients)
    print(
        f"\nleak test: {total_hands} hands ({', '.join(f'{t} {len(h)}' for t, h in hands.items())}), "
        f"{showdowns} showdowns, {mucked} mucked hands, {folded_down} never-revealed down cards; "
        f"{messages} messages ({kinds['snapshot']} snapshots, {kinds['previous_hand']} previous hands, "
        f"{reconnects} reconnections, {kinds['lobby']} lobby lists) and "
        f"{histories_scanned} histories scanned; "
        f"play {result['played']:.1f} s, all {time.monotonic() - t0:.1f} s"
    )
    assert all(not c.errors for c in clients), [c.errors for c in clients if c.errors]
    assert len(hands["NL"]) >= TABLES["NL"][0] and len(hands["Stud"]) >= TABLES["Stud"][0]
    assert total_hands >= PLANNED
    assert showdowns >= need(50) and mucked >= need(5) and folded_down >= need(100)
    assert messages >= need(50_000)
    assert kinds["snapshot"] >= need(30) and kinds["previous_hand"] >= need(300)
    assert reconnects >= need(10) and kinds["lobby"] >= need(20)
    assert histories_scanned >= 3 * total_hands
    # no chips lost: everyone left, balances hold every grant
    assert result["totals"] == 10_000 * PLAYERS * len(TABLES)


ALL_IN_STUD = rooms.room(
    rooms.table("Short", **rooms.STUD, seats=2, min_buy_in=5, max_buy_in=1000, action_time=10), pause=0.05
)


def test_a_player_who_leaves_all_in_sees_his_own_last_cards(tmp_path: Path) -> None:
    """Stud heads-up: Bo goes all in for his short stack, asks to leave (he goes when the
    hand ends), and Al's call runs the hand out. The 7th-street down card dealt to Bo and
    his leaving come in one batch of events; the card was his, yet before the fix it went
    to him hidden (the owner of a private event was looked up among the seats after the
    batch, where Bo no longer was). Seen as a rare failure of the leak test above."""
    server = Server(tmp_path, (f"sqlite:///{tmp_path / 'room.db'}", None))
    server.config.write_text(ALL_IN_STUD)
    server.start()

    async def main() -> list[Message]:
        al, bo = Client(server.http, server.ws, "Allan"), Client(server.http, server.ws, "Boris")
        marks = {}
        try:
            for c, seat, chips in ((al, 1, 1000), (bo, 2, 5)):
                assert (await c.register()).status_code == 200
                await c.connect()
                assert (await c.sit("Short", seat, chips))["type"] == "ok"
                marks[c.name] = 0

            async def turn() -> tuple[Client, Message]:
                """The next your_turn either of them gets."""
                deadline = time.monotonic() + 30
                while time.monotonic() < deadline:
                    for c in (al, bo):
                        for i in range(marks[c.name], len(c.messages)):
                            if c.messages[i]["type"] == "your_turn":
                                marks[c.name] = i + 1
                                return c, c.messages[i]["legal"]
                        marks[c.name] = len(c.messages)
                    await asyncio.sleep(0.02)
                raise AssertionError("nobody's turn")

            while True:  # Bo puts in all he has with Al to act after him; Al brings in or checks
                who, legal = await turn()
                if who is bo and legal.get("max_to"):
                    verb = "raise" if legal.get("call") else ("complete" if legal.get("bring_in") else "bet")
                    act = {"type": "act", "table": "Short", "action": verb, "amount": legal["max_to"]}
                    assert (await bo.request(act))["type"] == "ok", legal
                    break
                verb = "bring_in" if legal.get("bring_in") else ("check" if legal.get("check") else "call")
                assert (await who.request({"type": "act", "table": "Short", "action": verb}))["type"] == "ok"
            assert (await bo.request({"type": "leave", "table": "Short"}))["type"] == "ok"
            who, legal = await turn()
            assert who is al and legal.get("call"), legal
            assert (await al.request({"type": "act", "table": "Short", "action": "call"}))["type"] == "ok"
            await bo.wait_for(is_event("Short", "Left", player="Boris"), 30)
            return [m for m in bo.messages if m["type"] == "event" and m["event"]["type"] == "HoleDealt"
                    and m["event"]["player"] == 2]
        finally:
            await al.aclose()
            await bo.aclose()

    try:
        dealt = run(main())
    finally:
        server.stop()
    assert not server.errors(), server.errors()
    assert len(dealt) == 7, dealt  # to seventh street
    assert all(m["event"]["card"] is not None for m in dealt), dealt  # every one of his own cards
