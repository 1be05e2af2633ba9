"""Short runs in ``make test``, long ones in ``make soak``.

The tests that play hundreds of hands (the leak scan, the statistics count) play a short,
seeded run by default and their long run when ``POKERROOM_SOAK=1`` (``make soak``);
``POKERROOM_SOAK_SEED`` changes the bots' seed (the deals come from ``secrets`` whatever
the seed). Each test scales its thresholds with ``share``, so a short run is held to the
same proportions as a long one.
"""

from __future__ import annotations

import math
import os

SOAK = os.environ.get("POKERROOM_SOAK", "") == "1"
SEED = int(os.environ.get("POKERROOM_SOAK_SEED", "1"))


def size(short: int, soak: int) -> int:
    """``soak`` under ``make soak``, else ``short``."""
    return soak if SOAK else short


def share(count: int, of: int, planned: int) -> int:
    """``count`` asked of a run of ``of`` units, scaled to a run of ``planned`` (rounded up)."""
    return math.ceil(count * planned / of)
