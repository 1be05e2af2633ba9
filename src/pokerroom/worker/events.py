"""What a table's worker publishes besides the table's own events: the deal's commitment
and seeds (fairness.py, worker/deal.py) and the players' chat. Named tuples, as the table's
events are: the wire writes them by their class name (wire.event_item).
"""

from __future__ import annotations

from typing import NamedTuple, TypeAlias

from pokerroom.table.events import AnyEvent


class DeckCommitted(NamedTuple):
    """Published at the deal, before the first card: the commitment to the deck that is
    dealt (fairness.py; its salts and cards are revealed, as each reader may see them, in
    the hand's history)."""

    number: int
    commitment: str


class DeckSeeded(NamedTuple):
    """Published at the deal after ``HandStarted``, before the first card: the players'
    seeds mixed into this deal (seat, seed), and the commitment to the next hand's deck,
    which the seated players' seeds for that hand name (deal.py)."""

    number: int
    seeds: tuple[tuple[int, str], ...]
    next_commitment: str


class ChatLine(NamedTuple):
    player: str
    text: str


Published: TypeAlias = AnyEvent | DeckCommitted | DeckSeeded | ChatLine
