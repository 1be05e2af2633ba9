"""A table's settings as data: the games it deals, the buy-in, the clock and its policies.

A table deals one game, or rotates between several on a schedule (L4, case 46): each
``Stage`` is a game and how many hands it lasts; the schedule repeats. Every setting is
checked when the config is made, and a wrong one raises ``TableError`` saying what is wrong.

>>> from pokerroom.core.structures import Game
>>> config = TableConfig.mixed(
...     [Stage(Game.no_limit(1, 2), 6), Stage(Game.fixed_limit(4, 8, small_blind=2, big_blind=4), 6)],
...     seats=6, min_buy_in=40, max_buy_in=200)
>>> [game_label(stage.game) for stage in config.schedule]
['NL 1/2', 'FL 4/8 (blinds 2/4)']
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pokerroom.core.structures import Game, Structure

CHECK_FOLD = "check_fold"
ALL_IN_PROTECTION = "all_in_protection"
TIMEOUT_POLICIES = (CHECK_FOLD, ALL_IN_PROTECTION)
SEEDS, STANDARD = "seeds", "standard"
MISSED_BLINDS = (SEEDS, STANDARD)
MAX_SEATS = {"holdem": 10, "stud": 8}


class TableError(ValueError):
    """A table command or setting the table refuses; ``code`` names the reason for machines."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def game_label(game: Game) -> str:
    """A short human name for a game: 'NL 1/2', 'FL 4/8 (blinds 2/4)', 'Stud 10/20'."""
    ante = f", ante {game.ante}" if game.ante else ""
    if game.variant == "stud":
        return f"Stud {game.small_bet}/{game.big_bet} (ante {game.ante}, bring-in {game.bring_in})"
    if game.structure is Structure.FIXED_LIMIT:
        return f"FL {game.small_bet}/{game.big_bet} (blinds {game.small_blind}/{game.big_blind}{ante})"
    return f"{game.structure.value} {game.small_blind}/{game.big_blind}{ante.replace(', ', ' ')}"


