"""Hand histories (pokerroom.histories): PHH that our strict replay plays back to the
same stacks, PokerStars-style text whose chips add up, and the hiding rules of D6."""

from __future__ import annotations

import datetime
import json
import random
import re
import warnings
from functools import cache

import pytest
from pokerkit import HandHistory as PokerKitHistory

from pokerroom.core import phh
from pokerroom.core.cards import Card, parse_cards, seeded_deck
from pokerroom.core.events import Posted
from pokerroom.core.hand import Hand
from pokerroom.core.structures import Game
from pokerroom.fairness import commit, salt_text
from pokerroom.histories import (
    HistoryError,
    full_history,
    hand_name,
    restore,
    snapshot,
    stored_text,
    to_phh,
    to_pokerstars,
    visible_players,
)
from pokerroom.table.record import record_hand
from tests.core.helpers import stacked_deck
from tests.server.helpers.histories import (
    COUNTS,
    NAMES,
    NOON,
    play_forced,
    random_hands,
    scripted_holdem,
    scripted_stud,
    seats_of,
)


def card_tokens(text: str) -> set[str]:
    """Every card written in a PokerStars text's brackets."""
    return {c for group in re.findall(r"\[([^\]]*)\]", text) for c in group.split()}


def phh_cards(text: str) -> set[str]:
    """Every known card of a PHH text's actions."""
    out: set[str] = set()
    for line in phh.loads(text).actions:
        cards = phh.parse_action(line).cards or ()
        out |= {str(c) for c in cards if c is not None}
    return out


SEAT = re.compile(r"^Seat (\d+): (\S+) \((\d+) in chips\)$")
NEW_ROUND = re.compile(r"^\*\*\* (FLOP|TURN|RIVER|4th STREET|5th STREET|6th STREET) \*\*\*")


def pokerstars_stacks(text: str) -> dict[str, int]:
    """What a tracker makes of the text: each player's stack after the hand, from the posts,
    bets, returned bets and pots (stops at the summary)."""
    stacks: dict[str, int] = {}
    street: dict[str, int] = {}
    patterns = [
        (re.compile(r"^(\S+): posts the ante (\d+)"), "dead"),
        (re.compile(r"^(\S+): posts (?:small blind|big blind|straddle) (\d+)"), "add"),
        (re.compile(r"^(\S+): (?:calls|bets|brings in for) (\d+)"), "add"),
        (re.compile(r"^(\S+): (?:raises \d+ to|completes it to) (\d+)"), "to"),
        (re.compile(r"^Uncalled bet \((\d+)\) returned to (\S+)$"), "back"),
        (re.compile(r"^(\S+) collected (\d+) from (?:pot|main pot|side pot(?:-\d+)?)$"), "win"),
    ]
    for line in text.splitlines():
        if line == "*** SUMMARY ***":
            break
        if m := SEAT.match(line):
            stacks[m[2]], street[m[2]] = int(m[3]), 0
            continue
        if NEW_ROUND.match(line):
            street = dict.fromkeys(street, 0)
            continue
        for pattern, how in patterns:
            m = pattern.match(line)
            if not m:
                continue
            if how == "back":
                stacks[m[2]] += int(m[1])
                street[m[2]] -= int(m[1])
                break
            who, amount = m[1], int(m[2])
            if how == "dead":
                stacks[who] -= amount
            elif how == "add":
                stacks[who] -= amount
                street[who] += amount
            elif how == "to":
                stacks[who] -= amount - street[who]
                street[who] = amount
            else:
                stacks[who] += amount
            break
    return stacks


@pytest.mark.parametrize("kind", list(COUNTS))
def test_random_hands_replay_to_the_same_stacks(kind: str) -> None:
    showdowns = all_ins = community = 0
    for number, (hand, seats, k) in enumerate(random_hands(kind), 1):
        rng = random.Random(k)
        names = list(NAMES[:hand.n])
        text = to_phh(hand, names=names, seats=seats, table="Alpha", number=number, reveal_all=True,
                      started_at=NOON)
        hh = phh.loads(text)
        assert phh.replay(hh).stacks == hand.stacks, text
        assert hh.finishing_stacks == hand.stacks and hh.players == names and hh.hand == number
        assert hh.variant == hand.game.code and hh.starting_stacks == list(hand.starting_stacks)
        assert hh.extra["table"] == "Alpha" and hh.extra["seats"] == seats
        assert hh.extra["winnings"] == hand.winnings
        assert (hh.extra["year"], hh.extra["month"], hh.extra["day"]) == (2026, 11, 29)
        assert hh.extra["time"] == datetime.time(17, 0) and hh.extra["time_zone"] == "UTC"
        assert phh.verify(hh).ok is True
        assert "??" not in text  # reveal_all: every card dealt is known
        # D6 keeps every showdown hand known: the hidden history replays as well
        viewer = rng.choice([None, *range(hand.n)])
        hidden = to_phh(hand, names=names, seats=seats, table="Alpha", number=number, viewer=viewer)
        assert phh.replay(phh.loads(hidden)).stacks == hand.stacks, hidden
        if hand.game.code != "PT":  # PokerKit's own reader takes the text without a warning
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                assert PokerKitHistory.loads(hidden).starting_stacks == list(hand.starting_stacks)

        stars = to_pokerstars(hand, names=names, seats=seats, table="Alpha", number=number,
                              button_seat=seats[-1], started_at=NOON, viewer=viewer, max_seats=9)
        assert pokerstars_stacks(stars) == dict(zip(names, hand.stacks, strict=True)), stars
        total = int(re.search(r"^Total pot (\d+)", stars, re.M)[1])  # type: ignore[index]
        assert total == sum(int(x) for x in re.findall(r"^\S+ collected (\d+) from", stars, re.M))
        assert total == sum(hand.winnings)
        assert len(re.findall(r"^Seat \d+: \S+", stars, re.M)) == 2 * hand.n  # seats and summary
        showdowns += bool(hand.reached_showdown)
        all_ins += any(s == 0 for s in hand.stacks)
        community += hand.game.stud_game and bool(hand.board)
    assert showdowns >= 50 and all_ins >= 20  # the sample holds both kinds of ending
    assert community >= 5 or kind != "STUD"  # and stud's community card (S9, D4)


