"""The web client in a real browser: people register, sit at the same table and play
complete hands of hold'em and of stud to the showdown by clicking, each seeing only his
own hidden cards; the previous-hand window, hand histories, errors, reconnection and the
Russian interface. Screenshots of the lobby and both tables are saved with each test
(and to docs/screenshots with POKERROOM_SCREENSHOTS=1).
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, expect

from pokerroom.core.evaluator import best_five, describe, evaluate
from pokerroom.table.record import hand_value
from pokerroom.wire import jsonable
from tests.server.helpers import Server
from tests.web.helpers import Player, checked, play_hand

RUSSIAN_HANDS = re.compile(
    r"^(Старшая карта|Пара|Две пары|Тройка|Стрит|Флеш|Фулл-хаус|Каре|Стрит-флеш|Роял-флеш)"
)
ENGLISH_HANDS = re.compile(
    r"^(High card|One pair|Two pair|Three of a kind|Straight|Flush|Full house|Four of a kind"
    r"|Straight flush|Royal flush)"
)


def assert_only_own_cards(me: Player, other: Player, table: str) -> None:
    """``me`` sees his own hidden cards and none of ``other``'s (stud up cards excepted)."""
    mine = me.my_cards(table)
    theirs = other.my_cards(table)
    assert mine and theirs
    seen_by_me = me.seat_cards(table, other.name)
    assert len(seen_by_me) == len(theirs)
    shown = me.every_card_shown()
    for card, seen in zip(theirs, seen_by_me, strict=True):
        if seen is None:  # face down for me: the page must not hold it anywhere
            assert card not in shown, f"{me.name} can see {other.name}'s hidden {card}"
        else:  # a stud up card: the same card for everyone
            assert seen == card
    assert None in seen_by_me  # the other's hole cards are face down
    assert me.table(table).locator(".seat:not(.me) .hole .card.back").count() >= 2
    assert set(mine) <= shown


