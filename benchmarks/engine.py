"""``pokerroom bench engine``: this engine against PokerKit 0.7.7 on the same work, in one run.

Two workloads, each timed for both engines in the same process, repeated, medians quoted:

(a) replay: every Pluribus hand in ``../shared/phh/pluribus`` (4,687 six-max no-limit
    hands). Reading the TOML files is not timed for either engine; the timed part goes
    from a loaded hand history (action strings included) to the final stacks.
(a') replay end to end: the same files from the disk to the verdict, as ``pokerroom
    replay`` and PokerKit's load-and-replay do them: find and read the files, parse the
    TOML and the actions, replay, compare with the recorded ``finishing_stacks``
    (``phh.replay_paths``; PokerKit's ``HandHistory.load_all`` + replay + compare). The
    start-up (imports) is not timed; our cache of parsed action lines is emptied before
    each run, so each is a cold start. The two engines run in turn (ours, PokerKit, ours...),
    so that a drift of the shared machine's speed meets both alike.
(b) simulate: six-max no-limit 50/100 hands, stacks 10,000, random legal actions; and
    (c) the same for six-handed seven card stud 10/20, ante 1, bring-in 3, stacks 1,000. Both
    engines follow the same policy from the same ``random.Random(seed)`` (see
    ``tests.oracles.pokerkit.simulate``): the deck is shuffled per hand, at each decision a kind is
    drawn among fold (only facing a bet), check/call and bet/raise (when allowed), and a
    bet or raise goes to a uniform amount between the minimum and the maximum. Where the
    two engines' rules agree the hands are identical, so the run also counts how many
    hands ended on the same stacks.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pokerroom.core import phh
from pokerroom.core.hand import Hand
from pokerroom.core.phh.grammar import forget_parsed
from pokerroom.core.structures import Game
from tests.oracles.data import shared_phh

DEFAULT_PHH = shared_phh() / "pluribus"


def _load_ours(folder: Path) -> list[phh.HandHistory]:
    hands: list[phh.HandHistory] = []
    for path in sorted(folder.rglob("*.phh*")):
        hands.extend(hh for _, hh in phh.load(path))
    return hands


def replay_ours(hands: Sequence[phh.HandHistory]) -> list[list[int]]:
    return [phh.replay(hh).stacks for hh in hands]


def end_to_end_ours(folder: Path) -> list[phh.ReplayResult]:
    """``pokerroom replay FOLDER`` without the printing: every hand's verdict, from the files."""
    forget_parsed()
    return list(phh.replay_paths([folder]))


def end_to_end_pokerkit(folder: Path) -> int:
    """PokerKit's load-and-replay of the same files: how many hands end on their record."""
    from tests.oracles import pokerkit as pk

    hands = pk.load_phh_hands([str(folder)])
    return pk.count_matches(hands, pk.replay_all(hands))


def simulate_ours(
    n_hands: int, seed: int, players: int = 6, stack: int = 10000, blinds: tuple[int, int] = (50, 100)
) -> list[list[int]]:
    """The mirror of ``tests.oracles.pokerkit.simulate``: same generator calls, same policy."""
    return _simulate(Game.no_limit(*blinds), n_hands, seed, players, stack, least=False)


def simulate_stud_ours(
    n_hands: int, seed: int, players: int = 6, stack: int = 1000, ante: int = 1, bring_in: int = 3,
    small_bet: int = 10, big_bet: int = 20,
) -> list[list[int]]:
    """The mirror of ``tests.oracles.pokerkit.simulate_stud``: same generator calls, same policy.

    Where our rules offer two amounts (a big bet on fourth street with an open pair, D8,
    which PokerKit does not allow), the small bet is taken, as PokerKit would, with the
    generator called exactly as PokerKit's run calls it.
    """
    game = Game.stud(small_bet, big_bet, ante=ante, bring_in=bring_in)
    return _simulate(game, n_hands, seed, players, stack, least=True)


def _simulate(
    game: Game, n_hands: int, seed: int, players: int, stack: int, *, least: bool
) -> list[list[int]]:
    """``n_hands`` hands of ``game`` by PokerKit's random policy, each hand's final stacks.
    A bet or raise goes to a uniform amount between the minimum and the maximum; with
    ``least`` (stud: PokerKit offers exactly one amount), drawn as PokerKit does over the
    minimum alone."""
    rng = random.Random(seed)
    stacks = [stack] * players
    results: list[list[int]] = []
    for _ in range(n_hands):
        order = list(range(52))
        rng.shuffle(order)
        hand = Hand(game, stacks, order)
        while not hand.complete:
            legal = hand.legal_actions()
            if legal.show:
                hand.show()  # PokerKit's automation shows every hand at showdown
                continue
            kinds = ["fold"] if legal.call > 0 else []
            kinds.append("bring_in" if legal.bring_in else "check_call")  # bring_in: stud only
            if legal.min_to is not None:
                kinds.append("raise")
            kind = rng.choice(kinds)
            if kind == "fold":
                hand.fold()
            elif kind == "bring_in":
                hand.bring_in()
            elif kind == "check_call":
                hand.check_call()
            else:
                low, high = legal.min_to, legal.min_to if least else legal.max_to
                assert low is not None and high is not None
                hand.bet_raise(rng.randint(low, high))
        results.append(hand.stacks)
    return results


