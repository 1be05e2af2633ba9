"""A hand's history as the store keeps it (Store.finish_hand): who played where, the
deal's commitment and seeds, and, private, what each reader may be shown of it later."""

from __future__ import annotations

import json
from typing import Any

from pokerroom.fairness import SCHEME, salt_text
from pokerroom.histories import snapshot
from pokerroom.table import Table
from pokerroom.table.events import HandFinished
from pokerroom.worker.deal import Deal

# compact: it is read back as JSON, never shown as it is stored
_encode = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def hand_history(name: str, table: Table, finished: HandFinished, deal: Deal, started_at: float,
                 game: str) -> str:
    """The history of ``table``'s hand that just ended (``finished``), as stored JSON."""
    hand, plan = table.hand, table.plan
    assert hand is not None and plan is not None
    history: dict[str, Any] = {
        "table": name,
        "number": finished.number,
        "started_at": started_at,
        "commitment": deal.commitment,
        "deal": {"scheme": SCHEME, "seeds": sorted(deal.seeds.items())},  # fairness.verify_history
        "players": [{"seat": s, "name": n} for s, n in zip(plan.seats, table.hand_players, strict=True)],
        # made when the history is read, not stored (Store.hand, histories.full_history):
        # the deal's "leaves" and "openings" from its salts and the deck, and the
        # previous-hand "record" from the hand's snapshot, as the table makes it
        # for the owner's eyes only; the API hands out what each reader may see
        "private": {
            "salts": salt_text(deal.salts),
            "holes": {str(s): [str(c) for c in hand.holes[i]] for i, s in enumerate(plan.seats)},
            # no text is written now: the .phh and .txt each player may see are written
            # from the hand's snapshot when he asks (histories.stored_text)
            "hand": snapshot(hand),
            "button_seat": plan.positions.button,
            "max_seats": table.config.seats,
            "game": game,
        },
    }
    return _encode(history)
