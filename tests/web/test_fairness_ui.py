"""The browser's check of a deal (issue 16 item 10) in a real chromium: fair.js refuses each
attack (a river from position 30 instead of 11, no openings, a commitment made up after the
hand, a stud reshuffle nobody committed to) and passes honest hands, as the Python verifier
does; and the previous-hand window checks a history against the commitment this browser
saw announced at the deal, not the one the history carries."""

from __future__ import annotations

import json
from pathlib import Path

from playwright.sync_api import Browser, Route, expect

from pokerroom.fairness import commit, root
from tests.server.helpers import Server
from tests.server.helpers.fairness import ATTACKS, HOLDEM, STUD, play, served, stored
from tests.web.helpers import Player, checked, play_hand

CHECK = """([history, announced]) => import('/js/fair.js').then(m => m.verifyHand(history, announced))"""
# Room.dealtAsPromised on a table that sent a seed for hand 7 naming ``commitment``: what it
# marks for an honest deal (its DeckCommitted, its DeckSeeded with the seed), then for
# another deck, then for the seed left out
PROMISES = """([commitment, seeds]) => import('/js/store.js').then(({ Room }) => {
  const marks = [];
  const room = { announce: (table, number, fields) => marks.push(fields.broken) };
  const check = (promise, e) => {
    const ts = { name: "T", promised: promise };
    const before = marks.length;
    Room.prototype.dealtAsPromised.call(room, ts, { number: 7, ...e });
    return marks.length > before ? marks[marks.length - 1] : null;
  };
  const mine = seeds.length ? seeds[0][1] : "none";
  return [
    check({ number: 7, commitment, seed: mine }, { type: "DeckCommitted", commitment }),
    check({ number: 7, commitment, seed: mine }, { type: "DeckSeeded", seeds }),
    check({ number: 7, commitment, seed: mine }, { type: "DeckCommitted", commitment: "0".repeat(64) }),
    check({ number: 7, commitment, seed: "not-sent-in" }, { type: "DeckSeeded", seeds }),
  ];
})"""


def test_fair_js_refuses_each_attack_and_passes_honest_hands(room: Server, browser: Browser) -> None:
    p = Player(browser, room.http, "Fairy", "en-US")
    with checked(p):
        p.page.goto(room.http + "/")
        for name, (history, seen) in ATTACKS.items():
            announced = {"commitment": seen["announced"]} if "announced" in seen else None
            verdict = p.page.evaluate(CHECK, [history, announced])
            assert verdict["ok"] is False and verdict["reason"], (name, verdict)
        table, deal = play(HOLDEM, 3, {2: "a-seed-of-two"})
        seen = {"commitment": deal.commitment, "seeds": [list(x) for x in sorted(deal.seeds.items())]}
        verdict = p.page.evaluate(CHECK, [served(stored(table, deal), deal, 2), seen])
        assert verdict["ok"] is True and verdict["proven"] == 2 + 5 + 4, verdict
        table, deal = play(STUD, 8, {5: "a-seed-of-five"})
        history = served(stored(table, deal), deal, 5)
        verdict = p.page.evaluate(CHECK, [history, {"commitment": deal.commitment}])
        assert verdict["ok"] is True and verdict["proven"] == 49, verdict
        # the same permutation as Python's
        assert p.page.evaluate("import('/js/fair.js').then(m => m.permutation('key', 5))") == [2, 3, 1, 4, 0]
        # a deal other than the one this browser's seed was sent for, or without its seed
        # (seen live: store.js), fails the honest-looking history
        broken = p.page.evaluate(PROMISES, [deal.commitment, [list(x) for x in sorted(deal.seeds.items())]])
        assert broken[:2] == [None, None], broken  # the honest deal
        assert broken[2].startswith("the deck dealt is not the one announced"), broken
        assert broken[3].startswith("the seed this browser sent"), broken
        seen = {"commitment": deal.commitment, "broken": "a broken promise"}
        verdict = p.page.evaluate(CHECK, [history, seen])
        assert verdict["ok"] is False and verdict["reason"] == "a broken promise", verdict


