"""What a table remembers between hands, as JSON, so that another process can take it over
(issue 18): the hand number, the mixed game's place in its schedule, the last positions
(so the button moves on rather than being drawn again), and each seat's state, debts,
time bank and options. The stacks are not here: the store's seats hold them, written with
every hand's result and every buy-in, top-up and cash-out.

``remember`` is called between hands (after a hand's end); ``restore`` seats the players
the store says sit at the table, with what the memory knows of them (a player who sat
down after the memory was written comes in as a newcomer: he owes the big blind).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from typing import Any

from pokerroom.table.positions import Positions
from pokerroom.table.seating import ACTIVE, ENTERING, SITTING_OUT, Options, Seat
from pokerroom.table.state import TableState

_STATES = (ACTIVE, ENTERING, SITTING_OUT)
_OPTIONS = tuple(f.name for f in fields(Options))


def remember(table: TableState) -> dict[str, Any]:
    """The table's memory now (JSON-able)."""
    positions = table.positions
    return {
        "hand_number": table.hand_number,
        "stage": table.stage,
        "stage_hands": table._stage_hands,
        "positions": None if positions is None else [positions.button, positions.small_blind,
                                                     positions.big_blind],
        "seats": {
            str(s): {
                "player": seat.player, "state": seat.state, "owe_big": seat.owe_big,
                "owe_small": seat.owe_small, "timeouts": seat.timeouts, "missed_orbits": seat.missed_orbits,
                "time_bank": seat.time_bank, "hands": seat.hands,
                "options": {n: getattr(seat.options, n) for n in _OPTIONS},
            }
            for s, seat in table.seats.items()
        },
    }


def restore(table: TableState, seats: Iterable[tuple[int, str, int]], memory: dict[str, Any] | None) -> None:
    """Seat ``seats`` ((seat, player, stack), the store's) at an empty ``table``, with what
    ``memory`` (``remember``'s, or None) says of the table and of them. A memory that does
    not fit (another config, a bad value) is ignored where it does not."""
    config = table.config
    stud = config.variant == "stud"
    known: dict[str, Any] = memory if isinstance(memory, dict) else {}
    seats_kept = known.get("seats")
    kept: dict[str, Any] = seats_kept if isinstance(seats_kept, dict) else {}
    for number, player, stack in seats:
        if not 1 <= number <= config.seats or player in table._by_player:
            continue
        seat = Seat(number, player, stack, config.time_bank, state=ACTIVE if stud else ENTERING,
                    owe_big=not stud)
        was = kept.get(str(number))
        if isinstance(was, dict) and was.get("player") == player:
            _apply(seat, was)
        table.seats[number] = seat
        table._by_player[player] = number
    hand_number = known.get("hand_number")
    if type(hand_number) is int and hand_number >= 0:
        table.hand_number = hand_number
    stage, done = known.get("stage"), known.get("stage_hands")
    if type(stage) is int and 0 <= stage < len(config.schedule) and type(done) is int and done >= 0:
        table.stage, table._stage_hands = stage, done
    positions = known.get("positions")
    if (isinstance(positions, list) and len(positions) == 3 and all(type(x) is int for x in positions)
            and all(1 <= x <= config.seats for x in positions)):
        table.positions = Positions(*positions)


def _apply(seat: Seat, was: dict[str, Any]) -> None:
    state = was.get("state")
    if state in _STATES:
        seat.state = state
    for name in ("owe_big", "owe_small"):
        if type(was.get(name)) is bool:
            setattr(seat, name, was[name])
    for name in ("timeouts", "missed_orbits", "hands"):
        if type(was.get(name)) is int and was[name] >= 0:
            setattr(seat, name, was[name])
    bank = was.get("time_bank")
    if isinstance(bank, int | float) and not isinstance(bank, bool) and bank >= 0:
        seat.time_bank = float(bank)
    options = was.get("options")
    if isinstance(options, dict):
        try:
            seat.options = Options().with_values({k: v for k, v in options.items() if k in Options.names()})
        except Exception:  # an option the table no longer has, or a bad value: the defaults
            seat.options = Options()
