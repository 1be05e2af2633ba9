"""The rules of issue 15 in the browser: showing cards after an uncalled win or a fold
(D12), the straddle checkbox and a posted straddle (D10), a player all in by all-in
protection and the protections he has left (D7), what a returning player owes (D11) and
the buy-in dialog's higher minimum after leaving with more (D13), through a real room
server and Debian's chromium. Screenshots of each are kept in the test's tmp dir.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.rooms import NO_BANK, SIX, room, table
from tests.server.helpers import Server, serving
from tests.web.helpers import CHROMIUM, Player, checked, play_hand

# the test room's tables and one that allows straddles, with a short clock so a player
# who does not act is all-in protected within seconds
STRADDLE_TABLE = room(table("Straddle", **SIX, straddles=True, action_time=6, **NO_BANK))


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The browser tests' room (a 30 s clock, 2 s between hands) plus the straddle table."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"the browser tests need Debian's chromium at {CHROMIUM} (make test installs it)")
    path = tmp_path_factory.mktemp("rules-room")
    server = Server(path, (f"sqlite:///{path / 'room.db'}", None), action_time=30)
    text = server.config.read_text().replace("pause = 0.05", "pause = 2.0")
    server.config.write_text(text + STRADDLE_TABLE)
    yield from serving(server)


STRADDLE_BOX = "input[data-option=straddle]"

# the seat that posted a straddle in the hand being played (preflop); else folds (or checks) if it is
# this page's turn: one look and one click in the same task, so a new hand, the straddled one, cannot
# come between the look and the click and be folded
FOLD_UNLESS_STRADDLED = """() => {
    const ts = pokerroom.room.table('Straddle');
    const v = ts?.view;
    if (!v) return [null, false];
    if (v.phase === 'playing' && ts.marks.number !== v.hand_number) return [null, false]; // events to come
    const straddled = v.phase === 'playing' && v.street === 'preflop' && ts.marks.straddle !== null;
    if (straddled) return [ts.marks.straddle, false];
    const bar = '.table-screen[data-table="Straddle"] .turn-area:not([hidden]) button.act:not(:disabled)';
    const buttons = [...document.querySelectorAll(bar)];
    const verb = (name) => buttons.find(b => b.dataset.verb === name);
    const button = verb('fold') ?? verb('check');
    if (!button) return [null, false];
    button.click();
    return [null, true];
}"""


def whose_turn(players: list[Player], table: str, timeout: float = 10.0) -> Player:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for p in players:
            if p.verbs(table):
                return p
        players[0].page.wait_for_timeout(100)
    raise AssertionError(f"nobody's turn at {table}")


def watch(p: Player, table: str) -> None:
    p.page.click(f"#lobby-rows tr[data-table='{table}'] button[data-action=watch]")
    p.table(table).locator(".stage[data-hand]").wait_for()


def feed(p: Player, table: str) -> list[str]:
    return p.table(table).locator(".feed li").all_inner_texts()


def seat_of(p: Player, table: str, name: str) -> int:
    return int(
        p.table(table)
        .locator(".seat", has=p.page.locator(f".name:text-is('{name}')"))
        .get_attribute("data-seat")
    )


def shown_to(viewers: tuple[Player, ...], name: str, cards: list[str]) -> None:
    """Each of ``viewers`` sees both of ``name``'s cards at the NL table, and they are ``cards``."""
    for p in viewers:
        expect(
            p.table("NL")
            .locator(".seat", has=p.page.locator(f".name:text-is('{name}')"))
            .locator(".hole .card[data-card]")
        ).to_have_count(2)
        assert p.seat_cards("NL", name) == cards