@pytest.mark.parametrize("kind", list(COUNTS))
def test_hidden_cards_follow_d6(kind: str) -> None:
    mucked = folded = 0
    for number, (hand, seats, _) in enumerate(random_hands(kind), 1):
        names = list(NAMES[:hand.n])
        text = to_phh(hand, names=names, seats=seats, table="Alpha", number=number)
        stars = to_pokerstars(hand, names=names, seats=seats, table="Alpha", number=number,
                              button_seat=seats[-1], started_at=NOON)
        known, shown = phh_cards(text), card_tokens(stars)
        assert visible_players(hand) == hand.reached_showdown
        for p in range(hand.n):
            down = {str(c) for c, up in zip(hand.holes[p], _face_up(hand, p), strict=True) if not up}
            ups = {str(c) for c, up in zip(hand.holes[p], _face_up(hand, p), strict=True) if up}
            assert ups <= known and ups <= shown  # stud up cards: everyone saw them
            if p in hand.reached_showdown:  # shown or mucked: revealed after the hand (D6)
                assert down <= known and down <= shown
                mucked += p in hand.mucked
            else:  # folded before the showdown, or won when everyone else folded: never revealed
                assert hand.folded[p] or hand.folded.count(False) == 1
                assert not down & known and not down & shown
                folded += hand.folded[p]
        board = {str(c) for c in hand.board}
        assert board <= known and board <= shown  # the board dealt, and nothing undealt
        assert known - board - {str(c) for h in hand.holes for c in h} == set()
    assert mucked >= 20 and folded >= 50


def _face_up(hand: Hand, p: int) -> list[bool]:
    return hand.face_up[p] if hand.game.stud_game else [False] * len(hand.holes[p])


@pytest.mark.parametrize("kind", list(COUNTS))
def test_the_viewer_sees_his_own_cards_only(kind: str) -> None:
    for number, (hand, seats, k) in enumerate(random_hands(kind)[::4], 1):
        rng = random.Random(k)
        names = list(NAMES[:hand.n])
        viewer = rng.randrange(hand.n)
        text = to_phh(hand, names=names, seats=seats, table="T", number=number, viewer=viewer)
        stars = to_pokerstars(hand, names=names, seats=seats, table="T", number=number, button_seat=seats[-1],
                              started_at=NOON, viewer=viewer)
        mine = {str(c) for c in hand.holes[viewer]}
        assert mine <= phh_cards(text) and mine <= card_tokens(stars)
        deal = next(a for a in phh.loads(text).actions if a.startswith(f"d dh p{viewer + 1} "))
        first = hand.holes[viewer][:3 if hand.game.stud_game else 2]
        assert deal == f"d dh p{viewer + 1} {''.join(map(str, first))}"
        dealt_to = [line for line in stars.splitlines() if line.startswith("Dealt to ")]
        if not hand.game.stud_game:  # hold'em: only the viewer's own deal line
            assert dealt_to == [f"Dealt to {names[viewer]} [{' '.join(map(str, first))}]"]
        for p in range(hand.n):
            if p != viewer and p not in hand.reached_showdown:
                down = {str(c) for c, up in zip(hand.holes[p], _face_up(hand, p), strict=True) if not up}
                assert not down & phh_cards(text) and not down & card_tokens(stars)


# ---------------------------------------------------------------------------- scripted hands


HOLDEM_STARS = """\
PokerStars Hand #42:  Hold'em No Limit (1/2) - 2026/11/29 17:00:00 UTC [2026/11/29 12:00:00 ET]
Table 'Alpha' 6-max Seat #5 is the button
Seat 2: Ann (200 in chips)
Seat 3: Bob (150 in chips)
Seat 5: Cyd (100 in chips)
Ann: posts small blind 1
Bob: posts big blind 2
*** HOLE CARDS ***
Cyd: raises 4 to 6
Ann: calls 5
Bob: raises 14 to 20
Cyd: folds
Ann: calls 14
*** FLOP *** [Ks Qs 4c]
Ann: checks
Bob: bets 30
Ann: calls 30
*** TURN *** [Ks Qs 4c] [2c]
Ann: checks
Bob: checks
*** RIVER *** [Ks Qs 4c 2c] [Jd]
Ann: bets 40
Bob: raises 60 to 100 and is all-in
Ann: calls 60
*** SHOW DOWN ***
Bob: shows [Kc Kd] (three of a kind, Kings)
Ann: mucks hand
Bob collected 306 from pot
*** SUMMARY ***
Total pot 306 | Rake 0
Board [Ks Qs 4c 2c Jd]
Seat 2: Ann (small blind) mucked [Ah Qd]
Seat 3: Bob (big blind) showed [Kc Kd] and won (306) with three of a kind, Kings
Seat 5: Cyd (button) folded before Flop
"""


def test_scripted_holdem_hand_in_pokerstars_format() -> None:
    hand = scripted_holdem()
    stars = to_pokerstars(hand, names=["Ann", "Bob", "Cyd"], seats=[2, 3, 5], table="Alpha", number=42,
                          button_seat=5, started_at=NOON, max_seats=6)
    assert stars.splitlines() == HOLDEM_STARS.splitlines()
    # Cyd's folded cards never show; with his view, his own deal line comes after the blinds
    seen = to_pokerstars(hand, names=["Ann", "Bob", "Cyd"], seats=[2, 3, 5], table="Alpha", number=42,
                         button_seat=5, started_at=NOON, max_seats=6, viewer=2)
    assert "7s" not in card_tokens(stars) and "2h" not in card_tokens(stars)
    lines = seen.splitlines()
    assert lines[lines.index("*** HOLE CARDS ***") + 1] == "Dealt to Cyd [7s 2h]"
    assert [x for x in lines if x not in stars.splitlines()] == ["Dealt to Cyd [7s 2h]"]
    everyone = to_pokerstars(hand, names=["Ann", "Bob", "Cyd"], seats=[2, 3, 5], table="Alpha", number=42,
                             button_seat=5, started_at=NOON, max_seats=6, reveal_all=True)
    assert [x for x in everyone.splitlines() if x.startswith("Dealt to")] == [
        "Dealt to Ann [Ah Qd]", "Dealt to Bob [Kc Kd]", "Dealt to Cyd [7s 2h]"]


