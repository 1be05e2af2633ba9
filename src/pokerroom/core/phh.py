"""Read, write and replay PHH hands (Poker Hand History, TOML; spec: uoftcprg/phh-std).

``load`` reads a ``.phh`` file (one hand, index None) or a ``.phhs`` file (tables ``[1]``,
``[2]``, ...; index = the table key); ``loads`` parses text; ``dumps`` writes a hand
(fields we do not model stay in ``HandHistory.extra`` and are written back).

Variants: ``NT`` (no-limit Texas hold'em), ``FT`` (fixed limit: ``small_bet``/``big_bet``,
blinds from the array), ``PT``, our own code for pot-limit Texas hold'em with the same
fields as ``NT``, and ``F7S`` (fixed-limit seven card stud: ``bring_in``, ``small_bet``,
``big_bet`` and ``antes``, no blinds). ``NT`` and ``PT`` may have a straddle (D10): a third
``blinds_or_straddles`` entry of twice the big blind (``[1, 2, 4, 0, 0, 0]``, 3+ players).
Others (``NS``, ``PO``, ``F7S/8``, ...), any other straddle, draws (``sd``), bring-ins
(``pb``) in hold'em and fractional chips raise ``UnsupportedError``.

``replay`` is strict: the deck comes from the file (hole deals transposed into the real
dealing order; burns and ``??`` get cards that appear nowhere in the file), every action
goes to the engine, ``d dh``/``d db`` lines and shown hands are checked against what it
dealt, and nothing is repaired: a refused action is a ``ReplayError`` naming
``actions[i]`` (0-based) and the engine's reason. Players are in PHH order; heads-up the
``antes`` and ``blinds_or_straddles`` apply reversed (p1 posts the big blind), as in
PokerKit (in stud this only matters for unequal antes).

Stud (``F7S``): ``d dh p1 5d2sAd`` deals third street (two down, the third card up); each
later street is the run of one-card ``d dh`` lines after a betting round (a player dealt
twice in a run starts the next street, as in an all-in run-out), and ``d db Xx`` is the
community card of a seventh street short of cards (S9, D4). The deck is third street
transposed, then per street a burn and the street's cards in the file's order; if the
engine must shuffle the burned cards into the stub, the ``reshuffle`` callback puts the
cards the file deals next first. ``pN pb`` is the bring-in, ``pN cbr X`` completes, bets
or raises to X. As PokerKit writes them, all-in hands are shown (``sm``) before the
remaining cards are dealt and shown again after seventh street: a repeated show may name
the first cards of the hand only, in dealing order; and a bring-in all in (a player left
with no more than the bring-in) is ``pN cbr X``, X his whole stack: it is the bring-in.

After the hand is over, ``pN sm cards`` by a player who did not reach the showdown (he won
when the others folded, or folded) is a show at the end of the hand (D12): some cards may
be ``??`` (those he kept hidden); the known ones must be his, and no stack changes.

>>> hh = loads('''variant = 'NT'
... antes = [0, 0]
... blinds_or_straddles = [1, 2]
... min_bet = 2
... starting_stacks = [100, 100]
... actions = ['d dh p1 AsKs', 'd dh p2 7h2c', 'p2 cbr 6', 'p1 f']''')
>>> replay(hh).stacks
[98, 102]
"""

from __future__ import annotations

import datetime
import math
import re
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, NamedTuple, cast, overload

from pokerroom.core.cards import FULL_DECK, Card, CardError
from pokerroom.core.events import PotAwarded
from pokerroom.core.hand import BETTING, SHOWDOWN, STREET_NAMES, Hand, IllegalAction
from pokerroom.core.structures import Game, GameError, Structure

__all__ = ["Action", "HandHistory", "PHHError", "ReplayError", "ReplayResult", "UnsupportedError", "dumps",
           "game_of", "load", "loads", "parse_action", "replay", "replay_paths", "verify"]

Chips = int | float  # float only for a fraction of a chip (or 'inf')
VARIANT_NAMES = {
    "NS": "no-limit short-deck hold'em", "PO": "pot-limit Omaha", "FO/8": "fixed-limit Omaha hi/lo",
    "F7S": "fixed-limit seven card stud", "F7S/8": "fixed-limit stud hi/lo", "FR": "fixed-limit razz",
    "N2L1D": "no-limit 2-7 single draw", "F2L3D": "fixed-limit 2-7 triple draw", "FB": "fixed-limit badugi",
}
_VARIANT_FIELDS = {  # required besides variant, antes, starting_stacks and actions
    **dict.fromkeys(("NT", "PT", "NS", "PO", "N2L1D"), ("blinds_or_straddles", "min_bet")),
    **dict.fromkeys(("FT", "FO/8", "F2L3D", "FB"), ("blinds_or_straddles", "small_bet", "big_bet")),
    **dict.fromkeys(("F7S", "F7S/8", "FR"), ("bring_in", "small_bet", "big_bet")),
}
_STRUCTURES = {"NT": Structure.NO_LIMIT, "PT": Structure.POT_LIMIT, "FT": Structure.FIXED_LIMIT}
_S, _N = "a string", "a non-negative number"
_SS, _NS = "an array of strings", "an array of non-negative numbers"
_FIELDS = {  # field -> what it must be, in the order dumps writes them
    "variant": _S, "ante_trimming_status": "true or false", "antes": _NS, "blinds_or_straddles": _NS,
    "bring_in": _N, "small_bet": _N, "big_bet": _N, "min_bet": _N, "starting_stacks": _NS, "actions": _SS,
    "author": _S, "event": _S, "hand": "an integer or a string", "players": _SS, "finishing_stacks": _NS,
}


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


