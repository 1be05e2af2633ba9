"""The server tests' shared helpers, imported by the tests instead of from one another:
``client`` (the test client on pokerroom.client, the clients of one test), ``players``
(the crash and bad-input tests' Player bot), ``servers`` (`pokerroom serve` in a
subprocess, the test room), ``store`` (a Store per test, the ledger audit), ``attacks``
(floods from raw sockets, and what the room's players felt meanwhile).

``histories`` (the history tests' random and scripted hands), ``tables`` (hands played at
tables and the histories the runner stores of them, now and in older forms), ``fairness``
(hands dealt, stored and served as the server does, and the attacks on the proof of a
deal), ``migrations`` (a database brought to a given revision) and ``bots`` (a crowd of
bots playing a served room until every table has dealt enough hands) are imported by their
module names, not from here: importing ``fairness`` deals the attacks' hands, and they name
a ``NOON`` and a ``GAMES`` of their own (``fairness.passive`` is not ``players.passive``)."""

from tests.server.helpers.attacks import (
    BLOCKED,
    FLOOD_BYTES,
    FLOOD_SECONDS,
    GROWTH,
    STALL,
    Flood,
    Outcome,
    flood,
    memory,
    stalled,
    under_attack,
    under_flood,
)
from tests.server.helpers.client import (
    GRANT,
    PASSWORD,
    Client,
    Message,
    Players,
    Predicate,
    in_room,
    is_event,
    split_events,
)
from tests.server.helpers.players import (
    Decision,
    Player,
    PlayerPolicy,
    bearer,
    me,
    passive,
    register,
    until,
    until_async,
)
from tests.server.helpers.servers import ClusterServer, Room, Server, free_port, run, server_room, serving
from tests.server.helpers.store import Database, audit, audit_of, rows, seat_rows, with_store

__all__ = [
    "BLOCKED",
    "FLOOD_BYTES",
    "FLOOD_SECONDS",
    "GRANT",
    "GROWTH",
    "PASSWORD",
    "STALL",
    "Client",
    "ClusterServer",
    "Database",
    "Decision",
    "Flood",
    "Message",
    "Outcome",
    "Player",
    "PlayerPolicy",
    "Players",
    "Predicate",
    "Room",
    "Server",
    "audit",
    "audit_of",
    "bearer",
    "flood",
    "free_port",
    "in_room",
    "is_event",
    "me",
    "memory",
    "passive",
    "register",
    "rows",
    "run",
    "seat_rows",
    "server_room",
    "serving",
    "split_events",
    "stalled",
    "under_attack",
    "under_flood",
    "until",
    "until_async",
    "with_store",
]
