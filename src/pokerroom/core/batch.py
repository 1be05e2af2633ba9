"""Batch hand evaluation with numpy: N hands of 5, 6 or 7 cards in one call.

``evaluate_batch(cards)`` takes an integer array of shape (N, 5), (N, 6) or (N, 7) of card
indices ``4 * rank + suit`` (rank 0 = deuce ... 12 = ace; suit 0 = clubs, 1 = diamonds,
2 = hearts, 3 = spades: phevaluator's scheme) and returns N values (``np.uint16``) equal
to ``evaluator.evaluate_ints`` row by row: 1 (7-5-4-3-2 offsuit) .. 7462 (a royal flush),
higher is stronger, equal values tie.

>>> import numpy as np
>>> from pokerroom.core.cards import parse_cards
>>> from pokerroom.core.evaluator import describe, evaluate
>>> hands = ['AsKsQsJsTs9h8h', '7s5d4c3h2d8c9c', 'Ah Kd 9c 9s 4d 4h 2c']
>>> values = evaluate_batch(np.array([parse_cards(h) for h in hands]))
>>> values
array([7462,   49, 4401], dtype=uint16)
>>> [describe(int(v)) for v in values], values.tolist() == [evaluate(h) for h in hands]
(['Royal flush', 'High card, nine', 'Two pair, nines and fours'], True)
>>> evaluate_batch(np.array([[51, 47, 43, 39, 30]], dtype=np.uint8))  # As Ks Qs Js 9h
array([1277], dtype=uint16)
>>> evaluate_batch(np.array([[0, 1, 2, 3, 3]]))
Traceback (most recent call last):
...
pokerroom.core.evaluator.EvaluatorError: row 0 repeats a card: [0 1 2 3 3]

How it works. Every card has a 32-bit key (rank and suit, see ``pokerroom.core.batch_tables``,
which generates the tables and caches them on disk). A row's keys are gathered, two cards
at a time from a table of two-card sums, and summed; ``sum >> 9`` indexes a dense table
holding the value of the hand without a flush, ``sum & 511`` a table giving the suit of
five or more cards, if any, and for those few rows the 13-bit mask of the ranks in that
suit indexes the flush table. Rows are processed in chunks that stay in the CPU cache.
``load_tables()`` builds the tables eagerly and says where they came from.
"""

from __future__ import annotations

import threading
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from pokerroom.core.batch_tables import SIZES as _SIZES
from pokerroom.core.batch_tables import SUIT_BITS as _SUIT_BITS
from pokerroom.core.batch_tables import TableInfo, Tables, cache_dir, cache_path, load_or_generate
from pokerroom.core.evaluator import EvaluatorError, evaluate_ints

__all__ = ["TableInfo", "cache_dir", "cache_path", "evaluate_batch", "load_tables"]

_CHUNK: Final = 1 << 14  # rows per chunk: the scratch arrays stay in the L2 cache
_BLOCK: Final = 1 << 17  # rows per block for the flush fix-up (3% of random 7-card rows)

U16 = npt.NDArray[np.uint16]
U32 = npt.NDArray[np.uint32]

# --- the public API ----------------------------------------------------------------------


def evaluate_batch(cards: npt.ArrayLike, *, check: bool = True) -> U16:
    """Values 1..7462 of N hands: ``cards`` is an integer array of shape (N, 5|6|7).

    Each row holds distinct card indices 0..51. The shape, the dtype (any integer type)
    and the range are always checked; ``check=True`` (the default) also checks that no
    row repeats a card, which adds about a third to the time. With ``check=False`` that
    is the caller's duty: a row with a repeated card gets an unspecified value in 0..7462.
    Raises ``EvaluatorError`` saying what is wrong. Returns a new ``np.uint16`` array.
    """
    arr = np.asarray(cards)
    if arr.ndim != 2 or arr.shape[1] not in _SIZES:
        raise EvaluatorError(
            f"expected an array of shape (N, 5), (N, 6) or (N, 7) of card indices, "
            f"got shape {arr.shape}"
        )
    if arr.dtype.kind not in "iu":
        raise EvaluatorError(f"expected an integer array of card indices 0..51, got dtype {arr.dtype}")
    if arr.shape[0] == 0:
        return np.empty(0, dtype=np.uint16)
    if not arr.dtype.isnative:
        arr = arr.astype(arr.dtype.newbyteorder("="))
    return _evaluate(arr, _get_tables(), check)


