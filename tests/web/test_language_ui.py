"""Switching the language at a table (issue 19: "switching the language at a table
removes every seat, bet and the dealer button"): after the switch, every seat is drawn
again with its player and stack, the bets and the button too, in the new language."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.server.helpers import Server
from tests.web.helpers import Player, checked


def _drawn(p: Player) -> dict[str, object]:
    table = p.table("NL")
    return {
        "names": sorted(table.locator(".seat .plate .name").all_inner_texts()),
        "stacks": table.locator(".seat .plate .stack").count(),
        "bets": table.locator(".bets .bet:not([hidden])").count(),
        "button": table.locator(".stage .dealer-button").is_visible(),
    }


def test_switching_the_language_at_a_table_keeps_every_seat_bet_and_the_button(
    browser: Browser, room: Server, tmp_path: Path,
) -> None:
    hal = Player(browser, room.http, "hal", "en-US")
    ivy = Player(browser, room.http, "ivy", "en-US")
    with checked(hal, ivy):
        hal.register()
        ivy.register()
        hal.sit("NL")
        ivy.sit("NL")
        table = hal.table("NL")
        expect(table.locator(".seat.me .hole .card[data-card]")).to_have_count(2)
        expect(table.locator(".seat .plate .name").filter(has_text="ivy")).to_be_visible()
        before = _drawn(hal)
        assert {"hal", "ivy"} <= set(before["names"]) and before["bets"] == 2, before  # type: ignore[operator]
        hal.page.click(".lang button[data-lang=ru]")
        expect(hal.page.locator("#view-lobby h1, .table-screen .head-buttons button").first).to_be_attached()
        expect(table.locator(".seat .plate .name").filter(has_text="ivy")).to_be_visible()
        expect(table.locator(".seat .plate .name").filter(has_text="hal")).to_be_visible()
        expect(table.locator(".bets .bet:not([hidden])")).to_have_count(2)
        hal.page.wait_for_timeout(1500)  # and it stays drawn
        after = _drawn(hal)
        assert after == before, (before, after)
        hal.shoot(tmp_path, "table-after-switch-ru.png", publish=False)
        hal.page.click(".lang button[data-lang=en]")
        expect(table.locator(".seat .plate .name").filter(has_text="ivy")).to_be_visible()
        hal.page.wait_for_timeout(500)
        assert _drawn(hal) == before
