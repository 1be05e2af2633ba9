"""The policies tests play hands with: a decision from the ``legal`` object of a
``your_turn`` (docs/protocol.md), as ``(action, amount)``, amount the total bet for a bet,
raise or complete, None otherwise. One module, so a test's way of playing is found and
changed in one place; the product's bots have their own strategies (pokerroom.bots).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

Message = dict[str, Any]
Decision = tuple[str, int | None]
Policy = Callable[[Message, random.Random], Decision]


def random_policy(legal: Message, rng: random.Random, fixed: bool = False) -> Decision:
    """A random legal action from a ``legal`` object: check or call most of the time,
    fold a bet now and then, sometimes bet or raise (usually the minimum; ``fixed``: a
    fixed-limit game, where only ``min_to`` and ``max_to`` are legal amounts); at a
    showdown show or muck; in stud post the bring-in, complete, or fold."""
    if legal["show"] or legal["muck"]:
        return rng.choice(["show", "muck"] if legal["muck"] else ["show"]), None
    low, high = legal["min_to"], legal["max_to"]
    if legal["bring_in"]:
        kinds = ["bring_in", "bring_in"]
        if low is not None:
            kinds.append("complete")
        if legal["fold"]:
            kinds.append("fold")
        kind = rng.choice(kinds)
        return kind, low if kind == "complete" else None
    r = rng.random()
    if legal["fold"] and r < 0.2:
        return "fold", None
    if low is not None and high is not None and r < 0.4:
        if fixed:
            amount = rng.choice([low, high])
        elif rng.random() < 0.03:
            amount = high  # all in, now and then
        else:
            amount = low if rng.random() < 0.7 else rng.randint(low, min(high, 3 * low))
        return ("raise" if legal["call"] else "bet"), amount
    return ("check" if legal["check"] else "call"), None


def limit_policy(legal: Message, rng: random.Random) -> Decision:
    """``random_policy`` for a fixed-limit game (FL, Stud)."""
    return random_policy(legal, rng, fixed=True)


def passive_policy(legal: Message, rng: random.Random) -> Decision:
    """Never folds, never raises: checks, calls, posts the bring-in, shows."""
    if legal["show"]:
        return "show", None
    if legal["bring_in"]:
        return "bring_in", None
    return ("check" if legal["check"] else "call"), None


def aggressive(legal: Message) -> Decision:
    """Raise the minimum whenever it may, else call or check; show at a showdown."""
    if legal["show"]:
        return "show", None
    if legal["min_to"] is not None:
        return ("raise" if legal["call"] else "bet"), legal["min_to"]
    return ("check" if legal["check"] else "call"), None


def folder(legal: Message) -> Decision:
    """Fold whenever it may, else check; muck at a showdown."""
    if legal["muck"]:
        return "muck", None
    if legal["show"]:
        return "show", None
    return ("fold" if legal["fold"] else "check"), None


def staying(legal: Message) -> Decision:
    """Check or call; post a stud bring-in; at the showdown muck a beaten hand."""
    if legal["muck"]:
        return "muck", None
    if legal["show"]:
        return "show", None
    if legal["bring_in"]:
        return "bring_in", None
    return ("check", None) if legal["check"] else ("call", None)
