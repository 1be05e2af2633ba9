"""Tiled tables in the browser (issue 19, item 7): on a window 1920 px wide two open
tables are on screen at once, side by side, each drawn whole with the player seated at
it; the table where it is his turn first is ringed and takes the keyboard, even when he
last clicked in the other; a 1280 px window falls back to tabs; "Tabs / Tile" in the
header switches, and the choice outlives a reload. With seven tables (three rows, two on
screen) the tile chosen from a tab, and the one that needs the player, scroll into view.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.rooms import NO_BANK, SIX, room, table
from tests.server.helpers import Server, serving
from tests.web.helpers import Player, checked

WIDE: ViewportSize = {"width": 1920, "height": 1080}
NARROW: ViewportSize = {"width": 1280, "height": 800}
TABLES = ("NL", "FL")
NEEDS_YOU = re.compile(r"\bneeds-you\b")

# Each open table's turn as the page's state has it: {table: [his turn, deadline, hand, actor]}.
TURNS = """() => Object.fromEntries([...pokerroom.room.tables].map(([name, ts]) => {
  const v = ts.view;
  const mine = Boolean(v && v.legal && v.seat !== null && v.seat !== undefined && v.actor === v.seat);
  return [name, [mine, v ? v.deadline : null, v ? v.hand_number : null, v ? v.actor : null]];
}))"""


@pytest.fixture(scope="module")
def seven(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A room of seven six-seat tables, T1...T7: more than two rows of tiles."""
    path = tmp_path_factory.mktemp("seven")
    server = Server(path, (f"sqlite:///{path / 'room.db'}", None), action_time=30)
    clock = {"action_time": 30, **NO_BANK}
    tables = [table(f"T{k}", **SIX, **clock) for k in range(1, 8)]
    server.config.write_text(room(*tables, starting_balance=10000, daily_topup=2000, pause=2.0))
    yield from serving(server)


# Whether a tile is wholly inside the scrolled grid's visible part.
IN_VIEW = """(name) => {
  const grid = document.querySelector('#view-table').getBoundingClientRect();
  const r = document.querySelector(`.table-screen[data-table="${name}"]`).getBoundingClientRect();
  return r.top >= grid.top - 1 && r.bottom <= grid.bottom + 1;
}"""


def boxes(p: Player) -> dict[str, dict[str, float]]:
    """Each table screen's box on the page."""
    found: dict[str, dict[str, float]] = p.page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#view-table > .table-screen')]
            .map(e => { const r = e.getBoundingClientRect();
                        return [e.dataset.table,
                                {x: r.left, y: r.top, right: r.right, bottom: r.bottom}]; }))"""
    )
    return found


def apart(a: dict[str, float], b: dict[str, float]) -> bool:
    """Two boxes that do not overlap."""
    return a["right"] <= b["x"] or b["right"] <= a["x"] or a["bottom"] <= b["y"] or b["bottom"] <= a["y"]


def act_for(p: Player) -> None:
    """Check or call wherever it is ``p``'s turn (the other player, kept going)."""
    for name in TABLES:
        verbs = p.verbs(name)
        if verbs:
            p.click_verb(name, "check" if "check" in verbs else "call")
            p.page.wait_for_timeout(150)