def test_D12_show_cards_after_an_uncalled_win_and_a_fold(
    browser: Browser, room: Server, tmp_path: Path
) -> None:
    ann = Player(browser, room.http, "ann", "en-US")
    boris = Player(browser, room.http, "boris", "ru-RU")
    carol = Player(browser, room.http, "carol", "en-GB")  # watches
    with checked(ann, boris, carol):
        for p in (ann, boris, carol):
            p.register()
        watch(carol, "NL")
        ann.sit("NL", 100)
        boris.sit("NL", 100)
        # no straddles at this table: no box; the protections a player has left
        expect(ann.table("NL").locator(".options input[data-option]").first).to_be_attached()
        expect(ann.table("NL").locator("input[data-option=straddle]")).to_have_count(0)
        expect(ann.table("NL").locator(".seat-notes .protections")).to_have_text(
            "All-in protection: 2 of 2 left"
        )
        expect(boris.table("NL").locator(".seat-notes .protections")).to_have_text(
            "Защита олл-ин: осталось 2 из 2"
        )
        for p in (ann, boris):
            expect(p.table("NL").locator(".seat.me .hole .card[data-card]")).to_have_count(2)
        hand = ann.stage("NL")["hand"]
        # boris sits out after this hand, so no next hand is dealt: the time to show is his
        boris.table("NL").locator("input[data-option=sit_out_next_hand]").check()
        cards = ann.my_cards("NL")
        theirs = boris.my_cards("NL")

        def decide(p: Player, street: str, verbs: list[str]) -> None:
            if p is boris:  # folds to ann, whatever she does
                p.click_verb("NL", "fold" if "fold" in verbs else "check")
            else:
                p.click_verb("NL", next(v for v in ("raise", "bet", "check", "call") if v in verbs))

        play_hand([ann, boris], "NL", decide)
        assert ann.stage("NL")["hand"] == hand
        expect(carol.table("NL").locator(".result")).to_contain_text("ann wins")

        # the winner nobody called: "Show cards" and one button per card, drawn
        reveal = ann.table("NL").locator(".reveal")
        expect(reveal.locator("button[data-show=all]")).to_have_text("Show cards")
        for k, card in enumerate(cards):
            button = reveal.locator(f"button[data-show='{k}']")
            expect(button).to_have_attribute("data-code", card)
            expect(button).to_contain_text("Show")
        # her own cards stay visible to her at the end, marked as seen by her only
        expect(ann.table("NL").locator(".seat.me .hole .card.down[data-card]")).to_have_count(2)
        assert carol.seat_cards("NL", "ann") == [None, None]
        ann.page.wait_for_timeout(300)
        ann.shoot(tmp_path, "reveal-buttons.png", publish=False)

        # one card first: the watcher sees it face up at her seat and in the log
        reveal.locator("button[data-show='0']").click()
        expect(
            carol.table("NL")
            .locator(".seat", has=carol.page.locator(".name:text-is('ann')"))
            .locator(f".hole .card[data-card='{cards[0]}']")
        ).to_have_count(1)
        assert carol.seat_cards("NL", "ann") == [cards[0], None]
        shows = carol.table("NL").locator(".feed li", has_text=re.compile(r"^ann shows "))
        expect(shows).to_have_count(1)
        expect(shows.locator(".ct")).to_have_count(1)
        # then the other: the buttons go, both cards are up for everyone
        expect(reveal.locator("button[data-show=all]")).to_have_count(0)
        reveal.locator("button[data-show='1']").click()
        expect(reveal).to_be_hidden()
        shown_to((carol, boris), "ann", cards)
        shows = boris.table("NL").locator(".feed li", has_text=re.compile(r"^ann показывает "))
        expect(shows).to_have_count(2)

        # the player who folded may show too, in his language
        mine = boris.table("NL").locator(".reveal button[data-show=all]")
        expect(mine).to_have_text("Показать карты")
        mine.click()
        shown_to((ann, carol), "boris", theirs)
        carol.shoot(tmp_path, "revealed-observer.png", publish=False)

        # the previous hand shows them, marked as shown after the hand
        carol.page.keyboard.press("h")
        rows = carol.page.locator("#dlg-hands .prev-players tbody tr")
        expect(rows).to_have_count(2)
        for row, shown in ((rows.filter(has_text="ann"), cards), (rows.filter(has_text="boris"), theirs)):
            expect(row.locator(".card[data-card]")).to_have_count(2)
            assert (
                row.locator(".card[data-card]").evaluate_all("els => els.map(e => e.dataset.card)") == shown
            )
            expect(row.locator(".revealed")).to_have_text("shown after the hand")
        carol.page.click("#hands-close")
        # and ann's text history says so, as PokerStars writes it
        hands = ann.page.request.get(room.http + "/api/hands").json()["hands"]
        row = next(x for x in hands if x["table_name"] == "NL" and str(x["number"]) == hand)
        text = ann.page.request.get(f"{room.http}/api/hands/{row['id']}.txt").text()
        assert f"ann: shows [{cards[0]} {cards[1]}]" in text, text
        assert f"boris: shows [{theirs[0]} {theirs[1]}]" in text, text



