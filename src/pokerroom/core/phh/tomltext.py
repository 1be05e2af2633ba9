"""The TOML of PHH files, read fast; tomllib for anything else.

``loads(text)`` returns what ``tomllib.loads(text)`` returns, or raises its
``TOMLDecodeError``. Reading the Pluribus hands, tomllib took most of a replay's time
(0.67 s of 1.23 s for 4,687 hands), so the TOML that PHH files are made of is read here:
bare keys, ``[1]`` table headers, comments, literal and escape-free basic strings,
decimal integers and plain floats, local times (``time = 00:00:01``), booleans and arrays
of these. Files written one statement a line, as PokerKit writes them, are read a line
at a time with string methods (``_lines``: 0.035 s for the 46 Pluribus files, compiled);
other texts by regular expressions (``_regex``: an array of strings or numbers in one
match; 0.14 s for the same files). Whatever falls outside that subset, an error included,
is handed to tomllib whole, so the answer and the error messages are always tomllib's
(tests/core/test_phh_toml.py and the fuzzer compare them).
"""

from __future__ import annotations

import datetime
import re
import sys
import tomllib
from typing import Any, Final

TOMLDecodeError = tomllib.TOMLDecodeError

# TOML forbids control characters other than tab in comments and strings
_TEXT = r"[^\x00-\x08\x0a-\x1f\x7f"
_COMMENT = "#" + _TEXT + "]*"
_EOL = re.compile(r"[ \t]*(?:" + _COMMENT + r")?(?:\n|\Z)")
_BLANK = re.compile(r"(?:[ \t]*(?:" + _COMMENT + r")?\n)*[ \t]*")  # empty and comment lines
_ARRAY_SPACE = re.compile(r"(?:[ \t\n]|" + _COMMENT + r")*")
_KEY = re.compile(r"([A-Za-z0-9_-]+)[ \t]*=[ \t]*")
_HEADER = re.compile(r"\[[ \t]*([A-Za-z0-9_-]+)[ \t]*\]")
_LITERAL = re.compile("'(" + _TEXT + "']*)'")
_BASIC = re.compile('"(' + _TEXT + '"\\\\]*)"')
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?")
_TIME = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9])")  # a local time, whole seconds
_AFTER_SCALAR = frozenset(" \t\n#,]")


# the common arrays in one match each: strings of one kind of quotes, or numbers
def _array_of(item: str) -> re.Pattern[str]:
    space = r"[ \t\n]*"
    return re.compile(r"\[" + space + "(?:" + item + space + "," + space + ")*(?:" + item + space + r")?\]")


