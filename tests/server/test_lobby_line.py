"""The lobby's hands per hour (issue 19: it counted only the last hour's hands, so a table
that had just started read 1 or 2): the rate over what the table has played, the last
hour once it has played an hour, at least a minute's span, afresh after an idle hour."""

from __future__ import annotations

import pytest

from pokerroom.config import parse_room
from pokerroom.worker import lobby
from pokerroom.worker.lobby import LobbyLine
from tests.rooms import SIX, room, table

CONFIG = parse_room(room(table("NL", **SIX))).tables[0]


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    at = Clock(1_000_000.0)
    monkeypatch.setattr(lobby.time, "time", at)
    return at


def _play(line: LobbyLine, clock: Clock, hands: int, every: float) -> None:
    """``hands`` hands back to back, one ending every ``every`` seconds."""
    for _ in range(hands):
        started = clock.now
        clock.now += every
        line.hand_finished(10, started)


def test_a_table_that_just_started_reads_the_rate_it_plays_at(clock: Clock) -> None:
    line = LobbyLine(CONFIG)
    assert line.hands_per_hour(clock.now) == 0
    _play(line, clock, 10, 60.0)  # ten hands in ten minutes: 60 an hour, not "10"
    assert line.hands_per_hour(clock.now) == 60
    _play(line, clock, 1, 30.0)
    assert line.hands_per_hour(clock.now) == round(11 * 3600 / 630)


def test_a_first_hand_alone_is_not_thousands_an_hour(clock: Clock) -> None:
    line = LobbyLine(CONFIG)
    _play(line, clock, 1, 5.0)
    assert line.hands_per_hour(clock.now) == 60  # one hand over at least a minute


def test_after_an_hour_the_last_hours_hands(clock: Clock) -> None:
    line = LobbyLine(CONFIG)
    _play(line, clock, 60, 60.0)  # an hour at 60 an hour
    _play(line, clock, 40, 30.0)  # then 20 minutes at 120 an hour
    assert line.hands_per_hour(clock.now) == 40 + 40  # the last hour: 40 fast hands and 40 slow ones


def test_an_idle_hour_starts_the_count_afresh(clock: Clock) -> None:
    line = LobbyLine(CONFIG)
    _play(line, clock, 30, 60.0)
    clock.now += 2 * 3600  # nobody plays for two hours
    assert line.hands_per_hour(clock.now) == 0
    _play(line, clock, 5, 120.0)  # back, at 30 an hour
    assert line.hands_per_hour(clock.now) == 30
