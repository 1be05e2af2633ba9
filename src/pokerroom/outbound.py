"""What the server's messages carry, as models (protocol 3): the table view, the lobby's
rows, the previous-hand record and every event, typed field by field where protocol 2 had
free objects. Games and hands' values are data a client names in its own language; the
English labels beside them (``game``, ``hand``) are for logs.

The server makes these values from the engine's and the table's (table.view, table.record,
the events' named tuples) and writes them with wire.py; tests/server/test_protocol_wire.py
checks that each model has the fields of what it is made from, and that every event sent
has a model here under its wire name. protocol.py's messages are made of these.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Data(BaseModel):
    model_config = ConfigDict(frozen=True)


Card = Annotated[str, Field(pattern=r"^[2-9TJQKA][cdhs]$")]
Rank = Literal["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
HandCategory = Literal[
    "high_card", "one_pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
    "four_of_a_kind", "straight_flush",
]


class GameInfo(_Data):
    """A game (table.config.GameInfo): ``stakes`` are the blinds in no limit and pot limit,
    the small and big bet in fixed limit and stud."""

    variant: Literal["holdem", "stud"]
    structure: Literal["no_limit", "pot_limit", "fixed_limit"]
    stakes: tuple[int, int]
    small_blind: int
    big_blind: int
    small_bet: int
    big_bet: int
    ante: int
    bring_in: int


class HandValue(_Data):
    """A hand's value (table.record.HandValue): its category and the ranks of its best five
    cards, most important first (groups, then kickers; a wheel is 5 4 3 2 A)."""

    category: HandCategory
    ranks: list[Rank]


class Legal(_Data):
    """What the player to act may do (core.hand.Legal): ``call`` is what calling adds
    (0: a check), ``min_to``/``max_to`` the street's total bet after a bet or raise."""

    player: int | None
    fold: bool
    check: bool
    call: int
    min_to: int | None
    max_to: int | None
    show: bool
    muck: bool
    bring_in: int = 0


class SeatView(_Data):
    seat: int
    player: str
    stack: int
    state: str  # active, entering, sitting_out
    owes: str  # nothing, big_blind, big_and_small_blind, small_blind
    in_hand: bool
    bet: int
    folded: bool
    all_in: bool
    cards: list[Card | None]  # None: a card this viewer may not see
    leaving: bool
    protected: bool = False


class PotView(_Data):
    amount: int
    seats: list[int]


class SeatOptions(_Data):
    auto_post_blinds: bool
    auto_post_antes: bool
    wait_for_big_blind: bool
    sit_out_next_hand: bool
    sit_out_next_big_blind: bool
    auto_muck: bool
    straddle: bool


class TableView(_Data):
    """The table as one viewer may see it (table.view.TableView)."""

    name: str
    max_seats: int
    min_buy_in: int
    max_buy_in: int
    viewer: str | None
    seat: int | None
    phase: str
    game: str  # English label, for logs
    next_game: str
    hands_to_switch: int
    hand_number: int
    button: int | None
    small_blind: int | None
    big_blind: int | None
    seats: list[SeatView]
    board: list[Card]
    pot: int
    pots: list[PotView]
    street: str | None
    actor: int | None
    deadline: float | None
    legal: Legal | None
    post: tuple[int, int, int] | None  # (blind, dead, ante) asked of the viewer
    options: SeatOptions | None
    time_bank: float | None
    previous_hand: int | None
    protections_left: int | None = None
    protection_limit: int = 2
    revealable: list[int] = Field(default_factory=list)
    orbits_left: int | None = None  # sitting out: the orbits his seat is still kept for
    straddles: bool = False
    missed_blinds: str = "seeds"
    game_info: GameInfo
    next_game_info: GameInfo
    waiting: list[str] = Field(default_factory=list)  # the waiting list, in order
    offers: list[tuple[str, float]] = Field(default_factory=list)  # (player, until): seats held


class LobbyRow(_Data):
    """One table of the lobby."""

    name: str
    game: str  # English label, for logs
    next_game: str
    hands_to_switch: int
    variant: str
    seats: int
    taken: int
    players: list[str]
    min_buy_in: int
    max_buy_in: int
    action_time: float
    average_pot: int
    hands_per_hour: int
    hands: int
    game_info: GameInfo
    next_game_info: GameInfo
    waiting: int = 0  # players on its waiting list
    template: str | None = None  # the template it was opened from (tables that open themselves)


# ---------------------------------------------------------------- events
# One model per event a client may get, under its wire name (wire.WIRE_NAMES). The hand's
# events name players by seat; a card a viewer may not see is null.


class Posted(_Data):
    """A forced bet: ante, small_blind, big_blind, blind, straddle, dead or bring_in."""

    type: Literal["Posted"] = "Posted"
    player: int
    kind: str
    amount: int
    all_in: bool


class HoleDealt(_Data):
    type: Literal["HoleDealt"] = "HoleDealt"
    player: int
    card: Card | None
    face_up: bool = False


class BoardDealt(_Data):
    type: Literal["BoardDealt"] = "BoardDealt"
    street: int
    cards: list[Card]


class Acted(_Data):
    """fold, check, call, bet, raise, bring_in, complete, or protected (D7); ``amount``
    added, ``to`` the street's total bet after it."""

    type: Literal["Acted"] = "Acted"
    player: int
    action: str
    amount: int
    to: int
    all_in: bool


class UncalledReturned(_Data):
    type: Literal["UncalledReturned"] = "UncalledReturned"
    player: int
    amount: int


