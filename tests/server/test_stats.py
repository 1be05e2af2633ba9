"""Issue 19, statistics: the counting of hand-built hands of hold'em and stud (VPIP, PFR,
3-bet, AF, WTSD, W$SD, bb/100, by the definitions in store/stats/counting.py), the graph
kept bounded, and the fold of stored hands into a store's counters (SQLite, and
PostgreSQL when POKERROOM_TEST_DATABASE_URL is set): incremental, never twice, hands
that end out of order and folders that race."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import Any

import pytest

from pokerroom.core.cards import seeded_deck
from pokerroom.core.events import HandEnded
from pokerroom.core.hand import Hand
from pokerroom.core.structures import Game
from pokerroom.histories import snapshot
from pokerroom.store import Store
from pokerroom.store.stats import (
    MAX_POINTS,
    Counters,
    Figures,
    Graph,
    PlayerStats,
    by_game,
    by_stakes,
    count_hand,
    figures_of,
)
from pokerroom.store.stats import fold as fold_module
from pokerroom.table.config import game_label
from tests.server.helpers import Database, with_store

Script = Sequence[tuple[str, int | None]]


def played(game: Game, stacks: Sequence[int], script: Script, seed: int = 1) -> Hand:
    """A hand with the actions of ``script`` in turn, then checked or called down to the
    end, every player at the showdown showing."""
    hand = Hand(game, list(stacks), seeded_deck(seed))
    for action, amount in script:
        hand.act(action, amount, hand.actor)
    while not hand.complete:
        legal = hand.legal_actions()
        if legal.show:
            hand.act("show", None, legal.player)
        elif legal.bring_in:
            hand.act("bring_in", None, legal.player)
        else:
            hand.act("check" if legal.check else "call", None, legal.player)
    return hand


def history(hand: Hand, seats: Sequence[int]) -> dict[str, Any]:
    """What the worker stores of a hand, as far as the counting reads it."""
    return {"players": [{"seat": s, "name": f"P{s}"} for s in seats], "private": {"hand": snapshot(hand)}}


NL = Game.no_limit(1, 2)
STUD = Game.stud(10, 20, ante=1, bring_in=3)


def test_a_three_bet_pot_played_to_the_turn() -> None:
    # player 0 small blind, 1 big blind, 2 the button: the button opens, the small blind
    # 3-bets, the big blind folds; flop bet, raise, call; turn check, bet, fold
    hand = played(NL, [100, 100, 100], [
        ("raise", 6), ("raise", 18), ("fold", None), ("call", None),
        ("bet", 20), ("raise", 60), ("call", None), ("check", None), ("bet", 10), ("fold", None),
    ])
    counted = count_hand(history(hand, [1, 3, 5]))
    assert (counted.game, counted.bb) == ("NLHE", 2)
    assert counted.seats == {
        1: Figures(vpip=True, pfr=True, three_bet=True, three_bet_chance=True, bets=1, calls=1, saw_flop=True,
                   net=-78),
        3: Figures(net=-2),  # folded the big blind facing two raises: no 3-bet chance
        5: Figures(vpip=True, pfr=True, bets=2, saw_flop=True, net=80),
    }


def test_limps_a_check_in_the_big_blind_and_a_showdown() -> None:
    # the button limps, the small blind completes, the big blind checks: all to the showdown
    hand = played(NL, [100, 100, 100], [("call", None), ("call", None), ("check", None)], seed=3)
    counted = count_hand(history(hand, [2, 4, 6]))
    winners = {s for s, f in counted.seats.items() if f.net > 0}
    assert winners and all(counted.seats[s].won_showdown for s in winners)
    for seat, f in counted.seats.items():
        assert (f.saw_flop, f.showdown, f.pfr, f.three_bet_chance) == (True, True, False, False)
        assert f.vpip is (seat != 4)  # the big blind's check put nothing in
        assert f.won_showdown is (seat in winners)
    assert sum(f.net for f in counted.seats.values()) == 0


def test_a_walk_and_a_raise_that_takes_the_blinds() -> None:
    walk = count_hand(history(played(NL, [100, 100, 100], [("fold", None), ("fold", None)]), [1, 2, 3]))
    assert walk.seats == {1: Figures(net=-1), 2: Figures(net=1), 3: Figures()}  # folded to the big blind
    steal = count_hand(history(played(NL, [100, 100, 100], [("raise", 5), ("fold", None), ("fold", None)]),
                               [1, 2, 3]))
    # both blinds faced the one raise: each had a 3-bet chance and let it go
    assert steal.seats == {
        1: Figures(three_bet_chance=True, net=-1),
        2: Figures(three_bet_chance=True, net=-2),
        3: Figures(vpip=True, pfr=True, net=3),
    }


def test_stud_bring_in_completion_and_a_raise() -> None:
    # four players: the lowest up card brings in; the next completes, the next raises
    # (a 3-bet: the completion is the open), the last folds, the bring-in calls, the
    # completer calls; the rest checked down
    hand = played(STUD, [200, 200, 200, 200], [
        ("bring_in", None), ("raise", 10), ("raise", 20), ("fold", None), ("call", None), ("call", None),
    ], seed=2)
    bring = next(e.player for e in hand.events if getattr(e, "action", None) == "bring_in")
    order = [(bring + k) % 4 for k in range(4)]  # the bring-in, then the others in turn
    seats = [1, 2, 3, 4]
    counted = count_hand(history(hand, seats))
    assert (counted.game, counted.bb) == ("Stud", 10)
    f = {k: counted.seats[seats[p]] for k, p in enumerate(order)}
    assert (f[0].vpip, f[0].pfr, f[0].three_bet_chance, f[0].three_bet) == (True, False, False, False)
    assert (f[1].vpip, f[1].pfr, f[1].three_bet_chance) == (True, True, False)
    assert (f[2].vpip, f[2].pfr, f[2].three_bet_chance, f[2].three_bet) == (True, True, True, True)
    assert (f[3].vpip, f[3].saw_flop, f[3].showdown) == (False, False, False)
    for k in (0, 1, 2):
        assert (f[k].saw_flop, f[k].showdown, f[k].bets, f[k].calls) == (True, True, 0, 0)
    assert sum(x.net for x in counted.seats.values()) == 0
    assert {x.won_showdown for x in counted.seats.values()} == {True, False}


def test_stud_calling_the_bring_in_is_voluntary_the_bring_in_is_not() -> None:
    hand = played(STUD, [200, 200, 200], [("bring_in", None), ("call", None), ("fold", None)], seed=5)
    bring = next(e.player for e in hand.events if getattr(e, "action", None) == "bring_in")
    counted = count_hand(history(hand, [0, 1, 2]))
    assert counted.seats[bring].vpip is False and counted.seats[bring].saw_flop
    caller = (bring + 1) % 3
    assert (counted.seats[caller].vpip, counted.seats[caller].pfr) == (True, False)


def test_the_figures_of_a_sequence_of_hands() -> None:
    hands = [
        played(NL, [100, 100, 100], [("raise", 6), ("raise", 18), ("fold", None), ("call", None),
                                     ("bet", 20), ("raise", 60), ("call", None), ("check", None),
                                     ("bet", 10), ("fold", None)]),
        played(NL, [100, 100, 100], [("call", None), ("call", None), ("check", None)], seed=3),
        played(NL, [100, 100, 100], [("raise", 5), ("fold", None), ("fold", None)]),
        played(NL, [100, 100, 100], [("fold", None), ("fold", None)]),
    ]
    rows = Counters("NLHE", "NL 1/2", 2)
    for hand in hands:  # seat 1 is always player 0, the small blind
        rows.add(count_hand(history(hand, [1, 3, 5])), 1)
    nets = [count_hand(history(h, [1, 3, 5])).seats[1].net for h in hands]
    first_showdown = count_hand(history(hands[1], [1, 3, 5])).seats[1]
    f = figures_of([rows])
    assert f["hands"] == 4
    assert f["vpip"] == 50.0  # the 3-bet and the limp
    assert f["pfr"] == 25.0
    assert f["three_bet"] == 50.0  # one of two chances (hands 1 and 3)
    assert f["af"] == 1.0  # one bet, one call, after the first round
    assert f["wtsd"] == 50.0  # saw two flops, one showdown
    assert f["wsd"] == (100.0 if first_showdown.won_showdown else 0.0)
    assert f["bb100"] == round(100 * sum(nets) / 2 / 4, 2)
    assert by_game([rows], results=True)[0]["net"] == sum(nets)
    assert by_stakes([rows]) == [{"game": "NLHE", "stakes": "NL 1/2", "bb": 2, "hands": 4, "net": sum(nets),
                                  "bb100": f["bb100"]}]
    assert figures_of([])["vpip"] is None and figures_of([])["af"] is None


def test_the_graph_keeps_a_bounded_series() -> None:
    graph = Graph.empty()
    for k in range(5 * MAX_POINTS + 3):
        graph.add(1 if k % 2 else -1, 1 if k % 3 == 0 else 0)
    series = graph.series()
    assert len(series) <= MAX_POINTS + 2 and graph.step == 8
    assert series[0] == [0, 0, 0] and series[-1][0] == graph.hands == 5 * MAX_POINTS + 3
    assert [p[0] for p in series[1:-1]] == list(range(8, graph.hands, 8))
    again = Graph.stored(graph.hands, graph.net, graph.net_showdown, graph.step, graph.points_text())
    assert again.series() == series


# ---------------------------------------------------------------------------- the fold


async def store_hand(store: Store, table: str, number: int, game: Game, players: Sequence[tuple[int, int]],
                     hand: Hand) -> int:
    """A hand started and finished in the store's journal, as the worker writes it."""
    hand_id = await store.start_hand(table, number, game_label(game), "c" * 64, list(players))
    await finish_stored(store, hand_id, table, players, hand)
    return hand_id


