"""How many all-in protections a player has left (D7).

The seeds' room keeps a player whose clock runs out in the hand for the chips he has
committed ("Все в игре", R1). To stop players using that as a free pass, a player gets at
most ``limit`` protections in any ``window`` seconds (2 in 24 hours by default, a room
setting), counted across every table of the room: the room makes one ``ProtectionLimit``
and hands it to each table, and loads the uses it stored when it starts again. Times are
the caller's clock (the server's wall clock), as everywhere in the table layer.

>>> limit = ProtectionLimit(limit=2, window=100.0)
>>> limit.spend('ann', 10.0); limit.spend('ann', 50.0)
>>> limit.left('ann', 60.0), limit.left('ann', 111.0), limit.left('bob', 60.0)
(0, 1, 2)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable


class ProtectionLimit:
    """Protections used per player within a sliding window; see the module docstring."""

    def __init__(self, limit: int = 2, window: float = 86_400.0) -> None:
        from pokerroom.table.config import TableError

        if type(limit) is not int or limit < 0:
            raise TableError("bad_setting", f"the protection limit is a whole number, not {limit!r}")
        if type(window) not in (int, float) or not 0 < window < float("inf"):
            raise TableError("bad_setting", f"the protection window is a number of seconds, not {window!r}")
        self.limit = limit
        self.window = float(window)
        self._uses: dict[str, list[float]] = {}

    def _recent(self, player: str, now: float) -> list[float]:
        uses = self._uses.get(player)
        if not uses:
            return []
        start = now - self.window
        if uses[0] <= start:  # forget what left the window
            uses[:] = [t for t in uses if t > start]
            if not uses:
                del self._uses[player]
        return uses

    def left(self, player: str, now: float) -> int:
        """How many protections ``player`` may still be given at ``now``."""
        return max(0, self.limit - len(self._recent(player, now)))

    def spend(self, player: str, now: float) -> None:
        """Record one protection given to ``player`` at ``now``."""
        self._recent(player, now)
        self._uses.setdefault(player, []).append(now)

    def load(self, player: str, times: Iterable[float]) -> None:
        """Add protections given earlier or elsewhere (read back from the room's database).
        A use known already is not counted twice: at each time, as many uses as the more
        of what is known here and what was read (two tables may time him out at once)."""
        uses = self._uses.setdefault(player, [])
        uses[:] = sorted((Counter(uses) | Counter(times)).elements())

    def __repr__(self) -> str:
        return f"ProtectionLimit(limit={self.limit}, window={self.window})"
