"""Each viewer's projection of a table: its events numbered, logged and encoded once for
everybody (with each private event's owner getting his own text: R2), the snapshot of the
table as one viewer may see it, and the ``your_turn`` of the player to act.

The runner (runner.py) decides what happened and commits it; this decides who sees what.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import cast

from pokerroom import protocol as p
from pokerroom.core.events import Event, audience, redact
from pokerroom.table import Table
from pokerroom.table.events import GameChanged, HandStarted, TurnStarted
from pokerroom.table.view import TurnView, table_view, with_game_info
from pokerroom.wire import event_item, events_text, jsonable, view_model, your_turn_text
from pokerroom.worker.eventlog import NOBODY, EventLog
from pokerroom.worker.events import ChatLine, Published
from pokerroom.worker.viewer import PlayerPart

_CORE_EVENTS = "pokerroom.core.events"  # the module of events that may be private (audience)
# the events that change a lobby line: its seats, its hand's number, its game, its waiting list
_LOBBY_EVENTS = frozenset({"Seated", "Left", "HandStarted", "HandFinished", "GameChanged", "WaitingChanged"})


@dataclass(slots=True)
class Batch:
    """One ``events`` message per viewer for what one command or tick caused: the same
    text for all but the owners of private events (hole cards), who each get theirs."""

    everyone: str
    own: dict[str, str]  # owner -> his text, where it differs
    turn_started: bool  # a player's clock began: he gets his ``your_turn``
    lobby_changed: bool  # seats, hands, the game or the waiting list changed the table's lobby line


@dataclass(slots=True)
class Watcher:
    """A connection watching the table: its player, his account, whether it wants a
    snapshot after each batch."""

    player: str | None
    account_id: int | None
    views: bool


def parts_of(
    batch: Batch, table: Table, stream: Stream, watchers: Iterable[Watcher], known: dict[str, int],
    actor: str | None, actor_account: int | None, turn: Callable[[], str], views: bool = True,
) -> tuple[dict[str, PlayerPart], str | None]:
    """Who gets what of ``batch``: each player with his own text (his hole cards, ``known``:
    his account), the seated players who draw views (their snapshot) and ``actor``, whose
    turn began, if he watches (his your_turn, made by ``turn``) each get their part; the
    others share the public part, and the observers' snapshot when some want it. Without
    ``views``, no snapshot for anyone (a batch ahead of a commit)."""
    everyone = batch.everyone
    parts: dict[str, PlayerPart] = {}
    for player, text in batch.own.items():
        account = known.get(player)
        if account is not None:
            parts[player] = PlayerPart(account, text)
    observers_view = actor_watches = False
    for w in watchers:
        who = w.player
        if who is not None and who == actor:
            actor_watches = True
        if not (views and w.views):
            continue
        if who is not None and w.account_id is not None and who in table._by_player:
            part = parts.get(who)
            if part is None:
                part = parts[who] = PlayerPart(w.account_id, everyone)
            if part.snapshot is None:
                part.snapshot = stream.snapshot(table, who).model_dump_json()
        else:
            observers_view = True
    if actor_watches and actor is not None and actor_account is not None:
        part = parts.get(actor)
        if part is None:
            part = parts[actor] = PlayerPart(actor_account, everyone)
        part.turn = turn()
    snapshot = stream.snapshot(table, None).model_dump_json() if observers_view else None
    return parts, snapshot


class Stream:
    """A table's numbered events (``version`` rises by one per event) and their log."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.version = 0
        self.log = EventLog()
        self._dealt_to: dict[int, str] = {}  # seat -> player, of the hand being played or the last

    def start_at(self, version: int) -> None:
        """Number the events from ``version`` + 1 (a new owner's, past the old one's): a
        client asking for what came after an older version gets a snapshot."""
        self.version = version
        self.log.dropped = max(self.log.dropped, version)

    def add(self, events: Sequence[Published], table: Table) -> Batch:
        """Number ``events`` (already applied to ``table``), log them and encode them."""
        public: list[str] = []  # the items as everybody else sees them
        own: dict[str, list[str]] = {}  # owner -> his items, where they differ
        turn_started = lobby_changed = False
        dealt = self._dealt_to  # seat -> the player dealt in there, in the hand of these events
        log = self.log
        for e in events:
            self.version += 1
            version = self.version
            kind = type(e)
            if kind is TurnStarted:
                turn_started = True
            elif kind is HandStarted or kind is GameChanged:
                # the game as data for clients (protocol 3)
                e = with_game_info(cast(HandStarted | GameChanged, e), table.config)
                if kind is HandStarted and table.plan is not None:
                    dealt = self._dealt_to = dict(zip(table.plan.seats, table.hand_players, strict=True))
            if kind.__name__ in _LOBBY_EVENTS:
                lobby_changed = True
            who = audience(cast(Event, e)) if kind.__module__ == _CORE_EVENTS else None
            if who is None:
                item = event_item(version, e)
                log.add(version, item, chat=kind is ChatLine)
                public.append(item)
                for items in own.values():
                    items.append(item)
                continue
            # the player dealt in at that seat: he may have left by the end of these events
            # (a leaving player folds and goes when the hand ends) and still sees his cards
            owner = dealt.get(who) or (table.seats[who].player if who in table.seats else None)
            hidden, mine = event_item(version, redact(cast(Event, e))), event_item(version, e)
            # a seat left empty: nobody may see the card
            log.add(version, hidden, NOBODY if owner is None else owner, mine)
            for player, items in own.items():
                items.append(hidden if player != owner else mine)
            if owner is not None and owner not in own:
                own[owner] = [*public, mine]
            public.append(hidden)
        name = self.name
        return Batch(
            everyone=events_text(name, public),
            own={player: events_text(name, items) for player, items in own.items()},
            turn_started=turn_started,
            lobby_changed=lobby_changed,
        )

    def since(self, since: int | None, viewer: str | None) -> list[str] | None:
        """The items after version ``since`` as ``viewer`` may see them, or None when the
        log no longer has them all (the viewer then gets a snapshot)."""
        if since is None or since > self.version or not self.log.covers(since):
            return None
        return self.log.since(since, viewer)

    def snapshot(self, table: Table, player: str | None) -> p.Snapshot:
        """The table as ``player`` may see it now: a seated player's own cards, else an
        observer's view."""
        seated = player is not None and any(s.player == player for s in table.seats.values())
        view = view_model(table_view(table, player if seated else None, time.time()))
        return p.Snapshot(table=self.name, version=self.version, view=view)


def turn_text(table: str, turn: TurnView) -> str:
    """The ``your_turn`` message of ``turn``, as the model writes it (wire.py writes it
    without a model when it can: once per turn, on the busiest path)."""
    cards: list[str | None] = [str(c) for c in turn.cards]
    up = list(turn.up)
    board = [str(c) for c in turn.board]
    opponents_up = [[str(c) for c in cards_up] if cards_up else [] for cards_up in turn.opponents_up]
    text = your_turn_text(table, turn.legal, turn.deadline, turn.game, turn.street, cards, up, board,
                          turn.pot, turn.stack, turn.players, opponents_up)
    if text is None:  # a value the text writer leaves to pydantic
        text = p.YourTurn(
            table=table, legal=jsonable(turn.legal), deadline=turn.deadline, game=turn.game,
            street=turn.street, cards=cards, up=up, board=board, pot=turn.pot, stack=turn.stack,
            players=turn.players, opponents_up=opponents_up,
        ).model_dump_json()
    return text