async def finish_stored(store: Store, hand_id: int, table: str, players: Sequence[tuple[int, int]],
                        hand: Hand) -> None:
    nets = next(e.net for e in hand.events if isinstance(e, HandEnded))
    results = [(a, net, 100 + net) for (a, _), net in zip(players, nets, strict=True)]
    await store.finish_hand(hand_id, table, results, salt="", deck="",
                            history=json.dumps(history(hand, [s for _, s in players])))


def test_the_fold_counts_each_hand_once_as_it_comes(database: Database) -> None:
    async def body(store: Store) -> None:
        ann, bob, cyd = [(await store.create_account(n, "h", 1_000)).id for n in ("Ann", "Bob", "Cyd")]
        for a, s in ((ann, 1), (bob, 3), (cyd, 5)):
            await store.buy_in("NL", s, a, 100)
        players = [(ann, 1), (bob, 3), (cyd, 5)]
        stats = PlayerStats(store, batch=2)
        assert await stats.fold() == 0 and await stats.counters(ann) == []
        walk = played(NL, [100, 100, 100], [("fold", None), ("fold", None)])
        three = played(NL, [100, 100, 100], [("raise", 6), ("raise", 18), ("fold", None), ("call", None),
                                             ("bet", 20), ("raise", 60), ("call", None), ("check", None),
                                             ("bet", 10), ("fold", None)])
        for number in range(1, 4):
            await store_hand(store, "NL", number, NL, players, walk)
        # a hand that starts now and ends after later ones were folded
        late = await store.start_hand("NL", 4, "NL 1/2", "c" * 64, players)
        await store_hand(store, "NL", 5, NL, players, three)
        assert await stats.fold() == 4  # in batches of two
        (row,) = await stats.counters(bob)
        assert (row.game, row.stakes, row.bb, row.hands, row.net) == ("NLHE", "NL 1/2", 2, 4, 3 - 2)
        assert await stats.fold() == 0  # nothing new: nothing counted twice
        await finish_stored(store, late, "NL", players, three)
        assert await stats.fold() == 1
        (row,) = await stats.counters(ann)
        assert (row.hands, row.vpip, row.pfr, row.three_bet, row.three_bet_chances) == (5, 2, 2, 2, 2)
        assert (row.bets, row.calls, row.saw_flop, row.net) == (2, 2, 2, -3 - 2 * 78)
        graph = await stats.graph(cyd)
        assert graph.series() == [[0, 0, 0], [1, 0, 0], [2, 0, 0], [3, 0, 0], [4, 80, 80], [5, 160, 160]]
        # a second folder (another gateway) racing this one: every hand still counted once
        more = [await store_hand(store, "NL", n, NL, players, walk) for n in range(6, 16)]
        other = PlayerStats(store, batch=3)
        counts = await asyncio.gather(stats.fold(), other.fold(), stats.fold())
        assert sum(counts) == len(more)
        (row,) = await stats.counters(cyd)
        assert (row.hands, row.net) == (15, 160)
        assert (await other.graph(cyd)).hands == 15

    with_store(database, body)