@dataclass
class HandHistory:
    """One PHH hand; chips are ints (floats only for fractional chips)."""

    variant: str
    antes: list[Chips]
    starting_stacks: list[Chips]
    actions: list[str]
    blinds_or_straddles: list[Chips] | None = None
    min_bet: Chips | None = None
    small_bet: Chips | None = None
    big_bet: Chips | None = None
    bring_in: Chips | None = None
    finishing_stacks: list[Chips] | None = None
    players: list[str] | None = None
    hand: int | str | None = None
    ante_trimming_status: bool | None = None
    author: str | None = None
    event: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # every other field, as read


class Action(NamedTuple):
    """A parsed action line. ``actor``/``target`` are 0-based players (None: the dealer);
    ``verb`` is '' for a no-op; ``cards`` is None when the line names no cards (``sm``
    alone is a muck) and holds None for an unknown card '??'."""

    text: str
    actor: int | None
    verb: str
    target: int | None = None
    cards: tuple[Card | None, ...] | None = None
    amount: Chips | None = None
    dash: bool = False  # 'pN sm -': show the cards dealt before
    commentary: str | None = None


_ACTORS: dict[str, int] = {f"p{i}": i - 1 for i in range(1, 100)}
_CARD_TEXT: dict[str, Card | None] = {str(c): c for c in FULL_DECK} | {"??": None}


def _quick_cards(word: str) -> tuple[Card | None, ...] | None:
    """Cards written the usual way ('AsKd', '??'), or None to leave it to the full parser."""
    size = len(word)
    get = _CARD_TEXT.get
    if size == 4:  # the common cases first, without a loop
        pair = _PAIRS.get(word)
        if pair is not None:
            return pair
        cards: tuple[Card | None, ...] = (get(word[:2], _NOT_A_CARD), get(word[2:], _NOT_A_CARD))
    elif size == 2:
        cards = (get(word, _NOT_A_CARD),)
    elif size % 2:
        return None
    else:
        cards = tuple([get(word[k:k + 2], _NOT_A_CARD) for k in range(0, size, 2)])
    return None if _NOT_A_CARD in cards else cards


_NOT_A_CARD: Any = object()
# every two known cards as written in hole deals ('AsKd'): one look-up instead of two
_PAIRS: dict[str, tuple[Card | None, ...]] = {
    str(a) + str(b): (a, b) for a in FULL_DECK for b in FULL_DECK if a != b
}
_NEW = tuple.__new__


def _action(
    text: str, actor: int | None, verb: str, target: int | None = None,
    cards: tuple[Card | None, ...] | None = None, amount: int | None = None,
) -> Action:
    """An Action made at C speed (the named tuple's own constructor is Python code)."""
    return _NEW(Action, (text, actor, verb, target, cards, amount, False, None))


def _quick_action(text: str) -> Action | None:
    """The common lines without commentary, parsed fast; None for anything else."""
    words = text.split()
    count = len(words)
    if count == 4:
        if words[0] == "d" and words[1] == "dh":
            target, cards = _ACTORS.get(words[2]), _quick_cards(words[3])
            if target is not None and cards is not None:
                return _action(text, None, "dh", target, cards)
    elif count == 3:
        first, verb, arg = words
        if first == "d":
            if verb == "db":
                cards = _quick_cards(arg)
                return None if cards is None else _action(text, None, verb, None, cards)
            return None
        p = _ACTORS.get(first)
        if p is None:
            return None
        if verb == "cbr" and arg.isascii() and arg.isdigit() and arg[0] != "0":
            return _action(text, p, verb, amount=int(arg))
        if verb == "sm" and arg != "-":
            cards = _quick_cards(arg)
            return None if cards is None else _action(text, p, verb, cards=cards)
    return None


# The most frequent lines by far: immutable, so one shared Action each.
_COMMON: dict[str, Action] = {
    f"p{i} {verb}": _action(f"p{i} {verb}", i - 1, verb) for i in range(1, 100) for verb in ("f", "cc")
}


def parse_action(text: str) -> Action:
    """Parse one PHH action line (``'p3 cbr 225'``, ``'d db Qs9c4s # flop'``, ...)."""
    common = _COMMON.get(text)
    if common is not None:
        return common
    if "#" not in text:
        quick = _quick_action(text)
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


def _convert(kind: str, v: object) -> Any:
    if kind.startswith("an array of "):
        if not isinstance(v, list):
            raise ValueError(v)
        return [_convert("a " + kind[12:-1], x) for x in v]
    if kind == _N:
        if (value := _number(v)) < 0:
            raise ValueError(v)
        return value
    if not isinstance(v, {_S: str, "true or false": bool}.get(kind, int | str)) or (
            isinstance(v, bool) and kind != "true or false"):
        raise ValueError(v)
    return v


