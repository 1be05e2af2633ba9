"""The fast reader of PHH's TOML (pokerroom.core.phh.tomltext) against tomllib, the
reference: on every real and fuzz-corpus file it reads the same document itself; on
anything else it either gives tomllib's answer or hands the text to tomllib (its result,
its error), never a different document."""

from __future__ import annotations

import datetime
import random
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from pokerroom.core.phh import PHHError, loads, tomltext
from tests.oracles.data import missing_message, shared_phh

CORPUS = Path(__file__).resolve().parents[1] / "fuzz" / "corpus" / "phh"
DATA = shared_phh()


def reference(text: str) -> dict[str, Any] | None:
    """tomllib's document, None when tomllib refuses the text."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return None


def same(a: object, b: object) -> bool:
    """Equal, and of the same types all the way down (1 == 1.0, but not here)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return a == b or (a != a and b != b)  # nan


def agrees(text: str) -> bool:
    """The fast reader read ``text`` itself (True) or left it to tomllib (False); either way
    nothing it returns differs from tomllib's, nor does what its line-by-line part returns."""
    by_lines = tomltext._lines(text)
    if by_lines is not None:
        assert same(by_lines, reference(text)), text
    fast = tomltext._fast(text)
    if fast is not None:
        assert same(fast, reference(text)), text
    return fast is not None


def test_every_real_and_corpus_file_is_read_by_the_fast_reader_as_tomllib_reads_it() -> None:
    if not DATA.is_dir():
        pytest.fail(missing_message(DATA), pytrace=False)
    files = sorted(p for p in DATA.rglob("*") if p.suffix in (".phh", ".phhs")) + sorted(CORPUS.iterdir())
    assert len(files) > 70
    assert [f for f in files if not agrees(f.read_text(encoding="utf-8"))] == []


@pytest.mark.parametrize("text", [
    "a = 1\nb = -2\nc = 0\nd = 10112.5\ne = -0.0\n",
    "a = 'x'\nb = \"y z\"\nc = true\nd = false\n",
    "a = [1, 2, 3,]\nb = []\nc = [ 'p1 f' , 'p2 cc' ]\n",
    "actions = [\n  \"d dh p1 AsKs\",\n  \"p1 f\",\n]\n",
    "a = [1, 'x', [2.5, true], []]  # mixed, nested\n",
    "# c\n\n[1]\n# source: x\nv = 'NT'\n[2]\nv = 'FT' # c\n",
    "t = 00:00:01\nu = 23:59:59\n",
    "a = [ # comment\n 1, # one\n 2 ]\n",
    "  indented = 1\n\tkey = 'tab'\n",
    "a = 1", "", "\n\n", "a = 'tab\tinside'\n",
])
def test_the_subset_is_read_like_tomllib(text: str) -> None:
    assert agrees(text)


@pytest.mark.parametrize("text", [
    "a = 1\na = 2\n", "[1]\n[1]\n", "a = 1\n[a]\n", "a = 01\n", "a = 1_000\n", "a = +1\n", "a = 1.\n",
    "a = .5\n", "a = 1e5\n", "a = inf\n", "a = nan\n", "a = 0x1f\n", "a = 1979-05-27\n", "a = 24:00:00\n",
    "a = 12:30:00.5\n", "a = 'x\ny'\n", "a = '''x'''\n", 'a = """x"""\n', 'a = "\\n"\n', "a = \"x\n",
    "a = {b = 1}\n", "a.b = 1\n", "'a' = 1\n", "[[a]]\n", "[a.b]\n", "a = [1 2]\n", "a = [1,,2]\n",
    "a = [,]\n", "a = [1\n", "a = 1 b = 2\n", "a = truex\n", "a = 1\r\nb = 2\r\n", "a =\n1\n", "= 1\n",
    "a = 1 # bad \x01 comment\n", "\ufeffa = 1\n", "a = 'x' 'y'\n", "a = [1] x\n", "[1] x\n", "a = tru\n",
    "a = -\n", "a = [", "a = ", "[1",
])
def test_outside_the_subset_tomllib_decides(text: str) -> None:
    assert not agrees(text)


