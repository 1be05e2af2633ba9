"""Hold'em equity: how much of the pot each of 2 to 9 hands takes on average.

``equity(hands, board, dead)`` deals every remaining board (exhaustive, the default) or
``samples`` random ones (Monte Carlo) and counts, for each hand, the boards it wins
outright and the boards it splits. Equity is the win + tie/2 convention generalised: a
hand's share of the pot averaged over the boards, 1 for an outright win and 1/k for a
k-way split. So the equities add up to 1, and heads-up equity = win + tie / 2.

>>> r = equity(['AhKh', 'QsQd'], board='Jh 7h 2c')
>>> r.boards, r.exact
(990, True)
>>> [f'{e:.4f}' for e in r.equity]
['0.5444', '0.4556']
>>> r = equity(['AsKd', 'AcKh'], board='2c 7d 9h Ts 3c')  # the board plays: a split
>>> r.win, r.tie, r.equity
((0.0, 0.0), (1.0, 1.0), (0.5, 0.5))
>>> equity(['AhKh', 'AhQd'])
Traceback (most recent call last):
...
pokerroom.core.equity.EquityError: Ah appears twice: in hand 1 and hand 2

Everything is vectorized with numpy: the boards are an array (all k-card combinations of
the remaining deck, generated once and cached, or random draws), processed in chunks of
65,536; each hand is evaluated on every board of a chunk as one (boards x 7) array of card
indices by ``evaluate_batch`` (unchecked: the cards are known to be distinct), and the
values are compared with numpy. AhKh against QsQd preflop, all 1,712,304 boards, takes
about 35 ms on the project's 2-core machine (two evaluations of each board).

Monte Carlo (``samples=N``) draws boards from numpy's generator seeded with ``seed``. It is
a quick estimate for displays and bots, not a way to deal: the room deals its cards with
``secrets`` elsewhere. A complete board (five cards) leaves nothing to sample, so the
answer is then exact whatever ``samples`` says.

``stud_equity(hands, dead)`` does the same for seven card stud: 2 to 8 players, each with
the 1 to 7 cards known so far, every hand completed to 7 cards from the remaining deck
(all deals when there are at most ``limit``, else ``samples`` random ones), with the same
``EquityResult`` (``boards`` then counts deals and ``board`` is empty).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb, sqrt
from typing import Any, Final, TypeAlias, cast

import numpy as np
import numpy.typing as npt

from pokerroom.core.batch import evaluate_batch
from pokerroom.core.cards import Card, CardError, format_cards, parse_cards

__all__ = [
    "MAX_HANDS", "MIN_HANDS", "STUD_MAX_HANDS", "EquityError", "EquityResult", "equity",
    "stud_equity",
]

MIN_HANDS: Final = 2
MAX_HANDS: Final = 9
STUD_MAX_HANDS: Final = 8
BOARD_SIZES: Final = (0, 3, 4, 5)

CardsLike: TypeAlias = str | Iterable[str | int]
Progress: TypeAlias = Callable[[int, int], object]

_CHUNK: Final = 1 << 16  # boards per evaluation round: keeps the arrays in cache


class EquityError(ValueError):
    """The hands, board, dead cards or options given to ``equity`` are not valid."""


# --- the result ----------------------------------------------------------------------------


@dataclass(frozen=True)
class EquityResult:
    """What ``equity`` found, hand by hand in the order given.

    ``splits[h][k]`` counts the boards on which hand ``h`` is one of exactly ``k`` best
    hands: ``k = 1`` is an outright win, ``k >= 2`` a k-way split (index 0 is always 0).
    ``boards`` is the number of boards dealt (all of them when ``exact``, else the
    samples). ``win``, ``tie`` and ``equity`` are fractions of ``boards``.
    """

    hands: tuple[tuple[Card, ...], ...]
    board: tuple[Card, ...]
    dead: tuple[Card, ...]
    boards: int
    exact: bool
    splits: tuple[tuple[int, ...], ...]

    @property
    def win(self) -> tuple[float, ...]:
        """Probability of winning the whole pot."""
        return tuple(s[1] / self.boards for s in self.splits)

    @property
    def tie(self) -> tuple[float, ...]:
        """Probability of splitting the pot with one or more other hands."""
        return tuple(sum(s[2:]) / self.boards for s in self.splits)

    @property
    def shares(self) -> tuple[Fraction, ...]:
        """Exact equity as a fraction: (outright wins + sum of 1/k per k-way split) / boards."""
        return tuple(
            sum((Fraction(n, k) for k, n in enumerate(s) if k), Fraction(0)) / self.boards
            for s in self.splits
        )

    @property
    def equity(self) -> tuple[float, ...]:
        """Share of the pot on average: win + the split shares (win + tie/2 heads-up)."""
        return tuple(float(f) for f in self.shares)

    @property
    def std_error(self) -> tuple[float, ...]:
        """Standard error of each equity: 0 when exact, else sqrt(variance of the share / n)."""
        if self.exact:
            return (0.0,) * len(self.hands)
        out = []
        for s, mean in zip(self.splits, self.equity, strict=True):
            square = sum(n / (k * k) for k, n in enumerate(s) if k) / self.boards
            out.append(sqrt(max(square - mean * mean, 0.0) / self.boards))
        return tuple(out)

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict: the cards as text, one object per hand."""
        return {
            "board": format_cards(self.board),
            "dead": format_cards(self.dead),
            "boards": self.boards,
            "exact": self.exact,
            "hands": [
                {"hand": format_cards(h), "equity": e, "win": w, "tie": t, "std_error": se,
                 "splits": list(s[1:])}
                for h, e, w, t, se, s in zip(self.hands, self.equity, self.win, self.tie,
                                             self.std_error, self.splits, strict=True)
            ],
        }