def _from_table(table: dict[str, Any]) -> HandHistory:
    variant = table.get("variant")
    required = ("variant", "antes", "starting_stacks", "actions", *_VARIANT_FIELDS.get(str(variant), ()))
    missing = [k for k in required if k not in table]
    if missing:
        raise PHHError(f"missing required field(s): {', '.join(missing)}")
    values, extra = {}, {}
    for key, v in table.items():
        kind = _FIELDS.get(key)
        if kind is None:
            extra[key] = v
            continue
        try:
            values[key] = _convert(kind, v)
        except ValueError:
            raise PHHError(f"{key} must be {kind}, got {v!r}") from None
    hh = HandHistory(**values, extra=extra)
    n = len(hh.starting_stacks)
    if n < 2 or not all(s > 0 for s in hh.starting_stacks):
        raise PHHError(f"starting_stacks must be at least two positive numbers, got {hh.starting_stacks}")
    for key in ("antes", "blinds_or_straddles", "finishing_stacks", "players"):
        value = getattr(hh, key)
        if value is not None and len(value) != n:
            raise PHHError(f"{key} has {len(value)} entries for {n} players")
    for i, text in enumerate(hh.actions):
        a = parse_action(text)
        if any(p is not None and p >= n for p in (a.actor, a.target)):
            raise PHHError(f"actions[{i}] {text!r}: there are only {n} players")
    return hh


_Items = list[tuple[int | None, HandHistory | PHHError]]


def _parse(text: str, multi: bool) -> _Items:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise PHHError(f"bad TOML: {e}") from None
    tables: list[tuple[int | None, Any]] = [(None, doc)]
    if multi:
        if not all(k.isdigit() and isinstance(t, dict) for k, t in doc.items()):
            raise PHHError("a .phhs file holds only tables [1], [2], ...")
        tables = [(int(k), t) for k, t in doc.items()]
    out: _Items = []
    for index, table in tables:
        try:
            out.append((index, _from_table(table)))
        except PHHError as e:
            out.append((index, e if index is None else PHHError(f"[{index}]: {e}")))
    return out


def _first_error(items: _Items) -> list[tuple[int | None, HandHistory]]:
    if errors := [hh for _, hh in items if isinstance(hh, PHHError)]:
        raise errors[0]
    return [(i, hh) for i, hh in items if isinstance(hh, HandHistory)]


@overload
def loads(text: str, multi: Literal[False] = False) -> HandHistory: ...
@overload
def loads(text: str, multi: Literal[True]) -> list[tuple[int | None, HandHistory]]: ...
def loads(text: str, multi: bool = False) -> HandHistory | list[tuple[int | None, HandHistory]]:
    """One hand from .phh text or, with ``multi``, [(table index, hand), ...] from .phhs text."""
    items = _first_error(_parse(text, multi))
    return items if multi else items[0][1]


def _read(path: Path) -> _Items:
    try:
        return _parse(path.read_text(encoding="utf-8"), path.suffix == ".phhs")
    except (OSError, UnicodeDecodeError) as e:
        raise PHHError(f"cannot read the file: {getattr(e, 'strerror', None) or e}") from None


def load(path: str | Path) -> list[tuple[int | None, HandHistory]]:
    """The hands of a .phh (index None) or .phhs file (index = table key)."""
    try:
        return _first_error(_read(Path(path)))
    except PHHError as e:
        raise PHHError(f"{path}: {e}") from None


# ---------------------------------------------------------------------------- writing

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}


def _toml(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "nan" if v != v else ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, str):
        return '"' + "".join(_ESCAPES.get(c) or (
            f"\\u{ord(c):04x}" if ord(c) < 32 or ord(c) == 127 else c) for c in v) + '"'
    if isinstance(v, datetime.date | datetime.time):
        return v.isoformat()
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    raise PHHError(f"cannot write a {type(v).__name__} value in PHH")


def dumps(hh: HandHistory) -> str:
    """A .phh TOML text for ``hh``; ``loads(dumps(hh)) == hh``."""
    lines = []
    for k, v in ({k: getattr(hh, k) for k in _FIELDS} | hh.extra).items():
        if k == "actions" and v:
            lines.append("actions = [\n" + "".join(f"  {_toml(a)},\n" for a in v) + "]")
        elif v is not None:
            lines.append(f"{k if re.fullmatch(r'[A-Za-z0-9_-]+', k) else _toml(k)} = {_toml(v)}")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- replay


def _whole(name: str, v: Chips | None) -> int:
    if not isinstance(v, int):
        raise UnsupportedError(f"unsupported: {name} is not a whole number of chips ({v!r})")
    return v


