"""The WebSocket protocol's models, their published schema and the deal commitment."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from pokerroom import protocol as p
from pokerroom.core.cards import FULL_DECK
from pokerroom.fairness import commit, opening, verify

ROOT = Path(__file__).resolve().parents[2]


def test_published_schema_is_current():
    published = (ROOT / "docs" / "protocol.schema.json").read_text()
    assert json.loads(published) == p.schema(), "run: pokerroom schema > docs/protocol.schema.json"


def test_every_client_message_type_is_documented():
    doc = (ROOT / "docs" / "protocol.md").read_text()
    for kind in p.CLIENT.json_schema()["discriminator"]["mapping"]:
        assert f"`{kind}`" in doc, kind


@pytest.mark.parametrize("raw", [
    '{"type": "act", "table": "NL", "action": "raise", "amount": -1}',
    '{"type": "act", "table": "NL", "action": "shove"}',
    '{"type": "sit", "table": "NL", "seat": 0, "buy_in": 100}',
    '{"type": "sit", "table": "NL", "seat": 1, "buy_in": "100"}',
    '{"type": "sit", "table": "NL", "seat": 1, "buy_in": 100, "extra": 1}',
    '{"type": "chat", "table": "NL", "text": ""}',
    '{"type": "nope"}',
    '[]',
])
def test_malformed_messages_are_refused_by_the_models(raw):
    with pytest.raises(ValidationError):
        p.CLIENT.validate_json(raw)


def test_valid_message_parses_to_its_model():
    m = p.CLIENT.validate_json('{"type": "act", "table": "NL", "action": "raise", "amount": 6, "id": 7}')
    assert isinstance(m, p.Act) and (m.action, m.amount, m.id) == ("raise", 6, 7)


def test_commitment_proves_opened_cards_and_hides_the_rest():
    deck = list(reversed(FULL_DECK))
    deal = commit(deck)
    assert len(set(deal.salts)) == 52
    openings = [opening(deal, deck, i) for i in (0, 5, 51)]
    assert verify(deal.commitment, deal.leaves, openings)
    forged = dict(openings[1], card=str(deck[6]))
    assert not verify(deal.commitment, deal.leaves, [forged])
    other = commit(deck)  # fresh salts: a different commitment for the same deck
    assert other.commitment != deal.commitment
    assert not verify(other.commitment, deal.leaves, openings)
