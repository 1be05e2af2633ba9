"""The hold'em rules of RULES.md, one or more tests per rule id: H1-H16 (Texas hold'em),
L1-L4 (betting structures) and C1-C4 (cards and hands), checked on the real engine
(``pokerroom.core.hand.Hand``), plus bad input: every refused action raises
``IllegalAction`` with a code and a useful message and leaves the hand unchanged.

Rules that belong to the table layer (H5 the button moves, H6 newcomers, H7 missed
blinds, L4 mixed games, C1 the secure shuffle) are tested for what the engine provides:
the caller rotates the seats or changes the game between hands, sets forced bets per
player with ``blinds``/``dead_blinds``, and gives the deck order.

Players are in PHH order: 0 is the first seat left of the button (the small blind), the
last is the button; heads-up, 0 is the big blind and 1 the button (small blind).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pokerroom.core
from pokerroom.core.cards import parse_cards, seeded_deck
from pokerroom.core.evaluator import best_five, describe, evaluate
from pokerroom.core.events import (
    BoardDealt,
    HoleDealt,
    Mucked,
    Posted,
    PotAwarded,
    Shown,
    StreetEnded,
    UncalledReturned,
    audience,
    for_viewer,
)
from pokerroom.core.hand import Hand, IllegalAction
from pokerroom.core.structures import Game
from tests.core.helpers import NL12, check_down, deal, events_of, play, show_all

# --- helpers -------------------------------------------------------------------------------


def raises(hand: Hand) -> tuple[int | None, int | None]:
    legal = hand.legal_actions()
    return legal.min_to, legal.max_to


def snapshot(hand: Hand) -> tuple:
    return (
        list(hand.stacks), list(hand.bets), hand.actor, hand.phase, hand.street,
        list(hand.folded), len(hand.events), hand.legal_actions(), hand.pot,
    )


# --- C: cards and hands --------------------------------------------------------------------


def test_C1_hand_deals_exactly_in_the_given_deck_order() -> None:
    """C1: the caller shuffles; the hand deals the deck it is given, in order."""
    deck = seeded_deck(2024)
    h = Hand(NL12, [100] * 4, deck)
    assert [e.card for e in events_of(h, HoleDealt)] == list(deck[:8])
    assert [h.holes[i] for i in range(4)] == [[deck[i], deck[4 + i]] for i in range(4)]
    check_down(h)
    # burn deck[8], flop deck[9:12], burn deck[12], turn deck[13], burn deck[14], river deck[15]
    assert h.board == [deck[9], deck[10], deck[11], deck[13], deck[15]]


def test_C1_same_deck_same_hand_no_shuffle_inside() -> None:
    """C1: the core never shuffles: the same deck and actions give the same events."""
    runs = []
    for _ in range(2):
        h = Hand(NL12, [100, 80, 60], seeded_deck("same"))
        play(h, "2 raise 6; 0 call; 1 call")
        check_down(h)
        show_all(h)
        runs.append(list(h.events))
    assert runs[0] == runs[1]
    other = Hand(NL12, [100, 80, 60], seeded_deck("other"))
    assert other.holes != Hand(NL12, [100, 80, 60], seeded_deck("same")).holes


def test_C1_core_has_no_randomness_of_its_own() -> None:
    """C1: the secure shuffle belongs to the room; in the core only the test helper
    ``cards.seeded_deck`` uses ``random``, and no core module calls it or any other
    source of randomness."""
    core = Path(pokerroom.core.__file__).parent
    sources = {"random", "secrets", "uuid"}
    for path in sorted(core.glob("*.py")):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
                for name in names:
                    root = (name or "").split(".")[0]
                    if root in sources:
                        assert (path.name, root) == ("cards.py", "random"), f"{path.name} imports {name}"
            if isinstance(node, ast.Attribute) and node.attr == "urandom":
                pytest.fail(f"{path.name} uses os.urandom")
            if isinstance(node, ast.Name) and node.id == "seeded_deck" and path.name != "cards.py":
                pytest.fail(f"{path.name} uses seeded_deck")
        if path.name == "cards.py":
            users = {
                f.name
                for f in ast.walk(tree)
                if isinstance(f, ast.FunctionDef)
                for n in ast.walk(f)
                if isinstance(n, ast.Name) and n.id == "random"
            }
            assert users == {"seeded_deck"}
            top_level = [
                n for stmt in tree.body if not isinstance(stmt, ast.FunctionDef | ast.ClassDef)
                for n in ast.walk(stmt) if isinstance(n, ast.Name) and n.id == "random"
            ]
            assert top_level == []


# Heads-up check-down showdowns: (board, hand of player 0, hand of player 1, winner).
RANKING = [
    # straight flush > four of a kind
    ("9hThJh9s9d", "QhKh", "9c2c", 0),
    # four of a kind > full house
    ("KsKd7c7d2s", "KhKc", "7h2c", 0),
    # full house > flush
    ("Ah8h3h8c2s", "8d3c", "Kh4h", 0),
    # flush > straight
    ("4h5h6c9h2d", "JhQh", "7s8s", 0),
    # straight > three of a kind
    ("4c5d6hKsKd", "7c8c", "Kh2c", 0),
    # three of a kind > two pair
    ("2c7d9hJs3c", "9c9d", "Jh7s", 0),
    # two pair > one pair
    ("2c7d9hJs3c", "Jh2d", "AhAd", 0),
    # one pair > high card
    ("2c7d9hJs3c", "3d4h", "AcKc", 0),
    # the ace plays low in A-2-3-4-5, and the wheel beats trips
    ("2c3d4hKsQd", "Ah5c", "KhKc", 0),
    # the ace is high: A-K-Q-J-T beats K-Q-J-T-9
    ("KcQdJhTs2c", "9d3c", "Ad3d", 1),
    # suits never break a tie
    ("QcJdTs3h2c", "AsKs", "AhKh", None),
]


@pytest.mark.parametrize(("board", "hand0", "hand1", "winner"), RANKING)
def test_C2_ranking_decides_the_showdown(board: str, hand0: str, hand1: str, winner: int | None) -> None:
    """C2: straight flush > quads > full house > flush > straight > trips > two pair >
    pair > high card; ace high and low; suits never break a tie."""
    h = deal(NL12, [100, 100], [hand0, hand1], board)
    check_down(h)
    show_all(h)
    assert h.complete
    expected = [102, 98] if winner == 0 else [98, 102] if winner == 1 else [100, 100]
    assert h.stacks == expected


def test_C3_cards_speak_the_software_finds_the_best_five() -> None:
    """C3: the best five of the seven cards count, whatever the player thinks: player 0
    holds 5h2c and has a flush with four hearts on board; player 1's trip kings lose."""
    board = "Ah9h6hKc3h"
    h = deal(NL12, [100, 100], ["5h2c", "KdKs"], board)
    check_down(h)
    show_all(h)
    assert h.stacks == [102, 98]
    (award,) = events_of(h, PotAwarded)
    assert award.value == evaluate("5h2c" + board) == h.hand_value(0)
    assert award.winners == (0,)