def game_of(hh: HandHistory) -> Game:
    """The engine's game for an NT, PT, FT or F7S hand; UnsupportedError for anything else."""
    _check_ante_trimming(hh)
    if hh.variant == STUD:
        return _stud_game_of(hh)
    structure = _STRUCTURES.get(hh.variant)
    if structure is None:
        name = VARIANT_NAMES.get(hh.variant, "a variant code we do not know")
        raise UnsupportedError(f"unsupported variant {hh.variant!r} ({name})")
    for name, values in (
        ("blinds_or_straddles", hh.blinds_or_straddles or ()),
        ("starting_stacks", hh.starting_stacks),
        ("antes", hh.antes),
    ):
        if not _INT_ONLY.issuperset(map(type, values)):
            for v in values:
                _whole(name, v)
    blinds: list[int] = hh.blinds_or_straddles or []  # type: ignore[assignment]
    # D10: one straddle, twice the big blind, by the player after the big blind (p3)
    straddle = len(blinds) > 2 and blinds[1] > 0 and blinds[2] == 2 * blinds[1] and not structure.fixed
    if any(blinds[3:] if straddle else blinds[2:]):
        raise UnsupportedError(f"unsupported: straddles (blinds_or_straddles {blinds}): only a third entry "
                               "of twice the big blind in no limit or pot limit")
    antes = {a for a in hh.antes if a}
    ante = int(antes.pop()) if len(antes) == 1 and all(hh.antes) else 0
    if len(blinds) < 2:
        raise PHHError(f"blinds_or_straddles needs at least two entries, got {blinds}")
    if structure.fixed:
        sizes = (_whole("small_bet", hh.small_bet), _whole("big_bet", hh.big_bet), 0)
    else:
        sizes = (0, 0, _whole("min_bet", hh.min_bet))
    game = _game(structure, blinds[0], blinds[1], ante, *sizes)
    if "_big_blind_player" in hh.extra:
        # our histories' mark of a big blind where PHH does not put it (no small blind): then
        # [2, 4, 0, 0] is a big blind of 2 and a straddle, which PHH would read as blinds 2/4
        raise UnsupportedError(f"unsupported: the big blind is p{hh.extra['_big_blind_player']}, "
                               "where PHH has no place for it (_big_blind_player)")
    return game


_INT_ONLY = frozenset((int,))
STUD = "F7S"


def _check_ante_trimming(hh: HandHistory) -> None:
    """Our rules split the antes at the level of a player all in on his ante (H13), which
    is PHH's ante_trimming_status = true; without it such a hand plays by other rules."""
    if hh.ante_trimming_status:
        return
    antes = list(hh.antes)[::-1] if len(hh.antes) == 2 else list(hh.antes)
    short = [p + 1 for p, (s, a) in enumerate(zip(hh.starting_stacks, antes, strict=False)) if s < a]
    if short:
        players = ", ".join(f"p{p}" for p in short)
        raise UnsupportedError(
            f"unsupported: ante_trimming_status is false and {players} cannot cover the ante"
        )


def _stud_game_of(hh: HandHistory) -> Game:
    for name in ("starting_stacks", "antes"):
        for v in getattr(hh, name):
            _whole(name, v)
    blinds = hh.blinds_or_straddles
    if blinds is not None and any(blinds):
        raise PHHError(f"stud has antes and a bring-in, not blinds (blinds_or_straddles {blinds})")
    antes = {a for a in hh.antes if a}
    ante = int(antes.pop()) if len(antes) == 1 and all(hh.antes) else 0
    return _stud_game(_whole("small_bet", hh.small_bet), _whole("big_bet", hh.big_bet), ante,
                      _whole("bring_in", hh.bring_in))


@lru_cache(maxsize=64)
def _stud_game(small: int, big: int, ante: int, bring_in: int) -> Game:
    try:
        return Game.stud(small, big, ante=ante, bring_in=bring_in)
    except GameError as e:
        raise PHHError(f"bad stakes: {e}") from None


@lru_cache(maxsize=256)
def _game(structure: Structure, sb: int, bb: int, ante: int, small: int, big: int, min_bet: int) -> Game:
    """Games are immutable values: one per set of stakes is enough."""
    try:
        if structure.fixed:
            return Game(structure, sb, bb, ante, small_bet=small, big_bet=big)
        return Game(structure, sb, bb, ante, min_bet=min_bet)
    except GameError as e:
        raise PHHError(f"bad stakes: {e}") from None


