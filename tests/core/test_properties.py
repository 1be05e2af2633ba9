"""Hypothesis properties of the hand engine: chips are conserved, no stack goes negative,
while the hand is live someone can act, and no view ever shows a hidden card before the
rules allow it (R2, D6, case 49)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pokerroom.core.cards import Card, seeded_deck
from pokerroom.core.events import BoardDealt, HoleDealt, Mucked, Shown
from pokerroom.core.hand import Hand
from pokerroom.core.structures import Game
from pokerroom.core.views import view

GAMES = [
    Game.no_limit(1, 2),
    Game.no_limit(5, 10, ante=1),
    Game.pot_limit(1, 2),
    Game.pot_limit(2, 5, ante=1),
    Game.fixed_limit(2, 4),
    Game.fixed_limit(10, 20, heads_up_uncapped=True),
]
STUD_GAMES = [
    Game.stud(10, 20, ante=1, bring_in=3),
    Game.stud(10, 20, ante=2, bring_in=5, open_pair_big_bet=False),
]


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    game = draw(st.sampled_from(GAMES + STUD_GAMES))
    n = draw(st.integers(2, 8 if game.stud_game else 9))
    stacks = draw(st.lists(st.integers(1, 400), min_size=n, max_size=n))
    seed = draw(st.integers(0, 10**9))
    return Hand(game, stacks, seeded_deck(seed))


def choose(hand: Hand, data: st.DataObject) -> tuple[str, int | None]:
    legal = hand.legal_actions()
    options: list[tuple[str, int | None]] = []
    if legal.show:
        options.append(("show", None))
    if legal.muck:
        options.append(("muck", None))
    if legal.fold:
        options.append(("fold", None))
    if legal.bring_in:
        options.append(("bring_in", None))
    elif legal.check or legal.call:
        options.append(("call", None))
    if legal.min_to is not None and legal.max_to is not None:
        edges = st.sampled_from([legal.min_to, legal.max_to])
        if hand.game.structure.fixed:  # fixed limit: exactly one of the two amounts
            amount = data.draw(edges)
        else:
            amount = data.draw(edges | st.integers(legal.min_to, legal.max_to))
        options.append(("raise", amount))
    assert options, f"live hand with nothing to do: {hand!r}"
    return data.draw(st.sampled_from(options))


def cards_seen(hand: Hand, viewer: int | None) -> set[Card]:
    v = view(hand, viewer)
    seen: set[Card] = set(v.board)
    for seat in v.seats:
        seen.update(c for c in seat.cards if c is not None)
    for e in v.events:
        if type(e) is HoleDealt and e.card is not None:
            seen.add(e.card)
        elif type(e) in (BoardDealt, Shown, Mucked):
            seen.update(e.cards)  # type: ignore[union-attr]
    return seen


def allowed_cards(hand: Hand, viewer: int | None) -> set[Card]:
    """Worked out from the raw events, independently of views.py."""
    shown = {e.player for e in hand.events if type(e) is Shown}
    allowed: set[Card] = set()
    for e in hand.events:
        if type(e) is BoardDealt:
            allowed.update(e.cards)
        elif type(e) is HoleDealt and e.face_up:  # stud up cards (R2)
            allowed.add(e.card)  # type: ignore[arg-type]
    players = set(shown)
    if viewer is not None:
        players.add(viewer)
    if hand.complete:
        live = [p for p in range(hand.n) if not hand.folded[p]]
        if len(live) > 1:  # the hand went to a showdown: D6 reveals shown and mucked hands
            players.update(live)
    for p in players:
        allowed.update(hand.holes[p])
    return allowed


@settings(max_examples=300, deadline=None)
@given(hands(), st.data())
def test_chips_conserved_no_negative_stack_someone_can_act(hand: Hand, data: st.DataObject) -> None:
    total = sum(hand.starting_stacks)
    steps = 0
    while not hand.complete:
        assert hand.actor is not None, "live hand without a player to act"
        assert sum(hand.stacks) + hand.pot == total
        assert min(hand.stacks) >= 0 and min(hand.bets) >= 0
        action, amount = choose(hand, data)
        hand.act(action, amount)
        steps += 1
        assert steps < 400
    assert sum(hand.stacks) == total
    assert min(hand.stacks) >= 0
    assert sum(hand.result().net) == 0
    for event in hand.events:  # the engine builds events with tuple.__new__: exact fields
        assert len(event) == len(type(event)._fields), event
        assert all(getattr(event, f) is event[k] for k, f in enumerate(type(event)._fields))


@settings(max_examples=300, deadline=None)
@given(hands(), st.data())
def test_R2_D6_S10_no_view_leaks_a_hidden_card(hand: Hand, data: st.DataObject) -> None:
    viewers: list[int | None] = [None, *range(hand.n)]
    while True:
        for viewer in viewers:
            leaked = cards_seen(hand, viewer) - allowed_cards(hand, viewer)
            assert not leaked, f"viewer {viewer} sees {leaked} in {hand!r}"
        if hand.complete:
            break
        hand.act(*choose(hand, data))
    # case 49: no card that was never dealt is ever shown, even after the hand
    dealt = {c for h in hand.holes for c in h} | set(hand.board)
    for viewer in viewers:
        assert cards_seen(hand, viewer) <= dealt