_STRUCTURES = {
    Structure.NO_LIMIT: "no_limit", Structure.POT_LIMIT: "pot_limit", Structure.FIXED_LIMIT: "fixed_limit",
}


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game as data, for clients: they name it and show its stakes from these fields in
    their own language, never by reading ``game_label``'s English (protocol 3).

    >>> game_info(Game.fixed_limit(4, 8, small_blind=2, big_blind=4)).stakes
    (4, 8)
    """

    variant: str  # "holdem" or "stud"
    structure: str  # "no_limit", "pot_limit" or "fixed_limit"
    stakes: tuple[int, int]  # the blinds (no limit, pot limit); the small and big bet (fixed limit, stud)
    small_blind: int  # 0 in stud
    big_blind: int  # 0 in stud
    small_bet: int  # fixed limit and stud; 0 otherwise
    big_bet: int
    ante: int
    bring_in: int  # stud; 0 otherwise


def game_info(game: Game) -> GameInfo:
    fixed = game.structure is Structure.FIXED_LIMIT
    return GameInfo(
        variant=game.variant,
        structure=_STRUCTURES[game.structure],
        stakes=(game.small_bet, game.big_bet) if fixed else (game.small_blind, game.big_blind),
        small_blind=game.small_blind,
        big_blind=game.big_blind,
        small_bet=game.small_bet if fixed else 0,
        big_bet=game.big_bet if fixed else 0,
        ante=game.ante,
        bring_in=game.bring_in,
    )


@dataclass(frozen=True)
class Stage:
    """One game of a schedule and how many hands in a row it is dealt."""

    game: Game
    hands: int

    def __post_init__(self) -> None:
        if not isinstance(self.game, Game):
            raise TableError("bad_game", f"a stage needs a Game, got {self.game!r}")
        if type(self.hands) is not int or self.hands < 1:
            raise TableError("bad_schedule", f"a stage lasts at least one hand, got {self.hands!r}")


@dataclass(frozen=True)
class TableConfig:
    """Everything a table needs to know before the first hand.

    Times are in seconds. ``action_time`` is the clock for each decision (R1: 10-20 s by
    default); ``time_bank`` is what a player starts with on top of it, used automatically
    when the action time runs out, refilled by ``time_bank_refill`` for every hand he is
    dealt, up to ``time_bank_max``. ``max_timeouts`` timeouts in a row sit a player out;
    ``max_missed_orbits`` orbits sitting out cost him the seat (his chips go back to his
    balance).

    ``timeout_policy`` is the seeds' all-in protection by default (D7): a player who times
    out with chips in the pot stays in for them, as long as he has protections left (the
    room's ``ProtectionLimit``); ``check_fold`` checks or folds. ``missed_blinds`` is what a
    player who missed blinds posts to come back before his big blind (H7, D11): the seeds'
    one live post the size of the big blind (``seeds``), or the big blind live plus the
    small blind dead (``standard``). ``straddles`` lets the player left of the big blind
    post a live straddle of twice the big blind in no limit and pot limit hands (D10).
    ``seat_offer_time``: how long a seat freed at a full table is held for the first on its
    waiting list (waiting.py).
    """

    schedule: tuple[Stage, ...]
    seats: int = 6
    min_buy_in: int = 0
    max_buy_in: int = 0
    action_time: float = 15.0
    time_bank: float = 30.0
    time_bank_max: float = 60.0
    time_bank_refill: float = 1.0
    timeout_policy: str = ALL_IN_PROTECTION
    max_timeouts: int = 2
    max_missed_orbits: int = 3
    missed_blinds: str = SEEDS
    straddles: bool = False
    seat_offer_time: float = 30.0
    template: str | None = None  # the template a table that opened itself was made from
    name: str = field(default="table")

    def __post_init__(self) -> None:
        schedule = self.schedule
        if not isinstance(schedule, tuple) or not schedule or not all(isinstance(s, Stage) for s in schedule):
            raise TableError("bad_schedule", "the schedule must be a non-empty tuple of Stage")
        variants = {s.game.variant for s in schedule}
        if len(variants) != 1:
            raise TableError("bad_schedule", "a schedule mixes hold'em structures, not hold'em and stud")
        variant = variants.pop()
        most = MAX_SEATS[variant]
        if type(self.seats) is not int or not 2 <= self.seats <= most:
            raise TableError("bad_seats", f"a {variant} table has 2 to {most} seats, got {self.seats!r}")
        for name in ("min_buy_in", "max_buy_in", "max_timeouts", "max_missed_orbits"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise TableError("bad_setting", f"{name} must be a non-negative whole number, got {value!r}")
        if self.min_buy_in < 1:
            raise TableError("bad_buy_in", "the minimum buy-in must be at least one chip")
        if self.max_buy_in < self.min_buy_in:
            raise TableError("bad_buy_in", "the maximum buy-in is below the minimum")
        for name in ("action_time", "time_bank", "time_bank_max", "time_bank_refill", "seat_offer_time"):
            value = getattr(self, name)
            if type(value) not in (int, float) or value < 0 or value != value or value == float("inf"):
                raise TableError("bad_setting", f"{name} must be a number of seconds, got {value!r}")
        if self.action_time < 1:
            raise TableError("bad_setting", "the action time must be at least one second")
        if self.time_bank > self.time_bank_max:
            raise TableError("bad_setting", "the starting time bank exceeds its maximum")
        if self.timeout_policy not in TIMEOUT_POLICIES:
            choices = " or ".join(TIMEOUT_POLICIES)
            raise TableError("bad_setting", f"timeout_policy must be {choices}, got {self.timeout_policy!r}")
        if self.max_timeouts < 1:
            raise TableError("bad_setting", "max_timeouts must be at least 1")
        if self.missed_blinds not in MISSED_BLINDS:
            choices = " or ".join(MISSED_BLINDS)
            raise TableError("bad_setting", f"missed_blinds must be {choices}, got {self.missed_blinds!r}")
        if type(self.straddles) is not bool:
            raise TableError("bad_setting", f"straddles is true or false, not {self.straddles!r}")
        if self.straddles and all(s.game.structure is Structure.FIXED_LIMIT for s in schedule):
            raise TableError("bad_setting", "straddles are for no limit and pot limit hold'em")

    @property
    def variant(self) -> str:
        return self.schedule[0].game.variant

    @property
    def is_mixed(self) -> bool:
        return len(self.schedule) > 1

    @classmethod
    def single(cls, game: Game, **settings: object) -> TableConfig:
        """A table dealing one game, with the buy-in 40 to 200 big blinds (bets) by default."""
        return cls.mixed([Stage(game, 1)], **settings)

    @classmethod
    def mixed(cls, stages: list[Stage], **settings: object) -> TableConfig:
        if not isinstance(stages, list | tuple) or not all(isinstance(s, Stage) for s in stages):
            raise TableError("bad_schedule", "the schedule must be a list of Stage")
        unit = max(_smallest_stack(s.game) for s in stages) if stages else 1
        settings.setdefault("min_buy_in", 40 * unit)
        settings.setdefault("max_buy_in", 200 * unit)
        return cls(tuple(stages), **settings)  # type: ignore[arg-type]


def buy_in_range(config: TableConfig, at_least: int = 0) -> tuple[int, int]:
    """The smallest and largest buy-in a player may sit down with, who left this table
    lately with ``at_least`` chips (D13: at least that, even above the table maximum)."""
    return max(config.min_buy_in, at_least), max(config.max_buy_in, at_least)


def check_buy_in(config: TableConfig, amount: object, stack: int, verb: str, at_least: int = 0) -> None:
    """Raise ``TableError`` unless ``stack`` plus ``amount`` chips is a buy-in the table takes
    (R3, S1, case 48): at least the minimum (no short buys), at most the maximum, or at most
    ``at_least`` (the stack a player left with, D13) when that is more."""
    low, high = config.min_buy_in, buy_in_range(config, at_least)[1]
    if type(amount) is not int or amount <= 0:
        raise TableError("bad_amount", f"chips are a positive whole number, not {amount!r}")
    if stack + amount < low:
        raise TableError(
            "below_minimum",
            f"cannot {verb} for {amount}: the stack must reach the minimum buy-in {low} (no short buys)",
        )
    if stack + amount > high:
        raise TableError(
            "above_maximum", f"cannot {verb} {amount}: the stack would pass the maximum buy-in {high}"
        )


def _smallest_stack(game: Game) -> int:
    """The unit a buy-in is measured in: the big blind, or a stud small bet."""
    return game.small_bet if game.variant == "stud" else max(game.big_blind, 1)