def _build_deck(acts: list[Action], n: int) -> tuple[list[Card], set[Card]]:
    """The deck in dealing order, and the cards we filled in for '??' or undealt cards."""
    holes: list[list[Card | None]] = [[] for _ in range(n)]
    board: list[Card | None] = []
    seen: dict[Card, int] = {}
    unknown = False
    for i, a in enumerate(acts):
        verb = a.verb
        if verb == "dh" or verb == "db":
            cards = a.cards
            if cards is None:
                continue
            if _note_cards(i, a, cards, seen):
                unknown = True
            (board if a.target is None else holes[a.target]).extend(cards)
        elif verb == "cbr":
            _whole(f"actions[{i}] {a.text!r}", a.amount)
        elif verb == "sd" or verb == "pb":
            what = "draws ('sd')" if verb == "sd" else "bring-ins ('pb') in hold'em"
            raise UnsupportedError(f"unsupported: actions[{i}] {a.text!r}: {what}")
    for p, dealt_to in enumerate(holes):
        if len(dealt_to) != 2:
            raise PHHError(f"p{p + 1} is dealt {len(dealt_to)} hole cards: hold'em needs 2")
    if len(board) > 5:
        raise PHHError(f"the file deals {len(board)} board cards: hold'em has 5")
    if unknown:  # a hand shown (at the showdown or after the hand, D12) reveals unknown hole cards
        for i, a in enumerate(acts):
            if a.verb == "sm" and a.cards and a.actor is not None:
                dealt = holes[a.actor]
                for k, c in enumerate(a.cards):
                    if c is not None and c not in dealt and None in dealt:
                        if c in seen:
                            raise _twice(i, a, c, seen[c])
                        seen[c] = i
                        dealt[k if k < len(dealt) and dealt[k] is None else dealt.index(None)] = c
    # burns, unknown cards and undealt board cards: the first cards the file does not use
    deck: list[Card] = []
    filled: set[Card] = set()
    k = 0
    burns = (2 * n, 2 * n + 4, 2 * n + 6)
    board += [None] * (5 - len(board))
    order = [holes[p][r] for r in range(2) for p in range(n)]
    for c in [*order, None, *board[:3], None, board[3], None, board[4]]:
        if c is None:
            while FULL_DECK[k] in seen:
                k += 1
            c = FULL_DECK[k]
            k += 1
            if len(deck) not in burns:
                filled.add(c)
        deck.append(c)
    return deck, filled


# A later stud street as the file deals it: (player, index into that player's cards), the
# player None for the community card.
_Street = list[tuple[int | None, int]]
_DECK_SIZE = len(FULL_DECK)


_Later = list[tuple[bool, list[Card | None]]]  # streets dealt after a reshuffle: (community?, cards)


def _build_stud_deck(acts: list[Action], n: int) -> tuple[list[Card], set[Card], _Later]:
    """Stud: the deck in dealing order, the cards that appear nowhere in the file (filled in
    for burns, '??' and cards the file does not deal), and the streets to deal after the
    engine reshuffles (community?, cards) in the order the file deals them."""
    holes: list[list[Card | None]] = [[] for _ in range(n)]
    board: list[Card | None] = []
    seen: dict[Card, int] = {}
    streets: list[_Street] = []
    current: _Street | None = None
    unknown = False
    for i, a in enumerate(acts):
        verb = a.verb
        if verb == "dh" or verb == "db":
            cards = a.cards
            if cards is None:
                continue
            if _note_cards(i, a, cards, seen):
                unknown = True
            if verb == "db":
                if len(cards) != 1 or board:
                    raise PHHError(f"actions[{i}] {a.text!r}: stud has at most one community card, dealt "
                                   "on a seventh street short of cards (S9): 'd db' with one card")
                board.append(cards[0])
                current = [(None, 0)]
                streets.append(current)
                continue
            p = a.target if a.target is not None else 0
            dealt = holes[p]
            if len(dealt) < 3:  # third street
                if len(dealt) + len(cards) > 3:
                    raise PHHError(f"actions[{i}] {a.text!r}: third street is three cards (two down, "
                                   f"one up), this makes {len(dealt) + len(cards)} for p{p + 1}")
                dealt.extend(cards)
                continue
            if len(cards) != 1:
                raise PHHError(f"actions[{i}] {a.text!r}: after third street a 'd dh' line deals one card")
            if len(dealt) == 7:
                raise PHHError(f"actions[{i}] {a.text!r}: p{p + 1} already has seven cards")
            short = [q for q in range(n) if len(holes[q]) < 3]
            if short:
                raise PHHError(f"actions[{i}] {a.text!r}: p{short[0] + 1} is not dealt third street yet")
            if current is None or current[0][0] is None or any(q == p for q, _ in current):
                current = []
                streets.append(current)
            current.append((p, len(dealt)))
            dealt.append(cards[0])
        elif verb == "f" or verb == "cc" or verb == "cbr" or verb == "pb":
            current = None  # a betting round: the next deal starts a street
            if verb == "cbr":
                _whole(f"actions[{i}] {a.text!r}", a.amount)
        elif verb == "sd":
            raise UnsupportedError(f"unsupported: actions[{i}] {a.text!r}: draws ('sd')")
    for p, dealt_to in enumerate(holes):
        if len(dealt_to) < 3:
            raise PHHError(f"p{p + 1} is dealt {len(dealt_to)} cards on third street: stud needs 3 "
                           "(two down, one up)")
    if unknown:  # a hand shown at the showdown reveals unknown cards, in dealing order
        for i, a in enumerate(acts):
            if a.verb == "sm" and a.cards and a.actor is not None:
                dealt = holes[a.actor]
                for k, c in enumerate(a.cards):
                    if c is not None and c not in dealt and None in dealt:
                        if c in seen:
                            raise _twice(i, a, c, seen[c])
                        seen[c] = i
                        dealt[k if k < len(dealt) and dealt[k] is None else dealt.index(None)] = c
    order: list[Card | None] = [holes[p][r] for r in range(3) for p in range(n)]
    burns: list[int] = []  # where the burns go in ``order``
    later: _Later = []
    for street in streets:
        community = street[0][0] is None
        street_cards = [board[0] if q is None else holes[q][k] for q, k in street]
        if later or community or _DECK_SIZE - len(order) < len(street_cards) + 1:
            later.append((community, street_cards))
        else:
            burns.append(len(order))
            order.append(None)
            order.extend(street_cards)
    # '??' first, then the burns: cards that appear nowhere in the file; when the burns are
    # reshuffled into the stub (S9), a burn may also be a card the file deals after that
    spare = [c for c in FULL_DECK if c not in seen]
    unknown_at = [k for k, c in enumerate(order) if c is None and k not in burns]
    reused = [c for _, cards in later for c in cards if c is not None]
    fill = [*spare, *reused]
    if len(unknown_at) > len(spare) or len(unknown_at) + len(burns) > len(fill):
        raise PHHError(f"the file deals more cards than a deck holds ({len(seen)} and {len(burns)} burns)")
    for k, c in zip([*unknown_at, *burns], fill, strict=False):
        order[k] = c
    deck = cast("list[Card]", order)
    in_deck = set(deck)
    deck += [c for c in FULL_DECK if c not in in_deck]
    return deck, set(spare), later