def test_C3_H2_the_board_plays() -> None:
    """C3/H2: a hand may use no hole card at all: on a royal-flush board everyone ties."""
    h = deal(NL12, [100, 100, 100], ["2c3d", "AhAd", "7c8c"], "AsKsQsJsTs")
    check_down(h)
    show_all(h)
    assert h.stacks == [100, 100, 100]
    (award,) = events_of(h, PotAwarded)
    assert award.winners == (0, 1, 2) and award.shares == (2, 2, 2)


def test_C4_split_pot_odd_chip_to_first_winner_left_of_button() -> None:
    """C4: equal hands split; the odd chip goes to the first winner left of the button.
    The small blind folds its 1, so 5 chips split between the big blind (first left of
    the button among the winners) and the button: 3 and 2."""
    h = deal(NL12, [100, 100, 100], [None, "2c3d", "4c5d"], "AsKsQsJsTs")
    play(h, "2 call; 0 fold; 1 check")
    check_down(h)
    show_all(h)
    (award,) = events_of(h, PotAwarded)
    assert (award.amount, award.winners, award.shares) == (5, (1, 2), (3, 2))
    assert h.stacks == [99, 101, 100]


# --- H: Texas hold'em ----------------------------------------------------------------------


def test_H1_two_hole_cards_one_at_a_time_from_the_small_blind() -> None:
    """H1: two hole cards each, one at a time, starting with the small blind."""
    deck = seeded_deck(1)
    h = Hand(NL12, [100, 100, 100], deck)
    dealt = [(e.player, e.card) for e in events_of(h, HoleDealt)]
    assert dealt == [(0, deck[0]), (1, deck[1]), (2, deck[2]), (0, deck[3]), (1, deck[4]), (2, deck[5])]
    assert all(len(cards) == 2 for cards in h.holes)


def test_H1_hole_cards_visible_only_to_their_owner() -> None:
    """H1/R2: a hole card event is for its owner; everyone else gets it without the card."""
    h = Hand(NL12, [100, 100, 100], seeded_deck(1))
    for e in events_of(h, HoleDealt):
        assert audience(e) == e.player
        assert for_viewer(e, e.player).card == e.card
        for other in (None, *(p for p in range(3) if p != e.player)):
            assert for_viewer(e, other).card is None


