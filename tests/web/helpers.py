"""The browser tests' helpers: ``Player`` wraps one browser context (one person): it
registers through the page, takes a seat, reads the table from the DOM and acts by
clicking. Every page's console errors and uncaught exceptions are collected; a test ends
by asserting there were none. ``play_hand`` acts for whoever's turn it is.
"""

from __future__ import annotations

import os
import re
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, ConsoleMessage, Page, ViewportSize

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PASSWORD = "correct horse battery"
VIEWPORT = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}  # a phone held upright, touch and all (issue 19)

# What on the page lies past the screen's edges: the page's width, and each visible
# element whose box goes past the left or right edge (a phone must never scroll sideways).
TOO_WIDE = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [];
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(el).visibility === "hidden") continue;
    if (el.closest(".sr-only, .sprite")) continue;
    if (r.right > width + 0.5 || r.left < -0.5) {
      wide.push(`${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}.${[...el.classList].join(".")} `
        + `${Math.round(r.left)}..${Math.round(r.right)}: ${(el.textContent || "").trim().slice(0, 30)}`);
    }
  }
  return { width: document.documentElement.scrollWidth, screen: width, wide };
}"""

# What on a table is drawn over what it must not be: the bets, the dealer button, the
# name plates, each seat's cards, the board and the pot, pair by pair (a seat's cards may
# tuck behind its own plate); [] when nothing clashes.
CLASHES = """(table) => {
  const screen = document.querySelector(`.table-screen[data-table="${table}"]`);
  const items = [];
  const add = (el, kind, seat) => {
    if (!el || el.hidden || !el.getClientRects().length) return;
    const r = el.getBoundingClientRect();
    if (r.width && r.height) items.push({ kind, seat, r });
  };
  for (const seat of screen.querySelectorAll(".seat:not(.empty)")) {
    add(seat.querySelector(".plate"), "plate", seat.dataset.seat);
    if (seat.querySelector(".hole .card")) add(seat.querySelector(".hole"), "cards", seat.dataset.seat);
  }
  for (const bet of screen.querySelectorAll(".bet")) add(bet, "bet", bet.dataset.seat);
  add(screen.querySelector(".dealer-button"), "button", null);
  if (screen.querySelector(".board .card")) add(screen.querySelector(".board"), "board", null);
  add(screen.querySelector(".pot"), "pot", null);
  const clashes = [];
  for (let i = 0; i < items.length; i += 1) for (let j = i + 1; j < items.length; j += 1) {
    const a = items[i], b = items[j];
    if (a.seat !== null && a.seat === b.seat && a.kind !== "bet" && b.kind !== "bet") continue;
    const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
    const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
    const name = (x) => `${x.kind}${x.seat ? " " + x.seat : ""}`;
    if (w > 1 && h > 1) clashes.push(`${name(a)} / ${name(b)}: ${Math.round(w)}x${Math.round(h)}`);
  }
  return clashes;
}"""


@contextmanager
def checked(*players: Player) -> Iterator[None]:
    """A test's players: when its body has passed, none of their pages may have logged an
    error; their browser contexts are closed however it ends."""
    try:
        yield
        for p in players:
            assert not p.errors, p.errors
    finally:
        for p in players:
            p.close()


class Player:
    """One person at the room, in his own browser context."""

    def __init__(self, browser: Browser, base: str, name: str, locale: str, phone: bool = False) -> None:
        """``phone``: a 390x844 touch screen at three pixels per point, where the player
        taps instead of clicking."""
        self.name = name
        self.base = base
        self.phone = phone
        if phone:
            self.context = browser.new_context(viewport=PHONE, locale=locale, has_touch=True, is_mobile=True,
                                               device_scale_factor=3)
        else:
            self.context = browser.new_context(viewport=VIEWPORT, locale=locale)
        self.page: Page = self.context.new_page()
        self.page.set_default_timeout(15_000)
        self.errors: list[str] = []
        self.allowed: list[re.Pattern[str]] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))

    def _console(self, message: ConsoleMessage) -> None:
        if message.type not in ("error", "warning"):
            return
        text = message.text
        if any(p.search(text) for p in self.allowed):
            return
        self.errors.append(f"console {message.type}: {text}")

    def close(self) -> None:
        self.context.close()

    def press(self, target: str | Any) -> None:
        """Tap (on a phone) or click a selector or locator: a tap fails, as a finger would,
        when another element covers the target."""
        locator = self.page.locator(target) if isinstance(target, str) else target
        if self.phone:
            locator.tap()
        else:
            locator.click()

    def clashes(self, table: str) -> list[str]:
        """What on ``table`` is drawn over what it must not be (CLASHES)."""
        found: list[str] = self.page.evaluate(CLASHES, table)
        return found

    def too_wide(self) -> dict[str, Any]:
        """The page's width and the visible elements past the screen's edges (TOO_WIDE)."""
        report: dict[str, Any] = self.page.evaluate(TOO_WIDE)
        return report

    # ------------------------------------------------------------------ account

    def register(self) -> None:
        page = self.page
        page.goto(self.base + "/")
        self.press("#tab-register")
        page.fill("#auth-name", self.name)
        page.fill("#auth-password", PASSWORD)
        self.press("#auth-submit")
        page.wait_for_selector("#view-lobby:not([hidden]) #lobby-rows tr")
        # on a phone the name is in the header's menu, closed
        page.wait_for_selector(f"#who-name:text-is('{self.name}')", state="attached")

    # ------------------------------------------------------------------ the table

    def sit(self, table: str, buy_in: int | None = None) -> None:
        """Play from the lobby: the first free seat, the buy-in dialog, sit down."""
        page = self.page
        self.press(f"#lobby-rows tr[data-table='{table}'] button[data-action=play]")
        page.wait_for_selector("#dlg-chips[open]")
        if buy_in is not None:
            page.fill("#chips-amount", str(buy_in))
        self.press("#chips-ok")
        self.table(table).locator(".seat.me .plate").wait_for()

    def table(self, name: str) -> Any:
        return self.page.locator(f".table-screen[data-table='{name}']")

    def stage(self, name: str) -> dict[str, str]:
        selector = f".table-screen[data-table='{name}'] .stage"
        return self.page.eval_on_selector(selector, "e => ({...e.dataset})")

    def verbs(self, name: str) -> list[str]:
        """The actions the action bar offers now ([] when it is not his turn)."""
        return self.page.eval_on_selector_all(
            f".table-screen[data-table='{name}'] .turn-area:not([hidden]) button.act:not(:disabled)",
            "els => els.map(e => e.dataset.verb)",
        )

    def click_verb(self, name: str, verb: str) -> None:
        self.press(self.table(name).locator(f".turn-area button.act[data-verb='{verb}']").first)

    def my_cards(self, name: str) -> list[str]:
        selector = f".table-screen[data-table='{name}'] .seat.me .hole .card[data-card]"
        return self.page.eval_on_selector_all(selector, "els => els.map(e => e.dataset.card)")

    def seat_cards(self, name: str, player: str) -> list[str | None]:
        """The cards drawn at ``player``'s seat: a code, or None for a card face down."""
        return self.page.evaluate(
            """([table, player]) => {
                const seat = [...document.querySelectorAll(`.table-screen[data-table="${table}"] .seat`)]
                    .find(s => s.querySelector('.name')?.textContent === player);
                return seat ? [...seat.querySelectorAll('.hole .card')].map(c => c.dataset.card ?? null) : [];
            }""",
            [name, player],
        )

    def every_card_shown(self) -> set[str]:
        return set(self.page.eval_on_selector_all("[data-card]", "els => els.map(e => e.dataset.card)"))

    def shoot(self, tmp_path: Path, filename: str, publish: bool = True) -> Path:
        """A screenshot into the test's tmp dir (kept as a test artifact) and, with
        POKERROOM_SCREENSHOTS=1, into docs/screenshots for the README."""
        target = tmp_path / filename
        self.page.screenshot(path=str(target), scale="css")  # a phone's too: 390 wide, not 1170
        if publish and os.environ.get("POKERROOM_SCREENSHOTS") == "1":
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(target, SCREENSHOTS / filename)
        return target


