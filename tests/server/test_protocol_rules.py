"""The protocol of issue 15: the ``show_cards`` command (D12), ``options.straddle`` (D10),
and the ``CardsRevealed`` event as the server writes it (its cards as 'Ah', like the
other events' cards)."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from pokerroom import protocol as p
from pokerroom.core.cards import Card
from pokerroom.table.events import CardsRevealed, TimedOut
from pokerroom.wire import _encoded_item, event_item, event_json, events_text


def test_D12_show_cards_takes_one_to_seven_distinct_card_indices() -> None:
    both = p.CLIENT.validate_json('{"type": "show_cards", "table": "NL", "cards": [0, 1], "id": 4}')
    assert isinstance(both, p.ShowCards) and both.cards == [0, 1] and both.id == 4
    one = p.CLIENT.validate_json('{"type": "show_cards", "table": "NL", "cards": [1]}')
    assert isinstance(one, p.ShowCards) and one.cards == [1]
    seven = p.CLIENT.validate_json('{"type": "show_cards", "table": "S", "cards": [6, 5, 4, 3, 2, 1, 0]}')
    assert isinstance(seven, p.ShowCards) and len(seven.cards) == 7


@pytest.mark.parametrize(
    "cards",
    ["[]", "[0, 0]", "[7]", "[-1]", '["0"]', "[0.0]", "[true]", "[0, 1, 2, 3, 4, 5, 6, 0]", "0", "null"],
)
def test_D12_show_cards_refuses_what_is_not_distinct_indices(cards: str) -> None:
    with pytest.raises(ValidationError):
        p.CLIENT.validate_json(f'{{"type": "show_cards", "table": "NL", "cards": {cards}}}')


def test_D12_show_cards_needs_a_table_and_nothing_else() -> None:
    with pytest.raises(ValidationError):
        p.CLIENT.validate_json('{"type": "show_cards", "cards": [0]}')
    with pytest.raises(ValidationError):
        p.CLIENT.validate_json('{"type": "show_cards", "table": "NL", "cards": [0], "all": true}')


def test_D10_options_carry_the_straddle_checkbox() -> None:
    on = p.CLIENT.validate_json('{"type": "options", "table": "NL", "straddle": true}')
    assert isinstance(on, p.Options) and on.straddle is True
    other = p.CLIENT.validate_json('{"type": "options", "table": "NL", "auto_muck": false}')
    assert isinstance(other, p.Options) and other.straddle is None  # not given: unchanged
    with pytest.raises(ValidationError):
        p.CLIENT.validate_json('{"type": "options", "table": "NL", "straddle": 1}')


def test_D12_cards_revealed_reaches_clients_as_json_with_its_cards_as_text() -> None:
    event = CardsRevealed(7, 3, "Win", (Card("Ah"), Card("Td")))
    expected = {"type": "CardsRevealed", "number": 7, "seat": 3, "player": "Win", "cards": ["Ah", "Td"]}
    assert event_json(event) == expected
    item = event_item(12, event)  # the writer made for its class
    assert item == _encoded_item(12, event)
    assert json.loads(item) == {"version": 12, "event": expected}
    message = json.loads(events_text("NL", [item, event_item(13, TimedOut(3, "Win", "protected"))]))
    parsed = p.SERVER.validate_python(message)
    assert isinstance(parsed, p.EventsMessage)
    assert [e.event.model_dump() for e in parsed.events] == [  # typed events (protocol 3)
        expected,
        {"type": "TimedOut", "seat": 3, "player": "Win", "action": "protected"},
    ]
    one = event_item(14, CardsRevealed(7, 3, "Win", (Card("Kc"),)))
    assert json.loads(one)["event"]["cards"] == ["Kc"]
