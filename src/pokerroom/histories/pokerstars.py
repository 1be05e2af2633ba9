"""The PokerStars writer: a finished hand as the text trackers read ("PokerStars Hand
#N:  Hold'em No Limit (1/2) - ..."); the package's docstring says how the room's rules
are written where PokerStars has no line for them."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from zoneinfo import ZoneInfo

from pokerroom.core.cards import Card
from pokerroom.core.evaluator import (
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    ONE_PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    best_five,
    category,
    evaluate_ints,
)
from pokerroom.core.events import (
    Acted,
    BoardDealt,
    HoleDealt,
    Mucked,
    Posted,
    PotAwarded,
    Shown,
    StreetEnded,
    UncalledReturned,
)
from pokerroom.core.structures import Game, Structure
from pokerroom.histories.common import (
    LIVE_BLINDS,
    STRADDLE,
    FinishedHand,
    check,
    shows_after,
    spaced,
    utc_time,
    visible_players,
)

_EASTERN = ZoneInfo("America/New_York")  # PokerStars' "ET", daylight saving time included
_RANK = ("Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King",
         "Ace")
_RANKS = ("Deuces", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens", "Jacks",
          "Queens", "Kings", "Aces")
_STUD_STREETS = ("3rd", "4th", "5th", "6th", "7th")
_HOLDEM_STREETS = ("Flop", "Turn", "River")


def hand_name(cards: Sequence[Card]) -> str:
    """The best five of five to seven cards as PokerStars names it: 'a pair of Aces',
    'two pair, Kings and Sevens', 'a straight, Ace to Five', 'a Royal Flush'."""
    value = evaluate_ints(list(cards))
    kind = category(value)
    five = best_five(cards)  # groups first, then kickers; a wheel ends with its ace
    top, second = five[0].rank, five[-1].rank
    if kind == HIGH_CARD:
        return f"high card {_RANK[top]}"
    if kind == ONE_PAIR:
        return f"a pair of {_RANKS[top]}"
    if kind == TWO_PAIR:
        return f"two pair, {_RANKS[top]} and {_RANKS[five[2].rank]}"
    if kind == THREE_OF_A_KIND:
        return f"three of a kind, {_RANKS[top]}"
    if kind == FLUSH:
        return f"a flush, {_RANK[top]} high"
    if kind == FULL_HOUSE:
        return f"a full house, {_RANKS[top]} full of {_RANKS[five[3].rank]}"
    if kind == FOUR_OF_A_KIND:
        return f"four of a kind, {_RANKS[top]}"
    if kind == STRAIGHT_FLUSH and top == 12:
        return "a Royal Flush"
    name = "a straight flush" if kind == STRAIGHT_FLUSH else "a straight"
    assert kind in (STRAIGHT, STRAIGHT_FLUSH)
    return f"{name}, {_RANK[second]} to {_RANK[top]}"


def _stamp(moment: datetime.datetime) -> str:
    """A time as PokerStars writes it: '2017/08/08 6:16:30' (the hour not padded)."""
    return f"{moment:%Y/%m/%d} {moment.hour}:{moment:%M:%S}"


def _game_title(game: Game) -> str:
    if game.stud_game:
        return f"7 Card Stud Limit ({game.small_bet}/{game.big_bet})"
    if game.structure is Structure.FIXED_LIMIT:
        return f"Hold'em Limit ({game.small_bet}/{game.big_bet})"
    limit = "No Limit" if game.structure is Structure.NO_LIMIT else "Pot Limit"
    return f"Hold'em {limit} ({game.small_blind}/{game.big_blind})"


def _all_in(e: Acted | Posted) -> str:
    return " and is all-in" if e.all_in else ""


def _post_lines(hand: FinishedHand, name: Sequence[str]) -> list[str]:
    order = {"ante": 0, "small_blind": 1, "big_blind": 2}  # the small blind first, heads-up too
    posted = sorted((e for e in hand.events if type(e) is Posted), key=lambda e: order.get(e.kind, 3))
    dead = {e.player: e.amount for e in posted if e.kind == "dead"}
    live = {e.player for e in posted if e.kind in LIVE_BLINDS}
    game = hand.game
    out = []
    for e in posted:
        who = name[e.player]
        if e.kind == "ante":
            out.append(f"{who}: posts the ante {e.amount}{_all_in(e)}")
        elif e.kind == "dead":
            if e.player not in live:  # a dead small blind alone: PokerStars has no word for it
                out.append(f"{who}: posts small blind {e.amount}{_all_in(e)}")
        elif e.kind == STRADDLE:
            out.append(f"{who}: posts straddle {e.amount}{_all_in(e)}")
        elif e.player in dead:
            out.append(f"{who}: posts small & big blinds {dead[e.player] + e.amount}{_all_in(e)}")
        elif e.kind == "small_blind" or (e.kind == "blind" and e.amount == game.small_blind < game.big_blind):
            out.append(f"{who}: posts small blind {e.amount}{_all_in(e)}")
        else:
            out.append(f"{who}: posts big blind {e.amount}{_all_in(e)}")
    return out


def _pot_names(count: int) -> list[str]:
    if count == 1:
        return ["pot"]
    if count == 2:
        return ["main pot", "side pot"]
    return ["main pot", *(f"side pot-{k}" for k in range(1, count))]


class _Writer:
    """One pass over the hand's events, PokerStars style."""

    def __init__(self, hand: FinishedHand, names: Sequence[str], dealt_shown: set[int]) -> None:
        self.hand = hand
        self.names = names
        self.dealt_shown = dealt_shown  # whose down cards the deal lines show
        self.lines: list[str] = []
        self.level = 0
        self.stud_street = 0  # the stud street whose header was written last (0 = 3rd)
        self.known: list[list[Card]] = [[] for _ in range(hand.n)]  # the cards the deal lines showed
        self.dealt = [0] * hand.n
        self.fold_street: dict[int, int] = {}
        self.street = 0
        self.put_in = [0] * hand.n  # chips put in besides antes

    def run(self) -> None:
        hand, game = self.hand, self.hand.game
        stud = game.stud_game
        self.lines += _post_lines(hand, self.names)
        for e in hand.events:
            if type(e) is Posted and e.kind != "ante":
                self.put_in[e.player] += e.amount
        if not stud:
            self.lines.append("*** HOLE CARDS ***")
            live = (*LIVE_BLINDS, STRADDLE)
            posts = [e for e in hand.events if type(e) is Posted and e.kind in live]
            top = max([e.amount for e in posts], default=0)
            straddled = any(e.kind == STRADDLE for e in posts)  # D10: the level is the full straddle
            self.level = max(top, 2 * game.big_blind if straddled else game.big_blind) if top else 0
        else:
            self.lines.append("*** 3rd STREET ***")
        third = 0  # stud: cards of the first deal so far
        for e in hand.events:
            t = type(e)
            if t is HoleDealt:
                assert isinstance(e, HoleDealt)
                if stud:
                    if self.dealt[e.player] < 3:
                        self.dealt[e.player] += 1
                        third += 1
                        if third == 3 * hand.n:
                            self._stud_third()
                    else:
                        self._stud_card(e)
                else:
                    self.dealt[e.player] += 1
                    if self.dealt[e.player] == 2 and e.player in self.dealt_shown:
                        cards = hand.holes[e.player][:2]
                        self.lines.append(f"Dealt to {self.names[e.player]} [{spaced(cards)}]")
            elif t is BoardDealt:
                assert isinstance(e, BoardDealt)
                self._board(e)
            elif t is Acted:
                assert isinstance(e, Acted)
                self._acted(e)
            elif t is UncalledReturned:
                assert isinstance(e, UncalledReturned)
                self.put_in[e.player] -= e.amount
                self.lines.append(f"Uncalled bet ({e.amount}) returned to {self.names[e.player]}")
            elif t is StreetEnded:
                self.level = 0

    def _stud_third(self) -> None:
        hand = self.hand
        for p in range(hand.n):
            cards = [c for c, up in zip(hand.holes[p][:3], hand.face_up[p][:3], strict=True)
                     if up or p in self.dealt_shown]
            self.known[p] = cards
            self.lines.append(f"Dealt to {self.names[p]} [{spaced(cards)}]")

    def _stud_card(self, e: HoleDealt) -> None:
        hand, p = self.hand, e.player
        k = self.dealt[p]
        self.dealt[p] += 1
        street = k - 2  # the card at index 3 opens 4th street (1)
        if street != self.stud_street:
            self.stud_street = street
            self.lines.append("*** RIVER ***" if street == 4 else f"*** {_STUD_STREETS[street]} STREET ***")
        card = hand.holes[p][k]
        if e.face_up or p in self.dealt_shown:
            before = f"[{spaced(self.known[p])}] " if self.known[p] else ""
            self.lines.append(f"Dealt to {self.names[p]} {before}[{card}]")
            self.known[p].append(card)

    def _board(self, e: BoardDealt) -> None:
        board = self.hand.board
        if self.hand.game.stud_game:  # a community card on a seventh street short of cards (S9)
            self.stud_street = 4
            self.lines.append(f"*** RIVER *** [{spaced(e.cards)}]")
            return
        self.street = e.street
        if e.street == 1:
            self.lines.append(f"*** FLOP *** [{spaced(board[:3])}]")
        else:
            end = 3 + e.street - 1
            title = "TURN" if e.street == 2 else "RIVER"
            self.lines.append(f"*** {title} *** [{spaced(board[:end - 1])}] [{board[end - 1]}]")

    def _acted(self, e: Acted) -> None:
        who = self.names[e.player]
        action = e.action
        self.put_in[e.player] += e.amount
        if action == "fold":
            self.fold_street[e.player] = self.stud_street if self.hand.game.stud_game else self.street
            self.lines.append(f"{who}: folds")
        elif action == "check":
            self.lines.append(f"{who}: checks")
        elif action == "call":
            self.lines.append(f"{who}: calls {e.amount}{_all_in(e)}")
        elif action == "bet":
            self.level = e.to
            self.lines.append(f"{who}: bets {e.to}{_all_in(e)}")
        elif action == "raise":
            self.lines.append(f"{who}: raises {e.to - self.level} to {e.to}{_all_in(e)}")
            self.level = e.to
        elif action == "complete":
            self.level = e.to
            self.lines.append(f"{who}: completes it to {e.to}{_all_in(e)}")
        elif action == "bring_in":
            self.level = self.hand.game.bring_in
            self.lines.append(f"{who}: brings in for {e.amount}{_all_in(e)}")
        else:  # protected (D7)
            self.lines.append(f"{who}: times out and is all-in protected")