# --- the calculation -----------------------------------------------------------------------


def equity(
    hands: Sequence[CardsLike] | npt.NDArray[np.integer[Any]],
    board: CardsLike = (),
    dead: CardsLike = (),
    *,
    samples: int | None = None,
    seed: int | None = None,
    progress: Progress | None = None,
) -> EquityResult:
    """Hold'em equity of 2 to 9 two-card ``hands`` (each 'AhKh', 'Ah Kh' or a sequence of
    cards; or a (hands, 2) integer array) given a ``board`` of 0, 3, 4 or 5 cards and
    ``dead`` cards nobody can get.

    Exhaustive by default: every board that completes the given one from the remaining
    deck (1,712,304 preflop heads-up). With ``samples=N``, N random boards from numpy's
    generator seeded with ``seed`` (a Monte Carlo estimate for speed, not for dealing).
    ``progress(done, total)`` is called after each chunk of boards.

    Raises ``EquityError`` (a ``ValueError``) for a bad card, a wrong count, a card given
    twice, or bad options.
    """
    holes, known, gone = _read(hands, board, dead)
    if samples is not None:
        samples = _whole(samples, 1, "samples must be a whole number of at least 1")
    if seed is not None:
        seed = _whole(seed, 0, "seed must be a whole number of at least 0 or None")
    used = {*known, *gone, *(c for h in holes for c in h)}
    deck = np.array([c for c in range(52) if c not in used], dtype=np.uint8)
    missing = 5 - len(known)
    if len(deck) < missing:
        raise EquityError(f"only {len(deck)} cards are left, too few to complete the board")

    tally = _Tally(np.array(holes, dtype=np.uint8), np.array(known, dtype=np.uint8))
    exact = samples is None or missing == 0
    if exact:
        combos = _combinations(len(deck), missing)
        total = combos.shape[1]
        for start in range(0, total, _CHUNK):
            tally.add(deck, combos[:, start : start + _CHUNK])
            if progress is not None:
                progress(min(start + _CHUNK, total), total)
    else:
        total = cast(int, samples)
        rng = np.random.default_rng(seed)
        for start in range(0, total, _CHUNK):
            n = min(_CHUNK, total - start)
            tally.add(deck, _sample(rng, len(deck), missing, n))
            if progress is not None:
                progress(start + n, total)
    return EquityResult(
        hands=tuple(holes), board=known, dead=gone, boards=total, exact=exact,
        splits=tuple(tuple(int(n) for n in row) for row in tally.splits),
    )


