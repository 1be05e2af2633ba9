"""The proof of a deal (issue 16 item 10): hands dealt as the server deals them (deal.py:
a committed deck ordered by the players' seeds, the stud reshuffle drawn from the same
mix), stored as runner._store_hand stores them and served as /api/hands/{id} serves them,
verify in Python and with ``pokerroom verify``; the issue's attacks do not: a river dealt
from position 30 instead of 11, no openings, a commitment made up after the hand, a stud
reshuffle nobody committed to."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pokerroom.fairness import (
    deal_slots,
    mix,
    permutation,
    verify,
    verify_history,
)
from pokerroom.table import TableError
from pokerroom.worker.deal import Dealer
from tests.server.helpers.fairness import ATTACKS, HOLDEM, STUD, play, served, stored

# ---------------------------------------------------------------------- honest hands


@pytest.mark.parametrize("seeds", [None, {1: "alice-seed-1", 2: "0123456789abcdef"}])
def test_an_honest_heads_up_hand_verifies_for_both_players(seeds: dict[int, str] | None) -> None:
    table, deal = play(HOLDEM, 2, seeds)
    assert deal.seeds == (seeds or {})
    text = stored(table, deal)
    for seat in (1, 2):
        history = served(text, deal, seat)
        seeds = sorted(deal.seeds.items())
        verdict = verify_history(history, announced=deal.commitment, announced_seeds=seeds)
        assert verdict.ok, verdict
        assert verdict.proven == 2 + 5 + 2  # his two cards, the board, the other's shown at the showdown
        assert verdict.scheme == 2
        assert history["deal"] == {"scheme": 2, "seeds": [list(p) for p in sorted(deal.seeds.items())]}
        # the board's places, dealt from the first player left of the button: 4, 5, 6 - 8 - 10 ... +1
        opened = {o["card"]: o["position"] for o in history["openings"]}
        assert [opened[c] for c in history["record"]["board"]] == [5, 6, 7, 9, 11]


def test_the_seeds_decide_the_order_and_the_server_cannot_foresee_it() -> None:
    """The same committed deck dealt with and without a seed: a different order, each the
    permutation the commitment and the seeds give."""
    dealer = Dealer()
    commitment = dealer.next_commitment
    plain = copy.deepcopy(dealer).deal({1: "p1", 2: "p2"})
    dealer.take_seed("p1", commitment, "a-seed-of-mine", ["p1", "p2"])
    seeded = dealer.deal({1: "p1", 2: "p2"})
    assert plain.commitment == seeded.commitment == commitment
    assert sorted(plain.cards) == sorted(seeded.cards) and plain.cards != seeded.cards
    assert seeded.key == mix(commitment, {1: "a-seed-of-mine"}) and plain.key == mix(commitment, {})
    # the next deck was committed to at this deal; a seed for the old one is refused
    with pytest.raises(TableError, match="dealt already"):
        dealer.take_seed("p1", commitment, "too-late-seed", ["p1", "p2"])
    with pytest.raises(TableError, match="seated"):
        dealer.take_seed("stranger", dealer.next_commitment, "a-seed-of-his", ["p1", "p2"])
    with pytest.raises(TableError, match="8 to 64"):
        dealer.take_seed("p1", dealer.next_commitment, "short", ["p1", "p2"])


def test_permutation_is_uniform_enough_and_fixed() -> None:
    """A Fisher-Yates shuffle of the key: every card lands everywhere; the same key, the same
    order (the browser computes it too: tests/web/test_fairness_ui.py)."""
    assert permutation("key", 5) == [2, 3, 1, 4, 0]
    counts = [[0] * 4 for _ in range(4)]
    for k in range(4000):
        for place, card in enumerate(permutation(f"k{k}", 4)):
            counts[card][place] += 1
    assert all(800 < c < 1200 for row in counts for c in row), counts


def test_stud_with_eight_players_to_seventh_street_reshuffles_from_the_committed_mix() -> None:
    """8 players staying to seventh street need 60 cards: the burns are shuffled into the
    stub (drawn from the deal's mix), then one community card is dealt (D4)."""
    table, deal = play(STUD, 8, {3: "seed-of-three"})
    assert deal.reshuffles == 1
    record = table.previous
    assert record is not None and len(record.board) == 1
    assert any(type(e).__name__ == "Reshuffled" for e in record.events)
    text = stored(table, deal)
    for seat in range(1, 9):
        verdict = verify_history(served(text, deal, seat), announced=deal.commitment)
        assert verdict.ok, verdict
        assert verdict.proven == 8 * 6 + 1  # six cards each, all shown, and the community card


# ---------------------------------------------------------------------- the attacks


@pytest.mark.parametrize("name", list(ATTACKS))
def test_each_attack_fails_to_verify(name: str) -> None:
    history, seen = ATTACKS[name]
    verdict = verify_history(history, **seen)
    assert not verdict.ok, (name, verdict)


def test_the_attacks_passed_the_old_check() -> None:
    """What the verifier took before: the river from position 30 and an empty list of
    openings pass ``verify``'s leaf check alone (it knows no places); the new check fails."""
    history, _ = ATTACKS["river from position 30"]
    positions = sorted(o["position"] for o in history["openings"])
    assert 30 in positions and 11 not in positions
    assert verify(history["commitment"], history["leaves"], history["openings"])  # leaves alone: fine
    verdict = verify_history(history)
    assert not verdict.ok and "position 11" in verdict.message, verdict
    empty, _ = ATTACKS["no openings"]
    assert not verify(empty["commitment"], empty["leaves"], empty["openings"])
    refused = verify_history(empty)  # the reader's first card, at its place, is not opened
    assert not refused.ok and "opens nothing" in refused.message, refused
    made_up, seen = ATTACKS["a commitment made up after the hand"]
    assert verify_history(made_up).ok and verify_history(made_up).scheme == 1  # alone, it passes as old
    assert "announced" in verify_history(made_up, **seen).message
    assert "announced" in verify_history(made_up, announced_seeds=[]).message  # seen seeded: no old scheme
    stud, _ = ATTACKS["an uncommitted stud reshuffle (old scheme)"]
    assert "not committed" in verify_history(stud).message


def test_deal_slots_follow_the_dealing_order() -> None:
    table, deal = play(HOLDEM, 3)
    history = served(stored(table, deal), deal, 1)
    slots = deal_slots([p["seat"] for p in history["players"]], history["record"]["events"], None)
    assert slots == [(0, 1), (1, 2), (2, 3), (3, 1), (4, 2), (5, 3), (7, -1), (8, -1), (9, -1), (11, -1),
                     (13, -1)]


BAD = [None, [], "x", {"commitment": 5}, {"leaves": [1] * 52, "commitment": "a" * 64}]


@pytest.mark.parametrize("bad", BAD)
def test_malformed_histories_fail_without_raising(bad: Any) -> None:
    verdict = verify_history(bad)
    assert not verdict.ok and verdict.message


# ---------------------------------------------------------------------- pokerroom verify


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pokerroom.cli", "verify", *args], capture_output=True,
                          text=True, timeout=60)