def test_H2_flop_turn_river_and_four_betting_rounds() -> None:
    """H2: flop 3 cards, turn 1, river 1; four betting rounds (preflop, flop, turn, river)."""
    h = Hand(NL12, [100, 100, 100], seeded_deck(3))
    streets_seen = []
    while h.phase == "betting":
        streets_seen.append(h.street)
        h.check_call()
    assert sorted(set(streets_seen)) == [0, 1, 2, 3]
    assert [(e.street, len(e.cards)) for e in events_of(h, BoardDealt)] == [(1, 3), (2, 1), (3, 1)]
    assert [e.street for e in events_of(h, StreetEnded)] == [0, 1, 2, 3]
    assert len(h.board) == 5


def test_H3_small_blind_big_blind_and_optional_antes() -> None:
    """H3: the seat left of the button posts the small blind, the next the big blind;
    antes are a table setting, posted by every player when set."""
    h = Hand(NL12, [100] * 4, seeded_deck(4))
    assert [(e.player, e.kind, e.amount) for e in events_of(h, Posted)] == [
        (0, "small_blind", 1), (1, "big_blind", 2),
    ]
    assert h.bets == [1, 2, 0, 0] and h.pot == 3

    h = Hand(Game.no_limit(1, 2, ante=1), [100] * 4, seeded_deck(4))
    assert [(e.player, e.kind, e.amount) for e in events_of(h, Posted)] == [
        (0, "ante", 1), (1, "ante", 1), (2, "ante", 1), (3, "ante", 1),
        (0, "small_blind", 1), (1, "big_blind", 2),
    ]
    assert h.bets == [1, 2, 0, 0] and h.pot == 7
    assert h.stacks == [98, 97, 99, 99]


def test_H4_heads_up_button_posts_small_blind_acts_first_preflop_last_after() -> None:
    """H4 (case 3): heads-up the button (player 1) posts the small blind and acts first
    preflop; after the flop the big blind (player 0) acts first."""
    h = Hand(NL12, [100, 100], seeded_deck(5))
    assert [(e.player, e.kind, e.amount) for e in events_of(h, Posted)] == [
        (0, "big_blind", 2), (1, "small_blind", 1),
    ]
    assert h.actor == 1
    play(h, "1 call")
    assert h.actor == 0
    play(h, "0 check")
    for street in (1, 2, 3):
        assert (h.street, h.actor) == (street, 0)
        play(h, "0 check; 1 check")


def test_H5_button_moves_one_seat_per_hand() -> None:
    """H5 (and H7: both blinds once per orbit): the table moves the button one seat after
    every hand and deals the next hand in the new PHH order; over two orbits of folds to
    the big blind every seat posts each blind twice and ends where it started."""
    seats = ["S1", "S2", "S3", "S4"]
    chips = dict.fromkeys(seats, 100)
    blinds_paid = {s: [] for s in seats}
    for k in range(8):
        button = k % 4
        order = [seats[(button + 1 + i) % 4] for i in range(4)]  # left of the button first
        assert order[-1] == seats[button]
        h = Hand(NL12, [chips[s] for s in order], seeded_deck(k))
        for e in events_of(h, Posted):
            blinds_paid[order[e.player]].append(e.kind)
        assert order[h.actor] == seats[(button + 3) % 4]  # under the gun
        while not h.complete:
            h.fold()
        for i, s in enumerate(order):
            chips[s] = h.stacks[i]
        winner = order[events_of(h, PotAwarded)[0].winners[0]]
        assert winner == seats[(button + 2) % 4]
    assert all(sorted(kinds) == ["big_blind"] * 2 + ["small_blind"] * 2 for kinds in blinds_paid.values())
    assert chips == dict.fromkeys(seats, 100)


def test_H6_newcomer_posts_live_big_blind_and_keeps_the_option() -> None:
    """H6 (case 7): a newcomer (player 3) posts a live big blind to be dealt in at once;
    if nobody raised, his turn comes with the option: check or raise."""
    h = deal(NL12, [100] * 5, blinds=[1, 2, 0, 2, 0])
    assert [(e.player, e.kind, e.amount) for e in events_of(h, Posted)] == [
        (0, "small_blind", 1), (1, "big_blind", 2), (3, "blind", 2),
    ]
    assert h.actor == 2 and h.legal_actions().call == 2
    play(h, "2 call")
    legal = h.legal_actions()
    assert (legal.player, legal.check, legal.fold, legal.call) == (3, True, False, 0)
    assert (legal.min_to, legal.max_to) == (4, 100)
    play(h, "3 check; 4 call; 0 call")
    legal = h.legal_actions()  # the real big blind still closes the action
    assert (legal.player, legal.check, legal.min_to) == (1, True, 4)
    play(h, "1 check")
    assert h.street == 1 and h.pot == 10


