"""``pokerroom audit --dumping`` (issue 16, item 7): accounts made to feed one main account
lose to it heads-up, hand after hand; the report names the pairs where chips went mostly
one way over many hands, with the hands, and leaves alone players who won and lost to each
other in turn."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from pokerroom.store import Store
from pokerroom.store.audit import audit as room_audit
from pokerroom.store.audit import dumping
from tests.server.helpers import Database, with_store

HANDS = 25


async def _play(
    store: Store, table: str, a: int, b: int, nets: list[int], stack: int = 500, leave: bool = False
) -> list[int]:
    """Hands heads-up at ``table`` between accounts ``a`` and ``b``, both bought in for
    ``stack``: ``a`` wins each net (``b`` the opposite); with ``leave``, both leave after.
    Returns the hands' ids."""
    await store.buy_in(table, 1, a, stack)
    await store.buy_in(table, 2, b, stack)
    stacks, ids = {a: stack, b: stack}, []
    for number, net in enumerate(nets, 1):
        hand = await store.start_hand(table, number, "NL 1/2", f"{table}{number:060d}", [(a, 1), (b, 2)])
        stacks[a] += net
        stacks[b] -= net
        await store.finish_hand(hand, table, [(a, net, stacks[a]), (b, -net, stacks[b])], salt="", deck="",
                                history="{}")
        ids.append(hand)
    if leave:
        await store.cash_out(table, a, stacks[a])
        await store.cash_out(table, b, stacks[b])
    return ids


def test_dumping_names_the_one_way_pairs_with_their_hands(database: Database) -> None:
    found: dict[str, object] = {}

    async def body(store: Store) -> None:
        boss = await store.create_account("Boss", "h", 10_000)
        feeders = [await store.create_account(f"Feeder{k}", "h", 10_000) for k in range(2)]
        rivals = [await store.create_account(f"Rival{k}", "h", 10_000) for k in range(2)]
        dumped = []
        for k, feeder in enumerate(feeders):  # the feeder loses nearly every hand to the boss
            nets = [15 if h % 8 else -2 for h in range(HANDS)]
            dumped += await _play(store, f"D{k}", boss.id, feeder.id, nets)
        # two regulars: as much won as lost, over as many hands
        await _play(store, "R", rivals[0].id, rivals[1].id, [10 if h % 2 else -10 for h in range(HANDS)])
        few = await store.create_account("Few", "h", 10_000)  # one way, but too few hands to say
        await _play(store, "F", boss.id, few.id, [20] * 5)
        flows = await dumping(store, min_hands=20, share=0.9)
        found["pairs"] = sorted((f.loser, f.winner) for f in flows)
        found["hands"] = sorted(h for f in flows for h in f.hands)
        found["dumped"] = sorted(dumped)
        found["one_way"] = [round(f.one_way, 3) for f in flows]

    with_store(database, body)
    assert found["pairs"] == [("Feeder0", "Boss"), ("Feeder1", "Boss")]
    # the hands listed are those where the feeder lost to the boss (not the few he won)
    dumped = found["dumped"]
    assert set(found["hands"]) < set(dumped) and len(found["hands"]) == 2 * (HANDS - 4)
    assert all(s >= 0.9 for s in found["one_way"])

    url, schema = database
    command = [sys.executable, "-m", "pokerroom.cli", "audit", "--db", url, "--dumping", "--json"]
    done = subprocess.run(command + (["--schema", schema] if schema else []), capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    assert report["balanced"] is True and report["problems"] == []
    assert sorted((f["loser"], f["winner"]) for f in report["dumping"]) == found["pairs"]


def test_the_audit_command_refuses_bad_arguments_and_databases(tmp_path: Path) -> None:
    def audit(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "pokerroom.cli", "audit", *args], capture_output=True,
                              text=True, timeout=60)

    for args in (["--share", "2"], ["--min-hands", "0"], ["--db", "nosuch://x"]):
        done = audit(*args)
        assert done.returncode == 2 and "Traceback" not in done.stderr, (args, done.stderr)
    not_a_room = tmp_path / "x.db"
    not_a_room.write_bytes(b"this is not SQLite")
    done = audit("--db", f"sqlite:///{not_a_room}")
    assert done.returncode == 2 and "cannot read" in done.stderr and "Traceback" not in done.stderr


def test_the_audit_of_a_room_at_play_reads_one_moment(database: Database) -> None:
    """Audits while chips move: each reads the books, balances and seats as of one moment,
    so none reports a problem that is not there (before, a third of them did: each query
    saw the database at another time)."""
    found: list[list[dict[str, object]]] = []

    async def body(store: Store) -> None:
        ids = [(await store.create_account(f"Mover{k}", "h", 10_000)).id for k in range(4)]
        auditor = Store(*database)  # its own connections, as the operator's command
        stop = asyncio.Event()

        async def moving() -> None:
            while not stop.is_set():
                for seat, account in enumerate(ids, 1):
                    await store.buy_in("M", seat, account, 100 + seat)
                for account in ids:
                    await store.cash_out("M", account, 100 + ids.index(account) + 1)

        mover = asyncio.create_task(moving())
        try:
            for _ in range(60):
                found.append((await room_audit(auditor)).problems)
                await asyncio.sleep(0)
        finally:
            stop.set()
            await mover
            await auditor.close()

    with_store(database, body)
    assert [p for p in found if p] == [], found


def test_dumping_finds_new_accounts_lost_to_one_account_in_a_hand_or_two(database: Database) -> None:
    """The issue's attack: accounts registered to be lost heads-up to a main account, each
    in an all-in or two (too few hands for the one-way test). Each lost most of its grant
    to the same winner: a funnel. One such account alone, or a player who lost his chips
    to several people, is not."""
    found: list[tuple[str, str, str]] = []

    async def body(store: Store) -> None:
        boss = await store.create_account("Main", "h", 10_000)
        other = await store.create_account("Lucky", "h", 10_000)
        for k in range(4):
            farm = await store.create_account(f"Farm{k}", "h", 10_000)
            await _play(store, f"F{k}", boss.id, farm.id, [4_500, 4_500], 10_000, leave=True)
        unlucky = await store.create_account("Unlucky", "h", 10_000)  # lost big, to two people
        await _play(store, "U1", boss.id, unlucky.id, [3_000], 5_000, leave=True)
        await _play(store, "U2", other.id, unlucky.id, [3_000], 5_000, leave=True)
        lone = await store.create_account("Lone", "h", 10_000)  # one big loss to Lucky alone
        await _play(store, "L", other.id, lone.id, [9_000], 10_000, leave=True)
        found.extend((f.loser, f.winner, f.reason) for f in await dumping(store))

    with_store(database, body)
    assert sorted(found) == [(f"Farm{k}", "Main", "funnel") for k in range(4)], found