def test_cli_verifies_an_honest_hand_and_refuses_each_attack(tmp_path: Path) -> None:
    table, deal = play(HOLDEM, 2, {2: "bob-seeds-this"})
    honest = tmp_path / "hand.json"
    honest.write_text(json.dumps(served(stored(table, deal), deal, 2)))
    done = cli(str(honest), "--commitment", deal.commitment)
    assert done.returncode == 0 and done.stdout.startswith("verified:"), done
    assert "seat 2" in done.stdout and "seeds of seats 2" in done.stdout
    for k, (name, (history, seen)) in enumerate(ATTACKS.items()):
        path = tmp_path / f"attack{k}.json"
        path.write_text(json.dumps(history))
        extra = ["--commitment", seen["announced"]] if "announced" in seen else []
        done = cli(str(path), *extra)
        assert done.returncode == 1 and done.stdout.startswith("NOT verified:"), (name, done)
        assert "Traceback" not in done.stderr


@pytest.mark.parametrize("content", [None, "", "{", "[1, 2]", '{"commitment": 1}', "\x00\xff"])
def test_cli_bad_files_give_a_clear_error(tmp_path: Path, content: str | None) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_bytes(content.encode("utf-8", "surrogateescape"))
    done = cli(str(path))
    assert done.returncode == 1, done
    assert "Traceback" not in done.stderr + done.stdout
    assert (done.stderr + done.stdout).strip()