def test_H6_newcomer_under_the_gun_acts_first_with_his_live_blind() -> None:
    """H6: a newcomer directly left of the big blind posts 2 live and is first to act
    preflop: he may check (his blind is live) or raise; the big blind acts last."""
    h = deal(NL12, [100] * 5, blinds=[1, 2, 2, 0, 0], big_blind_position=1)
    legal = h.legal_actions()
    assert (legal.player, legal.check, legal.min_to) == (2, True, 4)
    play(h, "2 check; 3 call; 4 call; 0 call")
    assert h.actor == 1 and h.legal_actions().check
    play(h, "1 raise 8")
    assert h.actor == 2 and h.legal_actions().call == 6


def test_H7_missed_blinds_small_blind_dead_big_blind_live() -> None:
    """H7 (case 8): a player back from missing both blinds posts 2 live plus 1 dead. The
    dead chip is pot money, not part of his bet; unraised, he may check or raise."""
    h = deal(NL12, [100] * 5, blinds=[1, 2, 0, 2, 0], dead_blinds=[0, 0, 0, 1, 0])
    kinds = [(e.player, e.kind, e.amount) for e in events_of(h, Posted)]
    assert (3, "dead", 1) in kinds and (3, "blind", 2) in kinds
    assert h.bets == [1, 2, 0, 2, 0] and h.stacks[3] == 97 and h.pot == 6
    play(h, "2 call")
    legal = h.legal_actions()
    assert (legal.player, legal.call, legal.check, legal.min_to) == (3, 0, True, 4)


def test_H7_missed_small_blind_only_posts_dead_chip_and_still_owes_the_call() -> None:
    """H7 (case 8): missed only the small blind: 1 dead; the dead chip does not count
    toward a call, and whoever wins the pot wins it."""
    h = deal(NL12, [100] * 5, dead_blinds=[0, 0, 0, 1, 0])
    assert h.bets == [1, 2, 0, 0, 0] and h.pot == 4 and h.stacks[3] == 99
    play(h, "2 fold")
    assert h.legal_actions().call == 2
    play(h, "3 fold; 4 fold; 0 fold")
    assert h.complete
    assert h.stacks == [99, 102, 100, 99, 100]


def test_H8_under_the_gun_acts_first_and_blinds_count_toward_a_call() -> None:
    """H8: preflop action starts left of the big blind; posted chips count toward a call."""
    h = Hand(NL12, [100] * 4, seeded_deck(8))
    legal = h.legal_actions()
    assert (legal.player, legal.fold, legal.call, legal.min_to) == (2, True, 2, 4)
    play(h, "2 call; 3 call")
    assert h.actor == 0 and h.legal_actions().call == 1
    play(h, "0 call")
    assert h.stacks[0] == 98


def test_H9_everyone_folds_to_the_big_blind() -> None:
    """H9 (case 1): the big blind wins and the hand ends: no board, no showdown."""
    h = Hand(NL12, [100] * 4, seeded_deck(9))
    play(h, "2 fold; 3 fold; 0 fold")
    assert h.complete and h.actor is None
    assert h.stacks == [99, 101, 100, 100]
    assert h.board == [] and events_of(h, Shown) == [] and events_of(h, BoardDealt) == []


def test_H10_big_blind_option_check_ends_the_round() -> None:
    """H10 (case 2): unraised, the big blind may check (ending the round) or raise."""
    h = Hand(NL12, [100] * 3, seeded_deck(10))
    play(h, "2 call; 0 call")
    legal = h.legal_actions()
    assert (legal.player, legal.check, legal.fold, legal.min_to, legal.max_to) == (1, True, False, 4, 100)
    play(h, "1 check")
    assert (h.street, h.actor, h.pot) == (1, 0, 6)


def test_H10_big_blind_option_raise_reopens_the_action() -> None:
    """H10: the big blind's raise reopens the betting for the limpers."""
    h = Hand(NL12, [100] * 3, seeded_deck(10))
    play(h, "2 call; 0 call; 1 raise 6")
    legal = h.legal_actions()
    assert (legal.player, legal.call, legal.min_to) == (2, 4, 10)
    play(h, "2 raise 10")
    assert h.actor == 0 and raises(h) == (14, 100)


