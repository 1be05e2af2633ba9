"""Hands for the history tests, played and scripted: ``random_hands`` (wild and passive
random play of every game, cached), the two scripted hands, hands with forced bets; the
names and the time the texts are written with. For tests/server/test_histories.py,
test_history_snapshot.py and test_history_trackers.py."""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence
from functools import cache

from pokerroom.cli.simulate import play_random_stud_hand
from pokerroom.core import phh
from pokerroom.core.cards import parse_cards, seeded_deck
from pokerroom.core.hand import Hand
from pokerroom.core.structures import Game
from pokerroom.sim import play_random_hand, random_action

NAMES = ("Ann", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gil", "Hal", "Ivy")  # no card text inside
NOON = datetime.datetime(2026, 11, 29, 17, 0, tzinfo=datetime.UTC).timestamp()


def play(game: Game, stacks: Sequence[int], seed: int, rng: random.Random) -> Hand:
    """A random complete hand: ``sim.play_random_hand`` for hold'em; for stud the same
    random play, the bring-in player posting it, completing or (when allowed) folding
    (``pokerroom simulate``'s ``play_random_stud_hand``)."""
    deck = seeded_deck(seed)
    if not game.stud_game:
        return play_random_hand(game, stacks, deck, rng)
    return play_random_stud_hand(game, stacks, deck, rng)


def seats_of(n: int, rng: random.Random) -> list[int]:
    return sorted(rng.sample(range(1, 10), n))


GAMES = {
    "NL": [Game.no_limit(1, 2), Game.no_limit(1, 2, ante=1), Game.no_limit(5, 10)],
    "PL": [Game.pot_limit(1, 2), Game.pot_limit(2, 5, ante=1)],
    "FL": [Game.fixed_limit(2, 4), Game.fixed_limit(10, 20, ante=2)],
    "STUD": [Game.stud(10, 20, ante=1, bring_in=3), Game.stud(4, 8, ante=1, bring_in=2)],
}
COUNTS = {"NL": 100, "PL": 70, "FL": 70, "STUD": 80}  # 320 hands of wild random play
PASSIVE = 30  # and 30 more of each kind, passive (120)


def play_passive(game: Game, stacks: Sequence[int], seed: int, rng: random.Random) -> Hand:
    """A random complete hand where nobody folds and few raise: long hands that reach the
    showdown, where each player shows or mucks at random (stud: deep enough for a card
    shortage on seventh street)."""
    hand = Hand(game, stacks, seeded_deck(seed))
    while not hand.complete:
        legal = hand.legal_actions()
        if legal.show or legal.muck:
            hand.act(rng.choice(["show", "muck"] if legal.muck else ["show"]), None, legal.player)
        elif legal.bring_in:
            hand.act("bring_in", None, legal.player)
        elif legal.min_to is not None and rng.random() < 0.1:
            hand.act("raise", legal.min_to, legal.player)
        else:
            hand.act("check" if legal.check else "call", None, legal.player)
    return hand


@cache
def random_hands(kind: str) -> list[tuple[Hand, list[int], int]]:
    """COUNTS[kind] hands of random play (half the stacks short: all in on an ante, a blind
    or the bring-in, or soon after), then PASSIVE hands of deep, passive play."""
    rng = random.Random(f"histories-{kind}")
    most = 8 if kind == "STUD" else 9
    out = []
    for k in range(COUNTS[kind] + PASSIVE):
        game = rng.choice(GAMES[kind])
        n = 2 + k % (most - 1)
        unit = game.big_blind or game.small_bet
        if k < COUNTS[kind]:
            stacks = [rng.choice([rng.randint(1, 6 * unit), rng.randint(10 * unit, 200 * unit)])
                      for _ in range(n)]
            hand = play(game, stacks, rng.randrange(10**9), rng)
        else:
            n = most if k % 3 == 0 else n
            hand = play_passive(game, [rng.randint(50 * unit, 100 * unit) for _ in range(n)],
                                rng.randrange(10**9), rng)
        out.append((hand, seats_of(n, rng), k))  # k: a seed for what a test draws
    return out


def scripted_holdem() -> Hand:
    """NL 1/2: Ann (small blind, seat 2), Bob (big blind, seat 3), Cyd (button, seat 5).
    Bob's kings make trips on the flop; he raises all in on the river, Ann calls and mucks."""
    deck = parse_cards("Ah Kc 7s Qd Kd 2h 3d Ks Qs 4c 5d 2c 6d Jd")
    hand = Hand(Game.no_limit(1, 2), [200, 150, 100], deck)
    for action, amount in [
        ("raise", 6), ("call", None), ("raise", 20), ("fold", None), ("call", None),  # preflop
        ("check", None), ("bet", 30), ("call", None),  # flop
        ("check", None), ("check", None),  # turn
        ("bet", 40), ("raise", 100), ("call", None),  # river
        ("muck", None),  # Bob is all in and shown; Ann gives up
    ]:
        hand.act(action, amount)
    assert hand.complete and hand.stacks == [50, 306, 94]
    return hand


def scripted_stud() -> Hand:
    """Stud 10/20, ante 1, bring-in 3: Bob brings in, Cyd completes, everyone checks down;
    Ann mucks, Bob's clubs flush beats Cyd's trip eights, Cyd mucks."""
    hh = phh.HandHistory(
        variant="F7S", antes=[1, 1, 1], bring_in=3, small_bet=10, big_bet=20, starting_stacks=[100] * 3,
        actions=["d dh p1 AsKsQh", "d dh p2 7h2d3c", "d dh p3 8c8d9s", "p2 pb", "p3 cbr 10", "p1 cc", "p2 cc",
                 "d dh p1 Jd", "d dh p2 4c", "d dh p3 Th", "p1 cc", "p2 cc", "p3 cc",
                 "d dh p1 5h", "d dh p2 5c", "d dh p3 6h", "p1 cc", "p2 cc", "p3 cc",
                 "d dh p1 7d", "d dh p2 6c", "d dh p3 2h", "p1 cc", "p2 cc", "p3 cc",
                 "d dh p1 Ah", "d dh p2 Jc", "d dh p3 8h", "p1 cc", "p2 cc", "p3 cc",
                 "p1 sm", "p2 sm 7h2d3c4c5c6cJc", "p3 sm"],
    )
    hand = phh.replay(hh)  # an engine hand like any other, dealt from the file's cards
    assert hand.stacks == [89, 122, 89] and hand.mucked == {0, 2}
    return hand


def play_forced(game: Game, stacks: list[int], seed: int, **forced: object) -> Hand:
    rng = random.Random(seed)
    hand = Hand(game, stacks, seeded_deck(seed), **forced)  # type: ignore[arg-type]
    while not hand.complete:
        legal = hand.legal_actions()
        kind, amount = random_action(legal, rng)
        hand.act(kind, amount, legal.player)
    return hand