class _Tally:
    """Evaluates chunks of boards and accumulates ``splits`` (hands x (hands + 1))."""

    def __init__(self, holes: npt.NDArray[np.uint8], known: npt.NDArray[np.uint8]) -> None:
        self.holes = holes
        self.known = known
        self.splits = np.zeros((len(holes), len(holes) + 1), dtype=np.int64)

    def add(self, deck: npt.NDArray[np.uint8], dealt: npt.NDArray[Any]) -> None:
        """Count one chunk of boards: ``dealt[j, i]`` is the position in ``deck`` of the
        j-th card dealt to board i (the cards missing from the known board)."""
        n = dealt.shape[1]
        k = len(self.known)
        # One column per board (card-major): the evaluator reads it as (boards, 7) rows
        # through a transposed view, and writing a hand's two cards is two contiguous fills.
        cards = np.empty((7, n), dtype=np.uint8)
        cards[2 : 2 + k] = self.known[:, None]
        np.take(deck, dealt, out=cards[2 + k :])
        values = np.empty((len(self.holes), n), dtype=np.uint16)
        for h, (a, b) in enumerate(self.holes):
            cards[0] = a
            cards[1] = b
            values[h] = evaluate_batch(cards.T, check=False)  # the cards are distinct
        _score(self.splits, values)


def _score(splits: npt.NDArray[np.int64], values: npt.NDArray[np.uint16]) -> None:
    """Add to ``splits`` (hands x (hands + 1)) the outcome of each column of ``values``
    (hands x deals: the value of each hand on each deal)."""
    players, n = values.shape
    if players == 2:  # heads-up: two comparisons
        first = int(np.count_nonzero(values[0] > values[1]))
        second = int(np.count_nonzero(values[1] > values[0]))
        splits += [[0, first, n - first - second], [0, second, n - first - second]]
        return
    top = values == values.max(axis=0)
    winners = top.sum(axis=0)
    for h in range(players):
        splits[h] += np.bincount(winners[top[h]], minlength=players + 1)


@lru_cache(maxsize=4)
def _combinations(n: int, k: int) -> npt.NDArray[np.uint8]:
    """Every k-subset of range(n) in lexicographic order, as a (k, C(n, k)) array: column i
    is the i-th subset (cached, read-only).

    Built a row at a time: a subset ending in ``last`` is followed by each value from
    ``last + 1`` to the largest that leaves room for the values still to come.
    """
    columns: list[npt.NDArray[np.uint8]] = []
    last = np.array([-1], dtype=np.int32)
    for j in range(k):
        counts = ((n - k + j) - last).astype(np.intp)
        starts = np.cumsum(counts) - counts
        first = np.repeat(last + 1 - starts.astype(np.int32), counts)
        columns = [np.repeat(c, counts) for c in columns]
        columns.append((first + np.arange(len(first), dtype=np.int32)).astype(np.uint8))
        last = columns[-1].astype(np.int32)
    subsets = np.stack(columns) if columns else np.zeros((0, 1), dtype=np.uint8)
    subsets.flags.writeable = False
    return subsets


def _sample(rng: np.random.Generator, m: int, k: int, n: int) -> npt.NDArray[np.uint8]:
    """``n`` uniformly random k-subsets of range(m) (m <= 256) as a (k, n) array, column i
    the i-th subset.

    Floyd's algorithm, on all columns at once: for top = m - k ... m - 1, draw t from
    0..top and take t, or top itself if t was taken already.
    """
    picks = np.empty((k, n), dtype=np.uint8)
    for j, top in enumerate(range(m - k, m)):
        t = rng.integers(0, top, size=n, dtype=np.uint8, endpoint=True)
        taken = np.zeros(n, dtype=bool)
        for earlier in picks[:j]:
            taken |= earlier == t
        t[taken] = top
        picks[j] = t
    return picks


# --- reading the input ---------------------------------------------------------------------


def _cards(what: str, cards: object) -> tuple[Card, ...]:
    if isinstance(cards, np.ndarray):
        cards = cards.tolist()
    elif not isinstance(cards, str) and isinstance(cards, Iterable):
        cards = [int(c) if isinstance(c, np.integer) else c for c in cards]
    try:
        return parse_cards(cast(CardsLike, cards))
    except CardError as exc:
        raise EquityError(f"{what}: {exc}") from None
    except TypeError:
        raise EquityError(f"{what}: cannot read cards from {cards!r}") from None