def load_tables(*, refresh: bool = False) -> TableInfo:
    """Load (or generate) the tables now rather than at the first evaluation.

    ``refresh=True`` forgets the tables in memory and reads the cache file again,
    regenerating it if it is missing, corrupt or inconsistent.
    """
    global _TABLES
    with _LOCK:
        if refresh or _TABLES is None:
            _TABLES = load_or_generate(_spot_check)
        return _TABLES.info


_LOCK: Final = threading.Lock()
_TABLES: Tables | None = None


def _get_tables() -> Tables:
    tables = _TABLES
    if tables is None:
        load_tables()
        tables = _TABLES
        assert tables is not None
    return tables


def _spot_check(tables: Tables) -> bool:
    """Compare a few hundred seeded random hands (and some flushes) with ``evaluate_ints``."""
    rng = np.random.default_rng(20240)
    for n in _SIZES:
        hands = np.argsort(rng.random((300, 52)), axis=1)[:, :n]
        spades = rng.permutation(13)[:n] * 4 + 3  # one hand all of one suit
        hands = np.vstack([hands, spades[None, :]])
        got = _evaluate(hands, tables, check=True)
        want = [evaluate_ints([int(c) for c in row]) for row in hands]
        if got.tolist() != want:
            return False
    return True


# --- evaluation ----------------------------------------------------------------------------


def _evaluate(arr: npt.NDArray[Any], tables: Tables, check: bool) -> U16:
    """The loop over chunks; ``arr`` is a native-endian integer (rows, n) array, rows > 0.

    Rows go through the main steps in chunks of ``_CHUNK`` rows (the scratch arrays stay in
    the L2 cache); the few flush rows are fixed once per block of ``_BLOCK`` rows, whose
    input is still in the L3 cache, to save numpy calls. Cards are looked up two at a time:
    two card bytes side by side, read as one little-endian uint16, index the two-card
    tables, so a 7-card row takes 4 lookups and sums 4 entries rather than 7. Bytes in row
    order (uint8 or int8, C-contiguous) are read so in place; other rows are first cast to
    such bytes, and columns (a transposed view, as equity passes) are interleaved in pairs.
    """
    rows, n = arr.shape
    out = np.empty(rows, dtype=np.uint16)
    suits = np.empty(min(rows, _BLOCK), dtype=np.int8)
    sized = tables.sized[n]
    half = n // 2
    unsigned = np.dtype(f"u{arr.dtype.itemsize}")
    by_rows = arr.flags.c_contiguous
    in_place = by_rows and arr.dtype.itemsize == 1
    full = _Buffers(n, min(rows, _CHUNK))
    for block in range(0, rows, _BLOCK):
        block_end = min(block + _BLOCK, rows)
        for start in range(block, block_end, _CHUNK):
            stop = min(start + _CHUNK, block_end)
            chunk = arr[start:stop]
            b = full if stop - start == full.size else _Buffers(n, stop - start)
            # Negative numbers become large in the unsigned view: one pass checks both ends.
            if int(chunk.view(unsigned).max()) > 51:
                _raise_range(chunk, start)
            if by_rows:
                if not in_place:
                    np.copyto(b.bytes, chunk, casting="unsafe")  # every index is 0..51
                source, offset = (arr, start * n) if in_place else (b.bytes, 0)
                two = np.ndarray((half, b.size), dtype=_TWO, buffer=source, offset=offset, strides=(2, n))
                np.copyto(b.idx[:half], two, casting="unsafe")  # pair j: 256 * card 2j+1 + card 2j
                last = (chunk if in_place else b.bytes)[:, n - 1]
            else:
                columns = chunk.T
                np.copyto(b.two[:, :, 0], columns[0 : 2 * half : 2], casting="unsafe")
                np.copyto(b.two[:, :, 1], columns[1 : 2 * half : 2], casting="unsafe")
                np.copyto(b.idx[:half], b.two.view(_TWO)[:, :, 0], casting="unsafe")
                last = chunk[:, n - 1]
            if n % 2:
                np.copyto(b.idx[half], last, casting="unsafe")
            if check:
                # One gather of (key, card bits) pairs; a sum of n distinct powers of two
                # has n bits set, while a repeated card makes a carry.
                np.take(sized.two_pairs, b.idx[:half], axis=0, out=b.pairs[:half], mode="wrap")
                if n % 2:
                    np.take(sized.card_pairs, b.idx[half], axis=0, out=b.pairs[half], mode="wrap")
                np.add.reduce(b.pairs, axis=0, dtype=np.uint64, out=b.pair_sum)
                np.bitwise_count(b.pair_sum[:, 1], out=b.count)
                if int(b.count.min()) != n:
                    _raise_repeat(chunk, b.count, n, start)
                key_sum: npt.NDArray[np.unsignedinteger[Any]] = b.pair_sum[:, 0]
            else:
                np.take(sized.two_keys, b.idx[:half], out=b.keys[:half], mode="wrap")
                if n % 2:
                    np.take(sized.card_keys, b.idx[half], out=b.keys[half], mode="wrap")
                np.add.reduce(b.keys, axis=0, dtype=np.uint32, out=b.key_sum)
                key_sum = b.key_sum
            np.right_shift(key_sum, _SUIT_BITS, out=b.scratch)
            np.take(sized.rank_values, b.scratch, out=out[start:stop], mode="wrap")
            np.bitwise_and(key_sum, (1 << _SUIT_BITS) - 1, out=b.scratch)
            np.take(sized.flush_suit, b.scratch, out=suits[start - block : stop - block], mode="wrap")
        block_suits = suits[: block_end - block]
        if int(block_suits.max()) >= 0:
            _fix_flushes(tables, arr[block:block_end], block_suits, out[block:block_end])
    return out


