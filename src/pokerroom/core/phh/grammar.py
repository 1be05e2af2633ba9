"""PHH's action grammar: one line of a hand's ``actions`` ('p3 cbr 225', 'd dh p1 AsKs',
'd db Qs9c4s # flop', 'p2 sm -') parsed into an ``Action``, and the errors of the package.

The common lines go through a fast path (one dict look-up or one split), since a replay
parses every line of every hand; anything else gets the full grammar and its clear errors.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Final

from pokerroom.core.cards import FULL_DECK, RANKS, SUITS, Card, CardError

Chips = int | float  # float only for a fraction of a chip (or 'inf')


class PHHError(ValueError):
    """A malformed PHH file, or a hand that does not replay."""


class UnsupportedError(PHHError):
    """A variant or feature our engine does not play."""


class ReplayError(PHHError):
    """An action of the file that the replay refused: ``index`` into ``actions`` (None: the
    end of the actions), the action ``text`` and a ``code`` (the engine's, or 'replay')."""

    def __init__(self, index: int | None, text: str, reason: str, code: str = "replay") -> None:
        super().__init__(f"actions[{index}] {text!r}: {reason}" if index is not None else reason)
        self.index, self.text, self.code = index, text, code



class Action:
    """A parsed action line. ``actor``/``target`` are 0-based players (None: the dealer);
    ``verb`` is '' for a no-op; ``cards`` is None when the line names no cards (``sm``
    alone is a muck) and holds None for an unknown card '??'; ``dash``: 'pN sm -' (show
    the cards dealt before).

    A value: equal to another Action with the same fields, and never changed once made
    (one is shared by every hand that has the line). A class rather than a named tuple so
    that, compiled, making one and reading its fields are native operations: a replay
    makes one per hole deal and reads them at every step (a named tuple is made by a
    Python-level call, about a tenth of a replay's hole deals alone)."""

    def __init__(
        self, text: str, actor: int | None, verb: str, target: int | None = None,
        cards: tuple[Card | None, ...] | None = None, amount: Chips | None = None, dash: bool = False,
        commentary: str | None = None,
    ) -> None:
        self.text = text
        self.actor = actor
        self.verb = verb
        self.target = target
        self.cards = cards
        self.amount = amount
        self.dash = dash
        self.commentary = commentary

    def _fields(self) -> tuple[object, ...]:
        return (self.text, self.actor, self.verb, self.target, self.cards, self.amount, self.dash,
                self.commentary)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Action):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (f"Action(text={self.text!r}, actor={self.actor!r}, verb={self.verb!r}, "
                f"target={self.target!r}, cards={self.cards!r}, amount={self.amount!r}, dash={self.dash!r}, "
                f"commentary={self.commentary!r})")


_ACTORS: Final[dict[str, int]] = {f"p{i}": i - 1 for i in range(1, 100)}
# A card's text read by its two character codes, without a slice or a look-up by string:
# rank * 4 + suit is the card's number; the big negative marks a character that is not one
_NOT: Final = -1000
_RANK_AT: Final[list[int]] = [RANKS.find(chr(c)) * 4 if chr(c) in RANKS else _NOT for c in range(128)]
_SUIT_AT: Final[list[int]] = [SUITS.find(chr(c)) if chr(c) in SUITS else _NOT for c in range(128)]
_UNKNOWN: Final = 52  # '??'
_CARD_OR_UNKNOWN: Final[tuple[Card | None, ...]] = (*FULL_DECK, None)


def _code(text: str, k: int) -> int:
    """The card written at ``text[k:k + 2]`` ('As'): its number 0..51, 52 for '??', -1 for
    anything else (``text`` holds at least k + 2 characters)."""
    a, b = ord(text[k]), ord(text[k + 1])
    if a < 128 and b < 128:
        code = _RANK_AT[a] + _SUIT_AT[b]
        if code >= 0:
            return code
        if a == 63 and b == 63:  # '??'
            return _UNKNOWN
    return -1


def _quick_cards(word: str) -> tuple[Card | None, ...] | None:
    """Cards written the usual way ('AsKd', '??'), or None to leave it to the full parser."""
    size = len(word)
    if size == 4:  # the common case first, without a loop
        a, b = _code(word, 0), _code(word, 2)
        return None if a < 0 or b < 0 else (_CARD_OR_UNKNOWN[a], _CARD_OR_UNKNOWN[b])
    if size % 2:
        return None
    cards: list[Card | None] = []
    for k in range(0, size, 2):
        code = _code(word, k)
        if code < 0:
            return None
        cards.append(_CARD_OR_UNKNOWN[code])
    return tuple(cards)


def _hole_deal(text: str) -> Action | None:
    """'d dh p1 AsKs' (two known cards to one of p1..p9) parsed by character codes; None
    for any other line."""
    if len(text) == 12 and text.startswith("d dh p") and text[7] == " ":
        digit = ord(text[6]) - 49  # p1 .. p9: player 0 .. 8
        a, b = _code(text, 8), _code(text, 10)
        if 0 <= digit <= 8 and 0 <= a < _UNKNOWN and 0 <= b < _UNKNOWN and a != b:
            return Action(text, None, "dh", digit, (FULL_DECK[a], FULL_DECK[b]))
    return None