class _Reshuffle:
    """The ``reshuffle`` callback of a stud replay (S9, D4): the stub and the burned cards
    reshuffled so that the cards the file deals next come first, a burn before each street
    (spare cards for burns and '??')."""

    def __init__(self, later: _Later) -> None:
        self.later = later

    def __call__(self, pool: tuple[Card, ...]) -> list[Card]:
        rest = list(pool)
        wanted = {c for _, cards in self.later for c in cards if c is not None}
        order: list[Card] = []
        while self.later:
            community, cards = self.later[0]
            if not community and len(rest) < len(cards) + 1:
                break  # the engine will deal a community card: the replay reports the difference
            gone = [c for c in cards if c is not None and c not in rest]
            if gone:
                raise PHHError(f"the file deals {_fmt(gone)} after the burned cards were shuffled into the "
                               f"stub (S9), but the {len(pool)} cards reshuffled are {_fmt(sorted(pool))}")
            slots: list[Card | None] = [None, *cards] if not community or len(rest) >= 2 else list(cards)
            for c in slots:
                if c is None:
                    free = [x for x in rest if x not in wanted]
                    if not free:
                        raise PHHError(f"too few cards to burn after the reshuffle: {_fmt(sorted(pool))}")
                    c = free[0]
                rest.remove(c)
                order.append(c)
            wanted.difference_update(cards)
            del self.later[0]
        return order + rest


def _finish(hand: Hand, filled: set[Card]) -> Hand:
    """After the file's last action: a showdown left undecided is finished by showing the
    hands (cards speak); a hand still in its betting is an error. A showdown must not need
    a card the file left unknown."""
    if not hand.complete:
        if hand.phase != SHOWDOWN:
            street = hand.street_name if hand.game.stud_game else f"the {hand.street_name}"
            raise ReplayError(None, "", f"the actions end before the hand is over: p{(hand.actor or 0) + 1} "
                                        f"is to act on {street}")
        while hand.actor is not None:
            hand.show(hand.actor)
    if filled and hand.reached_showdown:
        _check_known(hand, filled)
    return hand


def _note_cards(i: int, a: Action, cards: tuple[Card | None, ...], seen: dict[Card, int]) -> bool:
    """Record where the file deals each card; True if one is unknown ('??'). A card dealt
    twice is an error naming both places."""
    unknown = False
    for c in cards:
        if c is None:
            unknown = True
        elif c in seen:
            raise _twice(i, a, c, seen[c])
        else:
            seen[c] = i
    return unknown


def _twice(i: int, a: Action, c: Card, first: int) -> PHHError:
    return PHHError(f"actions[{i}] {a.text!r}: card {c} appears twice (also actions[{first}])")


def _fmt(cards: Iterable[Card | None]) -> str:
    return "".join("??" if c is None else str(c) for c in cards)


def _same(said: tuple[Card | None, ...], actual: list[Card], what: str) -> None:
    if len(said) != len(actual) or any(c is not None and c not in actual for c in said):
        raise PHHError(f"the file says {what} {_fmt(said)}, the engine has {_fmt(actual)}")


