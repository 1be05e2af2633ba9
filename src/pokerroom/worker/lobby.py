"""A table's line in the lobby (``lobby`` messages, /api/tables): its game, seats, stakes
and the hands and pots of the last hour."""

from __future__ import annotations

import time
from collections import deque

from pokerroom import protocol as p
from pokerroom.table import Table, TableConfig
from pokerroom.table.view import info_of
from pokerroom.wire import jsonable


class LobbyLine:
    """Made again only after the table changed (``changed``), or a minute on for the
    hands per hour: the lobby asks for every table each second."""

    def __init__(self, config: TableConfig) -> None:
        self.config = config
        self._finished: deque[float] = deque(maxlen=500)  # when the last hands ended
        self._pots: deque[int] = deque(maxlen=50)
        self._line: p.LobbyRow | None = None  # the line, while it holds
        self._at = 0.0

    def hand_finished(self, pot: int) -> None:
        self._finished.append(time.time())
        self._pots.append(pot)

    def changed(self) -> None:
        self._line = None

    def of(self, table: Table) -> p.LobbyRow:
        now = time.time()
        if self._line is not None and now - self._at < 60:
            return self._line
        config = self.config
        recent = [t for t in self._finished if t > now - 3600]
        now_game, next_game, left = table.schedule()
        self._at = now
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
            "hands_per_hour": len(recent),
            "hands": table.hand_number,
            "game_info": jsonable(info_of(config, now_game)),
            "next_game_info": jsonable(info_of(config, next_game)),
        })
        return self._line