def _quick_action(text: str) -> Action | None:
    """The common lines without commentary, parsed fast; None for anything else."""
    words = text.split()
    count = len(words)
    if count == 4:
        if words[0] == "d" and words[1] == "dh":
            target, cards = _ACTORS.get(words[2]), _quick_cards(words[3])
            if target is not None and cards is not None:
                return Action(text, None, "dh", target, cards)
    elif count == 3:
        first, verb, arg = words
        if first == "d":
            if verb == "db":
                cards = _quick_cards(arg)
                return None if cards is None else Action(text, None, verb, None, cards)
            return None
        p = _ACTORS.get(first)
        if p is None:
            return None
        if verb == "cbr" and arg.isascii() and arg.isdigit() and arg[0] != "0":
            return Action(text, p, verb, amount=int(arg))
        if verb == "sm" and arg != "-":
            cards = _quick_cards(arg)
            return None if cards is None else Action(text, p, verb, cards=cards)
    return None


# Lines already parsed: an Action is immutable, so one is shared by every hand that has the
# line. Reading a file parses each line (to check it; the hand keeps them for its replay).
# The most frequent lines ('p3 f', 'p1 cc') are there from the start;
# the rest are added until the cache is full (about 10 MB), then it stays as it is.
_COMMON: Final[dict[str, Action]] = {
    f"p{i} {verb}": Action(f"p{i} {verb}", i - 1, verb) for i in range(1, 100) for verb in ("f", "cc")
}
_PARSED: Final[dict[str, Action]] = dict(_COMMON)
_PARSED_MAX: Final = 1 << 16


def forget_parsed() -> None:
    """Empty the cache of parsed lines (a benchmark's cold start)."""
    _PARSED.clear()
    _PARSED.update(_COMMON)


def parse_action(text: str) -> Action:
    """Parse one PHH action line (``'p3 cbr 225'``, ``'d db Qs9c4s # flop'``, ...)."""
    # a hole deal is parsed as fast as it is looked up, and seldom seen twice: not kept
    deal = _hole_deal(text)
    if deal is not None:
        return deal
    known = _PARSED.get(text)
    if known is not None:
        return known
    action = _parse_line(text)
    if len(_PARSED) < _PARSED_MAX:
        _PARSED[text] = action
    return action


def _parse_line(text: str) -> Action:
    if "#" not in text:
        quick = _hole_deal(text) or _quick_action(text)
        if quick is not None:
            return quick
    body, sep, comment = text.partition("#")
    note = comment.strip() if sep else None
    words = body.split()

    def bad(why: str) -> PHHError:
        return PHHError(f"bad action {text!r}: {why}")

    def player(word: str) -> int:
        if not re.fullmatch(r"p[1-9][0-9]*", word):
            raise bad(f"{word!r} is not an actor like 'd' or 'p1'")
        return int(word[1:]) - 1

    def cards(word: str) -> tuple[Card | None, ...]:
        if len(word) % 2:
            raise bad(f"cards {word!r} must be two characters each")
        try:
            pairs = [word[k:k + 2] for k in range(0, len(word), 2)]
            return tuple(None if c == "??" else Card(c) for c in pairs)
        except CardError as e:
            raise bad(str(e)) from None

    if not words:
        return Action(text, None, "", commentary=note)
    actor, verb, args = words[0], words[1] if len(words) > 1 else "", words[2:]
    if actor == "d":
        if verb == "dh" and len(args) == 2:
            return Action(text, None, verb, player(args[0]), cards(args[1]), commentary=note)
        if verb == "db" and len(args) == 1:
            return Action(text, None, verb, None, cards(args[0]), commentary=note)
        raise bad("the dealer's actions are 'd dh pN cards' and 'd db cards'")
    p = player(actor)
    if verb in ("f", "cc", "pb") and not args:
        return Action(text, p, verb, commentary=note)
    if verb == "cbr" and len(args) == 1:
        word = args[0]
        if re.fullmatch(r"[1-9][0-9]*", word):
            amount: Chips = int(word)
        elif re.fullmatch(r"(0|[1-9][0-9]*)\.[0-9]+", word):
            amount = _number(float(word))  # fractional chips: reported unsupported later
        else:
            amount = -1
        if not 0 < amount < math.inf:
            raise bad(f"{args[0]!r} is not a positive amount")
        return Action(text, p, verb, amount=amount, commentary=note)
    if verb in ("sm", "sd") and len(args) <= 1:
        if verb == "sm" and args == ["-"]:
            return Action(text, p, verb, dash=True, commentary=note)
        return Action(text, p, verb, cards=cards(args[0]) if args else None, commentary=note)
    raise bad("unknown action or wrong arguments" if verb else "an actor needs an action")


# ---------------------------------------------------------------------------- reading



def _number(v: object) -> Chips:
    if isinstance(v, bool) or not isinstance(v, int | float) or v != v:
        raise ValueError(v)
    return int(v) if isinstance(v, float) and v.is_integer() else v


def _whole(name: str, v: Chips | None) -> int:
    if not isinstance(v, int):
        raise UnsupportedError(f"unsupported: {name} is not a whole number of chips ({v!r})")
    return v



def _fmt(cards: Iterable[Card | None]) -> str:
    return "".join("??" if c is None else str(c) for c in cards)