def _time(fn: Callable[[], Any], repeats: int) -> tuple[list[float], Any]:
    times: list[float] = []
    out: Any = None
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return times, out


def _time_in_turn(
    ours: Callable[[], Any], rival: Callable[[], Any], repeats: int
) -> tuple[list[float], Any, list[float], Any]:
    """Both timed in turn (ours, rival, ours, rival...): on a shared machine whose speed
    drifts, the two runs of a pair meet about the same conditions, where two blocks of runs
    one after the other may not. Each one's times and last result."""
    t_ours: list[float] = []
    t_rival: list[float] = []
    out_ours: Any = None
    out_rival: Any = None
    for _ in range(repeats):
        times, out_ours = _time(ours, 1)
        t_ours += times
        times, out_rival = _time(rival, 1)
        t_rival += times
    return t_ours, out_ours, t_rival, out_rival


def run(
    phh_folder: Path = DEFAULT_PHH,
    sim_hands: int = 1000,
    repeats: int = 3,
    seed: int = 2026,
    as_json: bool = False,
) -> dict[str, Any]:
    from pokerroom.core import MODE
    from tests.oracles import pokerkit as pk  # a dev extra: the rival, never a runtime need

    report: dict[str, Any] = {"python": _python(), "core": MODE, "repeats": repeats}
    # first, in a process that holds no loaded hands yet, as a command run afresh: the
    # garbage collector would walk every loaded hand on each pass and slow both sides
    t_ours, results, t_pk, matched = _time_in_turn(
        lambda: end_to_end_ours(phh_folder), lambda: end_to_end_pokerkit(phh_folder), repeats
    )
    ok = sum(r.ok is not False and r.error is None for r in results)
    report["end_to_end"] = _figures(len(results), t_ours, t_pk) | {
        "ok": ok, "pokerkit_matched": matched,
        "pair_ratios": [round(p / o, 1) for o, p in zip(t_ours, t_pk, strict=True)],
    }

    ours_hh = _load_ours(phh_folder)
    pk_hh = pk.load_phh_hands([str(phh_folder)])
    if len(ours_hh) != len(pk_hh) or not ours_hh:
        raise RuntimeError(f"the engines loaded {len(ours_hh)} and {len(pk_hh)} hands from {phh_folder}")

    t_ours, r_ours = _time(lambda: replay_ours(ours_hh), repeats)
    t_pk, r_pk = _time(lambda: pk.replay_all(pk_hh), repeats)
    same = sum(list(a) == [int(x) for x in b] for a, b in zip(r_ours, r_pk, strict=True))
    report["replay"] = _figures(len(ours_hh), t_ours, t_pk) | {"same_stacks": same}

    t_ours, s_ours = _time(lambda: simulate_ours(sim_hands, seed), repeats)
    t_pk, _ = _time(lambda: pk.simulate(sim_hands, seed), max(1, repeats))
    report["simulate"] = _figures(sim_hands, t_ours, t_pk)
    report["simulate"]["chips_conserved"] = all(sum(s) == 60000 for s in s_ours)

    t_ours, s_ours = _time(lambda: simulate_stud_ours(sim_hands, seed), repeats)
    t_pk, _ = _time(lambda: pk.simulate_stud(sim_hands, seed), max(1, repeats))
    report["stud"] = _figures(sim_hands, t_ours, t_pk)
    report["stud"]["chips_conserved"] = all(sum(s) == 6000 for s in s_ours)
    if as_json:
        print(json.dumps(report))
    else:
        _print(report)
    return report


def _figures(n: int, ours: list[float], rival: list[float]) -> dict[str, Any]:
    mo, mr = statistics.median(ours), statistics.median(rival)
    return {
        "hands": n,
        "pokerroom_hands_per_s": round(n / mo),
        "pokerkit_hands_per_s": round(n / mr),
        "ratio": round(mr / mo, 1),
        "pokerroom_seconds": [round(t, 3) for t in ours],
        "pokerkit_seconds": [round(t, 3) for t in rival],
    }


def _python() -> str:
    import platform

    return f"{platform.python_implementation()} {platform.python_version()}"


def _print(report: dict[str, Any]) -> None:
    print(f"engine benchmark ({report['python']}, median of {report['repeats']} runs)")
    for name, label in (
        ("replay", "replay Pluribus PHH"),
        ("end_to_end", "replay PHH files end to end"),
        ("simulate", "simulate 6-max NL, random legal"),
        ("stud", "simulate 6-max stud, random legal"),
    ):
        f = report[name]
        print(
            f"  {label:34} {f['hands']:>6} hands   pokerroom {f['pokerroom_hands_per_s']:>9,}/s   "
            f"pokerkit {f['pokerkit_hands_per_s']:>7,}/s   ratio {f['ratio']:>5}x"
        )
    print(f"  replay: {report['replay']['same_stacks']} of {report['replay']['hands']} hands end on the "
          f"same stacks in both engines; core modules {report['core']}")
    e2e = report["end_to_end"]
    print(f"  end to end (read files, parse, replay, compare; start-up excluded): {e2e['ok']} hands ok "
          f"for pokerroom, {e2e['pokerkit_matched']} on their record for PokerKit; timed in turn, the "
          f"pairs' ratios {', '.join(f'{r}x' for r in e2e['pair_ratios'])}")
