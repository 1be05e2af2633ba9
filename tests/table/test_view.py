"""What each player and observer sees of the table (R2, L4, H16)."""

from __future__ import annotations

from pokerroom.core.cards import Card
from pokerroom.core.structures import Game
from pokerroom.table import Stage, Table, TableConfig
from pokerroom.table.view import table_view, turn_player, turn_view
from tests.core.helpers import stacked_deck
from tests.table.helpers import fold_round, play, start, table_with


def test_hole_cards_reach_their_owner_only_R2():
    table = table_with({1: 100, 3: 100, 5: 100})
    start(table, stacked_deck(3, ["AsAh", "KsKh", "QsQh"]), button=1)  # order S3, S5, S1
    mine = {3: {"As", "Ah"}, 5: {"Ks", "Kh"}, 1: {"Qs", "Qh"}}
    for viewer in (None, "S1", "S3", "S5"):
        view = table_view(table, viewer)
        for info in view.seats:
            seen = {str(c) for c in info.cards if c is not None}
            expected = mine[info.seat] if viewer == f"S{info.seat}" else set()
            assert seen == expected, (viewer, info.seat)
    assert table_view(table, "S1").legal is not None  # the button is to act, heads up of BB
    assert table_view(table, "S3").legal is None


def test_view_shows_positions_turn_and_clock():
    table = table_with({1: 100, 3: 100, 5: 100})
    start(table, button=1, now=10.0)
    view = table_view(table, "S1")
    assert (view.button, view.small_blind, view.big_blind) == (1, 3, 5)
    assert view.actor == 1 and view.deadline == 10.0 + 15.0 + 30.0 + 1.0
    assert view.pot == 3 and view.street == "preflop"
    assert [i.bet for i in view.seats] == [0, 1, 2]
    play(table, "S1 raise 6")
    assert table_view(table).seats[0].stack == 94


def test_view_shows_the_mixed_schedule_L4():
    config = TableConfig.mixed(
        [Stage(Game.no_limit(1, 2), 3), Stage(Game.fixed_limit(4, 8, small_blind=2, big_blind=4), 2)],
        min_buy_in=10, max_buy_in=500,
    )
    table = Table(config)
    table.sit("S1", 1, 100)
    table.sit("S2", 2, 100)
    seen = []
    for _ in range(6):
        view = table_view(table)
        seen.append((view.game, view.next_game, view.hands_to_switch))
        start(table)
        fold_round(table)
    assert seen == [
        ("NL 1/2", "FL 4/8 (blinds 2/4)", 3),
        ("NL 1/2", "FL 4/8 (blinds 2/4)", 2),
        ("NL 1/2", "FL 4/8 (blinds 2/4)", 1),
        ("FL 4/8 (blinds 2/4)", "NL 1/2", 2),
        ("FL 4/8 (blinds 2/4)", "NL 1/2", 1),
        ("NL 1/2", "FL 4/8 (blinds 2/4)", 3),
    ]
    assert table_view(table).previous_hand == 6
    assert isinstance(table.previous.board, tuple) and all(isinstance(c, Card) for c in table.previous.board)


def test_view_carries_its_games_as_data_L4():
    """Protocol 3: the game now and next as data (structure, stakes, blinds, ante), so a
    client never reads the English labels; the table events naming a game carry it too."""
    from pokerroom.table.config import GameInfo
    from pokerroom.table.events import GameChanged, HandStarted
    from pokerroom.table.view import GameChangedInfo, HandStartedInfo, with_game_info

    config = TableConfig.mixed(
        [Stage(Game.no_limit(1, 2, ante=1), 1), Stage(Game.fixed_limit(4, 8, small_blind=2, big_blind=4), 1)],
        min_buy_in=10, max_buy_in=500,
    )
    nl = GameInfo("holdem", "no_limit", (1, 2), 1, 2, 0, 0, 1, 0)
    fl = GameInfo("holdem", "fixed_limit", (4, 8), 2, 4, 4, 8, 0, 0)
    table = Table(config)
    table.sit("S1", 1, 100)
    table.sit("S2", 2, 100)
    view = table_view(table)
    assert (view.game, view.game_info, view.next_game_info) == ("NL 1/2 ante 1", nl, fl)
    events = start(table)
    (began,) = [with_game_info(e, config) for e in events if type(e) is HandStarted]
    assert type(began) is HandStartedInfo and began.game_info == nl and began[:-1] == next(
        e for e in events if type(e) is HandStarted)
    fold_round(table)
    changed = [with_game_info(e, config) for e in start(table) if type(e) is GameChanged]
    assert changed == [GameChangedInfo("FL 4/8 (blinds 2/4)", 1, fl)]
    assert table_view(table).game_info == fl


def test_stud_game_as_data():
    from pokerroom.table.config import GameInfo, game_info

    stud = Game.stud(10, 20, ante=1, bring_in=3)
    assert game_info(stud) == GameInfo("stud", "fixed_limit", (10, 20), 0, 0, 10, 20, 1, 3)
    assert game_info(Game.pot_limit(5, 10)) == GameInfo("holdem", "pot_limit", (5, 10), 5, 10, 0, 0, 0, 0)


def test_turn_view_is_what_the_actor_sees_R2():
    """``your_turn`` built from the table (runner.py only sends it): the actor's own
    cards, what he may do and until when, the pot and his stack."""
    table = table_with({1: 100, 3: 100, 5: 100})
    assert turn_player(table) is None and turn_view(table) is None  # no hand: no clock
    start(table, stacked_deck(3, ["AsAh", "KsKh", "QsQh"]), button=1, now=10.0)  # order S3, S5, S1
    turn = turn_view(table)
    assert turn is not None and turn_player(table) == turn.player == "S1"
    assert [str(c) for c in turn.cards] == ["Qs", "Qh"] and turn.up == []  # no up cards in hold'em
    assert (turn.game, turn.street, turn.board) == ("NT", "preflop", [])
    assert (turn.pot, turn.stack, turn.players, turn.deadline) == (3, 100, 3, 56.0)
    assert turn.opponents_up == [[], []]  # hold'em: nothing of theirs is face up
    assert turn.legal == table.hand.legal_actions() and (turn.legal.call, turn.legal.min_to) == (2, 4)
    play(table, "S1 raise 6")
    turn = turn_view(table)
    assert turn is not None and turn.player == "S3"
    assert [str(c) for c in turn.cards] == ["As", "Ah"] and (turn.pot, turn.stack) == (9, 99)


def test_turn_view_shows_the_others_up_cards_in_stud_S5():
    table = table_with({1: 500, 2: 500, 3: 500}, game=Game.stud(10, 20, ante=1, bring_in=3))
    start(table, now=5.0)
    turn = turn_view(table)
    assert turn is not None and turn.player == f"S{table.actor}"
    hand, plan = table.hand, table.plan
    me = plan.seats.index(table.actor)
    assert turn.cards == list(hand.holes[me]) and turn.up == [False, False, True]
    assert turn.opponents_up == [[hand.holes[q][2]] for q in range(3) if q != me]
    assert turn.players == 3 and turn.game == "F7S"
