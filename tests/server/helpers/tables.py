"""Hands played at tables, and the histories the runner stores of them, now and in the
forms it stored before (the "openings" and the "views" forms that migration 0005
rewrites): for tests/server/test_stored_history.py, test_history_migration.py,
test_history_trackers.py and tests/fuzz/make_corpus.py."""

from __future__ import annotations

import random
from typing import Any

from pokerroom.core.cards import FULL_DECK, Card
from pokerroom.core.structures import Game
from pokerroom.fairness import commit, opening, salt_text
from pokerroom.histories import snapshot, to_phh, to_pokerstars
from pokerroom.table import PLAYING, Table, TableConfig, TableError
from pokerroom.wire import jsonable, record_json

GAMES = [
    (Game.no_limit(1, 2), 6),
    (Game.pot_limit(1, 2, 1), 9),
    (Game.fixed_limit(2, 4), 4),
    (Game.stud(10, 20, ante=1, bring_in=3), 8),
    (Game.stud(2, 4, ante=0, bring_in=1), 3),
    (Game.no_limit(1, 2), 2),
]


def decide(legal: dict[str, Any], game: Game, rng: random.Random) -> tuple[str, int | None]:
    if legal.get("show") or legal.get("muck"):
        return ("muck", None) if legal.get("muck") and rng.random() < 0.5 else ("show", None)
    choices: list[tuple[str, int | None]] = [("fold", None)] if legal.get("fold") else []
    if legal.get("bring_in"):
        choices.append(("bring_in", None))
    else:
        choices.append(("check", None) if legal.get("check") else ("call", None))
    if legal.get("min_to") is not None:
        low, high = legal["min_to"], legal["max_to"]
        amount = rng.choice([low, high] if game.structure.fixed else [low, high, rng.randint(low, high)])
        verb = "complete" if legal.get("bring_in") else "bet" if legal.get("check") else "raise"
        choices.append((verb, amount))
    return rng.choice(choices)


def played_tables(seed: int, hands: int = 60) -> Any:
    """Random play at a table of each game, with timeouts (both policies), players leaving
    and sitting out in hands, busts and top-ups: after each hand, the table."""
    rng = random.Random(seed)
    for k, (game, seats) in enumerate(GAMES):
        policy = "all_in_protection" if k % 2 else "check_fold"
        config = TableConfig.single(
            game, seats=seats, min_buy_in=40, max_buy_in=1000, action_time=30, time_bank=5,
            time_bank_max=10, time_bank_refill=1, timeout_policy=policy,
        )
        table = Table(config)
        for s in range(1, seats + 1):
            table.sit(f"p{s}", s, rng.randint(40, 1000))
        now = 1_764_626_579.25
        for h in range(hands):
            if not table.can_start():
                break
            deck = list(FULL_DECK)
            rng.shuffle(deck)
            table.start_hand(deck, now, reshuffle=lambda pool: rng.sample(list(pool), len(pool)))
            while table.phase == PLAYING:
                now += rng.random() * 3
                r = rng.random()
                assert table.hand is not None and table.actor is not None
                try:
                    if r < 0.05:
                        table.advance(now + 100)
                    elif r < 0.07:
                        table.leave(table.seats[rng.choice(list(table.seats))].player, now)
                    elif r < 0.09:
                        table.sit_out(table.seats[rng.choice(list(table.seats))].player, now)
                    else:
                        action, amount = decide(jsonable(table.hand.legal_actions()), game, rng)
                        table.act(table.seats[table.actor].player, action, amount, now)
                except TableError:
                    pass
            yield table
            for seat in list(table.seats.values()):
                if seat.stack == 0:
                    table.add_chips(seat.player, 200)
                if seat.state == "sitting_out":
                    table.sit_in(seat.player)
            for s in range(1, seats + 1):
                if s not in table.seats and rng.random() < 0.5:
                    table.sit(f"q{h}x{s}", s, rng.randint(40, 1000))


def runner_history(table: Table, deck: list[Card], seed: int) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """The history runner._store_hand would store for the table's last hand (its JSON
    text), with the deck's cards, and the history the server stored before (all of it)."""
    hand, plan = table.hand, table.plan
    assert hand is not None and plan is not None and table.previous is not None
    salts = [f"{seed:08x}{i:024x}" for i in range(52)]
    deal = commit(deck, salts=salts)
    players = [{"seat": s, "name": n} for s, n in zip(plan.seats, table.hand_players, strict=True)]
    private = {
        "holes": {str(s): [str(c) for c in hand.holes[i]] for i, s in enumerate(plan.seats)},
        "hand": snapshot(hand),
        "button_seat": plan.positions.button,
        "max_seats": table.config.seats,
    }
    head = {"table": "T1", "number": table.previous.number, "started_at": 1.5, "commitment": deal.commitment}
    new = {**head, "players": players, "private": {"salts": salt_text(deal), **private,
                                                   "game": table.previous.game}}
    old = {**head, "leaves": list(deal.leaves), "players": players, "record": record_json(table.previous),
           "private": {"openings": [opening(deal, deck, i) for i in range(52)], **private}}
    return new, "".join(map(str, deck)), old


def views_history(table: Table, deck: list[Card], seed: int, hand_id: int) -> tuple[dict[str, Any], str, str]:
    """The history servers stored before snapshots (the "views" form) of the table's last
    hand, with its public PHH and PokerStars texts (the hands row's phh and text columns);
    each text written with the hand's room-wide ``hand_id``, as the texts are now."""
    hand, plan = table.hand, table.plan
    assert hand is not None and plan is not None and table.previous is not None
    *_, old = runner_history(table, deck, seed)
    names, seats = list(table.hand_players), list(plan.seats)
    where = {"names": names, "seats": seats, "table": "T1", "number": hand_id, "started_at": 1.5}

    def texts(viewer: int | None) -> tuple[str, str]:
        return (to_phh(hand, viewer=viewer, **where),  # type: ignore[arg-type]
                to_pokerstars(hand, button_seat=plan.positions.button, viewer=viewer,  # type: ignore[arg-type]
                              max_seats=table.config.seats, **where))

    private = old["private"]
    views = {str(s): dict(zip(("phh", "text"), texts(i), strict=True)) for i, s in enumerate(seats)}
    record = jsonable(table.previous)  # the records of then: events without their "type"
    history = {**{k: v for k, v in old.items() if k not in ("record", "private")}, "record": record,
               "private": {"openings": private["openings"], "holes": private["holes"], "views": views}}
    history = {k: history[k] for k in ("table", "number", "started_at", "commitment", "leaves", "players",
                                       "record", "private")}
    phh, text = texts(None)
    return history, phh, text
