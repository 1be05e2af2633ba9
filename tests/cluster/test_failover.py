"""The room across processes (issue 18): two gateways and three workers on a private
nats-server and a PostgreSQL schema of their own, bots at every table. A worker killed
mid-hand (SIGKILL) or paused past its lease (SIGSTOP) loses its tables to the others
within about 5 s; nobody loses his seat or a chip, and no hand is settled twice."""

from __future__ import annotations

import asyncio
import json
import signal
import time

from tests.cluster.helpers import (
    Cluster,
    Observer,
    balanced,
    every_table_played,
    more_hands,
    owners,
    query,
    seat_bots,
    settled_by_table,
    settled_twice,
    until,
)


def test_a_worker_killed_mid_hand_loses_its_tables_and_nobody_his_seat(cluster: Cluster) -> None:
    async def main() -> None:
        await until(lambda: balanced(cluster), 20, "the tables shared by the three workers")
        before_owners = await owners(cluster)
        bots, tally = seat_bots(cluster)
        stop = asyncio.Event()
        tasks = [asyncio.ensure_future(b.run(stop)) for b in bots]
        try:
            await until(lambda: every_table_played(cluster, 3), 60, "three hands at every table")
            held = {p.name: sum(o == p.name for o, _ in before_owners.values())
                    for p in cluster.procs.values() if p.role == "worker"}
            victim = cluster.procs[max(held, key=lambda n: held[n])]
            lost = [t for t, (o, _) in before_owners.items() if o == victim.name]

            async def mid_hand() -> bool:
                return bool(await query(cluster.schema, "SELECT 1 FROM hands WHERE status = 'playing' AND "
                                        "table_name = ANY($1)", lost))

            await until(mid_hand, 10, "a hand in play at the victim's tables")
            victim.signal(signal.SIGKILL)
            killed_at = time.monotonic()
            # the seats as the dead worker left them: the stacks from before the hands it was playing
            seats = {(r[0], r[1]): int(r[2]) for r in await query(
                cluster.schema, "SELECT s.table_name, a.name, s.stack FROM seats s JOIN accounts a "
                "ON a.id = s.account_id WHERE s.table_name = ANY($1)", lost)}
            playing = {r[0]: int(r[1]) for r in await query(
                cluster.schema, "SELECT table_name, number FROM hands WHERE status = 'playing' AND "
                "table_name = ANY($1)", lost)}
            assert playing, "the victim was dealing no hand"
            last_id = int((await query(cluster.schema, "SELECT max(id) FROM hands"))[0][0])

            async def taken_over() -> bool:
                now = await owners(cluster)
                return all(now[t][0] not in (None, victim.name) and now[t][1] > before_owners[t][1]
                           for t in lost)

            await until(taken_over, 8, "the victim's tables claimed by other workers")
            took = time.monotonic() - killed_at
            assert took <= 5.5, took
            status = cluster.status()  # what the operator sees
            assert not status["healthy"] or all(w["name"] != victim.name or not w["tables"]
                                                for w in status["workers"]), status
            assert {t["table"]: t["owner"] for t in status["tables"] if t["table"] in lost} == {
                t: o for t, (o, _) in (await owners(cluster)).items() if t in lost}, status
            counts = await settled_by_table(cluster)

            async def dealt_again() -> bool:
                done = await settled_by_table(cluster)
                return all(done.get(t, 0) > counts.get(t, 0) for t in lost)

            await until(dealt_again, 30, "a hand settled at each table taken over")
            voided = {r[0]: int(r[1]) for r in await query(
                cluster.schema, "SELECT table_name, number FROM hands WHERE status = 'void'")}
            assert voided == playing, (voided, playing)
            # the first hand settled after the takeover began with everyone seated as before
            for t in lost:
                row = (await query(cluster.schema, "SELECT history FROM hands WHERE table_name = $1 AND "
                                   "status = 'complete' AND id > $2 ORDER BY id LIMIT 1", t, last_id))[0]
                history = json.loads(row[0])
                dealt = {p["name"]: stack for p, stack in zip(history["players"],
                                                              history["private"]["hand"]["starting_stacks"],
                                                              strict=True)}
                before = {name: stack for (table, name), stack in seats.items() if table == t}
                assert dealt.items() <= before.items(), (t, dealt, before)
                assert len(dealt) >= 2
            print(f"takeover of {len(lost)} table(s) in {took:.2f} s; voided {playing}")
        finally:
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
        assert tally.errors.get("internal", 0) == 0, tally.errors

    asyncio.run(main())
    cluster.stop_and_audit()