def play_hand(
    players: list[Player],
    table: str,
    decide: Callable[[Player, str, list[str]], None],
    timeout: float = 60.0,
) -> None:
    """Act for whoever's turn it is, with ``decide(player, street, verbs)``, until the
    hand on ``table`` is over (its result is on the table)."""
    start_hand = None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for p in players:
            stage = p.stage(table)
            if start_hand is None and stage.get("phase") == "playing":
                start_hand = stage["hand"]
            if start_hand is not None and stage.get("phase") == "showdown" and stage["hand"] == start_hand:
                return
            verbs = p.verbs(table)
            if verbs and stage.get("phase") == "playing":
                decide(p, stage.get("street", ""), verbs)
                p.page.wait_for_timeout(150)
        players[0].page.wait_for_timeout(100)
    raise AssertionError(f"the hand at {table} did not finish in {timeout} s")


def all_in(table: str) -> Callable[[Player, str, list[str]], None]:
    """A ``decide`` for ``play_hand``: whoever may bet or raise moves all in (the amount
    box at its maximum); the others call, or check."""

    def decide(p: Player, street: str, verbs: list[str]) -> None:
        verb = next((v for v in ("raise", "bet") if v in verbs), None)
        if verb is not None:
            box = p.table(table).locator(".sizing input.amount")
            box.fill(box.get_attribute("max") or "")
            p.click_verb(table, verb)
        else:
            p.click_verb(table, "call" if "call" in verbs else "check")

    return decide