@pytest.mark.parametrize("text", [
    "a = 1\nb = -2\nc = 0\nd = 10112.5\ne = -0.0\nf = 123456789012345678901234567890\n",
    "[1]\n# source: x\nvariant = 'NT'\nactions = ['d dh p1 AsKs', 'p1 f']\n\n[2]\nvariant = 'FT'\n",
    "antes = [0, 0, 0]\nstacks = [10000, 10000, 10000]\nfinishing_stacks = [10112.5, 9775.0, -1, 0.0]\n",
    "a = \"it's\"\nb = 'say \"hi\"'\nc = ['it\"s', 'x # y', '[z]', ' = ']\nd = [\"it's\", \"a, b\"]\n",
    "a = []\nb = ['']\nc = ['', '']\nd = ['x']\ne = [1]\nf = ''\ng = \"\"\nh = [\"\"]\n",
    "a = 'tab\tinside'\nb = '\u00e9 \u2660 \\ not an escape'\nc = ['\\d', '\\']\n",
    "a = true\nb = false\nc = [-1, 2.5, 0]\n", "a = 1", "", "\n\n", "# only\n#comments\n# \u00e9\t\n",
    "key_with-dash = 1\n[table_1-b]\nA9 = 'x'\n[2]\nA9 = 'y'\n",
])
def test_most_lines_are_read_by_string_methods(text: str) -> None:
    """PHH's usual one-line statements are read line by line, as tomllib reads them."""
    assert tomltext._lines(text) is not None
    assert agrees(text)


def test_arrays_read_line_by_line_are_not_shared() -> None:
    doc = tomltext.loads("a = [0, 0]\nb = [0, 0]\n[1]\na = [0, 0]\n")
    doc["a"].append(1)
    assert doc == {"a": [0, 0, 1], "b": [0, 0], "1": {"a": [0, 0]}}


def test_lines_read_before_give_new_arrays_and_still_refuse_a_repeated_key() -> None:
    """Short lines seen before in the text are not parsed again (the stakes repeat from hand
    to hand): each table still gets arrays of its own, and a key twice is still tomllib's error."""
    text = "[1]\nv = 'NT'\na = [0, 0]\np = ['x', 'y']\n[2]\nv = 'NT'\na = [0, 0]\np = ['x', 'y']\n"
    doc = tomltext._lines(text)
    assert doc is not None and same(doc, tomllib.loads(text))
    doc["1"]["a"].append(1)
    doc["1"]["p"].append("z")
    assert doc["2"] == {"v": "NT", "a": [0, 0], "p": ["x", "y"]}
    for twice in ("a = [0, 0]\na = [0, 0]\n", "[1]\nv = 'NT'\nv = 'NT'\n"):
        assert tomltext._lines(twice) is None
        with pytest.raises(tomllib.TOMLDecodeError):
            tomltext.loads(twice)


def test_keys_are_interned_so_the_fields_are_found_by_pointer() -> None:
    doc = tomltext.loads("[1]\nvariant = 'NT'\n")
    table = doc["1"]
    assert all(key is sys.intern(key) for key in [*doc, *table])


