"""What the fuzz harnesses share: the command line and a fake transport.

Each harness is a script, ``python tests/fuzz/fuzz_x.py [libFuzzer arguments] [corpus
dirs]``. Without a corpus directory it reads its seed corpus, tests/fuzz/corpus/<target>/,
and writes the inputs it finds to a temporary directory, never into the repository: the
kept corpus stays the small set of valid inputs it was made from (make_corpus.py).
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import atheris

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(ROOT / "src") not in sys.path:  # run from a checkout without an installed package too
    sys.path.insert(0, str(ROOT / "src"))


def pure_core() -> None:
    """Load the core's Python source, not its mypyc-compiled modules: compiled code has no
    Python bytecode for atheris to instrument, so only the source gives coverage. Must run
    before pokerroom.core is imported (core/__init__.py reads POKERROOM_PURE then)."""
    os.environ["POKERROOM_PURE"] = "1"
    import pokerroom.core  # noqa: F401  (its source-first finder goes in before atheris's)


def run(target: str, test_one: Callable[[bytes], None]) -> None:
    """Start libFuzzer on ``test_one`` with the command line's arguments; the seed corpus of
    ``target`` when no corpus directory is given."""
    args = sys.argv[:]
    if not any(not a.startswith("-") for a in args[1:]):
        args += [tempfile.mkdtemp(prefix=f"fuzz-{target}-"), str(HERE / "corpus" / target)]
    atheris.Setup(args, test_one)
    atheris.Fuzz()


class Transport:
    """An asyncio transport whose peer never reads: everything written stays buffered, so
    ``get_write_buffer_size`` is all the bytes written since the connection was made."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []
        self.size = 0
        self.closing = False
        self.aborted = False

    def write(self, data: bytes) -> None:
        self.chunks.append(bytes(data))
        self.size += len(data)

    def get_write_buffer_size(self) -> int:
        return self.size

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def abort(self) -> None:
        self.closing = self.aborted = True

    def written(self) -> bytes:
        return b"".join(self.chunks)

    def get_extra_info(self, name: str, default: object = None) -> object:
        return ("127.0.0.1", 40000) if name == "peername" else default


def split(data: bytes) -> tuple[bytes, list[bytes]]:
    """An input as (its stream, the stream cut into reads): the first byte chooses the
    cuts (0: one read of it all), the rest is the stream, so a seed is one byte and then
    valid bytes. The reader must give the same result however a stream is cut."""
    if not data:
        return b"", [b""]
    stream, rng = data[1:], random.Random(data[0])
    if not data[0]:
        return stream, [stream]
    pieces, pos = [], 0
    while pos < len(stream):
        size = rng.choice((1, 2, 3, rng.randint(1, 300)))
        pieces.append(stream[pos:pos + size])
        pos += size
    return stream, pieces or [b""]