def test_H11_postflop_first_active_left_of_button_and_check_raise() -> None:
    """H11: after the flop the first active player left of the button acts (the folded
    small blind is skipped); check-raise is allowed; the round ends when everyone has
    acted and matched the highest bet."""
    h = Hand(NL12, [100] * 4, seeded_deck(11))
    play(h, "2 call; 3 call; 0 fold; 1 check")
    assert (h.street, h.actor) == (1, 1)
    play(h, "1 check; 2 bet 4; 3 call")
    legal = h.legal_actions()
    assert (legal.player, legal.call, legal.min_to) == (1, 4, 8)  # the check-raise
    play(h, "1 raise 12; 2 call")
    assert h.street == 1 and h.actor == 3  # not over until player 3 matches
    play(h, "3 call")
    assert (h.street, h.actor, h.pot) == (2, 1, 1 + 6 + 36)


def test_H11_first_to_act_postflop_skips_all_in_players() -> None:
    """H11/case 31: an all-in player never acts; the first player left of the button who
    is not all-in acts first."""
    h = Hand(NL12, [10, 100, 100], seeded_deck(12))
    play(h, "2 raise 10; 0 call; 1 call")
    assert h.stacks[0] == 0
    assert (h.street, h.actor) == (1, 1)


def test_H12_uncalled_bet_wins_at_once() -> None:
    """H12: a bet nobody calls wins: the uncalled part comes back, no more cards, no
    showdown."""
    h = Hand(NL12, [100] * 3, seeded_deck(13))
    play(h, "2 call; 0 call; 1 check; 0 bet 10; 1 fold; 2 fold")
    assert h.complete
    assert events_of(h, UncalledReturned) == [UncalledReturned(0, 10)]
    assert len(h.board) == 3 and [e.street for e in events_of(h, BoardDealt)] == [1]
    assert events_of(h, Shown) == [] and events_of(h, Mucked) == []
    assert h.stacks == [104, 98, 98]


def test_H13_side_pot_betting_goes_on_and_showdown_happens() -> None:
    """H13: player 0 is all-in preflop; players 1 and 2 bet on into a side pot; the
    showdown still happens, each pot going to the best hand eligible for it."""
    h = deal(NL12, [20, 200, 200], ["AsAd", "KsKd", "QsQd"], "2c7d9hJs3c")
    play(h, "2 raise 20; 0 call; 1 call")
    assert h.stacks[0] == 0 and h.actor == 1
    play(h, "1 bet 30; 2 call")
    assert [(p.amount, p.eligible) for p in h.pots()] == [(60, (0, 1, 2)), (60, (1, 2))]
    check_down(h)
    show_all(h)
    assert h.complete
    awards = [(a.pot, a.amount, a.winners) for a in events_of(h, PotAwarded)]
    assert awards == [(1, 60, (1,)), (0, 60, (0,))]
    assert h.stacks == [60, 210, 150]


def test_H14_showdown_order_last_aggressor_first_then_clockwise() -> None:
    """H14 (case 33): the last bettor of the final round shows first (forced), then the
    others clockwise; losers may muck."""
    h = deal(NL12, [100] * 3, ["2c3d", "AhAd", "KcKd"], "2h7s9dJc4s")
    play(h, "2 call; 0 call; 1 check")
    play(h, "0 check; 1 check; 2 check; 0 check; 1 check; 2 check")
    play(h, "0 check; 1 bet 10; 2 call; 0 call")
    assert h.phase == "showdown"
    assert events_of(h, Shown) == [Shown(1, tuple(h.holes[1]), True)]
    assert h.actor == 2 and h.legal_actions().muck
    play(h, "2 muck")
    assert h.actor == 0
    play(h, "0 muck")
    assert h.complete and h.stacks == [88, 124, 88]


def test_H14_checked_river_first_live_player_left_of_button_shows_first() -> None:
    """H14: if everyone checked the last round, the first active player left of the
    button shows first (the folded small blind is skipped)."""
    h = deal(NL12, [100] * 4, [None, "2c3d", "AhAd", "KcKd"], "2h7s9dJc4s")
    play(h, "2 call; 3 call; 0 fold; 1 check")
    check_down(h)
    assert h.phase == "showdown" and h.actor == 1
    order = []
    while h.actor is not None:
        order.append(h.actor)
        h.show()
    assert order == [1, 2, 3]


