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

How it works. Every card has a 32-bit key: a rank key shifted left by 9 bits, plus a suit
key (clubs 1, diamonds 8, hearts 64, spades 0: three 3-bit counters, the spades count is
the rest). A row's keys are gathered and summed. The rank keys (one set per hand size,
found at table-build time by a greedy search, see ``_search_rank_keys``) make the sum of
the rank keys distinct for every multiset of ranks of that size (each rank at most four
times, the 7-card sums are below 2**23), so ``sum >> 9`` indexes a dense table holding the
value of the hand without a flush. ``sum & 511`` indexes a 512-entry table giving the suit
of five or more cards, if any; for those few rows the 13-bit mask of the ranks in that
suit indexes an 8192-entry flush table (a flush always beats the best non-flush hand of
the same 7 cards). Rows are processed in chunks that stay in the CPU cache.

The tables are generated at first use by this module from ``evaluate_ints`` (a few
seconds, mostly the key search) and cached on disk in ``$POKERROOM_CACHE_DIR``, else
``$XDG_CACHE_HOME/pokerroom``, else ``~/.cache/pokerroom``, as a small versioned ``.npz``
whose name carries a hash of the generator's parameters and whose content carries a
SHA-256 digest. A missing, corrupt or inconsistent file is regenerated; a failure to
write it is logged and otherwise ignored. ``load_tables()`` builds them eagerly and says
where they came from.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from pokerroom.core.evaluator import MAX_VALUE, EvaluatorError, evaluate_ints

__all__ = ["TableInfo", "cache_dir", "evaluate_batch", "load_tables"]

_log = logging.getLogger(__name__)

_FORMAT: Final = 1
_SIZES: Final = (5, 6, 7)
_SUIT_KEYS: Final = (1, 8, 64, 0)  # clubs, diamonds, hearts; spades = n - the others
_SUIT_BITS: Final = 9
_RANK_SUM_LIMIT: Final = 1 << (32 - _SUIT_BITS)  # the rank-key sum must fit above the suits
_MAX_PER_RANK: Final = 4
_CHUNK: Final = 1 << 14  # rows per chunk (half that for wide input): scratch stays in the L2 cache
_BLOCK: Final = 1 << 16  # rows per block for the flush fix-up
_PARAMS: Final = {
    "format": _FORMAT,
    "sizes": list(_SIZES),
    "suit_keys": list(_SUIT_KEYS),
    "suit_bits": _SUIT_BITS,
    "max_per_rank": _MAX_PER_RANK,
    "search": "greedy, smallest key free of collisions at completable sizes, fft-v1",
    "max_value": MAX_VALUE,
}
_PARAMS_HASH: Final = hashlib.sha256(json.dumps(_PARAMS, sort_keys=True).encode()).hexdigest()

U16 = npt.NDArray[np.uint16]
U32 = npt.NDArray[np.uint32]
I64 = npt.NDArray[np.int64]


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


@dataclass(frozen=True)
class TableInfo:
    """Where the tables came from: ``generated`` (and ``seconds`` to generate) or read
    from ``path`` (``seconds`` to load); ``nbytes`` in memory, ``file_bytes`` on disk."""

    path: Path | None
    generated: bool
    seconds: float
    nbytes: int
    file_bytes: int
    rank_keys: dict[int, tuple[int, ...]]


