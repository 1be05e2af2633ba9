"""The WebSocket protocol: typed JSON messages, one pydantic model per message type.

Every message is a JSON object with a ``type``. A client may give any command an ``id``;
the server echoes it in the ``ok`` or ``error`` that answers. ``PROTOCOL`` is the version
the server speaks (in ``welcome``). docs/protocol.md documents the messages and
docs/protocol.schema.json is generated from these models (``pokerroom schema``). What the
server's messages carry (views, lobby rows, records, events) is modelled in outbound.py.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, TypeAlias

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from pokerroom.outbound import Event, Legal
from pokerroom.outbound import HandRecord as HandRecord  # the messages' parts, re-exported
from pokerroom.outbound import LobbyRow as LobbyRow
from pokerroom.outbound import TableView as TableView

PROTOCOL = 3
MAX_MESSAGE_BYTES = 4096

TableName = Annotated[str, Field(min_length=1, max_length=64)]
ClientId = Annotated[str, Field(max_length=64)] | Annotated[int, Field(ge=0, le=2**53)] | None


class _Command(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    id: ClientId = None


class Subscribe(_Command):
    """Watch a table (no seat needed). ``since``: the last event version this client saw;
    the server sends what came after, or a fresh snapshot. ``snapshots``: also send a fresh
    snapshot after every batch of events (a client that draws views rather than events)."""

    type: Literal["subscribe"]
    table: TableName
    since: Annotated[int, Field(ge=0)] | None = None
    snapshots: bool = False


class Unsubscribe(_Command):
    type: Literal["unsubscribe"]
    table: TableName


class Lobby(_Command):
    """Receive the table list now and its updates from then on."""

    type: Literal["lobby"]


class Sit(_Command):
    type: Literal["sit"]
    table: TableName
    seat: Annotated[int, Field(ge=1, le=10)]
    buy_in: Annotated[int, Field(ge=1, le=10**12)]


class Act(_Command):
    """fold, check, call, bet, raise (with ``amount``: the total bet on this street),
    bring_in, complete (with ``amount``), show, muck."""

    type: Literal["act"]
    table: TableName
    action: Literal["fold", "check", "call", "bet", "raise", "bring_in", "complete", "show", "muck"]
    amount: Annotated[int, Field(ge=0, le=10**12)] | None = None


class Options(_Command):
    """The player settings of the table layer (any subset). ``straddle``: post a straddle
    when left of the big blind (D10; kept until unchecked, used where the table allows)."""

    type: Literal["options"]
    table: TableName
    auto_post_blinds: bool | None = None
    auto_post_antes: bool | None = None
    wait_for_big_blind: bool | None = None
    sit_out_next_hand: bool | None = None
    sit_out_next_big_blind: bool | None = None
    auto_muck: bool | None = None
    straddle: bool | None = None


class SitOut(_Command):
    type: Literal["sit_out"]
    table: TableName


class SitIn(_Command):
    type: Literal["sit_in"]
    table: TableName


class Leave(_Command):
    type: Literal["leave"]
    table: TableName


class JoinWaiting(_Command):
    """Wait for a seat at a full table (table/waiting.py): a freed seat is offered to the
    first on its list for the table's ``seat_offer_time`` (``seat_offered``)."""

    type: Literal["join_waiting"]
    table: TableName


class LeaveWaiting(_Command):
    type: Literal["leave_waiting"]
    table: TableName


class TopUp(_Command):
    type: Literal["top_up"]
    table: TableName
    amount: Annotated[int, Field(ge=1, le=10**12)]


class Post(_Command):
    """Answer a request to post a blind or ante: post it (true) or sit out (false)."""

    type: Literal["post"]
    table: TableName
    accept: bool


class ShowCards(_Command):
    """Show cards after the hand ended, before the next is dealt (D12): ``cards`` are
    indices into the player's hole cards in the order dealt (one, or all face-down ones).
    Public: every watcher gets ``CardsRevealed``, and the hand's history keeps them."""

    type: Literal["show_cards"]
    table: TableName
    cards: Annotated[list[Annotated[int, Field(ge=0, le=6)]], Field(min_length=1, max_length=7)]

    @field_validator("cards")
    @classmethod
    def _distinct(cls, cards: list[int]) -> list[int]:
        if len(set(cards)) != len(cards):
            raise ValueError("the card indices must be distinct")
        return cards


class PreviousHand(_Command):
    type: Literal["previous_hand"]
    table: TableName


class Chat(_Command):
    type: Literal["chat"]
    table: TableName
    text: Annotated[str, Field(min_length=1, max_length=200)]


class Ping(_Command):
    type: Literal["ping"]


