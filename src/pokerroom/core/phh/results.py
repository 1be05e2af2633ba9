"""Comparing a replay with the file: ``verify`` one hand against its ``finishing_stacks``,
``replay_paths`` every hand of some files and folders, one ``ReplayResult`` each."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pokerroom.core.events import PotAwarded
from pokerroom.core.phh.files import _INT_ONLY, HandHistory, _read
from pokerroom.core.phh.grammar import Action, Chips, PHHError, UnsupportedError
from pokerroom.core.phh.playback import play, settle_by_file


@dataclass
class ReplayResult:
    """One hand's replay: ``ok`` compares with the file's finishing_stacks (None: no record,
    or an unsupported hand); ``error`` says why the hand did not replay."""

    path: str
    hand: int | None
    variant: str | None
    finishing_stacks: list[int] | None
    expected: list[Chips] | None
    ok: bool | None
    error: str | None = None
    note: str | None = None
    unsupported: bool = False

    def to_json(self) -> dict[str, Any]:
        keys = ("path", "hand", "variant", "finishing_stacks", "expected", "ok", "error", "note")
        return {k: getattr(self, k) for k in keys}


def verify(hh: HandHistory, path: str = "", index: int | None = None) -> ReplayResult:
    """Replay ``hh`` and compare our final stacks with its ``finishing_stacks``. Where the
    file records a muck our room does not allow (a called bettor's), the pots are settled by
    the file's rule and ``note`` says so."""
    return _verify(hh, path, index, None)


def _verify(hh: HandHistory, path: str, index: int | None, actions: list[Action] | None) -> ReplayResult:
    """``verify``, given ``hh.actions`` already parsed (None: parse them)."""
    expected = hh.finishing_stacks
    rule: str | None = None
    try:
        hand, by_file = play(hh, actions)
        if by_file:
            ours = settle_by_file(hand, by_file)
            who = ", ".join(f"p{p + 1}" for p in sorted(by_file))
            rule = (f"replayed by the file's rule: {who}, the last bettor, was called and mucked (actions"
                    f"[{', '.join(map(str, sorted(by_file.values())))}]), where our room shows his hand "
                    "(H14, case 33); elsewhere by our room's rules")
        else:
            ours = list(hand.stacks)
    except UnsupportedError as unsupported:
        return ReplayResult(path, index, hh.variant, None, expected, None, str(unsupported), unsupported=True)
    except PHHError as error:
        return ReplayResult(path, index, hh.variant, None, expected, False, str(error))
    if expected is None or _INT_ONLY.issuperset(map(type, expected)):
        ok = None if expected is None else ours == expected
        return ReplayResult(path, index, hh.variant, ours, expected, ok, note=rule)
    diffs = [o - x for o, x in zip(ours, expected, strict=True)]
    # half chips are a split pot's odd chip: only the winners of such a pot may differ
    odd = {p for e in hand.events if type(e) is PotAwarded and e.amount % len(e.winners) for p in e.winners}
    ok = sum(ours) == sum(expected) and all(
        d == 0 or (abs(d) == 0.5 and p in odd) for p, d in enumerate(diffs)
    )
    gets = ", ".join(f"p{p + 1}" for p, d in enumerate(diffs) if d > 0)
    note = (f"recorded in half chips: a split pot's odd chip, which whole-chip play gives to {gets} "
            "(the first winner left of the button)") if ok else None
    if rule is not None:
        note = rule if note is None else f"{rule}; {note}"
    return ReplayResult(path, index, hh.variant, ours, expected, ok, note=note)


def replay_paths(paths: Iterable[str | Path]) -> Iterator[ReplayResult]:
    """Replay every hand of the given .phh/.phhs files and folders (recursively, sorted)."""
    for top in map(Path, paths):
        if not top.exists():
            yield ReplayResult(str(top), None, None, None, None, False, "no such file or directory")
            continue
        files = [top]
        if top.is_dir():
            files = sorted(p for p in top.rglob("*") if p.suffix in (".phh", ".phhs") and p.is_file())
        for file in files:
            try:
                items = _read(file)
            except PHHError as e:
                items = [(None, e, [])]
            for index, hh, actions in items:
                if isinstance(hh, PHHError):
                    yield ReplayResult(str(file), index, None, None, None, False, str(hh))
                else:
                    yield _verify(hh, str(file), index, actions)
