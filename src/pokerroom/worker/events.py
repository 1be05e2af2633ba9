"""What a table's worker publishes besides the table's own events: the deal's commitment
and seeds (fairness.py, worker/deal.py) and the players' chat. Named tuples, as the table's
events are: the wire writes them under the names registered here (wire.wire_event).
"""

from __future__ import annotations

from typing import NamedTuple, TypeAlias

from pokerroom.table.events import AnyEvent
from pokerroom.table.view import GameChangedInfo, HandStartedInfo
from pokerroom.wire import wire_event


@wire_event("DeckCommitted")
class DeckCommitted(NamedTuple):
    """Published at the deal, before the first card: the commitment to the deck that is
    dealt (fairness.py; its salts and cards are revealed, as each reader may see them, in
    the hand's history)."""

    number: int
    commitment: str


@wire_event("DeckSeeded")
class DeckSeeded(NamedTuple):
    """Published at the deal after ``HandStarted``, before the first card: the players'
    seeds mixed into this deal (seat, seed), and the commitment to the next hand's deck,
    which the seated players' seeds for that hand name (deal.py)."""

    number: int
    seeds: tuple[tuple[int, str], ...]
    next_commitment: str


@wire_event("ChatLine")
class ChatLine(NamedTuple):
    player: str
    text: str


@wire_event("HandVoided")
class HandVoided(NamedTuple):
    """The hand ``number`` was cut short when the server dealing it stopped (issue 18): it
    is void, and every stack is what it was before it (the table's new server says so
    when it takes the table over, its ``players`` still seated)."""

    number: int
    players: int


# a hand's start and a game's change go out with the game as data (protocol 3)
Published: TypeAlias = (
    AnyEvent | HandStartedInfo | GameChangedInfo | DeckCommitted | DeckSeeded | ChatLine | HandVoided
)