def test_a_paused_worker_wakes_up_fenced_and_gives_its_tables_up(cluster: Cluster) -> None:
    async def main() -> None:
        await until(lambda: balanced(cluster), 20, "the tables shared by the three workers")
        before = await owners(cluster)
        bots, tally = seat_bots(cluster, seed=7)
        stop = asyncio.Event()
        tasks = [asyncio.ensure_future(b.run(stop)) for b in bots]
        victim = cluster.procs["w2"]
        lost = [t for t, (o, _) in before.items() if o == "w2"]
        observers = [Observer(g.http, t) for g in cluster.gateways() for t in lost]
        try:
            for o in observers:
                o.start()

            await until(lambda: every_table_played(cluster, 2), 60, "two hands at every table")
            victim.signal(signal.SIGSTOP)
            paused_at = time.monotonic()

            async def taken_over() -> bool:
                now = await owners(cluster)
                return all(now[t][0] not in (None, "w2") and now[t][1] > before[t][1] for t in lost)

            await until(taken_over, 8, "the paused worker's tables claimed by others")
            took = time.monotonic() - paused_at
            assert took <= 5.5, took
            counts = await settled_by_table(cluster)
            await asyncio.sleep(3)  # the others deal on meanwhile
            victim.signal(signal.SIGCONT)

            async def given_up() -> bool:  # its next renewal finds the leases gone
                return "is no longer w2's" in victim.log.read_text()

            await until(given_up, 10, "the woken worker to give its tables up")

            async def dealt_on() -> bool:
                done = await settled_by_table(cluster)
                return all(done.get(t, 0) > counts.get(t, 0) for t in lost)

            await until(dealt_on, 30, "hands settled by the new owners")
            await asyncio.sleep(2)  # whatever the woken worker still sends, sent
        finally:
            for o in observers:
                await o.stop()
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
        twice = await settled_twice(cluster)
        assert twice == [], twice
        for o in observers:
            o.check()
            assert any(v > 1_000_000 for _, v in o.versions), o.versions  # the new owner's numbers came
        assert tally.errors.get("internal", 0) == 0, tally.errors

    asyncio.run(main())
    cluster.stop_and_audit()


def test_a_rolling_restart_of_every_process_loses_no_seat_and_no_chip(cluster: Cluster) -> None:
    """Every worker, then every gateway, stopped (SIGTERM) and started again, one at a time,
    while bots play: the workers' hands end before they hand their tables over, the bots
    of a gateway that goes move to the other one; nobody loses his seat, no hand is
    settled twice, no hand is void, and the books balance."""

    async def main() -> None:
        await until(lambda: balanced(cluster), 20, "the tables shared by the three workers")
        bots, tally = seat_bots(cluster, seed=11)
        stop = asyncio.Event()
        tasks = [asyncio.ensure_future(b.run(stop)) for b in bots]
        try:
            await until(lambda: every_table_played(cluster, 2), 60, "two hands at every table")
            seated = await query(cluster.schema, "SELECT table_name, account_id FROM seats")
            for name in ("w1", "w2", "w3", "g1", "g2"):
                proc = cluster.procs[name]
                before = await settled_by_table(cluster)
                await asyncio.to_thread(proc.stop)
                proc.start()
                if proc.role == "worker":
                    await until(lambda: balanced(cluster), 30, f"{name} back with its share")
                try:
                    await until(lambda b=before: more_hands(cluster, b), 40, f"hands after {name}")
                except AssertionError as e:
                    raise AssertionError(f"{e}: before {before}, now {await settled_by_table(cluster)}, "
                                         f"errors {tally.errors}, reconnects {[b.reconnects for b in bots]}, "
                                         f"seats {[(b.table, b.seat, b.http) for b in bots]}") from None
            now = await query(cluster.schema, "SELECT table_name, account_id FROM seats")
            lost = set(map(tuple, seated)) - set(map(tuple, now))
            assert not lost, (lost, await query(cluster.schema, "SELECT table_name, account_id, stack, at "
                                                "FROM departures"))
            assert sum(b.reconnects for b in bots) >= len(bots) // 2  # every bot of each gateway moved
        finally:
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
        twice = await settled_twice(cluster)
        assert twice == [], twice
        void = await query(cluster.schema, "SELECT table_name, number FROM hands WHERE status = 'void'")
        assert void == [], void  # each worker let its hands end before it went
        assert tally.errors.get("internal", 0) == 0, tally.errors

    asyncio.run(main())
    cluster.stop_and_audit()