def test_H15_each_shown_hand_has_its_best_five_cards() -> None:
    """H15: for each shown hand the software can show its best five cards and name it."""
    board = "3h4h5hKcKd"
    h = deal(NL12, [100, 100], ["Ah2h", "KsKh"], board)
    check_down(h)
    show_all(h)
    shown = {e.player: e.cards for e in events_of(h, Shown)}
    assert set(shown) == {0, 1}
    five0 = best_five(list(shown[0]) + h.board)
    assert five0 == parse_cards("5h4h3h2hAh")
    assert describe(h.hand_value(0)) == "Straight flush, five high"
    five1 = best_five(list(shown[1]) + h.board)
    assert sorted(c.rank for c in five1[:4]) == [11] * 4
    assert describe(h.hand_value(1)).startswith("Four of a kind, kings")
    assert h.stacks == [102, 98]


def test_H16_previous_hand_record_keeps_every_hand_that_reached_showdown() -> None:
    """H16 (D6): after the hand, every hand that reached the showdown, shown or mucked,
    is in the record with its cards; a hand folded earlier is not."""
    h = deal(NL12, [100] * 3, ["2c3d", "AhAd", "KcKd"], "2h7s9dJc4s")
    play(h, "2 call; 0 call; 1 check")
    play(h, "0 check; 1 bet 2; 2 call; 0 fold")
    check_down(h)
    assert h.phase == "showdown"
    play(h, "1 show; 2 muck")
    assert h.complete
    assert h.reached_showdown == {1, 2}
    assert h.shown == {1} and h.mucked == {2}
    assert events_of(h, Mucked) == [Mucked(2, tuple(h.holes[2]))]
    from pokerroom.core import views
    for viewer in (None, 0, 1, 2):
        v = views.view(h, viewer)
        assert v.seats[1].cards == tuple(h.holes[1])
        assert v.seats[2].cards == tuple(h.holes[2])
        if viewer != 0:
            assert v.seats[0].cards == (None, None)


# --- L: betting structures -----------------------------------------------------------------


def test_L1_fixed_limit_small_bet_then_big_bet_and_four_bets_cap() -> None:
    """L1 (case 21): fixed limit 2/4, blinds 1/2: the big blind is the first bet; raises
    preflop go 4, 6, 8 (cap); the flop bet is 2, the turn and river bets 4."""
    h = Hand(Game.fixed_limit(2, 4), [100] * 4, seeded_deck(21))
    assert raises(h) == (4, 4)
    play(h, "2 raise 4")
    assert raises(h) == (6, 6)
    play(h, "3 raise 6")
    assert raises(h) == (8, 8)
    play(h, "0 raise 8")
    assert raises(h) == (None, None) and h.legal_actions().call == 6
    play(h, "1 call; 2 call; 3 call")
    assert h.street == 1 and raises(h) == (2, 2)
    play(h, "0 check; 1 check; 2 check; 3 check")
    assert h.street == 2 and raises(h) == (4, 4)
    play(h, "0 bet 4")
    assert raises(h) == (8, 8)
    play(h, "1 call; 2 call; 3 call")
    assert h.street == 3 and raises(h) == (4, 4)


def test_L2_no_limit_min_bet_min_raise_max_stack_unlimited_raises() -> None:
    """L2: no limit: the minimum bet is the big blind; a raise is at least the last raise;
    the maximum is the whole stack; any number of raises."""
    h = Hand(NL12, [1000, 1000], seeded_deck(22))
    to = 2
    for _ in range(10):  # ten minimum raises heads-up, 2 more each time
        to += 2
        assert raises(h) == (to, 1000)
        h.bet_raise(to)
    play(h, f"{h.actor} call")
    assert h.street == 1 and raises(h) == (2, 1000 - to)


def test_L2_short_all_in_does_not_reopen_no_limit_betting() -> None:
    """L2 (TDA 47, case 11): an all-in for less than a full raise does not reopen the
    betting to players who already acted."""
    h = Hand(Game.no_limit(50, 100), [1000, 1000, 250, 1000], seeded_deck(23))
    play(h, "2 call; 3 call; 0 call; 1 check")
    play(h, "0 bet 100; 1 call; 2 raise 150")
    assert h.stacks[2] == 0
    assert raises(h) == (250, 900)  # player 3 has not acted
    play(h, "3 call")
    legal = h.legal_actions()
    assert (legal.player, legal.call, legal.min_to, legal.max_to) == (0, 50, None, None)


def test_L3_pot_limit_max_is_pot_after_call_min_as_no_limit() -> None:
    """L3: pot limit 1/2 heads-up: the button may raise to 4 (minimum as no limit) up to 6
    (the 2 to match plus the pot of 4 after calling); any number of raises, each at most
    the current bet plus the pot after the raiser's call."""
    h = Hand(Game.pot_limit(1, 2), [10**6, 10**6], seeded_deck(24))
    assert raises(h) == (4, 6)  # heads-up: the button calls 1 and raises the pot of 4
    level, pot, last = 2, 3, 2
    for _ in range(8):
        low, high = raises(h)
        p = h.actor
        call = level - h.bets[p]
        assert (low, high) == (level + last, level + pot + call)
        h.bet_raise(high)
        pot, level, last = pot + (high - (level - call)), high, high - level
    assert h.pot == pot