def _whole(value: object, low: int, message: str) -> int:
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)) and value >= low:
        return int(value)
    raise EquityError(f"{message}, got {value!r}")


def _count(cards: tuple[Card, ...]) -> str:
    return f"{len(cards)} card" + ("" if len(cards) == 1 else "s")


def _claim(seen: dict[Card, str], cards: tuple[Card, ...], where: str) -> None:
    """Note where each of ``cards`` is (``seen``: card -> where); a card met before is an error."""
    for c in cards:
        if c in seen:
            raise EquityError(f"{c} appears twice: in {seen[c]} and {where}")
        seen[c] = where


def _read(
    hands: object, board: object, dead: object
) -> tuple[list[tuple[Card, Card]], tuple[Card, ...], tuple[Card, ...]]:
    if isinstance(hands, str) or not isinstance(hands, Iterable):
        raise EquityError(f"hands must be a list of hands like ['AhKh', 'QsQd'], got {hands!r}")
    hands = list(hands)
    if not MIN_HANDS <= len(hands) <= MAX_HANDS:
        raise EquityError(f"equity needs {MIN_HANDS} to {MAX_HANDS} hands, got {len(hands)}")
    holes: list[tuple[Card, Card]] = []
    seen: dict[Card, str] = {}
    for i, hand in enumerate(hands, 1):
        cards = _cards(f"hand {i}", hand)
        if len(cards) != 2:
            raise EquityError(
                f"hand {i} has {_count(cards)} ({format_cards(cards)!r}); a hold'em hand has 2"
            )
        _claim(seen, cards, f"hand {i}")
        holes.append((cards[0], cards[1]))
    known = _cards("board", board)
    if len(known) not in BOARD_SIZES:
        raise EquityError(
            f"the board has {_count(known)} ({format_cards(known)!r}); it has 0, 3, 4 or 5"
        )
    _claim(seen, known, "the board")
    gone = _cards("dead cards", dead)
    _claim(seen, gone, "the dead cards")
    return holes, known, gone


# --- seven card stud -----------------------------------------------------------------------


def stud_equity(
    hands: Sequence[CardsLike],
    dead: CardsLike = (),
    *,
    samples: int | None = None,
    seed: int | None = None,
    limit: int = 2_000_000,
) -> EquityResult:
    """Seven card stud equity of 2 to 8 ``hands``, each the 1 to 7 cards a player holds so
    far (up or down does not matter for equity), given ``dead`` cards nobody can get (such
    as folded players' up cards).

    Each hand is completed to 7 cards from the remaining deck, dealt without replacement in
    player order. Exhaustive when the number of completions (the product of the
    combinations, ``boards`` in the result) is at most ``limit``; otherwise ``samples``
    (default 200,000) random completions from numpy's generator seeded with ``seed`` (a
    Monte Carlo estimate for speed, not a way to deal). The exhaustive deals are held in
    memory (one byte per dealt card per deal), which ``limit`` also bounds. The result's
    ``board`` is empty.

    Raises ``EquityError`` for a bad card, a wrong count, a card given twice, bad options,
    or hands that need more cards than the deck holds (possible with 8 players: the rule
    that then deals one community card is not modelled).

    >>> r = stud_equity(['AsAd 2c3h4h5d Kc', 'KsKd 7c8h9hTd Qc'])
    >>> r.boards, r.exact, r.equity
    (1, True, (1.0, 0.0))
    """
    known, gone = _read_stud(hands, dead)
    if samples is not None:
        samples = _whole(samples, 1, "samples must be a whole number of at least 1")
    if seed is not None:
        seed = _whole(seed, 0, "seed must be a whole number of at least 0 or None")
    limit = _whole(limit, 0, "limit must be a whole number of at least 0")
    used = {*gone, *(c for h in known for c in h)}
    deck = np.array([c for c in range(52) if c not in used], dtype=np.uint8)
    needs = [7 - len(h) for h in known]
    if sum(needs) > len(deck):
        raise EquityError(
            f"the hands need {sum(needs)} more cards but only {len(deck)} are left; "
            "the community-card rule of stud is not modelled"
        )
    completions, left = 1, len(deck)
    for k in needs:
        completions *= comb(left, k)
        left -= k

    splits = np.zeros((len(known), len(known) + 1), dtype=np.int64)
    exact = completions <= limit
    if exact:
        total = completions
        dealt = _stud_deals(len(deck), needs)
        for start in range(0, total, _CHUNK):
            _stud_add(splits, known, deck, dealt[:, start : start + _CHUNK])
    else:
        total = 200_000 if samples is None else samples
        rng = np.random.default_rng(seed)
        for start in range(0, total, _CHUNK):
            n = min(_CHUNK, total - start)
            # a uniformly random ordering of the deck per deal; its first cards are dealt
            order = rng.random((n, len(deck))).argsort(axis=1)[:, : sum(needs)]
            _stud_add(splits, known, deck, order.T.astype(np.uint8))
    return EquityResult(
        hands=tuple(known), board=(), dead=gone, boards=total, exact=exact,
        splits=tuple(tuple(int(n) for n in row) for row in splits),
    )


