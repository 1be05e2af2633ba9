"""Where the project's shared real hands live (../shared/phh beside the repository).

A clean clone may sit elsewhere on the machine, so the folder is looked for in order:
$POKERROOM_PHH_DIR, the repository's sibling ``shared/phh``, then /work/shared/phh.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]


def shared_phh() -> Path:
    """The shared PHH folder; the first candidate if none exists (callers say so)."""
    candidates = [REPO.parent / "shared" / "phh", Path("/work/shared/phh")]
    env = os.environ.get("POKERROOM_PHH_DIR")
    if env:
        candidates.insert(0, Path(env))
    return next((c for c in candidates if c.is_dir()), candidates[0])
