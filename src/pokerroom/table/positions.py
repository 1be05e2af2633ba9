"""Who is dealt in, where the button and blinds go, and what each player posts.

A pure function of the seats and the last hand's positions. Seats are numbered 1 to N,
clockwise. Hold'em follows the dead-button rule (RRP Button & Blind 2(b), TDA 32, cases
4-6): the big blind moves to the next player clockwise who will play, so nobody ever pays
it twice in an orbit; the small blind goes to the seat that had the big blind, and posts
only if that player is still in (otherwise there is no small blind: a dead small blind);
the button goes to the seat that had the small blind, even when that seat is now empty (a
dead button). Heads-up, the button posts the small blind and the other player the big
blind (H4, case 3); from three players to two, whoever is due the big blind takes it and
the other the button (case 4).

Players who sat out while a blind passed them owe it (H7, D11): by the seeds' rule one live
post the size of the big blind; by the ``standard`` rule the big blind live and the small
blind dead, or only the small blind dead when only it was missed (case 8). A newcomer owes
a live big blind (H6, case 7). Either may wait for the big blind to reach them, or post
from any seat after the big blind and before the button.

When the old positions do not fit around the new big blind (a heads-up table becomes
three-handed, or three players become two), the blinds and the button are placed among
the players who owe nothing, as if the table had only them; the others wait for the big
blind or post from a seat after it and before the button, as always: nobody is dealt in
free (cases 4, 7, 8). Only when the table starts, or restarts (fewer than two players
could be dealt in that way), is the hand dealt "fresh": everyone ready is dealt in with
the normal blinds, and what they owed is forgiven.

With straddles allowed (D10), the first player after the big blind posts a live straddle of
twice the big blind when he asked to (``Options.straddle``), owes nothing and can cover
it, in no limit and pot limit hands of three players or more.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from pokerroom.core.structures import Game
from pokerroom.table.seating import ACTIVE, Seat


@dataclass(frozen=True)
class Positions:
    """The seats of the button, the small blind position and the big blind of a hand. In
    stud only ``button`` means anything (the dealer: dealing starts on his left, S3)."""

    button: int
    small_blind: int
    big_blind: int


@dataclass(frozen=True)
class Plan:
    """The next hand, seat by seat. ``seats`` are the players dealt in, in the engine's
    order (first left of the button, the button last; heads-up the big blind first);
    ``blinds``, ``dead`` and ``antes`` go with them."""

    positions: Positions
    seats: tuple[int, ...]
    blinds: tuple[int, ...]
    dead: tuple[int, ...]
    antes: tuple[int, ...]
    big_blind_position: int  # index in seats (0 in stud)
    small_blind_posted: bool
    missed_big: tuple[int, ...]  # sitting-out seats the big blind (stud: the button) passed
    missed_small: tuple[int, ...]  # a sitting-out player in the small blind seat
    sit_out_now: tuple[int, ...]  # players who asked to sit out when the big blind came
    fresh: bool  # dealt fresh: debts of the players dealt in are forgiven
    straddle: int | None = None  # the seat that posts a straddle (D10)

    def post_of(self, seat: int) -> tuple[int, int, int]:
        """(live blind, dead blind, ante) the player in ``seat`` posts."""
        i = self.seats.index(seat)
        return self.blinds[i], self.dead[i], self.antes[i]


def clockwise(start: int, n: int) -> Iterator[int]:
    """The seats after ``start``, clockwise, ending with ``start`` itself."""
    for k in range(1, n + 1):
        yield (start - 1 + k) % n + 1


def distance(a: int, b: int, n: int) -> int:
    """How many seats clockwise from a to b (0 when a == b)."""
    return (b - a) % n


def plan_hand(
    seats: Mapping[int, Seat],
    n: int,
    game: Game,
    prev: Positions | None,
    button: int | None = None,
    *,
    straddles: bool = False,
) -> Plan | None:
    """The next hand, or None when fewer than two players can be dealt in. ``button``
    chooses the first button when the table starts (the shell draws it); ``straddles``
    says whether the table allows them (D10)."""
    if game.variant == "stud":
        return _plan_stud(seats, n, game, prev, button)
    if sum(1 for s in seats.values() if s.ready) < 2:
        return None
    plan = _plan_normal(seats, n, game, prev) if prev is not None else None
    if plan is None:
        plan = _plan_fresh(seats, n, game, prev, button)
    if plan is not None and straddles and not game.structure.fixed:
        return _with_straddle(plan, seats, game)
    return plan


def _with_straddle(plan: Plan, seats: Mapping[int, Seat], game: Game) -> Plan:
    """The plan with the straddle of the first player after the big blind, if he posts one."""
    k = len(plan.seats)
    if k < 3:
        return plan
    i = (plan.big_blind_position + 1) % k
    seat = seats[plan.seats[i]]
    amount = 2 * game.big_blind
    if not seat.options.straddle or plan.blinds[i] or plan.dead[i] or seat.stack <= amount:
        return plan
    blinds = (*plan.blinds[:i], amount, *plan.blinds[i + 1:])
    return replace(plan, blinds=blinds, straddle=plan.seats[i])


def _walk_big_blind(
    seats: Mapping[int, Seat], n: int, after: int, skip: frozenset[int] = frozenset()
) -> tuple[int | None, list[int], list[int]]:
    """The next seat clockwise after ``after`` that takes the big blind, the sitting-out
    seats passed on the way (they miss it), and players who sit out rather than take it."""
    passed: list[int] = []
    sit_out: list[int] = []
    for s in clockwise(after, n):
        seat = seats.get(s)
        if seat is None or s in skip or seat.leaving:
            continue
        if seat.ready and not seat.options.sit_out_next_big_blind:
            return s, passed, sit_out
        if seat.ready:
            sit_out.append(s)
        passed.append(s)
    return None, passed, sit_out


def _order(dealt: set[int], button: int, n: int) -> tuple[int, ...]:
    return tuple(s for s in clockwise(button, n) if s in dealt)


def _plan_normal(seats: Mapping[int, Seat], n: int, game: Game, prev: Positions) -> Plan | None:
    bb, passed, sit_out = _walk_big_blind(seats, n, prev.big_blind)
    if bb is None or bb == prev.big_blind:
        return None
    sb, button = prev.big_blind, prev.small_blind
    out = set(sit_out)
    missed_small: tuple[int, ...] = ()
    if 0 < distance(button, sb, n) < distance(button, bb, n):
        sb_seat = seats.get(sb)
        sb_posts = sb_seat is not None and sb_seat.ready and sb_seat.state == ACTIVE and sb not in out
        if sb_seat is not None and not sb_seat.ready and not sb_seat.leaving:
            missed_small = (sb,)
        dealt = {bb, sb} if sb_posts else {bb}
        dealt.update(s for s, seat in seats.items() if seat.ready and seat.state == ACTIVE and s not in out)
    else:
        # The old positions do not fit around the new big blind (heads-up becomes three-handed,
        # three become two): place the blinds and the button among the players who owe nothing
        # (and the big blind), as if only they sat here; the others wait or post as always.
        dealt = {bb}
        dealt.update(s for s, seat in seats.items() if seat.ready and seat.state == ACTIVE and s not in out)
        if len(dealt) < 2:
            return None  # nobody else owes nothing: the table restarts
        before = [s for s in clockwise(bb, n) if s in dealt]  # ends with bb
        sb_posts = True
        # heads-up every seat between the big blind and the small blind is the button's
        sb, button = before[-2], before[-3] if len(dealt) > 2 else before[-2]
    posting: set[int] = set()
    for s, seat in seats.items():
        if s in dealt or s in out or not seat.ready or button == sb:
            continue
        if not seat.options.wait_for_big_blind and 0 < distance(bb, s, n) < distance(bb, button, n):
            dealt.add(s)  # posts what he owes, from a seat after the big blind (H6, H7)
            posting.add(s)
    if len(dealt) == 2:
        (other,) = dealt - {bb}
        if other in posting:
            return None  # heads-up he would be on the button, where nobody may post in
        return Plan(
            Positions(other, other, bb), (bb, other), (game.big_blind, game.small_blind), (0, 0),
            (game.ante,) * 2, 0, True,
            tuple(passed), missed_small, tuple(sit_out), False,
        )
    if len(dealt) < 2:
        return None
    order = _order(dealt, button, n)
    blinds_l, dead_l = [], []
    for s in order:
        seat = seats[s]
        if s == bb:
            blinds_l.append(game.big_blind)
            dead_l.append(0)
        elif s == sb and sb_posts:
            blinds_l.append(game.small_blind)
            dead_l.append(0)
        elif s in posting:
            blinds_l.append(game.big_blind if seat.owe_big else 0)
            dead_l.append(game.small_blind if seat.owe_small else 0)
        else:
            blinds_l.append(0)
            dead_l.append(0)
    return Plan(
        Positions(button, sb, bb), order, tuple(blinds_l), tuple(dead_l), (game.ante,) * len(order),
        order.index(bb), sb_posts, tuple(passed), missed_small, tuple(sit_out), False,
    )


def _plan_fresh(
    seats: Mapping[int, Seat], n: int, game: Game, prev: Positions | None, button: int | None
) -> Plan | None:
    sit_out: list[int] = []
    passed: list[int] = []
    while True:
        ready = sorted(s for s, seat in seats.items() if seat.ready and s not in sit_out)
        if len(ready) < 2:
            return None
        if prev is not None:
            bb, passed, more = _walk_big_blind(seats, n, prev.big_blind, frozenset(sit_out))
            if more:
                sit_out.extend(more)
                continue
            assert bb is not None
        else:
            first = button if button in ready else ready[-1]
            after = [s for s in clockwise(first, n) if s in ready]  # ends with first
            bb = after[0] if len(ready) == 2 else after[1]
            if seats[bb].options.sit_out_next_big_blind:
                sit_out.append(bb)
                continue
        break
    dealt = set(ready)
    if len(ready) == 2:
        (other,) = dealt - {bb}
        return Plan(
            Positions(other, other, bb), (bb, other), (game.big_blind, game.small_blind), (0, 0),
            (game.ante,) * 2, 0, True, tuple(passed), (), tuple(sit_out), True,
        )
    before = [s for s in clockwise(bb, n) if s in dealt]  # ends with bb
    sb, btn = before[-2], before[-3]
    order = _order(dealt, btn, n)
    blinds = tuple(game.big_blind if s == bb else game.small_blind if s == sb else 0 for s in order)
    return Plan(
        Positions(btn, sb, bb), order, blinds, (0,) * len(order), (game.ante,) * len(order),
        order.index(bb), True, tuple(passed), (), tuple(sit_out), True,
    )


def _plan_stud(
    seats: Mapping[int, Seat], n: int, game: Game, prev: Positions | None, button: int | None
) -> Plan | None:
    """Stud has no blinds: everyone ready is dealt in, newcomers at once; the dealer
    position moves one player clockwise each hand (dealing starts on its left, S3)."""
    ready = {s for s, seat in seats.items() if seat.ready}
    if len(ready) < 2:
        return None
    passed: list[int] = []
    if prev is not None:
        btn = prev.button
        for s in clockwise(prev.button, n):
            seat = seats.get(s)
            if s in ready:
                btn = s
                break
            if seat is not None and not seat.leaving:
                passed.append(s)
    else:
        btn = button if button in ready else max(ready)
    order = _order(ready, btn, n)
    k = len(order)
    return Plan(
        Positions(btn, btn, btn), order, (0,) * k, (0,) * k, (game.ante,) * k, 0, False,
        tuple(passed), (), (), False,
    )
