"""What a load test reports (``Report``), and the progress line it draws meanwhile."""

from __future__ import annotations

import sys
from dataclasses import asdict, dataclass
from typing import Any


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]



@dataclass
class Report:
    target: str
    tables: int
    players_per_table: int
    think: float
    duration: float
    connections: int
    seated: int
    hands: int
    actions: int
    hands_per_s: float
    actions_per_s: float
    latency_samples: int
    p50_ms: float
    p99_ms: float
    max_ms: float
    rss_before_kib: int | None
    rss_after_kib: int | None
    kib_per_connection: float | None
    errors: dict[str, int]
    unmatched_acted: int
    failed_bots: int
    server_cpu: float | None = None  # share of one core the server used while measured
    client_cpu: float | None = None  # the same for this process (the bots)
    parts_cpu: dict[str, float] | None = None  # a cluster's: cores busy by role (gateway, worker...)
    tables_per_worker: dict[str, int] | None = None  # a cluster's: the tables each worker held
    schema: str | None = None  # a cluster's PostgreSQL schema (dropped once measured)
    accounts_s: float | None = None  # seconds to have the bots' accounts (seeded or registered)
    seeded: bool = False  # the accounts were written into the database before the room started
    connect_s: float | None = None  # seconds from the first connection to every bot seated
    errors_measured: dict[str, int] | None = None  # those of ``errors`` that came while measured
    baseline: Report | None = None
    ratio_to_baseline: float | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def text(self) -> str:
        lines = [
            f"{self.target}: {self.tables} tables x {self.players_per_table} players, think {self.think} s, "
            f"{self.duration:.0f} s measured; {self.connections} connections, {self.seated} seated",
            f"  {self.hands} hands ({self.hands_per_s:.1f}/s), "
            f"{self.actions} actions ({self.actions_per_s:.1f}/s)",
            f"  act -> last Acted at the table: p50 {self.p50_ms:.1f} ms, p99 {self.p99_ms:.1f} ms, "
            f"max {self.max_ms:.1f} ms ({self.latency_samples} samples, {self.unmatched_acted} unmatched)",
        ]
        if self.kib_per_connection is not None:
            lines.append(
                f"  server RSS {self.rss_before_kib} KiB -> {self.rss_after_kib} KiB: "
                f"{self.kib_per_connection:.1f} KiB per connection"
            )
        if self.server_cpu is not None and self.client_cpu is not None:
            lines.append(f"  CPU (cores busy): server {self.server_cpu:.2f}, bots {self.client_cpu:.2f}")
        if self.server_cpu is not None and self.actions_per_s:
            per_action = {"room": self.server_cpu, **(self.parts_cpu or {})}
            lines.append("  CPU per action: " + ", ".join(
                f"{role} {1000 * cores / self.actions_per_s:.3f} ms" for role, cores in per_action.items()))
        if self.accounts_s is not None and self.connect_s is not None:
            lines.append(f"  set-up: accounts {'seeded' if self.seeded else 'registered'} in "
                         f"{self.accounts_s:.1f} s, connected and seated in {self.connect_s:.1f} s")
        if self.tables_per_worker:
            held = sorted(self.tables_per_worker.items())
            lines.append("  tables held: " + ", ".join(f"{w} {n}" for w, n in held))
        if self.errors or self.failed_bots:
            measured = self.errors_measured or {}
            lines.append(f"  errors {self.errors} (while measured: {measured or 'none'}), "
                         f"{self.failed_bots} bots failed")
        if self.baseline is not None:
            lines.append(self.baseline.text())
            lines.append(f"room / bare server actions/s: {self.ratio_to_baseline:.3f}")
        return "\n".join(lines)



def show_progress(text: str) -> None:
    print(f"\rloadtest: {text}\033[K", end="", file=sys.stderr, flush=True)
