"""A table that waits for its database, in the browser (issue 16, item 2): when the room
cannot save a write of its chips, the players see the table paused, in their language,
and then see it go on with the hand's result when the database answers.

The room's writes are made to fail (POKERROOM_FAULTS, store/faults.py) while a file
exists; the test creates it, a player folds (the hand's end must be written), and removes
it again. Screenshots of the paused table (desktop and phone, English and Russian) are
kept in the test's tmp dir."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from pokerroom.store import faults
from tests.server.helpers import Server, serving
from tests.web.helpers import CHROMIUM, Player

PAUSED = {"en": "The table is paused", "ru": "Стол на паузе"}
RESUMED = {"en": "The table goes on", "ru": "Игра продолжается"}
STAGE = "document.querySelector(\".table-screen[data-table='NL'] .stage\")"


def feed(player: Player, text: str) -> Any:
    """The lines of the NL table's feed (dealer and chat) that hold ``text``."""
    return player.table("NL").locator(".feed li").filter(has_text=text)


@pytest.fixture(scope="module")
def switch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("faults") / "failing"


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory, switch: Path) -> Iterator[Server]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests need Debian's chromium at {CHROMIUM} (make test installs it)")
    path = tmp_path_factory.mktemp("paused-room")
    server = Server(path, (f"sqlite:///{path / 'room.db'}", None), action_time=30,
                    env={faults.VARIABLE: f"rate=1,seed=3,when={switch}"})
    server.config.write_text(server.config.read_text().replace("pause = 0.05", "pause = 2.0"))
    yield from serving(server)


def test_players_see_the_table_paused_and_going_on(browser: Browser, room: Server, switch: Path,
                                                    tmp_path: Path) -> None:
    anna = Player(browser, room.http, "Anna", "en-US")
    boris = Player(browser, room.http, "Boris", "ru-RU")
    try:
        for p in (anna, boris):
            p.register()
            p.sit("NL", 100)
        for p in (anna, boris):
            p.page.wait_for_function(f"() => {STAGE}?.dataset.phase === 'playing'")
        switch.touch()  # from now on the database fails every write
        deadline = time.monotonic() + 15
        while not (anna.verbs("NL") or boris.verbs("NL")):  # somebody's turn
            assert time.monotonic() < deadline, "nobody's turn"
            anna.page.wait_for_timeout(100)
        actor = anna if anna.verbs("NL") else boris
        actor.click_verb("NL", "fold")  # the hand's end must be written: the table pauses
        for p, lang in ((anna, "en"), (boris, "ru")):
            expect(feed(p, PAUSED[lang])).to_have_count(1, timeout=15_000)
            toast = p.page.locator(".toast").filter(has_text=PAUSED[lang])
            expect(toast).to_be_visible()  # seen from another table, or on a phone
        for p, lang in ((anna, "en"), (boris, "ru")):
            p.page.set_viewport_size({"width": 1366, "height": 768})
            p.shoot(tmp_path, f"paused-{lang}.png", publish=False)
        for p, lang in ((anna, "en"), (boris, "ru")):
            p.page.set_viewport_size({"width": 390, "height": 844})
            p.shoot(tmp_path, f"paused-phone-{lang}.png", publish=False)
            p.page.set_viewport_size({"width": 1280, "height": 800})
        switch.unlink()  # the database answers again: the hand's end is written once
        for p, lang in ((anna, "en"), (boris, "ru")):
            expect(feed(p, RESUMED[lang])).to_have_count(1, timeout=15_000)
            p.page.wait_for_function(f"() => Number({STAGE}?.dataset.hand) >= 2", timeout=20_000)  # deals on
        for p in (anna, boris):
            assert p.errors == [], p.errors
    finally:
        if switch.exists():
            switch.unlink()
        anna.close()
        boris.close()
    log = room.log.read_text()
    assert "injected a database failure" in log and "resumed after" in log
