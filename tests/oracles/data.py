"""Where the project's shared real hands are: the one place tests and benchmarks ask.

$POKERROOM_PHH_DIR when set, otherwise ``shared/phh`` beside the checkout (the
repository's ``../shared/phh``). Nothing here looks anywhere else: a missing folder is
the caller's to report (tests fail, the benchmark says so), never a silent skip.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def shared_phh() -> Path:
    """The shared PHH folder (it may not exist: callers say so)."""
    env = os.environ.get("POKERROOM_PHH_DIR")
    return Path(env) if env else REPO.parent / "shared" / "phh"


def missing_message(folder: Path) -> str:
    return (f"the shared PHH hands are not in {folder}: put them there (the repository's "
            "../shared/phh) or set POKERROOM_PHH_DIR")
