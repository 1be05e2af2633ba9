"""What a player may do: the hand's phases, ``Legal`` (the actions and amounts allowed
now) and ``IllegalAction`` (why an action is refused, with a code for machines)."""

from __future__ import annotations

from typing import NamedTuple

BETTING, SHOWDOWN, COMPLETE = "betting", "showdown", "complete"


class IllegalAction(ValueError):
    """An action the rules do not allow now; ``code`` names the reason for machines."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class Legal(NamedTuple):
    """What the player to act may do. Amounts are chips: ``call`` is what calling adds
    (0 means a check), ``min_to``/``max_to`` the total street bet after a bet or raise
    (None when no bet or raise is allowed)."""

    player: int | None
    fold: bool
    check: bool
    call: int
    min_to: int | None
    max_to: int | None
    show: bool
    muck: bool
    bring_in: int = 0  # stud: posting the bring-in is allowed, for this many chips


NO_ACTION = Legal(None, False, False, 0, None, None, False, False)
