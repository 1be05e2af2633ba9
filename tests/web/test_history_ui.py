"""The hand history's detail view in the browser (issue 19: "the history's detail view
shows your own folded hand as 'not shown'"): a player who folded sees his own two cards
in his history's detail, as ``/api/hands/{id}`` gives them (``your_cards``); the other
player's detail of the same hand still hides them (D6)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Locator, expect

from tests.server.helpers import Server
from tests.web.helpers import Player, checked, play_hand


def _detail_row(p: Player, of: str) -> Locator:
    """Open ``p``'s newest hand in his history and return the record's row of ``of``."""
    p.page.keyboard.press("h")
    p.page.click("#hands-tab-mine")
    rows = p.page.locator("#dlg-hands .hands-list tbody tr")
    expect(rows.first).to_be_visible()
    rows.first.locator("button").first.click()
    row = p.page.locator(f"#dlg-hands .prev-players tbody tr[data-player='{of}']")
    expect(row).to_be_visible()
    return row


def test_your_own_folded_hand_is_shown_to_you_in_your_history_D6(
    browser: Browser, room: Server, tmp_path: Path,
) -> None:
    fern = Player(browser, room.http, "fern", "en-US")
    gus = Player(browser, room.http, "gus", "ru-RU")
    with checked(fern, gus):
        fern.register()
        gus.register()
        fern.sit("NL")
        gus.sit("NL")
        for p in (fern, gus):
            expect(p.table("NL").locator(".seat.me .hole .card[data-card]")).to_have_count(2)
        dealt = {p.name: p.my_cards("NL") for p in (fern, gus)}
        folded: list[str] = []

        def decide(p: Player, street: str, verbs: list[str]) -> None:
            if not folded and "fold" in verbs:
                folded.append(p.name)
                p.click_verb("NL", "fold")
            else:
                p.click_verb("NL", "check" if "check" in verbs else "call")

        play_hand([fern, gus], "NL", decide)
        assert folded, "nobody folded"
        folder = fern if folded[0] == "fern" else gus
        other = gus if folder is fern else fern

        row = _detail_row(folder, folder.name)
        cards = row.locator(".card[data-card]")
        expect(cards).to_have_count(2)
        assert sorted(c.get_attribute("data-card") for c in cards.all()) == sorted(dealt[folder.name])
        expect(row).not_to_contain_text("not shown")
        expect(row).not_to_contain_text("не показаны")
        folder.shoot(tmp_path, f"history-own-folded-{folder.name}.png", publish=False)

        theirs = _detail_row(other, folder.name)  # the other player: the folded hand stays hidden
        expect(theirs.locator(".card[data-card]")).to_have_count(0)
        expect(theirs).to_contain_text("не показаны" if other is gus else "not shown")
        other.shoot(tmp_path, f"history-their-folded-{other.name}.png", publish=False)
