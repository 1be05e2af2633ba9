"""Fuzz the stored-history reader (pokerroom.histories): ``full_history``, which
makes a stored hand's JSON whole again when it is read from the database (Store.hand),
and ``stored_text``, which writes it as a .phh or a PokerStars-style text for a reader
(GET /api/hands/{id}.phh and .txt), in pure Python (_harness.pure_core).

An input is a deck (104 characters), a newline and the history's JSON text, as the hands
table keeps them (tests/fuzz/corpus/history/, made by make_corpus.py from hands played at
a table of each game; the hand's id, which the texts carry, is 7 here). Each is made
whole, then written as both texts for the public and for every seat it names. What may
escape: ``HistoryError``, the module's documented error for a history it cannot read or
write, and nothing else (what each text shows is the other tests' business:
tests/server/test_histories.py).

    python tests/fuzz/fuzz_history.py -runs=20000 -seed=1
"""

from __future__ import annotations

import json
import sys

import _harness
import atheris

_harness.pure_core()
with atheris.instrument_imports(include=["pokerroom"]):
    from pokerroom import histories


def readers(history: object) -> list[int | None]:
    """The public, and each seat the history names (at most ten)."""
    seats: list[int | None] = [None]
    players = history.get("players") if isinstance(history, dict) else None
    if isinstance(players, list):
        seats += [p["seat"] for p in players[:10] if isinstance(p, dict) and type(p.get("seat")) is int]
    return seats


def test_one(data: bytes) -> None:
    deck, _, rest = data.partition(b"\n")
    text = rest.decode("utf-8", "replace")
    try:
        full = histories.full_history(text, deck.decode("latin-1"), 7)
    except histories.HistoryError:
        return
    assert isinstance(full, str)
    try:
        history = json.loads(full)
    except (ValueError, RecursionError):  # only the first cut's histories are served as they are
        return
    for seat in readers(history):
        for kind in ("phh", "txt"):
            try:
                out = histories.stored_text(history, seat, kind)
            except histories.HistoryError:
                continue
            assert isinstance(out, str)


if __name__ == "__main__":
    _harness.run("history", test_one)
    sys.exit(0)
