"""The rules: pure, deterministic, no clock, no randomness of its own, no I/O.

The hot modules (``COMPILED``) may be compiled by mypyc at install time from this same
source. The Python source is used instead when ``POKERROOM_PURE=1`` is set, or when a
compiled module is older than its source (an edit not rebuilt yet), so the package never
runs stale code. ``MODE`` says which is in use: 'compiled' or 'pure'.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

# dotted below core: 'phh.playback' is core/phh/playback.py
COMPILED = (
    "evaluator", "pots", "stud",
    "variants", "legal", "forced", "dealing", "showdown", "betting", "hand",  # the hand, in layers
    "phh.grammar", "phh.tomltext", "phh.files", "phh.deck", "phh.playback", "phh.results",
)
_HERE = Path(__file__).resolve().parent


def _compiled_is_fresh() -> bool:
    for name in COMPILED:
        stem = _HERE.joinpath(*name.split("."))
        source = stem.with_suffix(".py")
        suffixes = importlib.machinery.EXTENSION_SUFFIXES
        built = [Path(f"{stem}{s}") for s in suffixes if Path(f"{stem}{s}").exists()]
        if not built or min(p.stat().st_mtime for p in built) < source.stat().st_mtime:
            return False
    return True


class _SourceFirst(importlib.abc.MetaPathFinder):
    """Load the compiled modules' Python source instead of their extension modules."""

    def find_spec(
        self, fullname: str, path: object = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        name = fullname.removeprefix(__name__ + ".")
        if name != fullname and name in COMPILED:
            source = _HERE.joinpath(*name.split(".")).with_suffix(".py")
            return importlib.util.spec_from_file_location(fullname, source)
        return None


if os.environ.get("POKERROOM_PURE", "") not in ("", "0") or not _compiled_is_fresh():
    sys.meta_path.insert(0, _SourceFirst())
    MODE = "pure"
else:
    MODE = "compiled"
