"""Issue 19, item 5: the hand replayer's steps, made by the server.

- ``GET /api/hands/{id}/replay``: a hand the asking player played, as the table drawing
  showed it to him step by step: ``{"hand", "table", "number", "seat", "record", "steps":
  [{"view", "event"}, ...]}`` (``record``: the hand's previous-hand record, what everyone
  at the table saw of its end, for the last step's showdown). Each ``view`` has the shape
  of a snapshot's ``view`` (outbound.TableView) and each ``event`` is the event that led to
  it (``event_json``'s form, seats for players; null for the first step, the table before
  the deal). Cards are
  his as D6 says: his own, stud up cards, hands shown, and at the last step the hands that
  reached the showdown and the cards shown after the hand; a folded or mucked hand of
  another never, not even in the events. Anyone else gets the 404 of ``/api/hands/{id}``.
- ``POST /api/replay`` with ``{"phh": "<a .phh file's text>"}`` (a .phhs file's first
  hand; bounded by the room's body limit): the same steps for an observer who sees every
  card the file has (and no card the file leaves ``??``). A file we cannot replay is a 400
  ``bad_phh`` whose message is the reader's or the engine's reason.

The steps fold the hand's own events (the stored snapshot's, or the engine's replay of
the file), so they end on the hand's final stacks and board by construction; the rules
are not run again. ``register`` adds both routes to the room's app (app.py).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from pokerroom.core.cards import Card
from pokerroom.core.events import (
    Acted,
    BoardDealt,
    Event,
    HandEnded,
    HoleDealt,
    Mucked,
    Posted,
    PotAwarded,
    Reshuffled,
    Shown,
    StreetEnded,
    UncalledReturned,
    for_viewer,
)
from pokerroom.core.phh import PHHError, loads, replay
from pokerroom.core.structures import Game
from pokerroom.gateway.auth import AuthError, session_token
from pokerroom.histories import HistoryError
from pokerroom.histories.snapshot import restore
from pokerroom.histories.stored import stored_reveals
from pokerroom.table.config import game_info, game_label
from pokerroom.table.record import FinishedHand, to_seats
from pokerroom.wire import event_json, jsonable


class Replayable(FinishedHand, Protocol):
    """A finished hand the steps are folded from: a core ``Hand`` (a PHH file's replay) or
    a ``StoredHand`` (a stored snapshot), both of which know their Game."""

    @property
    def game(self) -> Game: ...


# Whether player ``p``'s ``card`` is always drawn for this viewer (his own; a file's card).
Always = Callable[[int, Card], bool]
_QUIET = (StreetEnded, Reshuffled)  # folded into the next step, not steps of their own
_STREETS = {False: ("preflop", "flop", "turn", "river"),
            True: ("third", "fourth", "fifth", "sixth", "seventh")}


class _Fold:
    """The table as the hand's events leave it, drawn for one viewer."""

    def __init__(self, hand: Replayable, seats: Sequence[int], names: Sequence[str],
                 always: Always, reveals: Mapping[int, Sequence[Card]]) -> None:
        self.hand, self.seats, self.names = hand, seats, names
        self.always, self.reveals = always, reveals
        n = len(seats)
        self.stacks = list(hand.starting_stacks)
        self.bets = [0] * n
        self.folded = [False] * n
        self.all_in = [False] * n
        self.cards: list[list[tuple[Card | None, bool]]] = [[] for _ in range(n)]
        self.board: list[Card] = []
        self.collected = 0
        self.shown: set[int] = set()
        self.street = 0
        self.ended = False
        self.small_blind: int | None = None
        self.big_blind: int | None = None

    def apply(self, e: Event) -> None:
        kind = type(e)
        if kind is Posted:
            assert isinstance(e, Posted)
            self.stacks[e.player] -= e.amount
            self.all_in[e.player] = e.all_in
            if e.kind in ("ante", "dead"):
                self.collected += e.amount
            else:
                self.bets[e.player] += e.amount
            if e.kind == "small_blind":
                self.small_blind = self.seats[e.player]
            elif e.kind == "big_blind":
                self.big_blind = self.seats[e.player]
        elif kind is HoleDealt:
            assert isinstance(e, HoleDealt)
            self.cards[e.player].append((e.card, e.face_up))
        elif kind is BoardDealt:
            assert isinstance(e, BoardDealt)
            self.board.extend(e.cards)
            self.street = e.street
        elif kind is Acted:
            assert isinstance(e, Acted)
            if e.action == "fold":
                self.folded[e.player] = True
            else:
                self.stacks[e.player] -= e.amount
                self.bets[e.player] = e.to
                self.all_in[e.player] = e.all_in
        elif kind is UncalledReturned:
            assert isinstance(e, UncalledReturned)
            back = min(e.amount, self.bets[e.player])
            self.bets[e.player] -= back
            self.collected -= e.amount - back
            self.stacks[e.player] += e.amount
        elif kind is StreetEnded:
            assert isinstance(e, StreetEnded)
            self.collected = e.pot
            self.bets = [0] * len(self.bets)
            self.street = e.street + 1
        elif kind is Shown:
            assert isinstance(e, Shown)
            self.shown.add(e.player)
        elif kind is PotAwarded:
            assert isinstance(e, PotAwarded)
            self.collected = max(0, self.collected + sum(self.bets) - e.amount)
            self.bets = [0] * len(self.bets)
            for w, share in zip(e.winners, e.shares, strict=True):
                self.stacks[w] += share
        elif kind is HandEnded:
            assert isinstance(e, HandEnded)
            self.stacks = list(e.stacks)
            self.bets = [0] * len(self.bets)
            self.collected = 0
            self.ended = True

    def seen(self, p: int, card: Card | None, face_up: bool) -> bool:
        """May the viewer see ``card`` of player ``p`` now (D6)?"""
        if card is None:
            return False
        if face_up or p in self.shown or self.always(p, card):
            return True
        return self.ended and (p in self.hand.reached_showdown or card in self.reveals.get(p, ()))

    def event(self, e: Event, viewer: int | None) -> dict[str, Any]:
        """``e`` as this viewer may read it, with seats for players."""
        if type(e) is HoleDealt:
            assert isinstance(e, HoleDealt)
            if not self.seen(e.player, e.card, e.face_up):
                e = e._replace(card=None)
        elif type(e) is Mucked:
            assert isinstance(e, Mucked)
            e = for_viewer(e, viewer)
        return event_json(to_seats(e, tuple(self.seats)))

    def view(self, base: dict[str, Any], actor: int | None) -> dict[str, Any]:
        live = [self.seats[p] for p in range(len(self.seats)) if not self.folded[p]]
        pot = self.collected + sum(self.bets)
        seats = [
            {"seat": seat, "player": self.names[p], "stack": self.stacks[p], "state": "active",
             "owes": "nothing", "in_hand": True, "bet": self.bets[p], "folded": self.folded[p],
             "all_in": self.all_in[p] and not self.folded[p],
             "cards": [str(c) if self.seen(p, c, up) else None for c, up in self.cards[p]],
             "leaving": False, "protected": False}
            for p, seat in enumerate(self.seats)
        ]
        stud = self.hand.game.variant == "stud"
        names = _STREETS[stud]
        street = "showdown" if self.ended else names[min(self.street, len(names) - 1)]
        return {**base, "small_blind": self.small_blind, "big_blind": self.big_blind, "seats": seats,
                "board": [str(c) for c in self.board], "pot": pot,
                "pots": [{"amount": pot, "seats": live}] if pot else [], "street": street,
                "actor": None if actor is None else self.seats[actor]}


def steps_of(
    hand: Replayable, *, seats: Sequence[int], names: Sequence[str], viewer: int | None,
    always: Always, table: str, number: int, max_seats: int, button: int | None,
    reveals: Mapping[int, Sequence[Card]] | None = None,
) -> list[dict[str, Any]]:
    """The replay of a finished ``hand`` (its players in ``seats``, named ``names``) as the
    player ``viewer`` (an index, or None for an observer) sees it: one step for the table
    before the deal, then one for each event (a run of hole cards dealt is one step; the
    end of a street and a reshuffle are shown with what follows them)."""
    game = hand.game
    label, info = game_label(game), jsonable(game_info(game))
    base = {
        "name": table, "max_seats": max_seats, "min_buy_in": 0, "max_buy_in": 0,
        "viewer": None if viewer is None else names[viewer],
        "seat": None if viewer is None else seats[viewer], "phase": "playing", "game": label,
        "next_game": label, "hands_to_switch": 0, "hand_number": number, "button": button,
        "deadline": None, "legal": None, "post": None, "options": None, "time_bank": None,
        "previous_hand": None, "game_info": info, "next_game_info": info,
    }
    fold = _Fold(hand, seats, names, always, reveals or {})
    out = [{"view": fold.view(base, None), "event": None}]
    events = list(hand.events)
    for k, e in enumerate(events):
        fold.apply(e)
        if type(e) in _QUIET:
            continue
        after = events[k + 1] if k + 1 < len(events) else None
        if type(e) is HoleDealt and type(after) is HoleDealt:
            continue
        actor = getattr(e, "player", None) if type(e) in (Acted, Posted, Shown, Mucked) else None
        out.append({"view": fold.view(base, actor), "event": fold.event(e, viewer)})
    return out


def stored_steps(history: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """The steps of a stored hand (its history as Store.hand gives it) for the player in
    ``seat``."""
    try:
        private = history["private"]
        hand = restore(private["hand"])
        seats = [p["seat"] for p in history["players"]]
        names = [p["name"] for p in history["players"]]
        me = seats.index(seat)
        reveals = stored_reveals(history, seats) or {}
        return steps_of(hand, seats=seats, names=names, viewer=me, always=lambda p, c: p == me,
                        table=history["table"], number=history["number"], max_seats=private["max_seats"],
                        button=private["button_seat"], reveals=reveals)
    except (HistoryError, KeyError, TypeError, ValueError):
        raise AuthError("not_found", "this hand cannot be replayed", 404) from None


def phh_steps(text: str) -> dict[str, Any]:
    """The steps of the first hand of a .phh (or .phhs) file's ``text``, for an observer who
    sees the cards the file has; PHHError when it cannot be read or replayed."""
    if text.lstrip().startswith("["):
        hands = loads(text, multi=True)
        if not hands:
            raise PHHError("the file holds no hand")
        hh = hands[0][1]
    else:
        hh = loads(text)
    hand = replay(hh)
    known: set[Card] = set()
    for action in hh._parsed_actions or []:
        if action.verb in ("dh", "db", "sm") and action.cards:
            known |= {c for c in action.cards if c is not None}
    n = hand.n
    given = hh.extra.get("seats")
    seats = list(given) if isinstance(given, list) and len(given) == n and all(
        type(s) is int and s > 0 for s in given) and len(set(given)) == n else list(range(1, n + 1))
    players = hh.players if hh.players and len(hh.players) == n else [f"p{k + 1}" for k in range(n)]
    names = [str(x)[:40] for x in players]
    table = str(hh.extra.get("table", hh.event or "PHH"))[:80]
    count = hh.extra.get("seat_count")
    max_seats = count if type(count) is int and count >= max(seats) else max(max(seats), n)
    number = hh.hand if type(hh.hand) is int else 0
    steps = steps_of(hand, seats=seats, names=names, viewer=None, always=lambda p, c: c in known,
                     table=table, number=number, max_seats=max_seats,
                     button=None if hand.game.variant == "stud" else seats[-1])
    return {"table": table, "number": number, "players": names, "finishing_stacks": list(hand.stacks),
            "steps": steps}


def register(app: FastAPI, state: dict[str, Any],
             body: Callable[[Request], Awaitable[dict[str, Any]]]) -> None:
    """Add the replayer's routes to the room's ``app`` (before its static files);
    ``state["sessions"]`` is the room's Sessions once it runs, ``body`` the room's reader of
    a request's JSON object (bounded by its body limit, 400 ``bad_json`` for anything else)."""

    async def account_id(request: Request) -> int:
        token = session_token(request.headers.get("authorization"), request.headers.get("cookie"))
        account = await state["sessions"].accounts.from_token(token)
        if account is None:
            raise AuthError("login_required", "log in first", 401)
        return int(account.id)

    @app.get("/api/hands/{ref}/replay", operation_id="hand_replay")
    async def hand_replay(ref: str, request: Request) -> JSONResponse:
        """A hand you played, step by step as you saw it."""
        me = await account_id(request)
        if not (ref.isascii() and ref.isdigit() and len(ref) <= 10 and int(ref) < 2**31):
            raise AuthError("not_found", "no such hand", 404)
        data = await state["sessions"].store.hand(int(ref))
        seat_of = {x["account_id"]: x["seat"] for x in data["players"]} if data else {}
        if data is None or data["status"] != "complete" or me not in seat_of:
            raise AuthError("not_found", "no such hand among yours", 404)
        history = json.loads(data["history"])
        seat = seat_of[me]
        return JSONResponse({"hand": data["id"], "table": history.get("table"),
                             "number": history.get("number"), "seat": seat,
                             "steps": stored_steps(history, seat), "record": history.get("record")})

    @app.post("/api/replay", operation_id="phh_replay")
    async def phh_replay(request: Request) -> JSONResponse:
        """A PHH file's first hand, step by step, every card the file has face up."""
        await account_id(request)
        text = (await body(request)).get("phh")
        if not isinstance(text, str) or not text.strip():
            raise AuthError("bad_phh", 'send the file\'s text as {"phh": "..."}', 400)
        try:
            return JSONResponse(phh_steps(text))
        except PHHError as e:
            raise AuthError("bad_phh", f"this PHH file cannot be replayed: {e}", 400) from None
        except Exception as e:  # any other way a file from anywhere can be wrong: still its fault
            raise AuthError("bad_phh", f"this PHH file cannot be replayed: {type(e).__name__}: {e}",
                            400) from None