@pytest.mark.parametrize("text", [
    "a = 1 # comment\n", "a = 'x' # comment\n", "a = ['x', 'y'] # comment\n", "a = [1, 2] # c\n",
    "a  = 1\n", "a =  1\n", " a = 1\n", "a = 1 \n", "a = 1\t\n", "a\t= 1\n", "[1] \n", "[ 1]\n",
    'a = "x\\ny"\n', 'a = "x\\"y"\n', 'a = ["x\\u00e9"]\n', 'a = ["x", "y\\\\"]\n',  # escapes
    "a = [\n  'x',\n  'y',\n]\n", "a = [1,\n2]\n",  # multi-line arrays
    "a = 1\r\nb = 2\r\n", "a = 'x'\r\n", "a = 'x\ry'\n",  # CR
    "a = \u0661\u0662\n", "a = [\u0661]\n", "a = 1.\u0665\n", "a = \u00b2\n",  # not ASCII digits
    "a = 1_000\n", "a = 01\n", "a = -01\n", "a = 00.5\n", "a = +1\n", "a = --1\n", "a = -\n",
    "a = 1.\n", "a = .5\n", "a = 1e5\n", "a = 1.5e3\n", "a = 1.2.3\n", "a = inf\n", "a = -nan\n",
    "a = 0x1f\n", "a = 07:05:09\n", "a = 1979-05-27\n", "a = {b = 1}\n", "a = True\n",
    "a = ['x','y']\n", "a = ['x', 'y' ]\n", "a = [ 'x']\n", "a = ['x', \"y\"]\n", "a = ['x', 1]\n",
    "a = [1,2]\n", "a = [1, 2, ]\n", "a = [, ]\n", "a = [1, , 2]\n", "a = [[1], [2]]\n", "a = [true]\n",
    "a = ['x', 'y'', 'z']\n", "a = ['x'] # 'y']\n", "a = [']\n", "a = '\n", "a = 'x'y'\n",
    "a = '''x'''\n", "a = ''''\n", 'a = """x"""\n', 'a = "x"y"\n', "a = 'x' = 'y'\n",
    "a = 1\na = 2\n", "[1]\n[1]\n", "a = 1\n[a]\n", "[a.b]\n", "[[a]]\n", "[]\n", "['a']\n", "[a\n",
    "a.b = 1\n", "'a' = 1\n", '"a" = 1\n', "= 1\n", "a =\n", "a = \n", "a\n", "\ufeffa = 1\n",
    "a = 'x\x7f'\n", "a = 'x\x01'\n", "# c \x01\n", "a = 1\x00\n", "a = 'x\x0b'\n", "a = 'x\x1f'\n",
])
def test_any_other_line_leaves_the_text_to_the_other_readers(text: str) -> None:
    """Trailing comments, other spacing, escapes, multi-line arrays, CR, digits that are not
    ASCII, 1_000, leading zeros, exponents and the rest are not read line by line; the
    regular expressions or tomllib read the text (or refuse it) as tomllib does."""
    assert tomltext._lines(text) is None
    agrees(text)
    expected = reference(text)
    if expected is None:
        with pytest.raises(tomllib.TOMLDecodeError):
            tomltext.loads(text)
    else:
        assert same(tomltext.loads(text), expected)


def test_times_are_local_times() -> None:
    assert tomltext.loads("time = 07:05:09\n") == {"time": datetime.time(7, 5, 9)}


def test_random_edits_of_real_files_never_read_differently() -> None:
    """A seeded fuzz of its own: characters of TOML's grammar inserted, deleted and replaced
    in corpus files. The reader may hand any of them to tomllib, but whatever it reads
    itself is tomllib's document, and a text tomllib refuses is never read."""
    rng = random.Random(17)
    texts = [p.read_text(encoding="utf-8") for p in sorted(CORPUS.iterdir())]
    alphabet = "[]'\",=#.-_+:0129 \t\nabetrufx\\\r\x00{}é"
    read = 0
    for _ in range(3000):
        text = rng.choice(texts)
        for _ in range(rng.randint(1, 3)):
            k = rng.randrange(len(text) + 1)
            edit = rng.random()
            if edit < 0.4:
                text = text[:k] + rng.choice(alphabet) + text[k:]
            elif edit < 0.7:
                text = text[:k] + text[k + 1:]
            else:
                text = text[:k] + rng.choice(alphabet) + text[k + 1:]
        read += agrees(text)
    assert read > 500  # many edits stay inside the subset (inside a string, a comment, a number)


def test_a_bad_file_is_still_a_clear_error() -> None:
    with pytest.raises(PHHError, match=r"bad TOML: Cannot overwrite a value \(at line 2, column 15\)"):
        loads("variant = 'NT'\nvariant = 'FT'\n")
    with pytest.raises(PHHError, match=r"bad TOML: Unclosed array \(at end of document\)"):
        loads("variant = 'NT'\nantes = [0, 0\n")
