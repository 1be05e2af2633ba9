"""Waiting lists and tables that open themselves in the browser (issue 19): two people sit
at a full heads-up table, a third joins its waiting list from the lobby and a fourth from
the table (in Russian); when a seat frees, the first is prompted (wherever he is) and
takes it with a buy-in; a template's table opens another as soon as its last seat is
taken. Screenshots looked at: waiting-lobby-en, waiting-offer-en, waiting-table-ru."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.rooms import NO_BANK, room, table
from tests.server.helpers import Server, serving
from tests.web.helpers import Player, checked

ROOM = room(
    table("Duo", seats=2, min_buy_in=40, max_buy_in=200, action_time=30, seat_offer_time=60, **NO_BANK),
    table("NL", seats=6, min_buy_in=40, max_buy_in=200, action_time=30, **NO_BANK),
    templates=(table("Quick", seats=2, min_buy_in=40, max_buy_in=200, action_time=30, min_free=1,
                     max_tables=3, close_after=60, **NO_BANK),),
    pause=2.0,
)


@pytest.fixture(scope="module")
def waiting_room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    path = tmp_path_factory.mktemp("waiting")
    server = Server(path, (f"sqlite:///{path / 'room.db'}", None), action_time=30)
    server.config.write_text(ROOM)
    yield from serving(server)


def lobby_button(p: Player, table_name: str) -> object:
    return p.page.locator(f"#lobby-rows tr[data-table='{table_name}'] .row-buttons button").first


def test_a_full_table_seats_the_first_on_its_waiting_list(waiting_room: Server, browser: Browser,
                                                           tmp_path: Path) -> None:
    base = waiting_room.http
    ann, bob = Player(browser, base, "wann", "en-US"), Player(browser, base, "wbob", "ru-RU")
    carl = Player(browser, base, "wcarl", "en-US")
    dasha = Player(browser, base, "wdasha", "ru-RU", phone=True)  # on a phone, by touch
    with checked(ann, bob, carl, dasha):
        for p in (ann, bob, carl, dasha):
            p.register()
        ann.sit("Duo")
        bob.sit("Duo")
        # carl, in the lobby: the full table offers its waiting list instead of a seat
        wait = carl.page.locator("#lobby-rows tr[data-table='Duo'] button[data-action=wait]")
        wait.wait_for()
        assert wait.inner_text() == "Wait (0)"
        wait.click()
        carl.page.locator("#lobby-rows tr[data-table='Duo'] button[data-action=unwait]").wait_for()
        carl.shoot(tmp_path, "waiting-lobby-en.png")
        # dasha, at the table on her phone: the bar says who waits; she joins behind carl
        dasha.press("#lobby-rows tr[data-table='Duo'] button[data-action=watch]")
        bar = dasha.page.locator("#waiting-bar")
        bar.locator(".waiting-list:text-is('Очередь: wcarl')").wait_for()
        dasha.press(bar.locator("button[data-action=wait]"))
        bar.locator(".waiting-list:text-is('Очередь: wcarl, wdasha')").wait_for()
        assert bar.locator("button[data-action=unwait]").inner_text() == "Выйти из очереди"
        assert bar.locator("button[data-action=unwait]").bounding_box()["height"] >= 44  # a thumb's target
        dasha.shoot(tmp_path, "waiting-table-ru.png")
        wide = dasha.too_wide()
        assert wide["width"] <= wide["screen"] and not wide["wide"], wide
        # bob leaves: carl, who never opened the table, is prompted and takes the seat
        bob.table("Duo").locator("button[data-control=leave]").click()
        offer = carl.page.locator("#dlg-offer[open]")
        offer.wait_for(timeout=60_000)  # bob leaves when the hand in play ends
        assert "A seat at Duo is held for you." in offer.inner_text()
        carl.shoot(tmp_path, "waiting-offer-en.png")
        offer.locator("button[data-action=take-seat]").click()
        carl.page.wait_for_selector("#dlg-chips[open]")
        carl.page.click("#chips-ok")
        carl.table("Duo").locator(".seat.me .plate").wait_for()
        bar.locator(".waiting-list:text-is('Очередь: wdasha')").wait_for()  # she is first now
        assert not dasha.page.locator("#dlg-offer[open]").count()


def test_a_template_opens_a_table_when_its_last_seat_is_taken(waiting_room: Server, browser: Browser) -> None:
    base = waiting_room.http
    ann, bob = Player(browser, base, "qann", "en-US"), Player(browser, base, "qbob", "en-US")
    with checked(ann, bob):
        ann.register()
        bob.register()
        assert ann.page.locator("#lobby-rows tr[data-table='Quick #2']").count() == 0
        ann.sit("Quick #1")
        bob.sit("Quick #1")
        ann.page.click("#nav-tabs a[href='#/lobby'], #table-tabs a[href='#/lobby']")
        row = ann.page.locator("#lobby-rows tr[data-table='Quick #2']")
        row.wait_for(timeout=15_000)
        assert row.locator("button[data-action=play]").is_enabled()
