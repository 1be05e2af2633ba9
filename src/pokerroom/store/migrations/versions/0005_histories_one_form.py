"""Issue 17: every stored hand history in the one form the server writes now, so the
readers (pokerroom.histories.stored) know no other.

The forms rewritten (hands.history, JSON):

- "views" (2026-11-29, before snapshots): the deal's "leaves", the previous-hand
  "record" (its events without their "type"), and "private" with every position's
  "openings", the players' "holes" and each player's texts ("views"); the hands row's
  phh and text columns hold the public texts. The hand's snapshot is made from the
  record's events (the hand's own, by seat, with the hidden cards taken from "holes"),
  its players' stacks and flags, and the game (its label in the record, the limits the
  public PHH text names); the table size from the public PokerStars text.
- "openings" (before the salts): the same with the hand's snapshot, the table's button
  and size in "private" and no "views".
- Either, and the current form before seeds (issue 16): no "deal"; it is the first
  scheme's, ``{"scheme": 1}``, as the API served it.

Into: "leaves" and "record" dropped, "private.openings" kept as their salts
(fairness.salt_text, checked against the stored leaves), "private.game" (the record's
label), "deal" after "commitment". The histories of the room's first cut (no "private":
one salt for the whole deck, no hole cards) cannot be made current and stay as they are.
A history of a known form that does not rebuild (leaves that the salts do not make,
cards that do not match) stops the migration, naming the hand: nothing is half done.

Downgrade keeps the rows: the code of 0004 reads this form too.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

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
)
from pokerroom.core.phh import HandHistory, loads
from pokerroom.core.structures import Game, Structure
from pokerroom.fairness import leaves_of, salt_text
from pokerroom.histories.snapshot import StoredHand, restore, snapshot

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_BATCH = 500
_hands = sa.table(
    "hands",
    sa.column("id", sa.Integer),
    sa.column("history", sa.Text),
    sa.column("deck", sa.String),
    sa.column("phh", sa.Text),
    sa.column("text", sa.Text),
)


class OldHistoryError(ValueError):
    """A stored history of an old form that cannot be rewritten as it says it is."""


def upgrade() -> None:
    conn = op.get_bind()
    last = 0
    while True:  # in batches by id: a room's journal may be long
        rows = conn.execute(
            sa.select(_hands.c.id, _hands.c.history, _hands.c.deck, _hands.c.phh, _hands.c.text)
            .where(_hands.c.id > last, _hands.c.history.is_not(None))
            .order_by(_hands.c.id)
            .limit(_BATCH)
        ).all()
        if not rows:
            return
        for hand_id, history, deck, phh, text in rows:
            try:
                new = current(history, deck, phh, text)
            except (OldHistoryError, LookupError, TypeError, ValueError) as e:
                raise OldHistoryError(f"hand {hand_id}: its stored history cannot be rewritten ({e})") from e
            if new is not None:
                conn.execute(sa.update(_hands).where(_hands.c.id == hand_id).values(history=new))
        last = rows[-1][0]


def downgrade() -> None:
    pass  # 0004's readers take the current form as well


def current(text: str, deck: str | None, phh: str | None, stars: str | None) -> str | None:
    """The stored history ``text`` in the current form, or None when it is in it already
    (or is the first cut's, which stays). ``deck``, ``phh``, ``stars``: the hands row's
    deck ('AsKd...', in the dealing order), public PHH and PokerStars texts."""
    history = json.loads(text)
    private = history.get("private") if isinstance(history, dict) else None
    if not isinstance(private, dict):
        return None  # the first cut's
    if "salts" in private:
        if "deal" in history:
            return None
        return json.dumps(_with_deal(history), separators=(",", ":"))
    if deck is None:
        raise OldHistoryError("no deck beside it")
    salts = _salts(private["openings"], deck)
    if leaves_of(salts, deck) != history["leaves"]:
        raise OldHistoryError("its openings do not make its leaves")
    record = history["record"]
    if "hand" in private:  # the "openings" form
        hand, button, size = private["hand"], private["button_seat"], private["max_seats"]
    else:  # the "views" form
        if phh is None or stars is None:
            raise OldHistoryError("no public texts beside it")
        hand = snapshot(_rebuilt(history, loads(phh)))
        button, size = record["button"], _table_size(stars)
    restore(hand)  # it reads back
    new_private = {"salts": salts, "holes": private["holes"], "hand": hand, "button_seat": button,
                   "max_seats": size, "game": record["game"]}
    new = {k: v for k, v in history.items() if k not in ("leaves", "record", "private")}
    new["private"] = new_private
    return json.dumps(_with_deal(new), separators=(",", ":"))


def _with_deal(history: Mapping[str, Any]) -> dict[str, Any]:
    """The history with ``"deal": {"scheme": 1}`` after its "commitment" (the deck
    committed in the dealing order, before seeds), unless it names its deal."""
    if "deal" in history:
        return dict(history)
    out: dict[str, Any] = {}
    for key, value in history.items():
        out[key] = value
        if key == "commitment":
            out["deal"] = {"scheme": 1}
    return out


def _salts(openings: Sequence[Mapping[str, Any]], deck: str) -> str:
    by_position = sorted(openings, key=lambda o: int(o["position"]))
    if [o["position"] for o in by_position] != list(range(len(deck) // 2)):
        raise OldHistoryError("its openings are not one per card of the deck")
    if "".join(o["card"] for o in by_position) != deck:
        raise OldHistoryError("its openings do not open the deck")
    return salt_text([o["salt"] for o in by_position])


_SIZE = re.compile(r"^Table '.*' (\d+)-max", re.M)


def _table_size(stars: str) -> int:
    found = _SIZE.search(stars)
    if found is None:
        raise OldHistoryError("its PokerStars text names no table size")
    return int(found[1])


# ---------------------------------------------------------------------------- the "views" form

_LABELS = (  # table.config.game_label as it was: sb, bb, ante (stud: small bet, big bet, ante, bring-in)
    (re.compile(r"Stud (\d+)/(\d+) \(ante (\d+), bring-in (\d+)\)"), "stud"),
    (re.compile(r"FL (\d+)/(\d+) \(blinds (\d+)/(\d+)(?:, ante (\d+))?\)"), "FL"),
    (re.compile(r"(NL|PL) (\d+)/(\d+)(?: ante (\d+))?"), "NLPL"),
)


def _game(label: str, hh: HandHistory) -> Game:
    """The hand's Game: its stakes from the record's label, its limits from the public PHH."""
    extra = hh.extra
    for pattern, kind in _LABELS:
        m = pattern.fullmatch(label)
        if m is None:
            continue
        if kind == "stud":
            small, big, ante, bring_in = map(int, m.groups())
            return Game.stud(small, big, ante=ante, bring_in=bring_in, cap=int(extra.get("_cap", 4)),
                             open_pair_big_bet=bool(extra.get("_open_pair_big_bet", True)))
        if kind == "FL":
            small, big, sb, bb = map(int, m.groups()[:4])
            return Game.fixed_limit(small, big, small_blind=sb, big_blind=bb, ante=int(m[5] or 0),
                                    cap=int(extra.get("_cap", 4)),
                                    heads_up_uncapped=bool(extra.get("_heads_up_uncapped", False)))
        structure = Structure(m[1])
        min_bet = int(hh.min_bet) if hh.min_bet is not None else int(m[3])
        return Game(structure, int(m[2]), int(m[3]), int(m[4] or 0), min_bet=min_bet)
    raise OldHistoryError(f"a game label this does not know: {label!r}")


_FIELDS: dict[frozenset[str], type] = {
    frozenset(Posted._fields): Posted,
    frozenset(HoleDealt._fields): HoleDealt,
    frozenset(Acted._fields): Acted,
    frozenset(UncalledReturned._fields): UncalledReturned,
    frozenset(StreetEnded._fields): StreetEnded,
    frozenset(Shown._fields): Shown,
    frozenset(Mucked._fields): Mucked,
    frozenset(PotAwarded._fields): PotAwarded,
}
_NAMED = {k.__name__: k for k in (Posted, HoleDealt, BoardDealt, Acted, UncalledReturned, StreetEnded, Shown,
                                   Mucked, PotAwarded, Reshuffled)}


def _kind(item: Mapping[str, Any]) -> type:
    """An event's class from its JSON: its "type", or (the records of then had none) its fields."""
    if "type" in item:
        return _NAMED[item["type"]]
    keys = frozenset(item)
    if keys == frozenset(BoardDealt._fields):  # Reshuffled has the same: its "cards" is a count
        return Reshuffled if type(item["cards"]) is int else BoardDealt
    return _FIELDS[keys]


def _events(record: Mapping[str, Any], seats: list[int], holes: list[list[Card]]) -> Iterator[Event]:
    """The hand's events from the record's (by seat, hidden cards None), by player index
    and with every card."""
    dealt = [0] * len(seats)
    for item in record["events"]:
        kind = _kind(item)
        values = {k: v for k, v in item.items() if k != "type"}
        if "player" in values:
            values["player"] = seats.index(values["player"])
        p = values.get("player", -1)
        if kind is HoleDealt:
            card = holes[p][dealt[p]]
            if values["card"] is not None and Card(values["card"]) != card:
                raise OldHistoryError(f"seat {seats[p]} was dealt {values['card']}, his holes say {card}")
            dealt[p] += 1
            yield HoleDealt(p, card, values["face_up"])
        elif kind is BoardDealt:
            yield BoardDealt(values["street"], tuple(Card(c) for c in values["cards"]))
        elif kind is Shown:
            yield Shown(p, tuple(Card(c) for c in values["cards"]), values["forced"])
        elif kind is Mucked:
            yield Mucked(p, tuple(holes[p]))
        elif kind is PotAwarded:
            eligible = tuple(seats.index(s) for s in values["eligible"])
            winners = tuple(seats.index(s) for s in values["winners"])
            yield PotAwarded(values["pot"], values["amount"], eligible, winners, tuple(values["shares"]),
                             values["value"])
        else:
            yield kind(**values)


def _rebuilt(history: Mapping[str, Any], hh: HandHistory) -> StoredHand:
    """The hand of a history of the "views" form, as its snapshot would have kept it."""
    record = history["record"]
    seats = [p["seat"] for p in history["players"]]
    people = {p["seat"]: p for p in record["players"]}
    players = [people[s] for s in seats]
    holes = [[Card(c) for c in history["private"]["holes"][str(s)]] for s in seats]
    events = list(_events(record, seats, holes))
    events.append(HandEnded(tuple(p["final_stack"] for p in players), tuple(p["net"] for p in players)))
    n = len(seats)
    game = _game(record["game"], hh)
    extra = hh.extra
    face_up: list[list[bool]] = [[] for _ in range(n)]  # the engine keeps them for stud only
    for e in events:
        if type(e) is HoleDealt and game.stud_game:
            face_up[e.player].append(e.face_up)
    winnings = [0] * n
    for e in events:
        if type(e) is PotAwarded:
            for w, share in zip(e.winners, e.shares, strict=True):
                winnings[w] += share
    if "winnings" in extra and list(extra["winnings"]) != winnings:
        raise OldHistoryError(f"its pots pay {winnings}, its PHH text says {extra['winnings']}")
    big_blind = 0 if n == 2 or game.stud_game else 1  # where PHH puts it, unless the text says
    if "_big_blind_player" in extra:
        big_blind = int(extra["_big_blind_player"]) - 1
    return StoredHand(
        game=game,
        n=n,
        events=tuple(events),
        holes=tuple(tuple(h) for h in holes),
        face_up=tuple(tuple(f) for f in face_up),
        board=tuple(Card(c) for c in record["board"]),
        starting_stacks=tuple(p["starting_stack"] for p in players),
        stacks=tuple(p["final_stack"] for p in players),
        winnings=tuple(winnings),
        folded=tuple(p["folded"] for p in players),
        reached_showdown=frozenset(i for i, p in enumerate(players) if p["reached_showdown"]),
        shown=frozenset(e.player for e in events if type(e) is Shown),
        mucked=frozenset(i for i, p in enumerate(players) if p["mucked"]),
        big_blind_position=big_blind,
        complete=True,
    )