def test_scripted_holdem_hand_in_phh() -> None:
    hand = scripted_holdem()
    text = to_phh(hand, names=["Ann", "Bob", "Cyd"], seats=[2, 3, 5], table="Alpha", number=42,
                  started_at=NOON)
    hh = phh.loads(text)
    assert hh.actions == [
        "d dh p1 AhQd", "d dh p2 KcKd", "d dh p3 ????",
        "p3 cbr 6", "p1 cc", "p2 cbr 20", "p3 f", "p1 cc",
        "d db KsQs4c", "p1 cc", "p2 cbr 30", "p1 cc",
        "d db 2c", "p1 cc", "p2 cc",
        "d db Jd", "p1 cbr 40", "p2 cbr 100", "p1 cc",
        "p2 sm KcKd", "p1 sm",
    ]
    assert (hh.variant, hh.antes, hh.blinds_or_straddles, hh.min_bet) == ("NT", [0, 0, 0], [1, 2, 0], 2)
    assert hh.ante_trimming_status is None and hh.small_bet is None and hh.bring_in is None
    assert hh.finishing_stacks == [50, 306, 94] and hh.extra["winnings"] == [0, 306, 0]
    assert not [k for k in hh.extra if k.startswith("_")]  # nothing PHH cannot say
    assert 'table = "Alpha"\nseats = [2, 3, 5]\n' in text and "time = 17:00:00\n" in text
    assert phh.replay(hh).stacks == [50, 306, 94]


STUD_STARS = """\
PokerStars Hand #43:  7 Card Stud Limit (10/20) - 2026/11/29 17:00:00 UTC [2026/11/29 12:00:00 ET]
Table 'Beta' 8-max
Seat 1: Ann (100 in chips)
Seat 2: Bob (100 in chips)
Seat 3: Cyd (100 in chips)
Ann: posts the ante 1
Bob: posts the ante 1
Cyd: posts the ante 1
*** 3rd STREET ***
Dealt to Ann [As Ks Qh]
Dealt to Bob [3c]
Dealt to Cyd [9s]
Bob: brings in for 3
Cyd: completes it to 10
Ann: calls 10
Bob: calls 7
*** 4th STREET ***
Dealt to Ann [As Ks Qh] [Jd]
Dealt to Bob [3c] [4c]
Dealt to Cyd [9s] [Th]
Ann: checks
Bob: checks
Cyd: checks
*** 5th STREET ***
Dealt to Ann [As Ks Qh Jd] [5h]
Dealt to Bob [3c 4c] [5c]
Dealt to Cyd [9s Th] [6h]
Ann: checks
Bob: checks
Cyd: checks
*** 6th STREET ***
Dealt to Ann [As Ks Qh Jd 5h] [7d]
Dealt to Bob [3c 4c 5c] [6c]
Dealt to Cyd [9s Th 6h] [2h]
Ann: checks
Bob: checks
Cyd: checks
*** RIVER ***
Dealt to Ann [As Ks Qh Jd 5h 7d] [Ah]
Ann: checks
Bob: checks
Cyd: checks
*** SHOW DOWN ***
Ann: mucks hand
Bob: shows [7h 2d 3c 4c 5c 6c Jc] (a flush, Jack high)
Cyd: mucks hand
Bob collected 33 from pot
*** SUMMARY ***
Total pot 33 | Rake 0
Seat 1: Ann mucked [As Ks Qh Jd 5h 7d Ah]
Seat 2: Bob showed [7h 2d 3c 4c 5c 6c Jc] and won (33) with a flush, Jack high
Seat 3: Cyd mucked [8c 8d 9s Th 6h 2h 8h]
"""


def test_scripted_stud_hand_in_pokerstars_format() -> None:
    hand = scripted_stud()
    stars = to_pokerstars(hand, names=["Ann", "Bob", "Cyd"], seats=[1, 2, 3], table="Beta", number=43,
                          button_seat=3, started_at=NOON, viewer=0, max_seats=8)
    assert stars.splitlines() == STUD_STARS.splitlines()
    text = to_phh(hand, names=["Ann", "Bob", "Cyd"], seats=[1, 2, 3], table="Beta", number=43, viewer=0)
    hh = phh.loads(text)
    assert hh.actions[:7] == ["d dh p1 AsKsQh", "d dh p2 7h2d3c", "d dh p3 8c8d9s", "p2 pb", "p3 cbr 10",
                              "p1 cc", "p2 cc"]  # everyone reached the showdown: all revealed (D6)
    assert (hh.variant, hh.antes, hh.bring_in, hh.small_bet, hh.big_bet) == ("F7S", [1, 1, 1], 3, 10, 20)
    assert hh.blinds_or_straddles is None and hh.ante_trimming_status is True
    assert phh.replay(hh).stacks == [89, 122, 89]


def test_stud_hides_down_cards_of_a_folded_player() -> None:
    hh = phh.HandHistory(
        variant="F7S", antes=[1, 1, 1], bring_in=3, small_bet=10, big_bet=20, starting_stacks=[100] * 3,
        actions=["d dh p1 AsKsQh", "d dh p2 7h2d3c", "d dh p3 8c8d9s", "p2 pb", "p3 cbr 10", "p1 cc", "p2 f",
                 "d dh p1 Jd", "d dh p3 Th", "p1 cc", "p3 cbr 10", "p1 f"],
    )
    hand = phh.replay(hh)
    text = to_phh(hand, names=["Ann", "Bob", "Cyd"], seats=[1, 2, 3], table="Beta", number=1, viewer=1)
    assert phh.loads(text).actions[:3] == ["d dh p1 ????Qh", "d dh p2 7h2d3c", "d dh p3 ????9s"]
    assert "d dh p1 Jd" in phh.loads(text).actions  # up cards are public
    stars = to_pokerstars(hand, names=["Ann", "Bob", "Cyd"], seats=[1, 2, 3], table="Beta", number=1,
                          button_seat=3, started_at=NOON, viewer=1)
    assert "Dealt to Ann [Qh]" in stars and "Dealt to Bob [7h 2d 3c]" in stars
    assert "Dealt to Cyd [9s] [Th]" in stars and "Seat 3: Cyd collected (26)" in stars
    assert "Seat 1: Ann folded on the 4th Street" in stars
    assert "Seat 2: Bob folded on the 3rd Street\n" in stars  # he brought in: no "(didn't bet)"
    assert not {"As", "Ks", "8c", "8d"} & card_tokens(stars)
    assert phh.replay(phh.loads(text)).stacks == hand.stacks


