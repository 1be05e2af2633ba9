"""Games as data (core/variants.py): the descriptions, and the hand dealing, opening and
sizing each street as its description says, for every variant the room plays."""

from __future__ import annotations

import pytest

from pokerroom.core.cards import FULL_DECK
from pokerroom.core.events import Acted, BoardDealt, HoleDealt, Posted, StreetEnded
from pokerroom.core.hand import MAX_PLAYERS, MAX_STUD_PLAYERS, STREET_NAMES, STUD_STREET_NAMES, Hand
from pokerroom.core.structures import Game, GameError, Structure
from pokerroom.core.variants import BLINDS, BRING_IN, HOLDEM, STUD, VARIANTS, Variant

GAMES = {
    "holdem": Game.fixed_limit(10, 20),
    "stud": Game.stud(10, 20, ante=1, bring_in=3),
}


def test_the_totals_are_worked_out_from_the_streets() -> None:
    assert (HOLDEM.hole_cards, HOLDEM.burns, HOLDEM.board_cards) == (2, 3, 5)
    assert (STUD.hole_cards, STUD.burns, STUD.board_cards) == (7, 4, 0)
    assert [HOLDEM.cards_needed(n) for n in (2, 9, 22)] == [12, 26, 52]
    # D4: past 52, the shortage rule deals the rest
    assert [STUD.cards_needed(n) for n in (2, 6, 7, 8)] == [18, 46, 52, 52]
    assert (HOLDEM.blinds, STUD.blinds, HOLDEM.bring_in, STUD.bring_in) == (True, False, False, True)
    assert (HOLDEM.up_cards, STUD.up_cards, HOLDEM.late_hole_cards, STUD.late_hole_cards) == (
        False, True, False, True)
    assert HOLDEM.streets[0].opener == BLINDS and STUD.streets[0].opener == BRING_IN


def test_the_hand_module_still_names_the_streets_and_the_table_sizes() -> None:
    assert STREET_NAMES == ("preflop", "flop", "turn", "river")
    assert STUD_STREET_NAMES[0] == "third street" and STUD_STREET_NAMES[-1] == "seventh street"
    assert (MAX_PLAYERS, MAX_STUD_PLAYERS) == (22, 8)


@pytest.mark.parametrize("name", sorted(VARIANTS))
@pytest.mark.parametrize("n", [2, 5])
def test_each_street_deals_and_sizes_its_bets_as_described(name: str, n: int) -> None:
    """Checked down to the river: every street deals its hole cards (up or down) to each
    player and its community cards, burning first where it says, and fixed limit bets
    the small or big bet as the street says."""
    variant: Variant = VARIANTS[name]
    game = GAMES[name]
    hand = Hand(game, [1000] * n, FULL_DECK)
    seen = 0
    for number, street in enumerate(variant.streets):
        assert hand.street == number and hand.street_name == street.name
        assert hand.bet_size == (game.big_bet if street.big_bet else game.small_bet) == game.bet_size(number)
        fresh = hand.events[seen:]
        seen = len(hand.events)
        holes = [e for e in fresh if type(e) is HoleDealt]
        board = [c for e in fresh if type(e) is BoardDealt for c in e.cards]
        assert len(holes) == n * (street.down + street.up)
        assert sum(e.face_up for e in holes) == n * street.up
        assert len(board) == street.board
        if hand.legal_actions().bring_in:
            hand.bring_in()
        while hand.actor is not None and hand.street == number and hand.phase == "betting":
            hand.check_call()
    assert len(hand.board) == variant.board_cards
    assert all(len(h) == variant.hole_cards for h in hand.holes)
    dealt = n * variant.hole_cards + variant.board_cards
    assert hand._pos == dealt + variant.burns  # one card burned before each street that says so


def test_holdem_keeps_no_up_cards_and_stud_keeps_which_are_up() -> None:
    holdem = Hand(GAMES["holdem"], [100, 100], FULL_DECK)
    stud = Hand(GAMES["stud"], [100, 100], FULL_DECK)
    assert holdem.face_up == [[], []]
    assert stud.face_up == [[False, False, True], [False, False, True]]


def test_stud_is_described_without_blinds_and_fixed_limit_only() -> None:
    with pytest.raises(GameError, match="seven card stud is played fixed limit here"):
        Game(Structure.NO_LIMIT, 0, 0, min_bet=2, variant="stud", bring_in=1)
    with pytest.raises(GameError, match="stud has antes and a bring-in, not blinds"):
        Game(Structure.FIXED_LIMIT, 1, 2, small_bet=2, big_bet=4, variant="stud", bring_in=1)
    with pytest.raises(GameError, match="stud needs a bring-in"):
        Game.stud(10, 20, ante=1, bring_in=10)
    with pytest.raises(GameError, match="unknown variant 'razz': 'holdem' or 'stud'"):
        Game(Structure.FIXED_LIMIT, 1, 2, small_bet=2, big_bet=4, variant="razz")
    with pytest.raises(GameError, match="stud has antes and a bring-in, not blinds"):
        Hand(GAMES["stud"], [100, 100], FULL_DECK, blinds=[1, 2])


def test_the_phh_code_comes_from_the_variant_and_the_structure() -> None:
    games = [Game.no_limit(1, 2), Game.pot_limit(1, 2), Game.fixed_limit(2, 4), GAMES["stud"]]
    codes = [g.code for g in games]
    assert codes == ["NT", "PT", "FT", "F7S"]


def test_the_stud_forced_bets_are_antes_and_a_bring_in_by_description() -> None:
    hand = Hand(GAMES["stud"], [100, 100, 100], FULL_DECK)
    assert {e.kind for e in hand.events if type(e) is Posted} == {"ante"}
    legal = hand.legal_actions()
    assert legal.bring_in == 3 and legal.min_to == 10 and not legal.check
    hand.bet_raise(10)  # completing instead of bringing in
    last = hand.events[-1]
    assert type(last) is Acted and last.action == "complete"
    assert not any(type(e) is StreetEnded for e in hand.events)
