"""Stored histories read back: the ``history`` JSON text the runner stores when a hand
ends (worker/runner.py ``_store_hand``), made whole for its readers (``full_history``,
from Store.hand) and written as a .phh or PokerStars text for one of them
(``stored_text``, GET /api/hands/{id}.phh and .txt).

A stored history has one form (migration 0005 rewrote the older ones into it)::

    {"table", "number", "started_at", "commitment", "deal": {"scheme", "seeds"?},
     "players": [{"seat", "name"}], "reveals"?: {"<seat>": ["Ah", "Kd"]},
     "private": {"salts", "holes", "hand" (its snapshot), "button_seat", "max_seats", "game"}}

("reveals", D12, is added by Store.hand from the reveals table.) Anything else raises
HistoryError, the one error the readers document."""

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


def full_history(text: str, deck: str, hand_id: int | None = None) -> str:
    """A stored ``history`` JSON text as the server wrote it before it stored less: the
    hands of now keep "private.salts" (fairness.salt_text) in place of "leaves" and
    "private.openings", and no "record" (the previous-hand record) but "private.game";
    these are made here, in their old places, from the salts and the hand's ``deck``
    ('AsKd...', the hands row's deck column), and from the hand's snapshot as the table
    makes the record (table.record.record_hand); with ``hand_id`` (the journal's id of
    the hand), "private.hand_id", which the texts carry. Any other text (a history of
    before, which has them all) is returned as it is; one of now that is not as the server
    writes it raises HistoryError."""
    with reading("a stored history"):
        if '"salts"' not in text:
            return text
        history = json.loads(text)
        private = history.get("private")
        if not isinstance(private, dict) or "salts" not in private or "leaves" in history:
            return text
        salts = private["salts"]
        record = None
        if "record" not in history and "game" in private:
            players = history["players"]
            seats = tuple(p["seat"] for p in players)
            record = record_json(record_hand(
                history["number"], private["game"], private["button_seat"], restore(private["hand"]),
                seats, tuple(p["name"] for p in players), reveals=_stored_reveals(history, seats),
            ))
        full: dict[str, Any] = {}
        for key, value in history.items():
            if key == "private":
                continue
            full[key] = value
            if key == "commitment":
                full["leaves"] = leaves_of(salts, deck)
            elif key == "players" and record is not None:
                full["record"] = record
        rest = {k: v for k, v in private.items() if k not in ("salts", "game")}
        ids = {} if hand_id is None else {"hand_id": hand_id}
        full["private"] = {"openings": openings_of(salts, deck), **rest, **ids}
        return json.dumps(full)


def _stored_reveals(history: Mapping[str, Any], seats: Sequence[int]) -> dict[int, tuple[Card, ...]] | None:
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
        if "hand" not in private:  # an older history, its texts written at the end of the hand
            if seat is None or "views" not in private:
                raise HistoryError("this history keeps no text for this reader")
            return str(private["views"][str(seat)]["phh" if kind == "phh" else "text"])
        hand_id = private.get("hand_id", history["number"])
        seats = [p["seat"] for p in history["players"]]
        names = [p["name"] for p in history["players"]]
        if seat is not None and seat not in seats:
            raise HistoryError(f"seat {seat!r} did not play this hand")
        viewer = None if seat is None else seats.index(seat)
        hand = restore(private["hand"])
        reveals = _stored_reveals(history, seats)
        if kind == "phh":
            return to_phh(hand, names=names, seats=seats, table=history["table"], number=hand_id,
                          viewer=viewer, started_at=history["started_at"], reveals=reveals)
        return to_pokerstars(hand, names=names, seats=seats, table=history["table"], number=hand_id,
                             button_seat=private["button_seat"], started_at=history["started_at"],
                             viewer=viewer, max_seats=private["max_seats"], reveals=reveals)