def cache_dir() -> Path:
    """The cache directory: $POKERROOM_CACHE_DIR, $XDG_CACHE_HOME/pokerroom or ~/.cache/pokerroom."""
    explicit = os.environ.get("POKERROOM_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "pokerroom"


def cache_path() -> Path:
    """The cache file for the current generator parameters."""
    return cache_dir() / f"batch-tables-v{_FORMAT}-{_PARAMS_HASH[:16]}.npz"


def load_tables(*, refresh: bool = False) -> TableInfo:
    """Load (or generate) the tables now rather than at the first evaluation.

    ``refresh=True`` forgets the tables in memory and reads the cache file again,
    regenerating it if it is missing, corrupt or inconsistent.
    """
    global _TABLES
    with _LOCK:
        if refresh or _TABLES is None:
            _TABLES = _load_or_generate()
        return _TABLES.info


# --- evaluation ----------------------------------------------------------------------------


def _evaluate(arr: npt.NDArray[Any], tables: _Tables, check: bool) -> U16:
    """The loop over chunks; ``arr`` is a native-endian integer (rows, n) array, rows > 0.

    Rows go through the main steps in chunks of 8192 or 16384 rows (the scratch arrays stay
    in the L2 cache); the few flush rows are fixed once per block of ``_BLOCK`` rows, whose input
    is still in the L3 cache, to save numpy calls.
    """
    rows, n = arr.shape
    out = np.empty(rows, dtype=np.uint16)
    suits = np.empty(min(rows, _BLOCK), dtype=np.int8)
    sized = tables.sized[n]
    unsigned = np.dtype(f"u{arr.dtype.itemsize}")
    step = _CHUNK if n * arr.dtype.itemsize <= 40 else _CHUNK // 2  # measured on this machine
    full = _Buffers(n, min(rows, step))
    for block in range(0, rows, _BLOCK):
        block_end = min(block + _BLOCK, rows)
        for start in range(block, block_end, step):
            stop = min(start + step, block_end)
            chunk = arr[start:stop]
            b = full if stop - start == full.size else _Buffers(n, stop - start)
            # Negative numbers become large in the unsigned view: one pass checks both ends.
            if int(chunk.view(unsigned).max()) > 51:
                _raise_range(chunk, start)
            np.copyto(b.idx, chunk.T, casting="unsafe")  # (n, m) intp; every index is 0..51
            if check:
                # One gather of (key, 1 << card) pairs; a sum of n distinct powers of two
                # has n bits set, while a repeated card makes a carry.
                np.take(sized.card_pairs, b.idx, axis=0, out=b.pairs, mode="wrap")
                np.add.reduce(b.pairs, axis=0, dtype=np.uint64, out=b.pair_sum)
                np.bitwise_count(b.pair_sum[:, 1], out=b.count)
                if int(b.count.min()) != n:
                    _raise_repeat(chunk, b.count, n, start)
                key_sum: npt.NDArray[np.unsignedinteger[Any]] = b.pair_sum[:, 0]
            else:
                np.take(sized.card_keys, b.idx, out=b.keys, mode="wrap")
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


class _Buffers:
    """Scratch arrays for one chunk of ``size`` rows of ``n`` cards."""

    def __init__(self, n: int, size: int) -> None:
        self.size = size
        self.idx: npt.NDArray[np.intp] = np.empty((n, size), dtype=np.intp)
        self.pairs: npt.NDArray[np.uint64] = np.empty((n, size, 2), dtype=np.uint64)
        self.pair_sum: npt.NDArray[np.uint64] = np.empty((size, 2), dtype=np.uint64)
        self.count: npt.NDArray[np.uint8] = np.empty(size, dtype=np.uint8)
        self.keys: U32 = np.empty((n, size), dtype=np.uint32)
        self.key_sum: U32 = np.empty(size, dtype=np.uint32)
        self.scratch: npt.NDArray[np.intp] = np.empty(size, dtype=np.intp)


def _fix_flushes(tables: _Tables, cards: npt.NDArray[Any], suits: npt.NDArray[np.int8], out: U16) -> None:
    """Rows with five or more cards of suit ``suits[i] >= 0``: the flush table by rank mask."""
    rows = np.flatnonzero(suits >= 0)
    idx = cards[rows].astype(np.intp)
    idx += suits[rows, None].astype(np.intp) * 52  # flush_bits[suit * 52 + card]: its rank bit
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


# --- tables -----------------------------------------------------------------------------


@dataclass(frozen=True)
class _Sized:
    """The tables for one hand size."""

    card_keys: U32  # (52,) (rank key << 9) | suit key
    card_pairs: npt.NDArray[np.uint64]  # (52, 2) the key and 1 << card
    rank_values: U16  # rank-key sum -> value without a flush (0: no such multiset)
    flush_suit: npt.NDArray[np.int8]  # (512,) suit-key sum -> suit with 5+ cards, or -1


@dataclass(frozen=True)
class _Tables:
    sized: dict[int, _Sized]
    flush_bits: U16  # (4 * 52,) [suit * 52 + card] -> 1 << rank if the card is of that suit
    flush_values: U16  # (8192,) rank mask of the flush suit -> value
    info: TableInfo


_LOCK: Final = threading.Lock()
_TABLES: _Tables | None = None


def _get_tables() -> _Tables:
    tables = _TABLES
    if tables is None:
        load_tables()
        tables = _TABLES
        assert tables is not None
    return tables


def _load_or_generate() -> _Tables:
    path = cache_path()
    began = time.perf_counter()
    try:
        raw = _read_cache(path)
    except FileNotFoundError:
        raw = None
    except Exception as exc:  # corrupt, truncated, inconsistent: generate again
        _log.warning("pokerroom: batch evaluator cache %s is unusable (%s); regenerating", path, exc)
        raw = None
    if raw is not None:
        tables = _assemble(raw, path, generated=False, began=began)
        if _spot_check(tables):
            return tables
        _log.warning("pokerroom: batch evaluator cache %s disagrees with the evaluator; regenerating", path)
        began = time.perf_counter()
    raw = _generate()
    file_path: Path | None = path if _write_cache(path, raw) else None
    tables = _assemble(raw, file_path, generated=True, began=began)
    if not _spot_check(tables):  # pragma: no cover - a bug in this module
        raise RuntimeError("pokerroom: generated batch tables disagree with evaluate_ints")
    _log.info("pokerroom: batch evaluator tables generated in %.2f s", tables.info.seconds)
    return tables


def _digest(raw: dict[str, npt.NDArray[Any]]) -> str:
    h = hashlib.sha256(_PARAMS_HASH.encode())
    for name in sorted(raw):
        if name != "digest":
            a = np.ascontiguousarray(raw[name])
            h.update(f"{name}:{a.dtype.str}:{a.shape}".encode())
            h.update(a.tobytes())
    return h.hexdigest()


def _read_cache(path: Path) -> dict[str, npt.NDArray[Any]]:
    with path.open("rb") as f, np.load(f, allow_pickle=False) as npz:  # f is closed on any error
        raw = {name: npz[name] for name in npz.files}
    if str(raw["digest"]) != _digest(raw) or str(raw["params"]) != _PARAMS_HASH:
        raise ValueError("checksum mismatch")
    _validate(raw)
    return raw


def _write_cache(path: Path, raw: dict[str, npt.NDArray[Any]]) -> bool:
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "wb") as f:
            arrays: dict[str, Any] = dict(raw)
            np.savez(f, **arrays)
        os.replace(tmp, path)  # atomic: a concurrent reader sees the old file or the new one
        return True
    except OSError as exc:
        _log.warning("pokerroom: cannot write the batch evaluator cache %s (%s)", path, exc)
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        return False