def wait_for_turn(ann: Player, boris: Player, timeout: float = 60.0) -> dict[str, Any]:
    """Play boris's turns until it is ann's turn at one table at least; her turns then."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        turns: dict[str, Any] = ann.page.evaluate(TURNS)
        if any(t[0] for t in turns.values()):
            return turns
        act_for(boris)
        ann.page.wait_for_timeout(150)
    raise AssertionError("it never came to ann's turn")


def test_two_tables_tiled(browser: Browser, room: Server, tmp_path: Path) -> None:
    ann = Player(browser, room.http, "ann", "en-US")
    boris = Player(browser, room.http, "boris", "ru-RU")
    with checked(ann, boris):
        for p in (ann, boris):
            p.page.set_viewport_size(WIDE)
            p.register()
        ann.sit("NL")
        # one table open: drawn alone, as before
        expect(ann.page.locator("#view-table")).not_to_have_class("tiled")
        ann.page.click("#table-tabs a[href='#/lobby']")
        ann.sit("FL")
        for name in TABLES:
            boris.sit(name)
            boris.page.click("#table-tabs a[href='#/lobby']")
        boris.page.click(f"#table-tabs a[data-table='{TABLES[0]}']")

        # both tables on ann's screen, side by side, within the window, not overlapping
        for p in (ann, boris):
            expect(p.page.locator("#view-table")).to_have_class(re.compile(r"\btiled\b"))
            expect(p.page.locator("#view-table > .table-screen")).to_have_count(2)
            for name in TABLES:
                expect(p.table(name)).to_be_visible()
                expect(p.table(name).locator(".seat.me .plate")).to_be_visible()
                expect(p.table(name).locator(".seat:not(.empty) .plate")).to_have_count(2)
                expect(p.table(name).locator(".seat.me .hole .card[data-card]")).to_have_count(2)
        box = boxes(ann)
        left, right = sorted(box.values(), key=lambda b: b["x"])
        assert apart(left, right) and left["y"] == right["y"], box  # side by side
        header = ann.page.eval_on_selector(".topbar", "e => e.getBoundingClientRect().bottom")
        for b in box.values():
            assert b["x"] >= 0 and b["right"] <= WIDE["width"], box
            assert b["y"] >= header and b["bottom"] <= WIDE["height"], box
            assert b["right"] - b["x"] > 900 and b["bottom"] - b["y"] > 900, box  # half the window each
        for name in TABLES:  # each stage drawn to its tile, not a thumbnail
            width = ann.page.eval_on_selector(
                f".table-screen[data-table='{name}'] .stage", "e => e.getBoundingClientRect().width")
            assert width > 850, (name, width)
        assert not ann.clashes(TABLES[0]) and not ann.clashes(TABLES[1])

        # ann's turn: that table ringed (the earliest deadline if both), the other not
        turns = wait_for_turn(ann, boris)
        mine = {name: t for name, t in turns.items() if t[0]}
        urgent = min(mine, key=lambda name: mine[name][1])
        other = next(name for name in TABLES if name != urgent)
        expect(ann.table(urgent)).to_have_class(NEEDS_YOU)
        expect(ann.table(other)).not_to_have_class(NEEDS_YOU)
        ann.shoot(tmp_path, "tiles-en.png")

        # she last chose the other table (a click in it): the key still acts where she must
        ann.table(other).locator(".table-name").click()
        expect(ann.table(other)).to_have_class(re.compile(r"\btile-active\b"))
        assert ann.page.evaluate("location.hash") == f"#/table/{other}"
        before = turns[urgent]
        other_before = ann.page.evaluate(TURNS)[other]
        ann.page.keyboard.press("c")
        ann.page.wait_for_function(  # her turn there is over (a new turn has a new deadline)
            """([name, deadline, hand, actor]) => { const v = pokerroom.room.table(name).view;
                return v.deadline !== deadline || v.hand_number !== hand || v.actor !== actor; }""",
            arg=[urgent, *before[1:]],
        )
        after = ann.page.evaluate(TURNS)[other]
        assert after == other_before, (other_before, after)  # nothing happened at the other table

        # boris (Russian) sees his two tables too; a screenshot of each language
        boris.page.wait_for_timeout(300)
        boris.shoot(tmp_path, "tiles-ru.png")

        # the log and chat of a tile: behind its Chat button, a column of the tile beside the table
        side = ann.table(other).locator(".side")
        expect(side).to_be_hidden()
        ann.table(other).locator("button[data-control=chat]").click()
        expect(side).to_be_visible()
        panel = side.bounding_box()
        tile = boxes(ann)[other]
        assert panel is not None, side
        assert tile["x"] <= panel["x"] and panel["x"] + panel["width"] <= tile["right"] + 0.5, (panel, tile)
        main = ann.table(other).locator(".table-main").bounding_box()
        assert main is not None and main["x"] + main["width"] <= panel["x"] + 0.5, (main, panel)
        ann.shoot(tmp_path, "tiles-chat-en.png", publish=False)
        side.locator(".side-close").click()
        expect(side).to_be_hidden()

        # a narrower window: one table again, behind tabs, and no switch
        ann.page.set_viewport_size(NARROW)
        expect(ann.page.locator("#view-table")).not_to_have_class(re.compile("tiled"))
        expect(ann.page.locator("#view-table > .table-screen")).to_have_count(1)
        expect(ann.page.locator("#table-tabs a[data-table]")).to_have_count(2)
        expect(ann.page.locator(".layout-switch")).to_be_hidden()

        # wide again: tiled; "Tabs" in the header: one table, kept after a reload; "Tile" back
        ann.page.set_viewport_size(WIDE)
        expect(ann.page.locator("#view-table > .table-screen")).to_have_count(2)
        ann.page.click(".layout-switch button[data-layout=tabs]")
        expect(ann.page.locator("#view-table > .table-screen")).to_have_count(1)
        tabs = ann.page.locator(".layout-switch button[data-layout=tabs]")
        expect(tabs).to_have_attribute("aria-pressed", "true")
        ann.page.reload()
        ann.table(other).locator(".seat.me .plate").wait_for()
        expect(ann.page.locator("#view-table > .table-screen")).to_have_count(1)
        ann.page.click(".layout-switch button[data-layout=tile]")
        expect(ann.page.locator("#view-table > .table-screen")).to_have_count(2)
        expect(ann.page.locator(".layout-switch button")).to_have_text(["Tabs", "Tile"])
        expect(boris.page.locator(".layout-switch button")).to_have_text(["Вкладки", "Плитка"])

        # a third table, watched: 2x2, every tile in the window and none over another
        ann.page.click("#table-tabs a[href='#/lobby']")
        ann.page.click("#lobby-rows tr[data-table='Stud'] button[data-action=watch]")
        expect(ann.page.locator("#view-table > .table-screen")).to_have_count(3)
        expect(ann.table("Stud")).to_have_class(re.compile(r"\btile-active\b"))
        expect(ann.table("Stud").locator(".seat.empty")).to_have_count(8)
        box = boxes(ann)
        items = list(box.values())
        for i, a in enumerate(items):
            assert a["x"] >= 0 and a["right"] <= WIDE["width"] and a["bottom"] <= WIDE["height"], box
            for b in items[i + 1:]:
                assert apart(a, b), box
        assert box["FL"]["y"] == box["NL"]["y"] < box["Stud"]["y"], box
        ann.shoot(tmp_path, "tiles-2x2-en.png")


def test_the_table_that_needs_you_is_scrolled_into_view(browser: Browser, seven: Server) -> None:
    ann = Player(browser, seven.http, "ann", "en-US")
    boris = Player(browser, seven.http, "boris", "en-US")
    with checked(ann, boris):
        ann.page.set_viewport_size(WIDE)
        for p in (ann, boris):
            p.register()
        for k in range(1, 7):  # six tables watched
            ann.page.click("#table-tabs a[href='#/lobby']")
            ann.page.click(f"#lobby-rows tr[data-table='T{k}'] button[data-action=watch]")
            expect(ann.table(f"T{k}")).to_be_visible()
        ann.page.click("#table-tabs a[href='#/lobby']")
        ann.sit("T7")  # the seventh, in the third row: brought into view as it is chosen
        expect(ann.page.locator("#view-table > .table-screen")).to_have_count(7)
        ann.page.wait_for_function(IN_VIEW, arg="T7")

        # back to the first table (its tab): the seventh scrolls out of view
        ann.page.click("#table-tabs a[data-table='T1']")
        ann.page.wait_for_function(f"(name) => !({IN_VIEW})(name)", arg="T7")
        ann.page.wait_for_function(IN_VIEW, arg="T1")

        # boris sits down with her: when it is her turn there, the seventh comes into view
        boris.sit("T7")
        deadline = time.monotonic() + 60
        while not ann.page.evaluate(TURNS)["T7"][0]:
            assert time.monotonic() < deadline, "it never came to ann's turn"
            verbs = boris.verbs("T7")
            if verbs:
                boris.click_verb("T7", "check" if "check" in verbs else "call")
            ann.page.wait_for_timeout(200)
        expect(ann.table("T7")).to_have_class(NEEDS_YOU)
        ann.page.wait_for_function(IN_VIEW, arg="T7")
        assert ann.page.evaluate("location.hash") == "#/table/T1"  # still her choice; the keys act at T7
