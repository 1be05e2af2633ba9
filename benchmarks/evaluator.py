"""``pokerroom bench evaluator``: our hand evaluator against treys, eval7, phevaluator and PokerKit.

Every contender evaluates the same hands in the same process; the runs are interleaved
(one run of each contender per round, ``repeats`` rounds) and medians are quoted.

- One hand at a time, 7 cards: ``HANDS`` seeded random hands (distinct cards, uniform),
  converted for each library before any timing: tuples of ``Card``, of ints and of 'As'
  strings (which ``evaluate`` parses) for us, treys ints split into 2 hole cards and a
  5-card board (its ``evaluate(hand, board)``), lists of ``eval7.Card``, ints for
  phevaluator (the public ``evaluate_cards`` and, for reference, its raw C
  ``evaluate_7cards``), PokerKit ``Card`` tuples for ``StandardHighHand.from_game(hole,
  board)``. PokerKit is slow, so it gets the first ``POKERKIT_HANDS`` of the hands and
  its rate is per hand like the others'. Each timed run is ``list(map(f, hands))``
  (``starmap`` where the API takes several arguments).
- 5 and 6 cards: our ``evaluate`` against phevaluator's ``evaluate_cards``.
- Batch: ``pokerroom.core.batch.evaluate_batch`` on a ``BATCH_ROWS`` x 7 array (int64,
  and uint8) whose first rows are the shared hands, against the best one-at-a-time
  rate above. If that module is missing the row says so and the rest still runs.

Before any figure is trusted the outputs are compared on the shared hands: ours ==
7463 - phevaluator == 7463 - treys == PokerKit's entry index + 1, the order of eval7's
values is ours, both our entry points agree, and the batch values are the per-hand ones.
A disagreement is reported and makes ``run`` raise ``RuntimeError`` after printing.
"""

from __future__ import annotations

import json
import os
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial
from itertools import pairwise, starmap
from typing import Any

import numpy as np

from pokerroom.core.cards import FULL_DECK
from pokerroom.core.evaluator import MAX_VALUE, evaluate, evaluate_ints

HANDS = 300_000
POKERKIT_HANDS = 5_000
BATCH_ROWS = 10_000_000
SEED = 2026
NAMES = tuple(str(c) for c in FULL_DECK)  # index -> 'As', the scheme phevaluator uses too


def random_hands(rng: np.random.Generator, rows: int, size: int) -> np.ndarray:
    """``rows`` hands of ``size`` distinct cards 0..51, uniform (rejection of repeats), uint8."""
    hands = rng.integers(0, 52, size=(rows, size), dtype=np.uint8)
    redo = np.arange(rows)
    while redo.size:
        ordered = np.sort(hands[redo], axis=1)
        redo = redo[(ordered[:, 1:] == ordered[:, :-1]).any(axis=1)]
        hands[redo] = rng.integers(0, 52, size=(redo.size, size), dtype=np.uint8)
    return hands


def _peers() -> dict[str, Any]:
    try:
        import eval7  # type: ignore[import-untyped]
        import phevaluator  # type: ignore[import-untyped]
        import phevaluator.evaluator  # type: ignore[import-untyped]
        import pokerkit
        import treys  # type: ignore[import-untyped]
    except ImportError as error:
        raise RuntimeError(
            f"the evaluator benchmark needs the dev extras (pip install -e '.[dev]'): {error}"
        ) from None
    return {
        "treys": treys, "eval7": eval7, "phevaluator": phevaluator,
        "phevaluator_raw": phevaluator.evaluator._EVALUATORS, "pokerkit": pokerkit,
    }


def _each(fn: Callable[[Any], Any], items: Sequence[Any]) -> list[Any]:
    return list(map(fn, items))


def _each_spread(fn: Callable[..., Any], items: Sequence[Sequence[Any]]) -> list[Any]:
    return list(starmap(fn, items))