def test_D10_straddle_box_and_post_D7_protected_player_D11_owes(
    browser: Browser, room: Server, tmp_path: Path
) -> None:
    dave = Player(browser, room.http, "dave", "en-US")
    erin = Player(browser, room.http, "erin", "en-US")
    fyodor = Player(browser, room.http, "fyodor", "ru-RU")
    players = [dave, erin, fyodor]
    with checked(*players):
        for p in players:
            p.register()
        for p in (dave, erin):
            p.sit("Straddle", 200)
            box = p.table("Straddle").locator("input[data-option=straddle]")
            expect(p.table("Straddle").locator("label", has=p.page.locator(STRADDLE_BOX))).to_have_text(
                "Straddle 4"
            )
            box.check()
        expect(dave.table("Straddle").locator(".seat.me .hole .card[data-card]")).to_have_count(2)
        # a newcomer during a hand owes a big blind: the seeds' rule, one big blind live (D11)
        fyodor.sit("Straddle", 200)
        expect(fyodor.table("Straddle").locator(".seat-notes .owes")).to_have_text(
            "Чтобы играть до своего большого блайнда, вы ставите один большой блайнд (2), живой."
        )
        box = fyodor.table("Straddle").locator("input[data-option=straddle]")
        expect(fyodor.table("Straddle").locator("label", has=fyodor.page.locator(STRADDLE_BOX))).to_have_text(
            "Стрэддл 4"
        )
        box.check()
        for p in players:  # the setting stays (the server's view says so after each change)
            p.page.wait_for_timeout(200)
            expect(p.table("Straddle").locator("input[data-option=straddle]")).to_be_checked()
        # the standard setting's words, from the same function
        standard = dave.page.evaluate("""() => import('/js/seatpanel.js').then(m => {
            const owes = (rule, what) => m.SeatPanel.prototype.owesText(
                {missed_blinds: rule}, {owes: what}, {bb: 2, sb: 1});
            return [owes('standard', 'big_and_small_blind'), owes('standard', 'big_blind'),
                    owes('seeds', 'big_blind')];
        })""")
        assert standard == [
            "To be dealt in before your big blind you post the big blind (2) live"
            " and the small blind (1) dead.",
            "To be dealt in before your big blind you post the big blind (2), live.",
            "To be dealt in before your big blind you post one big blind (2), live.",
        ]

        # fold every hand quickly until three are dealt and the player after the big blind straddles
        deadline = time.monotonic() + 120
        seat = None
        while seat is None:
            assert time.monotonic() < deadline, feed(dave, "Straddle")[-20:]
            for p in players:
                seat, folded = p.page.evaluate(FOLD_UNLESS_STRADDLED)
                if seat is not None:
                    break
                if folded:
                    p.page.wait_for_timeout(150)
            dave.page.wait_for_timeout(100)
        straddler = next(p for p in players if seat_of(dave, "Straddle", p.name) == seat)
        others = [p for p in players if p is not straddler]
        line = "ставит стрэддл 4" if straddler is fyodor else "posts straddle 4"
        expect(
            straddler.table("Straddle").locator(".feed li").filter(has_text=straddler.name).last
        ).to_have_text(f"{straddler.name} {line}")
        for p in players:  # the straddle is the seat's bet, marked
            bet = p.table("Straddle").locator(f".bet[data-seat='{seat}']")
            expect(bet).to_be_visible()
            expect(bet.locator(".amount")).to_have_text("4")
            expect(p.table("Straddle").locator(f".seat[data-seat='{seat}'] .pos")).to_have_text(
                "СТР" if p is fyodor else "STR"
            )
        expect(fyodor.table("Straddle").locator(".feed li", has_text="ставит стрэддл 4")).not_to_have_count(0)

        # the first to act is after the straddler: the minimum raise is to twice the straddle
        first = whose_turn(others, "Straddle")
        raise_button = first.table("Straddle").locator("button.act[data-verb=raise]")
        expect(raise_button).to_contain_text("Рейз до 8" if first is fyodor else "Raise to 8")
        first.shoot(tmp_path, "straddle-first-to-act.png", publish=False)
        raise_button.click()
        # the next one does nothing: his clock runs out with chips in the pot -> all-in protected
        sleeper = next(p for p in others if p is not first)
        sleeper_seat = seat_of(dave, "Straddle", sleeper.name)
        # (its turn comes after the raise went round: 15 s, as below, for a loaded machine)
        expect(sleeper.table("Straddle").locator(".turn-area button.act").first).to_be_visible(timeout=15_000)
        tag = straddler.table("Straddle").locator(f".seat[data-seat='{sleeper_seat}'] .tag")
        expect(tag).to_have_text(
            "Олл-ин (защита)" if straddler is fyodor else "All-in (protected)", timeout=15_000
        )
        # the straddler, who acts last, calls at once (his clock runs too); the hand goes on
        # with the protected player in, and everyone sees him so
        expect(straddler.table("Straddle").locator("button.act[data-verb=call]")).to_be_visible()
        straddler.click_verb("Straddle", "call")
        for p in players:
            tag = p.table("Straddle").locator(f".seat[data-seat='{sleeper_seat}'] .tag")
            expect(tag).to_have_text("Олл-ин (защита)" if p is fyodor else "All-in (protected)")
        protected_line = "олл-ин (защита)" if sleeper is fyodor else "is all-in (protected)"
        expect(sleeper.table("Straddle").locator(".feed li", has_text=protected_line)).not_to_have_count(0)
        left = sleeper.table("Straddle").locator(".seat-notes .protections")
        expect(left).to_have_attribute("data-left", "1")
        expect(left).to_contain_text("осталось 1 из 2" if sleeper is fyodor else "1 of 2 left")
        expect(sleeper.page.locator(".toast").last).to_contain_text(
            "защита" if sleeper is fyodor else "all-in (protected)"
        )
        for p in (first, straddler):
            expect(p.table("Straddle").locator(".seat-notes .protections")).to_have_attribute(
                "data-left", "2"
            )
        straddler.page.wait_for_timeout(300)
        straddler.shoot(tmp_path, "protected-seat.png", publish=False)
        sleeper.shoot(tmp_path, "protected-self.png", publish=False)

        # the two others check it down
        def decide(p: Player, street: str, verbs: list[str]) -> None:
            p.click_verb("Straddle", next(v for v in ("check", "call") if v in verbs))

        play_hand([first, straddler], "Straddle", decide)


