"""A player's graph kept bounded: his running totals (net, and net of the hands he took to
the showdown) sampled every ``step`` hands. When the samples pass ``MAX_POINTS``, every
other one goes and the step doubles, so a player of a million hands keeps a few hundred
points and his page reads one row (store/schema.py ``stats_graphs``).

>>> g = Graph.empty()
>>> for net in (5, -2, 7):
...     g.add(net, net if net > 0 else 0)
>>> g.series()
[[0, 0, 0], [1, 5, 0], [2, 3, -2], [3, 10, -2]]
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

MAX_POINTS = 500  # samples kept past the origin (before the step doubles)


@dataclass(slots=True)
class Graph:
    """Running totals after ``hands`` hands and the samples ([hands, net, net without the
    showdowns]) taken every ``step`` hands."""

    hands: int = 0
    net: int = 0
    net_showdown: int = 0
    step: int = 1
    points: list[list[int]] = field(default_factory=list)

    @classmethod
    def empty(cls) -> Graph:
        return cls()

    @classmethod
    def stored(cls, hands: int, net: int, net_showdown: int, step: int, points: str) -> Graph:
        return cls(hands, net, net_showdown, step, json.loads(points))

    def points_text(self) -> str:
        return json.dumps(self.points, separators=(",", ":"))

    def add(self, net: int, net_showdown: int) -> None:
        """One more hand: its net, and its net if he took it to the showdown (else 0)."""
        self.hands += 1
        self.net += net
        self.net_showdown += net_showdown
        if self.hands % self.step == 0:
            self.points.append([self.hands, self.net, self.net - self.net_showdown])
            if len(self.points) > MAX_POINTS:
                self.points = self.points[1::2]  # those at multiples of twice the step
                self.step *= 2

    def series(self) -> list[list[int]]:
        """The points to draw, [hands, net, net without the showdowns]: the origin, the
        samples and the totals now (when the last hand is not a sample)."""
        out = [[0, 0, 0], *self.points]
        if self.hands % self.step:
            out.append([self.hands, self.net, self.net - self.net_showdown])
        return out