def _rounds(
    runs: dict[str, Callable[[], Any]], repeats: int
) -> tuple[dict[str, list[float]], dict[str, Any]]:
    """Time every contender once per round, ``repeats`` rounds; keep the last outputs."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    outputs: dict[str, Any] = {}
    for _ in range(repeats):
        for name, fn in runs.items():
            start = time.perf_counter()
            outputs[name] = fn()
            times[name].append(time.perf_counter() - start)
    return times, outputs


def _row(n: int, times: list[float]) -> dict[str, Any]:
    return {"hands": n, "hands_per_s": round(n / statistics.median(times)),
            "seconds": [round(t, 4) for t in times]}


def _mismatches_reversed(ours: Sequence[int], theirs: Sequence[int]) -> int:
    """Hands where ours != 7463 - theirs (phevaluator and treys: 1 = royal flush)."""
    top = MAX_VALUE + 1
    return sum(a != top - b for a, b in zip(ours, theirs, strict=True))


def _order_breaks(ours: Sequence[int], theirs: Sequence[Any]) -> int:
    """Neighbours, in our order, that the other values order differently (0: same order)."""
    index = sorted(range(len(ours)), key=ours.__getitem__)
    breaks = 0
    for i, j in pairwise(index):
        if ours[i] == ours[j]:
            breaks += theirs[i] != theirs[j]
        else:
            breaks += not theirs[i] < theirs[j]
    return breaks


def run(
    repeats: int = 3,
    as_json: bool = False,
    *,
    hands: int = HANDS,
    pokerkit_hands: int = POKERKIT_HANDS,
    batch_rows: int = BATCH_ROWS,
    seed: int = SEED,
) -> dict[str, Any]:
    from pokerroom.core import MODE

    peers = _peers()
    treys, eval7, phe, raw, pokerkit = (
        peers["treys"], peers["eval7"], peers["phevaluator"], peers["phevaluator_raw"], peers["pokerkit"]
    )
    rng = np.random.default_rng(seed)
    shared = random_hands(rng, hands, 7)
    rows: list[list[int]] = shared.tolist()
    pick = FULL_DECK.__getitem__
    cards = [tuple(map(pick, r)) for r in rows]
    ints = [tuple(r) for r in rows]
    texts = [tuple(NAMES[c] for c in r) for r in rows]  # ('As', 'Kd', ...): parsed by evaluate
    treys_of = [treys.Card.new(s) for s in NAMES]
    treys_split = [([treys_of[c] for c in r[:2]], [treys_of[c] for c in r[2:]]) for r in rows]
    eval7_of = [eval7.Card(s) for s in NAMES]
    eval7_hands = [[eval7_of[c] for c in r] for r in rows]
    pk_of = [next(iter(pokerkit.Card.parse(s))) for s in NAMES]
    pk_n = min(pokerkit_hands, hands)
    pk_split = [(tuple(pk_of[c] for c in r[:2]), tuple(pk_of[c] for c in r[2:])) for r in rows[:pk_n]]
    evaluate_ints(cards[0])  # our tables are built at first use: not part of any timing
    treys_eval = treys.Evaluator().evaluate
    pk_hand = pokerkit.StandardHighHand.from_game
    raw7 = raw[7]

    runs: dict[str, Callable[[], list[Any]]] = {
        "evaluate": lambda: list(map(evaluate, cards)),
        "evaluate_int_tuples": lambda: list(map(evaluate, ints)),
        "evaluate_strings": lambda: list(map(evaluate, texts)),
        "evaluate_ints": lambda: list(map(evaluate_ints, cards)),
        "treys": lambda: list(starmap(treys_eval, treys_split)),
        "eval7": lambda: list(map(eval7.evaluate, eval7_hands)),
        "phevaluator": lambda: list(starmap(phe.evaluate_cards, ints)),
        "phevaluator_raw_c": lambda: list(starmap(raw7, ints)),
        "pokerkit": lambda: list(starmap(pk_hand, pk_split)),
    }
    times, out = _rounds(runs, repeats)
    ours = out["evaluate"]
    seven = {name: _row(pk_n if name == "pokerkit" else hands, t) for name, t in times.items()}
    agreement = {
        "evaluate_int_tuples": sum(a != b for a, b in zip(ours, out["evaluate_int_tuples"], strict=True)),
        "evaluate_strings": sum(a != b for a, b in zip(ours, out["evaluate_strings"], strict=True)),
        "evaluate_ints": sum(a != b for a, b in zip(ours, out["evaluate_ints"], strict=True)),
        "treys": _mismatches_reversed(ours, out["treys"]),
        "eval7": _order_breaks(ours, out["eval7"]),
        "phevaluator": _mismatches_reversed(ours, out["phevaluator"]),
        "phevaluator_raw_c": _mismatches_reversed(ours, out["phevaluator_raw_c"]),
        "pokerkit": sum(a != h.entry.index + 1 for a, h in zip(ours, out["pokerkit"], strict=False)),
    }
    peer_names = ("treys", "eval7", "phevaluator", "phevaluator_raw_c", "pokerkit")
    ratios = {
        mine: {p: round(seven[mine]["hands_per_s"] / seven[p]["hands_per_s"], 2) for p in peer_names}
        for mine in ("evaluate", "evaluate_ints")
    }
    strings = round(seven["evaluate_strings"]["hands_per_s"] / seven["evaluate"]["hands_per_s"], 2)

    smaller: dict[str, Any] = {}
    for size in (5, 6):
        small = random_hands(rng, hands, size).tolist()
        small_cards = [tuple(map(pick, r)) for r in small]
        small_ints = [tuple(r) for r in small]
        t, o = _rounds({
            "evaluate": partial(_each, evaluate, small_cards),
            "phevaluator": partial(_each_spread, phe.evaluate_cards, small_ints),
        }, repeats)
        e, p = _row(hands, t["evaluate"]), _row(hands, t["phevaluator"])
        smaller[f"{size}_cards"] = {
            "evaluate": e, "phevaluator": p, "ratio": round(e["hands_per_s"] / p["hands_per_s"], 2),
            "disagree": _mismatches_reversed(o["evaluate"], o["phevaluator"]),
        }
        agreement[f"phevaluator_{size}_cards"] = smaller[f"{size}_cards"]["disagree"]

    best_peer = max(peer_names, key=lambda p: seven[p]["hands_per_s"])
    batch = _batch(rng, shared, ours, batch_rows, repeats, seven, best_peer)
    for dtype, figures in batch.get("dtypes", {}).items():
        agreement[f"evaluate_batch_{dtype}"] = figures["disagree"]

    equity_figures = _equity(peers["phevaluator_raw"][7], repeats)
    agreement["equity"] = int(not equity_figures["agree"])
    report: dict[str, Any] = {
        "python": _python(), "core": MODE, "cpus": os.cpu_count(), "repeats": repeats, "seed": seed,
        "seven_cards": seven, "ratios": ratios, "strings_vs_cards": strings, "smaller": smaller,
        "batch": batch,
        "equity": equity_figures,
        "disagreements": agreement, "agree": not any(agreement.values()),
    }
    if as_json:
        print(json.dumps(report))
    else:
        _print(report)
    if not report["agree"]:
        bad = {k: v for k, v in agreement.items() if v}
        raise RuntimeError(f"the evaluators disagree on the shared hands: {bad}")
    return report


def _batch(
    rng: np.random.Generator, shared: np.ndarray, ours: list[int], rows: int, repeats: int,
    seven: dict[str, Any], best_peer: str,
) -> dict[str, Any]:
    try:
        from pokerroom.core.batch import evaluate_batch
    except ImportError as error:
        return {"available": False, "reason": f"pokerroom.core.batch.evaluate_batch unavailable ({error})"}
    n = len(ours)
    array = np.empty((max(rows, n), 7), dtype=np.uint8)
    array[:n] = shared
    array[n:] = random_hands(rng, len(array) - n, 7)
    probe = rng.choice(np.arange(n, len(array)), size=min(20_000, len(array) - n), replace=False)
    expected = np.array(ours)
    arrays: dict[str, np.ndarray] = {"int64": array.astype(np.int64), "uint8": array}
    evaluate_batch(arrays["int64"][:1000])  # tables built or loaded before the timing
    t, out = _rounds({d: partial(evaluate_batch, a) for d, a in arrays.items()}, repeats)
    figures: dict[str, Any] = {}
    for dtype, values in out.items():
        values = np.asarray(values)
        wrong = int((values[:n] != expected).sum())
        wrong += sum(int(values[i]) != evaluate_ints(array[i].tolist()) for i in probe)
        row = _row(len(array), t[dtype])
        row["disagree"] = wrong
        row["vs_best_peer"] = round(row["hands_per_s"] / seven[best_peer]["hands_per_s"], 1)
        row["vs_evaluate_ints"] = round(row["hands_per_s"] / seven["evaluate_ints"]["hands_per_s"], 1)
        row["vs_eval7"] = round(row["hands_per_s"] / seven["eval7"]["hands_per_s"], 1)
        figures[dtype] = row
    return {"available": True, "rows": len(array), "best_peer": best_peer, "dtypes": figures,
            "checked": f"all {n} shared hands and {len(probe)} other rows against evaluate_ints"}


def _equity(raw7: Any, repeats: int) -> dict[str, Any]:
    """Exhaustive AhKh vs QsQd preflop: our equity() against the same enumeration of all
    1,712,304 boards evaluated one at a time by phevaluator's raw C, in one run."""
    from itertools import combinations

    from pokerroom.core.cards import parse_cards
    from pokerroom.core.equity import equity

    hands = [parse_cards("AhKh"), parse_cards("QsQd")]
    equity(["AhKh", "QsQd"])  # tables and board list loaded before the timing
    t, out = _rounds({"ours": lambda: equity(["AhKh", "QsQd"])}, repeats)
    ours = round(float(out["ours"].equity[0]), 6)
    used = {int(c) for h in hands for c in h}
    rest = [c for c in range(52) if c not in used]
    a, b = [int(c) for c in hands[0]], [int(c) for c in hands[1]]
    start = time.perf_counter()
    wins = ties = boards = 0
    for board in combinations(rest, 5):
        va, vb = raw7(*a, *board), raw7(*b, *board)  # phevaluator: lower is stronger
        wins += va < vb
        ties += va == vb
        boards += 1
    peer_s = time.perf_counter() - start
    peer = round((wins + ties / 2) / boards, 6)
    ours_s = statistics.median(t["ours"])
    return {
        "hands": "AhKh vs QsQd", "boards": boards, "ours_equity": ours, "peer_equity": peer,
        "agree": ours == peer, "ours_ms": round(ours_s * 1000, 1), "peer_ms": round(peer_s * 1000, 1),
        "ratio": round(peer_s / ours_s, 1),
    }


