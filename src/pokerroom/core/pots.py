"""Side pots, uncalled bets and odd chips (H12, H13, C4, D5; cases 28, 29, 32).

>>> pots = build_pots([50, 120, 300, 300, 30], folded=[False, False, False, False, True],
...                   all_in=[True, True, True, False, False])
>>> [(p.amount, p.eligible) for p in pots]
[(230, (0, 1, 2, 3)), (210, (1, 2, 3)), (360, (2, 3))]
>>> split(23, (0, 2, 3))
(8, 8, 7)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple


class Pot(NamedTuple):
    """``amount`` chips that the players in ``eligible`` (ascending order) can win."""

    amount: int
    eligible: tuple[int, ...]


_NEW = tuple.__new__  # a Pot made at C speed (the named tuple's constructor is Python code)


def uncalled(bets: Sequence[int]) -> tuple[int, int]:
    """(player, amount) of the part of the highest bet that nobody matched, or (-1, 0)."""
    top = -1
    first = second = 0
    for i, b in enumerate(bets):
        if b > first:
            second, first, top = first, b, i
        elif b > second:
            second = b
    if top < 0 or first == second:
        return -1, 0
    return top, first - second


def build_pots(
    contributions: Sequence[int],
    folded: Sequence[bool],
    all_in: Sequence[bool],
    dead: int = 0,
    dead_antes: Sequence[int] | None = None,
) -> list[Pot]:
    """Main pot first, then side pots, from what each player put in this hand.

    A pot closes at each all-in level of a live player; folded players' chips stay in the
    pots they reached. ``dead`` money (dead blinds) goes to the main pot. ``dead_antes``
    (antes not everyone pays alike, such as a big-blind ante) are dead money too, but a
    player all in on his ante can win of them only as much as he matched. Uncalled chips
    must have been returned before (``uncalled``).
    """
    live = [i for i, f in enumerate(folded) if not f]
    if not live:
        raise ValueError("no live player to build pots for")
    top = max(contributions[i] for i in live)
    levels = sorted({contributions[i] for i in live if all_in[i]} | {top})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = 0
        for c in contributions:
            if c > previous:
                amount += (c if c < level else level) - previous
        eligible = tuple(i for i in live if contributions[i] >= level)
        if not pots:
            amount += dead
        if amount > 0 or not pots:
            pots.append(_NEW(Pot, (amount, eligible)))
        previous = level
    # chips of folded players above the top live level cannot stay unclaimed
    extra = sum(c - top for c in contributions if c > top)
    if extra:
        pots[-1] = _NEW(Pot, (pots[-1].amount + extra, pots[-1].eligible))
    if dead_antes is not None and any(dead_antes):
        for pot in _ante_pots(contributions, dead_antes, live, all_in):
            same = next((k for k, p in enumerate(pots) if p.eligible == pot.eligible), -1)
            if same >= 0:
                pots[same] = _NEW(Pot, (pots[same].amount + pot.amount, pot.eligible))
            else:
                pots.append(pot)
    return pots


def _ante_pots(
    contributions: Sequence[int], antes: Sequence[int], live: list[int], all_in: Sequence[bool]
) -> list[Pot]:
    """Dead antes split at the level of each live player who is all in on his ante."""
    short = {i for i in live if all_in[i] and contributions[i] == 0 and antes[i]}
    levels = sorted({antes[i] for i in short} | {max(antes)})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(a, level) - min(a, previous) for a in antes)
        eligible = tuple(i for i in live if i not in short or antes[i] >= level)
        if amount:
            pots.append(_NEW(Pot, (amount, eligible)))
        previous = level
    return pots


def split(amount: int, winners: Sequence[int]) -> tuple[int, ...]:
    """Equal shares; odd chips one each to the winners in the order given (D5: hold'em
    passes them in seat order from the first seat left of the button)."""
    share, odd = divmod(amount, len(winners))
    return tuple(share + (1 if k < odd else 0) for k in range(len(winners)))
