"""A crowd of pokerroom.bots playing a served room until every table has dealt enough
hands: the bots' test and the statistics' test against the server both need it, and
"enough" must mean every table (a fast table alone would end the run early)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from pokerroom.bots import Bot, Tally


async def play_until(bots: Sequence[Bot], tally: Tally, tables: Sequence[Mapping[str, Any]],
                     hands: int) -> list[object]:
    """Run ``bots`` until each of ``tables`` has dealt ``hands`` hands (as ``tally`` counts
    them), then tell everyone to leave; each bot's result, an exception where one failed.
    Fails at once if the bots stop before."""
    stop = asyncio.Event()
    runs = asyncio.gather(*(b.run(stop) for b in bots), return_exceptions=True)
    while not all(len(tally.hands.get(t["name"], ())) >= hands for t in tables):
        assert not runs.done(), "the bots stopped early"
        await asyncio.sleep(0.2)
    stop.set()
    return list(await asyncio.wait_for(runs, 60))