def _validate(raw: dict[str, npt.NDArray[Any]]) -> None:
    """Structural checks beyond the digest: keys, sums and values are consistent."""
    for n in _SIZES:
        keys = raw[f"keys{n}"]
        sums, values = raw[f"sums{n}"], raw[f"values{n}"]
        if keys.shape != (13,) or keys.dtype != np.int64:
            raise ValueError(f"bad rank keys for {n} cards")
        expected = _multisets(n) @ keys
        if not np.array_equal(expected, sums) or np.unique(sums).size != sums.size:
            raise ValueError(f"rank sums for {n} cards do not match the keys")
        if int(sums.max()) >= _RANK_SUM_LIMIT or int(sums.min()) < 0:
            raise ValueError(f"rank sums for {n} cards out of range")
        if values.shape != sums.shape or not (1 <= int(values.min()) <= int(values.max()) <= MAX_VALUE):
            raise ValueError(f"bad values for {n} cards")
    flush = raw["flush"]
    sizes = np.bitwise_count(np.arange(1 << 13))
    if flush.shape != (1 << 13,) or np.any((flush == 0) != ((sizes < 5) | (sizes > 7))):
        raise ValueError("bad flush table")
    if int(flush.max()) > MAX_VALUE:
        raise ValueError("bad flush table")


