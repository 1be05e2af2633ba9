"""What one stored hand adds to each of its players' statistics, counted from what the
table saw: the actions, who reached the showdown, the pots' winners and the nets. Hole
cards are never read (a player's figures are what anyone at his table could count).

The definitions, for hold'em and seven card stud alike; "the first round" is the betting
before the flop (stud: on third street), "later rounds" the ones after it:

- hands: hands he was dealt into.
- VPIP: hands where he put chips in voluntarily in the first round: called, bet, raised
  or completed. Blinds, antes, straddles and the bring-in are forced, and a check in the
  big blind puts nothing in; calling a completion after his own bring-in counts.
- PFR: hands where he bet, raised or completed in the first round (stud: completed the
  bring-in or raised on third street).
- 3-bet: of the hands where he acted facing exactly one raise in the first round (hold'em:
  an open raise over the blinds; stud: a completion), those where he raised it. Blinds,
  straddles and the bring-in are not raises. Shown as a share of those chances.
- AF (aggression factor): his bets, raises and completions in later rounds over his calls
  there (None when he never called).
- WTSD (went to showdown): of the hands where he saw the flop (stud: fourth street; he had
  not folded when the first round ended, with someone else still in), those where he
  reached the showdown.
- W$SD (won at showdown): of the hands where he reached the showdown, those where he won
  chips from a pot (any share of any pot).
- bb/100: his net over the hands, in big blinds of each hand's stakes (stud: the small
  bet), per hundred hands.
- net, and the net of the hands he took to the showdown (the session graph's two lines:
  chips won, and chips won without the showdowns).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

AGGRESSIVE = frozenset({"bet", "raise", "complete"})
VOLUNTARY = AGGRESSIVE | {"call"}
_CHANCE = VOLUNTARY | {"fold", "check"}  # a decision facing the raise (not a forced post)


@dataclass(frozen=True, slots=True)
class Figures:
    """One player's part in one hand: what it adds to his counters (store/schema.py
    ``player_stats``)."""

    vpip: bool = False
    pfr: bool = False
    three_bet: bool = False
    three_bet_chance: bool = False
    bets: int = 0
    calls: int = 0
    saw_flop: bool = False
    showdown: bool = False
    won_showdown: bool = False
    net: int = 0


@dataclass(frozen=True, slots=True)
class CountedHand:
    """A stored hand counted: its game ("NLHE", "PLHE", "FLHE", "Stud"), the unit of
    bb/100 (its big blind; stud: its small bet) and each seat's figures."""

    game: str
    bb: int
    seats: dict[int, Figures]


class NotCountable(ValueError):
    """A stored history this module cannot count (the room's first cut kept no snapshot)."""


def game_of(game: Mapping[str, Any]) -> tuple[str, int]:
    """The game's key and the unit of its bb/100, from a snapshot's "game" fields."""
    if game.get("variant") == "stud":
        return "Stud", max(1, int(game["small_bet"]))
    unit = int(game["big_blind"]) or int(game["small_bet"])
    return f"{game['structure']}HE", max(1, unit)


def count_hand(history: Mapping[str, Any]) -> CountedHand:
    """Each seat's figures in a stored history (the JSON the worker stores: "players" with
    their seats, "private.hand" the hand's snapshot; histories/snapshot.py), read from its
    events and the snapshot's public facts only: never "holes" nor any card."""
    try:
        hand = history["private"]["hand"]
        seats = [int(p["seat"]) for p in history["players"]]
        events = hand["events"]
        game, bb = game_of(hand["game"])
        showdown = set(hand["reached_showdown"])
        winnings = hand["winnings"]
    except (KeyError, TypeError, ValueError) as e:
        raise NotCountable(f"a stored hand without its snapshot ({e!r})") from None
    n = len(seats)
    vpip, pfr, three, chance = [False] * n, [False] * n, [False] * n, [False] * n
    bets, calls = [0] * n, [0] * n
    folded_in = [-1] * n  # the round he folded in; -1: never
    nets = [0] * n
    round_ = raises = 0
    for event in events:
        tag = event[0]
        if tag == "act":
            player, action = event[1], event[2]
            if action == "fold":
                folded_in[player] = round_
            if round_ == 0:
                if action in _CHANCE and raises == 1:
                    chance[player] = True
                    three[player] = three[player] or action in AGGRESSIVE
                if action in VOLUNTARY:
                    vpip[player] = True
                if action in AGGRESSIVE:
                    pfr[player] = True
                    raises += 1
            elif action in AGGRESSIVE:
                bets[player] += 1
            elif action == "call":
                calls[player] += 1
        elif tag == "street":
            round_ += 1
        elif tag == "end":
            nets = [int(x) for x in event[2]]
    in_after_first = [i for i in range(n) if folded_in[i] != 0]
    saw = set(in_after_first) if len(in_after_first) >= 2 else set()
    figures = {
        seats[i]: Figures(
            vpip=vpip[i], pfr=pfr[i], three_bet=three[i], three_bet_chance=chance[i], bets=bets[i],
            calls=calls[i], saw_flop=i in saw, showdown=i in showdown,
            won_showdown=i in showdown and winnings[i] > 0, net=nets[i],
        )
        for i in range(n)
    }
    return CountedHand(game, bb, figures)
