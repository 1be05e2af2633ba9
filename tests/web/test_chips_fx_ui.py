"""Where the winner's chips fly (issue 19: "the winner's chip animation lands on his name
and stack"): from the middle to the spot where his bets stand, in front of his seat, not
onto his name plate."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser

from tests.server.helpers import Server
from tests.web.helpers import Player, all_in, checked, play_hand

WATCH = """() => {  // the chips that fly to winners (not bets to the pot)
  window.__flights = [];
  const fx = document.querySelector(".table-screen[data-table='NL'] .fx");
  new MutationObserver((changes) => {
    for (const change of changes) for (const node of change.addedNodes) {
      if (node.classList?.contains("flying-chips") && !node.classList.contains("to-pot")) {
        setTimeout(() => window.__flights.push([node.style.left, node.style.top]), 300);
      }
    }
  }).observe(fx, { childList: true });
}"""

SPOTS = """(selector) => [...document.querySelectorAll(
  `.table-screen[data-table='NL'] ${selector}`)].map((el) => [el.style.left, el.style.top])"""


def test_the_winners_chips_land_where_his_bets_stand(browser: Browser, room: Server, tmp_path: Path) -> None:
    vic = Player(browser, room.http, "vic", "en-US")
    wes = Player(browser, room.http, "wes", "en-US")
    with checked(vic, wes):
        vic.register()
        wes.register()
        vic.sit("NL")
        wes.sit("NL")
        vic.page.evaluate(WATCH)
        play_hand([vic, wes], "NL", all_in("NL"))
        vic.page.wait_for_timeout(450)
        vic.shoot(tmp_path, "chips-landing.png", publish=False)  # the chips in front of the winner
        vic.page.wait_for_timeout(350)
        flights = [tuple(f) for f in vic.page.evaluate("() => window.__flights")]
        bets = {tuple(s) for s in vic.page.evaluate(SPOTS, ".bets .bet")}
        seats = {tuple(s) for s in vic.page.evaluate(SPOTS, ".seats .seat")}
        assert flights, "no chips flew to the winner"
        for flight in flights:
            assert flight in bets and flight not in seats, (flight, bets, seats)
