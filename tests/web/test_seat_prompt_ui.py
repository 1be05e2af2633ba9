"""What a player out of the game is told (issue 19: "a player who busts is given no prompt
and silently loses the seat after three orbits"): busted, he is offered chips and told
how long his seat is kept; sitting out by choice, he is told how long too. In English
and Russian."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.server.helpers import Server
from tests.web.helpers import Player, all_in, checked, play_hand


def _stack(p: Player) -> int:
    return int(re.sub(r"\D", "", p.table("NL").locator(".seat.me .stack").inner_text()) or "0")


def test_a_busted_player_is_offered_chips_and_told_how_long_his_seat_is_kept(
    browser: Browser, room: Server, tmp_path: Path,
) -> None:
    rex = Player(browser, room.http, "rex", "en-US")
    sam = Player(browser, room.http, "sam", "ru-RU")
    with checked(rex, sam):
        rex.register()
        sam.register()
        rex.sit("NL", 40)
        sam.sit("NL", 200)
        busted = None
        for _ in range(10):  # all in every hand, heads-up: one of them busts
            play_hand([rex, sam], "NL", all_in("NL"))
            rex.page.wait_for_timeout(500)
            busted = next((p for p in (rex, sam) if _stack(p) == 0), None)
            if busted is not None:
                break
        assert busted is not None, "nobody busted in ten all-in hands"
        prompt = busted.table("NL").locator(".seat-prompt.busted")
        if busted is rex:
            expect(prompt).to_contain_text("You are out of chips")
            expect(prompt).to_contain_text(re.compile(r"Your seat goes after \d+ more orbits"))
        else:
            expect(prompt).to_contain_text("У вас кончились фишки")
            expect(prompt).to_contain_text(re.compile(r"Место освободится через \d+ круг"))
        busted.shoot(tmp_path, f"busted-{busted.name}.png", publish=False)
        prompt.locator("button[data-control=rebuy]").click()
        expect(busted.page.locator("#dlg-chips[open]")).to_be_visible()
        busted.page.click("#chips-ok")  # the minimum buy-in, offered
        expect(prompt).to_have_count(0)


def test_a_player_sitting_out_is_told_how_long_his_seat_is_kept(browser: Browser, room: Server) -> None:
    tia = Player(browser, room.http, "tia", "en-US")
    uma = Player(browser, room.http, "uma", "en-US")
    with checked(tia, uma):
        tia.register()
        uma.register()
        tia.sit("FL")
        # sitting out before anyone joins her: no hand can be dealt first (under load the
        # deal came before the click, and she sat out only from the next hand)
        tia.table("FL").locator("button[data-control=sit-out]").click()
        uma.sit("FL")
        prompt = tia.table("FL").locator(".seat-prompt")
        expect(prompt).to_contain_text("You are sitting out.")
        expect(prompt).to_contain_text(re.compile(r"Your seat goes after \d+ more orbits"))
        expect(prompt.locator("button[data-control=rebuy]")).to_have_count(0)
        tia.table("FL").locator("button[data-control=sit-in]").click()
        expect(prompt).to_have_count(0)