# ---------------------------------------------------------------------------- forced bets PHH lacks


@pytest.mark.parametrize("game", [Game.no_limit(1, 2), Game.pot_limit(1, 2, ante=1), Game.fixed_limit(2, 4)])
def test_a_dead_small_blind_is_dead_money_and_replays(game: Game) -> None:
    # seat 3 pays back the small blind he missed (H7), dead, and waits for the big blind
    for seed in range(25):
        hand = play_forced(game, [300] * 5, seed, blinds=[game.small_blind, game.big_blind, 0, 0, 0],
                           dead_blinds=[0, 0, 1, 0, 0])
        text = to_phh(hand, names=NAMES[:5], seats=[1, 2, 3, 4, 5], table="T", number=seed, reveal_all=True)
        hh = phh.loads(text)
        assert hh.extra["_dead_blinds"] == [0, 0, 1, 0, 0]
        assert hh.antes == [game.ante, game.ante, game.ante + 1, game.ante, game.ante]
        assert hh.blinds_or_straddles == [game.small_blind, game.big_blind, 0, 0, 0]
        assert phh.replay(hh).stacks == hand.stacks
        stars = to_pokerstars(hand, names=NAMES[:5], seats=[1, 2, 3, 4, 5], table="T", number=seed,
                              button_seat=5, started_at=NOON)
        assert "Cyd: posts small blind 1\n" in stars


def test_a_newcomers_live_blind_is_named_but_does_not_replay() -> None:
    # Dee (player 3) pays a dead small blind and a live big blind from a seat after the big blind
    hand = play_forced(Game.no_limit(1, 2), [200] * 5, 7, blinds=[1, 2, 0, 2, 0], dead_blinds=[0, 0, 0, 1, 0])
    text = to_phh(hand, names=NAMES[:5], seats=[1, 2, 3, 4, 5], table="T", number=1, reveal_all=True)
    hh = phh.loads(text)
    assert hh.blinds_or_straddles == [1, 2, 0, 2, 0] and hh.antes == [0, 0, 0, 1, 0]
    assert (hh.extra["_live_blinds"], hh.extra["_dead_blinds"]) == ([0, 0, 0, 2, 0], [0, 0, 0, 1, 0])
    assert hh.extra["_big_blind_player"] == 2
    with pytest.raises(phh.UnsupportedError, match="straddles"):
        phh.replay(hh)
    with warnings.catch_warnings():  # our own fields start with '_', as PokerKit wants them
        warnings.simplefilter("error")
        assert PokerKitHistory.loads(text).user_defined_fields["_live_blinds"] == [0, 0, 0, 2, 0]
    stars = to_pokerstars(hand, names=NAMES[:5], seats=[1, 2, 3, 4, 5], table="T", number=1,
                          button_seat=5, started_at=NOON)
    assert "Dee: posts small & big blinds 3\n" in stars
    as_tracker = stars.replace("posts small & big blinds 3", "posts the ante 1\nDee: posts big blind 2")
    assert pokerstars_stacks(as_tracker) == dict(zip(NAMES, hand.stacks, strict=False))


def test_a_missing_small_blind_puts_the_big_blind_first() -> None:
    # the small blind seat is empty (a dead small blind): the first player left of the button
    # posts the big blind
    hand = play_forced(Game.no_limit(1, 2), [200] * 4, 3, blinds=[2, 0, 0, 0], big_blind_position=0)
    text = to_phh(hand, names=NAMES[:4], seats=[2, 3, 4, 6], table="T", number=1, reveal_all=True)
    hh = phh.loads(text)
    assert hh.blinds_or_straddles == [2, 0, 0, 0] and hh.extra["_big_blind_player"] == 1
    with pytest.raises(phh.PHHError, match="bad stakes"):
        phh.replay(hh)
    stars = to_pokerstars(hand, names=NAMES[:4], seats=[2, 3, 4, 6], table="T", number=1,
                          button_seat=1, started_at=NOON)
    assert "Table 'T' 6-max Seat #1 is the button" in stars and "Ann: posts big blind 2\n" in stars
    assert "small blind" not in stars
    assert pokerstars_stacks(stars) == dict(zip(NAMES, hand.stacks, strict=False))


def test_all_in_protection_is_a_comment_and_does_not_replay() -> None:
    hand = Hand(Game.no_limit(1, 2), [100, 100, 100], seeded_deck(11))
    hand.act("raise", 10)  # Cyd
    hand.protect()  # Ann times out with her small blind in: she stays in for it (D7)
    hand.act("fold")  # Bob
    while not hand.complete:
        hand.act("check" if hand.legal_actions().check else "show")
    text = to_phh(hand, names=NAMES[:3], seats=[1, 2, 3], table="T", number=1, reveal_all=True)
    hh = phh.loads(text)
    assert "# p1 all-in protection (D7): stays in for the chips already committed" in hh.actions
    assert hh.extra["_all_in_protection"] == [1]
    with pytest.raises(phh.ReplayError):
        phh.replay(hh)
    stars = to_pokerstars(hand, names=NAMES[:3], seats=[1, 2, 3], table="T", number=1, button_seat=3,
                          started_at=NOON)
    assert "Ann: times out and is all-in protected" in stars
    assert sum(hand.stacks) == 300 and "*** SHOW DOWN ***" in stars


