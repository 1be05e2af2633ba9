"""The fast reader of PHH's TOML (pokerroom.core.phh.tomltext) against tomllib, the
reference: on every real and fuzz-corpus file it reads the same document itself; on
anything else it either gives tomllib's answer or hands the text to tomllib (its result,
its error), never a different document."""

from __future__ import annotations

import datetime
import random
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


def agrees(text: str) -> bool:
    """The fast reader read ``text`` itself (True) or left it to tomllib (False); either way
    nothing it returns differs from tomllib's."""
    fast = tomltext._fast(text)
    if fast is not None:
        assert fast == reference(text), text
        assert [type(v) for v in fast.values()] == [type(v) for v in tomllib.loads(text).values()]
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
