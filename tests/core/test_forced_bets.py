"""Forced bets the table layer will pass to the engine (big-blind antes, dead and short
blinds, newcomers' live blinds), uncalled bets when everyone folds, and bad arguments:
found by review, kept as regressions."""

from __future__ import annotations

import pytest

from pokerroom.core.cards import CardError, seeded_deck
from pokerroom.core.events import Posted, PotAwarded, UncalledReturned
from pokerroom.core.hand import Hand, IllegalAction
from pokerroom.core.structures import Game, GameError, Structure
from pokerroom.core.views import view
from tests.core.helpers import check_down, deal, events_of, play, show_all


def test_big_blind_ante_is_posted_after_the_blind_H13_D3() -> None:
    """TDA: with a big-blind ante the blind comes first. A big blind of 60 chips posts
    them as his short blind; the four-way main pot of 240 is his with the best hand."""
    h = deal(Game.no_limit(50, 100), [1000, 60, 1000, 1000], ["7h2c", "AsAh", "8d3c", "9s4c"],
             "2d5dKsJhTc", antes=[0, 100, 0, 0])
    assert [(e.player, e.kind, e.amount) for e in events_of(h, Posted)] == [
        (0, "small_blind", 50), (1, "big_blind", 60)]
    play(h, "2 call; 3 call; 0 call")
    check_down(h)
    show_all(h)
    main = next(e for e in events_of(h, PotAwarded) if e.pot == 0)
    assert (main.amount, main.winners) == (240, (1,))
    assert h.result().net[1] == 180


def test_player_all_in_on_an_ante_wins_only_what_he_matched_H13() -> None:
    """Antes not everyone pays (here the button pays none): a player all in on his ante
    for 3 wins 3 from each ante of 5, not the whole 13."""
    h = deal(Game.no_limit(1, 2), [3, 100, 100, 100], ["AsAh", "7h2c", "8d3c", "9s4c"],
             "2d5dKsJhTc", antes=[5, 5, 5, 0], blinds=[0, 2, 0, 0], big_blind_position=1)
    assert h.stacks[0] == 0
    play(h, "2 call; 3 call")
    check_down(h)
    show_all(h)
    assert h.result().net[0] == 6  # 3 + 3 + 3 won, his own 3 back among them
    assert sum(h.result().net) == 0


def test_uncalled_part_when_everyone_folds_keeps_what_was_called_H12_case_29() -> None:
    """Limpers called the big blind's 2: when they fold to his raise to 10, 8 comes back."""
    h = deal(Game.no_limit(1, 2), [100] * 4)
    play(h, "2 call; 3 call; 0 call; 1 raise 10; 2 fold; 3 fold; 0 fold")
    assert events_of(h, UncalledReturned) == [UncalledReturned(1, 8)]
    assert [(e.amount, e.winners) for e in events_of(h, PotAwarded)] == [(8, (1,))]


@pytest.mark.parametrize(
    ("blinds", "stacks_bb", "max_to"),
    [([0, 200, 0, 0, 0, 0], 10000, 700), ([0, 200, 0, 200, 0, 0], 10000, 900),
     ([100, 200, 0, 200, 0, 0], 100, 900), ([100, 200, 0, 200, 0, 0], 10000, 900)],
)
def test_case_20_each_short_blind_counts_as_full_even_beside_a_live_blind(
    blinds: list[int], stacks_bb: int, max_to: int
) -> None:
    """Case 20: a missing or short blind counts as full for the pot-limit maximum, each
    blind on its own: a newcomer's live blind elsewhere does not hide it."""
    stacks = [10000] * 6
    stacks[1] = stacks_bb
    h = deal(Game.pot_limit(100, 200), stacks, blinds=blinds, big_blind_position=1)
    assert h.legal_actions().max_to == max_to


def test_L3_pot_smaller_than_the_minimum_bet_still_allows_the_minimum() -> None:
    h = deal(Game.pot_limit(1, 2), [100] * 3, blinds=[0, 0, 0])
    legal = h.legal_actions()
    assert (legal.min_to, legal.max_to) == (2, 2)
    with pytest.raises(IllegalAction):
        h.bet_raise(0)


def test_case_30_heads_up_big_blind_all_in_for_less_than_the_small_blind() -> None:
    """The small blind already covers a big blind all in for 30: nobody acts, 20 comes
    back and the board runs out."""
    h = deal(Game.no_limit(50, 100), [30, 1000], ["AsAh", "7h2c"], "2d5dKsJhTc")
    assert h.complete
    assert events_of(h, UncalledReturned) == [UncalledReturned(1, 20)]
    assert h.result().net == (30, -30)


@pytest.mark.parametrize(
    ("n", "kwargs", "words"),
    [(2, {"blinds": [1, 2]}, "player 0 is the big blind"),
     (4, {"big_blind_position": 3}, "posts 0"),
     (4, {"blinds": [50, 60, 0, 0]}, "the small blind or the big blind"),
     (4, {"big_blind_position": "1"}, "is not a player"),
     (4, {"big_blind_position": 9}, "is not a player")],
)
def test_H4_H6_blinds_that_make_no_sense_are_refused(n: int, kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(GameError, match=words):
        Hand(Game.no_limit(1, 2), [100] * n, seeded_deck(1), **kwargs)  # type: ignore[arg-type]


def test_check_facing_a_bet_is_refused_and_changes_nothing() -> None:
    h = deal(Game.no_limit(1, 2), [100] * 3)
    before = (list(h.stacks), list(h.bets), h.actor, len(h.events))
    with pytest.raises(IllegalAction) as error:
        h.act("check")
    assert error.value.code == "cannot_check"
    assert (list(h.stacks), list(h.bets), h.actor, len(h.events)) == before


@pytest.mark.parametrize(
    "make",
    [lambda: Hand(None, [1, 2], seeded_deck(1)),  # type: ignore[arg-type]
     lambda: Hand(Game.no_limit(1, 2), None, seeded_deck(1)),  # type: ignore[arg-type]
     lambda: Hand(Game.no_limit(1, 2), [100, 100], None),  # type: ignore[arg-type]
     lambda: Hand(Game.no_limit(1, 2), [100, 100], [[1]] * 52),  # type: ignore[list-item]
     lambda: Game(Structure.NO_LIMIT, 1, 2, cap=True),
     lambda: Game("NL", 1, 2, min_bet=2),  # type: ignore[arg-type]
     lambda: Game(Structure.FIXED_LIMIT, 1, 2, small_bet=2, big_bet=4, heads_up_uncapped="no")],  # type: ignore[arg-type]
)
def test_bad_arguments_raise_typed_errors(make: object) -> None:
    with pytest.raises((GameError, CardError)):
        make()  # type: ignore[operator]


def test_bad_viewer_and_player_queries() -> None:
    h = deal(Game.no_limit(1, 2), [100] * 3)
    for bad in (True, "0", 5, -1):
        with pytest.raises(IllegalAction):
            view(h, bad)  # type: ignore[arg-type]
        with pytest.raises(IllegalAction):
            h.hand_value(bad)