class Reshuffled(_Data):
    type: Literal["Reshuffled"] = "Reshuffled"
    street: int
    cards: int


class StreetEnded(_Data):
    type: Literal["StreetEnded"] = "StreetEnded"
    street: int
    pot: int


class Shown(_Data):
    type: Literal["Shown"] = "Shown"
    player: int
    cards: list[Card]
    forced: bool


class Mucked(_Data):
    type: Literal["Mucked"] = "Mucked"
    player: int
    cards: list[Card]  # empty for all but the owner until the hand is over


class PotAwarded(_Data):
    type: Literal["PotAwarded"] = "PotAwarded"
    pot: int
    amount: int
    eligible: list[int]
    winners: list[int]
    shares: list[int]
    value: int | None  # the engine's strength (a record's pot ``value`` names the hand)


class Seated(_Data):
    type: Literal["Seated"] = "Seated"
    seat: int
    player: str
    stack: int


class ChipsAdded(_Data):
    type: Literal["ChipsAdded"] = "ChipsAdded"
    seat: int
    player: str
    amount: int
    stack: int


class Left(_Data):
    type: Literal["Left"] = "Left"
    seat: int
    player: str
    stack: int
    reason: str


class SatOut(_Data):
    type: Literal["SatOut"] = "SatOut"
    seat: int
    player: str
    reason: str


class SatIn(_Data):
    type: Literal["SatIn"] = "SatIn"
    seat: int
    player: str
    owes: str


class BlindMissed(_Data):
    type: Literal["BlindMissed"] = "BlindMissed"
    seat: int
    player: str
    blind: str


class PostRequested(_Data):
    type: Literal["PostRequested"] = "PostRequested"
    seat: int
    player: str
    blind: int
    dead: int
    ante: int
    deadline: float


class GameChanged(_Data):
    type: Literal["GameChanged"] = "GameChanged"
    game: str  # English, for logs
    stage: int
    game_info: GameInfo


class HandStarted(_Data):
    type: Literal["HandStarted"] = "HandStarted"
    number: int
    game: str  # English, for logs
    button: int
    small_blind: int | None
    big_blind: int | None
    seats: list[int]
    game_info: GameInfo


class TurnStarted(_Data):
    type: Literal["TurnStarted"] = "TurnStarted"
    seat: int
    started: float
    deadline: float
    time_bank: float


class TimedOut(_Data):
    type: Literal["TimedOut"] = "TimedOut"
    seat: int
    player: str
    action: str


class CardsRevealed(_Data):
    type: Literal["CardsRevealed"] = "CardsRevealed"
    number: int
    seat: int
    player: str
    cards: list[Card]


class WaitingChanged(_Data):
    type: Literal["WaitingChanged"] = "WaitingChanged"
    waiting: list[str]
    offers: list[tuple[str, float]]
    offered: list[str]


class HandFinished(_Data):
    type: Literal["HandFinished"] = "HandFinished"
    number: int
    stacks: list[tuple[int, int]]  # (seat, stack)
    net: list[tuple[int, int]]  # (seat, net result)


class DeckCommitted(_Data):
    type: Literal["DeckCommitted"] = "DeckCommitted"
    number: int
    commitment: str


class DeckSeeded(_Data):
    type: Literal["DeckSeeded"] = "DeckSeeded"
    number: int
    seeds: list[tuple[int, str]]  # (seat, seed)
    next_commitment: str


class ChatLine(_Data):
    type: Literal["ChatLine"] = "ChatLine"
    player: str
    text: str


class HandVoided(_Data):
    """Hand ``number`` was cut short when its server stopped: void, every stack as before it."""

    type: Literal["HandVoided"] = "HandVoided"
    number: int
    players: int


# the hand's events, as a previous-hand record keeps them
RecordEvent = Annotated[
    Posted | HoleDealt | BoardDealt | Acted | UncalledReturned | Reshuffled | StreetEnded | Shown
    | Mucked | PotAwarded,
    Field(discriminator="type"),
]
# every event of an ``events`` message
Event = Annotated[
    Posted | HoleDealt | BoardDealt | Acted | UncalledReturned | Reshuffled | StreetEnded | Shown
    | Mucked | PotAwarded | Seated | ChipsAdded | Left | SatOut | SatIn | BlindMissed | PostRequested
    | GameChanged | HandStarted | TurnStarted | TimedOut | CardsRevealed | HandFinished | WaitingChanged
    | DeckCommitted | DeckSeeded | ChatLine | HandVoided,
    Field(discriminator="type"),
]


class PlayerRecord(_Data):
    seat: int
    player: str
    starting_stack: int
    final_stack: int
    net: int
    cards: list[Card | None]
    folded: bool
    reached_showdown: bool
    mucked: bool
    hand: str | None  # English, for logs
    best: list[Card]
    revealed: list[Card] = Field(default_factory=list)
    value: HandValue | None = None  # ``hand`` as data


class PotRecord(_Data):
    pot: int
    amount: int
    winners: list[int]
    shares: list[int]
    hand: str | None  # English, for logs
    value: HandValue | None = None


class HandRecord(_Data):
    """A finished hand as every player at its table may see it (table.record.HandRecord);
    ``events`` are typed as in ``events`` messages."""

    number: int
    game: str  # English label, for logs
    button: int
    board: list[Card]
    players: list[PlayerRecord]
    pots: list[PotRecord]
    events: list[RecordEvent]
    game_info: GameInfo | None = None  # None only in histories stored before protocol 3