def _stud_add(
    splits: npt.NDArray[np.int64],
    known: Sequence[tuple[Card, ...]],
    deck: npt.NDArray[np.uint8],
    dealt: npt.NDArray[Any],
) -> None:
    """Count one chunk of deals: ``dealt[j, i]`` is the position in ``deck`` of the j-th card
    dealt in deal i (the missing cards of each hand in turn)."""
    n = dealt.shape[1]
    values = np.empty((len(known), n), dtype=np.uint16)
    cards = np.empty((7, n), dtype=np.uint8)
    row = 0
    for h, hand in enumerate(known):
        k = len(hand)
        cards[:k] = np.array(hand, dtype=np.uint8)[:, None]
        np.take(deck, dealt[row : row + 7 - k], out=cards[k:])
        row += 7 - k
        values[h] = evaluate_batch(cards.T, check=False)  # the cards are distinct
    _score(splits, values)


def _stud_deals(m: int, needs: Sequence[int]) -> npt.NDArray[np.uint8]:
    """Every way to deal ``needs[0]`` cards, then ``needs[1]`` of the rest, ... from
    range(m), as a (sum(needs), product of combinations) array: column i is the i-th deal,
    the cards of each hand in turn (positions in the deck)."""
    dealt = np.zeros((0, 1), dtype=np.uint8)
    taken = 0
    for k in needs:
        if k == 0:
            continue
        subsets = _combinations(m - taken, k)  # positions among the cards still in the deck
        n = dealt.shape[1]
        parts = []
        for start in range(0, n, _CHUNK):  # bounded memory for the cards still in the deck
            part = dealt[:, start : start + _CHUNK]
            free = np.ones((part.shape[1], m), dtype=bool)
            free[np.arange(part.shape[1])[None, :], part] = False
            rest = np.nonzero(free)[1].astype(np.uint8).reshape(part.shape[1], m - taken)
            new = rest[:, subsets]  # (deals, k, subsets)
            parts.append(np.concatenate([
                np.repeat(part, subsets.shape[1], axis=1),
                new.transpose(1, 0, 2).reshape(k, -1),
            ]))
        dealt = np.concatenate(parts, axis=1)
        taken += k
    return dealt


def _read_stud(hands: object, dead: object) -> tuple[list[tuple[Card, ...]], tuple[Card, ...]]:
    if isinstance(hands, str) or not isinstance(hands, Iterable):
        raise EquityError(f"hands must be a list of hands like ['AsKs Qd', '2c2d 2h'], got {hands!r}")
    hands = list(hands)
    if not MIN_HANDS <= len(hands) <= STUD_MAX_HANDS:
        raise EquityError(
            f"stud equity needs {MIN_HANDS} to {STUD_MAX_HANDS} hands, got {len(hands)}"
        )
    known: list[tuple[Card, ...]] = []
    seen: dict[Card, str] = {}
    for i, hand in enumerate(hands, 1):
        cards = _cards(f"hand {i}", hand)
        if not 1 <= len(cards) <= 7:
            raise EquityError(
                f"hand {i} has {_count(cards)} ({format_cards(cards)!r}); "
                "a stud hand has 1 to 7 known cards"
            )
        _claim(seen, cards, f"hand {i}")
        known.append(cards)
    gone = _cards("dead cards", dead)
    _claim(seen, gone, "the dead cards")
    return known, gone

