"""One measured run against a server already up: connect the bots, warm up, measure."""

from __future__ import annotations

import asyncio
import random
import sys
import time
from collections.abc import Awaitable, Callable

import httpx

from pokerroom.bots.client import Tally
from pokerroom.bots.strategies import strategy
from pokerroom.loadtest.accounts import Seeded
from pokerroom.loadtest.players import LoadBot, Meter
from pokerroom.loadtest.report import Report, percentile, show_progress
from pokerroom.loadtest.servers import cpu_seconds, rss_kib

Parts = Callable[[], Awaitable[dict[str, list[int]]]]


async def drive(
    url: str | list[str],
    tables: int,
    per_table: int,
    *,
    think: float,
    duration: float,
    warmup: float = 5.0,
    strategies: tuple[str, ...] = ("random", "station"),
    server_pid: int | list[int] | None = None,
    target: str = "room",
    seed: int | None = None,
    progress: bool = True,
    concurrency: int = 8,
    seeded: Seeded | None = None,
    on_abort: Callable[[], None] | None = None,
    parts: Parts | None = None,
    by_table: bool = False,
) -> Report:
    """Connect ``tables * per_table`` bots, warm up, measure ``duration`` seconds. The bots
    use the ``seeded`` accounts (in order) when given, else register over HTTP.
    ``on_abort`` is called first if the run stops before its end (Ctrl-C, bots failing):
    ``run`` kills the server it started there, which ends every connection at once (a
    saturated server would take seconds to answer thousands of closing handshakes).

    Several ``url``s (the gateways of a cluster): the bots are dealt to them in turn, so the
    players of one table sit behind different gateways; ``by_table``: a table's players
    all behind the same gateway (the tables dealt in turn), as a room with gateway
    affinity would place them. ``parts`` names the processes whose
    CPU is measured, by role ("server"; or "gateway", "worker", "nats", "postgres"), asked
    as the measurement starts; without it, ``server_pid``'s."""
    urls = [url] if isinstance(url, str) else list(url)
    async with httpx.AsyncClient(timeout=30) as client:
        listed = (await client.get(f"{urls[0]}/api/tables")).json()["tables"][:tables]
    rng = random.Random(seed)
    tally, meter, gate = Tally(), Meter(), asyncio.Semaphore(concurrency)
    bots: list[LoadBot] = []
    tag = f"{rng.randrange(16**4):04x}"
    for k, t in enumerate(listed):
        meter.receivers[t["name"]] = min(per_table, int(t["seats"]))
        for index in range(meter.receivers[t["name"]]):
            kind = strategies[len(bots) % len(strategies)]
            play = strategy(kind, random.Random(rng.random()))
            n = len(bots)
            if seeded is not None and n >= len(seeded.names):
                raise RuntimeError(f"{len(seeded.names)} seeded accounts for more bots")
            name = seeded.names[n] if seeded is not None else f"lt{tag}{n:06d}"
            gateway = urls[(k if by_table else n) % len(urls)]
            bot = LoadBot(gateway, name, t["name"], play, think=think, tally=tally,
                          password=seeded.password if seeded is not None else None,
                          rng=random.Random(rng.random()), meter=meter, gate=gate)
            bot.token = seeded.tokens[n] if seeded is not None else ""
            bot.info = t
            bot.preferred = index + 1
            bots.append(bot)
    started = time.monotonic()
    accounts_s: float | None = None
    preparing: list[asyncio.Task[None]] = []
    tasks: list[asyncio.Task[None]] = []
    try:
        if any(not b.token for b in bots):
            preparing = [asyncio.ensure_future(b.prepare()) for b in bots]
            while not all(p.done() for p in preparing):
                if progress:
                    show_progress(f"registering {sum(bool(b.token) for b in bots)}/{len(bots)}, "
                              f"{time.monotonic() - started:.0f} s")
                await asyncio.wait(preparing, timeout=0.5)
            await asyncio.gather(*preparing)
            accounts_s = time.monotonic() - started
            await asyncio.sleep(1.0)  # let the server settle (argon2 threads)
        fronts = [server_pid] if isinstance(server_pid, int) else server_pid or []
        rss_before = _rss(fronts)
        connecting = time.monotonic()
        tasks = [asyncio.ensure_future(b.run()) for b in bots]
        while sum(b.seat is not None for b in bots) < len(bots) or sum(b.connected for b in bots) < len(bots):
            failed = sum(t.done() for t in tasks)
            if failed:
                raise RuntimeError(f"{failed} bots stopped while connecting: {_first_error(tasks)}")
            if progress:
                connected = sum(b.connected for b in bots)
                show_progress(f"connecting {connected}/{len(bots)}, seated {tally.seated}, "
                              f"{time.monotonic() - connecting:.0f} s")
            await asyncio.sleep(0.5)
        connect_s = time.monotonic() - connecting
        if progress:
            show_progress(f"{len(bots)} bots connected and seated in {connect_s:.1f} s\n")
        warm_end = time.monotonic() + warmup
        while time.monotonic() < warm_end:
            if progress:
                show_progress(f"warming up, {tally.total_hands} hands, {tally.actions} actions")
            await asyncio.sleep(0.5)
        rss_after = _rss(fronts)
        hands0, actions0, errors0 = tally.total_hands, tally.actions, dict(tally.errors)
        meter.latencies.clear()
        meter.measuring = True
        measured = await parts() if parts is not None else {"server": fronts} if fronts else {}
        cpu0 = _cpu(measured), time.process_time()
        t0 = time.monotonic()
        while (now := time.monotonic()) < t0 + duration:
            await asyncio.sleep(min(1.0, t0 + duration - now))
            if progress:
                elapsed = max(1e-9, time.monotonic() - t0)
                show_progress(f"{elapsed:.0f}/{duration:.0f} s: "
                              f"{(tally.total_hands - hands0) / elapsed:.1f} hands/s, "
                              f"{(tally.actions - actions0) / elapsed:.1f} actions/s, "
                              f"p99 {1000 * percentile(meter.latencies, 0.99):.1f} ms")
        elapsed = time.monotonic() - t0
        meter.measuring = False
        cpu1 = _cpu(measured)
        parts_cpu = {role: (cpu1[role] - cpu0[0][role]) / elapsed for role in cpu1 if role in cpu0[0]}
        server_cpu = sum(parts_cpu.values()) if parts_cpu else None
        client_cpu = (time.process_time() - cpu0[1]) / elapsed
        hands, actions = tally.total_hands - hands0, tally.actions - actions0
        errors_measured = {code: n - errors0.get(code, 0) for code, n in tally.errors.items()
                           if n > errors0.get(code, 0)}
        latencies = list(meter.latencies)
        failed = sum(t.done() for t in tasks)
    except BaseException:
        if on_abort is not None:
            on_abort()
        raise
    finally:
        if progress:
            print(file=sys.stderr)
        await _stop_all(preparing + tasks)
    per_conn = None
    if rss_before is not None and rss_after is not None:
        per_conn = (rss_after - rss_before) / len(bots)
    return Report(
        target=target, tables=len(listed), players_per_table=per_table, think=think, duration=elapsed,
        connections=len(bots), seated=sum(b.seat is not None for b in bots), hands=hands, actions=actions,
        hands_per_s=hands / elapsed, actions_per_s=actions / elapsed, latency_samples=len(latencies),
        p50_ms=1000 * percentile(latencies, 0.5), p99_ms=1000 * percentile(latencies, 0.99),
        max_ms=1000 * max(latencies, default=0.0), rss_before_kib=rss_before, rss_after_kib=rss_after,
        kib_per_connection=per_conn, errors=dict(tally.errors), errors_measured=errors_measured,
        unmatched_acted=meter.unmatched,
        failed_bots=failed, server_cpu=server_cpu, client_cpu=client_cpu,
        parts_cpu=parts_cpu if len(parts_cpu) > 1 else None,
        accounts_s=accounts_s, connect_s=connect_s,
    )


def _rss(pids: list[int]) -> int | None:
    """The memory of the processes that hold the connections (the server, or the gateways), KiB."""
    sizes = [rss_kib(pid) for pid in pids]
    return sum(s for s in sizes if s is not None) if pids and None not in sizes else None


def _cpu(parts: dict[str, list[int]]) -> dict[str, float]:
    """CPU seconds so far of each role's processes together (a process gone counts 0 from
    then: the figure is a floor)."""
    return {role: sum(cpu_seconds(pid) or 0.0 for pid in pids) for role, pids in parts.items()}


async def _stop_all(tasks: list[asyncio.Task[None]]) -> None:
    """Cancel the bots: each closes its connection (``close_timeout`` bounds the wait for the
    server's answer); any still running a few seconds later is cancelled again."""
    for task in tasks:
        task.cancel()
    if not tasks:
        return
    _, late = await asyncio.wait(tasks, timeout=3.0)
    for task in late:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def _first_error(tasks: list[asyncio.Task[None]]) -> str:
    for t in tasks:
        if t.done() and not t.cancelled() and t.exception() is not None:
            return repr(t.exception())
    return "?"
