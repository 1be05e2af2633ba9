"""What the server stores of a hand, and what it makes again when a history is read
(runner._store_hand, histories.full_history, Store.hand): the deal kept as its salts
gives back the leaves and every opening, the snapshot gives back the previous-hand record
as the table made it, in every game, and the served JSON is what it was when all of it
was stored. Also: the secure shuffle, and the your_turn and event texts written without
models, byte for byte as the models (or the plain encoder) write them."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from pokerroom import protocol as p
from pokerroom.core.cards import FULL_DECK
from pokerroom.core.events import redact
from pokerroom.core.hand import Legal
from pokerroom.fairness import commit, leaves_of, opening, openings_of, salt_text, verify
from pokerroom.gateway.app import hand_for
from pokerroom.histories import HistoryError, full_history, restore, snapshot
from pokerroom.table import PLAYING, Stage, Table, TableConfig
from pokerroom.table.record import record_hand
from pokerroom.table.view import turn_player
from pokerroom.wire import _encode, event_item, event_json, jsonable, record_json, your_turn_text
from pokerroom.worker.deal import secure_deck
from pokerroom.worker.runner import TableRunner
from tests.server.helpers.tables import GAMES, decide, played_tables, runner_history


@pytest.mark.parametrize("seed", [1, 2])
def test_the_record_made_from_the_snapshot_is_the_tables(seed: int) -> None:
    count = 0
    for table in played_tables(seed):
        assert table.hand is not None and table.plan is not None and table.previous is not None
        stored = restore(json.loads(json.dumps(snapshot(table.hand))))  # as read back
        record = table.previous
        again = record_hand(record.number, record.game, record.button, stored, table.plan.seats,
                            table.hand_players)
        assert again == record
        assert json.dumps(record_json(again)) == json.dumps(record_json(record))
        count += 1
    assert count > 200


def test_a_history_read_back_is_the_history_stored_before() -> None:
    rng = random.Random(5)
    for k, table in enumerate(played_tables(3, hands=25)):
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        new, cards, old = runner_history(table, deck, k)
        text = json.dumps(new, separators=(",", ":"))
        full = json.loads(full_history(text, cards, 9))
        assert full["private"].pop("hand_id") == 9  # the hand's room-wide id, for its texts
        assert full == old and list(full) == list(old) and list(full["private"]) == list(old["private"])
        assert verify(full["commitment"], full["leaves"], full["private"]["openings"])
        # what a player is served of it is the same, byte for byte
        seat = table.plan.seats[0] if table.plan else 1
        data = {"id": 9, "history": full_history(text, cards, 9), "players": [{"seat": seat, "net": 0}]}
        before = {"id": 9, "history": json.dumps(old), "players": [{"seat": seat, "net": 0}]}
        assert hand_for(data, seat, "").body == hand_for(before, seat, "").body
        assert bytes(hand_for(data, seat, "txt").body).startswith(b"PokerStars Hand #9:  ")
    # a history as stored before (0005 rewrote those), or anything else: refused
    salt = text.replace('"salts"', '"salt"')
    wrongs = (json.dumps(old), '{"private": {"salts": 1}}', "[1]", "not JSON", salt)
    for wrong in wrongs:
        with pytest.raises(HistoryError):
            full_history(wrong, cards, 9)
    with pytest.raises(HistoryError):
        full_history(text, cards, "9")  # type: ignore[arg-type]
    first_cut = json.dumps({"table": "T1", "number": 1, "salt": "s", "deck": cards, "players": []})
    assert full_history(first_cut, cards, 9) == first_cut  # no "private": nothing to add, served as it is


def test_salts_leaves_and_openings() -> None:
    deck = secure_deck()
    deal = commit(deck)
    assert len(set(deal.salts)) == 52 and all(len(s) == 32 and int(s, 16) >= 0 for s in deal.salts)
    cards = "".join(map(str, deck))
    assert leaves_of(salt_text(deal), cards) == list(deal.leaves)
    assert openings_of(salt_text(deal), cards) == [opening(deal, deck, i) for i in range(52)]
    with pytest.raises(ValueError):
        salt_text(commit(deck, salts=["00"] * 52))
    with pytest.raises(ValueError):
        openings_of(salt_text(deal), cards[:-2])


def test_the_shuffle_is_a_uniform_permutation() -> None:
    decks = [secure_deck() for _ in range(6000)]
    assert all(sorted(d) == sorted(FULL_DECK) for d in decks)
    # each card's position: about 6000/52 = 115 times each of 52 places (chi-square, 51 df)
    for card in (FULL_DECK[0], FULL_DECK[25], FULL_DECK[51]):
        places = Counter(d.index(card) for d in decks)
        expected = len(decks) / 52
        chi2 = sum((places.get(i, 0) - expected) ** 2 / expected for i in range(52))
        assert chi2 < 110, (card, chi2)  # p < 1e-5 by chance


def test_the_shuffle_draws_again_past_the_last_whole_range() -> None:
    """Words at or past the largest multiple of the range are drawn again, never used."""
    calls: list[int] = []

    def words(n: int) -> bytes:
        calls.append(n)
        if len(calls) == 1:  # 0xffffffff is past every range's last multiple but 1, 2, 4, ...
            return b"\xff\xff\xff\xff" * (n // 4)
        return bytes(n)

    deck = secure_deck(words)
    # 52 words, all refused for the first range (52): the shuffle is the one of zero words
    assert calls == [208, 208] and deck == secure_deck(lambda n: bytes(n))
    assert sorted(deck) == sorted(FULL_DECK)


def test_event_items_are_the_encoded_events() -> None:
    seen = set()
    for table in played_tables(4, hands=15):
        assert table.hand is not None
        for version, e in enumerate(table.hand.events):
            for event in (e, redact(e)):
                seen.add(type(event).__name__)
                assert event_item(version, event) == _encode({"version": version, "event": event_json(event)})
        record = table.previous
        assert record is not None
        for event in record.events:
            assert event_item(7, event) == _encode({"version": 7, "event": event_json(event)})
    assert {"HoleDealt", "Acted", "PotAwarded", "BoardDealt", "HandEnded", "Posted"} <= seen


@pytest.mark.parametrize("name", ["T0001", 'Stud é 10/20 "x"\n\u2028 \U0001f600'])
def test_your_turn_is_the_models_json(name: str) -> None:
    count = 0
    rng = random.Random(8)
    for game, seats in GAMES:
        runner = TableRunner.__new__(TableRunner)
        runner.name = name
        table = runner.table = Table(TableConfig.mixed([Stage(game, 1)], seats=seats, min_buy_in=40,
                                                        max_buy_in=1000, time_bank=3))
        for s in range(1, seats + 1):
            table.sit(f"p{s}", s, rng.randint(40, 1000))
        now = 1_764_626_579.123
        for _ in range(30):
            if not table.can_start():
                break
            deck = list(FULL_DECK)
            rng.shuffle(deck)
            table.start_hand(deck, now)
            while table.phase == PLAYING:
                hand, plan, turn = table.hand, table.plan, table.turn
                assert hand is not None and plan is not None and table.actor is not None
                if turn is not None:
                    me = plan.seats.index(table.actor)
                    live = [q for q in range(hand.n) if not hand.folded[q]]
                    holes, face_up = hand.holes, hand.face_up
                    model = p.YourTurn(
                        table=name, legal=jsonable(hand.legal_actions()), deadline=turn.deadline,
                        game=hand.game.code, street=hand.street_name, cards=[str(c) for c in hand.holes[me]],
                        up=list(hand.face_up[me]), board=[str(c) for c in hand.board], pot=hand.pot,
                        stack=hand.stacks[me], players=len(live),
                        opponents_up=[[str(c) for c, up in zip(holes[q], face_up[q], strict=False) if up]
                                      for q in live if q != me],
                    )
                    assert turn_player(runner.table) == table.seats[table.actor].player
                    assert runner._turn_text() == model.model_dump_json()
                    count += 1
                now += rng.random()
                action, amount = decide(jsonable(hand.legal_actions()), game, rng)
                table.act(table.seats[table.actor].player, action, amount, now)
            for seat in table.seats.values():
                if seat.stack == 0:
                    table.add_chips(seat.player, 200)
                    table.sit_in(seat.player)
    assert count > 500


def test_your_turn_text_leaves_odd_floats_to_the_model() -> None:
    legal = Legal(player=0, fold=True, check=False, call=2, min_to=4, max_to=200, show=False, muck=False,
                  bring_in=0)
    args = ("NT", "preflop", ["As", "Kd"], [False, False], [], 3, 197, 2, [[]])
    assert your_turn_text("T", legal, 1e16, *args) is None  # pydantic writes 1e16, Python 1e+16
    text = your_turn_text("T", legal, 1_764_626_579.5, *args)
    model = p.YourTurn(table="T", legal=jsonable(legal), deadline=1_764_626_579.5, game="NT",
                       street="preflop", cards=["As", "Kd"], up=[False, False], board=[], pot=3, stack=197,
                       players=2, opponents_up=[[]])
    assert text == model.model_dump_json()
