"""A full table's waiting list (issue 19, table/waiting.py): people ahead of bots, a freed
seat offered to the first and held for him for the table's ``seat_offer_time``, passed to
the next when he lets it lapse, taken by sitting down; nobody else takes a held seat."""

from __future__ import annotations

import pytest

from pokerroom.core.structures import Game
from pokerroom.table import IDLE, Table, TableConfig, TableError
from pokerroom.table.events import Left, WaitingChanged
from pokerroom.table.view import table_view


def full_table(seats: int = 2, offer: float = 30.0) -> Table:
    table = Table(TableConfig.single(Game.no_limit(1, 2), seats=seats, min_buy_in=40, max_buy_in=200,
                                     seat_offer_time=offer))
    for s in range(1, seats + 1):
        table.sit(f"S{s}", s, 100)
    return table


def changes(events: list) -> list[WaitingChanged]:
    return [e for e in events if type(e) is WaitingChanged]


def test_people_wait_ahead_of_bots_in_the_order_they_joined() -> None:
    table = full_table()
    table.join_waiting("bot1", bot=True, now=1.0)
    table.join_waiting("ann", now=2.0)
    table.join_waiting("bot2", bot=True, now=3.0)
    [e] = changes(table.join_waiting("bob", now=4.0))
    assert e.waiting == ("ann", "bob", "bot1", "bot2") and e.offers == () and e.offered == ()
    assert table_view(table).waiting == ("ann", "bob", "bot1", "bot2")


def test_nobody_waits_for_a_free_seat_or_twice_or_at_his_own_table() -> None:
    table = full_table()
    with pytest.raises(TableError) as e:
        table.join_waiting("S1")
    assert e.value.code == "already_seated"
    table.join_waiting("ann")
    with pytest.raises(TableError) as e:
        table.join_waiting("ann")
    assert e.value.code == "already_waiting"
    with pytest.raises(TableError) as e:
        table.leave_waiting("bob")
    assert e.value.code == "not_waiting"
    with pytest.raises(TableError) as e:
        table.join_waiting("")
    assert e.value.code == "bad_player"
    table.leave("S2", now=5.0)  # ann is offered the seat: it is held, so bob may wait for another
    table.join_waiting("bob", now=6.0)
    table.leave_waiting("ann", now=7.0)  # her seat goes to bob
    table.leave_waiting("bob", now=8.0)  # and nobody holds it now: a free seat is for sitting in
    with pytest.raises(TableError) as e:
        table.join_waiting("carl", now=9.0)
    assert e.value.code == "seat_free"


def test_a_freed_seat_is_held_for_the_first_and_taken_by_sitting_down() -> None:
    table = full_table(offer=30.0)
    table.join_waiting("ann", now=1.0)
    table.join_waiting("bob", now=2.0)
    out = table.leave("S1", now=10.0)
    assert type(out[0]) is Left
    [e] = changes(out)
    assert e.offered == ("ann",) and e.offers == (("ann", 40.0),) and e.waiting == ("ann", "bob")
    with pytest.raises(TableError) as err:  # bob is second: the one free seat is ann's
        table.sit("bob", 1, 100, now=11.0)
    assert err.value.code == "seat_held"
    with pytest.raises(TableError) as err:
        table.sit("zed", 1, 100, now=11.0)
    assert err.value.code == "seat_held"
    [e] = changes(table.sit("ann", 1, 100, now=12.0))
    assert e.waiting == ("bob",) and e.offers == ()
    assert table.seats[1].player == "ann"


def test_an_offer_lapses_at_its_time_and_passes_to_the_next() -> None:
    table = full_table(offer=30.0)
    table.join_waiting("ann", now=1.0)
    table.join_waiting("bob", now=2.0)
    table.leave("S2", now=10.0)
    assert table.phase == IDLE and table.deadline == 40.0  # the runner wakes for it
    assert table.advance(39.9) == []
    [e] = changes(table.advance(40.0))
    assert e.waiting == ("bob",) and e.offered == ("bob",) and e.offers == (("bob", 70.0),)
    [e] = changes(table.advance(70.0))  # bob lets it go too: the seat is free for anyone
    assert e.waiting == () and e.offers == ()
    assert table.deadline is None
    table.sit("zed", 2, 100, now=71.0)


def test_leaving_the_list_passes_a_held_seat_on() -> None:
    table = full_table()
    table.join_waiting("ann", now=1.0)
    table.join_waiting("bob", now=2.0)
    table.leave("S2", now=10.0)
    events = changes(table.leave_waiting("ann", now=11.0))
    assert events[-1].offered == ("bob",) and events[-1].waiting == ("bob",)
    assert table_view(table).offers == (("bob", 41.0),)


def test_two_seats_freed_at_the_end_of_a_hand_go_to_the_first_two() -> None:
    table = full_table(seats=3)
    for name, at in (("ann", 1.0), ("bob", 2.0), ("carl", 3.0)):
        table.join_waiting(name, now=at)
    table.leave("S1", now=5.0)
    [e] = changes(table.leave("S2", now=6.0))
    assert e.offered == ("bob",) and [p for p, _ in e.offers] == ["ann", "bob"]
    table.sit("bob", 2, 100, now=7.0)  # the second in line takes his seat first: ann's still held
    with pytest.raises(TableError):
        table.sit("carl", 3, 100, now=8.0)
