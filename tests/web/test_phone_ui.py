"""A phone that plays (issue 19): at 390x844 with touch emulation, two players, one in
English and one in Russian, register, open the header's menu (and switch the language
from it), buy in and play a hand of hold'em by tapping; at every step (log in, lobby,
menu, settings, buy-in, table, each turn, chat, previous hand, my hands) nothing is wider
than the screen, what must be tapped can be (Playwright's ``tap`` fails when another
element covers the target), the names, stacks and cards are readable, the action bar is at
the bottom within the thumb's reach with 44 px buttons, and the bet box and "Post blinds
automatically" are in full view. Stud's up cards are readable too. Before this the lobby
was 700-900 px wide, the header's controls off screen and the names 5 px high."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Locator, expect

from tests.server.helpers import Server
from tests.web.helpers import PHONE, Player, checked, play_hand

SCREEN_W, SCREEN_H = PHONE["width"], PHONE["height"]

# Whether an element is in full view: (near) its corners and its middle are on the screen and the
# element itself (or something inside it) is what a finger there would touch.
IN_VIEW = """(el) => {
  const r = el.getBoundingClientRect();
  if (!r.width || !r.height) return "not drawn";
  const w = document.documentElement.clientWidth, h = window.innerHeight;
  const at = (x, y) => `${Math.round(x)},${Math.round(y)}`;
  if (r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5)
    return `off screen: ${at(r.left, r.top)}..${at(r.right, r.bottom)}`;
  const dx = Math.max(3, r.width * 0.15), dy = Math.max(3, r.height * 0.15); // inside rounded corners
  const points = [[r.left + dx, r.top + dy], [r.right - dx, r.top + dy], [r.left + dx, r.bottom - dy],
    [r.right - dx, r.bottom - dy], [(r.left + r.right) / 2, (r.top + r.bottom) / 2]];
  for (const [x, y] of points) {
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(hit === el || el.contains(hit)))
      return `covered at ${at(x, y)} by ${hit ? hit.tagName + "." + hit.className : "nothing"}`;
  }
  return "";
}"""

# The font sizes (px) of the visible elements a selector picks.
FONT_SIZES = """(els) => els.filter((e) => e.getClientRects().length)
  .map((e) => parseFloat(getComputedStyle(e).fontSize))"""

# For each face-up card: its width, and whether its corner (rank and small suit) is what
# shows there, not another card or a name plate over it.
CARD_CORNERS = """(els) => els.filter((e) => e.getClientRects().length).map((card) => {
  const r = card.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width * 0.2, r.top + r.height * 0.18);
  const corner = Boolean(hit && hit.closest(".card") === card);
  const what = hit ? `${hit.tagName}.${hit.className?.baseVal ?? hit.className}` : "nothing";
  return { code: card.dataset.card, width: r.width, corner, hit: what };
})"""


def fits(p: Player, where: str) -> None:
    """Nothing on ``p``'s screen is wider than it: no sideways scroll, no element past an edge."""
    report = p.too_wide()
    assert report["width"] <= report["screen"] and not report["wide"], (p.name, where, report)
    assert p.page.evaluate("() => window.scrollX") == 0, (p.name, where)


def in_view(p: Player, target: str | Locator, where: str) -> None:
    locator = p.page.locator(target) if isinstance(target, str) else target
    problem = locator.evaluate(IN_VIEW)
    assert problem == "", (p.name, where, str(target), problem)


def readable(p: Player, table: str) -> None:
    """Names, stacks and bets at least 11 px; every face-up card wide enough to read, its
    corner not covered."""
    screen = p.table(table)
    sizes = screen.locator(".plate .name, .plate .stack, .bet:not([hidden]) .amount").evaluate_all(FONT_SIZES)
    assert sizes and min(sizes) >= 11, (p.name, sizes)
    cards = screen.locator(".hole .card[data-card], .board .card[data-card]").evaluate_all(CARD_CORNERS)
    assert cards, p.name
    for card in cards:
        assert card["width"] >= 26 and card["corner"], (p.name, card)


