"""What goes over the bus between gateways and table workers, and its subjects.

Subjects (``prefix`` names the room, so rooms can share a NATS server):

- ``P.t.T.cmd``: a request to table T's owner (``Request``); the reply is a ``Response``.
  Nobody owns T right now: NATS answers "no responders" at once.
- ``P.t.T.ev``: every batch of T's events as everybody may see them (``TableBatch``),
  numbered ``(epoch, version)``; the players who get their own text instead are named in
  ``covered``.
- ``P.p.A``: a batch as player account A sees it (``PlayerBatch``: his hole cards, his
  snapshot, his ``your_turn``), or a message for him wherever he is
  (``PlayerNotice``). Only a gateway with a connection of A's subscribes to it,
  so no gateway ever receives a hidden card of a player it does not serve.
- ``P.t.T.gone``: a gateway's connection stopped watching T (``Unwatch``).
- ``P.lobby``: the lobby lines of a worker's tables (``LobbyRows``).
- ``P.gw.alive``: a gateway is up (``Alive``, every few seconds).

In one process (``pokerroom serve``) the same objects pass through an in-process
transport without being encoded; over NATS they are JSON (``encode``/``decode``).
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field, fields
from typing import Any

_TOKEN = re.compile(r"[A-Za-z0-9_-]+")


def token(name: str) -> str:
    """A table or player name as one subject token: itself when it is plain, else its
    UTF-8 in hex behind an 'x' (names with dots, spaces, wildcards...)."""
    return name if _TOKEN.fullmatch(name) and not name.startswith("x") else "x" + name.encode().hex()


def command_subject(prefix: str, table: str) -> str:
    return f"{prefix}.t.{token(table)}.cmd"


def events_subject(prefix: str, table: str) -> str:
    return f"{prefix}.t.{token(table)}.ev"


def gone_subject(prefix: str, table: str) -> str:
    return f"{prefix}.t.{token(table)}.gone"


def player_subject(prefix: str, account_id: int) -> str:
    return f"{prefix}.p.{account_id}"


def lobby_subject(prefix: str) -> str:
    return f"{prefix}.lobby"


def alive_subject(prefix: str) -> str:
    return f"{prefix}.gw.alive"


@dataclass(slots=True)
class Caller:
    """The connection a command comes from: its gateway, its number there, its player."""

    gateway: str
    conn: int
    player: str | None
    account_id: int | None


@dataclass(slots=True)
class Request:
    """A command for a table (``command``: its JSON text over NATS, its model in-process)
    or, with ``ask`` 'buy_in', a question: what may the caller sit down with now."""

    caller: Caller
    command: Any = None
    ask: str | None = None
    at: float = 0.0


@dataclass(slots=True)
class Response:
    """The table's answer (the client's message text), what the caller is sent before it
    (``sends``: a replay, a snapshot, his ``your_turn``), what that costs his budget, and
    where the table is: its ``epoch`` and ``version`` once it answered, and whether the
    connection now watches it (``watching``: None, unchanged) with snapshots (``views``)."""

    answer: str
    sends: list[str] = field(default_factory=list)
    charge: float = 0.0
    epoch: int = 0
    version: int = 0
    watching: bool | None = None
    views: bool = False
    data: dict[str, Any] | None = None  # the answer to an ``ask``


@dataclass(slots=True)
class TableBatch:
    """One batch of a table's events for everybody (``events``: the events message text;
    None for a batch with nothing for the public, only the chain of versions), and the
    observers' snapshot (``snapshot``) when some want one. ``prev``: the version before
    the batch, so a gateway sees a gap. ``notice``: a message outside the numbering (the
    table paused, resumed) to every watcher. A new owner's first batch has the new
    ``epoch``: gateways then resync their watchers with it."""

    table: str
    epoch: int
    prev: int
    version: int
    events: str | None = None
    covered: list[str] = field(default_factory=list)
    snapshot: str | None = None
    notice: str | None = None


@dataclass(slots=True)
class PlayerBatch:
    """A batch as one player sees it: his events text, his snapshot, his ``your_turn``."""

    table: str
    player: str
    account_id: int
    epoch: int
    version: int
    events: str | None = None
    snapshot: str | None = None
    turn: str | None = None


@dataclass(slots=True)
class PlayerNotice:
    """A message for every connection of player account A that listens here, whatever
    table it watches (a seat offered from a waiting list: ``seat_offered``)."""

    account_id: int
    text: str


@dataclass(slots=True)
class Unwatch:
    gateway: str
    conn: int


@dataclass(slots=True)
class Alive:
    """A gateway is up (every few seconds): workers forget the watchers of one gone silent."""

    gateway: str


@dataclass(slots=True)
class LobbyRows:
    """Lobby lines (``rows``: LobbyRow as JSON data) of a worker's tables; ``gone``: tables
    it no longer owns."""

    worker: str
    rows: list[dict[str, Any]]
    gone: list[str] = field(default_factory=list)


_KINDS: dict[str, type[Any]] = {
    c.__name__: c
    for c in (Request, Response, TableBatch, PlayerBatch, PlayerNotice, Unwatch, LobbyRows, Alive)
}


def encode(message: Any) -> bytes:
    """A message as NATS carries it: JSON with its kind."""
    data = asdict(message)
    data["k"] = type(message).__name__
    command = getattr(message, "command", None)
    if command is not None and not isinstance(command, str):
        data["command"] = command.model_dump_json()
    return json.dumps(data, separators=(",", ":")).encode()


def decode(raw: bytes) -> Any:
    """``encode``'s message back (the command of a ``Request`` left as its JSON text);
    ValueError for anything else."""
    data = json.loads(raw)
    if not isinstance(data, dict):
        raise ValueError("not a bus message")
    kind = _KINDS.get(data.pop("k", None))
    if kind is None:
        raise ValueError("not a bus message")
    if kind is Request:
        data["caller"] = Caller(**data["caller"])
    names = {f.name for f in fields(kind)}
    return kind(**{k: v for k, v in data.items() if k in names})