def made_up(body: bytes) -> bytes:
    """The history a server would serve after making up a deck to fit the hand: the same
    cards, fresh salts, committed in order (the old scheme)."""
    history = json.loads(body)
    cards = {o["position"]: o["card"] for o in history["openings"]}
    deck = [cards.get(i, f"{'23456789TJQKA'[i % 13]}{'cdhs'[i // 13]}") for i in range(52)]
    fresh = commit(deck)
    history.pop("deal", None)
    history["leaves"] = list(fresh.leaves)
    history["commitment"] = root(fresh.leaves)
    history["openings"] = [dict(o, salt=fresh.salts[o["position"]]) for o in history["openings"]]
    return json.dumps(history).encode()


def test_the_previous_hand_is_checked_against_the_commitment_announced(
    room: Server, browser: Browser, tmp_path: Path
) -> None:
    ann, boris = Player(browser, room.http, "Fann", "en-US"), Player(browser, room.http, "Fboris", "ru-RU")
    with checked(ann, boris):
        for p in (ann, boris):
            p.register()
            p.sit("FL")
        play_hand([ann, boris], "FL", lambda p, street, verbs: p.click_verb(
            "FL", "check" if "check" in verbs else "call"))
        for p, shot in ((ann, "fair-previous-hand.png"), (boris, "fair-previous-hand-ru.png")):
            p.page.keyboard.press("h")
            expect(p.page.locator("#dlg-hands .verdict")).to_have_attribute("data-verified", "true")
            expect(p.page.locator("#dlg-hands .fair .seeds")).to_be_visible()
            p.page.locator("#dlg-hands .fair").scroll_into_view_if_needed()
            p.shoot(tmp_path, shot)
            p.page.set_viewport_size({"width": 390, "height": 844})
            p.page.locator("#dlg-hands .fair").scroll_into_view_if_needed()
            p.shoot(tmp_path, shot.replace(".png", "-phone.png"))
            p.page.set_viewport_size({"width": 1280, "height": 800})
            p.page.keyboard.press("Escape")

        # the server now serves a history with a deck made up after the hand: on its own it
        # is consistent (old scheme), but it is not what this browser saw announced
        def forge(route: Route) -> None:
            response = route.fetch()
            route.fulfill(response=response, body=made_up(response.body()))

        ann.page.route("**/api/hands/*", forge)
        ann.page.keyboard.press("h")
        verdict = ann.page.locator("#dlg-hands .verdict")
        expect(verdict).to_have_attribute("data-verified", "false")
        expect(verdict).to_contain_text("not the one announced at the deal")
        ann.page.locator("#dlg-hands .fair").scroll_into_view_if_needed()
        ann.shoot(tmp_path, "fair-made-up-commitment.png")


def test_sha256_by_webcrypto_and_by_the_fallback_agree(room: Server, browser: Browser) -> None:
    """The page (a secure context: the test room is on 127.0.0.1) hashes with WebCrypto;
    where crypto.subtle is missing (plain http on another host) sha256.js does it, and the
    two give Python's digests; fair.js still proves a hand on the fallback."""
    import hashlib

    texts = ["", "abc", "pokerroom deal 2\n" + "f" * 64 + "\n2:seed\n", "Дама ♠ " * 40]
    p = Player(browser, room.http, "Hasher", "en-US")
    with checked(p):
        p.page.goto(room.http + "/")
        both = p.page.evaluate("""texts => import('/js/sha256.js').then(async (m) => [
            Boolean(globalThis.crypto && crypto.subtle),
            await Promise.all(texts.map((x) => m.digestHex(x))),
            texts.map((x) => m.sha256(x)),
        ])""", texts)
        expected = [hashlib.sha256(x.encode()).hexdigest() for x in texts]
        assert both == [True, expected, expected]
        # no WebCrypto: the same proof, by the fallback
        table, deal = play(HOLDEM, 3, {2: "a-seed-of-two"})
        seen = {"commitment": deal.commitment, "seeds": [list(x) for x in sorted(deal.seeds.items())]}
        p.page.evaluate("Object.defineProperty(globalThis.crypto, 'subtle', { value: undefined })")
        assert p.page.evaluate("Boolean(crypto.subtle)") is False
        verdict = p.page.evaluate(CHECK, [served(stored(table, deal), deal, 2), seen])
        assert verdict["ok"] is True and verdict["proven"] == 2 + 5 + 4, verdict
