"""Protocol 3 in the browser (issue 17, item 4): the lobby and the table name games and
hands from the data the server sends, in English and in Russian, on a desktop and on a
phone (screenshots under /tmp/wire-shots too, to look at); a gap in a table's event
versions makes the client ask for a snapshot instead of drawing on."""

from __future__ import annotations

import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.server.helpers import Server, serving
from tests.web.helpers import CHROMIUM, Player, checked, play_hand

SHOTS = Path("/tmp/wire-shots")
DESKTOP, PHONE = {"width": 1366, "height": 768}, {"width": 390, "height": 844}
MIXED = """
[[table]]
name = "Mix"
game = "mixed"
seats = 6
min_buy_in = 40
max_buy_in = 400
[[table.schedule]]
game = "NLHE"
small_blind = 1
big_blind = 2
ante = 1
hands = 3
[[table.schedule]]
game = "PLHE"
small_blind = 2
big_blind = 4
hands = 3
"""
LOBBY = {  # table -> (its game, its stakes) as each language writes them
    "en": {
        "NL": ("No-Limit Hold'em 1/2", "1/2"),
        "FL": ("Fixed-Limit Hold'em 2/4 (blinds 1/2)", "2/4"),
        "Stud": ("Seven Card Stud 10/20 (ante 1, bring-in 3)", "10/20"),
        "Mix": ("Mixed: No-Limit Hold'em → Pot-Limit Hold'em", "1/2"),
    },
    "ru": {
        "NL": ("Безлимитный холдем 1/2", "1/2"),
        "FL": ("Лимитный холдем 2/4 (блайнды 1/2)", "2/4"),
        "Stud": ("Семикарточный стад 10/20 (анте 1, бринг-ин 3)", "10/20"),
        "Mix": ("Микс: Безлимитный холдем → Пот-лимит холдем", "1/2"),
    },
}
HANDS = {
    "en": re.compile(r"^(High card, \w+|One pair, \w+|Two pair, \w+ and \w+|Three of a kind, \w+|"
                     r"Straight, \w+ high|Flush, \w+ high|Full house, \w+ full of \w+|"
                     r"Four of a kind, \w+|Straight flush, \w+ high|Royal flush)$"),
    "ru": re.compile(r"^(Старшая карта: \w+|Пара \w+|Две пары: \w+ и \w+|Тройка \w+|Стрит до \w+|"
                     r"Флеш, старшая карта — \w+|Фулл-хаус: \w+ на \w+|Каре \w+|Стрит-флеш до \w+|"
                     r"Роял-флеш)$"),
}


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The test room with a mixed table, and 8 s between hands: time to look at the end of
    a hand on two screens."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests need Debian's chromium at {CHROMIUM} (make test installs it)")
    path = tmp_path_factory.mktemp("room")
    server = Server(path, (f"sqlite:///{path / 'room.db'}", None), action_time=30)
    server.config.write_text(server.config.read_text().replace("pause = 0.05", "pause = 8.0") + MIXED)
    yield from serving(server)


