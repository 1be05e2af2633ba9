"""Hand snapshots (histories.snapshot / restore / stored_text): the server stores a hand's
facts when it ends and writes its .phh and .txt on request. A text written from the
snapshot, read back from its JSON, is byte for byte the text written from the live hand,
for every reader (D6), in every game; histories stored before snapshots are not read
(migration 0005 rewrites them: test_history_migration.py)."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from pokerroom.core.cards import Card, seeded_deck
from pokerroom.core.hand import Hand
from pokerroom.core.structures import Game
from pokerroom.gateway.app import hand_for
from pokerroom.histories import (
    HistoryError,
    StoredHand,
    restore,
    snapshot,
    stored_text,
    to_phh,
    to_pokerstars,
)
from pokerroom.sim import random_action
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


def protected_hand(game: Game, stacks: list[int], seed: int) -> Hand:
    """Random play where a player facing a bet sometimes times out into all-in protection (D7)."""
    rng = random.Random(seed)
    hand = Hand(game, stacks, seeded_deck(seed))
    while not hand.complete:
        legal = hand.legal_actions()
        if hand.can_protect() and rng.random() < 0.3:
            hand.protect()
            continue
        if legal.bring_in:
            hand.act("bring_in", None, legal.player)
            continue
        kind, amount = random_action(legal, rng)
        if kind == "raise" and game.structure.fixed:  # stud's open pair: the small or the big bet
            amount = rng.choice([legal.min_to, legal.max_to])
        hand.act(kind, amount, legal.player)
    return hand


SIX_MAX = [Game.no_limit(1, 2), Game.pot_limit(1, 2), Game.fixed_limit(2, 4), Game.no_limit(5, 10, ante=1)]


def odd_hands() -> Iterator[tuple[str, Hand]]:
    """Hands of the forced bets PHH lacks, all-in protection, 6-max and heads-up deep play,
    and the scripted hands of helpers.histories."""
    yield "scripted holdem", scripted_holdem()
    yield "scripted stud", scripted_stud()
    for seed in range(10):
        for game in (Game.no_limit(1, 2), Game.pot_limit(1, 2, ante=1), Game.fixed_limit(2, 4)):
            yield "dead small blind", play_forced(game, [300] * 5, seed, blinds=[game.small_blind,
                                                  game.big_blind, 0, 0, 0], dead_blinds=[0, 0, 1, 0, 0])
        yield "live blind", play_forced(Game.no_limit(1, 2), [200] * 5, seed, blinds=[1, 2, 0, 2, 0],
                                        dead_blinds=[0, 0, 0, 1, 0])
        yield "no small blind", play_forced(Game.no_limit(1, 2), [200] * 4, seed, blinds=[2, 0, 0, 0],
                                            big_blind_position=0)
        yield "short heads-up", play_forced(Game.no_limit(1, 2, ante=1), [2, 100], seed)
        yield "capped", play_forced(Game.fixed_limit(2, 4, cap=3, heads_up_uncapped=True), [100] * 3, seed)
    for seed in range(40):
        game = SIX_MAX[seed % len(SIX_MAX)]
        unit = game.big_blind
        yield "6-max protected", protected_hand(game, [100 * unit] * 6, seed)
        yield "heads-up protected", protected_hand(game, [100 * unit, 40 * unit], seed)
        stud = Game.stud(10, 20, ante=1, bring_in=3, open_pair_big_bet=seed % 2 == 0)
        yield "stud protected", protected_hand(stud, [500] * (2 + seed % 7), seed)


def all_hands() -> Iterator[tuple[str, Hand, list[int]]]:
    for kind in COUNTS:
        for hand, seats, _ in random_hands(kind):
            yield kind, hand, seats
    rng = random.Random("snapshot-seats")
    for kind, hand in odd_hands():
        yield kind, hand, seats_of(hand.n, rng)


def texts(hand: Hand | StoredHand, seats: list[int], number: int, viewer: int | None,
          reveal_all: bool = False) -> tuple[str, str]:
    names = list(NAMES[:hand.n])
    return (
        to_phh(hand, names=names, seats=seats, table="Alpha", number=number, viewer=viewer,
               reveal_all=reveal_all, started_at=NOON + number),
        to_pokerstars(hand, names=names, seats=seats, table="Alpha", number=number, button_seat=seats[-1],
                      started_at=NOON + number, viewer=viewer, reveal_all=reveal_all, max_seats=9),
    )


def test_texts_from_a_snapshot_read_back_are_the_live_hands_texts() -> None:
    count, kinds, protected, showdowns, folds = 0, set(), 0, 0, 0
    for number, (kind, hand, seats) in enumerate(all_hands(), 1):
        data = snapshot(hand)
        stored = json.loads(json.dumps(data))
        assert stored == data  # plain JSON values: nothing lost or changed on the way
        rebuilt = restore(stored)
        for viewer in (None, *range(hand.n)):
            assert texts(rebuilt, seats, number, viewer) == texts(hand, seats, number, viewer), (kind, viewer)
        assert texts(rebuilt, seats, number, None, True) == texts(hand, seats, number, None, True)
        count += 1
        kinds.add(kind)
        protected += any(e[0] == "act" and e[2] == "protected" for e in stored["events"])
        showdowns += bool(hand.reached_showdown)
        folds += not hand.reached_showdown
    assert count >= 600 and set(COUNTS) <= kinds
    assert protected >= 50 and showdowns >= 300 and folds >= 100  # the sample holds every ending


def test_restore_rebuilds_the_same_events_cards_and_game() -> None:
    for kind, hand, _ in all_hands():
        rebuilt = restore(json.loads(json.dumps(snapshot(hand))))
        assert rebuilt.events == tuple(hand.events), kind
        assert [type(e) for e in rebuilt.events] == [type(e) for e in hand.events]
        assert rebuilt.game == hand.game and type(rebuilt.game.cap) is type(hand.game.cap)
        assert rebuilt.holes == tuple(map(tuple, hand.holes)) and rebuilt.board == tuple(hand.board)
        assert all(type(c) is Card for h in (*rebuilt.holes, rebuilt.board) for c in h)
        assert rebuilt.face_up == tuple(map(tuple, hand.face_up))
        assert (rebuilt.reached_showdown, rebuilt.shown, rebuilt.mucked) == (
            hand.reached_showdown, hand.shown, hand.mucked)
        assert (list(rebuilt.stacks), list(rebuilt.winnings), list(rebuilt.folded)) == (
            hand.stacks, hand.winnings, hand.folded)
        assert rebuilt.starting_stacks == tuple(hand.starting_stacks)
        assert (rebuilt.n, rebuilt.big_blind_position, rebuilt.complete) == (
            hand.n, hand.big_blind_position, True)


def test_a_live_hand_is_refused_from_its_snapshot_too() -> None:
    live = restore(snapshot(Hand(Game.no_limit(1, 2), [100, 100], seeded_deck(1))))
    with pytest.raises(HistoryError, match="over"):
        to_phh(live, names=["A", "B"], seats=[1, 2], table="T", number=1)
    with pytest.raises(HistoryError, match="version"):
        restore({**snapshot(scripted_holdem()), "v": 99})


# ---------------------------------------------------------------------------- stored histories


def stored_history(hand: Hand, seats: list[int], *, old: bool) -> dict[str, Any]:
    """A hand's ``history`` JSON as Store.hand serves it (full_history: with the hand's
    id), or (``old``) as servers before snapshots stored it, each player's texts in
    private.views (migration 0005 rewrites those: tests/server/test_history_migration.py)."""
    names = list(NAMES[:hand.n])
    history: dict[str, Any] = {
        "table": "Alpha", "number": 7, "started_at": NOON + 0.25, "commitment": "c" * 64, "leaves": [],
        "players": [{"seat": s, "name": n} for s, n in zip(seats, names, strict=True)],
        "record": {"board": [str(c) for c in hand.board], "players": [{"cards": []}]},
        "private": {"openings": [], "holes": {str(s): [str(c) for c in hand.holes[i]]
                                              for i, s in enumerate(seats)}},
    }
    if old:
        history["private"]["views"] = {
            str(s): dict(zip(("phh", "text"), (f"old phh {s}", f"old text {s}"), strict=True)) for s in seats
        }
    else:
        history["private"] |= {"hand": snapshot(hand), "button_seat": seats[-1], "max_seats": 6, "hand_id": 7}
    return json.loads(json.dumps(history))  # as read back from the database


def expected(hand: Hand, seats: list[int], viewer: int | None) -> tuple[str, str]:
    names = list(NAMES[:hand.n])
    return (
        to_phh(hand, names=names, seats=seats, table="Alpha", number=7, viewer=viewer,
               started_at=NOON + 0.25),
        to_pokerstars(hand, names=names, seats=seats, table="Alpha", number=7, button_seat=seats[-1],
                      started_at=NOON + 0.25, viewer=viewer, max_seats=6),
    )


@pytest.mark.parametrize("make", [scripted_holdem, scripted_stud])
def test_stored_text_writes_each_readers_texts(make: Any) -> None:
    hand, seats = make(), [2, 3, 5]
    history = stored_history(hand, seats, old=False)
    for viewer in (None, 0, 1, 2):
        seat = None if viewer is None else seats[viewer]
        assert (stored_text(history, seat, "phh"), stored_text(history, seat, "txt")) == expected(
            hand, seats, viewer)
    with pytest.raises(HistoryError, match="did not play"):
        stored_text(history, 4, "phh")
    with pytest.raises(HistoryError, match="'phh' or 'txt'"):
        stored_text(history, 2, "json")


def test_the_api_serves_stored_histories_and_no_texts_kept_before_snapshots() -> None:
    hand, seats = scripted_holdem(), [2, 3, 5]
    history = stored_history(hand, seats, old=False)
    data = {"id": 7, "history": json.dumps(history),
            "players": [{"seat": s, "net": n} for s, n in zip(seats, (-150, 156, -6), strict=True)]}
    for viewer, seat in enumerate(seats):
        phh = hand_for(data, seat, "phh")
        txt = hand_for(data, seat, "txt")
        assert phh.media_type == "application/toml"
        assert (bytes(phh.body).decode(), bytes(txt.body).decode()) == expected(hand, seats, viewer)
        public = json.loads(bytes(hand_for(data, seat, "json").body))
        assert "private" not in public and public["your_cards"] == [str(c) for c in hand.holes[viewer]]
        assert public["id"] == 7 and public["nets"]["3"] == 156
    old = stored_history(hand, seats, old=True)  # its texts are not read: 0005 made such rows current
    for seat in (None, *seats):
        with pytest.raises(HistoryError):
            stored_text(old, seat, "phh")
