"""What the two differential tests against PokerKit share (tests/core/test_differential.py
for hold'em, test_differential_stud.py for stud): the mismatch they raise, the loop that
plays one seeded chunk of random hands and sorts the mismatches by kind, and the check of
a chunk's outcome. Each test keeps its own hands, its own statistics and its own list of
documented disagreements."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol, TypeVar


class Mismatch(AssertionError):
    """Our engine and PokerKit differ where no documented disagreement explains it."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class ChunkStats(Protocol):
    hands: int
    compared_to_end: int


S = TypeVar("S", bound=ChunkStats)
Failures = dict[str, list[str]]


def play_chunk(
    seed: int, hands: int, rng: random.Random, stats: S,
    setup: Callable[[random.Random], Any], play: Callable[[random.Random, Any, S], None],
) -> tuple[S, Failures]:
    """``hands`` hands, each from ``setup(rng)`` played by ``play``: the statistics and the
    mismatches by kind (each named by its seed and hand)."""
    failures: Failures = {}
    for k in range(hands):
        try:
            play(rng, setup(rng), stats)
        except Mismatch as exc:
            failures.setdefault(exc.kind, []).append(f"seed {seed} hand {k}: {exc}")
    return stats, failures


def assert_chunk(stats: ChunkStats, failures: Failures, hands: int, min_compared: float) -> None:
    """No mismatch, every hand played, and enough of them compared to the end."""
    assert not failures, (
        "mismatches: " + ", ".join(f"{kind} x{len(found)}" for kind, found in failures.items())
        + "; the first of each kind:\n" + "\n".join(found[0] for found in failures.values())
    )
    assert stats.hands == hands
    assert stats.compared_to_end >= min_compared * stats.hands, stats
