"""Games as data: what each street deals, who opens its betting, which bet it uses.

Hold'em and seven card stud differ by these descriptions, not by branches in the hand:
the hand deals a street's cards, picks its opener and sizes its bets from its ``Street``.
``Game.variant`` is the stable id (``VARIANTS`` key) the rest of the room stores.

>>> HOLDEM.streets[1].board, STUD.streets[0].down, STUD.streets[0].up
(3, 2, 1)
>>> HOLDEM.cards_needed(2), STUD.cards_needed(8)
(12, 52)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

# Who opens a street's betting
BLINDS: Final = "blinds"  # the blinds are the first bets; the player after the last blind opens (H1, D10)
FIRST_LEFT: Final = "first_left"  # the first player left of the button still in (after the flop, H4)
BRING_IN: Final = "bring_in"  # the lowest up card brings in or completes (S4)
BEST_SHOWING: Final = "best_showing"  # the best hand showing opens, ties to the left (S5)


@dataclass(frozen=True)
class Street:
    """One street: the cards dealt (burn first, then hole cards one round at a time to each
    player still in, down rounds before up rounds, then community cards), who opens, and
    whether fixed limit plays the big bet (L1, S7)."""

    name: str
    down: int  # hole cards dealt face down to each player
    up: int  # hole cards dealt face up to each player
    board: int  # community cards
    burn: bool
    opener: str
    big_bet: bool
    open_pair_option: bool = False  # D8: a pair showing lets the big bet be chosen (stud's fourth)


@dataclass(frozen=True)
class Variant:
    """A game as the hand plays it. Build one with ``variant()``, which works out the
    totals the hand needs from the streets."""

    id: str
    name: str  # as messages name it
    title: str  # as a sentence starts with it
    streets: tuple[Street, ...]
    max_players: int
    blinds: bool  # forced bets are blinds; otherwise antes and a bring-in
    codes: dict[str, str]  # PHH variant code by structure value: the structures it is played
    odd_chip_by_suit: bool  # D5: odd chips to the highest card by suit, not by position
    hole_cards: int  # per player, over the whole hand
    burns: int
    board_cards: int
    late_hole_cards: bool  # hole cards after the first street: a run-out shows them too
    up_cards: bool  # some hole cards are dealt up: the hand keeps which (hold'em keeps none)
    bring_in: bool  # some street opens with a bring-in
    hand_cards: int = 7  # cards a player holds with the board once all are out

    def cards_needed(self, players: int) -> int:
        """Cards the deck must hold for a hand of ``players`` (no more than the 52 there
        are: stud's card shortage rule deals the rest, D4)."""
        return min(52, self.hole_cards * players + self.burns + self.board_cards)

    @property
    def street_names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.streets)


def variant(
    id: str, name: str, title: str, streets: tuple[Street, ...], *, max_players: int,
    codes: dict[str, str], odd_chip_by_suit: bool,
) -> Variant:
    """A variant with its totals worked out from its streets."""
    return Variant(
        id, name, title, streets, max_players,
        blinds=any(s.opener == BLINDS for s in streets),
        codes=codes,
        odd_chip_by_suit=odd_chip_by_suit,
        hole_cards=sum(s.down + s.up for s in streets),
        burns=sum(1 for s in streets if s.burn),
        board_cards=sum(s.board for s in streets),
        late_hole_cards=any(s.down + s.up for s in streets[1:]),
        up_cards=any(s.up for s in streets),
        bring_in=any(s.opener == BRING_IN for s in streets),
    )


HOLDEM: Final = variant(
    "holdem", "hold'em", "hold'em",
    (
        Street("preflop", 2, 0, 0, False, BLINDS, False),  # one card at a time from the small blind (H1)
        Street("flop", 0, 0, 3, True, FIRST_LEFT, False),
        Street("turn", 0, 0, 1, True, FIRST_LEFT, True),
        Street("river", 0, 0, 1, True, FIRST_LEFT, True),
    ),
    max_players=22,  # 2 x 22 hole cards + 3 burns + 5 board = 52
    codes={"NL": "NT", "PL": "PT", "FL": "FT"},
    odd_chip_by_suit=False,
)

STUD: Final = variant(
    "stud", "stud", "seven card stud",
    (
        Street("third street", 2, 1, 0, False, BRING_IN, False),  # two down, one up (S3)
        Street("fourth street", 0, 1, 0, True, BEST_SHOWING, False, open_pair_option=True),
        Street("fifth street", 0, 1, 0, True, BEST_SHOWING, True),
        Street("sixth street", 0, 1, 0, True, BEST_SHOWING, True),
        Street("seventh street", 1, 0, 0, True, BEST_SHOWING, True),  # down (S8)
    ),
    max_players=8,  # the card shortage rule covers the rest (D4, S9)
    codes={"FL": "F7S"},
    odd_chip_by_suit=True,
)

VARIANTS: Final = {v.id: v for v in (HOLDEM, STUD)}