def test_holdem_hand_through_the_ui(browser: Browser, room: Server, tmp_path: Path) -> None:
    ann = Player(browser, room.http, "ann", "en-US")
    boris = Player(browser, room.http, "boris", "ru-RU")
    with checked(ann, boris):
        ann.register()
        boris.register()
        expect(boris.page.locator("#view-lobby h1")).to_have_text("Столы")

        # buy-in dialog: the table's minimum and maximum
        ann.page.click("#lobby-rows tr[data-table='NL'] button[data-action=play]")
        amount = ann.page.locator("#chips-amount")
        expect(amount).to_have_attribute("min", "40")
        expect(amount).to_have_attribute("max", "200")
        amount.fill("20")
        ann.page.click("#chips-ok")
        expect(ann.page.locator("#chips-error")).to_contain_text("40")
        amount.fill("150")
        ann.page.click("#chips-ok")
        ann.table("NL").locator(".seat.me .plate").wait_for()
        expect(ann.table("NL").locator(".seat.me .stack")).to_have_text("150")
        boris.sit("NL")

        for p in (ann, boris):
            expect(p.table("NL").locator(".seat.me .hole .card[data-card]")).to_have_count(2)
        assert_only_own_cards(ann, boris, "NL")
        assert_only_own_cards(boris, ann, "NL")

        seen = {"pre_cleared": False, "raised": False, "shot": False, "reconnected": False}

        def decide(p: Player, street: str, verbs: list[str]) -> None:
            other = boris if p is ann else ann
            labels = p.table("NL").locator(".turn-area button.act")
            if p is boris:
                expect(labels.first).to_contain_text(re.compile("Фолд|Чек|Колл|Рейз|Бет"))
            else:
                expect(labels.first).to_contain_text(re.compile("Fold|Check|Call|Raise|Bet"))
            if street == "flop" and p is ann and "bet" in verbs and not seen["raised"]:
                # boris ticks "check" in advance; ann's bet clears it
                box = boris.table("NL").locator(".pre input[data-pre=check]")
                box.check()
                expect(box).to_be_checked()
                ann.table("NL").locator(".sizing input.amount").fill("6")
                expect(ann.table("NL").locator("button.act[data-verb=bet]")).to_contain_text("Bet 6")
                ann.table("NL").locator(".sizing input.amount").press("Enter")
                # the bet changed: the box cleared instead of checking (boris must decide)
                expect(boris.table("NL").locator("button.act[data-verb=call]")).to_contain_text("Колл 6")
                expect(boris.table("NL").locator(".pre")).to_be_hidden()
                assert boris.page.evaluate("pokerroom.room.table('NL').pre") is None
                seen["raised"] = seen["pre_cleared"] = True
                return
            if street == "turn" and p is boris and "bet" in verbs:
                boris.table("NL").locator(".presets button[data-preset=half]").click()
                p.click_verb("NL", "bet")
                return
            if street == "turn" and p is ann and "call" in verbs and not seen["shot"]:
                expect(ann.table("NL").locator(".bets .bet:not([hidden])")).to_have_count(1)
                ann.page.wait_for_timeout(400)  # the turn card's deal animation
                ann.shoot(tmp_path, "holdem.png")
                seen["shot"] = True
            if street == "river" and p is ann and not seen["reconnected"]:
                # the connection drops; the client comes back by itself and plays on
                ann.page.evaluate("pokerroom.socket.dropForTest(1500)")
                expect(ann.page.locator("#conn-banner")).to_be_visible()
                expect(ann.page.locator("#conn-banner")).to_be_hidden(timeout=10_000)
                expect(ann.table("NL").locator(".turn-area button.act").first).to_be_visible()
                assert_only_own_cards(ann, other, "NL")
                seen["reconnected"] = True
                ann.page.keyboard.press("c")  # check or call by key
                return
            p.click_verb("NL", "check" if "check" in verbs else "call")

        play_hand([ann, boris], "NL", decide)
        assert all(seen.values()), seen

        # the end of the hand on the table: the winner, his five cards lit
        for p in (ann, boris):
            result = p.table("NL").locator(".result")
            expect(result).to_be_visible()
            expect(p.table("NL").locator(".stage .card.best")).not_to_have_count(0)
            winners = result.locator("div").count()
            best = p.table("NL").locator(".stage .card.best").count()
            assert best == 5 if winners == 1 else best >= 5, (winners, best)
        expect(ann.table("NL").locator(".result")).to_contain_text(" wins ")
        expect(boris.table("NL").locator(".result")).to_contain_text("выигрывает")
        boris.shoot(tmp_path, "holdem-showdown-ru.png", publish=False)

        # show previous hand: both hands at the showdown, named, with the deal proof
        ann.page.keyboard.press("h")
        prev = ann.page.locator("#dlg-hands .prev-players")
        expect(prev.locator("tbody tr")).to_have_count(2)
        for row in prev.locator("tbody tr").all():
            expect(row.locator(".card[data-card]")).to_have_count(2)
            assert ENGLISH_HANDS.match(row.locator(".hand-name").inner_text())
        expect(ann.page.locator("#dlg-hands .prev-board .card[data-card]")).to_have_count(5)
        expect(ann.page.locator("#dlg-hands .verdict")).to_have_attribute("data-verified", "true")
        expect(ann.page.locator("#dlg-hands .fair .hash")).to_have_text(re.compile("^[0-9a-f]{64}$"))
        ann.shoot(tmp_path, "previous-hand.png", publish=False)
        boris.table("NL").locator(".head-buttons button").first.click()
        expect(boris.page.locator("#dlg-hands-title")).to_have_text("Раздачи")
        for row in boris.page.locator("#dlg-hands .prev-players tbody tr").all():
            expect(row.locator(".card[data-card]")).to_have_count(2)
            assert RUSSIAN_HANDS.match(row.locator(".hand-name").inner_text())
        boris.page.click("#hands-close")

        # the hand history list and its downloads
        ann.page.click("#hands-tab-mine")
        rows = ann.page.locator("#dlg-hands .hands-list tbody tr")
        expect(rows.first).to_be_visible()
        phh = rows.first.locator("a[data-format=phh]").get_attribute("href")
        txt = rows.first.locator("a[data-format=txt]").get_attribute("href")
        assert phh and txt
        phh_text = ann.page.request.get(room.http + phh).text()
        assert 'variant = "NT"' in phh_text and "ann" in phh_text
        assert "PokerStars Hand #" in ann.page.request.get(room.http + txt).text()
        ann.page.click("#hands-close")

        # chat between the players
        ann.table("NL").locator(".chat-input").fill("good game")
        ann.table("NL").locator(".chat-input").press("Enter")
        expect(boris.table("NL").locator(".feed li.chat").last).to_have_text("ann: good game")

        # the four-colour deck: diamonds turn blue, clubs green
        ann.page.click("#btn-settings")
        ann.page.check("#set-four-color")
        ann.page.click("#dlg-settings button[type=submit]")
        colours = ann.page.evaluate(
            "['--diamonds', '--clubs'].map(v => getComputedStyle(document.body).getPropertyValue(v).trim())"
        )
        assert colours == ["#1559c6", "#168038"], colours

        # refusals come back in the player's language
        ann.page.evaluate("pokerroom.socket.send({type: 'top_up', table: 'NL', amount: 1000000})")
        expect(ann.page.locator(".toast.error").last).to_contain_text(re.compile("maximum|between hands"))
        boris.page.evaluate("pokerroom.socket.send({type: 'sit', table: 'NL', seat: 1, buy_in: 100})")
        expect(boris.page.locator(".toast.error").last).to_have_text(re.compile("уже сидите|занято"))

        # the language switch: every word changes
        boris.page.click(".lang button[data-lang=en]")
        expect(boris.page.locator("#btn-logout")).to_have_text("Log out")
        expect(boris.table("NL").locator(".head-buttons button").first).to_have_text("Previous hand")
        expect(boris.table("NL").locator(".seat.me .plate")).to_be_visible()  # the seats are drawn again
        empty = boris.table("NL").locator(".seat.empty .empty-label").first
        expect(empty).to_have_text(re.compile(r"^Seat \d$"))
        boris.page.click(".lang button[data-lang=ru]")
        expect(boris.page.locator("#btn-logout")).to_have_text("Выйти")

        # the lobby now: two players, an average pot
        ann.page.click("#table-tabs a[href='#/lobby']")
        row = ann.page.locator("#lobby-rows tr[data-table='NL']")
        expect(row).to_contain_text("2/6")
        expect(row.locator(".players")).to_contain_text("boris")
        ann.page.evaluate("document.querySelectorAll('.toast').forEach(t => t.remove())")
        ann.page.wait_for_timeout(300)
        ann.shoot(tmp_path, "lobby.png")



