"""Build hook: compile the hot core modules with mypyc when possible.

The compiled modules come from the same Python source (mypy --strict clean). Set
POKERROOM_PURE=1 to build without them; if mypyc or a C compiler is missing the build
falls back to pure Python. At run time POKERROOM_PURE=1 also makes the package load the
Python source (see pokerroom/core/__init__.py), so both paths can be tested and measured.
"""

import os
import sys

from setuptools import setup

COMPILED = [
    "evaluator", "pots", "stud",
    "variants", "legal", "forced", "dealing", "showdown", "betting", "hand",  # the hand, in layers
    "phh/grammar", "phh/tomltext", "phh/files", "phh/deck", "phh/playback", "phh/results",
]

ext_modules = []
if os.environ.get("POKERROOM_PURE", "") in ("", "0"):
    try:
        from mypyc.build import mypycify

        ext_modules = mypycify(
            [f"src/pokerroom/core/{name}.py" for name in COMPILED], opt_level="3", debug_level="0"
        )
    except (Exception, SystemExit) as error:  # no mypyc, no compiler: the pure package works the same
        print(f"pokerroom: building without compiled modules ({error})", file=sys.stderr)

setup(ext_modules=ext_modules)