def replay(hh: HandHistory) -> Hand:
    """Replay ``hh`` strictly with the engine; returns the finished hand."""
    game = game_of(hh)
    n = len(hh.starting_stacks)
    acts = [parse_action(a) for a in hh.actions]
    if game.variant == "stud":
        return _replay_stud(hh, game, acts)
    deck, filled = _build_deck(acts, n)
    order = slice(None, None, -1 if n == 2 else 1)  # heads-up: forced bets reversed, p1 is the big blind
    antes = cast("list[int]", hh.antes)[order]  # game_of checked that these are whole chips
    blinds = cast("list[int]", hh.blinds_or_straddles)[order]
    try:
        hand = Hand(game, cast("list[int]", hh.starting_stacks), deck, antes=antes, blinds=blinds,
                    big_blind_position=0 if n == 2 else 1, _trusted=True)  # _build_deck checked it
    except (GameError, CardError) as e:
        raise PHHError(f"cannot start the hand: {e}") from None
    board_seen, started = 0, False
    board = hand.board
    fold, check_call, bet_raise = hand.fold, hand.check_call, hand.bet_raise
    for i, a in enumerate(acts):
        verb = a.verb
        try:
            if verb == "f" or verb == "cc" or verb == "cbr":
                if board_seen < len(board):
                    raise PHHError(f"no 'd db' line for the {_fmt(board[board_seen:])} the engine dealt")
                started = True
                if verb == "f":
                    fold(a.actor)
                elif verb == "cc":
                    check_call(a.actor)
                else:
                    bet_raise(a.amount, a.actor)
            elif verb == "dh":
                # the deck was built from these very lines, so the cards match by construction
                if started:
                    raise PHHError("hole cards are dealt after the hand has begun")
            elif verb == "db":
                started = True
                cards = a.cards
                assert cards is not None
                need = 3 if board_seen == 0 else 1
                if board_seen >= 5 or len(cards) != need:
                    raise PHHError(f"this 'd db' line should deal {need} card(s), the "
                                   f"{STREET_NAMES[min(3, 1 + max(0, board_seen - 2))]}")
                if len(board) < board_seen + need:
                    who = f"p{hand.actor + 1} is to act" if hand.actor is not None else "the hand is over"
                    raise PHHError(f"the board is dealt before the betting is over ({who})")
                _same(cards, board[board_seen:board_seen + need], "the board has")
                board_seen += need
            elif verb == "sm":
                started = True
                _show_or_muck(hand, a)
        except IllegalAction as illegal:
            turn = f" (p{(hand.actor or 0) + 1} is to act)" if illegal.code == "not_your_turn" else ""
            raise ReplayError(i, a.text, f"{illegal}{turn}", illegal.code) from None
        except PHHError as error:
            raise ReplayError(i, a.text, str(error)) from None
    return _finish(hand, filled)


def _check_known(hand: Hand, filled: set[Card]) -> None:
    """The hands the showdown evaluated hold no card we filled in."""
    for ev in hand.events:
        if type(ev) is PotAwarded and ev.value is not None:  # a hand was evaluated
            for p in ev.eligible:
                if p not in hand.mucked and filled.intersection(hand.holes[p]):
                    what = "cards" if hand.game.variant == "stud" else "hole cards"
                    raise PHHError(f"p{p + 1}'s {what} are unknown, but the showdown needs them")
            if filled.intersection(hand.board):
                raise PHHError("the showdown needs the whole board, but the file does not deal all of it")


def _replay_stud(hh: HandHistory, game: Game, acts: list[Action]) -> Hand:
    """``replay`` for seven card stud (F7S)."""
    n = len(hh.starting_stacks)
    deck, filled, later = _build_stud_deck(acts, n)
    antes = cast("list[int]", hh.antes)[::-1 if n == 2 else 1]  # as PokerKit: reversed heads-up
    try:
        hand = Hand(game, cast("list[int]", hh.starting_stacks), deck, antes=antes,
                    reshuffle=_Reshuffle(later) if later else None)
    except (GameError, CardError) as e:
        raise PHHError(f"cannot start the hand: {e}") from None
    holes, board = hand.holes, hand.board
    dealt = [0] * n  # the cards of each player the file has dealt so far
    board_seen = 0
    for i, a in enumerate(acts):
        verb = a.verb
        try:
            if verb == "f" or verb == "cc" or verb == "cbr" or verb == "pb":
                _all_dealt(hand, dealt, board_seen)
                if verb == "f":
                    hand.fold(a.actor)
                elif verb == "cc":
                    hand.check_call(a.actor)
                elif verb == "cbr" and not _all_in_bring_in(hand, a):
                    hand.bet_raise(a.amount, a.actor)
                else:
                    hand.bring_in(a.actor)
            elif verb == "dh":
                p = a.target if a.target is not None else 0
                cards = a.cards or ()
                k = dealt[p]
                if len(holes[p]) < k + len(cards):
                    raise PHHError(_why_not_dealt(hand, p, board_seen))
                _same_order(cards, holes[p][k:k + len(cards)], f"the file deals p{p + 1}", "the engine dealt")
                dealt[p] = k + len(cards)
            elif verb == "db":
                if len(board) <= board_seen:
                    live = [q for q in range(n) if not hand.folded[q]]
                    if live and len(holes[live[0]]) == 7:
                        raise PHHError("the engine dealt seventh street to every player: there were enough "
                                       "cards, a community card is only for a deck short of cards (S9, D4)")
                    if hand.phase == BETTING and hand.actor is not None:
                        raise PHHError(f"the card is dealt before the betting is over "
                                       f"(p{hand.actor + 1} is to act)")
                    raise PHHError("the engine deals no community card here")
                _same_order(a.cards or (), board[board_seen:board_seen + 1],
                            "the file deals the community card", "the engine dealt")
                board_seen += 1
            elif verb == "sm":
                _show_or_muck(hand, a)
        except IllegalAction as illegal:
            turn = f" (p{(hand.actor or 0) + 1} is to act)" if illegal.code == "not_your_turn" else ""
            raise ReplayError(i, a.text, f"{illegal}{turn}", illegal.code) from None
        except PHHError as error:
            raise ReplayError(i, a.text, str(error)) from None
    return _finish(hand, filled)