def _python() -> str:
    import platform

    return f"{platform.python_implementation()} {platform.python_version()}"


LABELS = {
    "evaluate": "pokerroom evaluate (Card tuples)",
    "evaluate_int_tuples": "pokerroom evaluate (int tuples)",
    "evaluate_strings": "pokerroom evaluate (tuples of 'As' strings)",
    "evaluate_ints": "pokerroom evaluate_ints (unchecked)",
    "treys": "treys 0.1.8 evaluate",
    "eval7": "eval7 0.1.11 evaluate",
    "phevaluator": "phevaluator 0.6.0 evaluate_cards",
    "phevaluator_raw_c": "phevaluator 0.6.0 raw C evaluate_7cards",
    "pokerkit": "PokerKit 0.7.7 StandardHighHand",
}


def _print(report: dict[str, Any]) -> None:
    seven = report["seven_cards"]
    print(f"evaluator benchmark ({report['python']}, {report['cpus']} CPUs, "
          f"median of {report['repeats']} runs)")
    print(f"  core modules: {report['core']} (pokerroom.core.MODE; POKERROOM_PURE=1 runs the Python source)")
    print(f"  7 cards, one hand at a time ({seven['evaluate']['hands']:,} seeded hands; PokerKit the first "
          f"{seven['pokerkit']['hands']:,}):")
    for name, label in LABELS.items():
        print(f"    {label:42} {seven[name]['hands_per_s']:>12,} hands/s")
    print(f"  strings / Card objects, same run: {report['strings_vs_cards']}x")
    print("  ratios, ours / peer:")
    for peer in ("treys", "eval7", "phevaluator", "phevaluator_raw_c", "pokerkit"):
        r = report["ratios"]
        print(f"    vs {LABELS[peer]:39} evaluate {r['evaluate'][peer]:>8}x   evaluate_ints "
              f"{r['evaluate_ints'][peer]:>8}x")
    for size in (5, 6):
        s = report["smaller"][f"{size}_cards"]
        print(f"  {size} cards: evaluate {s['evaluate']['hands_per_s']:>10,}/s   phevaluator evaluate_cards "
              f"{s['phevaluator']['hands_per_s']:>10,}/s   ratio {s['ratio']}x")
    b = report["batch"]
    if not b["available"]:
        print(f"  batch: unavailable, {b['reason']}")
    else:
        for dtype, f in b["dtypes"].items():
            print(f"  batch evaluate_batch, {b['rows']:,} x 7 {dtype:5} {f['hands_per_s']:>13,} hands/s   "
                  f"{f['vs_best_peer']}x the best one-at-a-time peer ({LABELS[b['best_peer']]}), "
                  f"{f['vs_eval7']}x eval7, {f['vs_evaluate_ints']}x evaluate_ints")
    q = report["equity"]
    print(f"  equity {q['hands']}, all {q['boards']:,} boards: ours {q['ours_ms']} ms ({q['ours_equity']}), "
          f"the same enumeration with phevaluator raw C {q['peer_ms']} ms ({q['peer_equity']}): "
          f"{q['ratio']}x")
    if report["agree"]:
        print("  all contenders agree on every shared hand (ours == 7463 - phevaluator == 7463 - treys == "
              "PokerKit index + 1, eval7 in the same order)")
    else:
        bad = {k: v for k, v in report["disagreements"].items() if v}
        print(f"  DISAGREEMENT (hands or neighbour pairs): {bad}")
