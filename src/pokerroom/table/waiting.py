"""A table's waiting list (issue 19): who waits for a seat, in the order they joined,
people ahead of bots (a bot never holds a place ahead of a person), and the seats held
for the first of them.

When a seat is free and somebody waits, the seat is offered to the first waiting player
who has no offer yet, for ``seat_offer_time`` seconds (the table's), and held for him:
anyone else may sit only in a seat beyond those held. He takes it by sitting down in any
free seat; when his time runs out the offer lapses, he leaves the list, and the seat goes
to the next. Pure: the table calls it with its own clock (table.py).
"""

from __future__ import annotations


class WaitingList:
    def __init__(self) -> None:
        self.names: list[str] = []  # in order: the people, then the bots
        self.bots: set[str] = set()
        self.offers: dict[str, float] = {}  # player -> until when his seat is held

    def __contains__(self, player: object) -> bool:
        return player in self.offers or player in self.names

    def __len__(self) -> int:
        return len(self.names)

    def join(self, player: str, bot: bool) -> int:
        """Put ``player`` on the list; his place (1: first)."""
        if bot:
            self.names.append(player)
            self.bots.add(player)
            return len(self.names)
        at = next((k for k, name in enumerate(self.names) if name in self.bots), len(self.names))
        self.names.insert(at, player)
        return at + 1

    def leave(self, player: str) -> None:
        """Off the list (his offer, if he had one, goes too)."""
        if player in self.names:
            self.names.remove(player)
        self.bots.discard(player)
        self.offers.pop(player, None)

    def offer(self, free: int, now: float, seconds: float) -> list[str]:
        """Offer seats while fewer are held than ``free`` and somebody waits without an
        offer: who got one now."""
        offered: list[str] = []
        for player in self.names:
            if len(self.offers) >= free:
                break
            if player not in self.offers:
                self.offers[player] = now + seconds
                offered.append(player)
        return offered

    def withdraw(self, free: int) -> list[str]:
        """More seats held than are free (somebody sat in the seat before it was offered):
        the latest offers taken back, their players still waiting, first in line."""
        taken: list[str] = []
        while len(self.offers) > max(0, free):
            player = max(self.offers, key=lambda name: self.names.index(name))
            del self.offers[player]
            taken.append(player)
        return taken

    def lapse(self, now: float) -> list[str]:
        """The offers whose time ran out: their players are off the list."""
        late = [player for player, until in self.offers.items() if now >= until]
        for player in late:
            self.leave(player)
        return late

    def held(self, player: str) -> int:
        """How many free seats are held for others than ``player``."""
        return len(self.offers) - (player in self.offers)

    @property
    def deadline(self) -> float | None:
        """When the first offer lapses."""
        return min(self.offers.values()) if self.offers else None

    def state(self) -> tuple[tuple[str, ...], tuple[tuple[str, float], ...]]:
        """(the names in order, (player, until) of the seats held)."""
        offers = tuple((name, self.offers[name]) for name in self.names if name in self.offers)
        return tuple(self.names), offers
