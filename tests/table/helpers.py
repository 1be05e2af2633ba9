"""Helpers for the table tests: tables with seated players, hands played by script."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pokerroom.core.cards import seeded_deck
from pokerroom.core.events import Posted
from pokerroom.core.structures import Game
from pokerroom.table import PLAYING, Table, TableConfig
from pokerroom.table.events import HandStarted

NL12 = Game.no_limit(1, 2)


def table_with(
    players: dict[int, int], game: Game = NL12, seats: int = 6, **settings: object
) -> Table:
    """A table with a player named 'S<seat>' in each given seat, with those stacks."""
    settings.setdefault("min_buy_in", 1)
    settings.setdefault("max_buy_in", 10_000)
    table = Table(TableConfig.single(game, seats=seats, **settings))
    for seat, stack in players.items():
        table.sit(f"S{seat}", seat, stack)
    return table


def start(table: Table, deck: Sequence[int] | None = None, now: float = 0.0, **kw: object) -> list[object]:
    return list(table.start_hand(deck if deck is not None else seeded_deck(table.hand_number), now, **kw))


def play(table: Table, script: str, now: float = 0.0) -> list[object]:
    """Apply 'S<seat> verb [amount]' steps separated by ';', checking each is that seat's turn."""
    out: list[object] = []
    for step in filter(None, (s.strip() for s in script.split(";"))):
        who, verb, *amount = step.split()
        assert table.actor == int(who[1:]), f"{step!r}: it is seat {table.actor}'s turn"
        out += table.act(who, verb, int(amount[0]) if amount else None, now)
    return out


def fold_round(table: Table, now: float = 0.0) -> list[object]:
    """Everyone to act folds (or checks when nothing is to call) until the hand ends."""
    out: list[object] = []
    while table.phase == PLAYING and table.actor is not None:
        legal = table.hand.legal_actions()  # type: ignore[union-attr]
        verb = "show" if legal.show else "fold" if legal.fold else "check"
        out += table.act(f"S{table.actor}", verb, None, now)
    assert table.phase != PLAYING
    return out


def away_for(table: Table, player: str, hands: int, wait_for_big_blind: bool) -> None:
    """A hand from button 1 folded round, then ``player`` sits out for ``hands`` hands
    (each folded round) and sits back in, waiting for the big blind or not."""
    start(table, button=1)
    fold_round(table)
    table.sit_out(player)
    for _ in range(hands):
        start(table)
        fold_round(table)
    table.sit_in(player)
    table.set_options(player, wait_for_big_blind=wait_for_big_blind)


def check_or_fold_out(t: Table, now: float = 0.0) -> list[object]:
    """Everyone checks when free, else folds, until the hand is over."""
    out: list[object] = []
    while t.phase == PLAYING:
        assert t.hand is not None and t.actor is not None
        verb = "check" if t.hand.legal_actions().check else "fold"
        out += t.act(t.seats[t.actor].player, verb, now=now)
    return out


def started(events: Iterable[object]) -> HandStarted:
    (hs,) = [e for e in events if type(e) is HandStarted]
    return hs


def posts(events: Iterable[object]) -> list[tuple[int, str, int]]:
    """(seat, kind, amount) of every forced bet posted."""
    return [(e.player, e.kind, e.amount) for e in events if type(e) is Posted]
