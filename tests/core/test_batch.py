"""Tests for the numpy batch evaluator (``pokerroom.core.batch.evaluate_batch``).

- Every one of the 133,784,560 seven-card hands, counted by category, gives the known
  counts (and the known 4,824 distinct values).
- One million seeded random 5-, 6- and 7-card hands each: equal to 7463 - phevaluator's
  rank, ordered exactly as eval7 orders them (ties where eval7 ties), and equal to our
  scalar ``evaluate_ints`` on a subset.
- Input errors (shape, dtype, range, repeated cards), empty input, the dtypes and layouts
  accepted, and the on-disk table cache (missing, corrupt, unwritable).

The cache tests regenerate the tables (a few seconds each) in their own directories.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Iterator
from itertools import combinations
from math import comb
from pathlib import Path

import numpy as np
import numpy.typing as npt
import phevaluator
import pytest

from pokerroom.core import batch
from pokerroom.core.batch import evaluate_batch
from pokerroom.core.cards import RANKS, SUITS
from pokerroom.core.evaluator import CATEGORY_NAMES, MAX_VALUE, EvaluatorError, category, evaluate_ints

with warnings.catch_warnings():  # eval7 0.1.11 calls pyparsing APIs that now warn on import,
    warnings.simplefilter("ignore")  # and warnings are errors in this suite
    import eval7

RANDOM_HANDS = 1_000_000
SCALAR_SUBSET = 100_000
PEER_PARTS = 2  # each peer comparison is split so that xdist can run the parts in parallel

# --- helpers ----------------------------------------------------------------------------


def random_hands(rows: int, n: int, seed: int) -> npt.NDArray[np.int64]:
    """``rows`` seeded random hands of n distinct cards (rows with a repeat are redrawn)."""
    rng = np.random.default_rng(seed)
    hands = rng.integers(0, 52, (rows, n))
    while True:
        ordered = np.sort(hands, axis=1)
        bad = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
        if not bad.any():
            return hands
        hands[bad] = rng.integers(0, 52, (int(bad.sum()), n))


@pytest.fixture(scope="module", params=[5, 6, 7], ids=lambda n: f"{n}cards")
def hands(request: pytest.FixtureRequest) -> npt.NDArray[np.int64]:
    return random_hands(RANDOM_HANDS, request.param, seed=1000 + request.param)


@pytest.fixture(scope="module")
def values(hands: npt.NDArray[np.int64]) -> npt.NDArray[np.uint16]:
    return evaluate_batch(hands)


def part_rows(part: int, rows: int) -> slice:
    size = -(-rows // PEER_PARTS)
    return slice(part * size, (part + 1) * size)


# --- every seven-card hand --------------------------------------------------------------

KNOWN_7CARD_COUNTS = {
    "Straight flush": 41_584,
    "Four of a kind": 224_848,
    "Full house": 3_473_184,
    "Flush": 4_047_644,
    "Straight": 6_180_020,
    "Three of a kind": 6_461_620,
    "Two pair": 31_433_400,
    "One pair": 58_627_800,
    "High card": 23_294_460,
}


def all_seven_card_hands() -> Iterator[npt.NDArray[np.uint8]]:
    """Every 7-card hand once, as uint8 arrays: the two lowest cards a < b, then each
    5-card set above b (a suffix of the 5-card combinations of 0..51 in lexical order)."""
    fives = np.fromiter(
        (c for five in combinations(range(52), 5) for c in five), dtype=np.uint8, count=5 * comb(52, 5)
    ).reshape(-1, 5)
    first_with_low_card = np.searchsorted(fives[:, 0], np.arange(53))
    for b in range(1, 47):
        above = fives[first_with_low_card[b + 1] :]
        block = np.empty((b, len(above), 7), dtype=np.uint8)
        block[:, :, 0] = np.arange(b, dtype=np.uint8)[:, None]  # every a < b
        block[:, :, 1] = b
        block[:, :, 2:] = above
        yield block.reshape(-1, 7)


def test_every_seven_card_hand_by_category() -> None:
    per_value = np.zeros(MAX_VALUE + 1, dtype=np.int64)
    total = 0
    for block in all_seven_card_hands():
        per_value += np.bincount(evaluate_batch(block), minlength=MAX_VALUE + 1)
        total += len(block)
    assert total == comb(52, 7) == 133_784_560
    assert per_value[0] == 0
    category_of = np.array([0] + [category(v) for v in range(1, MAX_VALUE + 1)])
    by_category = np.bincount(category_of, weights=per_value, minlength=9).astype(np.int64)
    assert {CATEGORY_NAMES[c]: int(k) for c, k in enumerate(by_category)} == KNOWN_7CARD_COUNTS
    assert np.count_nonzero(per_value) == 4824  # distinct 7-card hand values


# --- random hands against the peers and our scalar evaluator -------------------------------


@pytest.mark.parametrize("part", range(PEER_PARTS))
def test_equals_phevaluator(hands: npt.NDArray[np.int64], values: npt.NDArray[np.uint16], part: int) -> None:
    rows = part_rows(part, len(hands))
    peer = np.array([phevaluator.evaluate_cards(*h) for h in hands[rows].tolist()], dtype=np.int64)
    assert np.array_equal(values[rows].astype(np.int64), 7463 - peer)


@pytest.mark.parametrize("part", range(PEER_PARTS))
def test_orders_like_eval7(hands: npt.NDArray[np.int64], values: npt.NDArray[np.uint16], part: int) -> None:
    rows = part_rows(part, len(hands))
    deck = [eval7.Card(r + s) for r in RANKS for s in SUITS]  # index 4 * rank + suit
    peer = np.array([eval7.evaluate([deck[c] for c in h]) for h in hands[rows].tolist()], dtype=np.int64)
    ours = values[rows].astype(np.int64)
    order = np.argsort(ours, kind="stable")
    ours_step, peer_step = np.diff(ours[order]), np.diff(peer[order])
    assert (peer_step >= 0).all()  # sorting by ours sorts eval7's values too
    assert np.array_equal(ours_step == 0, peer_step == 0)  # and ties are exactly eval7's ties


def test_equals_scalar_evaluator(hands: npt.NDArray[np.int64], values: npt.NDArray[np.uint16]) -> None:
    subset = hands[:SCALAR_SUBSET]
    expected = [evaluate_ints(h) for h in subset.tolist()]
    assert values[:SCALAR_SUBSET].tolist() == expected


def test_flush_heavy_hands_equal_scalar() -> None:
    """Hands drawn from two suits: flushes, straight flushes and paired boards abound."""
    rng = np.random.default_rng(77)
    for n in (5, 6, 7):
        two_suits = np.array([4 * r + s for r in range(13) for s in (1, 3)])
        hands = np.array([rng.choice(two_suits, n, replace=False) for _ in range(20_000)])
        assert evaluate_batch(hands).tolist() == [evaluate_ints(h) for h in hands.tolist()]


def test_unchecked_and_dtypes_and_layouts_agree(
    hands: npt.NDArray[np.int64], values: npt.NDArray[np.uint16]
) -> None:
    sample, expected = hands[:50_000], values[:50_000]
    assert np.array_equal(evaluate_batch(sample, check=False), expected)
    for dtype in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.uint64, ">i8", "<u2"):
        assert np.array_equal(evaluate_batch(sample.astype(dtype)), expected), dtype
    assert np.array_equal(evaluate_batch(np.asfortranarray(sample)), expected)
    wide = np.zeros((len(sample), 2 * sample.shape[1]), dtype=np.int64)
    wide[:, ::2] = sample
    assert np.array_equal(evaluate_batch(wide[:, ::2]), expected)  # a strided view
    assert np.array_equal(evaluate_batch(sample[::-1]), expected[::-1])
    assert evaluate_batch(sample[:3].tolist()).tolist() == expected[:3].tolist()  # nested lists


def test_memory_layouts_read_two_cards_at_a_time(
    hands: npt.NDArray[np.int64], values: npt.NDArray[np.uint16]
) -> None:
    """The two-card lookups read uint8 rows in place, cast other rows to bytes and pair up
    the columns of a transposed view: each way gives the same values, checked or not."""
    sample, expected = hands[:20_000], values[:20_000]
    n = sample.shape[1]
    read_only = np.frombuffer(sample.astype(np.uint8).tobytes(), dtype=np.uint8).reshape(-1, n)
    padded = np.zeros((len(sample), n + 3), dtype=np.uint8)
    padded[:, 1 : n + 1] = sample
    card_major = np.ascontiguousarray(sample.T.astype(np.uint8)).T  # as equity passes them
    offset = np.zeros(len(sample) * n + 1, dtype=np.uint8)[1:].reshape(-1, n)  # odd address
    offset[:] = sample
    layouts = [read_only, padded[:, 1 : n + 1], card_major, offset, sample.astype(np.int8)[1:]]
    for arr in layouts:
        want = expected[1:] if len(arr) < len(sample) else expected
        assert np.array_equal(evaluate_batch(arr), want)
        assert np.array_equal(evaluate_batch(arr, check=False), want)


def test_a_repeat_is_found_at_every_pair_of_positions() -> None:
    """Two equal cards in one two-card lookup, in two lookups, or one of them the odd card."""
    for n in (5, 6, 7):
        base = random_hands(3, n, seed=40 + n)
        for i, j in combinations(range(n), 2):
            for layout in (np.ascontiguousarray, np.asfortranarray):
                bad = base.copy()
                bad[2, j] = bad[2, i]
                with pytest.raises(EvaluatorError, match="row 2 repeats a card"):
                    evaluate_batch(layout(bad.astype(np.uint8)))
                with pytest.raises(EvaluatorError, match="row 2 repeats a card"):
                    evaluate_batch(layout(bad))


def test_result_type_and_sizes() -> None:
    one = evaluate_batch(np.array([[51, 47, 43, 39, 35]]))  # As Ks Qs Js Ts
    assert one.dtype == np.uint16 and one.shape == (1,) and one[0] == MAX_VALUE
    for n in (5, 6, 7):
        empty = evaluate_batch(np.empty((0, n), dtype=np.int64))
        assert empty.shape == (0,) and empty.dtype == np.uint16
    odd = random_hands(3 * 8192 + 5, 7, seed=3)  # not a whole number of chunks
    assert evaluate_batch(odd).tolist() == [evaluate_ints(h) for h in odd.tolist()]


# --- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (np.arange(7), r"shape \(N, 5\), \(N, 6\) or \(N, 7\).*got shape \(7,\)"),
        (np.zeros((2, 4), dtype=np.int64), r"got shape \(2, 4\)"),
        (np.zeros((2, 8), dtype=np.int64), r"got shape \(2, 8\)"),
        (np.zeros((2, 7, 1), dtype=np.int64), r"got shape \(2, 7, 1\)"),
        (np.zeros((0, 3), dtype=np.int64), r"got shape \(0, 3\)"),
        (np.arange(7.0).reshape(1, 7), r"integer array.*got dtype float64"),
        (np.ones((1, 5), dtype=bool), r"integer array.*got dtype bool"),
        (np.array([["As", "Ks", "Qs", "Js", "Ts"]]), r"integer array.*got dtype <U2"),
        (np.array([[0, 1, 2, 3, None]], dtype=object), r"integer array.*got dtype object"),
        (np.array([[0, 4, 8, 12, 52]]), r"row 0 has a card index out of range 0\.\.51.*value 52"),
        (np.array([[0, 4, 8, 12, 16], [0, 4, 8, -1, 16]]), r"row 1 .*out of range.*value -1"),
        (np.array([[0, 4, 8, 12, 255]], dtype=np.uint8), r"out of range.*value 255"),
        (np.array([[0, 4, 8, 12, -128]], dtype=np.int8), r"out of range.*value -128"),
        (np.array([[0, 4, 8, 12, 2**63]], dtype=np.uint64), r"out of range"),
        (np.array([[0, 4, 8, 12, -(2**63)]], dtype=np.int64), r"out of range"),
        (np.array([[0, 1, 2, 3, 4, 5, 6], [9, 1, 2, 3, 4, 5, 9]]), r"row 1 repeats a card: \[9 1 2 3 4 5 9"),
        (np.array([[51] * 7]), r"row 0 repeats a card"),
    ],
)
def test_bad_input(cards: npt.NDArray[np.generic], message: str) -> None:
    with pytest.raises(EvaluatorError, match=message):
        evaluate_batch(cards)


def test_errors_name_the_row_in_a_later_chunk() -> None:
    hands = random_hands(100_000, 6, seed=5)
    hands[76_543, 4] = hands[76_543, 1]
    with pytest.raises(EvaluatorError, match="row 76543 repeats a card"):
        evaluate_batch(hands)
    evaluate_batch(hands, check=False)  # the caller's duty then: no error, some value
    for n in (5, 6, 7):  # the worst repeats (sums past every table) still give a value
        for card in (0, 51):
            assert 0 <= int(evaluate_batch(np.full((2, n), card), check=False).max()) <= MAX_VALUE
    hands[99_999, 0] = 60
    with pytest.raises(EvaluatorError, match="row 99999 has a card index out of range"):
        evaluate_batch(hands, check=False)  # the range is always checked


# --- the table cache ----------------------------------------------------------------------


@pytest.fixture
def cache_in(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A private cache directory; the tables in memory are restored afterwards."""
    monkeypatch.setattr(batch, "_TABLES", batch._TABLES)
    monkeypatch.setenv("POKERROOM_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture(scope="module")
def good_cache_file(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A freshly generated cache file (generated once for the module)."""
    directory = tmp_path_factory.mktemp("generated")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(batch, "_TABLES", batch._TABLES)
        mp.setenv("POKERROOM_CACHE_DIR", str(directory))
        info = batch.load_tables(refresh=True)
        assert info.generated and info.path == batch.cache_path() and info.path.exists()
        assert info.path.parent == directory and info.file_bytes == info.path.stat().st_size
        check_tables_work()
        return info.path.read_bytes()


def check_tables_work() -> None:
    for n in (5, 6, 7):
        sample = random_hands(2000, n, seed=n)
        assert evaluate_batch(sample).tolist() == [evaluate_ints(h) for h in sample.tolist()]


def test_cache_dir_from_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("POKERROOM_CACHE_DIR", str(tmp_path / "a"))
    assert batch.cache_dir() == tmp_path / "a"
    monkeypatch.delenv("POKERROOM_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert batch.cache_dir() == tmp_path / "xdg" / "pokerroom"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert batch.cache_dir() == tmp_path / "home" / ".cache" / "pokerroom"
    assert batch.cache_path().parent == batch.cache_dir()
    assert batch.cache_path().name.startswith("batch-tables-v") and batch.cache_path().suffix == ".npz"


def same_tables(a: bytes, b: bytes) -> bool:
    """The two cache files hold the same arrays (zip timestamps may differ)."""
    with np.load(io.BytesIO(a)) as x, np.load(io.BytesIO(b)) as y:
        return sorted(x.files) == sorted(y.files) and all(np.array_equal(x[f], y[f]) for f in x.files)


def test_cache_is_read_back(cache_in: Path, good_cache_file: bytes) -> None:
    cache_in.mkdir()
    batch.cache_path().write_bytes(good_cache_file)
    info = batch.load_tables(refresh=True)
    assert not info.generated and info.path == batch.cache_path()
    assert info.seconds < 5 and info.nbytes > 0
    assert batch.load_tables() is info  # kept in memory
    assert batch.cache_path().read_bytes() == good_cache_file  # not rewritten
    assert set(info.rank_keys) == {5, 6, 7}
    for keys in info.rank_keys.values():
        assert len(keys) == 13 and list(keys) == sorted(set(keys))
    check_tables_work()


def flip_a_value(data: bytes) -> bytes:
    """The same npz with one value of the 7-card table changed: only the digest can tell."""
    with np.load(io.BytesIO(data)) as npz:
        arrays = {name: npz[name] for name in npz.files}
    arrays["values7"] = arrays["values7"].copy()
    arrays["values7"][123] ^= 1
    out = io.BytesIO()
    np.savez(out, **arrays)
    return out.getvalue()


@pytest.mark.parametrize("damage", ["truncated", "flipped value"])
def test_corrupt_cache_is_regenerated(cache_in: Path, good_cache_file: bytes, damage: str) -> None:
    cache_in.mkdir()
    path = batch.cache_path()
    if damage == "truncated":
        path.write_bytes(good_cache_file[: len(good_cache_file) // 2])
    else:
        path.write_bytes(flip_a_value(good_cache_file))
    info = batch.load_tables(refresh=True)
    assert info.generated and info.path == path
    assert same_tables(path.read_bytes(), good_cache_file)  # rewritten as a fresh generation
    check_tables_work()
    assert not batch.load_tables(refresh=True).generated  # and read back next time


def test_unwritable_cache_does_not_break_evaluation(cache_in: Path) -> None:
    cache_in.parent.mkdir(parents=True, exist_ok=True)
    cache_in.write_text("a file where the cache directory should be")
    info = batch.load_tables(refresh=True)
    assert info.generated and info.path is None and info.file_bytes == 0
    check_tables_work()
    assert [p.name for p in cache_in.parent.iterdir()] == [cache_in.name]  # no temporary file left