def test_the_periodic_folds_of_several_gateways_count_each_hand_once(
        pg_database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every gateway folds every 5 s; gateways started together fold at the same moments.
    Each read and counted the same new hands and all but one threw the batch away at the
    cursor (3 gateways here: 70 hands counted for 30, before). Now one folds at a time:
    each hand is read and counted once, and the others skip their turn."""
    counted: list[int] = []
    real = fold_module.count_hand

    def counting(history: Any) -> Any:
        counted.append(1)
        return real(history)

    monkeypatch.setattr(fold_module, "count_hand", counting)

    async def body(store: Store) -> None:
        ann, bob = [(await store.create_account(n, "h", 1_000)).id for n in ("Ann", "Bob")]
        for a, s in ((ann, 1), (bob, 3)):
            await store.buy_in("NL", s, a, 100)
        players = [(ann, 1), (bob, 3)]
        walk = played(NL, [100, 100], [("fold", None)])
        for number in range(1, 31):
            await store_hand(store, "NL", number, NL, players, walk)
        gateways = [Store(*pg_database) for _ in range(3)]
        try:
            folds = await asyncio.gather(*(PlayerStats(g, batch=10).fold_unless_busy(2.0) for g in gateways))
            assert folds.count(30) == 1 and all(n in (None, 0) for n in folds if n != 30)  # one folded
            assert len(counted) == 30
            (row,) = await PlayerStats(store).counters(bob)
            assert row.hands == 30
            assert await PlayerStats(gateways[0]).fold_unless_busy() == 0  # the lock went with its fold
        finally:
            for g in gateways:
                await g.close()

    with_store(pg_database, body)


def test_a_void_hand_and_a_skipped_id_are_let_go(database: Database) -> None:
    async def body(store: Store) -> None:
        ann, bob = [(await store.create_account(n, "h", 1_000)).id for n in ("Ann", "Bob")]
        for a, s in ((ann, 1), (bob, 2)):
            await store.buy_in("HU", s, a, 100)
        players = [(ann, 1), (bob, 2)]
        stats = PlayerStats(store)
        await store.start_hand("HU", 1, "NL 1/2", "c" * 64, players)
        hand = played(NL, [100, 100], [("fold", None)])
        await store_hand(store, "HU", 2, NL, players, hand)
        assert await stats.fold() == 1
        await store.return_all_seats()  # the hand in play is void
        assert await stats.fold() == 0
        assert (await stats.fold_once()) == (0, False)  # and no longer looked for: nothing to write
        (row,) = await stats.counters(ann)
        assert row.hands == 1

    with_store(database, body)


def test_the_counting_reads_no_card() -> None:
    """The figures are what the table saw: a history with every card blanked out (hole
    cards, shown and mucked hands, the board) counts the same."""
    for game, seed in ((NL, 3), (STUD, 2)):
        limp: Script = [("call", None), ("call", None), ("check", None)]
        script: Script = [("bring_in", None)] if game is STUD else limp
        hand = played(game, [100, 100, 100], script, seed=seed)
        stored = history(hand, [1, 2, 3])
        blind = json.loads(json.dumps(stored))
        snap = blind["private"]["hand"]
        snap["holes"] = ["" for _ in snap["holes"]]
        snap["board"] = ""
        for event in snap["events"]:
            if event[0] in ("hole", "board", "show", "muck"):
                event[2] = None
        assert count_hand(blind) == count_hand(stored)


def test_an_id_far_ahead_does_not_flood_what_is_looked_for(database: Database) -> None:
    async def body(store: Store) -> None:
        from sqlalchemy import insert

        from pokerroom.store.schema import hand_players, hands, stats_cursor
        from pokerroom.store.stats.fold import GAP_WINDOW

        ann, bob = [(await store.create_account(n, "h", 1_000)).id for n in ("Ann", "Bob")]
        hand = played(NL, [100, 100], [("fold", None)])
        async with store._writing() as conn:  # a hand with an id far past the others
            await conn.execute(insert(hands), [{
                "id": 50_000, "table_name": "T", "number": 1, "game": "NL 1/2", "status": "complete",
                "started_at": 0.0, "commitment": "c", "history": json.dumps(history(hand, [1, 2]))}])
            await conn.execute(insert(hand_players), [{"hand_id": 50_000, "account_id": a, "seat": s}
                                                      for a, s in ((ann, 1), (bob, 2))])
        stats = PlayerStats(store)
        assert await stats.fold() == 1
        async with store.engine.connect() as conn:
            cursor = (await conn.execute(stats_cursor.select())).one()
        assert cursor.last_hand == 50_000 and len(json.loads(cursor.pending)) == GAP_WINDOW
        assert [(r.hands, r.net) for r in await stats.counters(bob)] == [(1, -1)]  # the button folded

    with_store(database, body)
