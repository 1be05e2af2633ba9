"""Two layout defects at 1366x768 (issue 19): the viewer's own bet was drawn under his
hole cards (his big blind never visible), and in stud the name plates covered the lower
part of the up cards of the seven-card rows. Each check compares bounding boxes: the bet
(chip and amount) must not meet the viewer's cards; no card of a stud row may meet its
seat's plate, and each card's corner (rank and suit) must be what shows there."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, ViewportSize, expect

from tests.server.helpers import Server
from tests.web.helpers import Player, checked, play_hand

DESKTOP: ViewportSize = {"width": 1366, "height": 768}

BOX = """const box = (e) => {
  const r = e.getBoundingClientRect();
  return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
};"""

# The viewer's bet and his cards, as boxes: {bet, cards: [...]} (bet null when he has none).
MY_BET = """(table) => {
  const screen = document.querySelector(`.table-screen[data-table="${table}"]`);
  const seat = screen.querySelector(".seat.me").dataset.seat;
  """ + BOX + """
  const bet = screen.querySelector(`.bet[data-seat="${seat}"]:not([hidden])`);
  return { bet: bet ? box(bet) : null, chip: bet ? box(bet.querySelector(".chip")) : null,
           cards: [...screen.querySelectorAll(".seat.me .hole .card")].map(box) };
}"""

# For each seat with cards: its plate's box and each card's box and whether the card's
# corner is what a viewer sees there.
ROWS = """(table) => {
  """ + BOX + """
  const seats = document.querySelectorAll(`.table-screen[data-table="${table}"] .seat:not(.empty)`);
  return [...seats].map((seat) => ({
    name: seat.querySelector(".name").textContent, plate: box(seat.querySelector(".plate")),
    cards: [...seat.querySelectorAll(".hole .card")].map((card) => {
      const r = card.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width * 0.2, r.top + r.height * 0.18);
      const corner = Boolean(hit && hit.closest(".card") === card);
      return { code: card.dataset.card ?? null, ...box(card), corner };
    }) }));
}"""


def overlap(a: dict[str, float], b: dict[str, float]) -> float:
    """The area two boxes share (0 when they only touch)."""
    w = min(a["right"], b["right"]) - max(a["left"], b["left"])
    h = min(a["bottom"], b["bottom"]) - max(a["top"], b["top"])
    return max(0.0, w) * max(0.0, h)


def test_my_own_bet_is_not_hidden_under_my_cards(browser: Browser, room: Server, tmp_path: Path) -> None:
    ann = Player(browser, room.http, "Lann", "en-US")
    bob = Player(browser, room.http, "Lbob", "en-US")
    with checked(ann, bob):
        for p in (ann, bob):
            p.page.set_viewport_size(DESKTOP)
            p.register()
            p.sit("NL")
        for p in (ann, bob):
            expect(p.table("NL").locator(".stage")).to_have_attribute("data-phase", "playing", timeout=20_000)
            expect(p.table("NL").locator(".seat.me .hole .card")).to_have_count(2)
            p.page.wait_for_timeout(400)  # the cards dealt have landed
            drawn = p.page.evaluate(MY_BET, "NL")
            assert drawn["bet"] is not None, (p.name, "his blind is not drawn")  # both posted a blind
            for card in drawn["cards"]:
                assert overlap(drawn["bet"], card) == 0, (p.name, drawn)
            assert p.clashes("NL") == [], (p.name, p.clashes("NL"))  # nor anything else over anything
        ann.shoot(tmp_path, "my-bet.png", publish=False)


def test_stud_plates_do_not_cover_the_up_cards(browser: Browser, room: Server, tmp_path: Path) -> None:
    cleo = Player(browser, room.http, "Lcleo", "en-US")
    dima = Player(browser, room.http, "Ldima", "ru-RU")
    with checked(cleo, dima):
        for p in (cleo, dima):
            p.page.set_viewport_size(DESKTOP)
            p.register()
            p.sit("Stud")
        seen: set[tuple[str, str]] = set()

        def decide(p: Player, street: str, verbs: list[str]) -> None:
            if street in ("fifth street", "seventh street") and (p.name, street) not in seen:
                p.page.wait_for_timeout(400)  # the card dealt has landed
                rows = p.page.evaluate(ROWS, "Stud")
                assert len(rows) == 2, rows
                for row in rows:
                    assert len(row["cards"]) >= 5, row
                    for card in row["cards"]:
                        covered = overlap(row["plate"], card)
                        assert covered == 0, (p.name, street, row["name"], card, row["plate"])
                        if card["code"]:  # face up to this viewer: its rank can be read
                            assert card["corner"], (p.name, street, row["name"], card)
                assert p.clashes("Stud") == [], (p.name, street, p.clashes("Stud"))
                if street == "seventh street" and p is cleo:
                    p.shoot(tmp_path, "stud-rows.png", publish=False)
                seen.add((p.name, street))
            verb = next(v for v in ("bring_in", "check", "call", "show") if v in verbs)
            p.click_verb("Stud", verb)

        play_hand([cleo, dima], "Stud", decide, timeout=90)
        assert len(seen) == 4, seen