def _showdown_order(hand: FinishedHand) -> list[int]:
    order: list[int] = []
    for e in hand.events:
        if (type(e) is Shown or type(e) is Mucked) and e.player not in order:
            order.append(e.player)
    rest = [p for p in range(hand.n) if p in hand.reached_showdown and p not in order]
    return order + rest


def to_pokerstars(
    hand: FinishedHand,
    *,
    names: Sequence[str],
    seats: Sequence[int],
    table: str,
    number: int,
    button_seat: int,
    started_at: float,
    viewer: int | None = None,
    reveal_all: bool = False,
    max_seats: int | None = None,
    reveals: Mapping[int, Sequence[Card]] | None = None,
) -> str:
    """PokerStars-style text of a complete hand, for trackers. ``max_seats`` is the table
    size ("6-max"; the highest seat number when not given); ``reveals``: the cards each
    player (an index) showed after the hand (D12)."""
    check(hand, names, seats, viewer)
    shows = shows_after(hand, reveals)
    showed = {p for p, _ in shows}
    game, n = hand.game, hand.n
    stud = game.stud_game
    visible = visible_players(hand, viewer, reveal_all)
    dealt_shown = set(range(n)) if reveal_all else ({viewer} if viewer is not None else set())
    size = max_seats if max_seats is not None else max(seats)
    utc = utc_time(started_at)
    eastern = utc.astimezone(_EASTERN)
    lines = [f"PokerStars Hand #{number}:  {_game_title(game)} - {_stamp(utc)} UTC [{_stamp(eastern)} ET]"]
    lines.append(f"Table '{table}' {size}-max" + ("" if stud else f" Seat #{button_seat} is the button"))
    by_seat = sorted(range(n), key=lambda p: seats[p])
    lines += [f"Seat {seats[p]}: {names[p]} ({hand.starting_stacks[p]} in chips)" for p in by_seat]
    writer = _Writer(hand, names, dealt_shown)
    writer.run()
    lines += writer.lines

    awards = [e for e in hand.events if type(e) is PotAwarded]
    pot_names = _pot_names(len(awards))
    collected = [
        f"{names[w]} collected {share} from {pot_names[e.pot]}"
        for e in awards
        for w, share in zip(e.winners, e.shares, strict=True)
    ]
    described: dict[int, str] = {}
    showdown = _showdown_order(hand) if hand.reached_showdown else []
    for p in showdown:
        cards = [*hand.holes[p], *hand.board]
        described[p] = hand_name(cards) if len(cards) >= 5 else ""
    if showdown:
        lines.append("*** SHOW DOWN ***")
        for p in showdown:
            if p in hand.shown:
                lines.append(f"{names[p]}: shows [{spaced(hand.holes[p])}] ({described[p]})")
            elif p in hand.mucked:
                lines.append(f"{names[p]}: mucks hand")
            else:
                lines.append(f"{names[p]}: doesn't show hand")
        lines += collected
    else:
        lines += collected
        lines += [f"{names[p]}: doesn't show hand" for p in range(n) if hand.winnings[p] and p not in showed]
    lines += [f"{names[p]}: shows [{spaced(cards)}]" for p, cards in shows]  # D12

    lines.append("*** SUMMARY ***")
    total = sum(e.amount for e in awards)
    if len(awards) <= 1:
        lines.append(f"Total pot {total} | Rake 0")
    else:
        amounts = {e.pot: e.amount for e in awards}
        parts = " ".join(f"{pot_names[k].capitalize()} {amounts[k]}." for k in sorted(amounts))
        lines.append(f"Total pot {total} {parts} | Rake 0")
    if hand.board:
        lines.append(f"Board [{spaced(hand.board)}]")
    tags = _position_tags(hand, seats, button_seat)
    for p in by_seat:
        head = f"Seat {seats[p]}: {names[p]}{tags[p]}"
        won = hand.winnings[p]
        if hand.folded[p]:
            street = writer.fold_street.get(p, 0)
            when_folded = (f"on the {_STUD_STREETS[street]} Street" if stud
                           else "before Flop" if street == 0 else f"on the {_HOLDEM_STREETS[street - 1]}")
            quiet = " (didn't bet)" if writer.put_in[p] == 0 else ""
            lines.append(f"{head} folded {when_folded}{quiet}")
        elif p in hand.reached_showdown:
            assert p in visible
            shown = spaced(hand.holes[p])
            verb = "showed" if p in hand.shown else "mucked"
            if p in hand.mucked:
                lines.append(f"{head} mucked [{shown}]")
            elif won:
                lines.append(f"{head} {verb} [{shown}] and won ({won}) with {described[p]}")
            else:
                lines.append(f"{head} {verb} [{shown}] and lost with {described[p]}")
        else:
            lines.append(f"{head} collected ({won})")
    return "\n".join(lines) + "\n"


def _position_tags(hand: FinishedHand, seats: Sequence[int], button_seat: int) -> list[str]:
    tags = [""] * hand.n
    if hand.game.stud_game:
        return tags
    for p in range(hand.n):
        if seats[p] == button_seat:
            tags[p] += " (button)"
    for e in hand.events:
        if type(e) is Posted and e.kind in ("small_blind", "big_blind"):
            tags[e.player] += " (small blind)" if e.kind == "small_blind" else " (big blind)"
    return tags