def test_L4_mixed_game_each_hand_played_under_its_own_structure() -> None:
    """L4 (case 46): the table alternates no limit 1/2 and fixed limit 4/8 (blinds 2/4)
    every orbit and moves the button; each hand keeps the structure it was dealt with:
    no cap in no limit, four bets and fixed sizes in fixed limit."""
    nl, fl = Game.no_limit(1, 2), Game.fixed_limit(4, 8, small_blind=2, big_blind=4)
    seats = ["S1", "S2", "S3"]
    chips = dict.fromkeys(seats, 1000)
    for k in range(6):
        game = nl if (k // 3) % 2 == 0 else fl
        button = k % 3
        order = [seats[(button + 1 + i) % 3] for i in range(3)]
        h = Hand(game, [chips[s] for s in order], seeded_deck(k))
        assert h.game is game
        assert h.bets[:2] == ([1, 2] if game is nl else [2, 4])
        if game is nl:
            assert raises(h) == (4, h.stacks[2])
            play(h, "2 raise 4; 0 raise 8; 1 raise 16; 2 raise 32; 0 raise 64")
            assert raises(h) == (96, h.stacks[1] + h.bets[1])  # a sixth bet is fine in no limit
        else:
            assert raises(h) == (8, 8)
            play(h, "2 raise 8; 0 raise 12; 1 raise 16")
            assert raises(h) == (None, None)  # the cap: 4, 8, 12, 16
        while not h.complete:
            h.fold()
        for i, s in enumerate(order):
            chips[s] = h.stacks[i]
    assert sum(chips.values()) == 3000


# --- bad input: refused, with a code and a message, and nothing changes --------------------


def refused(hand: Hand, code: str, action, *args, **kwargs) -> IllegalAction:
    """Run ``action`` expecting IllegalAction(code); the hand must be unchanged."""
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as info:
        action(*args, **kwargs)
    assert info.value.code == code, f"{info.value.code}: {info.value}"
    assert str(info.value), "an empty message helps nobody"
    assert snapshot(hand) == before
    return info.value


def fresh() -> Hand:
    """NL 1/2, four players, player 2 (under the gun) to act."""
    return Hand(NL12, [100] * 4, seeded_deck(99))


@pytest.mark.parametrize("player", [0, 1, 3, 7, -1])
def test_bad_input_out_of_turn_every_action(player: int) -> None:
    h = fresh()
    for action, args in (
        (h.fold, ()), (h.check_call, ()), (h.bet_raise, (6,)), (h.show, ()), (h.muck, ()),
    ):
        err = refused(h, "not_your_turn", action, *args, player=player)
        assert "player 2" in str(err) and f"player {player}" in str(err)
    for verb, amount in (("fold", None), ("call", None), ("check", None), ("raise", 6), ("bet", 6)):
        refused(h, "not_your_turn", h.act, verb, amount, player=player)
    assert not h.can_fold(player) and not h.can_check_call(player) and not h.can_bet_raise(6, player)


def test_bad_input_amounts_below_min_above_max_negative() -> None:
    h = fresh()
    assert raises(h) == (4, 100)
    for amount in (3, 2, 0, -4, 101, 10_000):
        err = refused(h, "amount_out_of_range", h.bet_raise, amount)
        assert "4" in str(err) and "100" in str(err) and str(amount) in str(err)
        refused(h, "amount_out_of_range", h.act, "raise", amount, player=2)
        assert not h.can_bet_raise(amount)


@pytest.mark.parametrize("amount", [4.0, 6.5, "6", True, False, None, [6]])
def test_bad_input_amount_not_a_whole_number_of_chips(amount: object) -> None:
    h = fresh()
    err = refused(h, "bad_amount", h.bet_raise, amount)
    assert repr(amount) in str(err)
    assert not h.can_bet_raise(amount)  # type: ignore[arg-type]


def test_bad_input_raise_without_amount_and_check_with_amount() -> None:
    h = fresh()
    refused(h, "bad_amount", h.act, "raise")
    refused(h, "bad_amount", h.act, "cbr")
    refused(h, "bad_amount", h.act, "call", 2)
    refused(h, "bad_amount", h.act, "fold", 0)


@pytest.mark.parametrize("verb", ["allin", "", "c", "check_call", "bet_raise", "post"])
def test_bad_input_unknown_verb(verb: str) -> None:
    h = fresh()
    err = refused(h, "unknown_action", h.act, verb)
    assert repr(verb) in str(err)
    refused(h, "unknown_action", h.act, verb, 6)


def test_bad_input_fold_when_check_is_free() -> None:
    h = fresh()
    play(h, "2 call; 3 call; 0 call")
    assert h.actor == 1
    err = refused(h, "nothing_to_call", h.fold)
    assert "check" in str(err)
    refused(h, "nothing_to_call", h.act, "fold")
    refused(h, "nothing_to_call", h.act, "f")
    assert not h.can_fold()
    play(h, "1 check")
    refused(h, "nothing_to_call", h.fold)  # on the flop, before any bet


def test_bad_input_raise_when_capped_or_not_reopened() -> None:
    h = Hand(Game.fixed_limit(2, 4), [100] * 4, seeded_deck(7))
    play(h, "2 raise 4; 3 raise 6; 0 raise 8")
    err = refused(h, "cannot_raise", h.bet_raise, 10)
    assert "cap" in str(err)
    h = Hand(Game.no_limit(50, 100), [1000, 1000, 250, 1000], seeded_deck(23))
    play(h, "2 call; 3 call; 0 call; 1 check; 0 bet 100; 1 call; 2 raise 150; 3 call")
    err = refused(h, "cannot_raise", h.bet_raise, 250)
    assert "reopen" in str(err)


def test_bad_input_show_or_muck_while_betting_and_bet_at_showdown() -> None:
    h = fresh()
    refused(h, "wrong_phase", h.show)
    refused(h, "wrong_phase", h.muck)
    refused(h, "wrong_phase", h.act, "show")
    h = deal(NL12, [100] * 3, ["2c3d", "AhAd", "KcKd"], "2h7s9dJc4s")
    check_down(h)
    assert h.phase == "showdown" and h.actor == 0
    for action, args in ((h.fold, ()), (h.check_call, ()), (h.bet_raise, (2,))):
        err = refused(h, "wrong_phase", action, *args)
        assert "show or muck" in str(err)


def test_showdown_muck_rights() -> None:
    """H14: the first to show at a checked showdown may muck (and the other then wins
    without showing); after a show the other may muck; a called bettor is shown by force
    and never offered a muck (case 33)."""
    h = deal(NL12, [100] * 2, ["2c3d", "AhAd"], "2h7s9dJc4s")
    play(h, "1 call; 0 check; 0 check; 1 check; 0 check; 1 check; 0 check; 1 check")
    play(h, "0 muck")
    assert h.complete  # player 1 wins without showing
    h = deal(NL12, [100] * 2, ["2c3d", "AhAd"], "2h7s9dJc4s")
    play(h, "1 call; 0 check; 0 check; 1 check; 0 check; 1 check; 0 check; 1 check")
    play(h, "0 show")
    assert h.actor == 1 and h.legal_actions().muck
    h = deal(NL12, [100] * 2, ["2c3d", "AhAd"], "2h7s9dJc4s")
    play(h, "1 call; 0 check; 0 check; 1 check; 0 check; 1 check; 0 bet 10; 1 call")
    # player 0's called bet was shown by force; player 1 may muck
    assert events_of(h, Shown) == [Shown(0, tuple(h.holes[0]), True)]
    assert h.legal_actions().muck


def test_bad_input_actions_after_the_hand_is_over() -> None:
    h = fresh()
    play(h, "2 fold; 3 fold; 0 fold")
    assert h.complete
    for action, args in (
        (h.fold, ()), (h.check_call, ()), (h.bet_raise, (4,)), (h.show, ()), (h.muck, ()),
        (h.act, ("call",)), (h.act, ("raise", 4)),
    ):
        err = refused(h, "hand_over", action, *args)
        assert "over" in str(err)
    for p in range(4):
        refused(h, "hand_over", h.check_call, player=p)
    assert h.legal_actions().player is None


def test_bad_input_result_while_the_hand_is_live() -> None:
    h = fresh()
    refused(h, "hand_live", h.result)


def test_helpers_stack_the_deck_as_dealt() -> None:
    """The helper deals what a test asks for (so the showdown tests mean what they say)."""
    h = deal(NL12, [100] * 3, ["AsKs", None, "2c2d"], "QhJhTh9h8h")
    assert h.holes[0] == list(parse_cards("AsKs")) and h.holes[2] == list(parse_cards("2c2d"))
    check_down(h)
    assert h.board == list(parse_cards("QhJhTh9h8h"))
    assert len({*h.holes[0], *h.holes[1], *h.holes[2], *h.board}) == 11
