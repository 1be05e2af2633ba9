"""Statistics in the browser (issue 19, Build items 3 and 4): two players play hands at a
real server, more of their hands are stored behind it (a few hundred, as a busy evening
would leave them), and each opens his own page: the figures per game, the graph drawn as
SVG with a point per hand (and the origin), his results by game and stakes; a click on the
other's name plate at the table opens a card with that player's figures. In English and
Russian, at 1366x768 and on a phone at 390x844; screenshots docs/screenshots/stats-*.png."""

from __future__ import annotations

import asyncio
import json
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from playwright.sync_api import Browser, expect
from sqlalchemy import func, insert, select

from pokerroom.core.cards import seeded_deck
from pokerroom.core.events import HandEnded
from pokerroom.core.structures import Game
from pokerroom.histories import snapshot
from pokerroom.sim import play_random_hand
from pokerroom.store import Store
from pokerroom.store.schema import accounts, hand_players, hands
from tests.server.helpers import Server
from tests.web.helpers import Player, checked, play_hand

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
STORED = 300  # hands stored behind the room


async def store_hands(database: tuple[str, str | None], names: tuple[str, str], count: int) -> dict[str, int]:
    """``count`` heads-up no-limit 1/2 hands of the two players, stored complete after the
    room's latest hand; each one's number of complete hands now."""
    store = Store(*database)
    try:
        async with store.engine.connect() as conn:
            ids = {r.name: r.id for r in (await conn.execute(
                select(accounts.c.name, accounts.c.id).where(accounts.c.name.in_(names)))).all()}
            top = (await conn.execute(select(func.max(hands.c.id)))).scalar() or 0
        rng = random.Random(19)
        rows, seats = [], []
        for k in range(count):
            hand = play_random_hand(Game.no_limit(1, 2), [200, 200], seeded_deck(k), rng)
            history = {"players": [{"seat": 1, "name": names[0]}, {"seat": 2, "name": names[1]}],
                       "private": {"hand": snapshot(hand)}}
            nets = next(e.net for e in hand.events if isinstance(e, HandEnded))
            hand_id = top + 5 + k  # past the hand the table is dealing now
            rows.append({"id": hand_id, "table_name": "Elsewhere", "number": k + 1, "game": "NL 1/2",
                         "status": "complete", "started_at": 0.0, "ended_at": 0.0, "commitment": "c" * 64,
                         "history": json.dumps(history)})
            seats += [{"hand_id": hand_id, "account_id": ids[n], "seat": s, "net": net}
                      for n, s, net in zip(names, (1, 2), nets, strict=True)]
        async with store._writing() as conn:
            await conn.execute(insert(hands), rows)
            await conn.execute(insert(hand_players), seats)
        played = hand_players.join(hands, hands.c.id == hand_players.c.hand_id)
        async with store.engine.connect() as conn:
            return {n: (await conn.execute(
                select(func.count()).select_from(played)
                .where(hand_players.c.account_id == ids[n], hands.c.status == "complete"))).scalar() or 0
                for n in names}
    finally:
        await store.close()


def own_page(p: Player, hands: int) -> None:
    """Open his own statistics and check the figures and the graph of ``hands`` hands."""
    p.page.click("#btn-stats")
    dialog = p.page.locator("#dlg-stats[open]")
    for part in (".stats-figures", "svg.stats-graph", ".stats-by-game", ".stats-by-stakes"):
        expect(dialog.locator(part)).to_be_visible()
    # and none of the page's parts squeezed by the dialog's height (each whole, the body scrolls)
    squeezed = p.page.evaluate("""() => [...document.querySelectorAll('#dlg-stats .dialog-body > *')]
        .filter(e => e.offsetParent !== null && e.clientHeight + 1 < e.scrollHeight).map(e => e.className)""")
    assert squeezed == [], squeezed
    ru = p.page.evaluate("document.documentElement.lang") == "ru"
    cell = dialog.locator(".stats-figures tbody tr[data-game='NLHE'] td[data-figure='hands']")
    expect(cell).to_have_text(f"{hands:,}".replace(",", "\u00a0" if ru else ","))
    paths = dialog.locator("svg.stats-graph path.stats-line")
    expect(paths).to_have_count(2)
    for path in paths.all():
        assert path.get_attribute("data-points") == str(hands + 1)
        d = path.get_attribute("d") or ""
        assert d.count("M") + d.count("L") == hands + 1, d[:80]
    expect(dialog.locator(".stats-by-game tbody tr")).to_have_count(1)
    expect(dialog.locator(".stats-by-stakes tbody tr")).to_have_count(1)
    for key in ("vpip", "pfr", "af", "wtsd", "bb100"):
        text = dialog.locator(f".stats-figures td[data-figure='{key}']").inner_text()
        assert text and text != "—", (key, text)


def no_wider_than_the_screen(p: Player) -> None:
    wide = p.page.evaluate("""() => {
        const w = document.documentElement.clientWidth;
        return [...document.querySelectorAll('#dlg-stats, #dlg-stats .dialog-head, .stats-card')]
            .filter(e => e.getBoundingClientRect().right > w + 1).map(e => e.id || e.className);
    }""")
    assert wide == [], wide


def test_own_statistics_page_graph_and_a_seat_card(browser: Browser, room: Server, tmp_path: Path) -> None:
    stan = Player(browser, room.http, "stan", "en-US")
    rita = Player(browser, room.http, "rita", "ru-RU")
    with checked(stan, rita):
        for p in (stan, rita):
            p.page.set_viewport_size(DESKTOP)
            p.register()
        stan.sit("NL")
        rita.sit("NL")

        def decide(p: Player, street: str, verbs: list[str]) -> None:
            p.click_verb("NL", "check" if "check" in verbs else "call")

        for _ in range(2):
            play_hand([stan, rita], "NL", decide)
        with ThreadPoolExecutor(1) as thread:  # Playwright's loop runs in this one
            counts = thread.submit(asyncio.run, store_hands(room.database, ("stan", "rita"), STORED)).result()
        assert counts["stan"] >= STORED + 2

        own_page(stan, counts["stan"])
        stan.shoot(tmp_path, "stats-en.png")
        stan.page.click("#stats-close")

        # a click on rita's name plate at the table: her figures, no graph
        plate = stan.table("NL").locator(".seat:not(.me):not(.empty) .plate")
        plate.click()
        card = stan.page.locator(".stats-card")
        expect(card).to_contain_text("rita")
        expect(card.locator(".stats-card-game[data-game='NLHE'] dd[data-figure='hands']")).to_have_text(
            f"{counts['rita']:,}")
        assert card.locator("svg").count() == 0
        stan.shoot(tmp_path, "stats-seat-en.png")
        stan.page.keyboard.press("Escape")
        expect(card).to_have_count(0)

        own_page(rita, counts["rita"])
        expect(rita.page.locator("#dlg-stats-title")).to_have_text("Моя статистика")
        rita.shoot(tmp_path, "stats-ru.png")
        rita.page.set_viewport_size(PHONE)
        rita.page.wait_for_timeout(400)  # the graph is drawn again to the new width
        no_wider_than_the_screen(rita)
        rita.shoot(tmp_path, "stats-phone-ru.png")
        rita.page.click("#stats-close")
        rita.table("NL").locator(".seat:not(.me):not(.empty) .plate").click()
        expect(rita.page.locator(".stats-card")).to_contain_text("VPIP")
        no_wider_than_the_screen(rita)
        rita.shoot(tmp_path, "stats-seat-phone-ru.png")
