"""A player's counters (fold.py ``Counters``, a row per game and stakes) as the figures his
page shows: per game, the shares in percent (one decimal), AF and bb/100 (two
decimals), None where there is nothing to divide by; and his results by game and stakes.

>>> from pokerroom.store.stats.fold import Counters
>>> rows = [Counters("NLHE", "NL 1/2", 2, hands=4, vpip=1, pfr=1, three_bet_chances=2, bets=3,
...                  calls=2, saw_flop=2, showdowns=1, showdowns_won=1, net=10, net_showdown=6)]
>>> f = figures_of(rows)
>>> f["vpip"], f["three_bet"], f["af"], f["wtsd"], f["wsd"], f["bb100"]
(25.0, 0.0, 1.5, 50.0, 100.0, 125.0)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from pokerroom.store.stats.fold import Counters

GAMES = ("NLHE", "PLHE", "FLHE", "Stud")  # the order a page lists them in


def _share(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def figures_of(rows: Iterable[Counters]) -> dict[str, Any]:
    """The figures of one game (its rows at every stakes added up)."""
    rows = list(rows)
    total = {name: sum(getattr(r, name) for r in rows) for name in (
        "hands", "vpip", "pfr", "three_bet", "three_bet_chances", "bets", "calls", "saw_flop", "showdowns",
        "showdowns_won")}
    hands = total["hands"]
    big_blinds = sum(r.net / r.bb for r in rows)
    return {
        "hands": hands,
        "vpip": _share(total["vpip"], hands),
        "pfr": _share(total["pfr"], hands),
        "three_bet": _share(total["three_bet"], total["three_bet_chances"]),
        "af": round(total["bets"] / total["calls"], 2) if total["calls"] else None,
        "wtsd": _share(total["showdowns"], total["saw_flop"]),
        "wsd": _share(total["showdowns_won"], total["showdowns"]),
        "bb100": round(100 * big_blinds / hands, 2) if hands else None,
    }


def _order(game: str) -> tuple[int, str]:
    return (GAMES.index(game) if game in GAMES else len(GAMES), game)


def by_game(rows: Sequence[Counters], results: bool = False) -> list[dict[str, Any]]:
    """Each game's figures; with ``results`` his net there too (chips, and in the hands he
    took to the showdown)."""
    out = []
    for game in sorted({r.game for r in rows}, key=_order):
        mine = [r for r in rows if r.game == game]
        entry = {"game": game, **figures_of(mine)}
        if results:
            entry["net"] = sum(r.net for r in mine)
            entry["net_showdown"] = sum(r.net_showdown for r in mine)
        out.append(entry)
    return out


def by_stakes(rows: Sequence[Counters]) -> list[dict[str, Any]]:
    """His results at each game's stakes: hands, net chips, bb/100 (in that stakes' unit)."""
    return [
        {"game": r.game, "stakes": r.stakes, "bb": r.bb, "hands": r.hands, "net": r.net,
         "bb100": round(100 * r.net / r.bb / r.hands, 2) if r.hands else None}
        for r in sorted(rows, key=lambda r: (_order(r.game), r.bb, r.stakes))
    ]