def test_heads_up_forced_bets_are_reversed_and_short_blinds_are_due_in_full() -> None:
    # heads-up: player 0 is the big blind; PHH writes [small, big] and deals them reversed
    hand = play_forced(Game.no_limit(1, 2, ante=1), [2, 100], 5)  # the big blind is all in on ante + 1
    text = to_phh(hand, names=NAMES[:2], seats=[4, 7], table="T", number=1, reveal_all=True)
    hh = phh.loads(text)
    assert (hh.blinds_or_straddles, hh.antes, hh.ante_trimming_status) == ([1, 2], [1, 1], True)
    assert phh.replay(hh).stacks == hand.stacks
    stars = to_pokerstars(hand, names=NAMES[:2], seats=[4, 7], table="T", number=1, button_seat=7,
                          started_at=NOON)
    assert "Ann: posts big blind 1 and is all-in" in stars
    assert "Seat 7: Bob (button) (small blind)" in stars


def test_non_default_limits_are_named() -> None:
    game = Game.fixed_limit(2, 4, cap=3, heads_up_uncapped=True)
    hand = play_forced(game, [100, 100, 100], 2)
    hh = phh.loads(to_phh(hand, names=NAMES[:3], seats=[1, 2, 3], table="T", number=1))
    assert (hh.extra["_cap"], hh.extra["_heads_up_uncapped"]) == (3, True)
    stud = Hand(Game.stud(10, 20, ante=1, bring_in=3, open_pair_big_bet=False), [50, 50], seeded_deck(1))
    stud.act("fold" if stud.legal_actions().fold else "bring_in")
    while not stud.complete:
        stud.act("fold" if stud.legal_actions().fold else "check")
    assert phh.loads(to_phh(stud, names=NAMES[:2], seats=[1, 2], table="T", number=1)).extra[
        "_open_pair_big_bet"] is False


# ---------------------------------------------------------------------------- odds and ends


@pytest.mark.parametrize(("cards", "name"), [
    ("AsKdQh9c7s", "high card Ace"),
    ("2c2d9h8s3c", "a pair of Deuces"),
    ("KsKd7h7c2s", "two pair, Kings and Sevens"),
    ("3s3d3hAcKd", "three of a kind, Threes"),
    ("As2d3h4c5s", "a straight, Ace to Five"),
    ("Ts Jd Qh Kc As", "a straight, Ten to Ace"),
    ("2h9hJhQh4h", "a flush, Queen high"),
    ("6s6d6hTcTs", "a full house, Sixes full of Tens"),
    ("9s9d9h9cAs", "four of a kind, Nines"),
    ("5d6d7d8d9d", "a straight flush, Five to Nine"),
    ("TsJsQsKsAs", "a Royal Flush"),
    ("AhAd KsKd 2c 3c 7h", "two pair, Aces and Kings"),
])
def test_hand_names(cards: str, name: str) -> None:
    assert hand_name(parse_cards(cards)) == name


def test_bad_calls() -> None:
    live = Hand(Game.no_limit(1, 2), [100, 100], seeded_deck(1))
    with pytest.raises(HistoryError, match="over"):
        to_phh(live, names=["A", "B"], seats=[1, 2], table="T", number=1)
    hand = scripted_holdem()
    with pytest.raises(HistoryError, match="3 names"):
        to_phh(hand, names=["A", "B"], seats=[1, 2, 3], table="T", number=1)
    with pytest.raises(HistoryError, match="one seat"):
        to_pokerstars(hand, names=["A", "B", "C"], seats=[1, 1, 3], table="T", number=1, button_seat=3,
                      started_at=NOON)
    with pytest.raises(HistoryError, match="viewer"):
        to_phh(hand, names=["A", "B", "C"], seats=[1, 2, 3], table="T", number=1, viewer=3)


def test_a_fold_to_a_raise_returns_the_uncalled_bet() -> None:
    hand = Hand(Game.no_limit(1, 2), [100, 100, 100], parse_cards("AsKs 2c7d QhJh 2h3h TsQs 8c 4h 9c 5d"))
    for action, amount in [("raise", 6), ("fold", None), ("fold", None)]:
        hand.act(action, amount)
    stars = to_pokerstars(hand, names=NAMES[:3], seats=[1, 2, 3], table="T", number=9, button_seat=3,
                          started_at=NOON, viewer=2)
    tail = stars.splitlines()[stars.splitlines().index("Cyd: raises 4 to 6"):]
    assert tail == [
        "Cyd: raises 4 to 6", "Ann: folds", "Bob: folds",
        # no blind called the raise: all of it comes back (H12, case 1), the blinds are the pot
        "Uncalled bet (6) returned to Cyd", "Cyd collected 3 from pot", "Cyd: doesn't show hand",
        "*** SUMMARY ***", "Total pot 3 | Rake 0",
        "Seat 1: Ann (small blind) folded before Flop", "Seat 2: Bob (big blind) folded before Flop",
        "Seat 3: Cyd (button) collected (3)",
    ]
    assert "Dealt to Cyd [2c Jh]" in stars and not {"As", "7d", "Ks", "Qh"} & card_tokens(stars)
    text = to_phh(hand, names=NAMES[:3], seats=[1, 2, 3], table="T", number=9, viewer=2)
    assert phh.loads(text).actions[:3] == ["d dh p1 ????", "d dh p2 ????", "d dh p3 2cJh"]


def test_side_pots_are_named_pokerstars_style() -> None:
    # three all in for different amounts: a main pot and two side pots
    hand = Hand(Game.no_limit(1, 2), [20, 50, 100, 200], seeded_deck(21))
    hand.act("raise", 100)  # Cyd
    while not hand.complete:
        legal = hand.legal_actions()
        hand.act("call" if legal.call else "show" if legal.show else "check")
    stars = to_pokerstars(hand, names=NAMES[:4], seats=[1, 2, 3, 4], table="T", number=1, button_seat=4,
                          started_at=NOON)
    assert re.search(r"^Total pot 270 Main pot 80\. Side pot-1 90\. Side pot-2 100\. \| Rake 0$", stars, re.M)
    assert re.search(r"collected \d+ from side pot-2$", stars, re.M)
    assert pokerstars_stacks(stars) == dict(zip(NAMES, hand.stacks, strict=False))


