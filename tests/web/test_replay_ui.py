"""The hand replayer in the browser (issue 19, item 5): two players play a hand to the
showdown, one in English at 1366x768, the other in Russian on a phone (390x844, touch);
each opens it from his history's Replay button, steps through it to its end, and the
table drawing ends with the cards and board of his history of that hand; stepping back
and playing move through the steps; the shared link #/replay/<id> opens it; a PHH file
imported from disk replays to its finishing stacks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, expect

from tests.server.helpers import Server
from tests.web.helpers import Player, checked, play_hand

PHH = Path("/work/shared/phh/wsop-2023-43-5/3.phh")
if not PHH.exists():
    PHH = Path(__file__).resolve().parents[3] / "shared" / "phh" / "wsop-2023-43-5" / "3.phh"

# the cards drawn at each seat of the replay's table, and its board
DRAWN = """() => {
  const screen = document.querySelector('#dlg-replay .table-screen');
  const seats = {};
  for (const seat of screen.querySelectorAll('.seat:not(.empty)')) {
    seats[seat.dataset.seat] = [...seat.querySelectorAll('.hole .card')].map(c => c.dataset.card ?? null);
  }
  const board = [...screen.querySelectorAll('.board .card')].map(c => c.dataset.card ?? null);
  const stacks = {};
  for (const seat of screen.querySelectorAll('.seat:not(.empty)')) {
    stacks[seat.dataset.seat] = seat.querySelector('.stack').textContent;
  }
  return { seats, board, stacks };
}"""


def history_of(p: Player, hand_id: int) -> Any:
    return p.page.evaluate("async (id) => (await fetch(`/api/hands/${id}`)).json()", hand_id)


def step_to_the_end(p: Player) -> int:
    """Press "step forward" until it is disabled; the number of presses."""
    forward = p.page.locator("#dlg-replay button[data-control=forward]")
    presses = 0
    while forward.is_enabled():
        p.press(forward)
        presses += 1
        assert presses < 200
    return presses


def test_replaying_a_hand_to_its_end_draws_the_cards_of_its_history(
    browser: Browser, room: Server, tmp_path: Path,
) -> None:
    ada = Player(browser, room.http, "ada", "en-US")
    ada.page.set_viewport_size({"width": 1366, "height": 768})
    boris = Player(browser, room.http, "boris", "ru-RU", phone=True)
    cleo = Player(browser, room.http, "cleo", "en-US")  # watches the table
    with checked(ada, boris, cleo):
        ada.register()
        boris.register()
        cleo.register()
        cleo.press("#lobby-rows tr[data-table='NL'] button[data-action=watch]")
        cleo.table("NL").wait_for()
        ada.sit("NL")
        boris.sit("NL")

        def passive(p: Player, street: str, verbs: list[str]) -> None:
            p.click_verb("NL", "check" if "check" in verbs else "call")

        play_hand([ada, boris], "NL", passive)
        hand_id = None
        for p, shot in ((ada, "replay-en.png"), (boris, "replay-phone-ru.png")):
            p.page.evaluate("document.querySelector('#btn-history').click()")
            p.press("#hands-tab-mine")
            row = p.page.locator("#dlg-hands .hands-list tbody tr").first
            expect(row).to_be_visible()
            hand_id = int(row.get_attribute("data-id") or 0)
            p.press(row.locator("button[data-control=replay]"))
            dialog = p.page.locator("#dlg-replay[open]")
            expect(dialog).to_be_visible()
            position = dialog.locator("#replay-position")
            expect(position).to_contain_text("Шаг 1 из" if p.phone else "Step 1 of")
            start = p.page.evaluate(DRAWN)
            assert start["board"] == [] and all(not c for c in start["seats"].values())

            presses = step_to_the_end(p)
            assert presses >= 8  # blinds, the deal, actions on four streets, the pot
            expect(position).to_contain_text(f"{presses + 1}")
            history = history_of(p, hand_id)
            drawn = p.page.evaluate(DRAWN)
            record = history["record"]
            assert drawn["board"] == record["board"] and len(drawn["board"]) == 5
            for player in record["players"]:
                own = player["seat"] == history["your_seat"]
                expected = history["your_cards"] if own else player["cards"]
                assert drawn["seats"][str(player["seat"])] == expected, (player, drawn)
                assert all(expected)  # both reached the showdown: every card face up
            expect(dialog.locator(".result")).to_be_visible()
            assert not p.too_wide()["wide"], p.too_wide()
            p.shoot(tmp_path, shot)

            # a step back and to the start; playing moves on by itself
            p.press(dialog.locator("button[data-control=back]"))
            expect(position).to_contain_text(f"{presses}")
            p.press(dialog.locator("button[data-control=first]"))
            expect(position).to_contain_text("Шаг 1 из" if p.phone else "Step 1 of")
            dialog.locator("#replay-speed").select_option("4")
            p.press(dialog.locator("button[data-control=play]"))
            expect(position).not_to_contain_text("Шаг 1 из" if p.phone else "Step 1 of")
            expect(dialog.locator("button[data-control=forward]")).to_be_disabled(timeout=20_000)
            p.press("#replay-close")
            expect(p.page.locator("#dlg-replay")).to_be_hidden()
            expect(p.page.locator("#dlg-hands[open]")).to_be_visible()  # back in the history
            p.press("#hands-close")

        # the watcher replays the previous hand from its record: no hole card until the
        # showdown, then both hands and the board of the record
        cleo.press(cleo.table("NL").locator("button[data-control=previous]"))
        record = cleo.page.evaluate("window.pokerroom.room.table('NL').previous")
        assert record is not None
        cleo.press(cleo.page.locator("#dlg-hands[open] button[data-control=replay]"))
        expect(cleo.page.locator("#dlg-replay[open] #replay-position")).to_contain_text("Step 1 of")
        seen_before_showdown: set[str] = set()
        forward = cleo.page.locator("#dlg-replay button[data-control=forward]")
        where = cleo.page.locator("#dlg-replay #replay-position")
        while forward.is_enabled():
            before = where.inner_text()
            cleo.press(forward)
            expect(where).not_to_have_text(before)  # the step drawn, not the one before it
            cleo.page.wait_for_timeout(50)
            drawn = cleo.page.evaluate(DRAWN)
            seen = {c for cards in drawn["seats"].values() for c in cards if c}
            if len(drawn["board"]) < 5:
                seen_before_showdown |= seen
        # a watcher sees no hole card the record does not show; before the board is out only
        # those of hands shown all in (under load a timed-out player is protected all in, and
        # the hands are then face up while the board runs out)
        shown = {c for player in record["players"] for c in player["cards"] if c}
        assert seen_before_showdown <= shown, (seen_before_showdown, shown)
        drawn = cleo.page.evaluate(DRAWN)
        assert drawn["board"] == record["board"]
        for player in record["players"]:
            assert drawn["seats"][str(player["seat"])] == player["cards"] and all(player["cards"])
        cleo.press("#replay-close")
        expect(cleo.page.locator("#dlg-hands[open]")).to_be_visible()

        # the shared link opens the same replay for a player of the hand
        assert hand_id is not None
        ada.page.goto(f"{room.http}/#/replay/{hand_id}")
        expect(ada.page.locator("#dlg-replay[open] #replay-position")).to_contain_text("Step 1 of")
        step_to_the_end(ada)
        assert ada.page.evaluate(DRAWN)["board"] == history_of(ada, hand_id)["record"]["board"]
        ada.press("#replay-close")
        expect(ada.page).to_have_url(f"{room.http}/#/lobby")

        # a PHH file from disk: every card it has, to its finishing stacks
        ada.page.evaluate("document.querySelector('#btn-history').click()")
        ada.press("#hands-tab-mine")
        ada.page.locator("#replay-import").set_input_files(str(PHH))
        expect(ada.page.locator("#dlg-replay[open] #dlg-replay-title")).to_contain_text("3.phh")
        step_to_the_end(ada)
        drawn = ada.page.evaluate(DRAWN)
        text = PHH.read_text()
        finishing = [int(x) for x in text.split("finishing_stacks = [")[1].split("]")[0].split(",")]
        shown = sorted(int(s.replace(",", "").replace("\u202f", "").replace("\xa0", "").replace(" ", ""))
                       for s in drawn["stacks"].values())
        ada.shoot(tmp_path, "replay-phh-en.png", publish=False)
        assert shown == sorted(finishing), (shown, finishing, ada.errors)
