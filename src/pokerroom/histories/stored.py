"""Stored histories read back: the ``history`` JSON text the runner stores when a hand
ends (worker/runner.py ``_store_hand``), made whole for its readers (``full_history``,
from Store.hand) and written as a .phh or PokerStars text for one of them
(``stored_text``, GET /api/hands/{id}.phh and .txt).

A stored history has one form (migration 0005 rewrote the older ones into it)::

    {"table", "number", "started_at", "commitment", "deal": {"scheme", "seeds"?},
     "players": [{"seat", "name"}], "reveals"?: {"<seat>": ["Ah", "Kd"]},
     "private": {"salts", "holes", "hand" (its snapshot), "button_seat", "max_seats", "game"}}

("reveals", D12, is added by Store.hand from the reveals table.) The histories of the
room's first cut (no "private") could not be rewritten: ``full_history`` returns them as
they are, ``stored_text`` has no text for them. Anything else raises HistoryError, the
one error the readers document."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from pokerroom.core.cards import Card
from pokerroom.fairness import leaves_of, openings_of
from pokerroom.histories.common import HistoryError, reading
from pokerroom.histories.phh import to_phh
from pokerroom.histories.pokerstars import to_pokerstars
from pokerroom.histories.snapshot import restore
from pokerroom.table.record import record_hand
from pokerroom.wire import record_json


def full_history(text: str, deck: str, hand_id: int) -> str:
    """A stored ``history`` JSON text made whole for its readers: the deal's "leaves" (after
    "commitment") and "private.openings" from "private.salts" (fairness.salt_text) and the
    hand's ``deck`` ('AsKd...', the hands row's deck column); the previous-hand "record"
    (after "players") from the hand's snapshot, as the table makes it
    (table.record.record_hand); and "private.hand_id", the journal's room-wide id of the
    hand (the hands row's id), which the texts carry (``stored_text``). The served JSON
    leaves "private" out, so its shape is what it was when all of it was stored."""
    with reading("a stored history"):
        if type(hand_id) is not int:
            raise HistoryError(f"a hand id is a number, not {hand_id!r}")
        history = json.loads(text)
        if isinstance(history, dict) and "private" not in history:
            return text  # the room's first cut's: one salt for the whole deck, nothing to add
        private = history["private"]
        if "leaves" in history or "record" in history or "openings" in private:
            raise HistoryError("a stored history keeps its salts, not its leaves, openings or record")
        salts = private["salts"]
        players = history["players"]
        seats = tuple(p["seat"] for p in players)
        record = record_json(record_hand(
            history["number"], private["game"], private["button_seat"], restore(private["hand"]),
            seats, tuple(p["name"] for p in players), reveals=stored_reveals(history, seats),
        ))
        full: dict[str, Any] = {}
        for key, value in history.items():
            if key == "private":
                continue
            full[key] = value
            if key == "commitment":
                full["leaves"] = leaves_of(salts, deck)
            elif key == "players":
                full["record"] = record
        rest = {k: v for k, v in private.items() if k not in ("salts", "game")}
        full["private"] = {"openings": openings_of(salts, deck), **rest, "hand_id": hand_id}
        return json.dumps(full)


def stored_reveals(history: Mapping[str, Any], seats: Sequence[int]) -> dict[int, tuple[Card, ...]] | None:
    """A stored history's shows after the hand (D12), ``"reveals": {"<seat>": ["Ah"]}``, by
    player index; None when it has none."""
    stored = history.get("reveals")
    if not stored:
        return None
    out: dict[int, tuple[Card, ...]] = {}
    for seat, cards in stored.items():
        if not str(seat).isdigit() or int(seat) not in seats:
            raise HistoryError(f"a show after the hand by seat {seat!r}, which did not play it")
        out[list(seats).index(int(seat))] = tuple(Card(c) for c in cards)
    return out


def stored_text(history: Mapping[str, Any], seat: int | None, kind: str) -> str:
    """The ``kind`` ("phh" or "txt") text of a hand the server stored (its history made
    whole by ``full_history``), as the player in ``seat`` may see it, or the public text
    (``seat`` None). Both carry the hand's room-wide id ("private.hand_id"), not its
    number at its table: a tracker reading the files of several tables keeps every hand."""
    with reading("a stored history"):
        if kind not in ("phh", "txt"):
            raise HistoryError(f"no {kind!r} text: 'phh' or 'txt'")
        private = history["private"]
        hand_id = private["hand_id"]
        if type(hand_id) is not int:
            raise HistoryError(f"a hand id is a number, not {hand_id!r}")
        seats = [p["seat"] for p in history["players"]]
        names = [p["name"] for p in history["players"]]
        if seat is not None and seat not in seats:
            raise HistoryError(f"seat {seat!r} did not play this hand")
        viewer = None if seat is None else seats.index(seat)
        hand = restore(private["hand"])
        reveals = stored_reveals(history, seats)
        if kind == "phh":
            return to_phh(hand, names=names, seats=seats, table=history["table"], number=hand_id,
                          viewer=viewer, started_at=history["started_at"], reveals=reveals)
        return to_pokerstars(hand, names=names, seats=seats, table=history["table"], number=hand_id,
                             button_seat=private["button_seat"], started_at=history["started_at"],
                             viewer=viewer, max_seats=private["max_seats"], reveals=reveals)
