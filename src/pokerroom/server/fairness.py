"""Provably fair deals without showing anyone a folded hand.

At the deal the server commits to the whole deck order card by card: each position ``i``
gets a random salt and a leaf ``sha256(salt_i + card_i)``; the commitment is the SHA-256
of the 52 leaves (hex) joined in order. The commitment is published before the first card
is dealt. When the hand is over, its history gives every leaf, and the salt and card of
every position the reader may see (the board, the hands shown or that reached the
showdown, his own cards). Anyone can then check that those cards were at those places in
the committed deck, while the cards nobody showed stay secret: a leaf reveals nothing
without its salt.

>>> from pokerroom.core.cards import FULL_DECK
>>> deal = commit(FULL_DECK, salts=['00'] * 52)
>>> verify(deal.commitment, deal.leaves, [opening(deal, FULL_DECK, 0)])
True
>>> verify(deal.commitment, deal.leaves, [{'position': 0, 'card': 'Ah', 'salt': '00'}])
False

The server stores a deal as its salts joined in one string (``salt_text``, beside the
deck's cards in the hands row) and makes the leaves and openings from them when a history
is read (``leaves_of``, ``openings_of``): the same values, written at the end of every
hand in 52 openings no more.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Commitment:
    commitment: str
    leaves: tuple[str, ...]
    salts: tuple[str, ...]


def _leaf(salt: str, card: str) -> str:
    return hashlib.sha256((salt + card).encode()).hexdigest()


def root(leaves: Sequence[str]) -> str:
    return hashlib.sha256("".join(leaves).encode()).hexdigest()


SALT_CHARS = 32  # a salt: 16 random bytes, in hex


def commit(deck: Sequence[object], salts: Sequence[str] | None = None) -> Commitment:
    """Commit to ``deck`` (cards printed as 'As'); salts are 16 random bytes each (from one
    call to ``secrets``, cut in 16-byte pieces)."""
    if salts is None:
        text = secrets.token_hex(16 * len(deck))
        salts = [text[i : i + SALT_CHARS] for i in range(0, len(text), SALT_CHARS)]
    leaves = tuple(_leaf(s, str(c)) for s, c in zip(salts, deck, strict=True))
    return Commitment(root(leaves), leaves, tuple(salts))


def salt_text(deal: Commitment) -> str:
    """The deal's salts as one string, to store (``openings_of`` and ``leaves_of`` read it)."""
    if set(map(len, deal.salts)) - {SALT_CHARS}:
        raise ValueError(f"salts of {SALT_CHARS} characters are stored as one text")
    return "".join(deal.salts)


def _pieces(salts: str, cards: str) -> list[tuple[str, str]]:
    """(salt, card) by position, from ``salt_text`` and the deck's cards ('AsKd...')."""
    if len(salts) != SALT_CHARS * (len(cards) // 2) or len(cards) % 2:
        raise ValueError("the salts and the deck do not match")
    n = SALT_CHARS
    return [(salts[n * i : n * (i + 1)], cards[2 * i : 2 * i + 2]) for i in range(len(cards) // 2)]


def openings_of(salts: str, cards: str) -> list[dict[str, Any]]:
    """Every position's opening, as ``opening`` makes them, from the stored salts and deck."""
    pieces = _pieces(salts, cards)
    return [{"position": i, "card": card, "salt": salt} for i, (salt, card) in enumerate(pieces)]


def leaves_of(salts: str, cards: str) -> list[str]:
    """The deal's leaves, as ``commit`` makes them, from the stored salts and deck."""
    return [_leaf(salt, card) for salt, card in _pieces(salts, cards)]


def opening(deal: Commitment, deck: Sequence[object], position: int) -> dict[str, Any]:
    """What proves the card at ``position``."""
    return {"position": position, "card": str(deck[position]), "salt": deal.salts[position]}


def verify(commitment: str, leaves: Sequence[str], openings: Sequence[dict[str, Any]]) -> bool:
    """Whether the leaves make the commitment and every opened card matches its leaf."""
    if root(leaves) != commitment:
        return False
    for o in openings:
        position = o.get("position")
        if type(position) is not int or not 0 <= position < len(leaves):
            return False
        if _leaf(str(o.get("salt")), str(o.get("card"))) != leaves[position]:
            return False
    return True