def test_stud_hand_through_the_ui(browser: Browser, room: Server, tmp_path: Path) -> None:
    carol = Player(browser, room.http, "carol", "en-GB")
    dmitry = Player(browser, room.http, "dmitry", "ru-RU")
    with checked(carol, dmitry):
        carol.register()
        dmitry.register()
        carol.sit("Stud", 500)
        dmitry.sit("Stud")
        for p in (carol, dmitry):
            expect(p.table("Stud").locator(".seat.me .hole .card[data-card]")).to_have_count(3)
            expect(p.table("Stud").locator(".seat.me .hole .card.down")).to_have_count(2)
        assert_only_own_cards(carol, dmitry, "Stud")
        assert_only_own_cards(dmitry, carol, "Stud")

        seen = dict.fromkeys(("bring_in", "complete", "shot", "checked_cards", "reloaded"), False)

        def decide(p: Player, street: str, verbs: list[str]) -> None:
            if "bring_in" in verbs:
                label = p.table("Stud").locator("button.act[data-verb=bring_in]")
                expect(label).to_contain_text("Бринг-ин 3" if p is dmitry else "Bring in 3")
                p.click_verb("Stud", "bring_in")
                seen["bring_in"] = True
                return
            if street == "third street" and "complete" in verbs and not seen["complete"]:
                p.click_verb("Stud", "complete")
                seen["complete"] = True
                return
            if street == "fourth street" and p is dmitry and not seen["reloaded"]:
                # a reload in the middle of a hand: the table, his cards and his turn come back
                cards = dmitry.my_cards("Stud")
                dmitry.page.reload()
                mine = dmitry.table("Stud").locator(".seat.me .hole .card[data-card]")
                expect(mine).to_have_count(len(cards))
                assert dmitry.my_cards("Stud") == cards
                expect(dmitry.table("Stud").locator(".turn-area button.act").first).to_be_visible()
                seen["reloaded"] = True
                return
            if street == "fifth street" and not seen["checked_cards"]:
                other = dmitry if p is carol else carol
                assert_only_own_cards(p, other, "Stud")
                assert_only_own_cards(other, p, "Stud")
                seen["checked_cards"] = True
            if street == "sixth street" and p is dmitry and "bet" in verbs:
                expect(p.table("Stud").locator("button.act[data-verb=bet]")).to_contain_text("Бет 20")
                p.click_verb("Stud", "bet")
                return
            if street == "sixth street" and p is carol and "call" in verbs and not seen["shot"]:
                carol.page.wait_for_timeout(400)
                carol.shoot(tmp_path, "stud.png")
                seen["shot"] = True
            p.click_verb("Stud", "check" if "check" in verbs else "call")

        play_hand([carol, dmitry], "Stud", decide)
        assert all(seen.values()), seen

        for p in (carol, dmitry):
            expect(p.table("Stud").locator(".result")).to_be_visible()
            # at the showdown both hands are turned: seven cards each, none face down
            for name in (carol.name, dmitry.name):
                cards = p.seat_cards("Stud", name)
                assert len(cards) == 7 and None not in cards, (name, cards)

        carol.shoot(tmp_path, "stud-showdown.png", publish=False)
        dmitry.page.keyboard.press("h")
        rows = dmitry.page.locator("#dlg-hands .prev-players tbody tr")
        expect(rows).to_have_count(2)
        for row in rows.all():
            expect(row.locator(".card[data-card]")).to_have_count(7)
            assert RUSSIAN_HANDS.match(row.locator(".hand-name").inner_text())
        expect(dmitry.page.locator("#dlg-hands .prev-street h5").first).to_have_text("Третья улица")
        expect(dmitry.page.locator("#dlg-hands .verdict")).to_have_attribute("data-verified", "true")
        dmitry.page.locator("#dlg-hands .fair").scroll_into_view_if_needed()
        dmitry.shoot(tmp_path, "stud-previous-hand-ru.png", publish=False)



