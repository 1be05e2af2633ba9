"""Betting structures as data: no limit, pot limit, fixed limit, and a game's stakes.

The rules each structure follows (RULES.md L1-L3, RULE-CASES.md D1-D3):

- No limit and pot limit use the full-raise rule (TDA 47, D2): a raise is full when it
  is at least the last full raise of the round (and at least the minimum bet); a player
  who already acted may raise again only if the bets since their last action add up to
  a full raise (case 12). The minimum raise stays at the last full raise (case 13).
- Pot limit caps a bet or raise at the pot after the raiser's call (L3); preflop, short
  or missing blinds count as if full (TDA 54-B/C, case 20).
- Fixed limit has fixed bet sizes and a cap of four bets a round (bet, raise, re-raise,
  cap; D1, also heads-up unless ``heads_up_uncapped``); the half-bet rule (RRP, D2): an
  all-in raise of at least half a bet counts as a full raise and reopens the betting.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from pokerroom.core.variants import VARIANTS


class Structure(Enum):
    """How much a player may bet."""

    NO_LIMIT = "NL"
    POT_LIMIT = "PL"
    FIXED_LIMIT = "FL"

    @property
    def fixed(self) -> bool:
        return self is Structure.FIXED_LIMIT

    @property
    def label(self) -> str:
        return {"NL": "No limit", "PL": "Pot limit", "FL": "Fixed limit"}[self.value]


class GameError(ValueError):
    """A game definition or hand setup that cannot be played."""


@dataclass(frozen=True)
class Game:
    """A game: its variant (variants.py), structure and stakes, all in integer chips.

    >>> Game.no_limit(1, 2).min_bet, Game.no_limit(1, 2).code
    (2, 'NT')
    >>> Game.fixed_limit(2, 4).small_blind, Game.fixed_limit(2, 4).big_blind
    (1, 2)
    """

    structure: Structure
    small_blind: int
    big_blind: int
    ante: int = 0
    min_bet: int = 0
    small_bet: int = 0
    big_bet: int = 0
    cap: int | None = field(default=None)
    heads_up_uncapped: bool = False
    variant: str = "holdem"  # "holdem" or "stud" (seven card stud)
    bring_in: int = 0
    open_pair_big_bet: bool = True  # stud, fourth street (S6, D8)

    def __post_init__(self) -> None:
        if not isinstance(self.structure, Structure):
            raise GameError(f"structure must be a Structure, got {self.structure!r}")
        for flag in ("heads_up_uncapped", "open_pair_big_bet"):
            if type(getattr(self, flag)) is not bool:
                raise GameError(f"{flag} must be True or False, got {getattr(self, flag)!r}")
        if self.cap is not None and type(self.cap) is not int:
            raise GameError(f"cap must be a whole number of bets, got {self.cap!r}")
        for name in ("small_blind", "big_blind", "ante", "min_bet", "small_bet", "big_bet"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise GameError(f"{name} must be a non-negative integer, got {value!r}")
        if self.small_blind > self.big_blind:
            raise GameError("the small blind cannot exceed the big blind")
        v = VARIANTS.get(self.variant) if type(self.variant) is str else None
        if v is None:
            names = " or ".join(repr(k) for k in VARIANTS)
            raise GameError(f"unknown variant {self.variant!r}: {names}")
        if self.structure.value not in v.codes:
            played = " or ".join(s.label.lower() for s in Structure if s.value in v.codes)
            raise GameError(f"{v.title} is played {played} here")
        if not v.blinds and (self.small_blind or self.big_blind):
            raise GameError(f"{v.name} has antes and a bring-in, not blinds")
        if v.bring_in and (type(self.bring_in) is not int or not 0 < self.bring_in < self.small_bet):
            raise GameError(f"{v.name} needs a bring-in of at least 1 and less than the small bet")
        if self.structure.fixed:
            if self.small_bet <= 0 or self.big_bet < self.small_bet:
                raise GameError("fixed limit needs 0 < small_bet <= big_bet")
            if self.cap is None:
                object.__setattr__(self, "cap", 4)  # D1: bet, raise, re-raise, cap
            elif self.cap < 1:
                raise GameError("the cap must be at least one bet")
        elif self.min_bet <= 0:
            raise GameError("no limit and pot limit need a positive min_bet")

    @classmethod
    def no_limit(cls, small_blind: int, big_blind: int, ante: int = 0) -> Game:
        return cls(Structure.NO_LIMIT, small_blind, big_blind, ante, min_bet=big_blind)

    @classmethod
    def pot_limit(cls, small_blind: int, big_blind: int, ante: int = 0) -> Game:
        return cls(Structure.POT_LIMIT, small_blind, big_blind, ante, min_bet=big_blind)

    @classmethod
    def fixed_limit(
        cls,
        small_bet: int,
        big_bet: int,
        *,
        small_blind: int | None = None,
        big_blind: int | None = None,
        ante: int = 0,
        cap: int = 4,
        heads_up_uncapped: bool = False,
    ) -> Game:
        """Fixed limit small_bet/big_bet; blinds default to half and all of the small bet."""
        bb = small_bet if big_blind is None else big_blind
        sb = bb // 2 if small_blind is None else small_blind
        return cls(
            Structure.FIXED_LIMIT, sb, bb, ante, small_bet=small_bet, big_bet=big_bet,
            cap=cap, heads_up_uncapped=heads_up_uncapped,
        )

    @classmethod
    def stud(
        cls,
        small_bet: int,
        big_bet: int,
        *,
        ante: int,
        bring_in: int,
        cap: int = 4,
        open_pair_big_bet: bool = True,
    ) -> Game:
        """Seven card stud, fixed limit small_bet/big_bet, with antes and a bring-in."""
        return cls(
            Structure.FIXED_LIMIT, 0, 0, ante, small_bet=small_bet, big_bet=big_bet, cap=cap,
            variant="stud", bring_in=bring_in, open_pair_big_bet=open_pair_big_bet,
        )

    @property
    def stud_game(self) -> bool:
        return self.variant == "stud"

    def bet_size(self, street: int) -> int:
        """Fixed limit: the small or the big bet, as the variant's street says: hold'em has
        the small bet preflop and on the flop, the big bet after (L1); stud the small bet on
        third and fourth street, the big bet after (S7)."""
        return self.big_bet if VARIANTS[self.variant].streets[street].big_bet else self.small_bet

    @property
    def code(self) -> str:
        """The PHH variant code of this game: NT, PT (ours: pot-limit hold'em), FT or F7S."""
        return VARIANTS[self.variant].codes[self.structure.value]
