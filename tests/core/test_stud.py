"""Seven card stud (fixed limit): the rules S1-S10 and C4 of RULES.md, the stud cases 38-45
of RULE-CASES.md and the decisions D4, D5 (stud part) and D8, played on the real engine
(``pokerroom.core.hand.Hand``) with stacked decks; plus views (R2) and bad input: every
refused action raises ``IllegalAction`` with a code and leaves the hand unchanged.

Where a case and the engine disagree, the case is right (RULE-CASES.md is the project's
rule book); such tests stay and fail until the engine is fixed.

Players are in PHH order: 0 is the first seat left of the dealer, so seat S1 of a case is
player 0, S2 player 1, and so on. The cases play FL 10/20 with an ante of 1 and a bring-in
of 3 (``FL10``).

Dealing order (what ``stud_deck`` lays out): third street one card at a time from player 0
round the table three times (down, down, up); then on each later street a burn and one
card to every live player from player 0 (up on fourth to sixth street, down on seventh).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pytest

from pokerroom.core.cards import FULL_DECK, Card, parse_cards
from pokerroom.core.evaluator import evaluate
from pokerroom.core.events import (
    Acted,
    BoardDealt,
    HoleDealt,
    Posted,
    PotAwarded,
    Reshuffled,
    StreetEnded,
    UncalledReturned,
)
from pokerroom.core.hand import Hand, IllegalAction, Legal
from pokerroom.core.pots import Pot
from pokerroom.core.structures import Game, GameError
from pokerroom.core.stud import board_rank, bring_in_player, opener
from pokerroom.core.views import view
from tests.core.helpers import showdown_log

FL10 = Game.stud(10, 20, ante=1, bring_in=3)

# --- helpers --------------------------------------------------------------------------------


def _cards_or_gaps(text: str) -> list[Card | None]:
    """'???? 2c' -> [None, None, Card('2c')]: '??' is a card that does not matter."""
    compact = "".join(text.split())
    pairs = [compact[i : i + 2] for i in range(0, len(compact), 2)]
    return [None if t == "??" else parse_cards(t)[0] for t in pairs]


def stud_deck(
    cards: Sequence[str | None],
    *,
    burns: Sequence[str] = (),
    folds: Mapping[int, int] | None = None,
    stub: str = "",
) -> tuple[Card, ...]:
    """A full 52-card deck in the engine's dealing order.

    ``cards[p]`` is player p's cards in the order he gets them: down, down, up, then
    fourth, fifth, sixth and seventh street ('??' for a card that does not matter; cards
    not given are spare cards, aces and kings first). ``folds[p]`` is the street (0 =
    third .. 3 = sixth) on which player p folds: he gets no card after it. ``burns`` are
    the burn cards before fourth, fifth, sixth and seventh street. A street is laid out
    only while the deck still holds a burn and a card per live player besides ``stub``;
    ``stub`` comes right after the last street laid out, then the spare cards.
    """
    n = len(cards)
    folds = folds or {}
    given = [_cards_or_gaps(c or "") for c in cards]
    burn_cards = list(parse_cards("".join(burns)))
    stub_cards = list(parse_cards(stub))
    used = [c for g in given for c in g if c is not None] + burn_cards + stub_cards
    assert len(set(used)) == len(used), "a card was given twice"
    taken = set(used)
    spare = iter([c for c in reversed(FULL_DECK) if c not in taken])

    def card(p: int, k: int) -> Card:
        c = given[p][k] if k < len(given[p]) else None
        return next(spare) if c is None else c

    order = [card(p, k) for k in range(3) for p in range(n)]
    for street in range(1, 5):
        live = [p for p in range(n) if folds.get(p, 9) >= street]
        if 52 - len(order) - len(stub_cards) < len(live) + 1:
            break
        order.append(burn_cards[street - 1] if street - 1 < len(burn_cards) else next(spare))
        order += [card(p, 2 + street) for p in live]
    order += stub_cards
    order += list(spare)
    assert len(order) == 52 and len(set(order)) == 52, "a given card was never dealt"
    return tuple(order)


def ups(*cards: str) -> list[str]:
    """Third street for players whose up cards are ``cards`` (their down cards: spares)."""
    return [f"????{c}" for c in cards]


def deal(
    cards: Sequence[str | None],
    stacks: int | Sequence[int] = 200,
    game: Game = FL10,
    *,
    burns: Sequence[str] = (),
    folds: Mapping[int, int] | None = None,
    stub: str = "",
    reshuffle: Callable[[tuple[Card, ...]], Sequence[int]] | None = None,
) -> Hand:
    """A stud hand on a stacked deck (see ``stud_deck``)."""
    deck = stud_deck(cards, burns=burns, folds=folds, stub=stub)
    chips = [stacks] * len(cards) if isinstance(stacks, int) else list(stacks)
    return Hand(game, chips, deck, reshuffle=reshuffle)


def snapshot(hand: Hand) -> tuple[object, ...]:
    return (
        list(hand.stacks), list(hand.bets), hand.actor, hand.phase, hand.street,
        list(hand.folded), len(hand.events), hand.legal_actions(), hand.pot,
        [list(h) for h in hand.holes], [list(u) for u in hand.face_up], list(hand.board),
        list(stub(hand)),
    )


def refused(hand: Hand, code: str, action: Callable[[], object]) -> IllegalAction:
    """The action raises IllegalAction with ``code`` and a message, and changes nothing."""
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as info:
        action()
    assert info.value.code == code, str(info.value)
    assert str(info.value)
    assert snapshot(hand) == before
    return info.value


def events_of(hand: Hand, kind: type) -> list:
    return [e for e in hand.events if type(e) is kind]


def stub(hand: Hand) -> list[Card]:
    """The cards left to deal (D4: the stub)."""
    return list(hand._stock[hand._pos :])


def call_down(hand: Hand, until_street: int | None = None) -> None:
    """Post the bring-in, then check or call every decision (stop on ``until_street``)."""
    while hand.phase == "betting" and hand.actor is not None:
        if until_street is not None and hand.street >= until_street:
            return
        if hand.legal_actions().bring_in:
            hand.bring_in()
        else:
            hand.check_call()


def play_street(
    hand: Hand, bettor: int | None = None, amount: int = 0, folders: Sequence[int] = ()
) -> None:
    """Play the current betting round: the bring-in is posted; ``bettor`` bets or raises
    to ``amount`` at his first turn; ``folders`` check when they can and fold to a bet;
    everyone else checks or calls."""
    street, bet_made = hand.street, False
    while hand.phase == "betting" and hand.actor is not None and hand.street == street:
        p, legal = hand.actor, hand.legal_actions()
        if legal.bring_in:
            hand.bring_in()
        elif p == bettor and not bet_made:
            hand.bet_raise(amount)
            bet_made = True
        elif p in folders and legal.fold:
            hand.fold()
        else:
            hand.check_call()


def show_all(hand: Hand) -> None:
    while hand.phase == "showdown" and hand.actor is not None:
        hand.show()


def won(hand: Hand) -> dict[int, int]:
    """What each winner got, over all pots."""
    total: dict[int, int] = {}
    for a in events_of(hand, PotAwarded):
        for p, chips in zip(a.winners, a.shares, strict=True):
            total[p] = total.get(p, 0) + chips
    return total


def bring_in_options(player: int, bring_in: int = 3, complete: int = 10, fold: bool = False) -> Legal:
    """The choice of the player who brings in: post ``bring_in`` or complete."""
    return Legal(player, fold, False, 0, complete, complete, False, False, bring_in)


def facing(player: int, call: int, min_to: int | None, max_to: int | None) -> Legal:
    """Facing a bet: fold, call ``call``, or raise to min_to or max_to (None: no raise)."""
    return Legal(player, True, False, call, min_to, max_to, False, False)


def unraised(player: int, min_to: int | None, max_to: int | None) -> Legal:
    """Nothing to call: check, or bet min_to or max_to."""
    return Legal(player, False, True, 0, min_to, max_to, False, False)


# The table of cases 38 and 39: up cards S1 9d, S2 2h, S3 Kd, S4 7s, S5 2c, S6 Qh, S7 Ac.
CASE_38_UPS = ups("9d", "2h", "Kd", "7s", "2c", "Qh", "Ac")
S1, S2, S3, S4, S5, S6, S7 = range(7)


# --- S1, S2: buy-in and antes (table-layer rules; what the engine provides) ------------------


@pytest.mark.parametrize("stacks", [[0, 100, 100], [100, -5, 100], [100, 100, 0]])
def test_S1_engine_refuses_non_positive_stacks(stacks: list[int]) -> None:
    """S1: partial buy-ins are the table's business; the engine never deals in a player
    without chips (every stack must be a positive number of chips)."""
    with pytest.raises(GameError):
        Hand(FL10, stacks, stud_deck([None] * 3))


def test_S1_stud_hand_has_two_to_eight_players() -> None:
    """S1/S9: a stud hand seats 2 to 8 players (the seeds' largest table is 8)."""
    with pytest.raises(GameError):
        Hand(FL10, [100], FULL_DECK)
    with pytest.raises(GameError):
        Hand(FL10, [100] * 9, FULL_DECK)
    assert Hand(FL10, [100] * 8, stud_deck([None] * 8)).n == 8


def test_S2_every_player_posts_the_ante_before_the_deal() -> None:
    """S2: the ante is posted automatically from every player, before any card is dealt."""
    hand = deal(ups("9d", "2c", "Kd", "7s"), stacks=[50, 60, 70, 80])
    assert events_of(hand, Posted) == [Posted(p, "ante", 1, False) for p in range(4)]
    first_card = next(i for i, e in enumerate(hand.events) if type(e) is HoleDealt)
    assert all(type(e) is Posted for e in hand.events[:first_card])
    assert hand.stacks == [49, 59, 69, 79]
    assert hand.pot == 4


def test_S2_a_stack_below_the_ante_posts_all_in() -> None:
    """S2: a player with less than the ante posts all he has and is all in: he never acts
    and plays for the main pot only."""
    game = Game.stud(10, 20, ante=5, bring_in=3)
    hand = deal(ups("9d", "Kc", "Kd"), stacks=[100, 3, 100], game=game)
    assert events_of(hand, Posted) == [
        Posted(0, "ante", 5, False), Posted(1, "ante", 3, True), Posted(2, "ante", 5, False),
    ]
    assert hand.stacks == [95, 0, 95]
    assert hand.pots() == [Pot(9, (0, 1, 2)), Pot(4, (0, 2))]
    assert hand.actor == 0  # 9d is the lowest up card
    call_down(hand)
    assert all(e.player != 1 for e in events_of(hand, Acted))
    assert [len(h) for h in hand.holes] == [7, 7, 7]
    assert 1 in hand.reached_showdown


def test_S2_antes_can_be_set_per_player() -> None:
    """S2: the table decides who posts what (``antes``; default: the game's ante for all)."""
    hand = Hand(FL10, [100, 100, 100], stud_deck(ups("9d", "2c", "Kd")), antes=[1, 1, 1])
    assert [e.amount for e in events_of(hand, Posted)] == [1, 1, 1]
    assert hand.pot == 3


# --- S3: third street ------------------------------------------------------------------------


def test_S3_two_down_one_up_one_at_a_time_from_the_dealers_left() -> None:
    """S3: third street is dealt one card at a time from player 0, clockwise, round the
    table three times: down, down, up."""
    deck = stud_deck(["AsKd9c", "QhJh2c", "7s7d5h"])
    hand = Hand(FL10, [100, 100, 100], deck)
    assert deck[:9] == parse_cards("AsQh7s KdJh7d 9c2c5h")
    assert hand.holes == [list(parse_cards(c)) for c in ("AsKd9c", "QhJh2c", "7s7d5h")]
    assert hand.face_up == [[False, False, True]] * 3
    dealt = [(e.player, e.card, e.face_up) for e in events_of(hand, HoleDealt)]
    assert dealt == [(i % 3, deck[i], i >= 6) for i in range(9)]
    assert (hand.street, hand.street_name, hand.board) == (0, "third street", [])


# --- S4: the bring-in --------------------------------------------------------------------------


def test_S4_lowest_up_card_brings_in_and_the_ace_is_high() -> None:
    """S4: the lowest up card brings in; the ace is high, so a deuce brings in, not an ace."""
    assert deal(ups("Ac", "Kd", "3h", "9s")).actor == 2
    assert deal(ups("As", "2s", "Ad", "Kc")).actor == 1


@pytest.mark.parametrize(
    ("up", "low"),
    [
        (["2s", "2h", "2d", "2c"], 3),
        (["2c", "2d", "2h", "2s"], 0),
        (["2s", "2h", "2d", "9c"], 2),
        (["5h", "5s", "Kd", "5d"], 3),
        (["7s", "7h", "Ac", "Kc"], 1),
    ],
)
def test_S4_ties_by_suit_spades_hearts_diamonds_clubs(up: list[str], low: int) -> None:
    """S4: between equal ranks the lower suit brings in, clubs < diamonds < hearts < spades:
    the two of clubs is the lowest card."""
    assert deal(ups(*up)).actor == low
    assert bring_in_player([parse_cards(u) for u in up]) == low


def test_S4_bring_in_player_posts_the_bring_in_or_completes() -> None:
    """S4: the lowest card posts the bring-in (3) or completes to the small bet (10); he
    may not check or fold."""
    hand = deal(ups("9d", "2c", "Kd"))
    assert hand.legal_actions() == bring_in_options(1)
    assert hand.bring_in()[0] == Acted(1, "bring_in", 3, 3, False)
    assert (hand.stacks[1], hand.bets[1], hand.pot) == (196, 3, 6)
    hand = deal(ups("9d", "2c", "Kd"))
    assert hand.bet_raise(10)[0] == Acted(1, "complete", 10, 10, False)
    assert (hand.stacks[1], hand.bets[1], hand.pot) == (189, 10, 13)


def test_S4_everyone_calls_the_bring_in_and_the_round_is_over() -> None:
    """S4: if everyone calls the bring-in, the bring-in has no option (he is not a blind):
    the round ends and fourth street is dealt."""
    hand = deal(ups("9d", "2c", "Kd", "7s"))
    hand.bring_in()
    for p in (2, 3, 0):
        assert hand.actor == p
        hand.check_call()
    assert hand.street == 1
    assert events_of(hand, StreetEnded) == [StreetEnded(0, 16)]


def test_S4_everyone_folds_to_the_bring_in() -> None:
    """S4/H12: everyone folds to the bring-in: he wins the antes, his bring-in comes back
    uncalled, and nobody shows."""
    hand = deal(ups("9d", "2c", "Kd"))
    hand.bring_in()
    hand.fold()
    hand.fold()
    assert hand.complete
    assert events_of(hand, UncalledReturned) == [UncalledReturned(1, 3)]
    assert hand.stacks == [199, 202, 199]
    assert showdown_log(hand) == []


def test_S4_completion_nobody_calls_gets_back_all_but_the_bring_in() -> None:
    """S4/H12: S5 brings in, S6 completes and everyone folds, S5 too: the 3 of the bring-in
    called part of the completion; the other 7 come back uncalled."""
    hand = deal(CASE_38_UPS)
    hand.bring_in()
    hand.bet_raise(10)
    for _ in range(6):
        hand.fold()
    assert hand.complete
    assert events_of(hand, UncalledReturned) == [UncalledReturned(S6, 7)]
    assert won(hand) == {S6: 7 + 3 + 3}
    assert hand.result().net[S6] == 6 + 3


# --- S5: fourth to sixth street ---------------------------------------------------------------


def test_S5_burn_then_one_up_card_each_from_the_dealers_left() -> None:
    """S5: fourth, fifth and sixth street: a burn, then one card up to each live player
    from player 0; a player who folded gets none."""
    cards = ["????9dAhKhQh", "????2cAcKcQc", "????Kd", "????7sAsKsQs"]
    deck = stud_deck(cards, burns=["3c", "3d", "3h"], folds={2: 0})
    hand = Hand(FL10, [200] * 4, deck)
    assert deck[12:16] == parse_cards("3c Ah Ac As")  # burn, then players 0, 1, 3
    play_street(hand, folders=[2])  # 2c brings in, player 2 folds
    assert hand.folded == [False, False, True, False]
    call_down(hand, until_street=4)
    assert hand.street == 4
    assert [len(h) for h in hand.holes] == [7, 7, 3, 7]
    assert hand.holes[0][3:6] == list(parse_cards("AhKhQh"))
    assert hand.holes[1][3:6] == list(parse_cards("AcKcQc"))
    assert hand.holes[3][3:6] == list(parse_cards("AsKsQs"))
    for p in (0, 1, 3):
        assert hand.face_up[p][:6] == [False, False, True, True, True, True]
    assert not set(parse_cards("3c3d3h")) & {c for h in hand.holes for c in h}
    fourth = events_of(hand, HoleDealt)[12:15]
    assert [(e.player, e.card, e.face_up) for e in fourth] == [
        (0, Card("Ah"), True), (1, Card("Ac"), True), (3, Card("As"), True),
    ]


def test_S5_best_showing_hand_opens_with_check_or_bet() -> None:
    """S5: from fourth street the best showing hand acts first: check or bet."""
    hand = deal(["????2cKd", "????Ac9d", "????5h5d", "????AsKh"])
    call_down(hand, until_street=1)
    assert hand.legal_actions() == unraised(2, 10, 20)  # a pair of fives (open pair: S6)
    hand = deal(["????Ac9d", "????2cKd", "????5h6d", "????AsKh"])
    call_down(hand, until_street=1)
    assert hand.legal_actions() == unraised(3, 10, 10)  # A-K beats A-9


def test_S5_equal_showing_hands_the_player_nearest_the_dealers_left_opens() -> None:
    """S5: between equal showing hands, the player nearest the dealer's left opens."""
    hand = deal(["????AcKd", "????2c9d", "????5h6d", "????AsKh"])
    call_down(hand, until_street=1)
    assert hand.actor == 0
    hand = deal(["????2c9d", "????5h6d", "????AsKh", "????AcKd"])
    call_down(hand, until_street=1)
    assert hand.actor == 2


def test_S5_a_folded_player_does_not_open() -> None:
    """S5: only live players' boards count: the kings fold on fourth street, and on fifth
    the best live board (A-7-2) opens, not the seat after the kings."""
    cards = ["????9d8d2s", "????2cAh7c", "????KdKc", "????7s8s4d"]
    hand = deal(cards, folds={2: 1})
    call_down(hand, until_street=1)
    assert hand.actor == 2
    play_street(hand, bettor=3, amount=10, folders=[2])  # 2 checks, 3 bets, 0 and 1 call, 2 folds
    assert hand.folded == [False, False, True, False]
    assert hand.street == 2
    assert hand.actor == 1


# --- case 38: the bring-in (S4) ------------------------------------------------------------------



def test_case_38_S4_two_of_clubs_brings_in_and_S6_acts_next() -> None:
    """Case 38 (S4): up cards S2 2h, S5 2c, S7 Ac: S5 brings in (clubs < hearts; the ace
    is high); S6 acts next."""
    hand = deal(CASE_38_UPS)
    assert hand.actor == S5
    assert hand.legal_actions() == bring_in_options(S5)
    hand.bring_in()
    assert hand.actor == S6


# --- case 39: bring-in and cap (S4) ----------------------------------------------------------------


def test_case_39_S4_bring_in_3_then_complete_10_and_raises_20_30_40_cap() -> None:
    """Case 39 (S4, D1): S5 posts 3; next: fold, call 3 or complete to 10. The completion
    is not a raise: raises go 20, 30, 40 (cap)."""
    hand = deal(CASE_38_UPS)
    hand.bring_in()
    assert hand.legal_actions() == facing(S6, call=3, min_to=10, max_to=10)
    assert hand.bet_raise(10)[0] == Acted(S6, "complete", 10, 10, False)
    assert hand.legal_actions() == facing(S7, call=10, min_to=20, max_to=20)
    assert hand.bet_raise(20)[0] == Acted(S7, "raise", 20, 20, False)
    assert hand.legal_actions() == facing(S1, call=20, min_to=30, max_to=30)
    hand.bet_raise(30)
    assert hand.legal_actions() == facing(S2, call=30, min_to=40, max_to=40)
    hand.bet_raise(40)
    assert hand.legal_actions() == facing(S3, call=40, min_to=None, max_to=None)
    refused(hand, "cannot_raise", lambda: hand.bet_raise(50))
    hand.check_call()
    hand.check_call()  # S4
    assert hand.legal_actions() == facing(S5, call=37, min_to=None, max_to=None)


def test_case_39_S4_fold_or_call_the_bring_in_then_complete() -> None:
    """Case 39 (S4): after the bring-in, S6 may fold, the next may call 3, and the next
    still may complete to 10."""
    hand = deal(CASE_38_UPS)
    hand.bring_in()
    hand.fold()  # S6
    assert hand.legal_actions() == facing(S7, call=3, min_to=10, max_to=10)
    assert hand.check_call()[0] == Acted(S7, "call", 3, 3, False)
    assert hand.legal_actions() == facing(S1, call=3, min_to=10, max_to=10)
    assert hand.bet_raise(10)[0] == Acted(S1, "complete", 10, 10, False)
    assert hand.legal_actions() == facing(S2, call=10, min_to=20, max_to=20)


def test_case_39_S4_bring_in_may_raise_after_a_completion() -> None:
    """Case 39 (S4): the bring-in's 3 is not a bet: after S6 completes to 10 and the others
    fold, S5 may fold, call 7 or raise to 20."""
    hand = deal(CASE_38_UPS)
    hand.bring_in()
    hand.bet_raise(10)  # S6
    for _ in (S7, S1, S2, S3, S4):
        hand.fold()
    assert hand.legal_actions() == facing(S5, call=7, min_to=20, max_to=20)


def test_case_39_S4_bring_in_completes_himself_cap_still_40() -> None:
    """Case 39 (S4): if S5 completes himself, the raises are still 20, 30, 40 (cap)."""
    hand = deal(CASE_38_UPS)
    assert hand.bet_raise(10)[0] == Acted(S5, "complete", 10, 10, False)
    assert hand.legal_actions() == facing(S6, call=10, min_to=20, max_to=20)
    hand.bet_raise(20)
    assert hand.legal_actions() == facing(S7, call=20, min_to=30, max_to=30)
    hand.bet_raise(30)
    assert hand.legal_actions() == facing(S1, call=30, min_to=40, max_to=40)
    hand.bet_raise(40)
    assert hand.legal_actions() == facing(S2, call=40, min_to=None, max_to=None)
    refused(hand, "cannot_raise", lambda: hand.bet_raise(50))


# --- case 40: short bring-in (S4) -------------------------------------------------------------------


def test_case_40_S4_short_bring_in_posts_2_all_in_others_put_in_3() -> None:
    """Case 40 (S4): the low card has 2 left after the ante: he posts 2 all in, and the
    others must put in at least 3 (call 3 or complete to 10)."""
    hand = deal(ups("9d", "2c", "Kd", "7s"), stacks=[100, 3, 100, 100])
    assert hand.actor == 1
    legal = hand.legal_actions()
    assert (legal.bring_in, legal.fold, legal.check, legal.call) == (2, False, False, 0)
    assert hand.bring_in()[0] == Acted(1, "bring_in", 2, 2, True)
    assert hand.legal_actions() == facing(2, call=3, min_to=10, max_to=10)
    hand.check_call()
    assert hand.legal_actions() == facing(3, call=3, min_to=10, max_to=10)
    hand.check_call()
    hand.check_call()  # player 0
    assert hand.street == 1
    assert hand.pots() == [Pot(12, (0, 1, 2, 3)), Pot(3, (0, 2, 3))]


def test_case_40_S4_short_bring_in_cannot_lower_the_call_below_3() -> None:
    """Case 40 (S4): whatever the short bring-in does with his last 2 chips (post the
    bring-in, or any bet the engine offers him), the next player must put in 3."""
    plain = deal(ups("9d", "2c", "Kd", "7s"), stacks=[100, 3, 100, 100])
    offered = plain.legal_actions()
    assert offered.bring_in == 2
    choices: list[Callable[[Hand], object]] = [lambda h: h.bring_in()]
    for amount in {offered.min_to, offered.max_to} - {None}:
        choices.append(lambda h, a=amount: h.bet_raise(a))
    for choice in choices:
        hand = deal(ups("9d", "2c", "Kd", "7s"), stacks=[100, 3, 100, 100])
        choice(hand)
        legal = hand.legal_actions()
        assert legal.player == 2
        assert legal.call == 3, f"after {hand.events[-1]}, player 2 may call {legal.call}, not 3"


def test_case_40_S4_all_in_on_the_ante_next_player_opens_for_3_or_folds() -> None:
    """Case 40 (S4): the low card is all in on the ante: the player on his left opens for
    at least 3 (bring-in 3 or complete 10) or folds; he may not check."""
    hand = deal(ups("9d", "2c", "Kd", "7s"), stacks=[100, 1, 100, 100])
    assert events_of(hand, Posted)[1] == Posted(1, "ante", 1, True)
    assert hand.legal_actions() == bring_in_options(2, fold=True)
    refused(hand, "bring_in_first", hand.check_call)
    hand.fold()
    assert hand.legal_actions() == bring_in_options(3, fold=True)
    assert hand.bring_in()[0] == Acted(3, "bring_in", 3, 3, False)
    assert hand.legal_actions() == facing(0, call=3, min_to=10, max_to=10)


def test_case_40_S4_all_in_on_the_ante_next_player_completes() -> None:
    """Case 40 (S4): the player left of the all-in low card may also complete to 10."""
    hand = deal(ups("9d", "2c", "Kd", "7s"), stacks=[100, 1, 100, 100])
    assert hand.bet_raise(10)[0] == Acted(2, "complete", 10, 10, False)
    assert hand.legal_actions() == facing(3, call=10, min_to=20, max_to=20)


def test_case_40_S4_all_in_on_the_ante_the_others_fold() -> None:
    """Case 40 (S4): two fold; the last player with chips has nobody to bet against: the
    cards are dealt out and the best hand wins the 4 antes."""
    hand = deal(ups("9d", "2c", "Kd", "7s"), stacks=[100, 1, 100, 100])
    hand.fold()
    hand.fold()
    assert hand.phase != "betting"
    show_all(hand)
    assert hand.complete
    assert [len(h) for h in hand.holes] == [7, 7, 3, 3]
    assert sum(won(hand).values()) == 4


# --- case 41, S6, D8: the open pair on fourth street -------------------------------------------------

# S3 (player 2) shows Ks on third street and Kd on fourth; S4's 2c brings in.
CASE_41 = ["????9d7c", "????5h8h", "????KsKd", "????2c3d"]


def fourth_street(game: Game = FL10) -> Hand:
    hand = deal(CASE_41, game=game)
    call_down(hand, until_street=1)
    assert hand.street == 1 and hand.actor == 2
    return hand


def test_case_41_S6_open_kings_check_bet_10_or_bet_20() -> None:
    """Case 41 (S6, D8): S3 shows KsKd on fourth street: check, bet 10 or bet 20."""
    hand = fourth_street()
    assert hand.holes[2][2:4] == list(parse_cards("KsKd"))
    assert hand.legal_actions() == unraised(2, 10, 20)
    refused(hand, "amount_out_of_range", lambda: hand.bet_raise(15))
    assert hand.bet_raise(20)[0] == Acted(2, "bet", 20, 20, False)
    # a big bet: every raise is big, 40, 60, 80 (cap)
    assert hand.legal_actions() == facing(3, call=20, min_to=40, max_to=40)
    hand.bet_raise(40)
    assert hand.legal_actions() == facing(0, call=40, min_to=60, max_to=60)
    hand.bet_raise(60)
    hand.bet_raise(80)
    assert hand.legal_actions() == facing(2, call=60, min_to=None, max_to=None)


def test_case_41_S6_after_a_bet_of_10_call_raise_to_20_or_to_30() -> None:
    """Case 41 (S6): after a bet of 10: call, raise to 20 or raise to 30; after a 20
    raise every raise is 20 (10, 30, 50, 70 cap)."""
    hand = fourth_street()
    hand.bet_raise(10)
    assert hand.legal_actions() == facing(3, call=10, min_to=20, max_to=30)
    hand.bet_raise(30)
    assert hand.legal_actions() == facing(0, call=30, min_to=50, max_to=50)
    refused(hand, "amount_out_of_range", lambda: hand.bet_raise(40))
    hand.bet_raise(50)
    assert hand.legal_actions() == facing(1, call=50, min_to=70, max_to=70)
    hand.bet_raise(70)
    assert hand.legal_actions() == facing(2, call=60, min_to=None, max_to=None)


def test_case_41_S6_small_raises_keep_the_choice_until_a_20_raise() -> None:
    """Case 41 (S6): 10, then a 10 raise to 20: the next may raise to 30 or 40; after the
    20 raise to 40, every raise is 20 (cap at the fourth bet, 60)."""
    hand = fourth_street()
    hand.bet_raise(10)
    hand.bet_raise(20)
    assert hand.legal_actions() == facing(0, call=20, min_to=30, max_to=40)
    hand.bet_raise(40)
    assert hand.legal_actions() == facing(1, call=40, min_to=60, max_to=60)
    hand.bet_raise(60)
    assert hand.legal_actions() == facing(2, call=50, min_to=None, max_to=None)


def test_case_41_S6_if_S3_checks_later_players_get_the_same_choice() -> None:
    """Case 41 (S6): S3 checks: the next players may still bet 10 or 20."""
    hand = fourth_street()
    hand.check_call()
    assert hand.legal_actions() == unraised(3, 10, 20)
    hand.check_call()
    assert hand.legal_actions() == unraised(0, 10, 20)
    hand.bet_raise(10)
    assert hand.legal_actions() == facing(1, call=10, min_to=20, max_to=30)


def test_case_41_S7_from_fifth_street_bets_are_20() -> None:
    """Case 41 (S7): from fifth street on, bets are 20 whatever shows."""
    hand = fourth_street()
    call_down(hand, until_street=2)
    assert hand.street == 2
    assert hand.legal_actions() == unraised(2, 20, 20)


def test_case_41_D8_setting_off_refuses_the_big_bet() -> None:
    """Case 41 (D8): with ``open_pair_big_bet=False`` (TDA RP-10-F) the open pair gives
    no big bet: bet 10 only, raises 20, 30, 40."""
    hand = fourth_street(Game.stud(10, 20, ante=1, bring_in=3, open_pair_big_bet=False))
    assert hand.legal_actions() == unraised(2, 10, 10)
    refused(hand, "amount_out_of_range", lambda: hand.bet_raise(20))
    hand.bet_raise(10)
    assert hand.legal_actions() == facing(3, call=10, min_to=20, max_to=20)
    refused(hand, "amount_out_of_range", lambda: hand.bet_raise(30))


def test_D8_open_pair_big_bet_is_on_by_default() -> None:
    """D8: the open-pair big bet is on by default, as the seeds say; no pair, no big bet."""
    assert FL10.open_pair_big_bet
    hand = deal(["????9d7c", "????5h8h", "????KsQd", "????2c3d"])
    call_down(hand, until_street=1)
    assert hand.legal_actions() == unraised(2, 10, 10)


def test_S6_any_player_may_bet_big_when_a_pair_shows() -> None:
    """S6: the big bet is open to every player once a pair shows, not only the pair: after
    S3 (the kings) checks, S4 with 2-3 showing may bet 20."""
    hand = fourth_street()
    hand.check_call()
    assert hand.bet_raise(20)[0] == Acted(3, "bet", 20, 20, False)
    assert hand.legal_actions() == facing(0, call=20, min_to=40, max_to=40)


# --- S7, S8: fifth to seventh street ------------------------------------------------------------------


def test_S7_from_fifth_street_every_bet_and_raise_is_big() -> None:
    """S7: fifth, sixth and seventh street: bets and raises of 20 (20, 40, 60, 80 cap);
    third and fourth street (no pair) use the small bet."""
    hand = deal(["????9d7c", "????5h8h", "????KsQd", "????2c3d"])
    call_down(hand, until_street=1)
    assert hand.legal_actions() == unraised(2, 10, 10)
    for street in (2, 3, 4):
        call_down(hand, until_street=street)
        assert hand.street == street
        p = hand.actor
        assert p is not None
        assert hand.legal_actions() == unraised(p, 20, 20)
    hand.bet_raise(20)
    hand.bet_raise(40)
    hand.bet_raise(60)
    legal = hand.legal_actions()
    assert (legal.call, legal.min_to, legal.max_to) == (60, 80, 80)
    hand.bet_raise(80)
    legal = hand.legal_actions()
    assert (legal.min_to, legal.max_to) == (None, None)


def test_S8_seventh_street_burn_then_one_card_down_each() -> None:
    """S8: seventh street: a burn, then one card face down to each live player from
    player 0; nobody else sees it."""
    cards = ["????9d7c6c5c4c", "????5h8h8c8d3h", "????KsQdJd9c7d"]
    hand = deal(cards, burns=["2c", "2d", "2h", "2s"])
    call_down(hand, until_street=4)
    assert hand.street == 4
    assert [h[6] for h in hand.holes] == list(parse_cards("4c3h7d"))
    assert hand.face_up == [[False, False, True, True, True, True, False]] * 3
    seventh = events_of(hand, HoleDealt)[-3:]
    assert seventh == [HoleDealt(0, Card("4c"), False), HoleDealt(1, Card("3h"), False),
                       HoleDealt(2, Card("7d"), False)]
    assert not set(parse_cards("2c2d2h2s")) & {c for h in hand.holes for c in h}
    assert hand.board == []
    assert view(hand, 1).seats[0].cards[6] is None
    assert view(hand, 0).seats[0].cards[6] == Card("4c")


# --- case 42 (S5): who acts first from fourth street on ----------------------------------------------


def test_case_42_S5_tie_K9_S2_acts_before_S6() -> None:
    """Case 42 (S5): S2 shows Kh9d, S6 shows Ks9c: S2 acts first (nearer the dealer's left;
    suits do not count)."""
    cards = ["????Qc7d", "????Kh9d", "????Jd5c", "????Th4s", "????8s3h", "????Ks9c"]
    hand = deal(cards)
    call_down(hand, until_street=1)
    assert hand.street == 1
    assert hand.actor == 1  # S2
    up = [parse_cards(c) for c in ("Qc7d", "Kh9d", "Jd5c", "Th4s", "8s3h", "Ks9c")]
    assert opener(up, [True] * 6) == 1
    assert board_rank(up[1]) == board_rank(up[5])


@pytest.mark.parametrize(
    ("street", "better", "worse"),
    [
        (3, "5s5h5d5c", "AsAhAdKs"),  # four of a kind beats three of a kind
        (3, "3s3h3dKc", "AsAdKsKd"),  # three of a kind beats two pair
        (3, "3s3h2s2h", "AsAdKsQd"),  # two pair beats one pair
        (3, "2s2hTd9c", "AhKdQcJs"),  # one pair beats high cards (and a four-straight)
        (3, "2s2h3d4c", "AhKh9h5h"),  # a four-flush is only high cards
        (3, "2s2h3d4c", "9sTdJhQc"),  # a four-straight is only high cards
        (3, "AsKd7c4h", "AhQd9s8c"),  # high cards: A-K beats A-Q
        (3, "KsKd7c5h", "KhKc7d4h"),  # same pair: the kickers decide
        (2, "4s4h4d", "AsAdKc"),  # fifth street: trips beat a pair
        (1, "2s2h", "AsKs"),  # fourth street: a pair beats A-K
    ],
)
def test_case_42_S5_best_board_acts_first(street: int, better: str, worse: str) -> None:
    """Case 42 (S5): four of a kind, then three of a kind, two pair, one pair, high cards;
    straights and flushes showing do not count. The better board sits second, so seat
    order alone would pick the worse one."""
    hand = deal([f"????{worse}", f"????{better}"])
    call_down(hand, until_street=street)
    assert hand.street == street
    assert hand.actor == 1
    assert board_rank(parse_cards(better)) > board_rank(parse_cards(worse))


# --- case 43, S9, D4: card shortage --------------------------------------------------------------------


class Recorder:
    """A reshuffle callback: records the pool it gets, returns ``order`` (or the pool)."""

    def __init__(self, order: str | None = None, reverse: bool = False) -> None:
        self.pools: list[tuple[Card, ...]] = []
        self.order = order
        self.reverse = reverse

    def __call__(self, pool: tuple[Card, ...]) -> list[Card]:
        self.pools.append(tuple(pool))
        if self.order is not None:
            return list(parse_cards(self.order))
        return list(reversed(pool)) if self.reverse else list(pool)


def to_sixth_street(hand: Hand, third_street_folders: Sequence[int] = ()) -> None:
    play_street(hand, folders=third_street_folders)
    call_down(hand, until_street=3)
    assert hand.street == 3 and hand.phase == "betting"


def test_case_43a_S9_D4_seven_players_stub_7_reshuffle_with_the_burns() -> None:
    """Case 43 (a) (S9, D4): 7 players reach seventh street with a stub of 7 (fewer than
    8): the stub and the 3 burns (10 cards) are shuffled, one is burned, and the down
    cards are dealt."""
    recorder = Recorder(reverse=True)
    hand = deal([None] * 7, burns=["2c", "2d", "2h"], stub="3c3d3h3s4c4d4h", reshuffle=recorder)
    to_sixth_street(hand)
    assert stub(hand) == list(parse_cards("3c3d3h3s4c4d4h"))
    call_down(hand, until_street=4)
    assert hand.street == 4
    assert recorder.pools == [parse_cards("3c3d3h3s4c4d4h 2c2d2h")]  # stub, then the burns
    assert events_of(hand, Reshuffled) == [Reshuffled(4, 10)]
    # the new order is the reversed pool: 2h burned, then one card down to each player
    assert [h[6] for h in hand.holes] == list(parse_cards("2d2c4h4d4c3s3h"))
    assert all(u[6] is False for u in hand.face_up)
    assert hand.board == []
    assert stub(hand) == list(parse_cards("3d3c"))
    reshuffled_at = next(i for i, e in enumerate(hand.events) if type(e) is Reshuffled)
    after = [e for e in hand.events[reshuffled_at + 1 :] if type(e) is HoleDealt]
    assert after == [HoleDealt(p, hand.holes[p][6], False) for p in range(7)]


def test_case_43a_D4_default_reshuffle_is_stub_then_burns() -> None:
    """Case 43 (a) (D4): without a reshuffle callback the pool is the stub then the burns,
    in order: the first stub card is burned and the rest dealt."""
    hand = deal([None] * 7, burns=["2c", "2d", "2h"], stub="3c3d3h3s4c4d4h")
    to_sixth_street(hand)
    call_down(hand, until_street=4)
    assert [h[6] for h in hand.holes] == list(parse_cards("3d3h3s4c4d4h2c"))
    assert stub(hand) == list(parse_cards("2d2h"))


def test_case_43b_S9_D4_eight_players_stub_1_one_community_card() -> None:
    """Case 43 (b) (S9, D4): 8 players reach seventh street: 48 dealt + 3 burned = 51,
    the stub is 1. Stub + 3 burns = 4 (fewer than 9): shuffle those 4, burn one, turn ONE
    community card face up that every player uses."""
    recorder = Recorder(order="2d 3c 2c 2h")  # burn 2d, community card 3c
    hand = deal([None] * 8, burns=["2c", "2d", "2h"], stub="3c", reshuffle=recorder)
    to_sixth_street(hand)
    assert stub(hand) == [Card("3c")]
    assert sum(len(h) for h in hand.holes) == 48
    call_down(hand, until_street=4)
    assert recorder.pools == [parse_cards("3c 2c2d2h")]
    assert events_of(hand, Reshuffled) == [Reshuffled(4, 4)]
    assert hand.board == [Card("3c")]
    assert events_of(hand, BoardDealt) == [BoardDealt(4, (Card("3c"),))]
    assert [len(h) for h in hand.holes] == [6] * 8  # no seventh card for anyone
    assert stub(hand) == list(parse_cards("2c2h"))
    for viewer in [None, *range(8)]:
        assert view(hand, viewer).board == (Card("3c"),)
    call_down(hand)
    show_all(hand)
    values = {p: evaluate([*hand.holes[p], Card("3c")]) for p in range(8)}
    assert [hand.hand_value(p) for p in range(8)] == [values[p] for p in range(8)]
    best = max(values.values())
    award = events_of(hand, PotAwarded)[0]
    assert award.value == best
    assert set(award.winners) == {p for p, v in values.items() if v == best}


def test_case_43c_S9_D4_folded_cards_are_never_used() -> None:
    """Case 43 (c) (S9, D4): 8 dealt, 1 folded on third street, 7 left: stub 4 + 3 burns
    = 7 (fewer than 8): one community card. The 3 folded cards are never used, even
    though they would make 10."""
    recorder = Recorder()
    cards = ["????9d", "????Td", "KsKhKd", "????Jd", "????Qd", "????9h", "????Th", "????2c"]
    hand = deal(cards, burns=["2d", "2h", "2s"], folds={2: 0}, stub="3c3d3h3s", reshuffle=recorder)
    to_sixth_street(hand, third_street_folders=[2])
    assert hand.folded == [False, False, True, False, False, False, False, False]
    assert stub(hand) == list(parse_cards("3c3d3h3s"))
    call_down(hand, until_street=4)
    assert recorder.pools == [parse_cards("3c3d3h3s 2d2h2s")]
    assert events_of(hand, Reshuffled) == [Reshuffled(4, 7)]
    folded_cards = set(parse_cards("KsKhKd"))
    assert not folded_cards & set(recorder.pools[0])
    assert hand.board == [Card("3d")]  # 3c burned
    assert not folded_cards & set(hand.board)
    assert [len(h) for h in hand.holes] == [6, 6, 3, 6, 6, 6, 6, 6]


def test_case_43c_D4_default_order_gives_the_same_community_card() -> None:
    """Case 43 (c) (D4): without a callback the pool is stub then burns: burn 3c, turn 3d."""
    cards = ["????9d", "????Td", "KsKhKd", "????Jd", "????Qd", "????9h", "????Th", "????2c"]
    hand = deal(cards, burns=["2d", "2h", "2s"], folds={2: 0}, stub="3c3d3h3s")
    to_sixth_street(hand, third_street_folders=[2])
    call_down(hand, until_street=4)
    assert hand.board == [Card("3d")]
    assert events_of(hand, BoardDealt) == [BoardDealt(4, (Card("3d"),))]


def test_case_43d_S9_sixth_street_opener_opens_seventh_with_a_community_card() -> None:
    """Case 43 (d) (S9, D4): with a community card, the first actor on sixth street acts
    first on seventh. Here S1 shows As Ah Ks Kh (two pair) and opens sixth street; the
    community card Qc would give S2's Qs Qh Jd 9c three queens, but S1 still opens."""
    cards = [
        "????AsAhKsKh", "????QsQhJd9c", "????2c3d5h7s", "????2d3h5s7c",
        "????2h3s5c7d", "????2s3c5d7h", "????4c6d8hTs", "????4d6h8sTc",
    ]
    recorder = Recorder(order="8d Qc 8c 4h")  # burn the 8d, turn the Qc
    hand = deal(cards, burns=["Qc", "8c", "8d"], stub="4h", reshuffle=recorder)
    assert hand.actor == 2  # 2c brings in
    to_sixth_street(hand)
    assert hand.actor == 0
    assert stub(hand) == [Card("4h")]
    call_down(hand, until_street=4)
    assert hand.board == [Card("Qc")]
    assert hand.street == 4
    assert hand.actor == 0
    assert board_rank(parse_cards("QsQhJd9cQc")) > board_rank(parse_cards("AsAhKsKhQc"))


def test_D4_six_players_stub_7_burn_and_deal_without_reshuffle() -> None:
    """D4: the stub must hold one card per live player plus a burn: 6 players and a stub
    of 7 burn and deal (WSOP/TDA's players + 2 would reshuffle)."""
    recorder = Recorder()
    cards = ["????9d", "????Td", "????Jd", "????Qd", "????9h", "????Th", "????Jh", "????2c"]
    hand = deal(cards, burns=["3c", "3d", "3h"], folds={2: 0, 3: 0}, stub="4c4d4h4s5c5d5h",
                reshuffle=recorder)
    to_sixth_street(hand, third_street_folders=[2, 3])
    assert stub(hand) == list(parse_cards("4c4d4h4s5c5d5h"))
    call_down(hand, until_street=4)
    assert hand.street == 4
    assert recorder.pools == []
    assert events_of(hand, Reshuffled) == []
    assert [hand.holes[p][6] for p in (0, 1, 4, 5, 6, 7)] == list(parse_cards("4d4h4s5c5d5h"))
    assert stub(hand) == []
    assert hand.board == []


def test_D4_enough_cards_no_reshuffle_callback_is_ever_called() -> None:
    """D4: with cards enough (the usual case), the reshuffle callback is never called."""
    recorder = Recorder()
    hand = deal([None] * 5, reshuffle=recorder)
    call_down(hand)
    assert recorder.pools == []
    assert events_of(hand, Reshuffled) == []
    assert [len(h) for h in hand.holes] == [7] * 5


def test_D4_a_reshuffle_must_return_the_same_cards() -> None:
    """D4: the reshuffle callback must return a new order of the same cards."""
    hand = deal([None] * 8, reshuffle=lambda pool: list(pool[1:]))  # a card went missing
    to_sixth_street(hand)
    with pytest.raises(GameError):
        call_down(hand, until_street=4)


# --- case 44, S10: stud showdown ----------------------------------------------------------------------

# S2 (player 1) shows the best board (kings); S1's 9s brings in.
CASE_44 = ["????9s8s7d6c", "????KsKd4c3c", "????QhJh5d2d"]


def seventh_street() -> Hand:
    hand = deal(CASE_44)
    call_down(hand, until_street=4)
    assert hand.street == 4 and hand.actor == 1
    return hand


def test_case_44_S10_last_raiser_on_seventh_shows_first() -> None:
    """Case 44 (S10): S2 checks, S3 bets 20, S1 raises to 40, S2 and S3 call: S1, the last
    raiser, shows first (he must); then clockwise, and a caller may muck."""
    hand = seventh_street()
    hand.check_call()
    hand.bet_raise(20)
    hand.bet_raise(40)
    hand.check_call()
    hand.check_call()
    assert hand.phase == "showdown"
    assert showdown_log(hand) == [("shown", 0, True)]
    assert hand.actor == 1
    assert hand.legal_actions().muck
    hand.muck()
    assert hand.actor == 2
    hand.show()
    assert showdown_log(hand) == [("shown", 0, True), ("mucked", 1, None), ("shown", 2, False)]


def test_case_44_S10_no_bet_on_seventh_the_best_board_shows_first() -> None:
    """Case 44 (S10): seventh street checked through: the best board (S2's kings, who had
    the first chance to bet) shows first, then clockwise."""
    hand = seventh_street()
    call_down(hand)
    assert hand.phase == "showdown"
    assert hand.actor == 1
    hand.show()
    assert hand.actor == 2
    hand.show()
    assert hand.actor == 0
    hand.show()
    assert [p for _, p, _ in showdown_log(hand)] == [1, 2, 0]


def test_case_44_S10_an_uncalled_winner_need_not_show() -> None:
    """Case 44 (S10): S2 bets on seventh street and both fold: he wins without showing and
    his bet comes back."""
    hand = seventh_street()
    hand.bet_raise(20)
    hand.fold()
    hand.fold()
    assert hand.complete
    assert showdown_log(hand) == []
    assert events_of(hand, UncalledReturned) == [UncalledReturned(1, 20)]
    assert won(hand) == {1: 3 + 3 * 3}


def test_S10_hands_that_stayed_to_the_end_are_recorded() -> None:
    """S10 (D6): a caller who mucked is revealed to everyone once the hand is over."""
    hand = seventh_street()
    hand.bet_raise(20)  # S2 bets, S3 and S1 call
    hand.check_call()
    hand.check_call()
    assert showdown_log(hand) == [("shown", 1, True)]  # a bettor who was called must show
    assert hand.actor == 2
    hand.muck()
    assert view(hand, 0).seats[2].cards == (None, None, *hand.holes[2][2:6], None)
    hand.show()  # S1
    assert hand.complete
    for viewer in (None, 0, 1):
        assert view(hand, viewer).seats[2].cards == tuple(hand.holes[2])


# --- case 45, C4, D5: the odd chip ------------------------------------------------------------------


def pot_of_41(p1: str, p2: str) -> Hand:
    """Six players; P1 (player 0) and P2 (player 1) are given all seven cards in deal order
    (down, down, up x4, down). Third street: player 5's 2c brings in 3; P1, P2, players 2
    and 3 call; player 4 folds. Fourth street: P1 bets 10, P2 calls, the others fold; then
    checks to the showdown. Pot: 6 antes + 5 x 3 + 2 x 10 = 41."""
    cards = [p1, p2, "????Qd", "????Jc", "????5s", "????2c"]
    hand = deal(cards, folds={4: 0, 2: 1, 3: 1, 5: 1})
    assert hand.actor == 5
    play_street(hand, folders=[4])
    assert hand.pot == 21
    play_street(hand, bettor=0, amount=10, folders=[2, 3, 5])
    assert hand.folded == [False, False, True, True, True, True]
    assert hand.pot == 41
    call_down(hand)
    show_all(hand)
    assert hand.complete
    return hand


def test_case_45_C4_D5_odd_chip_to_the_highest_card_of_the_five_played() -> None:
    """Case 45 (C4, D5): two tied ten-high straights, pot 41. P1 plays Th9c8d7s6c (As2d
    unused), P2 Ts9d8c7h6d (Kc3h unused): the odd chip goes by the five cards played,
    Ts > Th, so P2 gets 21 (RRP's seven cards would give it to P1's As)."""
    hand = pot_of_41("As2dTh9c8d7s6c", "Kc3hTs9d8c7h6d")
    (award,) = events_of(hand, PotAwarded)
    assert award.amount == 41
    assert award.value == evaluate("Th9c8d7s6c") == evaluate("Ts9d8c7h6d")
    assert set(award.winners) == {0, 1}
    assert won(hand) == {1: 21, 0: 20}


def test_D5_odd_chip_by_suit_of_the_highest_played_card_not_seat() -> None:
    """D5: tied flushes A-K-9-7-5: hearts (player 1) beat diamonds (player 0) for the odd
    chip, although player 0 sits nearer the dealer's left and holds the As (unused)."""
    hand = pot_of_41("AsAdKd3s9d7d5d", "4c3cAhKh9h7h5h")
    assert won(hand) == {1: 21, 0: 20}


def test_C4_equal_hands_split_the_pot_equally() -> None:
    """C4: equal best hands split the pot; an even pot has no odd chip."""
    cards = ["????9s8s7d6c5c", "????9h8h7c6d5d", "????Ks", "????2c"]
    hand = deal(cards, folds={2: 1, 3: 1})
    play_street(hand)  # 2c brings in, everyone calls
    play_street(hand, bettor=0, amount=10, folders=[2, 3])
    assert hand.folded == [False, False, True, True]
    call_down(hand)
    show_all(hand)
    (award,) = events_of(hand, PotAwarded)
    assert award.amount == 4 + 4 * 3 + 2 * 10
    assert evaluate(hand.holes[0]) == evaluate(hand.holes[1])
    assert won(hand) == {0: 18, 1: 18}


# --- R2: what each player sees ----------------------------------------------------------------------


def test_R2_S3_down_cards_to_their_owner_only_up_cards_to_everyone() -> None:
    """R2 (S3, S5, S8): a player sees his own down cards; everyone sees the up cards;
    nobody else sees a down card, in the seats and in the events."""
    hand = deal(["AsKd9c", "QhJh2c", "7s7d5h"])
    assert view(hand, 0).seats[0].cards == tuple(parse_cards("AsKd9c"))
    for viewer in (1, 2, None):
        assert view(hand, viewer).seats[0].cards == (None, None, Card("9c"))
    assert view(hand, 1).seats[1].cards == tuple(parse_cards("QhJh2c"))
    call_down(hand, until_street=4)
    assert hand.street == 4
    mine = view(hand, 2).seats[2].cards
    assert mine == tuple(hand.holes[2]) and None not in mine
    theirs = view(hand, 0).seats[2].cards
    assert theirs == (None, None, *hand.holes[2][2:6], None)
    seen_by_1 = [e for e in view(hand, 1).events if type(e) is HoleDealt and e.player == 0]
    assert [e.card is None for e in seen_by_1] == [True, True, False, False, False, False, True]
    assert all(e.card is not None for e in view(hand, 0).events if type(e) is HoleDealt and e.player == 0)
    assert view(hand, None).legal is None


# --- bad input -----------------------------------------------------------------------------------------


def test_bad_input_bring_in_player_may_not_check_call_or_fold() -> None:
    """S4: acting before the bring-in: the bring-in player may not check, call or fold."""
    hand = deal(CASE_38_UPS)
    refused(hand, "bring_in_first", hand.check_call)
    refused(hand, "bring_in_first", hand.fold)
    refused(hand, "bring_in_first", lambda: hand.act("call"))
    refused(hand, "bring_in_first", lambda: hand.act("check"))
    assert not hand.can_check_call() and not hand.can_fold() and hand.can_bring_in()


@pytest.mark.parametrize("amount", [3, 5, 9, 11, 20])
def test_bad_input_wrong_complete_amount(amount: int) -> None:
    """S4: completing is exactly 10 (the small bet); anything else is refused."""
    hand = deal(CASE_38_UPS)
    refused(hand, "amount_out_of_range", lambda: hand.bet_raise(amount))
    assert not hand.can_bet_raise(amount)
    hand.bring_in()
    refused(hand, "amount_out_of_range", lambda: hand.bet_raise(amount))


@pytest.mark.parametrize("amount", ["10", 10.0, None, True])
def test_bad_input_complete_amount_not_a_whole_number(amount: object) -> None:
    hand = deal(CASE_38_UPS)
    refused(hand, "bad_amount", lambda: hand.bet_raise(amount))


def test_bad_input_bring_in_when_none_is_due() -> None:
    """S4: the bring-in is posted once, on third street, by the low card only."""
    hand = deal(CASE_38_UPS)
    refused(hand, "not_your_turn", lambda: hand.bring_in(player=S6))
    hand.bring_in()
    refused(hand, "no_bring_in", hand.bring_in)
    refused(hand, "no_bring_in", lambda: hand.act("bring_in"))
    assert not hand.can_bring_in()
    hand = deal(CASE_38_UPS)
    hand.bet_raise(10)  # S5 completes: no bring-in any more
    refused(hand, "no_bring_in", hand.bring_in)
    call_down(hand, until_street=1)
    assert hand.street == 1
    refused(hand, "no_bring_in", hand.bring_in)
    call_down(hand)
    show_all(hand)
    refused(hand, "hand_over", hand.bring_in)


def test_bad_input_fold_with_nothing_to_call_on_fourth_street() -> None:
    hand = fourth_street()
    refused(hand, "nothing_to_call", hand.fold)
    refused(hand, "not_your_turn", lambda: hand.check_call(player=0))


@pytest.mark.parametrize("first_ten", ["Tc", "Ts"])
def test_D5_case_45_odd_chip_uses_the_most_favourable_five(first_ten: str) -> None:
    """D5: with two equally good fives, the player plays the one with the highest card by
    suit: p0 holds both the ten of clubs and the ten of spades, so he gets the odd chip
    against p1's ten of hearts whichever ten was dealt first."""
    other = "Ts" if first_ten == "Tc" else "Tc"
    top = [first_ten, "Th", "Qd", "2d", "Kc", "Qh", "6c", "6d", "As", "4c", "7s", "7h", "4d",
           "8d", "8c", "4h", "9c", "9d", "4s", other, "3h"]
    used = set(parse_cards("".join(top)))
    deck = list(parse_cards("".join(top))) + [c for c in FULL_DECK if c not in used]
    hand = Hand(Game.stud(10, 20, ante=1, bring_in=3), [100, 100, 100], deck)
    hand.bring_in(0)
    hand.check_call(1)
    hand.fold(2)
    while not hand.complete:
        if hand.phase == "showdown":
            hand.show()
        else:
            hand.check_call()
    award = next(e for e in hand.events if type(e) is PotAwarded)
    assert award.amount == 9 and set(award.winners) == {0, 1}
    assert dict(zip(award.winners, award.shares, strict=True)) == {0: 5, 1: 4}