def _assemble(
    raw: dict[str, npt.NDArray[Any]], path: Path | None, *, generated: bool, began: float
) -> _Tables:
    card = np.arange(52)
    rank, suit = card >> 2, card & 3
    suit_key = np.array(_SUIT_KEYS, dtype=np.int64)[suit]
    one_bit = np.left_shift(np.uint64(1), card.astype(np.uint64))
    sized: dict[int, _Sized] = {}
    for n in _SIZES:
        keys = raw[f"keys{n}"].astype(np.int64)
        sums = raw[f"sums{n}"].astype(np.intp)
        dense = np.zeros(int(sums.max()) + 1, dtype=np.uint16)
        dense[sums] = raw[f"values{n}"]
        card_keys = ((keys[rank] << _SUIT_BITS) | suit_key).astype(np.uint32)
        sized[n] = _Sized(
            card_keys=card_keys,
            card_pairs=np.stack([card_keys.astype(np.uint64), one_bit], axis=1),
            rank_values=dense,
            flush_suit=_flush_suit_table(n),
        )
    flush_bits = np.zeros((4, 52), dtype=np.uint16)
    flush_bits[suit, card] = 1 << rank
    flush_values = raw["flush"].astype(np.uint16)
    nbytes = sum(
        s.card_keys.nbytes + s.card_pairs.nbytes + s.rank_values.nbytes + s.flush_suit.nbytes
        for s in sized.values()
    )
    nbytes += flush_bits.nbytes + flush_values.nbytes
    file_bytes = 0
    if path is not None:
        try:
            file_bytes = path.stat().st_size
        except OSError:
            file_bytes = 0
    info = TableInfo(
        path=path,
        generated=generated,
        seconds=time.perf_counter() - began,
        nbytes=nbytes,
        file_bytes=file_bytes,
        rank_keys={n: tuple(int(k) for k in raw[f"keys{n}"]) for n in _SIZES},
    )
    return _Tables(sized, flush_bits.reshape(-1), flush_values, info)


def _flush_suit_table(n: int) -> npt.NDArray[np.int8]:
    """Suit-key sum (clubs + 8 diamonds + 64 hearts) of n cards -> the suit with 5+ cards, or -1."""
    x = np.arange(1 << _SUIT_BITS)
    counts = np.stack([x & 7, (x >> 3) & 7, x >> 6])
    counts = np.vstack([counts, n - counts.sum(axis=0)])
    table = np.full(x.size, -1, dtype=np.int8)
    for suit in range(4):
        table[(counts[suit] >= 5) & (counts[3] >= 0)] = suit
    return table


def _spot_check(tables: _Tables) -> bool:
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


# --- generation -------------------------------------------------------------------------


def _multisets(n: int) -> I64:
    """Every multiset of n ranks, each rank at most four times, as rank counts (M, 13)."""
    rows = [
        combo for combo in combinations_with_replacement(range(13), n)
        if all(combo[i] != combo[i + _MAX_PER_RANK] for i in range(n - _MAX_PER_RANK))
    ]
    idx = np.array(rows, dtype=np.intp)
    counts = np.zeros((len(rows), 13), dtype=np.int64)
    np.add.at(counts, (np.arange(len(rows))[:, None], idx), 1)
    return counts


def _generate() -> dict[str, npt.NDArray[Any]]:
    raw: dict[str, npt.NDArray[Any]] = {
        "format": np.array(_FORMAT),
        "params": np.array(_PARAMS_HASH),
    }
    for n in _SIZES:
        keys = np.array(_search_rank_keys(n), dtype=np.int64)
        counts = _multisets(n)
        sums = counts @ keys
        raw[f"keys{n}"] = keys
        raw[f"sums{n}"] = sums.astype(np.uint32)
        raw[f"values{n}"] = np.array([evaluate_ints(h) for h in _no_flush_hands(counts)], dtype=np.uint16)
    flush = np.zeros(1 << 13, dtype=np.uint16)
    for mask in range(1 << 13):
        if 5 <= mask.bit_count() <= 7:  # all clubs: the best flush or straight flush in them
            flush[mask] = evaluate_ints([4 * r for r in range(13) if mask >> r & 1])
    raw["flush"] = flush
    _validate(raw)
    raw["digest"] = np.array(_digest(raw))
    return raw


