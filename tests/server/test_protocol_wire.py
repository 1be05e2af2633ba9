"""Protocol 3's structure on the wire (issue 17, item 4): events by explicit wire names,
hands' values as data beside their English, and the server-to-client models matching the
values the server makes them from."""

from __future__ import annotations

import dataclasses
import json
import typing
from typing import NamedTuple

import pytest

from pokerroom import outbound as o
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
from pokerroom.worker.events import ChatLine, DeckCommitted, DeckSeeded, HandVoided
from tests.core.helpers import check_down, deal, show_all


def test_every_event_has_a_wire_name_and_the_names_are_the_protocols():
    plain = (tables.HandStarted, tables.GameChanged)  # sent only with their game as data
    table_events = [c for c in typing.get_args(tables.TableEvent) if c not in plain]
    classes = [*typing.get_args(core.Event), *table_events, DeckCommitted, DeckSeeded, ChatLine, HandVoided,
               view.HandStartedInfo, view.GameChangedInfo]
    names = {c: wire_name(c) for c in classes}
    assert names[core.HoleDealt] == "HoleDealt" and names[view.HandStartedInfo] == "HandStarted"
    assert names[ChatLine] == "ChatLine" and names[DeckSeeded] == "DeckSeeded"
    assert len(set(names.values())) == len(classes)
    for kind in plain:
        with pytest.raises(TypeError, match="no wire name"):
            wire_name(kind)


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
    assert model.players[0].value == o.HandValue(category="full_house", ranks=["K", "K", "K", "7", "7"])
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
    (o.TableView, view.TableView), (o.SeatView, view.SeatInfo), (o.PotView, view.PotInfo),
    (o.GameInfo, GameInfo), (o.HandValue, record.HandValue), (o.HandRecord, record.HandRecord),
    (o.PlayerRecord, record.PlayerRecord), (o.PotRecord, record.PotRecord), (o.SeatOptions, Options),
    (o.Legal, Legal),
])
def test_every_outbound_model_has_the_fields_of_what_it_is_made_from(model: type, made_from: type):
    fields = (
        [f.name for f in dataclasses.fields(made_from)] if dataclasses.is_dataclass(made_from)
        else list(made_from._fields)  # type: ignore[attr-defined]
    )
    assert list(model.model_fields) == fields


def test_every_event_sent_has_its_model_with_its_fields():
    models = {m.model_fields["type"].default: m for m in typing.get_args(typing.get_args(o.Event)[0])}
    sent = {kind: name for kind, name in WIRE_NAMES.items() if kind is not core.HandEnded}  # HandFinished's
    assert set(models) == set(sent.values())
    for kind, name in sent.items():
        fields = [f for f in models[name].model_fields if f != "type"]
        assert fields == list(kind._fields), name  # type: ignore[attr-defined]


def test_the_events_written_validate_as_their_models():
    rec = _showdown()
    model = record_model(rec)
    assert [type(e).__name__ for e in model.events] == [wire_name(type(e)) for e in rec.events]
    items = [event_item(k, e) for k, e in enumerate(rec.events, 1)]
    message = p.SERVER.validate_json('{"type":"events","table":"NL","events":[' + ",".join(items) + "]}")
    assert isinstance(message, p.EventsMessage)
    assert [e.event for e in message.events] == list(model.events)