def test_a_hand_of_holdem_played_by_tapping_on_a_phone_in_english_and_russian(
    browser: Browser, room: Server, tmp_path: Path
) -> None:
    ann = Player(browser, room.http, "Pann", "en-US", phone=True)
    boris = Player(browser, room.http, "Pboris", "ru-RU", phone=True)
    players = {"en": ann, "ru": boris}
    with checked(ann, boris):
        for lang, p in players.items():
            p.page.goto(room.http + "/")
            expect(p.page.locator("#view-auth")).to_be_visible()
            fits(p, "log in")
            p.register()
            fits(p, "lobby")
            # the header folds into a menu: Settings, the language and Log out are in it
            expect(p.page.locator("#btn-settings")).to_be_hidden()
            p.press("#btn-menu")
            for control in ("#btn-history", "#btn-settings", ".lang button[data-lang=en]",
                            ".lang button[data-lang=ru]", "#btn-logout", "#who-balance"):
                in_view(p, control, "menu")
            fits(p, "menu")
            p.press("#btn-settings")
            expect(p.page.locator("#dlg-settings")).to_be_visible()
            expect(p.page.locator("#btn-settings")).to_be_hidden()  # the menu closed behind it
            fits(p, "settings")
            in_view(p, "#dlg-settings button[type=submit]", "settings")
            p.press("#dlg-settings button[type=submit]")
            expect(p.page.locator("#dlg-settings")).to_be_hidden()
            # the language, from the menu: the page is redrawn in it, still as wide as the screen
            other = "ru" if lang == "en" else "en"
            for switch_to in (other, lang):
                p.press("#btn-menu")
                p.press(f".lang button[data-lang={switch_to}]")
                expect(p.page.locator("html")).to_have_attribute("lang", switch_to)
                expect(p.page.locator("#btn-logout")).to_be_hidden()  # the menu closed
                fits(p, f"lobby in {switch_to}")
            row = p.page.locator("#lobby-rows tr[data-table='NL']")
            in_view(p, row.locator("button[data-action=play]"), "lobby")
            assert row.locator("button[data-action=play]").bounding_box()["height"] >= 44  # type: ignore[index]
            p.shoot(tmp_path, f"phone-lobby-{lang}.png")

        for lang, p in players.items():
            p.press("#lobby-rows tr[data-table='NL'] button[data-action=play]")
            p.page.wait_for_selector("#dlg-chips[open]")
            p.page.wait_for_timeout(300)  # the table drawn behind the dialog
            fits(p, "buy-in")
            for control in ("#chips-amount", "#chips-cancel", "#chips-ok"):
                in_view(p, control, "buy-in")
            p.shoot(tmp_path, f"phone-buyin-{lang}.png")
            p.press("#chips-ok")
            p.table("NL").locator(".seat.me .plate").wait_for()

        for p in players.values():
            expect(p.table("NL").locator(".stage")).to_have_attribute("data-phase", "playing", timeout=20_000)
            fits(p, "table")
            stage: Any = p.table("NL").locator(".stage").bounding_box()
            assert stage["width"] >= SCREEN_W - 24, stage  # the table drawn to the width
            readable(p, "NL")
            # the seat's options, scrolled to, are in full view (not under the action bar)
            blinds = p.table("NL").locator("label.check:has(input[data-option=auto_post_blinds])")
            blinds.scroll_into_view_if_needed()
            p.page.wait_for_timeout(200)
            in_view(p, blinds, "post blinds automatically")
            fits(p, "the options")

        turns: dict[str, int] = {}
        shot: set[str] = set()
        # the one not to act first is reading the chat when his turn comes: the sheet closes
        # by itself, the action bar is not under it
        reader = next(p for p in (ann, boris) if not p.verbs("NL"))
        reader.press(reader.table("NL").locator("button[data-control=chat]"))
        expect(reader.table("NL").locator(".side")).to_be_visible()

        def decide(p: Player, street: str, verbs: list[str]) -> None:
            expect(p.table("NL").locator(".side")).to_be_hidden()
            bar = p.table("NL").locator(".turn-area")
            box: Any = bar.bounding_box()
            assert box["y"] >= SCREEN_H / 2 and box["y"] + box["height"] <= SCREEN_H, (p.name, box)
            for button in bar.locator("button.act").all():
                in_view(p, button, f"action bar on the {street}")
                assert button.bounding_box()["height"] >= 44, p.name
            amount = bar.locator(".sizing input.amount")
            if amount.count():
                in_view(p, amount, "the bet box")
                for preset in bar.locator(".preset").all():
                    in_view(p, preset, "a bet preset")
            fits(p, f"the turn on the {street}")
            assert p.clashes("NL") == [], (p.name, street, p.clashes("NL"))
            if street == "flop" and p.name not in shot:
                readable(p, "NL")
                p.page.evaluate("() => window.scrollTo(0, 0)")
                p.shoot(tmp_path, f"phone-table-{'en' if p is ann else 'ru'}.png")
                shot.add(p.name)
            turns[p.name] = turns.get(p.name, 0) + 1
            p.click_verb("NL", next(v for v in ("check", "call", "show") if v in verbs))

        play_hand([ann, boris], "NL", decide)
        assert turns.get("Pann") and turns.get("Pboris"), turns
        assert shot == {"Pann", "Pboris"}, shot

        # the chat, behind a button: Boris writes, Ann's button marks it, she opens it
        boris.press(boris.table("NL").locator("button[data-control=chat]"))
        expect(boris.table("NL").locator(".side")).to_be_visible()
        fits(boris, "chat")
        boris.page.fill(".table-screen[data-table='NL'] .chat-input", "привет с телефона")
        boris.press(boris.table("NL").locator(".chat-form button[type=submit]"))
        expect(boris.table("NL").locator(".feed li.chat").last).to_contain_text("привет с телефона")
        boris.press(boris.table("NL").locator(".side-close"))
        expect(boris.table("NL").locator(".side")).to_be_hidden()
        chat = ann.table("NL").locator("button[data-control=chat]")
        expect(chat).to_have_class(re.compile(r"\bunread\b"))
        ann.press(chat)
        expect(ann.table("NL").locator(".feed li.chat").last).to_contain_text("привет с телефона")
        ann.press(ann.table("NL").locator(".side-close"))

        for lang, p in players.items():
            p.page.evaluate("() => window.scrollTo(0, 0)")
            p.press(p.table("NL").locator("button[data-control=previous]"))
            expect(p.page.locator("#dlg-hands .prev")).to_be_visible()
            fits(p, "previous hand")
            in_view(p, "#hands-close", "previous hand")
            in_view(p, "#hands-tab-mine", "previous hand")
            p.shoot(tmp_path, f"phone-previous-{lang}.png")
            p.press("#hands-tab-mine")
            details = p.page.locator("#dlg-hands .hands-list tbody tr button").first
            expect(details).to_be_visible()
            fits(p, "my hands")
            in_view(p, details, "my hands")
            p.shoot(tmp_path, f"phone-my-hands-{lang}.png", publish=False)
            p.press(details)
            expect(p.page.locator("#dlg-hands .prev")).to_be_visible()
            fits(p, "a hand of mine")
            p.press("#hands-close")
            expect(p.page.locator("#dlg-hands")).to_be_hidden()
            fits(p, "the table at the end")

        # the language switched at the table, from the menu: both seats drawn again, in it
        for switch_to, sit_out in (("ru", "Отойти"), ("en", "Sit out")):
            ann.press("#btn-menu")
            ann.press(f".lang button[data-lang={switch_to}]")
            expect(ann.table("NL").locator("button[data-control=sit-out]")).to_have_text(sit_out)
            names = ann.table("NL").locator(".seat:not(.empty) .plate .name")
            expect(names).to_have_text(["Pann", "Pboris"], timeout=5000)
            fits(ann, f"the table in {switch_to}")


