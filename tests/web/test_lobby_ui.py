"""The lobby in a real browser (issue 19): the "you are at this table" badge stays on
one line in Russian ("Вы за столом" broke over two lines at 1366x768 in the default
room, whose table names are long, when the players' column was full). On the default
room, as ``make run`` serves it, in a window 1024 px wide, where the table's column is
narrow enough that the badge broke before the fix."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from pokerroom.config import DEFAULT
from tests.server.helpers import Server, serving
from tests.web.helpers import Player, checked

TABLE = "Arbat NL 1/2"


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The default room (its five tables, their long names)."""
    path = tmp_path_factory.mktemp("room")
    server = Server(path, (f"sqlite:///{path / 'room.db'}", None))
    server.config.write_text(DEFAULT.replace("registrations_per_hour = 10", "registrations_per_hour = 1000"))
    yield from serving(server)


def test_the_seated_badge_is_one_line_in_russian(browser: Browser, room: Server, tmp_path: Path) -> None:
    lev = Player(browser, room.http, "lev", "ru-RU")
    with checked(lev):
        lev.register()
        lev.page.set_viewport_size({"width": 1024, "height": 768})
        lev.sit(TABLE)
        lev.page.click("#table-tabs a[href='#/lobby']")
        badge = lev.page.locator(f"#lobby-rows tr[data-table='{TABLE}'] .badge")
        expect(badge).to_have_text("Вы за столом")
        box = badge.bounding_box()
        line = lev.page.evaluate(
            "el => parseFloat(getComputedStyle(el).lineHeight)"
            " || 1.2 * parseFloat(getComputedStyle(el).fontSize)",
            badge.element_handle())
        assert box is not None and box["height"] < 1.6 * line + 4, (box, line)  # one line, not two
        lev.shoot(tmp_path, "lobby-seated-ru.png", publish=False)
