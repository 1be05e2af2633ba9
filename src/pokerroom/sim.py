"""Random legal play: a stress test for the engine and the ``pokerroom simulate`` command.

>>> import random
>>> from pokerroom.core.cards import seeded_deck
>>> from pokerroom.core.structures import Game
>>> hand = play_random_hand(Game.no_limit(1, 2), [200] * 6, seeded_deck(1), random.Random(1))
>>> hand.complete, sum(hand.stacks)
(True, 1200)
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pokerroom.core.hand import Hand, Legal
from pokerroom.core.structures import Game

__all__ = ["play_random_hand", "random_action"]


def random_action(legal: Legal, rng: random.Random) -> tuple[str, int | None]:
    """A uniformly random kind of action among those ``legal`` allows, as (name, amount)
    for ``Hand.act``: 'fold' (only when facing a bet), 'check' or 'call', 'raise' (a bet or
    raise to a uniform amount from ``min_to`` to ``max_to``); at a showdown 'show' or
    'muck' (when mucking is allowed)."""
    if legal.player is None:
        raise ValueError("nobody is to act")
    if legal.show or legal.muck:
        return rng.choice(["show", "muck"] if legal.muck else ["show"]), None
    kinds = ["check" if legal.check else "call"]
    if legal.fold:
        kinds.append("fold")
    if legal.min_to is not None and legal.max_to is not None:
        kinds.append("raise")
    kind = rng.choice(kinds)
    if kind == "raise":
        assert legal.min_to is not None and legal.max_to is not None
        return kind, rng.randint(legal.min_to, legal.max_to)
    return kind, None


def play_random_hand(game: Game, stacks: Sequence[int], deck: Sequence[int], rng: random.Random) -> Hand:
    """Play one hand to its end with ``random_action`` for every decision."""
    hand = Hand(game, stacks, deck)
    while not hand.complete:
        legal = hand.legal_actions()
        kind, amount = random_action(legal, rng)
        hand.act(kind, amount, legal.player)
    return hand