def test_stud_up_cards_are_readable_on_a_phone(browser: Browser, room: Server, tmp_path: Path) -> None:
    carl = Player(browser, room.http, "Pcarl", "en-US", phone=True)
    dora = Player(browser, room.http, "Pdora", "ru-RU", phone=True)
    with checked(carl, dora):
        for p in (carl, dora):
            p.register()
            p.sit("Stud")
        checked_streets: set[tuple[str, str]] = set()

        def decide(p: Player, street: str, verbs: list[str]) -> None:
            if street in ("fifth street", "seventh street") and (p.name, street) not in checked_streets:
                p.page.wait_for_timeout(300)  # the card dealt has landed
                readable(p, "Stud")
                fits(p, street)
                assert p.clashes("Stud") == [], (p.name, street, p.clashes("Stud"))
                other = dora if p is carl else carl
                ups = p.seat_cards("Stud", other.name)
                assert len([c for c in ups if c]) >= 3, ups  # his up cards, face up to all
                if street == "seventh street" and p is carl:
                    p.page.evaluate("() => window.scrollTo(0, 0)")
                    p.shoot(tmp_path, "phone-stud-en.png")
                checked_streets.add((p.name, street))
            verb = next(v for v in ("bring_in", "check", "call", "show") if v in verbs)
            p.click_verb("Stud", verb)

        start = time.monotonic()
        play_hand([carl, dora], "Stud", decide, timeout=90)
        assert len(checked_streets) == 4, (checked_streets, time.monotonic() - start)

        # the phone turned sideways: the table still drawn (it had no height left), the
        # action column beside it, the chat behind its button, nothing wider than the screen
        carl.page.set_viewport_size({"width": SCREEN_H, "height": SCREEN_W})
        carl.page.wait_for_timeout(400)
        fits(carl, "sideways")
        stage: Any = carl.table("Stud").locator(".stage").bounding_box()
        assert stage["height"] >= 250 and stage["y"] + stage["height"] <= SCREEN_W, stage
        expect(carl.table("Stud").locator(".seat.me .plate")).to_be_visible()
        in_view(carl, carl.table("Stud").locator("button[data-control=chat]"), "sideways")
        in_view(carl, "#btn-menu", "sideways")
        carl.shoot(tmp_path, "phone-sideways.png", publish=False)