@pytest.mark.parametrize(("utc", "stamp"), [
    ((2026, 11, 29, 17, 0, 0), "2026/11/29 17:00:00 UTC [2026/11/29 12:00:00 ET]"),  # EST, UTC-5
    ((2026, 7, 4, 3, 5, 9), "2026/07/04 3:05:09 UTC [2026/07/03 23:05:09 ET]"),  # EDT, UTC-4, the day before
    ((2026, 3, 8, 6, 59, 59), "2026/03/08 6:59:59 UTC [2026/03/08 1:59:59 ET]"),  # the last second of EST
    ((2026, 3, 8, 7, 0, 0), "2026/03/08 7:00:00 UTC [2026/03/08 3:00:00 ET]"),  # clocks go forward
    ((2026, 11, 1, 5, 30, 0), "2026/11/01 5:30:00 UTC [2026/11/01 1:30:00 ET]"),  # 1:30 EDT
    ((2026, 11, 1, 6, 30, 0), "2026/11/01 6:30:00 UTC [2026/11/01 1:30:00 ET]"),  # 1:30 again, EST
])
def test_the_header_writes_the_time_in_utc_and_eastern_time_as_pokerstars_does(
    utc: tuple[int, ...], stamp: str,
) -> None:
    hand = scripted_holdem()
    started = datetime.datetime(*utc, tzinfo=datetime.UTC).timestamp()
    stars = to_pokerstars(hand, names=["Ann", "Bob", "Cyd"], seats=[2, 3, 5], table="Alpha", number=7,
                          button_seat=5, started_at=started + 0.75)
    assert stars.splitlines()[0] == f"PokerStars Hand #7:  Hold'em No Limit (1/2) - {stamp}"


def test_card_type_is_plain_text() -> None:
    assert str(Card("Td")) == "Td"  # the writers rely on a card printing as two characters


# ------------------------------------------------------------- straddles (D10), shows after the hand (D12)


def straddle_blinds(game: Game, n: int) -> list[int]:
    return [game.small_blind, game.big_blind, 2 * game.big_blind] + [0] * (n - 3)


STRADDLE_GAMES = [Game.no_limit(1, 2), Game.no_limit(5, 10), Game.pot_limit(1, 2), Game.no_limit(1, 2, 1)]


@cache
def straddle_hands() -> list[tuple[Hand, list[int]]]:
    """Random no-limit and pot-limit hands of 3 to 9 players with a straddle, a third of the
    stacks short (the straddler all in on his straddle now and then)."""
    rng = random.Random("histories-straddles")
    out = []
    for k in range(90):
        game = rng.choice(STRADDLE_GAMES)
        n = 3 + k % 7
        unit = game.big_blind
        stacks = [rng.choice([rng.randint(1, 8 * unit), rng.randint(20 * unit, 200 * unit),
                              rng.randint(20 * unit, 200 * unit)]) for _ in range(n)]
        hand = play_forced(game, stacks, rng.randrange(10**9), blinds=straddle_blinds(game, n))
        out.append((hand, seats_of(n, rng)))
    return out


def test_D10_straddle_hands_replay_to_the_same_stacks_in_us_and_in_pokerkit() -> None:
    short = pokerkit = 0
    for number, (hand, seats) in enumerate(straddle_hands(), 1):
        names = list(NAMES[:hand.n])
        game = hand.game
        text = to_phh(hand, names=names, seats=seats, table="T", number=number, reveal_all=True)
        hh = phh.loads(text)
        assert hh.blinds_or_straddles == straddle_blinds(game, hand.n), text  # due in full, short or not
        assert "_live_blinds" not in hh.extra and "_big_blind_player" not in hh.extra
        assert phh.replay(hh).stacks == hand.stacks and phh.verify(hh).ok is True, text
        hidden = to_phh(hand, names=names, seats=seats, table="T", number=number, viewer=0)
        assert phh.replay(phh.loads(hidden)).stacks == hand.stacks, hidden
        straddle = next(e for e in hand.events if type(e) is Posted and e.kind == "straddle")
        short += straddle.all_in
        if game.code == "NT" and not straddle.all_in:  # PokerKit plays it to the same stacks
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                *_, last = PokerKitHistory.loads(text)
            assert list(last.stacks) == hand.stacks, text
            pokerkit += 1
        stars = to_pokerstars(hand, names=names, seats=seats, table="T", number=number, button_seat=seats[-1],
                              started_at=NOON, max_seats=9)
        all_in = " and is all-in" if straddle.all_in else ""
        assert f"\n{names[2]}: posts straddle {straddle.amount}{all_in}\n" in stars
        assert pokerstars_stacks(stars) == dict(zip(names, hand.stacks, strict=True)), stars
        rebuilt = restore(json.loads(json.dumps(snapshot(hand))))  # the stored hand writes the same texts
        assert to_phh(rebuilt, names=names, seats=seats, table="T", number=number, reveal_all=True) == text
    assert short >= 5 and pokerkit >= 40


def straddled_fold_to_a_raise() -> Hand:
    """NL 1/2, four players: Cyd straddles 4, Dee (the button) raises to 8 and everyone folds."""
    hand = Hand(Game.no_limit(1, 2), [100] * 4, stacked_deck(4, ["7h2c", "8d3c", "AsAh", "KsKh"]),
                blinds=[1, 2, 4, 0])
    for action, amount in [("raise", 8), ("fold", None), ("fold", None), ("fold", None)]:
        hand.act(action, amount)
    return hand


