"""Fuzz the PHH reader and replay (pokerroom.core.phh), in pure Python (_harness.pure_core:
the compiled module has no bytecode to instrument).

An input is a .phh or .phhs text (tests/fuzz/corpus/phh/: hands the server wrote, in
every game, made by make_corpus.py). Each is read as one hand and as a .phhs file; every
hand read is replayed and written back. What may escape: ``PHHError`` (its subclasses
``UnsupportedError`` and ``ReplayError`` included), the module's documented error, and
nothing else. Checked: a document the fast TOML reader reads itself is tomllib's (a text
tomllib refuses escapes as its error: a finding); a replayed hand ends with the chips it
started with, in whole chips; a hand written back reads back with the same actions and
stacks.

    python tests/fuzz/fuzz_phh.py -runs=100000 -seed=1
"""

from __future__ import annotations

import contextlib
import sys
import tomllib

import _harness
import atheris

_harness.pure_core()
with atheris.instrument_imports(include=["pokerroom"]):
    from pokerroom.core import phh
    from pokerroom.core.phh import tomltext


def check_replay(hh: phh.HandHistory) -> None:
    try:
        hand = phh.replay(hh)
    except phh.PHHError:
        return
    stacks = list(hand.stacks)
    assert all(type(s) is int and s >= 0 for s in stacks), f"stacks {stacks}"
    assert sum(stacks) == sum(hh.starting_stacks), f"{hh.starting_stacks} became {stacks}"


def check_round_trip(hh: phh.HandHistory) -> None:
    try:
        text = phh.dumps(hh)
    except phh.PHHError:
        return
    again = phh.loads(text)  # what was written reads back, or it is a bug
    assert again.actions == hh.actions, (hh.actions, again.actions)
    assert again.starting_stacks == hh.starting_stacks, (hh.starting_stacks, again.starting_stacks)


def test_one(data: bytes) -> None:
    text = data.decode("utf-8", "replace")
    fast = tomltext._fast(text)
    if fast is not None:
        assert fast == tomllib.loads(text), "the fast reader and tomllib disagree"
    hands: list[phh.HandHistory] = []
    with contextlib.suppress(phh.PHHError):
        hands.append(phh.loads(text))
    with contextlib.suppress(phh.PHHError):
        hands += [hh for _, hh in phh.loads(text, multi=True)]
    for hh in hands:
        check_replay(hh)
        check_round_trip(hh)


if __name__ == "__main__":
    _harness.run("phh", test_one)
    sys.exit(0)