_TWO: Final = np.dtype("<u2")  # little-endian: the first card of a pair is the low byte


class _Buffers:
    """Scratch arrays for one chunk of ``size`` rows of ``n`` cards."""

    def __init__(self, n: int, size: int) -> None:
        lookups = (n + 1) // 2
        self.size = size
        self.bytes: npt.NDArray[np.uint8] = np.empty((size, n), dtype=np.uint8)
        self.two: npt.NDArray[np.uint8] = np.empty((n // 2, size, 2), dtype=np.uint8)
        self.idx: npt.NDArray[np.intp] = np.empty((lookups, size), dtype=np.intp)
        self.pairs: npt.NDArray[np.uint64] = np.empty((lookups, size, 2), dtype=np.uint64)
        self.pair_sum: npt.NDArray[np.uint64] = np.empty((size, 2), dtype=np.uint64)
        self.count: npt.NDArray[np.uint8] = np.empty(size, dtype=np.uint8)
        self.keys: U32 = np.empty((lookups, size), dtype=np.uint32)
        self.key_sum: U32 = np.empty(size, dtype=np.uint32)
        self.scratch: npt.NDArray[np.intp] = np.empty(size, dtype=np.intp)


def _fix_flushes(tables: Tables, cards: npt.NDArray[Any], suits: npt.NDArray[np.int8], out: U16) -> None:
    """Rows with five or more cards of suit ``suits[i] >= 0``: the flush table by rank mask."""
    rows = np.flatnonzero(suits >= 0)
    # np.take gathers whole rows fastest, but is slow across rows of a transposed view
    picked = np.take(cards, rows, axis=0) if cards.flags.c_contiguous else cards[rows]
    idx = picked.astype(np.intp)
    idx += suits[rows].astype(np.intp)[:, None] * 52  # flush_bits[suit * 52 + card]: its rank bit
    bits = np.take(tables.flush_bits, idx, mode="wrap")
    mask = bits[:, 0].copy()
    for j in range(1, idx.shape[1]):
        mask += bits[:, j]
    out[rows] = np.take(tables.flush_values, mask, mode="wrap")


def _raise_range(chunk: npt.NDArray[Any], start: int) -> None:
    bad = np.argwhere((chunk < 0) | (chunk > 51))[0]
    row = start + int(bad[0])
    raise EvaluatorError(
        f"row {row} has a card index out of range 0..51: {chunk[bad[0]]} (value {chunk[tuple(bad)]})"
    )


def _raise_repeat(chunk: npt.NDArray[Any], count: npt.NDArray[np.uint8], n: int, start: int) -> None:
    i = int(np.flatnonzero(count != n)[0])
    raise EvaluatorError(f"row {start + i} repeats a card: {chunk[i]}")

