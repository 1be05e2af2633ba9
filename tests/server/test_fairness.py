"""The proof of a deal (issue 16 item 10): hands dealt as the server deals them (deal.py:
a committed deck ordered by the players' seeds, the stud reshuffle drawn from the same
mix), stored as runner._store_hand stores them and served as /api/hands/{id} serves them,
verify in Python and with ``pokerroom verify``; the issue's attacks do not: a river dealt
from position 30 instead of 11, no openings, a commitment made up after the hand, a stud
reshuffle nobody committed to."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pokerroom.core.cards import Card
from pokerroom.core.structures import Game
from pokerroom.fairness import (
    commit,
    deal_slots,
    mix,
    permutation,
    root,
    salt_text,
    verify,
    verify_history,
)
from pokerroom.gateway.app import hand_for
from pokerroom.histories import full_history, snapshot
from pokerroom.table import PLAYING, Table, TableConfig, TableError
from pokerroom.worker.deal import Deal, Dealer

NOON = 1_764_626_400.0
HOLDEM = Game.no_limit(1, 2)
STUD = Game.stud(10, 20, ante=1, bring_in=3)


def passive(legal: Any) -> str:
    """Everyone stays to the end: check or call (bring in in stud), show at the showdown."""
    if legal.show:
        return "show"
    if legal.bring_in:
        return "bring_in"
    return "check" if legal.check else "call"


def play(game: Game, players: int, seeds: dict[int, str] | None = None,
         cheat: Callable[[list[Card]], list[Card]] | None = None,
         reshuffle: Callable[[Deal, tuple[Card, ...]], list[Card]] | None = None) -> tuple[Table, Deal]:
    """One hand dealt as the server deals it, everyone staying to the end; ``cheat``: what
    a cheating server does to the deck before the core takes it; ``reshuffle``: a stud
    reshuffle other than the committed one."""
    table = Table(TableConfig.single(game, seats=max(players, 2), min_buy_in=40, max_buy_in=5000,
                                     action_time=30))
    for s in range(1, players + 1):
        table.sit(f"p{s}", s, 2000)
    dealer = Dealer()
    for seat, seed in (seeds or {}).items():
        dealer.take_seed(f"p{seat}", dealer.next_commitment, seed, [f"p{s}" for s in range(1, players + 1)])
    deal = dealer.deal({s: seat.player for s, seat in table.seats.items()})
    cards = cheat(list(deal.cards)) if cheat else deal.cards
    shuffle = deal.reshuffle if reshuffle is None else lambda pool: reshuffle(deal, pool)
    table.start_hand(cards, NOON, reshuffle=shuffle, button=players)
    now = NOON
    while table.phase == PLAYING:
        now += 1
        assert table.hand is not None and table.actor is not None
        table.act(table.seats[table.actor].player, passive(table.hand.legal_actions()), None, now)
    return table, deal


def stored(table: Table, deal: Deal, scheme: int = 2) -> str:
    """The history text runner._store_hand stores for the table's last hand."""
    hand, plan, record = table.hand, table.plan, table.previous
    assert hand is not None and plan is not None and record is not None
    history: dict[str, Any] = {"table": "T", "number": record.number, "started_at": NOON,
                               "commitment": deal.commitment}
    if scheme == 2:
        history["deal"] = {"scheme": 2, "seeds": sorted(deal.seeds.items())}
    history["players"] = [{"seat": s, "name": n} for s, n in zip(plan.seats, table.hand_players, strict=True)]
    history["private"] = {
        "salts": salt_text(deal.salts),
        "holes": {str(s): [str(c) for c in hand.holes[i]] for i, s in enumerate(plan.seats)},
        "hand": snapshot(hand), "button_seat": plan.positions.button, "max_seats": table.config.seats,
        "game": record.game,
    }
    return json.dumps(history)


def served(text: str, deal: Deal, seat: int) -> dict[str, Any]:
    """What /api/hands/{id} gives the player in ``seat`` (app.hand_for)."""
    seats = [p["seat"] for p in json.loads(text)["players"]]
    data = {"id": 1, "history": full_history(text, deal.card_text, 1),
            "players": [{"seat": s, "net": 0} for s in seats]}
    return json.loads(hand_for(data, seat, "").body)


def old_scheme(deal: Deal) -> Deal:
    """The same cards committed as before seeds: the commitment of the leaves in order."""
    leaves = commit([str(c) for c in deal.cards], salts=deal.salts).leaves
    return Deal(root(leaves), {}, "", deal.cards, deal.salts, "")


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


def river_from_30(cards: list[Card]) -> list[Card]:
    """Heads-up the river is position 11; a cheating server deals position 30 there."""
    cards[11], cards[30] = cards[30], cards[11]
    return cards


def attacks() -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """Each attack: the history the player is served, and what he saw announced."""
    out: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
    table, deal = play(HOLDEM, 2, cheat=river_from_30)
    out["river from position 30"] = served(stored(table, deal), deal, 1), {"announced": deal.commitment}
    table, deal = play(HOLDEM, 2)
    empty = served(stored(table, deal), deal, 1)
    empty["openings"] = []
    out["no openings"] = empty, {"announced": deal.commitment}
    # after the hand, a deck made up to fit what was dealt, committed in order (the old scheme)
    made_up = commit([str(c) for c in deal.cards])
    fake = Deal(root(made_up.leaves), {}, "", deal.cards, made_up.salts, "")
    forged = served(stored(table, fake, 1), deal, 1)
    forged["leaves"] = list(made_up.leaves)
    forged["openings"] = [dict(o, salt=made_up.salts[o["position"]]) for o in forged["openings"]]
    out["a commitment made up after the hand"] = forged, {"announced": deal.commitment}
    rng = random.Random(7)
    # the server takes the cards of the committed reshuffle one place on (any order it likes)
    table, deal = play(STUD, 8, reshuffle=lambda d, pool: (lambda o: o[1:] + o[:1])(d.reshuffle(pool)))
    out["a stud reshuffle not drawn from the mix"] = served(stored(table, deal), deal, 1), {}
    table, deal = play(STUD, 8, reshuffle=lambda d, pool: rng.sample(list(pool), len(pool)))
    old = old_scheme(deal)
    out["an uncommitted stud reshuffle (old scheme)"] = served(stored(table, old, scheme=1), old, 1), {}
    return out


ATTACKS = attacks()


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
