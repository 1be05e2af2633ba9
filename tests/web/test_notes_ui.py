"""Notes and colour tags on other players in the browser (issue 19, item 6): a player
clicks the dot on another player's seat, writes a note and picks a colour; the dot takes
the colour, and after a reload of the page (the note is kept on the server) it still
does, with the note in its title and in the editor; the lobby's player list marks the
name. The other player never sees it: his dot on the author's seat stays hollow and his
editor is empty. In English at 1366x768 and in Russian on a phone, screenshots looked at."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Locator, expect

from tests.server.helpers import Server
from tests.web.helpers import Player, checked


def dot_of(p: Player, table: str, name: str) -> Locator:
    seat = p.table(table).locator(".seat", has=p.page.locator(".plate .name", has_text=name))
    return seat.locator(".note-dot")


def test_a_note_survives_a_reload_and_only_its_author_sees_it(
    browser: Browser, room: Server, tmp_path: Path,
) -> None:
    nora = Player(browser, room.http, "nora", "en-US")
    otto = Player(browser, room.http, "otto", "ru-RU")
    with checked(nora, otto):
        nora.page.set_viewport_size({"width": 1366, "height": 768})
        otto.page.set_viewport_size({"width": 390, "height": 844})
        for p in (nora, otto):
            p.register()
        nora.sit("NL")
        otto.sit("NL")
        dot = dot_of(nora, "NL", "otto")
        expect(dot).to_be_visible()
        expect(dot).to_have_attribute("data-noted", "false")
        expect(nora.table("NL").locator(".seat.me .note-dot")).to_be_hidden()  # none on his own seat

        dot.click()
        dialog = nora.page.locator("#dlg-note")
        expect(dialog).to_be_visible()
        expect(dialog.locator("h2")).to_have_text("Note on otto")
        expect(nora.page.locator("#note-delete")).to_be_hidden()
        nora.page.fill("#note-text", "limps everything, folds to 3-bets")
        dialog.locator(".note-swatch[data-colour=blue]").click()
        nora.shoot(tmp_path, "notes-editor-en.png", publish=False)
        nora.page.click("#note-save")
        expect(dialog).to_be_hidden()
        expect(dot).to_have_attribute("data-colour", "blue")
        expect(dot).to_have_attribute("data-noted", "true")
        expect(dot).to_have_attribute("title", "limps everything, folds to 3-bets · Blue")

        nora.page.reload()
        dot = dot_of(nora, "NL", "otto")
        expect(dot).to_have_attribute("data-colour", "blue")
        expect(dot).to_have_attribute("title", "limps everything, folds to 3-bets · Blue")
        nora.shoot(tmp_path, "notes-seat-en.png")
        dot.locator("xpath=..").screenshot(path=str(tmp_path / "notes-plate-en.png"))
        dot.click()
        expect(nora.page.locator("#note-text")).to_have_value("limps everything, folds to 3-bets")
        blue = nora.page.locator("#dlg-note .note-swatch[data-colour=blue]")
        expect(blue).to_have_attribute("aria-checked", "true")
        nora.page.click("#note-cancel")

        # the lobby's player list marks the name
        nora.page.goto(room.http + "/#/lobby")
        mark = nora.page.locator("#lobby-rows tr[data-table='NL'] td.players .note-name")
        expect(mark).to_have_text("otto")
        expect(mark.locator(".note-mark")).to_have_attribute("data-colour", "blue")
        nora.shoot(tmp_path, "notes-lobby-en.png", publish=False)

        # otto sees none of it: a hollow dot on nora's seat, an empty editor, no notes
        theirs = dot_of(otto, "NL", "nora")
        expect(theirs).to_have_attribute("data-noted", "false")
        assert otto.page.request.get(room.http + "/api/notes").json()["notes"] == []
        theirs.click()
        expect(otto.page.locator("#dlg-note h2")).to_have_text("Заметка: nora")
        expect(otto.page.locator("#note-text")).to_have_value("")
        otto.shoot(tmp_path, "notes-editor-ru-phone.png")
        otto.page.click("#note-cancel")

        # deleted: the dot is hollow again, after a reload too
        nora.page.goto(room.http + "/#/table/NL")
        dot = dot_of(nora, "NL", "otto")
        dot.click()
        nora.page.click("#note-delete")
        expect(dot).to_have_attribute("data-noted", "false")
        nora.page.reload()
        expect(dot_of(nora, "NL", "otto")).to_have_attribute("data-noted", "false")
        assert nora.page.request.get(room.http + "/api/notes").json()["notes"] == []
