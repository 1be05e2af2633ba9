"""A seat at the table: who sits there, their chips, their state and their settings.

A player is in one of three states:

- ``active``: dealt every hand, owes nothing;
- ``entering``: sat down, or came back from sitting out, and owes a blind before being
  dealt in (H6, H7, D11): a newcomer owes a live big blind; so does a player who missed
  blinds, by the seeds' rule (one live post the size of the big blind, whichever he
  missed); by the ``standard`` rule one who sat out through the big blind owes it live
  plus the small blind dead, and one who missed only the small blind owes it dead. He
  waits for the big blind to reach him, or posts what he owes from any seat but the small
  blind's and the button's (``wait_for_big_blind`` off);
- ``sitting_out``: dealt nothing; every big blind that passes him is owed when he comes
  back, and each orbit he misses counts toward losing the seat.

A busted player (no chips) sits out until he buys in again.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace

ACTIVE, ENTERING, SITTING_OUT = "active", "entering", "sitting_out"


@dataclass(frozen=True)
class Options:
    """The player's own settings (S2, R4)."""

    auto_post_blinds: bool = True  # post blinds without being asked
    auto_post_antes: bool = True  # "I'm in" (S2): post antes without being asked
    wait_for_big_blind: bool = True  # a newcomer or returning player waits for the big blind
    sit_out_next_hand: bool = False  # sit out from the next hand on
    sit_out_next_big_blind: bool = False  # play until the big blind would be his, then sit out
    auto_muck: bool = True  # muck a hand beaten at the showdown instead of being asked
    straddle: bool = False  # post a live straddle when left of the big blind (D10), where allowed

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    def with_values(self, values: dict[str, object]) -> Options:
        from pokerroom.table.config import TableError

        known = self.names()
        for name, value in values.items():
            if name not in known:
                raise TableError("bad_option", f"unknown option {name!r}: one of {', '.join(known)}")
            if type(value) is not bool:
                raise TableError("bad_option", f"option {name} is true or false, not {value!r}")
        return replace(self, **values)  # type: ignore[arg-type]


@dataclass
class Seat:
    """One occupied seat. ``stack`` is the chips in front of the player between hands."""

    number: int
    player: str
    stack: int
    time_bank: float
    options: Options = field(default_factory=Options)
    state: str = ENTERING
    owe_big: bool = True  # a live big blind to post before being dealt in
    owe_small: bool = False  # a dead small blind to post before being dealt in
    timeouts: int = 0  # in a row
    missed_orbits: int = 0
    leaving: bool = False  # leaves when the hand he is in ends
    hands: int = 0  # hands dealt to him at this table

    @property
    def ready(self) -> bool:
        """Wants to play and can: chips, not sitting out, not leaving."""
        return self.state != SITTING_OUT and self.stack > 0 and not self.leaving

    @property
    def owes(self) -> bool:
        return self.owe_big or self.owe_small

    @property
    def owes_text(self) -> str:
        """What he must post or wait for: 'nothing', 'big_blind', 'big_and_small_blind',
        'small_blind'."""
        if self.owe_big and self.owe_small:
            return "big_and_small_blind"
        if self.owe_big:
            return "big_blind"
        return "small_blind" if self.owe_small else "nothing"

    def miss(self, blind: str, standard: bool) -> bool:
        """The big blind ('big') or the small blind ('small') passed him while he sat out:
        what he owes (D11). Whether that changed his debt."""
        before = (self.owe_big, self.owe_small)
        if not standard:  # the seeds: one live post the size of the big blind
            self.owe_big = True
        elif blind == "big":
            self.owe_big = self.owe_small = True
        else:
            self.owe_small = True
        return (self.owe_big, self.owe_small) != before

    def clear_debts(self) -> None:
        self.owe_big = self.owe_small = False
        self.state = ACTIVE

    def sit_out(self) -> None:
        self.state = SITTING_OUT

    def come_back(self) -> None:
        self.state = ENTERING if self.owes else ACTIVE
        self.missed_orbits = 0
