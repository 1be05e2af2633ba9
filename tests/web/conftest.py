"""Browser tests of the web client: a real room server (tests/server/helpers.py, on
SQLite) and Debian's chromium driven by Playwright (never `playwright install`); the
players are tests/web/helpers.py's ``Player``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from tests.server.helpers import Server, server_room, serving
from tests.web.helpers import CHROMIUM, CHROMIUM_ARGS


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A room server with the test tables (NL, FL, Stud): a 30 s clock so a slow machine
    never times out a click, and a 2 s pause between hands so the end of a hand stays on
    the table long enough to be seen."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests need Debian's chromium at {CHROMIUM} (make test installs it)")
    path = tmp_path_factory.mktemp("room")
    server = Server(path, (f"sqlite:///{path / 'room.db'}", None), action_time=30)
    server.config.write_text(server_room(30, pause=2.0))
    yield from serving(server)


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    try:
        yield browser
    finally:
        browser.close()
