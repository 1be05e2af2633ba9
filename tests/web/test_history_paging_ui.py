"""My hands in pages in the browser (issue 19, item 8): a player with 140 hands (of 234 in
the database, tests/server/helpers/hands.py) opens his history, pages back with "Older"
to his oldest hand and forward with "Newer", filters by a game, and finds the "Download
all" links (PokerStars and PHH, of the game chosen) that fetch his archive. In English
and in Russian, at 1366x768 and on a phone (390x844), screenshots looked at."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.server.helpers import Server, server_room, serving
from tests.server.helpers.hands import Seeded, seed_hands
from tests.web.helpers import PASSWORD, Player, checked

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Seeded]]:
    path = tmp_path_factory.mktemp("paging")
    database = (f"sqlite:///{path / 'room.db'}", None)
    data = seed_hands(database, PASSWORD)
    server = Server(path, database, action_time=30)
    server.config.write_text(server_room(30))
    for running in serving(server):
        yield running, data


def log_in(p: Player, name: str) -> None:
    p.page.goto(p.base + "/")
    p.page.click("#tab-login")
    p.page.fill("#auth-name", name)
    p.page.fill("#auth-password", PASSWORD)
    p.page.click("#auth-submit")
    p.page.wait_for_selector(f"#who-name:text-is('{name}')", state="attached")


def shown_ids(p: Player) -> list[int]:
    return [int(x) for x in p.page.eval_on_selector_all(
        "#dlg-hands .hands-list tbody tr", "rows => rows.map(r => r.dataset.id)")]


def test_paging_my_hands_older_newer_and_by_game(
    browser: Browser, seeded: tuple[Server, Seeded], tmp_path: Path,
) -> None:
    server, data = seeded
    mine = [h.id for h in data.mine()]
    assert len(mine) == 140
    hero = Player(browser, server.http, data.hero, "en-US")
    with checked(hero):
        hero.page.set_viewport_size(DESKTOP)
        log_in(hero, data.hero)
        page = hero.page
        page.click("#btn-history")
        expect(page.locator("#dlg-hands .hands-list tbody tr")).to_have_count(50)
        assert shown_ids(hero) == mine[:50]
        expect(page.locator("#hands-newer")).to_be_disabled()
        expect(page.locator("#hands-range")).to_have_text("Hands 1–50")
        hero.shoot(tmp_path, "history-pages-en.png")

        page.click("#hands-older")
        expect(page.locator("#hands-range")).to_have_text("Hands 51–100")
        assert shown_ids(hero) == mine[50:100]
        page.click("#hands-older")
        expect(page.locator("#hands-range")).to_have_text("Hands 101–140")
        assert shown_ids(hero) == mine[100:]
        expect(page.locator("#hands-older")).to_be_disabled()
        page.click("#hands-newer")
        expect(page.locator("#hands-range")).to_have_text("Hands 51–100")
        assert shown_ids(hero) == mine[50:100]

        # a hand's details and back: the same page
        page.locator("#dlg-hands .hands-list tbody tr").first.locator("button[data-control=details]").click()
        expect(page.locator("#dlg-hands .prev-players")).to_be_visible()
        page.locator("#dlg-hands button.link").first.click()
        expect(page.locator("#hands-range")).to_have_text("Hands 51–100")

        # the downloads of every hand
        links = page.locator("#dlg-hands a[data-archive]")
        expect(links).to_have_count(2)
        with page.expect_download() as caught:
            page.click("#dlg-hands a[data-archive=pokerstars]")
        download = caught.value
        assert download.suggested_filename == f"pokerroom-{data.hero}-hands.txt"
        text = Path(download.path()).read_text()
        assert text.count("PokerStars Hand #") == 140

        # one game: the filter restarts from the newest, the links take the game
        games = page.eval_on_selector_all("#hands-game option", "os => os.map(o => o.value)")
        assert games[0] == "" and len(games) == 6
        stud = next(g for g in games if g.startswith("Stud 10/20"))
        page.select_option("#hands-game", stud)
        of_game = [h.id for h in data.mine() if h.game == stud]
        expect(page.locator("#dlg-hands .hands-list tbody tr")).to_have_count(len(of_game))
        assert shown_ids(hero) == of_game
        expect(page.locator("#hands-older")).to_be_disabled()
        expect(page.locator("#dlg-hands")).to_contain_text("Download all of this game")
        with page.expect_download() as caught:
            page.click("#dlg-hands a[data-archive=phh]")
        phhs = Path(caught.value.path()).read_text()
        assert caught.value.suggested_filename.endswith(".phhs")
        assert phhs.count('variant = "F7S"') == len(of_game)
        hero.shoot(tmp_path, "history-game-en.png", publish=False)


def test_the_pages_in_russian_on_a_phone(
    browser: Browser, seeded: tuple[Server, Seeded], tmp_path: Path,
) -> None:
    server, data = seeded
    hero = Player(browser, server.http, data.hero, "ru-RU")
    with checked(hero):
        hero.page.set_viewport_size(PHONE)
        log_in(hero, data.hero)
        page = hero.page
        page.evaluate("document.querySelector('#btn-history').click()")
        expect(page.locator("#hands-range")).to_have_text("Раздачи 1–50")
        page.click("#hands-older")
        expect(page.locator("#hands-range")).to_have_text("Раздачи 51–100")
        expect(page.locator("#hands-newer")).to_contain_text("Новые")
        expect(page.locator("#dlg-hands")).to_contain_text("Скачать все")
        hero.shoot(tmp_path, "history-pages-ru-phone.png", publish=False)