def test_accounts_and_errors(browser: Browser, room: Server) -> None:
    eve = Player(browser, room.http, "eve", "ru-RU")
    other = Player(browser, room.http, "eve", "en-US")
    with checked(eve, other):
        eve.register()
        # the same name again: refused, in the page's language (the 409 is expected)
        other.allowed.append(re.compile("status of 409"))
        other.page.goto(room.http + "/")
        expect(other.page.locator("#view-auth h1")).to_have_text("Welcome to the poker room")
        other.page.click("#tab-register")
        other.page.fill("#auth-name", "eve")
        other.page.fill("#auth-password", "another password")
        other.page.click("#auth-submit")
        expect(other.page.locator("#auth-error")).to_have_text("That name is taken.")
        other.page.click(".lang button[data-lang=ru]")
        expect(other.page.locator("#view-auth h1")).to_have_text("Добро пожаловать в покер-рум")
        other.page.click("#auth-submit")
        expect(other.page.locator("#auth-error")).to_have_text("Это имя уже занято.")

        # hands' values as the server sends them (category and ranks, protocol 3), named by
        # the client in English exactly as the server's describe() says them, and in Russian
        hands = {
            "Ah Kd 9c 7s 4d 3h 2c": "Старшая карта: туз",
            "Kh Kd 9c 7s 4d 3h 2c": "Пара королей",
            "Ah Ad Kc Ks 4d 3h 2c": "Две пары: тузы и короли",
            "2h 2d 2c 7s 4d Jh Qc": "Тройка двоек",
            "9h 8d 7c 6s 5d 2h 2c": "Стрит до девятки",
            "5d 4h 3c 2s Ad Kh Kc": "Стрит до пятёрки",
            "Ah 9h 7h 4h 3h 2c 2d": "Флеш, старшая карта — туз",
            "Kh Kd Kc 7s 7d 3h 2c": "Фулл-хаус: короли на семёрках",
            "Th Td Tc Ts 4d 3h 2c": "Каре десяток",
            "Qh Jh Th 9h 8h 3h 2c": "Стрит-флеш до дамы",
            "Ah Kh Qh Jh Th 3h 2c": "Роял-флеш",
        }
        values, english = [], []
        for cards in hands:
            value = evaluate(cards)
            values.append(jsonable(hand_value(value, best_five(cards))))
            english.append(describe(value))
        named = eve.page.evaluate(
            """values => import('/js/i18n.js').then(m => {
                const ru = values.map((v) => m.handName(v));
                m.setLanguage('en');
                const en = values.map((v) => m.handName(v));
                m.setLanguage('ru');
                return [en, ru];
            })""",
            values,
        )
        assert named == [english, list(hands.values())]

        # log out and in again
        eve.page.click("#btn-logout")
        expect(eve.page.locator("#view-auth")).to_be_visible()
        eve.page.fill("#auth-name", "eve")
        eve.page.fill("#auth-password", "correct horse battery")
        eve.page.click("#auth-submit")
        expect(eve.page.locator("#who-name")).to_have_text("eve")
        expect(eve.page.locator("#who-balance")).to_have_text("10 000")

        # a guest may watch a table
        other.page.click("#auth-guest")
        other.page.click("#lobby-rows tr[data-table='FL'] button[data-action=watch]")
        expect(other.table("FL").locator(".observer-note")).to_have_text("Войдите, чтобы сесть за стол.")
