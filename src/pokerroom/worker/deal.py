"""The deal: a secure shuffle the server commits to, mixed with the players' seeds.

A deal is verifiable end to end (docs/protocol.md, "Provably fair deals"):

1. The server draws the next hand's deck ahead of time (``secure_deck``) and commits to it
   (``fairness.commit``): a salted leaf per card, the commitment the SHA-256 of the 52
   leaves sorted. The sorted leaves *are* the server's deck order: whatever salts it picks,
   the commitment fixes which card is first, second, ... (``Prepared``).
2. That commitment is published at the deal of the hand before (``DeckSeeded.next``);
   from then until the deal each seated player may send a seed for it (``take_seed``: the
   seed names the commitment, so it cannot be applied to a deck drawn after it was seen).
3. At the deal the seeds of the seated players are mixed with the commitment (``mix``);
   the mix orders the committed cards into the dealing order (``permutation``), and draws
   the order of a stud reshuffle (``Deal.reshuffle``). The seeds are published before the
   first card, with the commitment.

The server cannot choose the deck against a player's own seed (the limit: a seat it controls
could pick its seed last; docs/protocol.md): it fixed its cards before any seed could be
sent and cannot change them afterwards (the commitment), while a player's seed moves every
card to a place the server could not foresee; a player cannot aim his seed at any deal
because he does not know the committed cards (each is hidden behind 128 random bits).
"""

from __future__ import annotations

import re
import secrets
import struct
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field

from pokerroom.core.cards import FULL_DECK, Card
from pokerroom.fairness import commit, mix, permutation, reshuffle_key
from pokerroom.table import TableError

SEED = re.compile(r"[0-9A-Za-z_-]{8,64}")  # what a player's seed may be
_WORDS = 1 << 32


def secure_deck(random_bytes: Callable[[int], bytes] = secrets.token_bytes) -> list[Card]:
    """The full deck in a uniformly random order: the Fisher-Yates shuffle of
    ``SystemRandom.shuffle``, each index drawn without bias (32-bit words from the OS's
    CSPRNG, those past the last whole multiple of the range drawn again), but with the
    random bytes of a whole deck from one call rather than one system call per card."""
    deck = list(FULL_DECK)
    size = len(deck)
    words: tuple[int, ...] = ()
    k = 0
    for i in range(len(deck) - 1, 0, -1):
        n = i + 1
        limit = _WORDS - _WORDS % n  # words below it fall evenly on 0 .. n - 1
        while True:
            if k == len(words):
                words, k = struct.unpack(f"<{size}I", random_bytes(4 * size)), 0
            word = words[k]
            k += 1
            if word < limit:
                break
        j = word % n
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@dataclass(frozen=True)
class Prepared:
    """The next hand's deck, committed to: ``cards`` and ``salts`` in the committed order
    (their leaves sorted), and the ``commitment``."""

    cards: tuple[Card, ...]
    salts: tuple[str, ...]
    commitment: str

    @classmethod
    def draw(cls) -> Prepared:
        deck = secure_deck()
        done = commit([str(c) for c in deck])
        order = sorted(range(len(deck)), key=done.leaves.__getitem__)
        return cls(tuple(deck[i] for i in order), tuple(done.salts[i] for i in order), done.commitment)


@dataclass
class Deal:
    """One hand's deal: the cards and their salts in the dealing order (what the core is
    given: position k of the deck is the k-th card it takes), and what was published."""

    commitment: str
    seeds: dict[int, str]  # seat -> seed
    key: str  # the mix: the deal order and the reshuffles are drawn from it
    cards: list[Card]
    salts: tuple[str, ...]
    next_commitment: str
    reshuffles: int = field(default=0)

    def reshuffle(self, pool: tuple[Card, ...]) -> list[Card]:
        """The core's ``reshuffle`` callback: the stub and the burns (in the core's order)
        in the order drawn from this deal's mix, so the reshuffle was committed too."""
        order = permutation(reshuffle_key(self.key, self.reshuffles), len(pool))
        self.reshuffles += 1
        return [pool[i] for i in order]

    @property
    def card_text(self) -> str:
        return "".join(map(str, self.cards))


class Dealer:
    """The deals of one table: the next deck is drawn and committed to as soon as a hand is
    dealt, and the seeds for it are taken until the next deal."""

    def __init__(self) -> None:
        self._next = Prepared.draw()
        self._seeds: dict[str, str] = {}  # player -> his seed for the next deal

    @property
    def next_commitment(self) -> str:
        return self._next.commitment

    def take_seed(self, player: str, commitment: str, seed: str, seated: Collection[str]) -> None:
        """Keep ``player``'s seed for the deal committed to as ``commitment`` (a later one
        replaces it). Only a seated player's, and only for the deck not yet dealt."""
        if player not in seated:
            raise TableError("not_seated", "only a seated player adds a seed to the deal")
        if SEED.fullmatch(seed) is None:
            raise TableError("bad_seed", "a seed is 8 to 64 letters, digits, '-' or '_'")
        if commitment != self._next.commitment:
            raise TableError("stale_seed", "that deck was dealt already: seed the one announced last")
        self._seeds[player] = seed

    def deal(self, seated: Mapping[int, str]) -> Deal:
        """Deal the committed deck, ordered by the seeds of the ``seated`` players (seat ->
        player), and commit to the next one."""
        prepared = self._next
        seeds = {seat: self._seeds[p] for seat, p in seated.items() if p in self._seeds}
        key = mix(prepared.commitment, seeds)
        order = permutation(key, len(prepared.cards))
        self._next, self._seeds = Prepared.draw(), {}
        return Deal(
            prepared.commitment,
            seeds,
            key,
            [prepared.cards[j] for j in order],
            tuple(prepared.salts[j] for j in order),
            self._next.commitment,
        )