_LITERALS = _array_of("'" + _TEXT + "']*'")
_LITERAL_ITEMS: Final = re.compile("'([^']*)'")
_BASICS = _array_of('"' + _TEXT + '"\\\\]*"')
_BASIC_ITEMS: Final = re.compile('"([^"]*)"')
_NUMBERS = _array_of(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?")


# One line (or one array over several lines) in one match: a key and a value of one of the
# shapes below (the group says which), a table header, or only a comment. What follows the
# value must end the line, so 1_000, 1979-05-27 or a multi-line string do not match.
_LINE: Final = re.compile(
    r"[ \t]*(?:([A-Za-z0-9_-]+)[ \t]*=[ \t]*(?:"
    r"'(" + _TEXT + r"']*)'"  # 2: a literal string
    r'|"(' + _TEXT + r'"\\]*)"'  # 3: a basic string without escapes
    r"|(-?(?:0|[1-9][0-9]*)\.[0-9]+)"  # 4: a float
    r"|(-?(?:0|[1-9][0-9]*))"  # 5: an integer
    r"|(true|false)"  # 6
    r"|((?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9])"  # 7: a local time
    r"|(" + _LITERALS.pattern + ")"  # 8: an array of literal strings
    r"|(" + _BASICS.pattern + ")"  # 9: an array of basic strings
    r"|(" + _NUMBERS.pattern + ")"  # 10: an array of numbers
    r")|\[[ \t]*([A-Za-z0-9_-]+)[ \t]*\])?"  # 11: a table header
    r"[ \t]*(?:" + _COMMENT + r")?(?:\n|\Z)"
)


def loads(text: str) -> dict[str, Any]:
    """``tomllib.loads(text)``, fast for the TOML of PHH files."""
    doc = _fast(text)
    return tomllib.loads(text) if doc is None else doc


def _fast(text: str) -> dict[str, Any] | None:
    """The document, or None when ``text`` is not in the subset read here (or not TOML):
    line by line for the usual one-line statements, else by the regular expressions."""
    doc = _lines(text)
    return _regex(text) if doc is None else doc


# ---------------------------------------------------------------------------- line by line
# Most PHH files are one statement a line, as PokerKit writes them: ``[1]``, ``# source``,
# ``key = 'text'``, ``key = 100``, ``key = 10112.5``, ``key = true`` and one-line arrays
# (``actions = ['d dh p1 AsKs', 'p1 f']``, ``antes = [0, 0]``). Those are read with string
# methods only; any other line sends the whole text to the regular expressions below.

# Control characters (a CR included) but tab and the newline: left to tomllib, which
# refuses them outside strings and comments.
_CONTROL: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_CONTROL_BYTES: Final = bytes([*range(9), *range(11, 32), 127])


def _has_control(text: str) -> bool:
    if text.isascii():  # deleting them from the bytes is three times as fast as searching
        data = text.encode("ascii")
        return len(data.translate(None, _CONTROL_BYTES)) != len(data)
    return _CONTROL.search(text) is not None


_BARE: Final = re.compile(r"[A-Za-z0-9_-]+")
_KEYS: Final[dict[str, str]] = {}  # bare keys already checked (a few dozen in PHH files)


def _bare(key: str) -> str | None:
    """``key`` as one interned string if it is a bare key, else None. The tables' keys are
    then the very strings that the readers of the fields look up (compiled code interns its
    literals): a look-up compares pointers, not characters."""
    known = _KEYS.get(key)
    if known is not None:
        return known
    if _BARE.fullmatch(key) is None:
        return None
    known = sys.intern(key)
    if len(_KEYS) < 1024:
        _KEYS[known] = known
    return known


def _lines(text: str) -> dict[str, Any] | None:
    """The document, or None unless every line is empty, a comment, a ``[key]`` header or
    ``key = value`` (one space each side of ``=``, nothing after the value) with a value of
    the shapes ``_line_value`` reads."""
    if _has_control(text):
        return None
    doc: dict[str, Any] = {}
    table = doc
    arrays: dict[str, tuple[Any, ...]] = {}  # arrays of numbers read so far, by text
    numbers: dict[str, Any] = {}  # the numbers in them, by text
    # short statements read before, by line: (key, value; an array as a tuple, copied into
    # a new list each time). The stakes, the stacks and the variant repeat from hand to hand
    seen: dict[str, tuple[str, Any]] = {}
    for line in text.split("\n"):
        if not line:
            continue
        first = line[0]
        if first == "#":
            continue
        if first == "[":
            name = _bare(line[1:-1])
            if line[-1] != "]" or name is None or name in doc:
                return None
            table = doc[name] = {}
            continue
        short = len(line) <= _SHORT
        if short:
            known = seen.get(line)
            if known is not None:
                name, value = known
                if name in table:
                    return None
                table[name] = list(value) if type(value) is tuple else value
                continue
        written, sep, text_value = line.partition(" = ")
        key = _bare(written)
        if not sep or key is None or key in table:
            return None
        value = _line_value(text_value, arrays, numbers)
        if value is None:
            return None
        table[key] = value
        if short:
            seen[line] = (key, tuple(value) if type(value) is list else value)
    return doc


_SHORT: Final = 64  # longer lines (actions, players) seldom repeat: not worth a look-up


def _line_value(text: str, arrays: dict[str, tuple[Any, ...]], known_numbers: dict[str, Any]) -> Any:
    """The value written ``text`` (a whole line's), or None: a literal string or a basic
    string without escapes, a decimal integer or plain float, true or false, or an array
    of these strings (``', '`` or ``", "`` between them) or of these numbers (``, ``; those
    already in ``arrays`` are copied from there: antes, blinds and stacks repeat from hand
    to hand, and so do the numbers in the arrays, kept in ``known_numbers``)."""
    if not text:
        return None
    first = text[0]
    if first == "'" or first == '"':
        if len(text) < 2 or text[-1] != first or text.count(first) != 2 or (first == '"' and "\\" in text):
            return None
        return text[1:-1]
    if first == "[":
        if text[-1] != "]":
            return None
        size = len(text)
        if size == 2:
            return []
        quote = text[1]
        if quote == "'" or quote == '"':
            # each quote is either an outer one or one of a separator: no quote is inside a string
            if size < 4 or text[-2] != quote or (quote == '"' and "\\" in text):
                return None
            items = text[2:-2].split(quote + ", " + quote)
            return items if text.count(quote) == 2 * len(items) else None
        inner = text[1:-1]
        known = arrays.get(inner)
        if known is not None:
            return list(known)
        numbers: list[Any] = []
        for word in inner.split(", "):
            number = known_numbers.get(word)
            if number is None:
                number = _line_number(word)
                if number is None:
                    return None
                known_numbers[word] = number
            numbers.append(number)
        arrays[inner] = tuple(numbers)
        return numbers
    if text == "true":
        return True
    if text == "false":
        return False
    return _line_number(text)


def _line_number(text: str) -> int | float | None:
    """A decimal integer (``-12``, no leading zero, no ``_``) or a plain float (``10112.5``),
    ASCII digits only; None for anything else."""
    digits = text[1:] if text.startswith("-") else text
    whole, dot, fraction = digits.partition(".")
    if not whole.isascii() or not whole.isdigit() or (len(whole) > 1 and whole[0] == "0"):
        return None
    if not dot:
        return int(text)
    if not fraction.isascii() or not fraction.isdigit():
        return None
    return float(text)


# ---------------------------------------------------------------------------- by regular expressions


def _regex(text: str) -> dict[str, Any] | None:
    """The document read by the regular expressions below, or None (not in the subset)."""
    if "\r" in text:  # CRLF files: tomllib's
        return None
    doc: dict[str, Any] = {}
    table = doc
    pos, end = 0, len(text)
    match = _LINE.match
    while pos < end:
        line = match(text, pos)
        if line is None:  # a value of another shape (nested, commented arrays...): piece by piece
            pos, table = _statement(text, pos, doc, table)
            if pos < 0:
                return None
            continue
        pos = line.end()
        key = line.group(1)
        if key is None:
            header = line.group(11)
            if header is not None:
                if header in doc:
                    return None
                table = doc[header] = {}
            continue
        if key in table:
            return None
        kind = line.lastindex or 0
        value = line.group(kind)
        if kind == 2 or kind == 3:
            table[key] = value
        elif kind == 4:
            table[key] = float(value)
        elif kind == 5:
            table[key] = int(value)
        elif kind == 6:
            table[key] = value == "true"
        elif kind == 7:
            table[key] = datetime.time(int(value[:2]), int(value[3:5]), int(value[6:]))
        elif kind == 8:
            table[key] = _LITERAL_ITEMS.findall(value)
        elif kind == 9:
            table[key] = _BASIC_ITEMS.findall(value)
        else:
            table[key] = [float(x) if "." in x else int(x) for x in value[1:-1].replace(",", " ").split()]
    return doc


def _statement(
    text: str, pos: int, doc: dict[str, Any], table: dict[str, Any]
) -> tuple[int, dict[str, Any]]:
    """One statement the line pattern does not take, read piece by piece into ``doc`` or
    ``table``: the position after it (-1: not in the subset) and the table now in use."""
    pos = _BLANK.match(text, pos).end()  # type: ignore[union-attr]  # matches the empty string
    if pos >= len(text):
        return pos, table
    if text[pos] == "[":
        header = _HEADER.match(text, pos)
        if header is None or header.group(1) in doc:
            return -1, table
        table = doc[header.group(1)] = {}
        pos = header.end()
    else:
        key = _KEY.match(text, pos)
        if key is None or key.group(1) in table:
            return -1, table
        value, pos = _value(text, key.end())
        if pos < 0:
            return -1, table
        table[key.group(1)] = value
    eol = _EOL.match(text, pos)
    return (-1 if eol is None else eol.end()), table


def _value(text: str, pos: int) -> tuple[Any, int]:
    """The value at ``pos`` and the position after it; position -1: not in the subset."""
    if pos >= len(text):
        return None, -1
    first = text[pos]
    if first == "[":
        return _array(text, pos)
    if first == "'":
        m = _LITERAL.match(text, pos)
    elif first == '"':
        m = _BASIC.match(text, pos)
    else:
        if text.startswith("true", pos):
            value: Any = True
            after = pos + 4
        elif text.startswith("false", pos):
            value, after = False, pos + 5
        elif text.startswith(":", pos + 2):
            time = _TIME.match(text, pos)
            if time is None:
                return None, -1
            value = datetime.time(int(time.group(1)), int(time.group(2)), int(time.group(3)))
            after = time.end()
        else:
            number = _NUMBER.match(text, pos)
            if number is None:
                return None, -1
            after = number.end()
            value = float(number.group()) if number.group(1) else int(number.group())
        if after < len(text) and text[after] not in _AFTER_SCALAR:
            return None, -1  # a date, 1_000, 0x1f, inf, 12:30:00.5, truex...: tomllib's
        return value, after
    if m is None:
        return None, -1
    after = m.end()
    if after < len(text) and text[after] in "'\"":
        return None, -1  # a multi-line string ('''...''' or """..."""): tomllib's
    return m.group(1), after


def _array(text: str, pos: int) -> tuple[Any, int]:
    m = _LITERALS.match(text, pos)
    if m is not None:
        return _LITERAL_ITEMS.findall(text, pos, m.end()), m.end()
    m = _BASICS.match(text, pos)
    if m is not None:
        return _BASIC_ITEMS.findall(text, pos, m.end()), m.end()
    m = _NUMBERS.match(text, pos)
    if m is not None:
        inner = text[pos + 1:m.end() - 1].replace(",", " ").split()
        return [float(x) if "." in x else int(x) for x in inner], m.end()
    items: list[Any] = []
    pos += 1
    while True:
        pos = _ARRAY_SPACE.match(text, pos).end()  # type: ignore[union-attr]  # matches the empty string
        if pos < len(text) and text[pos] == "]":
            return items, pos + 1
        value, pos = _value(text, pos)
        if pos < 0:
            return None, -1
        items.append(value)
        pos = _ARRAY_SPACE.match(text, pos).end()  # type: ignore[union-attr]
        if pos >= len(text):
            return None, -1
        if text[pos] == ",":
            pos += 1
        elif text[pos] != "]":
            return None, -1