def test_D10_the_text_export_writes_the_straddle_as_pokerstars_does() -> None:
    hand = straddled_fold_to_a_raise()
    stars = to_pokerstars(hand, names=NAMES[:4], seats=[1, 2, 3, 4], table="T", number=3, button_seat=4,
                          started_at=NOON, viewer=3)
    lines = stars.splitlines()
    assert lines[lines.index("Ann: posts small blind 1"):] == [
        "Ann: posts small blind 1", "Bob: posts big blind 2", "Cyd: posts straddle 4",
        "*** HOLE CARDS ***", "Dealt to Dee [Ks Kh]",
        "Dee: raises 4 to 8", "Ann: folds", "Bob: folds", "Cyd: folds",
        "Uncalled bet (8) returned to Dee", "Dee collected 7 from pot", "Dee: doesn't show hand",
        "*** SUMMARY ***", "Total pot 7 | Rake 0",
        "Seat 1: Ann (small blind) folded before Flop", "Seat 2: Bob (big blind) folded before Flop",
        "Seat 3: Cyd folded before Flop", "Seat 4: Dee (button) collected (7)",
    ]
    assert pokerstars_stacks(stars) == {"Ann": 99, "Bob": 98, "Cyd": 96, "Dee": 107}


def test_D10_a_short_straddle_is_due_in_full_in_phh_and_all_in_in_the_text() -> None:
    hand = Hand(Game.no_limit(1, 2), [100, 100, 3, 100], stacked_deck(4, ["7h2c", "8d3c", "AsAh", "KsKh"]),
                blinds=[1, 2, 4, 0])
    for action in ("call", "fold", "fold"):  # Dee calls the full 4, the blinds fold
        hand.act(action)
    while not hand.complete:
        hand.act("show")
    assert hand.stacks == [99, 98, 9, 97]
    text = to_phh(hand, names=NAMES[:4], seats=[1, 2, 3, 4], table="T", number=1)
    hh = phh.loads(text)
    assert hh.blinds_or_straddles == [1, 2, 4, 0] and phh.replay(hh).stacks == hand.stacks
    stars = to_pokerstars(hand, names=NAMES[:4], seats=[1, 2, 3, 4], table="T", number=1, button_seat=4,
                          started_at=NOON)
    assert "Cyd: posts straddle 3 and is all-in\n*** HOLE CARDS ***\nDee: calls 4\n" in stars
    assert "Uncalled bet (1) returned to Dee\n" in stars
    assert pokerstars_stacks(stars) == dict(zip(NAMES, hand.stacks, strict=False))


def test_D12_shows_after_an_uncalled_win_are_written_after_the_hand_and_replay() -> None:
    hand = straddled_fold_to_a_raise()
    reveals = {3: (Card("Kh"),), 0: (Card("2c"), Card("7h"))}  # Dee shows one card, Ann (folded) both
    for viewer in (None, 3):
        text = to_phh(hand, names=NAMES[:4], seats=[1, 2, 3, 4], table="T", number=3, viewer=viewer,
                      reveals=reveals)
        hh = phh.loads(text)
        assert hh.actions[-6:] == ["p4 cbr 8", "p1 f", "p2 f", "p3 f", "p4 sm ??Kh", "p1 sm 7h2c"]
        dee = "KsKh" if viewer else "????"
        assert (hh.actions[0], hh.actions[3]) == ("d dh p1 ????", f"d dh p4 {dee}")
        assert phh.replay(hh).stacks == hand.stacks == [99, 98, 96, 107]
    stars = to_pokerstars(hand, names=NAMES[:4], seats=[1, 2, 3, 4], table="T", number=3, button_seat=4,
                          started_at=NOON, reveals=reveals)
    lines = stars.splitlines()
    assert lines[lines.index("Uncalled bet (8) returned to Dee"):lines.index("*** SUMMARY ***") + 1] == [
        "Uncalled bet (8) returned to Dee", "Dee collected 7 from pot",
        "Dee: shows [Kh]", "Ann: shows [7h 2c]", "*** SUMMARY ***",
    ]
    assert "doesn't show" not in stars
    assert pokerstars_stacks(stars) == {"Ann": 99, "Bob": 98, "Cyd": 96, "Dee": 107}
    plain = to_pokerstars(hand, names=NAMES[:4], seats=[1, 2, 3, 4], table="T", number=3, button_seat=4,
                          started_at=NOON)
    assert to_pokerstars(hand, names=NAMES[:4], seats=[1, 2, 3, 4], table="T", number=3, button_seat=4,
                         started_at=NOON, reveals={}) == plain and "shows" not in plain


def test_D12_a_folded_stud_player_shows_a_down_card_after_the_hand() -> None:
    hand = Hand(Game.stud(10, 20, ante=1, bring_in=3), [100, 100, 100], seeded_deck(4))
    while not hand.complete:
        legal = hand.legal_actions()
        hand.act("bring_in" if legal.bring_in else "fold" if legal.fold else "raise", legal.min_to
                 if not legal.bring_in and not legal.fold else None)
    folded = next(p for p in range(3) if hand.folded[p])
    down = hand.holes[folded][1]
    text = to_phh(hand, names=NAMES[:3], seats=[1, 2, 3], table="T", number=1, reveals={folded: (down,)})
    up = hand.holes[folded][2]
    assert phh.loads(text).actions[-1] == f"p{folded + 1} sm ??{down}{up}"  # the up card everyone saw
    assert phh.replay(phh.loads(text)).stacks == hand.stacks


def test_D12_reveals_must_be_the_players_own_cards() -> None:
    hand = straddled_fold_to_a_raise()
    for reveals in ({3: (Card("As"),)}, {4: (Card("Kh"),)}, {3: ()}):
        with pytest.raises(HistoryError):
            to_phh(hand, names=NAMES[:4], seats=[1, 2, 3, 4], table="T", number=1, reveals=reveals)
        with pytest.raises(HistoryError):
            to_pokerstars(hand, names=NAMES[:4], seats=[1, 2, 3, 4], table="T", number=1, button_seat=4,
                          started_at=NOON, reveals=reveals)


def test_D12_a_player_who_reached_the_showdown_has_no_show_after_it() -> None:
    """D6 already reveals a showdown hand: a reveal of it adds no line."""
    hand = scripted_holdem()
    p = min(hand.reached_showdown)
    names, seats = list(NAMES[:hand.n]), list(range(1, hand.n + 1))
    again = {p: tuple(hand.holes[p])}
    assert to_phh(hand, names=names, seats=seats, table="T", number=1, reveals=again) == to_phh(
        hand, names=names, seats=seats, table="T", number=1)


