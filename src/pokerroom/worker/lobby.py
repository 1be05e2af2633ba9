"""A table's line in the lobby (``lobby`` messages, /api/tables): its game, seats, stakes,
its hands per hour and its average pot.

Hands per hour are counted over the last hour, or over what the table has played when it
has played less (issue 19: a table that started ten minutes ago read "2", its hands of
the hour, instead of the rate it plays at): the hands ended since the table began to
deal, over the time since, at least a minute (a first hand alone is not a rate of
thousands). A table idle for an hour starts counting afresh."""

from __future__ import annotations

import time
from collections import deque

from pokerroom import protocol as p
from pokerroom.table import Table, TableConfig
from pokerroom.table.view import info_of
from pokerroom.wire import jsonable

HOUR = 3600.0


class LobbyLine:
    """Made again only after the table changed what its line shows (``changed``: seats,
    a hand begun or ended, the game, the waiting list), or a minute on for the hands per
    hour: the lobby asks for every table each second."""

    def __init__(self, config: TableConfig) -> None:
        self.config = config
        self._finished: deque[float] = deque(maxlen=500)  # when the last hands ended
        self._since: float | None = None  # when the table began to deal (after an idle hour: again)
        self._pots: deque[int] = deque(maxlen=50)
        self._line: p.LobbyRow | None = None  # the line, while it holds
        self._data: dict[str, object] | None = None  # and as JSON data, once asked
        self._at = 0.0

    def hand_finished(self, pot: int, started_at: float) -> None:
        """A hand that began at ``started_at`` ended now, with ``pot`` chips in its pots."""
        now = time.time()
        if self._since is None or not self._finished or self._finished[-1] <= now - HOUR:
            self._since = started_at
        self._finished.append(now)
        self._pots.append(pot)

    def hands_per_hour(self, now: float) -> int:
        if self._since is None:
            return 0
        window = min(HOUR, max(60.0, now - self._since))
        recent = sum(1 for t in self._finished if t > now - window)
        return round(recent * HOUR / window)

    def changed(self) -> None:
        self._line = self._data = None

    def data(self, table: Table) -> dict[str, object]:
        """The line as JSON data (what the bus carries), made again with the line."""
        line = self.of(table)
        if self._data is None:
            self._data = line.model_dump(mode="json")
        return self._data

    def of(self, table: Table) -> p.LobbyRow:
        now = time.time()
        if self._line is not None and now - self._at < 60:
            return self._line
        config = self.config
        now_game, next_game, left = table.schedule()
        self._at = now
        self._data = None
        self._line = p.LobbyRow.model_validate({
            "name": config.name,
            "game": now_game,
            "next_game": next_game,
            "hands_to_switch": left,
            "variant": config.variant,
            "seats": config.seats,
            "taken": len(table.seats),
            "players": [s.player for _, s in sorted(table.seats.items())],
            "min_buy_in": config.min_buy_in,
            "max_buy_in": config.max_buy_in,
            "action_time": config.action_time,
            "average_pot": round(sum(self._pots) / len(self._pots)) if self._pots else 0,
            "hands_per_hour": self.hands_per_hour(now),
            "hands": table.hand_number,
            "game_info": jsonable(info_of(config, now_game)),
            "next_game_info": jsonable(info_of(config, next_game)),
            "waiting": len(table.waiting),
            "template": config.template,
        })
        return self._line
