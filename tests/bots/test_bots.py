"""Bots of every strategy play hundreds of hands of every game through a real server:
no illegal action, no stuck table, no lost chip."""

from __future__ import annotations

import asyncio
import random

import httpx

from pokerroom.bots import Tally, Turn, crowd, strategy
from pokerroom.bots.strategies import preflop_tier
from pokerroom.outbound import Legal
from pokerroom.store import Store
from tests.rooms import FL24, NL12, PL12, STUD, room, table
from tests.server.helpers import Server
from tests.server.helpers.bots import play_until

# what a bot may meet without a bug: two bots choosing the same free seat at once (the
# second is refused and picks another)
ALLOWED_ERRORS = {"seat_taken"}
HANDS = 40  # per table
EVERY_GAME = room(
    table("NL", seats=6, action_time=5),
    table("PL", **PL12, seats=6, action_time=5),
    table("FL", **FL24, seats=6, action_time=5),
    table("Mixed", game="mixed", seats=6, action_time=5, schedule=[
        {**NL12, "hands": 3},
        {"game": "FLHE", "small_bet": 4, "big_bet": 8, "small_blind": 2, "big_blind": 4, "hands": 3},
    ]),
    table("Stud", **STUD, seats=8, action_time=5),
    pause=0.02, registrations_per_hour=100,
)


def test_bots_play_every_game_through_the_server(tmp_path):
    database = (f"sqlite:///{tmp_path / 'room.db'}", None)
    server = Server(tmp_path, database, action_time=5.0)
    server.config.write_text(EVERY_GAME)
    server.start()
    try:
        tables = httpx.get(f"{server.http}/api/tables").json()["tables"]
        tally = Tally()
        bots = crowd(server.http, 20, tables, strategies=["solid", "station", "random"], seed=7, tally=tally,
                     per_table={t["name"]: 4 for t in tables})

        # until every table has dealt HANDS hands, then everyone leaves
        results = asyncio.run(asyncio.wait_for(play_until(bots, tally, tables, HANDS), 400))
    finally:
        server.stop()
    assert not server.errors(), server.errors()
    assert [r for r in results if isinstance(r, BaseException)] == []
    assert set(tally.errors) <= ALLOWED_ERRORS, tally.errors
    assert {b.play.name for b in bots} == {"solid", "station", "random"}
    assert all(b.played >= 5 for b in bots), [b.played for b in bots]  # everyone played, nobody stuck
    assert set(tally.hands) == {"NL", "PL", "FL", "Mixed", "Stud"}
    assert tally.total_hands >= 5 * HANDS, tally.hands

    async def totals() -> dict[str, int]:
        store = Store(database[0])
        try:
            return await store.totals()
        finally:
            await store.close()

    t = asyncio.run(totals())
    # chips of a hand cut short by the server's stop stay on their seats until it restarts
    assert t["balances"] + t["seats"] == t["granted"] == 20 * 10_000 and t["ledger_sum"] == 0


def _turn(legal: dict[str, object] | None = None, **kw: object) -> Turn:
    fields: dict[str, object] = {
        "player": 0,
        "fold": True,
        "check": False,
        "call": 2,
        "min_to": 4,
        "max_to": 100,
        "show": False,
        "muck": False,
        "bring_in": 0,
        **(legal or {}),
    }
    base = dict(
        legal=Legal.model_validate(fields),  # the protocol's model, as Turn.from_message passes it
        game="NT",
        street="preflop",
        cards=("As", "Ah"),
        up=(),
        board=(),
        pot=3,
        stack=100,
        players=3,
    )
    base.update(kw)
    return Turn(**base)  # type: ignore[arg-type]


def test_solid_raises_aces_and_folds_trash_preflop():
    solid = strategy("solid", random.Random(1))
    assert solid.decide(_turn())[0] == "raise"
    assert solid.decide(_turn(cards=("7c", "2d"))) == ("fold", None)
    assert solid.decide(_turn(cards=("7c", "2d"), legal={"check": True, "fold": False, "call": 0})) == (
        "check",
        None,
    )
    assert (
        preflop_tier(("Ks", "Kd")) == 0
        and preflop_tier(("Ts", "9s")) == 2
        and preflop_tier(("8c", "3d")) == 3
    )


def test_solid_follows_pot_odds_after_the_flop():
    solid = strategy("solid", random.Random(2))
    nuts = _turn(cards=("As", "Ks"), board=("Qs", "Js", "Ts"), street="flop", pot=20, legal={"call": 10})
    assert solid.decide(nuts)[0] == "raise"
    air = _turn(
        cards=("7c", "2d"),
        board=("As", "Ks", "Qh"),
        street="flop",
        pot=20,
        legal={"call": 20, "min_to": None, "max_to": None},
    )
    assert solid.decide(air) == ("fold", None)


def test_every_strategy_stays_within_the_legal_amounts():
    rng = random.Random(3)
    for name in ("random", "station", "solid"):
        bot = strategy(name, random.Random(4))
        for _ in range(300):
            low = rng.randint(2, 50)
            turn = _turn(
                cards=rng.choice([("As", "Ah"), ("7c", "2d"), ("Ts", "9s")]),
                legal={"call": rng.choice([0, 2, 10]), "check": False, "min_to": low, "max_to": low * 3},
            )
            action, amount = bot.decide(turn)
            assert action in ("fold", "call", "check", "raise", "bet")
            if amount is not None:
                assert low <= amount <= low * 3


def test_a_busted_bot_back_on_a_new_connection_buys_in_again() -> None:
    """A bot that reconnects (a gateway restarted) and finds itself sitting out, busted,
    adds chips: asking to sit in was refused ('no_chips') and left the table one player
    short for good (the rolling-restart test's NL4 in CI)."""
    from pokerroom import outbound as o
    from pokerroom.bots.client import Bot
    from pokerroom.core.structures import Game
    from pokerroom.table import Table, TableConfig
    from pokerroom.table.view import table_view
    from pokerroom.wire import jsonable

    table = Table(TableConfig.single(Game.no_limit(1, 2), seats=6, min_buy_in=40, max_buy_in=200))
    table.sit("robo", 2, 100)
    table.sit("other", 4, 100)
    seat = table.seats[2]
    seat.stack = 0
    table.sit_out("robo")
    view = o.TableView.model_validate(jsonable(table_view(table, "robo")))
    assert [s.state for s in view.seats if s.player == "robo"] == ["sitting_out"]

    sent: list[object] = []
    bot = Bot("http://127.0.0.1:1", "robo", "NL", strategy("station"))
    bot.info = {"min_buy_in": 40, "max_buy_in": 200, "seats": 6}
    bot._write = sent.append  # type: ignore[method-assign]
    bot.send = lambda message, delay=0.0: sent.append(message)  # type: ignore[method-assign]
    bot.sit(view)  # a new connection's first snapshot: its seat not known yet
    assert bot.seat == 2
    assert [type(m).__name__ for m in sent] == ["TopUp"] and sent[0].amount == 40  # type: ignore[attr-defined]