def stored_straddle_history(hand: Hand, seats: list[int], reveals: dict[str, list[str]] | None) -> dict:
    """The history the runner stores for a hand (snapshot, salts), with post-hand reveals."""
    deal = commit(hand.deck, salts=[f"{i:032x}" for i in range(52)])
    names = list(NAMES[:hand.n])
    history: dict = {
        "table": "T", "number": 3, "started_at": NOON, "commitment": deal.commitment,
        "players": [{"seat": s, "name": n} for s, n in zip(seats, names, strict=True)],
        "private": {"salts": salt_text(deal), "holes": {}, "hand": snapshot(hand), "button_seat": seats[-1],
                    "max_seats": 6, "game": "NL 1/2"},
    }
    if reveals is not None:
        history["reveals"] = reveals
    return json.loads(json.dumps(history))


def served(history: dict, hand: Hand, hand_id: int = 3) -> dict:
    """A stored history as Store.hand reads it back (full_history) for the API's readers."""
    return json.loads(full_history(json.dumps(history), "".join(map(str, hand.deck)), hand_id))


def test_D12_stored_reveals_reach_the_texts_and_the_record() -> None:
    hand = straddled_fold_to_a_raise()
    seats = [2, 3, 5, 6]
    names = list(NAMES[:4])
    history = served(stored_straddle_history(hand, seats, {"6": ["Kh"], "2": ["7h", "2c"]}), hand)
    reveals = {3: (Card("Kh"),), 0: (Card("7h"), Card("2c"))}
    where = {"names": names, "seats": seats, "table": "T", "number": 3, "started_at": NOON}
    for seat, viewer in ((None, None), (6, 3), (3, 1)):
        assert stored_text(history, seat, "phh") == to_phh(hand, viewer=viewer, reveals=reveals, **where)
        assert stored_text(history, seat, "txt") == to_pokerstars(
            hand, button_seat=6, viewer=viewer, max_seats=6, reveals=reveals, **where)
    assert "p4 sm ??Kh" in stored_text(history, None, "phh")
    assert "Dee: shows [Kh]\nAnn: shows [7h 2c]\n*** SUMMARY ***" in stored_text(history, None, "txt")
    record = history["record"]
    assert [(p["seat"], p["cards"], p["revealed"]) for p in record["players"]] == [
        (2, ["7h", "2c"], ["7h", "2c"]), (3, [None, None], []), (5, [None, None], []),
        (6, [None, "Kh"], ["Kh"])]
    deals = [e["card"] for e in record["events"] if e["type"] == "HoleDealt" and e["player"] == 6]
    assert deals == [None, "Kh"]  # the card he showed is seen in the record's events too
    # without reveals: the texts and the record are what they were (byte for byte)
    plain = served(stored_straddle_history(hand, seats, None), hand)
    assert stored_text(plain, None, "phh") == to_phh(hand, **where)
    assert stored_text(plain, 6, "txt") == to_pokerstars(hand, button_seat=6, viewer=3, max_seats=6, **where)
    bare = plain["record"]
    assert all(p["revealed"] == [] for p in bare["players"]) and bare["players"][3]["cards"] == [None, None]
    with pytest.raises(HistoryError, match="seat '4'"):
        served(stored_straddle_history(hand, seats, {"4": ["Kh"]}), hand)
    # the texts carry the hand's room-wide id, not its number at its table (item 8)
    other = served(stored_straddle_history(hand, seats, None), hand, hand_id=1234)
    assert stored_text(other, None, "phh") == to_phh(hand, **{**where, "number": 1234})
    assert stored_text(other, 6, "txt").startswith("PokerStars Hand #1234:  Hold'em No Limit (1/2) - ")


def test_D12_record_hand_shows_the_revealed_cards() -> None:
    hand = straddled_fold_to_a_raise()
    seats, players = (1, 2, 3, 4), ("a", "b", "c", "d")
    record = record_hand(3, "NL 1/2", 4, hand, seats, players, reveals={3: (Card("Kh"), Card("Ks"))})
    dee, kings = record.player(4), (Card("Ks"), Card("Kh"))  # in his hole order
    assert (dee.cards, dee.revealed, dee.reached_showdown, dee.folded) == (kings, kings, False, False)
    assert record.player(3).cards == (None, None) and record.player(3).revealed == ()
    plain = record_hand(3, "NL 1/2", 4, hand, seats, players)
    assert plain == record_hand(3, "NL 1/2", 4, hand, seats, players, reveals={})
    assert plain.player(4).cards == (None, None) and plain.player(4).revealed == ()
    with pytest.raises(ValueError, match="not cards of his"):
        record_hand(3, "NL 1/2", 4, hand, seats, players, reveals={3: (Card("As"),)})


def test_D10_a_straddle_after_a_big_blind_with_no_small_blind_is_named_but_does_not_replay() -> None:
    """The dead-button rule leaves no small blind: player 0 posts the big blind, player 1
    straddles. PHH would read [2, 4, 0, 0] as blinds of 2 and 4: the replay refuses it."""
    hand = play_forced(Game.no_limit(1, 2), [200] * 4, 3, blinds=[2, 4, 0, 0], big_blind_position=0,
                       small_blind=False)
    text = to_phh(hand, names=NAMES[:4], seats=[2, 3, 4, 6], table="T", number=1, reveal_all=True)
    hh = phh.loads(text)
    assert hh.blinds_or_straddles == [2, 4, 0, 0] and hh.extra["_big_blind_player"] == 1
    with pytest.raises(phh.UnsupportedError, match="_big_blind_player"):
        phh.replay(hh)
    stars = to_pokerstars(hand, names=NAMES[:4], seats=[2, 3, 4, 6], table="T", number=1, button_seat=1,
                          started_at=NOON)
    assert "Ann: posts big blind 2\nBob: posts straddle 4\n*** HOLE CARDS ***\n" in stars
    assert pokerstars_stacks(stars) == dict(zip(NAMES, hand.stacks, strict=False))