def test_D13_buy_in_dialog_after_leaving_with_more(browser: Browser, room: Server, tmp_path: Path) -> None:
    gleb = Player(browser, room.http, "gleb", "en-US")
    with checked(gleb):
        gleb.register()
        gleb.sit("FL", 300)
        expect(gleb.table("FL").locator(".seat.me .stack")).to_have_text("300")
        gleb.table("FL").locator("button[data-control=leave]").click()
        expect(gleb.table("FL").locator(".seat.me")).to_have_count(0)
        expect(gleb.table("FL").locator(".observer-note")).to_be_visible()

        info = gleb.page.request.get(room.http + "/api/tables/FL/buy-in").json()
        assert info["min"] == 300 and info["rathole"]["stack"] == 300, info
        until = datetime.fromtimestamp(info["rathole"]["until"]).strftime("%H:%M")

        def open_dialog() -> None:
            gleb.page.click("#table-tabs a[href='#/lobby']")
            gleb.page.click("#lobby-rows tr[data-table='FL'] button[data-action=play]")
            gleb.page.wait_for_selector("#dlg-chips[open]")

        open_dialog()
        amount = gleb.page.locator("#chips-amount")
        expect(amount).to_have_attribute("min", "300")
        expect(amount).to_have_attribute("max", "400")
        expect(gleb.page.locator("#chips-note")).to_have_text(
            "You left this table less than a minute ago with 300 chips:"
            f" sit down with at least 300 until {until}."
        )
        expect(gleb.page.locator("#chips-range")).to_contain_text("From 300 to 400")
        gleb.shoot(tmp_path, "rathole-dialog.png", publish=False)
        amount.fill("200")
        gleb.page.click("#chips-ok")
        expect(gleb.page.locator("#chips-error")).to_contain_text("300")
        gleb.page.click("#chips-cancel")

        # the server refuses it too, and says why in Russian
        gleb.page.click(".lang button[data-lang=ru]")
        gleb.page.evaluate("pokerroom.socket.send({type: 'sit', table: 'FL', seat: 2, buy_in: 200})")
        expect(gleb.page.locator(".toast.error[data-code=rathole]")).to_contain_text("недавно ушли")
        open_dialog()
        expect(gleb.page.locator("#chips-note")).to_have_text(
            f"Вы ушли из-за этого стола меньше минуты назад со стеком 300: до {until} сесть можно только"
            " со стеком не меньше 300."
        )
        gleb.shoot(tmp_path, "rathole-dialog-ru.png", publish=False)
        amount.fill("300")
        gleb.page.click("#chips-ok")
        expect(gleb.table("FL").locator(".seat.me .stack")).to_have_text("300")


def test_every_word_in_both_languages(browser: Browser, room: Server) -> None:
    """The new words (and all others) exist in English and in Russian."""
    p = Player(browser, room.http, "hana", "en-US")
    with checked(p):
        p.page.goto(room.http + "/")
        missing = p.page.evaluate("""() => Promise.all([import('/js/i18n/en.js'), import('/js/i18n/ru.js')])
            .then(([en, ru]) => {
                const plural = (k) => /\\.(one|few|many|other)$/.test(k);
                const a = Object.keys(en.default).filter((k) => !plural(k));
                const b = Object.keys(ru.default).filter((k) => !plural(k));
                return [a.filter((k) => !b.includes(k)), b.filter((k) => !a.includes(k))];
            })""")
        assert missing == [[], []], missing
        forms = p.page.evaluate("""() => import('/js/i18n.js').then((m) => {
            m.setLanguage('ru');
            const ru = [1, 2, 5, 21, 22, 25].map((n) => m.plural('ago.minutes', n));
            m.setLanguage('en');
            return [ru, [1, 2].map((n) => m.plural('ago.minutes', n))];
        })""")
        assert forms == [
            [
                "1 минуту назад",
                "2 минуты назад",
                "5 минут назад",
                "21 минуту назад",
                "22 минуты назад",
                "25 минут назад",
            ],
            ["1 minute ago", "2 minutes ago"],
        ]