def _no_flush_hands(counts: I64) -> Iterator[list[int]]:
    """One hand per multiset of ranks with no five cards of a suit: the i-th card (ranks in
    order) gets suit i % 4, so equal ranks get different suits and no suit gets more than two."""
    for row in counts.tolist():
        ranks = [r for r in range(13) for _ in range(row[r])]
        yield [4 * r + i % 4 for i, r in enumerate(ranks)]


def _layers(keys: list[int], n: int) -> list[I64]:
    """layers[t]: the rank-key sums of every multiset of size t over the ranks keyed so far
    (each rank at most four times), one entry per multiset."""
    layers: list[I64] = [np.zeros(1, dtype=np.int64)] + [np.zeros(0, dtype=np.int64)] * n
    for k in keys:
        layers = [
            np.concatenate([layers[t - m] + m * k for m in range(min(t, _MAX_PER_RANK) + 1)])
            for t in range(n + 1)
        ]
    return layers


def _fast_len(target: int) -> int:
    """The smallest 2**a * 3**b * 5**c >= target (a fast FFT length)."""
    best = 1 << max(target - 1, 0).bit_length()
    p5 = 1
    while p5 < best:
        p35 = p5
        while p35 < best:
            p = p35
            while p < target:
                p *= 2
            best = min(best, p)
            p35 *= 3
        p5 *= 5
    return best


def _search_rank_keys(n: int) -> list[int]:
    """Rank keys k[0] = 0 < k[1] < ... < k[12] such that all multisets of n ranks (each at
    most four times) have distinct key sums: each key is the smallest that keeps distinct
    every partial multiset that can still be completed to n cards with the later ranks.

    Adding key k with multiplicity m1 to multiset a collides with m2 copies added to b when
    (m1 - m2) * k = b - a. With d = m1 - m2 > 0, |b| = |a| + d, so the forbidden keys are
    the differences between the layers s and s + d divided by d: a cross-correlation of the
    layers' indicator vectors, computed by FFT. The first candidate is then checked exactly.
    """
    keys = [0]
    for r in range(1, 13):
        later = 12 - r
        low = max(0, n - _MAX_PER_RANK * later)  # smaller partial sizes cannot reach n
        layers = _layers(keys, n)
        for k in _candidates(layers, n, low, keys[-1]):
            if _distinct_with(layers, k, n, low):
                keys.append(k)
                break
    return keys


def _candidates(layers: list[I64], n: int, low: int, previous: int) -> Iterator[int]:
    top = max(int(layer.max()) for layer in layers if layer.size)
    size = _fast_len(2 * top + 2)
    spectra: dict[int, npt.NDArray[np.complex128]] = {}

    def spectrum(s: int) -> npt.NDArray[np.complex128]:
        if s not in spectra:
            hist = np.bincount(layers[s], weights=np.ones(layers[s].size), minlength=size)
            spectra[s] = np.fft.rfft(hist)
        return spectra[s]

    forbidden = np.zeros(top + 2, dtype=bool)
    forbidden[: previous + 1] = True
    for d in range(1, _MAX_PER_RANK + 1):
        # a in layer s, b in layer s + d, meeting at size t in [s + d, s + 4], low <= t <= n
        pairs = [
            s for s in range(0, n - d + 1)
            if max(s + d, low) <= min(s + _MAX_PER_RANK, n) and layers[s].size and layers[s + d].size
        ]
        if not pairs:
            continue
        acc = np.zeros(size // 2 + 1, dtype=np.complex128)
        for s in pairs:
            acc += np.conj(spectrum(s)) * spectrum(s + d)
        corr = np.fft.irfft(acc, size)[: top + 1]  # corr[x] = #(a, b) with b - a = x
        x = np.flatnonzero(corr > 0.5)
        x = x[(x > 0) & (x % d == 0)] // d
        forbidden[x] = True
    for k in np.flatnonzero(~forbidden).tolist():
        yield int(k)
    k = top + 1  # larger than any difference: always free
    while True:  # pragma: no cover - only reached if the FFT missed a collision
        yield k
        k += 1


def _distinct_with(layers: list[I64], k: int, n: int, low: int) -> bool:
    for t in range(low, n + 1):
        sums = np.concatenate([layers[t - m] + m * k for m in range(min(t, _MAX_PER_RANK) + 1)])
        if np.unique(sums).size != sums.size:
            return False
    return True
