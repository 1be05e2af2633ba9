"""The result banner with more than one pot (issue 19: "with two pots the banner reads
'wins 316 / wins 120' with no main-pot or side-pot label"): three players all in with
different stacks make a main pot and a side pot, and each line of the banner says which
pot it is, in English and in Russian."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.server.helpers import Server, server_room, serving
from tests.web.helpers import Player, all_in, checked, play_hand


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The test tables with 6 s between hands: the end of the hand stays on the table
    while three players' screens are read."""
    path = tmp_path_factory.mktemp("room")
    server = Server(path, (f"sqlite:///{path / 'room.db'}", None), action_time=30)
    server.config.write_text(server_room(30, pause=6.0))
    yield from serving(server)


def _dealt_in(players: list[Player]) -> list[Player]:
    return [p for p in players if len(p.my_cards("NL")) == 2]


def test_each_line_of_the_result_names_its_pot(browser: Browser, room: Server, tmp_path: Path) -> None:
    mia = Player(browser, room.http, "mia", "en-US")
    ned = Player(browser, room.http, "ned", "ru-RU")
    ola = Player(browser, room.http, "ola", "en-US")
    with checked(mia, ned, ola):
        for p, chips in ((mia, 40), (ned, 200), (ola, 200)):  # a main pot of ~120, a side pot of ~320
            p.register()
            p.sit("NL", chips)
        box = ola.table("NL").locator("input[data-option=wait_for_big_blind]")
        if box.is_checked():  # she posts at once instead of waiting for the big blind
            box.uncheck()
        everyone = [mia, ned, ola]
        for _ in range(4):  # hands that began before all sat end at their first action
            mia.page.wait_for_timeout(1000)
            dealt = _dealt_in(everyone)
            if len(dealt) == 3:
                break
            if len(dealt) >= 2:
                play_hand(dealt, "NL", lambda p, street, verbs: p.click_verb("NL", "fold"))
                mia.page.wait_for_timeout(6500)  # the pause before the next hand
        assert len(_dealt_in(everyone)) == 3, "no hand dealt the three of them"

        play_hand([mia, ned, ola], "NL", all_in("NL"))  # everyone moves all in
        labels = {"en": ("Main pot: ", "Side pot 1: "), "ru": ("Основной банк — ", "Побочный банк 1 — ")}
        for p, (main, side) in ((mia, labels["en"]), (ned, labels["ru"]), (ola, labels["en"])):
            lines = p.table("NL").locator(".result div")
            expect(lines.first).to_be_visible()
            texts = lines.all_inner_texts()
            assert len(texts) >= 2, texts
            assert texts[0].startswith(main), texts
            sides = [t for t in texts[1:] if t.startswith(side)]
            assert sides, texts
            # mia, all in for the least, has no part of the side pot: it is ned's or ola's,
            # and the labels follow the pots, not the order they were awarded in
            assert all(" mia " not in f" {t} " for t in sides), texts
            def won(line: str) -> int:
                found = re.search(r"(?:wins|выигрывает) ([\d\s,\u00a0\u202f]+)", line)
                assert found, line
                return int(re.sub(r"\D", "", found.group(1)))

            main_total = sum(won(t) for t in texts if t.startswith(main))  # a split pot: a line a winner
            side_total = sum(won(t) for t in sides)
            assert 100 <= main_total <= 120 and side_total >= 300, texts
        mia.shoot(tmp_path, "result-two-pots-en.png", publish=False)
        ned.shoot(tmp_path, "result-two-pots-ru.png", publish=False)
