"""The PHH writer: a finished hand as a ``.phh`` text (core.phh ``HandHistory`` and
``dumps``); the package's docstring says what PHH cannot express and how it is written."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pokerroom.core.cards import Card
from pokerroom.core.events import Acted, BoardDealt, HoleDealt, Mucked, Shown
from pokerroom.core.phh import HandHistory, dumps
from pokerroom.histories.common import (
    FinishedHand,
    cards_text,
    check,
    forced_bets,
    shows_after,
    utc_time,
    visible_players,
)


def _phh_actions(hand: FinishedHand, visible: set[int]) -> list[str]:
    n = hand.n
    first = 3 if hand.game.stud_game else 2  # cards of the first deal
    pending: list[list[Card | None]] = [[] for _ in range(n)]
    dealt = [0] * n
    out: list[str] = []
    for e in hand.events:
        t = type(e)
        if t is HoleDealt:
            assert isinstance(e, HoleDealt)
            p = e.player
            card = e.card if e.face_up or p in visible else None
            if dealt[p] < first:
                dealt[p] += 1
                pending[p].append(card)
                if sum(dealt) == first * n:
                    out.extend(f"d dh p{q + 1} {cards_text(pending[q])}" for q in range(n))
                continue
            dealt[p] += 1
            out.append(f"d dh p{p + 1} {cards_text([card])}")
        elif t is BoardDealt:
            assert isinstance(e, BoardDealt)
            out.append(f"d db {cards_text(e.cards)}")
        elif t is Acted:
            assert isinstance(e, Acted)
            who = f"p{e.player + 1}"
            if e.action == "fold":
                out.append(f"{who} f")
            elif e.action in ("check", "call"):
                out.append(f"{who} cc")
            elif e.action == "bring_in":
                out.append(f"{who} pb")
            elif e.action == "protected":
                out.append(f"# {who} all-in protection (D7): stays in for the chips already committed")
            else:  # bet, raise, complete
                out.append(f"{who} cbr {e.to}")
        elif t is Shown:
            assert isinstance(e, Shown)
            out.append(f"p{e.player + 1} sm {cards_text(e.cards)}")
        elif t is Mucked:
            assert isinstance(e, Mucked)
            out.append(f"p{e.player + 1} sm")  # the cards are in its deal line (D6)
    return out


def to_phh(
    hand: FinishedHand,
    *,
    names: Sequence[str],
    seats: Sequence[int],
    table: str,
    number: int,
    viewer: int | None = None,
    reveal_all: bool = False,
    started_at: float | None = None,
    reveals: Mapping[int, Sequence[Card]] | None = None,
) -> str:
    """The PHH text of a complete hand (see the module docstring for what PHH cannot say);
    ``reveals``: the cards each player (an index) showed after the hand (D12)."""
    check(hand, names, seats, viewer)
    actions = _phh_actions(hand, visible_players(hand, viewer, reveal_all))
    for p, shown in shows_after(hand, reveals):
        up = hand.face_up[p]
        cards = [c if c in shown or (up and up[k]) else None for k, c in enumerate(hand.holes[p])]
        actions.append(f"p{p + 1} sm {cards_text(cards)}")
    game, n = hand.game, hand.n
    forced = forced_bets(hand)
    order = slice(None, None, -1) if n == 2 else slice(None)  # heads-up: forced bets reversed
    antes = [a + d for a, d in zip(forced.antes, forced.dead, strict=True)]
    extra: dict[str, Any] = {"table": table, "seats": list(seats), "winnings": list(hand.winnings)}
    if started_at is not None:
        when = utc_time(started_at)
        extra |= {"time": when.time(), "time_zone": "UTC", "day": when.day, "month": when.month,
                  "year": when.year}
    if any(forced.dead):
        extra["_dead_blinds"] = forced.dead[order]
    if not game.stud_game and not forced.standard:
        extra["_big_blind_player"] = hand.big_blind_position + 1
    if any(forced.extra_live):
        extra["_live_blinds"] = forced.extra_live[order]
    protected = sorted({e.player + 1 for e in hand.events if type(e) is Acted and e.action == "protected"})
    if protected:
        extra["_all_in_protection"] = protected
    if game.structure.fixed:
        if game.cap != 4:
            extra["_cap"] = game.cap
        if game.heads_up_uncapped:
            extra["_heads_up_uncapped"] = True
        if game.stud_game and not game.open_pair_big_bet:
            extra["_open_pair_big_bet"] = False
    hh = HandHistory(
        variant=game.code,
        antes=list(antes[order]),
        starting_stacks=list(hand.starting_stacks),
        actions=actions,
        blinds_or_straddles=None if game.stud_game else list(forced.blinds[order]),
        min_bet=None if game.structure.fixed else game.min_bet,
        small_bet=game.small_bet if game.structure.fixed else None,
        big_bet=game.big_bet if game.structure.fixed else None,
        bring_in=game.bring_in if game.stud_game else None,
        finishing_stacks=list(hand.stacks),
        players=list(names),
        hand=number,
        ante_trimming_status=True if any(antes) else None,  # H13: antes split at a short ante
        extra=extra,
    )
    return dumps(hh)

