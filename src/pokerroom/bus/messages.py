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
transport without being encoded; over NATS each is a head of JSON and its texts, raw
(``encode``/``decode``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, fields
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


# How each kind travels over NATS: its fields in order, each as JSON data (0), a text
# carried raw after the head (1: a JSON text made once for its clients, not escaped into
# another), a list of such texts (2), or the caller (3).
_JSON, _TEXT, _TEXTS, _CALLER = 0, 1, 2, 3
_CODECS: dict[type[Any], tuple[str, tuple[tuple[str, int], ...]]] = {}
_KINDS: dict[str, type[Any]] = {}
for _kind, _raw in (
    (Request, {"caller": _CALLER, "command": _TEXT}),
    (Response, {"answer": _TEXT, "sends": _TEXTS}),
    (TableBatch, {"events": _TEXT, "snapshot": _TEXT, "notice": _TEXT}),
    (PlayerBatch, {"events": _TEXT, "snapshot": _TEXT, "turn": _TEXT}),
    (PlayerNotice, {"text": _TEXT}),
    (Unwatch, {}),
    (Alive, {}),
    (LobbyRows, {}),
):
    _CODECS[_kind] = (_kind.__name__, tuple((f.name, _raw.get(f.name, _JSON)) for f in fields(_kind)))
    _KINDS[_kind.__name__] = _kind


def encode(message: Any) -> bytes:
    """A message as NATS carries it: a head of JSON (its kind, then its fields in order, a
    text field as its length in bytes, -1 for None), a newline, then the texts, raw."""
    name, codec = _CODECS[type(message)]
    head: list[Any] = [name]
    texts: list[bytes] = []
    for field_name, how in codec:
        value = getattr(message, field_name)
        if how == _JSON:
            head.append(value)
        elif how == _TEXT:
            if value is None:
                head.append(-1)
                continue
            raw = (value if type(value) is str else value.model_dump_json()).encode()
            head.append(len(raw))
            texts.append(raw)
        elif how == _TEXTS:
            raws = [text.encode() for text in value]
            head.append([len(raw) for raw in raws])
            texts += raws
        else:
            head.append([value.gateway, value.conn, value.player, value.account_id])
    texts.insert(0, json.dumps(head, separators=(",", ":"), ensure_ascii=False).encode() + b"\n")
    return b"".join(texts)


def decode(raw: bytes) -> Any:
    """``encode``'s message back (the command of a ``Request`` left as its JSON text);
    ValueError for anything else."""
    try:
        at = raw.index(b"\n")
        head = json.loads(raw[:at])
        kind = _KINDS[head[0]]
        codec = _CODECS[kind][1]
        if len(head) != len(codec) + 1:
            raise ValueError("fields missing or too many")
        values: list[Any] = []
        at += 1
        for (_, how), value in zip(codec, head[1:], strict=True):
            if how == _JSON:
                values.append(value)
            elif how == _TEXT:
                if value == -1:
                    values.append(None)
                    continue
                values.append(_text(raw, at, value))
                at += value
            elif how == _TEXTS:
                texts = []
                for size in value:
                    texts.append(_text(raw, at, size))
                    at += size
                values.append(texts)
            else:
                gateway, conn, player, account = value
                values.append(Caller(gateway, conn, player, account))
        if at != len(raw):
            raise ValueError("bytes left over")
        return kind(*values)
    except ValueError:
        raise
    except (LookupError, TypeError) as e:
        raise ValueError(f"not a bus message ({type(e).__name__})") from None


def _text(raw: bytes, at: int, size: Any) -> str:
    if type(size) is not int or size < 0 or at + size > len(raw):
        raise ValueError("a text's length does not fit")
    return raw[at:at + size].decode()
