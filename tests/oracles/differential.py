"""What the two differential tests against PokerKit share (tests/core/test_differential.py
for hold'em, test_differential_stud.py for stud): the mismatch they raise, the loop that
plays one seeded chunk of random hands and sorts the mismatches by kind, the check of a
chunk's outcome (``check_chunk`` is the body of each test's chunks), and two points where
both meet a documented disagreement the same way (``odd_chip_pots``,
``nobody_acts_again``). Each test keeps its own hands, its own statistics and its own list
of documented disagreements."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from pokerroom.core.events import Event, PotAwarded
from pokerroom.core.hand import BETTING, Hand
from tests.oracles.pokerkit import PKHand, PKStudHand


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


def check_chunk(
    play: Callable[[int, int], tuple[ChunkStats, Failures]], seed: int, hands: int, min_compared: float
) -> None:
    """Play chunk ``seed`` of ``hands`` hands, print its statistics and time, and check it
    (``assert_chunk``): the body of each test's parametrized chunk."""
    start = time.perf_counter()
    stats, failures = play(seed, hands)
    print(f"chunk {seed}: {stats} in {time.perf_counter() - start:.2f} s")
    assert_chunk(stats, failures, hands, min_compared)


def assert_chunk(stats: ChunkStats, failures: Failures, hands: int, min_compared: float) -> None:
    """No mismatch, every hand played, and enough of them compared to the end."""
    assert not failures, (
        "mismatches: " + ", ".join(f"{kind} x{len(found)}" for kind, found in failures.items())
        + "; the first of each kind:\n" + "\n".join(found[0] for found in failures.values())
    )
    assert stats.hands == hands
    assert stats.compared_to_end >= min_compared * stats.hands, stats


def odd_chip_pots(events: list[Event]) -> list[PotAwarded]:
    """D5: the pots split with odd chips (hold'em: RULE-CASES case 32; stud: case 45,
    quirk S6).

    In hold'em we give one odd chip to each winner in turn from the first seat left of the
    button, pot by pot; in stud, to the winner(s) holding the highest card by suit among
    the five cards played (TDA 20-B). PokerKit gives a pot's whole remainder to its
    lowest-index winner, and first merges pots that end up with the same players in them
    (losers' hands are killed), so it may split evenly what we split as two pots with odd
    chips."""
    return [e for e in events if type(e) is PotAwarded and e.amount % len(e.winners)]


def nobody_acts_again(hand: Hand, pk: PKHand | PKStudHand) -> bool:
    """RULE-CASES case 30 / H12-H13 ("nobody acts again"): every other live player is all-in
    or covered (cannot put in more than the current bet) and the player still to act has
    already matched the bet.

    We ask for no decision and run the board out (hold'em: the short small blind heads-up
    who calls all-in: the big blind gets his excess back and nobody acts again) or deal the
    hand out (stud); PokerKit waits for that player with a check as the only option (no
    fold, no raise, no bring-in). True exactly when PokerKit's actor can only check, our
    hand has no betting decision pending, and every other live player in PokerKit's state
    is all-in or covered."""
    p = pk.actor()
    if p is None or (hand.phase == BETTING and hand.actor is not None):
        return False
    theirs = pk.legal()
    if (theirs["fold"] or theirs["call_amount"] or theirs.get("bring_in")
            or theirs["raise_min_to"] is not None):
        return False
    state = pk.state
    level = max(state.bets)
    return all(
        state.stacks[q] == 0 or state.stacks[q] + state.bets[q] <= level
        for q in range(len(state.stacks)) if q != p and state.statuses[q]
    )
