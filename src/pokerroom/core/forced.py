"""Forced bets checked: stacks, antes and blinds that make sense, and where the big blind is.

Set-up checks for ``Hand``: they raise ``GameError`` saying what is wrong before a chip moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from pokerroom.core.structures import Game, GameError, Structure


def check_chips(name: str, values: Sequence[int], n: int, least: int) -> None:
    """``n`` ints (bools and other int subclasses refused), none below ``least``."""
    if len(values) == n:
        # a loop over objects (compiled: no unboxing that would raise on a float first)
        for v in cast("Sequence[object]", values):
            if type(v) is not int or v < least:
                break
        else:
            return
    kind = "positive" if least else "non-negative"
    raise GameError(f"{name} must be {n} {kind} integers, got {list(values)!r}")


def check_blinds(game: Game, blinds: Sequence[int], bb: int) -> int:
    """Blinds that make sense: the big blind's is the largest, each one is the small or the
    big blind, and heads-up the big blind is player 0 (H4); or a straddle (D10). Returns the
    straddler, -1 when there is none."""
    small, big = game.small_blind, game.big_blind
    n = len(blinds)
    straddle = (bb + 1) % n
    if n < 3 or not big or blinds[straddle] != 2 * big:
        straddle = -1
    elif game.structure is Structure.FIXED_LIMIT:
        raise GameError("fixed limit has no straddles: they are for no limit and pot limit (D10)")
    elif blinds[bb] != big:
        raise GameError(f"a straddle needs the big blind: player {bb} posts {blinds[bb]}, not {big}")
    top = 0
    for i, b in enumerate(blinds):
        if b and b != small and b != big and i != straddle:
            raise GameError(f"blinds must be 0, the small blind or the big blind, got {list(blinds)} (D10: "
                            "a straddle of twice the big blind, by the player after it, 3+ players)")
        if b > top and i != straddle:
            top = b
    if not top:
        return straddle
    if blinds[bb] != top:
        raise GameError(f"player {bb} is the big blind but posts {blinds[bb]}, less than another blind")
    if n == 2 and blinds[0] and blinds[1] and bb != 0:
        raise GameError("heads-up the button posts the small blind: player 0 is the big blind (H4)")
    return straddle


def locate_big_blind(blinds: Sequence[int], big: int) -> int:
    """The largest blind in the first run of blinds (ties: the earlier one, so that a
    newcomer's live big blind after the big blind is not mistaken for it); a straddle
    (more than the big blind) ends the run."""
    best, best_amount = 0, -1
    start = next((i for i, b in enumerate(blinds) if b), len(blinds))
    for i in range(start, len(blinds)):
        b = blinds[i]
        if not b or b > big:
            break
        if b > best_amount:
            best, best_amount = i, b
    return best
