"""Protocol 3's structure on the wire (issue 17, item 4): events by explicit wire names,
hands' values as data beside their English, and the server-to-client models matching the
values the server makes them from."""

from __future__ import annotations

import dataclasses
import json
import typing
from typing import NamedTuple

import pytest

from pokerroom import protocol as p
from pokerroom.core import events as core
from pokerroom.core.evaluator import best_five, describe, evaluate
from pokerroom.core.hand import Legal
from pokerroom.core.structures import Game
from pokerroom.table import events as tables
from pokerroom.table import record, view
from pokerroom.table.config import GameInfo
from pokerroom.table.seating import Options
from pokerroom.wire import WIRE_NAMES, event_item, event_json, record_model, wire_event, wire_name
from pokerroom.worker.runner import ChatLine, DeckCommitted, DeckSeeded
from tests.core.holdem_helpers import check_down, deal, show_all


def test_every_event_has_a_wire_name_and_the_names_are_the_protocols():
    classes = [*typing.get_args(core.Event), *typing.get_args(tables.TableEvent), DeckCommitted, DeckSeeded,
               ChatLine, view.HandStartedInfo, view.GameChangedInfo]
    names = {c: wire_name(c) for c in classes}
    assert names[core.HoleDealt] == "HoleDealt" and names[view.HandStartedInfo] == "HandStarted"
    assert names[ChatLine] == "ChatLine" and names[DeckSeeded] == "DeckSeeded"
    # distinct but for the table's events and their copies with the game as data
    assert len(set(names.values())) == len(classes) - 2


def test_the_wire_name_not_the_class_name_is_written():
    class Renamed(NamedTuple):
        seat: int

    with pytest.raises(TypeError, match="no wire name"):
        event_json(Renamed(1))
    try:
        wire_event("SomethingElse")(Renamed)
        assert event_json(Renamed(1)) == {"type": "SomethingElse", "seat": 1}
        item = json.loads(event_item(4, Renamed(1)))
        assert item == {"version": 4, "event": {"type": "SomethingElse", "seat": 1}}
        with pytest.raises(ValueError, match="taken"):
            wire_event("Acted")(type("Other", (tuple,), {}))
    finally:
        del WIRE_NAMES[Renamed]


def _showdown() -> record.HandRecord:
    """Heads-up no limit checked down: kings full of sevens against a wheel."""
    hand = deal(Game.no_limit(1, 2), [100, 100], ["KsKh", "5c4d"], board="7c7dKd9sAs")
    while not hand.complete:
        check_down(hand)
        show_all(hand)
    return record.record_hand(1, "NL 1/2", 1, hand, (1, 2), ("ann", "bob"))


def test_a_hands_value_as_data_beside_its_english():
    rec = _showdown()
    by_seat = {q.seat: q for q in rec.players}
    hands = [describe(evaluate(c)) for c in ("KsKh7c7dKd9sAs", "5c4d7c7dKd9sAs")]
    assert [q.hand for q in rec.players] == hands
    assert by_seat[1].value == record.HandValue("full_house", ("K", "K", "K", "7", "7"))
    assert by_seat[1].hand == "Full house, kings full of sevens"
    assert rec.pots[0].value == by_seat[1].value and rec.pots[0].hand == by_seat[1].hand
    assert rec.game_info == GameInfo("holdem", "no_limit", (1, 2), 1, 2, 0, 0, 0, 0)
    model = record_model(rec)
    assert model.players[0].value == p.HandValue(category="full_house", ranks=["K", "K", "K", "7", "7"])
    assert model.game_info is not None and model.game_info.structure == "no_limit"


@pytest.mark.parametrize(("cards", "category", "ranks"), [
    ("5d4h3c2sAd", "straight", "5432A"),  # the wheel: the five is high
    ("AhAdKcKs4d", "two_pair", "AAKK4"),
    ("QhJhTh9h8h", "straight_flush", "QJT98"),
    ("Ah9h7h4h3h", "flush", "A9743"),
])
def test_hand_values_name_their_ranks_most_important_first(cards: str, category: str, ranks: str):
    assert record.hand_value(evaluate(cards), best_five(cards)) == record.HandValue(category, tuple(ranks))


@pytest.mark.parametrize(("model", "made_from"), [
    (p.TableView, view.TableView), (p.SeatView, view.SeatInfo), (p.PotView, view.PotInfo),
    (p.GameInfo, GameInfo), (p.HandValue, record.HandValue), (p.HandRecord, record.HandRecord),
    (p.PlayerRecord, record.PlayerRecord), (p.PotRecord, record.PotRecord), (p.SeatOptions, Options),
    (p.Legal, Legal),
])
def test_every_outbound_model_has_the_fields_of_what_it_is_made_from(model: type, made_from: type):
    fields = (
        [f.name for f in dataclasses.fields(made_from)] if dataclasses.is_dataclass(made_from)
        else list(made_from._fields)  # type: ignore[attr-defined]
    )
    assert list(model.model_fields) == fields