class Seed(_Command):
    """A seated player's own randomness for the next deal (docs/protocol.md, "Provably fair
    deals"): ``commitment`` is the next deck's, as the last ``DeckSeeded`` announced it in
    ``next_commitment``; the seed is mixed into that deck's order at its deal. A later seed
    for the same deck replaces it."""

    type: Literal["seed"]
    table: TableName
    commitment: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
    seed: Annotated[str, Field(pattern=r"^[0-9A-Za-z_-]{8,64}$")]


# the commands a table handles (the bus routes them by ``table``: bus.py); the gateway
# answers the others (ping, lobby) itself
TableCommand: TypeAlias = (
    Subscribe | Unsubscribe | Sit | Act | Options | SitOut | SitIn | Leave | TopUp | Post | ShowCards
    | PreviousHand | Chat | Seed | JoinWaiting | LeaveWaiting
)
ClientMessage = Annotated[
    Subscribe
    | Unsubscribe
    | Lobby
    | Sit
    | Act
    | Options
    | SitOut
    | SitIn
    | Leave
    | TopUp
    | Post
    | ShowCards
    | PreviousHand
    | Chat
    | Ping
    | Seed
    | JoinWaiting
    | LeaveWaiting,
    Field(discriminator="type"),
]
CLIENT = TypeAdapter(ClientMessage)


# ---------------------------------------------------------------- error codes

# Every ``code`` a client may get, in an ``error`` message or an HTTP error body, and where
# it comes from. The browser names each in both its languages (tests/server/
# test_protocol_codes.py checks that, and that the server raises no code missing here).
ERROR_CODES: dict[str, str] = {
    # the connection and the gateway (gateway/ws.py, gateway/app.py, worker/room.py)
    "bad_message": "not JSON, an unknown type, wrong or missing fields",
    "too_big": "a message or body over the limit",
    "rate_limited": "too many messages",
    "login_required": "a command that needs a player",
    "unknown_table": "no table of that name",
    "table_paused": "the table waits for its database",
    "table_moving": "the table is moving to another server",
    "table_unavailable": "no server took the table in time",
    "fenced": "the table's server lost it to another mid-write",
    "bad_json": "an HTTP body that is not JSON",
    "bad_content_type": "an HTTP body that is not application/json",
    "cross_site": "a request from another site",
    "not_found": "no such page or hand",
    "bad_query": "a query parameter of /api/hands that is not valid (gateway/hands.py)",
    "no_player": "no player of that name (statistics, notes)",
    "bad_note": "a note too long, a colour not in the palette, or a note on oneself (gateway/notes.py)",
    "no_note": "no note on that player",
    "bad_phh": "a PHH file the replayer cannot read or replay (gateway/replay.py)",
    "bad_prefs": "bet presets too many, out of range or not numbers (gateway/prefs.py)",
    "http": "another HTTP error",
    "internal": "a server error",
    "starting": "the room is still starting",
    # accounts (gateway/auth.py, store)
    "bad_name": "a name outside the rules",
    "bad_password": "a password outside the rules",
    "bad_login": "a wrong name or password",
    "name_taken": "the name is taken",
    "common_password": "one of the most common passwords",
    "too_many_attempts": "too many logins tried",
    "too_many_registrations": "too many accounts from one address",
    "no_account": "the account is gone",
    "not_broke": "free chips are for low balances",
    "too_soon": "free chips again too soon",
    "unavailable": "the database did not answer",
    "insufficient_balance": "the balance is too low",
    # the table (table/, worker/)
    "seat_taken": "the seat is taken",
    "seat_held": "the free seats are held for the waiting list",
    "seat_free": "a seat is free: no need to wait",
    "already_waiting": "on this waiting list already",
    "not_waiting": "not on this waiting list",
    "bad_seat": "no such seat",
    "already_seated": "already at this table",
    "below_minimum": "a buy-in below the table minimum",
    "above_maximum": "a buy-in or top-up above the table maximum",
    "rathole": "a buy-in below the stack left with lately (D13)",
    "bad_amount": "chips that are not a positive whole number",
    "in_hand": "chips added during a hand",
    "not_seated": "not at this table",
    "not_in_hand": "not dealt in this hand",
    "folded": "folded already",
    "too_late": "the clock ran out",
    "nothing_to_post": "no post is asked",
    "bad_answer": "a post answer that is not true or false",
    "no_chips": "a stack of nothing",
    "bad_option": "an unknown setting",
    "nothing_to_show": "no cards to show now (D12)",
    "bad_cards": "cards that cannot be shown",
    "hand_running": "a hand is being played",
    "not_enough_players": "too few players",
    "chat_limited": "too many chat lines",
    "bad_seed": "a seed outside the rules",
    "stale_seed": "a seed for a deck dealt already",
    # the hand (core/hand.py)
    "not_your_turn": "another player acts",
    "amount_out_of_range": "a bet or raise outside the legal range",
    "cannot_check": "a bet to call",
    "cannot_raise": "no bet or raise allowed now",
    "nothing_to_call": "fold with nothing to call",
    "bring_in_first": "the bring-in comes first",
    "no_bring_in": "no bring-in to post",
    "must_show": "the hand must be shown",
    "wrong_phase": "an action that does not fit the moment",
    "hand_over": "the hand is over",
    "hand_live": "the hand is not over",
    "no_actor": "nobody is to act",
    "nothing_committed": "all-in protection with nothing in the pot",
    "unknown_action": "an action the hand does not know",
}