def _all_in_bring_in(hand: Hand, a: Action) -> bool:
    """Whether 'pN cbr X' is how PokerKit writes a bring-in all in: X is all the player
    has, no more than the bring-in, and he may only post it (case 40)."""
    p = a.actor
    if p is None or a.amount is None or a.amount > hand.game.bring_in or hand.street or hand.actor != p:
        return False
    legal = hand.legal_actions()
    return bool(legal.bring_in) and legal.min_to is None and a.amount == hand.bets[p] + hand.stacks[p]


def _all_dealt(hand: Hand, dealt: list[int], board_seen: int) -> None:
    """Every card the engine dealt has its 'd dh'/'d db' line before the next action."""
    for p, cards in enumerate(hand.holes):
        if len(cards) > dealt[p]:
            raise PHHError(f"no 'd dh' line for the {_fmt(cards[dealt[p]:])} the engine dealt to p{p + 1}")
    if len(hand.board) > board_seen:
        raise PHHError(f"no 'd db' line for the community card {hand.board[board_seen]} the engine dealt")


def _why_not_dealt(hand: Hand, p: int, board_seen: int) -> str:
    if hand.folded[p]:
        return f"p{p + 1} has folded"
    if len(hand.board) > board_seen:
        return (f"the engine dealt a community card ({hand.board[board_seen]}) instead: too few cards "
                "for every player (S9, D4)")
    if hand.phase == BETTING and hand.actor is not None:
        return f"the card is dealt before the betting is over (p{hand.actor + 1} is to act)"
    if len(hand.holes[p]) == 7:
        return f"p{p + 1} already has seven cards"
    return "the hand is over" if hand.complete else f"the engine deals no more cards to p{p + 1}"


def _same_order(said: tuple[Card | None, ...], actual: list[Card], what: str, engine: str) -> None:
    if len(said) != len(actual) or any(c is not None and c != d for c, d in zip(said, actual, strict=True)):
        raise PHHError(f"{what} {_fmt(said)}, {engine} {_fmt(actual)}")


def _show_or_muck(hand: Hand, a: Action) -> None:
    p = a.actor if a.actor is not None else -1
    if hand.complete and p not in hand.reached_showdown and (a.cards is not None or a.dash):
        # D12: a show at the end of the hand by a player who won uncontested or folded
        if a.cards is not None:
            _same(a.cards, hand.holes[p], f"p{p + 1} shows")
        return
    # shown automatically, or the last hand left after the others mucked (it wins unseen):
    # a line showing it confirms the cards
    done = p in hand.shown or (hand.complete and p in hand.reached_showdown and p not in hand.mucked)
    if done or p in hand.mucked:
        if (a.cards is None and not a.dash) or p in hand.mucked:
            how = "mucked" if p in hand.mucked else "shown" if p in hand.shown else "decided (it won unseen)"
            raise PHHError(f"p{p + 1}'s hand was already {how}")
    elif a.cards is None and not a.dash:
        hand.muck(p)
        return
    else:
        hand.verify_show(p)
    if a.cards is not None:
        have = hand.holes[p]
        if done and len(a.cards) < len(have) and hand.game.variant == "stud":
            # shown before the last cards were dealt (an all-in run-out): the first cards, in order
            _same_order(a.cards, have[:len(a.cards)], f"the file says p{p + 1} shows",
                        f"the engine dealt {_fmt(have)}, starting")
        else:
            _same(a.cards, have, f"p{p + 1} shows")
    if not done:
        hand.show(p)


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
    """Replay ``hh`` and compare our final stacks with its ``finishing_stacks``."""
    expected = hh.finishing_stacks
    try:
        hand = replay(hh)
        ours = list(hand.stacks)
    except UnsupportedError as unsupported:
        return ReplayResult(path, index, hh.variant, None, expected, None, str(unsupported), unsupported=True)
    except PHHError as error:
        return ReplayResult(path, index, hh.variant, None, expected, False, str(error))
    if expected is None or all(isinstance(x, int) for x in expected):
        ok = None if expected is None else ours == expected
        return ReplayResult(path, index, hh.variant, ours, expected, ok)
    diffs = [o - x for o, x in zip(ours, expected, strict=True)]
    # half chips are a split pot's odd chip: only the winners of such a pot may differ
    odd = {p for e in hand.events if type(e) is PotAwarded and e.amount % len(e.winners) for p in e.winners}
    ok = sum(ours) == sum(expected) and all(
        d == 0 or (abs(d) == 0.5 and p in odd) for p, d in enumerate(diffs)
    )
    gets = ", ".join(f"p{p + 1}" for p, d in enumerate(diffs) if d > 0)
    note = (f"recorded in half chips: a split pot's odd chip, which whole-chip play gives to {gets} "
            "(the first winner left of the button)") if ok else None
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
                items = [(None, e)]
            for index, hh in items:
                if isinstance(hh, PHHError):
                    yield ReplayResult(str(file), index, None, None, None, False, str(hh))
                else:
                    yield verify(hh, str(file), index)