def shoot(p: Player, tmp_path: Path, name: str) -> None:
    """The page at desktop and phone sizes, into the test's tmp dir and /tmp/wire-shots."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        p.page.set_viewport_size(viewport)
        p.page.wait_for_timeout(300)
        target = tmp_path / f"{name}-{size}.png"
        p.page.screenshot(path=str(target))
        shutil.copyfile(target, SHOTS / target.name)
    p.page.set_viewport_size(DESKTOP)


def test_games_and_hands_named_from_data_in_both_languages(
    browser: Browser, room: Server, tmp_path: Path
) -> None:
    wendy = Player(browser, room.http, "wendy", "en-US")
    vasya = Player(browser, room.http, "vasya", "ru-RU")
    players = {"en": wendy, "ru": vasya}
    with checked(wendy, vasya):
        for lang, p in players.items():
            p.register()
            p.page.set_viewport_size(DESKTOP)
            for table, (game, stakes) in LOBBY[lang].items():
                row = p.page.locator(f"#lobby-rows tr[data-table='{table}'] td")
                expect(row.nth(1)).to_have_text(game)
                expect(row.nth(2)).to_have_text(stakes)
            # the filters are the games and the stakes, from data
            options = p.page.eval_on_selector_all("#filter-game option", "os => os.map(o => o.value)")
            assert options == ["", "NL", "FL", "Stud", "Mixed"], options
            stakes = p.page.eval_on_selector_all("#filter-stakes option", "os => os.map(o => o.value)")
            assert stakes == ["", "1/2", "2/4", "10/20"], stakes
            shoot(p, tmp_path, f"lobby-{lang}")

        wendy.sit("Mix")
        vasya.sit("Mix")
        expect(wendy.table("Mix").locator(".game")).to_have_text("No-Limit Hold'em 1/2 (ante 1)")
        expect(vasya.table("Mix").locator(".game")).to_have_text("Безлимитный холдем 1/2 (анте 1)")
        expect(vasya.table("Mix").locator(".schedule")).to_contain_text("Пот-лимит холдем 2/4")

        def check_down(p: Player, street: str, verbs: list[str]) -> None:
            p.click_verb("Mix", "check" if "check" in verbs else "call")

        play_hand([wendy, vasya], "Mix", check_down)
        for lang, p in players.items():
            expect(p.table("Mix").locator(".result")).to_be_visible()
            labels = p.table("Mix").locator(".seat .hand-label:not([hidden])")
            expect(labels).to_have_count(2)  # checked down: both hands at the showdown
            for text in labels.all_inner_texts():
                assert HANDS[lang].match(text), (lang, text)
            log = p.table("Mix").locator(".feed li").filter(has_text=re.compile("[#№]1:"))
            game = "No-Limit Hold'em 1/2" if lang == "en" else "Безлимитный холдем 1/2"
            expect(log.first).to_contain_text(game)
        for lang, p in players.items():
            shoot(p, tmp_path, f"table-{lang}")
        # "My hands": the hand's game named from the data the list carries (protocol 3)
        for lang, p in players.items():
            p.page.click("#btn-history")
            cell = p.page.locator(".hands-list tbody tr td").nth(3)
            game = "No-Limit Hold'em 1/2 (ante 1)" if lang == "en" else "Безлимитный холдем 1/2 (анте 1)"
            expect(cell).to_have_text(game)
            p.page.click("#hands-close")


def until(p: Player, condition: str, seconds: float = 15.0) -> None:
    """Wait for a JavaScript condition (the page's CSP refuses wait_for_function's eval)."""
    deadline = time.monotonic() + seconds
    while not p.page.evaluate(condition):
        assert time.monotonic() < deadline, f"never: {condition}"
        p.page.wait_for_timeout(50)


def test_a_gap_in_event_versions_asks_for_a_snapshot(browser: Browser, room: Server) -> None:
    p = Player(browser, room.http, "gapper", "en-US")
    with checked(p):
        p.register()
        p.page.click("#lobby-rows tr[data-table='FL'] button[data-action=watch]")
        until(p, "(pokerroom.room.table('FL')?.version ?? null) !== null")  # its snapshot came
        seen = p.page.evaluate("""() => {
            const room = pokerroom.room;
            const ts = room.table('FL');
            const sent = [];
            const send = room.socket.send.bind(room.socket);
            room.socket.send = (m) => { sent.push(m); return send(m); };
            const v = ts.version;
            const line = (version, text) => ({ version, event: { type: 'ChatLine', player: 'x', text } });
            const logged = () => ts.log.filter((e) => e.event.type === 'ChatLine').map((e) => e.event.text);
            room.handle({ type: 'events', table: 'FL', events: [line(v, 'again')] });  // seen already
            const before = logged();
            room.handle({ type: 'events', table: 'FL', events: [line(v + 2, 'after a gap')] });
            return { v, before, after: logged(), resyncing: ts.resyncing, gaps: ts.gaps, sent };
        }""")
        assert seen["before"] == [] and seen["after"] == []  # neither drawn
        assert seen["resyncing"] is True and seen["gaps"] == 1
        assert seen["sent"] == [{"type": "subscribe", "table": "FL", "snapshots": True}]
        # the snapshot comes; events go on from its version
        until(p, "!pokerroom.room.table('FL').resyncing")
        version = p.page.evaluate("pokerroom.room.table('FL').version")
        assert version >= seen["v"]
        drawn = p.page.evaluate("""(v) => {
            const room = pokerroom.room;
            const event = { type: 'ChatLine', player: 'x', text: 'next' };
            room.handle({ type: 'events', table: 'FL', events: [{ version: v + 1, event }] });
            return room.table('FL').log.filter((e) => e.event.type === 'ChatLine').map((e) => e.event.text);
        }""", version)
        assert drawn == ["next"]