# ---------------------------------------------------------------- server messages


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True)


class Welcome(_Message):
    type: Literal["welcome"] = "welcome"
    protocol: int = PROTOCOL
    player: str | None  # None: an anonymous observer
    balance: int | None


class Ok(_Message):
    type: Literal["ok"] = "ok"
    id: ClientId = None


class Error(_Message):
    type: Literal["error"] = "error"
    code: str
    message: str
    id: ClientId = None


class Snapshot(_Message):
    """The table as this viewer may see it, at event ``version``."""

    type: Literal["snapshot"] = "snapshot"
    table: str
    version: int
    view: TableView


class VersionedEvent(_Message):
    version: int  # rises by one per table
    event: Event  # {"type": "Acted", ...}: outbound.py has them all


class EventsMessage(_Message):
    """Table events in order, as this viewer may see them: everything one command or one
    tick of the table's clock caused (a deal is one message, not one per card); the action
    that ends a hand comes alone, at once, and the hand's result in a second message once
    its settlement is committed."""

    type: Literal["events"] = "events"
    table: str
    events: list[VersionedEvent]


class YourTurn(_Message):
    """It is this player's turn: what he may do and until when, with what a player sees
    at that moment (his own cards, the board, the pot) so a bot needs no other state."""

    type: Literal["your_turn"] = "your_turn"
    table: str
    legal: Legal
    deadline: float  # seconds since the epoch
    game: str = ""  # 'NT', 'PT', 'FT' or 'F7S' (the PHH variant code)
    street: str = ""
    cards: list[str | None] = Field(default_factory=list)  # his cards in deal order
    up: list[bool] = Field(default_factory=list)  # stud: which of them are face up
    board: list[str] = Field(default_factory=list)
    pot: int = 0  # everything in the middle, current bets included
    stack: int = 0  # behind his bet
    players: int = 0  # still in the hand, him included
    opponents_up: list[list[str]] = Field(default_factory=list)  # stud: the others' up cards


class LobbyList(_Message):
    type: Literal["lobby"] = "lobby"
    tables: list[LobbyRow]


class SeatOffered(_Message):
    """A seat at a full table is held for you, the first on its waiting list, until
    ``until`` (seconds since the epoch): sit down there before then, or it goes to the next.
    Sent to every connection of the player, whatever table he watches."""

    type: Literal["seat_offered"] = "seat_offered"
    table: str
    until: float


class PreviousHandRecord(_Message):
    type: Literal["previous_hand"] = "previous_hand"
    table: str
    hand: HandRecord | None


class ChatMessage(_Message):
    type: Literal["chat"] = "chat"
    table: str
    player: str
    text: str


class Pong(_Message):
    type: Literal["pong"] = "pong"
    id: ClientId = None


class TablePaused(_Message):
    """The table stopped dealing: the database did not confirm a write of its chips. It
    tries again until it does; meanwhile its commands are refused ('table_paused') and no
    clock runs. Nothing was lost: when it resumes, every chip is where the database says."""

    type: Literal["table_paused"] = "table_paused"
    table: str
    message: str


class TableResumed(_Message):
    """The table deals again after a pause of ``paused_for`` seconds; the clock of the turn
    it stopped in was moved on by as much."""

    type: Literal["table_resumed"] = "table_resumed"
    table: str
    paused_for: float


class TableMoving(_Message):
    """The table is between servers (its old one stopped, another is taking it over): the
    command is tried again for ``retry_for`` seconds at most, then refused
    ('table_unavailable')."""

    type: Literal["table_moving"] = "table_moving"
    table: str
    retry_for: float


ServerMessage = Annotated[
    Welcome
    | Ok
    | Error
    | Snapshot
    | EventsMessage
    | YourTurn
    | LobbyList
    | PreviousHandRecord
    | ChatMessage
    | Pong
    | TablePaused
    | TableResumed
    | TableMoving
    | SeatOffered,
    Field(discriminator="type"),
]
SERVER = TypeAdapter(ServerMessage)


def schema() -> dict[str, Any]:
    """The JSON schema of both directions (docs/protocol.schema.json)."""
    return {
        "$comment": f"pokerroom WebSocket protocol {PROTOCOL}, generated from pokerroom.protocol",
        "client": CLIENT.json_schema(),
        "server": SERVER.json_schema(),
    }


def schema_text() -> str:
    return json.dumps(schema(), indent=2, sort_keys=True) + "\n"
