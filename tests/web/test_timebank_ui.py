"""The time bank left, shown to its owner (issue 19: "the time bank left is never
shown"): at a table with a time bank, the seat panel says how many seconds are left, in
English and in Russian; at a table without one it says nothing of it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.rooms import SIX, table
from tests.rooms import room as room_toml
from tests.server.helpers import Server, serving
from tests.web.helpers import Player, checked


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """NL with a 20 s time bank (up to 40, 5 more a hand dealt); FL with none."""
    path = tmp_path_factory.mktemp("room")
    server = Server(path, (f"sqlite:///{path / 'room.db'}", None), action_time=30)
    server.config.write_text(room_toml(
        table("NL", **SIX, action_time=30, time_bank=20, time_bank_max=40, time_bank_refill=5),
        table("FL", **SIX, action_time=30, time_bank=0, time_bank_max=0, time_bank_refill=0),
        starting_balance=10000, pause=1.0))
    yield from serving(server)


def test_the_time_bank_left_is_shown_to_its_owner(browser: Browser, room: Server, tmp_path: Path) -> None:
    pia = Player(browser, room.http, "pia", "en-US")
    quinn = Player(browser, room.http, "quinn", "ru-RU")
    with checked(pia, quinn):
        for p in (pia, quinn):
            p.register()
            p.sit("NL")
        for p, pattern in ((pia, r"^Time bank: (\d+) s$"), (quinn, r"^Запас времени: (\d+) с$")):
            bank = p.table("NL").locator(".seat-notes .time-bank")
            expect(bank).to_have_text(re.compile(pattern))
            seconds = int(re.match(pattern, bank.inner_text()).group(1))  # type: ignore[union-attr]
            assert 20 <= seconds <= 40, seconds
        pia.shoot(tmp_path, "time-bank-en.png", publish=False)
        quinn.shoot(tmp_path, "time-bank-ru.png", publish=False)
        for p in (pia, quinn):  # a table without a bank: nothing said of it
            p.page.click("#table-tabs a[href='#/lobby']")
            p.sit("FL")
        expect(pia.table("FL").locator(".seat-notes")).to_be_attached()
        expect(pia.table("FL").locator(".time-bank")).to_have_count(0)
