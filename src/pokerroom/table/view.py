"""What one player, or an observer, may see of a table (R2, H16, L4).

The seats, stacks and states, the button and blinds, the hand as ``core.views`` projects it
for that viewer (his own hole cards only), whose turn it is and until when, what the viewer
may do, what he is asked to post, and the mixed-game schedule; the games as data
(``GameInfo``) beside their English labels, which clients show only in logs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from pokerroom.core.cards import Card
from pokerroom.core.hand import Legal
from pokerroom.core.views import view as hand_view
from pokerroom.table.config import GameInfo, TableConfig, game_info, game_label
from pokerroom.table.events import GameChanged, HandStarted
from pokerroom.table.seating import SITTING_OUT, Options
from pokerroom.table.table import PLAYING, Table


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    player: str
    stack: int  # in a hand: behind his bets
    state: str  # active, entering, sitting_out
    owes: str  # nothing, big_blind, big_and_small_blind, small_blind
    in_hand: bool
    bet: int
    folded: bool
    all_in: bool
    cards: tuple[Card | None, ...]  # None: a card the viewer may not see
    leaving: bool
    protected: bool = False  # all in by all-in protection in this hand (D7)


@dataclass(frozen=True)
class PotInfo:
    amount: int
    seats: tuple[int, ...]  # who can win it


@dataclass(frozen=True)
class TableView:
    name: str
    max_seats: int
    min_buy_in: int
    max_buy_in: int
    viewer: str | None
    seat: int | None  # the viewer's seat
    phase: str
    game: str
    next_game: str
    hands_to_switch: int  # mixed tables: hands left before the next game (0: one game)
    hand_number: int
    button: int | None
    small_blind: int | None
    big_blind: int | None
    seats: tuple[SeatInfo, ...]
    board: tuple[Card, ...]
    pot: int
    pots: tuple[PotInfo, ...]
    street: str | None
    actor: int | None
    deadline: float | None  # the actor's clock
    legal: Legal | None  # what the viewer may do now, when it is his turn
    post: tuple[int, int, int] | None  # (blind, dead, ante) the viewer is asked to post
    options: Options | None
    time_bank: float | None
    previous_hand: int | None  # the number of the hand "show previous hand" shows
    protections_left: int | None = None  # the viewer's all-in protections left (D7)
    protection_limit: int = 2  # how many a player gets in the room's window (D7)
    revealable: tuple[int, ...] = ()  # the viewer's hole cards he may show now (D12)
    # sitting out (busted or by choice): how many more times the big blind may pass the
    # viewer before his seat is given up (1: the next pass costs it)
    orbits_left: int | None = None
    straddles: bool = False  # the table allows straddles (D10)
    missed_blinds: str = "seeds"  # what a player who missed blinds posts (D11)
    game_info: GameInfo | None = None  # ``game`` as data (always set by table_view)
    next_game_info: GameInfo | None = None  # ``next_game`` as data
    waiting: tuple[str, ...] = ()  # the waiting list, in order (table/waiting.py)
    offers: tuple[tuple[str, float], ...] = ()  # (player, until) of the free seats held for them


def info_of(config: TableConfig, label: str) -> GameInfo:
    """The game of ``config``'s schedule whose label is ``label`` (labels come from
    ``game_label`` of these very games: a lookup, not a reading of the text)."""
    for stage in config.schedule:
        if game_label(stage.game) == label:
            return game_info(stage.game)
    raise KeyError(f"no game {label!r} in the schedule of {config.name}")


class HandStartedInfo(NamedTuple):
    """``HandStarted`` as clients get it: with its game as data (protocol 3)."""

    number: int
    game: str
    button: int
    small_blind: int | None
    big_blind: int | None
    seats: tuple[int, ...]
    game_info: GameInfo


class GameChangedInfo(NamedTuple):
    """``GameChanged`` as clients get it: with its game as data (protocol 3)."""

    game: str
    stage: int
    game_info: GameInfo


def with_game_info(
    event: HandStarted | GameChanged, config: TableConfig
) -> HandStartedInfo | GameChangedInfo:
    """A table event naming a game, with that game as data beside the label."""
    info = info_of(config, event.game)
    if isinstance(event, HandStarted):
        return HandStartedInfo(*event, info)
    return GameChangedInfo(event.game, event.stage, info)


def table_view(table: Table, viewer: str | None = None, now: float | None = None) -> TableView:
    """The table as ``viewer`` (a player's name, or None for an observer) may see it at
    ``now`` (by default the time of the table's latest command), which is when his all-in
    protections left are counted."""
    seat = table.seat_of(viewer) if viewer is not None else None
    hand, plan = table.hand, table.plan
    playing = table.phase == PLAYING and hand is not None and plan is not None
    hv = None
    dealt: tuple[int, ...] = ()
    if playing:
        assert hand is not None and plan is not None
        dealt = plan.seats
        hv = hand_view(hand, dealt.index(seat) if seat in dealt else None)
    infos = []
    for number, s in sorted(table.seats.items()):
        sv = hv.seats[dealt.index(number)] if hv is not None and number in dealt else None
        infos.append(SeatInfo(
            seat=number,
            player=s.player,
            stack=table.stack(number),
            state=s.state,
            owes=s.owes_text,
            in_hand=sv is not None,
            bet=sv.bet if sv else 0,
            folded=sv.folded if sv else False,
            all_in=sv.all_in if sv else False,
            cards=sv.cards if sv else (),
            leaving=s.leaving,
            protected=sv is not None and hand is not None and hand.protected[dealt.index(number)] > 0,
        ))
    now_game, next_game, left = table.schedule()
    when = table.clock if now is None else now
    pos = table.positions
    request = table.post_request(seat) if seat is not None else None
    turn = table.turn
    return TableView(
        name=table.config.name,
        max_seats=table.config.seats,
        min_buy_in=table.config.min_buy_in,
        max_buy_in=table.config.max_buy_in,
        viewer=viewer,
        seat=seat,
        phase=table.phase,
        game=now_game,
        next_game=next_game,
        hands_to_switch=left,
        hand_number=table.hand_number,
        button=pos.button if pos else None,
        small_blind=pos.small_blind if pos and plan and plan.small_blind_posted else None,
        big_blind=pos.big_blind if pos and table.config.variant == "holdem" else None,
        seats=tuple(infos),
        board=hv.board if hv else (),
        pot=hv.pot if hv else 0,
        pots=tuple(PotInfo(p.amount, tuple(dealt[i] for i in p.eligible)) for p in hv.pots) if hv else (),
        street=hand.street_name if playing and hand is not None else None,
        actor=table.actor,
        deadline=turn.deadline if turn is not None else None,
        legal=hv.legal if hv else None,
        post=(request.blind, request.dead, request.ante) if request is not None else None,
        options=table.seats[seat].options if seat is not None else None,
        time_bank=table.seats[seat].time_bank if seat is not None else None,
        previous_hand=table.previous_number,
        protections_left=None if viewer is None else table.protections.left(viewer, when),
        protection_limit=table.protections.limit,
        revealable=table.revealable(seat) if seat is not None else (),
        orbits_left=_orbits_left(table, seat),
        straddles=table.config.straddles,
        missed_blinds=table.config.missed_blinds,
        game_info=info_of(table.config, now_game),
        next_game_info=info_of(table.config, next_game),
        waiting=tuple(table.waiting.names),
        offers=table.waiting.state()[1],
    )


def _orbits_left(table: Table, seat: int | None) -> int | None:
    """For a viewer sitting out: the passes of the big blind until he loses the seat, the
    last of them included (``max_missed_orbits`` missed, the next one removes him)."""
    if seat is None:
        return None
    s = table.seats[seat]
    if s.state != SITTING_OUT:
        return None
    return max(0, table.config.max_missed_orbits + 1 - s.missed_orbits)


class TurnView(NamedTuple):
    """What the player whose turn it is sees at that moment (``your_turn``): what he may
    do and until when, with his cards, the board and the pot, so a bot needs no other
    state. Made once per turn, on the busiest path: a named tuple of lists, which cost
    less to make than a frozen dataclass of tuples."""

    player: str
    legal: Legal
    deadline: float
    game: str  # the PHH variant code: 'NT', 'PT', 'FT' or 'F7S'
    street: str
    cards: Sequence[Card]  # his, in deal order
    up: Sequence[bool]  # stud: which of them are face up
    board: Sequence[Card]
    pot: int  # everything in the middle, current bets included
    stack: int  # behind his bet
    players: int  # still in the hand, him included
    opponents_up: Sequence[Sequence[Card]]  # stud: the others' up cards (hold'em: none)


def turn_player(table: Table) -> str | None:
    """The player whose turn it is, if his clock runs."""
    if table.phase != PLAYING or table.actor is None or table.turn is None:
        return None
    seat = table.seats.get(table.actor)
    return None if seat is None else seat.player


def turn_view(table: Table) -> TurnView | None:
    """The turn as its player sees it (``turn_player``), None when no clock runs."""
    player = turn_player(table)
    hand, plan, turn = table.hand, table.plan, table.turn
    if player is None or hand is None or plan is None or turn is None:
        return None
    assert table.actor is not None
    me = plan.seats.index(table.actor)
    holes, face_up, folded = hand.holes, hand.face_up, hand.folded
    live = [q for q in range(hand.n) if not folded[q]]
    return TurnView(
        player=player,
        legal=hand.legal_actions(),
        deadline=turn.deadline,
        game=hand.game.code,
        street=hand.street_name,
        cards=list(holes[me]),
        up=list(face_up[me]),
        board=list(hand.board),
        pot=hand.pot,
        stack=hand.stacks[me],
        players=len(live),
        opponents_up=[
            [c for c, shown in zip(holes[q], face_up[q], strict=False) if shown] if True in face_up[q] else []
            for q in live
            if q != me
        ],
    )
