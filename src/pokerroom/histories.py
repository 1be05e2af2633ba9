"""Hand histories of finished hands, as text: PHH (the open standard) and PokerStars style.

Both writers take a complete engine ``Hand`` (players in PHH order: player 0 is the first
seat left of the button, heads-up player 0 is the big blind) with the players' ``names``
and table ``seats`` in the same order. Nothing here does I/O.

The server stores ``snapshot(hand)`` when a hand ends (plain JSON values, cheap to make)
and writes a text only when a player asks for it: ``restore`` rebuilds a ``StoredHand``
that the writers take in place of a ``Hand`` and that gives the same texts byte for byte;
``stored_text`` does it all from a stored history (and serves the older ones that kept
each player's texts).

Hidden cards (D6, case 49): a player's hole cards are written only if ``reveal_all``, or
he is the ``viewer`` (a player index), or he reached the showdown (shown or mucked: the
previous-hand record reveals both). Cards folded before the showdown, and those of a
player who won because everyone else folded, stay hidden; stud up cards are always seen,
and undealt board cards are never written (no rabbit hunting).

``to_phh`` writes a ``.phh`` text (core.phh ``HandHistory`` and ``dumps``) that
``phh.replay`` plays back to the same final stacks whenever PHH can say what happened;
hidden cards are ``??``. Forced bets as PHH has them:

- ``antes`` and ``blinds_or_straddles`` hold what each player was due (a player all in
  for less still has the full amount there, as the engine takes it); heads-up both are
  reversed, as the standard says.
- A dead blind (a missed small blind paid back, H7) is dead money: it is added to the
  player's ``antes`` entry, which PHH and our replay treat as dead money too, and named in
  ``_dead_blinds``. It replays exactly unless somebody is all in on an ante or on the dead
  blind itself (the engine lets him win all the dead blinds, dead antes are split at his
  level).
- A straddle (D10, the player after the big blind posts twice the big blind) is the third
  entry of ``blinds_or_straddles`` (``[1, 2, 4, 0, 0, 0]``), as PHH writes an under-the-gun
  straddle; it replays.
- The big blind where PHH does not put it (a dead small blind makes the first player
  left of the button the big blind, so ``blinds_or_straddles`` starts with it) and extra
  live blinds (a newcomer's or a returning player's big blind, which are not straddles)
  are written where the engine had them, with ``_big_blind_player`` (1-based, as ``pN``)
  and ``_live_blinds``. PHH cannot express these: our replay refuses such a file ("bad
  stakes", "straddles" or "_big_blind_player").
- All-in protection on a timeout (D7) has no PHH action: it is a commentary line
  ``# pN all-in protection ...`` and ``_all_in_protection``; such a file does not replay.
- Non-default fixed-limit rules (``cap``, ``heads_up_uncapped``, stud
  ``open_pair_big_bet``) go in ``_cap``, ``_heads_up_uncapped``, ``_open_pair_big_bet``;
  the replay plays the defaults.

Shows after the hand (D12: a player who won uncontested, or folded, shows one card or all):
``reveals`` maps a player index to the cards he showed; they are public, so every text
writes them: PHH as ``pN sm`` actions after the end of the hand (a card not shown is
``??``; stud up cards are known), PokerStars as ``Name: shows [Ah Kd]`` lines after the
hand's result, before the summary. A stored history keeps them at its top level,
``"reveals": {"<seat>": ["Ah", "Kd"]}``, which ``stored_text`` and ``full_history`` read.

User-defined fields start with an underscore, as PokerKit expects. The table name, seats,
hand number, players, finishing stacks, winnings and time are the standard optional
fields (``table``, ``seats``, ``hand``, ``players``, ``finishing_stacks``, ``winnings``,
``time``/``time_zone``/``day``/``month``/``year`` in UTC).

``to_pokerstars`` writes the text trackers read ("PokerStars Hand #N: Hold'em No Limit
(1/2) - ..."). Chips are whole numbers and there is no rake. The amounts are the engine's:
when everyone folds to a raise, the blinds did not call it (H12, case 1), so all of it is
"Uncalled bet" and the blinds are the pot. A straddle is "X: posts straddle 4", as
PokerStars writes it. PokerStars has no line for a dead blind alone (written "posts small
blind"), for all-in protection (written "X: times out and is all-in protected"), nor for
the last hand at a showdown that wins unshown while D6 reveals it: "X: doesn't show hand"
and, in the summary, "mucked [..] and won".
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any, Protocol

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
from pokerroom.core.phh import HandHistory, dumps
from pokerroom.core.structures import Game, Structure
from pokerroom.fairness import leaves_of, openings_of
from pokerroom.table.record import FinishedHand as RecordedHand
from pokerroom.table.record import record_hand
from pokerroom.wire import record_json

__all__ = [
    "FinishedHand",
    "HistoryError",
    "StoredHand",
    "full_history",
    "hand_name",
    "restore",
    "snapshot",
    "stored_text",
    "to_phh",
    "to_pokerstars",
    "visible_players",
]

_LIVE_BLINDS = ("small_blind", "big_blind", "blind")
_STRADDLE = "straddle"  # D10


class HistoryError(ValueError):
    """A hand history that cannot be written (a live hand, names or seats that do not fit),
    or a stored one that cannot be read back (``restore``, ``full_history``,
    ``stored_text``: not what the server writes)."""


@contextmanager
def _reading(what: str) -> Iterator[None]:
    """Reading back what the server stored: anything that is not what it writes (a damaged
    row, a history edited by hand) is a HistoryError saying so, the one error the readers
    document, never a KeyError or a CardError from deep inside one of them."""
    try:
        yield
    except HistoryError:
        raise
    except (LookupError, TypeError, ValueError, AttributeError, RecursionError) as e:
        raise HistoryError(f"{what} is not as the server stores it ({type(e).__name__}: {e})") from None


class FinishedHand(RecordedHand, Protocol):
    """What the writers read of a hand: a core ``Hand``, or a ``StoredHand`` rebuilt from
    its ``snapshot``; what the previous-hand record reads (table.record.FinishedHand),
    and more."""

    @property
    def game(self) -> Game: ...
    @property
    def n(self) -> int: ...
    @property
    def stacks(self) -> Sequence[int]: ...
    @property
    def winnings(self) -> Sequence[int]: ...
    @property
    def big_blind_position(self) -> int: ...
    @property
    def complete(self) -> bool: ...


def visible_players(hand: FinishedHand, viewer: int | None = None, reveal_all: bool = False) -> set[int]:
    """The players whose hole cards a history written for ``viewer`` shows (D6)."""
    if reveal_all:
        return set(range(hand.n))
    shown = set(hand.reached_showdown)
    if viewer is not None:
        shown.add(viewer)
    return shown


def _check(hand: FinishedHand, names: Sequence[str], seats: Sequence[int], viewer: int | None) -> None:
    if not hand.complete:
        raise HistoryError("a hand history is written once the hand is over")
    if len(names) != hand.n or len(seats) != hand.n:
        raise HistoryError(
            f"{hand.n} players need {hand.n} names and seats, got {len(names)} and {len(seats)}"
        )
    if len(set(seats)) != hand.n:
        raise HistoryError(f"two players in one seat: {list(seats)}")
    if viewer is not None and (type(viewer) is not int or not 0 <= viewer < hand.n):
        raise HistoryError(f"viewer {viewer!r} is not a player of this hand")


def _shows(hand: FinishedHand, reveals: Mapping[int, Sequence[Card]] | None) -> list[tuple[int, list[Card]]]:
    """The shows after the hand (D12) as (player, the cards he showed, in his hole order),
    checked; a player who reached the showdown is left out (D6 reveals his hand already)."""
    out: list[tuple[int, list[Card]]] = []
    for p, cards in (reveals or {}).items():
        if type(p) is not int or not 0 <= p < hand.n:
            raise HistoryError(f"a show after the hand by {p!r}, not a player of this hand")
        holes = hand.holes[p]
        if not cards or any(c not in holes for c in cards):
            raise HistoryError(f"player {p} shows {_cards(cards)}, not his cards {_cards(holes)}")
        if p not in hand.reached_showdown:
            out.append((p, [c for c in holes if c in cards]))
    return out


def _cards(cards: Iterable[Card | None]) -> str:
    return "".join("??" if c is None else str(c) for c in cards)


def _spaced(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in cards)


# ---------------------------------------------------------------------------- forced bets


@dataclass
class _Forced:
    """What each player was due, in PHH order (not reversed heads-up)."""

    antes: list[int]
    dead: list[int]
    blinds: list[int]
    extra_live: list[int]  # live blinds besides the small and the big blind
    standard: bool  # the big and small blinds sit where PHH puts them


def _forced(hand: FinishedHand) -> _Forced:
    game, n = hand.game, hand.n
    antes, dead, blinds, extra_live = [0] * n, [0] * n, [0] * n, [0] * n
    broke = [False] * n  # all in on an ante or a dead blind
    for e in hand.events:
        if type(e) is not Posted:
            continue
        p = e.player
        if e.kind == "ante":
            antes[p] = max(e.amount, game.ante) if e.all_in else e.amount
            broke[p] = broke[p] or e.all_in
        elif e.kind == "dead":
            dead[p] = e.amount
            broke[p] = broke[p] or e.all_in
        elif e.kind == _STRADDLE:  # D10: the player after the big blind, the third PHH entry
            blinds[p] = 2 * game.big_blind if e.all_in else e.amount
        elif e.kind in _LIVE_BLINDS:
            due = e.amount
            if e.all_in:
                due = game.small_blind if e.kind == "small_blind" else game.big_blind
            blinds[p] = due
            if e.kind == "blind":
                extra_live[p] = due
    if game.stud_game:
        return _Forced(antes, dead, blinds, extra_live, True)
    bb = hand.big_blind_position
    sb = 1 - bb if n == 2 else (bb - 1) % n
    standard = bb == (0 if n == 2 else 1) and not any(extra_live)
    # a blind the player could not post at all (nothing left after his ante) was still due
    if game.big_blind and not blinds[bb] and broke[bb]:
        blinds[bb] = game.big_blind
    if standard and game.small_blind and not blinds[sb] and broke[sb]:
        blinds[sb] = game.small_blind
    return _Forced(antes, dead, blinds, extra_live, standard)


# ---------------------------------------------------------------------------- PHH


def _when(started_at: float) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(started_at, tz=datetime.UTC).replace(microsecond=0)


def _phh_actions(hand: FinishedHand, visible: set[int]) -> list[str]:
    n = hand.n
    first = 3 if hand.game.stud_game else 2  # cards of the first deal
    pending: list[list[Card | None]] = [[] for _ in range(n)]
    dealt = [0] * n
    out: list[str] = []
    for e in hand.events:
        t = type(e)
        if t is HoleDealt:
            assert isinstance(e, HoleDealt)
            p = e.player
            card = e.card if e.face_up or p in visible else None
            if dealt[p] < first:
                dealt[p] += 1
                pending[p].append(card)
                if sum(dealt) == first * n:
                    out.extend(f"d dh p{q + 1} {_cards(pending[q])}" for q in range(n))
                continue
            dealt[p] += 1
            out.append(f"d dh p{p + 1} {_cards([card])}")
        elif t is BoardDealt:
            assert isinstance(e, BoardDealt)
            out.append(f"d db {_cards(e.cards)}")
        elif t is Acted:
            assert isinstance(e, Acted)
            who = f"p{e.player + 1}"
            if e.action == "fold":
                out.append(f"{who} f")
            elif e.action in ("check", "call"):
                out.append(f"{who} cc")
            elif e.action == "bring_in":
                out.append(f"{who} pb")
            elif e.action == "protected":
                out.append(f"# {who} all-in protection (D7): stays in for the chips already committed")
            else:  # bet, raise, complete
                out.append(f"{who} cbr {e.to}")
        elif t is Shown:
            assert isinstance(e, Shown)
            out.append(f"p{e.player + 1} sm {_cards(e.cards)}")
        elif t is Mucked:
            assert isinstance(e, Mucked)
            out.append(f"p{e.player + 1} sm")  # the cards are in its deal line (D6)
    return out


def to_phh(
    hand: FinishedHand,
    *,
    names: Sequence[str],
    seats: Sequence[int],
    table: str,
    number: int,
    viewer: int | None = None,
    reveal_all: bool = False,
    started_at: float | None = None,
    reveals: Mapping[int, Sequence[Card]] | None = None,
) -> str:
    """The PHH text of a complete hand (see the module docstring for what PHH cannot say);
    ``reveals``: the cards each player (an index) showed after the hand (D12)."""
    _check(hand, names, seats, viewer)
    actions = _phh_actions(hand, visible_players(hand, viewer, reveal_all))
    for p, shown in _shows(hand, reveals):
        up = hand.face_up[p]
        cards = [c if c in shown or (up and up[k]) else None for k, c in enumerate(hand.holes[p])]
        actions.append(f"p{p + 1} sm {_cards(cards)}")
    game, n = hand.game, hand.n
    forced = _forced(hand)
    order = slice(None, None, -1) if n == 2 else slice(None)  # heads-up: forced bets reversed
    antes = [a + d for a, d in zip(forced.antes, forced.dead, strict=True)]
    extra: dict[str, Any] = {"table": table, "seats": list(seats), "winnings": list(hand.winnings)}
    if started_at is not None:
        when = _when(started_at)
        extra |= {"time": when.time(), "time_zone": "UTC", "day": when.day, "month": when.month,
                  "year": when.year}
    if any(forced.dead):
        extra["_dead_blinds"] = forced.dead[order]
    if not game.stud_game and not forced.standard:
        extra["_big_blind_player"] = hand.big_blind_position + 1
    if any(forced.extra_live):
        extra["_live_blinds"] = forced.extra_live[order]
    protected = sorted({e.player + 1 for e in hand.events if type(e) is Acted and e.action == "protected"})
    if protected:
        extra["_all_in_protection"] = protected
    if game.structure.fixed:
        if game.cap != 4:
            extra["_cap"] = game.cap
        if game.heads_up_uncapped:
            extra["_heads_up_uncapped"] = True
        if game.stud_game and not game.open_pair_big_bet:
            extra["_open_pair_big_bet"] = False
    hh = HandHistory(
        variant=game.code,
        antes=list(antes[order]),
        starting_stacks=list(hand.starting_stacks),
        actions=actions,
        blinds_or_straddles=None if game.stud_game else list(forced.blinds[order]),
        min_bet=None if game.structure.fixed else game.min_bet,
        small_bet=game.small_bet if game.structure.fixed else None,
        big_bet=game.big_bet if game.structure.fixed else None,
        bring_in=game.bring_in if game.stud_game else None,
        finishing_stacks=list(hand.stacks),
        players=list(names),
        hand=number,
        ante_trimming_status=True if any(antes) else None,  # H13: antes split at a short ante
        extra=extra,
    )
    return dumps(hh)


# ---------------------------------------------------------------------------- PokerStars

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
    live = {e.player for e in posted if e.kind in _LIVE_BLINDS}
    game = hand.game
    out = []
    for e in posted:
        who = name[e.player]
        if e.kind == "ante":
            out.append(f"{who}: posts the ante {e.amount}{_all_in(e)}")
        elif e.kind == "dead":
            if e.player not in live:  # a dead small blind alone: PokerStars has no word for it
                out.append(f"{who}: posts small blind {e.amount}{_all_in(e)}")
        elif e.kind == _STRADDLE:
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
            live = (*_LIVE_BLINDS, _STRADDLE)
            posts = [e for e in hand.events if type(e) is Posted and e.kind in live]
            top = max([e.amount for e in posts], default=0)
            straddled = any(e.kind == _STRADDLE for e in posts)  # D10: the level is the full straddle
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
                        self.lines.append(f"Dealt to {self.names[e.player]} [{_spaced(cards)}]")
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
            self.lines.append(f"Dealt to {self.names[p]} [{_spaced(cards)}]")

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
            before = f"[{_spaced(self.known[p])}] " if self.known[p] else ""
            self.lines.append(f"Dealt to {self.names[p]} {before}[{card}]")
            self.known[p].append(card)

    def _board(self, e: BoardDealt) -> None:
        board = self.hand.board
        if self.hand.game.stud_game:  # a community card on a seventh street short of cards (S9)
            self.stud_street = 4
            self.lines.append(f"*** RIVER *** [{_spaced(e.cards)}]")
            return
        self.street = e.street
        if e.street == 1:
            self.lines.append(f"*** FLOP *** [{_spaced(board[:3])}]")
        else:
            end = 3 + e.street - 1
            title = "TURN" if e.street == 2 else "RIVER"
            self.lines.append(f"*** {title} *** [{_spaced(board[:end - 1])}] [{board[end - 1]}]")

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
    _check(hand, names, seats, viewer)
    shows = _shows(hand, reveals)
    showed = {p for p, _ in shows}
    game, n = hand.game, hand.n
    stud = game.stud_game
    visible = visible_players(hand, viewer, reveal_all)
    dealt_shown = set(range(n)) if reveal_all else ({viewer} if viewer is not None else set())
    size = max_seats if max_seats is not None else max(seats)
    when = _when(started_at).strftime("%Y/%m/%d %H:%M:%S")
    lines = [f"PokerStars Hand #{number}: {_game_title(game)} - {when} UTC"]
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
                lines.append(f"{names[p]}: shows [{_spaced(hand.holes[p])}] ({described[p]})")
            elif p in hand.mucked:
                lines.append(f"{names[p]}: mucks hand")
            else:
                lines.append(f"{names[p]}: doesn't show hand")
        lines += collected
    else:
        lines += collected
        lines += [f"{names[p]}: doesn't show hand" for p in range(n) if hand.winnings[p] and p not in showed]
    lines += [f"{names[p]}: shows [{_spaced(cards)}]" for p, cards in shows]  # D12

    lines.append("*** SUMMARY ***")
    total = sum(e.amount for e in awards)
    if len(awards) <= 1:
        lines.append(f"Total pot {total} | Rake 0")
    else:
        amounts = {e.pot: e.amount for e in awards}
        parts = " ".join(f"{pot_names[k].capitalize()} {amounts[k]}." for k in sorted(amounts))
        lines.append(f"Total pot {total} {parts} | Rake 0")
    if hand.board:
        lines.append(f"Board [{_spaced(hand.board)}]")
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
            shown = _spaced(hand.holes[p])
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


# ---------------------------------------------------------------------------- snapshots
#
# The server does not write the texts when a hand ends: it stores ``snapshot(hand)``, the
# hand's JSON-ready facts, and writes the .phh or .txt a reader may see when he asks for it
# (``stored_text``). A snapshot holds everything the writers read:
#
#   {"v": 1, "game": {Game's fields, "structure": "NL"}, "n", "big_blind_position",
#    "starting_stacks", "stacks", "winnings", "folded", "holes": ["AsKd", ...],
#    "face_up": [[false, false, true], ...], "board": "KsQs4c", "reached_showdown",
#    "shown", "mucked" (sorted player lists), "complete", "events": [[tag, fields...]]}
#
# Each event is its tag and its fields in order, cards as text ("As", "KsQs4c"):
# "post", "hole", "board", "act", "uncalled", "street", "show", "muck", "pot", "end",
# "reshuffle". ``restore`` rebuilds the same core events and Game as a ``StoredHand``.

SNAPSHOT_VERSION = 1


def _card_text(cards: Iterable[Card]) -> str:
    return "".join(map(str, cards))


def _parse_text(text: str) -> tuple[Card, ...]:
    return tuple(Card(text[i:i + 2]) for i in range(0, len(text), 2))


@lru_cache(maxsize=256)
def _game_fields(game: Game) -> tuple[tuple[str, Any], ...]:
    return tuple(
        (f.name, getattr(game, f.name).value if f.name == "structure" else getattr(game, f.name))
        for f in fields(game)
    )


@lru_cache(maxsize=256)
def _game_of(items: tuple[tuple[str, Any], ...]) -> Game:
    values = dict(items)
    values["structure"] = Structure(values["structure"])
    return Game(**values)


def _encode_event(e: Event) -> list[Any]:
    t = type(e)
    if t is HoleDealt:
        assert isinstance(e, HoleDealt)
        return ["hole", e.player, None if e.card is None else str(e.card), e.face_up]
    if t is Acted:
        return ["act", *e]
    if t is Posted:
        return ["post", *e]
    if t is BoardDealt:
        assert isinstance(e, BoardDealt)
        return ["board", e.street, _card_text(e.cards)]
    if t is StreetEnded:
        return ["street", *e]
    if t is UncalledReturned:
        return ["uncalled", *e]
    if t is Shown:
        assert isinstance(e, Shown)
        return ["show", e.player, _card_text(e.cards), e.forced]
    if t is Mucked:
        assert isinstance(e, Mucked)
        return ["muck", e.player, _card_text(e.cards)]
    if t is PotAwarded:
        assert isinstance(e, PotAwarded)
        return ["pot", e.pot, e.amount, list(e.eligible), list(e.winners), list(e.shares), e.value]
    if t is HandEnded:
        assert isinstance(e, HandEnded)
        return ["end", list(e.stacks), list(e.net)]
    if t is Reshuffled:
        return ["reshuffle", *e]
    raise HistoryError(f"no snapshot for the event {e!r}")


def _decode_event(row: Sequence[Any]) -> Event:
    tag = row[0]
    if tag == "hole":
        _, player, card, face_up = row
        return HoleDealt(player, None if card is None else Card(card), face_up)
    if tag == "act":
        return Acted(*row[1:])
    if tag == "post":
        return Posted(*row[1:])
    if tag == "board":
        return BoardDealt(row[1], _parse_text(row[2]))
    if tag == "street":
        return StreetEnded(*row[1:])
    if tag == "uncalled":
        return UncalledReturned(*row[1:])
    if tag == "show":
        return Shown(row[1], _parse_text(row[2]), row[3])
    if tag == "muck":
        return Mucked(row[1], _parse_text(row[2]))
    if tag == "pot":
        _, pot, amount, eligible, winners, shares, value = row
        return PotAwarded(pot, amount, tuple(eligible), tuple(winners), tuple(shares), value)
    if tag == "end":
        return HandEnded(tuple(row[1]), tuple(row[2]))
    if tag == "reshuffle":
        return Reshuffled(*row[1:])
    raise HistoryError(f"unknown event {tag!r} in a hand snapshot")


def snapshot(hand: FinishedHand) -> dict[str, Any]:
    """The hand as plain JSON values (lists, strings, numbers): everything ``to_phh`` and
    ``to_pokerstars`` read, for ``restore`` to rebuild. Cheap: no text is written."""
    return {
        "v": SNAPSHOT_VERSION,
        "game": dict(_game_fields(hand.game)),
        "n": hand.n,
        "big_blind_position": hand.big_blind_position,
        "starting_stacks": list(hand.starting_stacks),
        "stacks": list(hand.stacks),
        "winnings": list(hand.winnings),
        "folded": list(hand.folded),
        "holes": [_card_text(h) for h in hand.holes],
        "face_up": [list(f) for f in hand.face_up],
        "board": _card_text(hand.board),
        "reached_showdown": sorted(hand.reached_showdown),
        "shown": sorted(hand.shown),
        "mucked": sorted(hand.mucked),
        "complete": hand.complete,
        "events": [_encode_event(e) for e in hand.events],
    }


@dataclass(frozen=True, slots=True)
class StoredHand:
    """A finished hand rebuilt from its ``snapshot``: read-only, and what the writers need
    of a ``Hand`` (the same core events, cards and Game)."""

    game: Game
    n: int
    events: tuple[Event, ...]
    holes: tuple[tuple[Card, ...], ...]
    face_up: tuple[tuple[bool, ...], ...]
    board: tuple[Card, ...]
    starting_stacks: tuple[int, ...]
    stacks: tuple[int, ...]
    winnings: tuple[int, ...]
    folded: tuple[bool, ...]
    reached_showdown: frozenset[int]
    shown: frozenset[int]
    mucked: frozenset[int]
    big_blind_position: int
    complete: bool


def restore(data: Mapping[str, Any]) -> StoredHand:
    """The hand a ``snapshot`` (or its JSON read back) describes."""
    with _reading("a hand snapshot"):
        if data.get("v") != SNAPSHOT_VERSION:
            raise HistoryError(f"a hand snapshot of version {data.get('v')!r}, not {SNAPSHOT_VERSION}")
        return StoredHand(
            game=_game_of(tuple(data["game"].items())),
            n=data["n"],
            events=tuple(_decode_event(row) for row in data["events"]),
            holes=tuple(_parse_text(h) for h in data["holes"]),
            face_up=tuple(tuple(f) for f in data["face_up"]),
            board=_parse_text(data["board"]),
            starting_stacks=tuple(data["starting_stacks"]),
            stacks=tuple(data["stacks"]),
            winnings=tuple(data["winnings"]),
            folded=tuple(data["folded"]),
            reached_showdown=frozenset(data["reached_showdown"]),
            shown=frozenset(data["shown"]),
            mucked=frozenset(data["mucked"]),
            big_blind_position=data["big_blind_position"],
            complete=data["complete"],
        )


def full_history(text: str, deck: str) -> str:
    """A stored ``history`` JSON text as the server wrote it before it stored less: the
    hands of now keep "private.salts" (fairness.salt_text) in place of "leaves" and
    "private.openings", and no "record" (the previous-hand record) but "private.game";
    these are made here, in their old places, from the salts and the hand's ``deck``
    ('AsKd...', the hands row's deck column), and from the hand's snapshot as the table
    makes the record (table.record.record_hand). Any other text (a history of before,
    which has them all) is returned as it is; one of now that is not as the server
    writes it raises HistoryError."""
    with _reading("a stored history"):
        if '"salts"' not in text:
            return text
        history = json.loads(text)
        private = history.get("private")
        if not isinstance(private, dict) or "salts" not in private or "leaves" in history:
            return text
        salts = private["salts"]
        record = None
        if "record" not in history and "game" in private:
            players = history["players"]
            seats = tuple(p["seat"] for p in players)
            record = record_json(record_hand(
                history["number"], private["game"], private["button_seat"], restore(private["hand"]),
                seats, tuple(p["name"] for p in players), reveals=_stored_reveals(history, seats),
            ))
        full: dict[str, Any] = {}
        for key, value in history.items():
            if key == "private":
                continue
            full[key] = value
            if key == "commitment":
                full["leaves"] = leaves_of(salts, deck)
            elif key == "players" and record is not None:
                full["record"] = record
        rest = {k: v for k, v in private.items() if k not in ("salts", "game")}
        full["private"] = {"openings": openings_of(salts, deck), **rest}
        return json.dumps(full)


def _stored_reveals(history: Mapping[str, Any], seats: Sequence[int]) -> dict[int, tuple[Card, ...]] | None:
    """A stored history's shows after the hand (D12), ``"reveals": {"<seat>": ["Ah"]}``, by
    player index; None when it has none."""
    stored = history.get("reveals")
    if not stored:
        return None
    out: dict[int, tuple[Card, ...]] = {}
    for seat, cards in stored.items():
        if not str(seat).isdigit() or int(seat) not in seats:
            raise HistoryError(f"a show after the hand by seat {seat!r}, which did not play it")
        out[list(seats).index(int(seat))] = tuple(Card(c) for c in cards)
    return out


def stored_text(history: Mapping[str, Any], seat: int | None, kind: str) -> str:
    """The ``kind`` ("phh" or "txt") text of a hand the server stored (its ``history``
    JSON read back, with "private"), as the player in ``seat`` may see it, or the public
    text (``seat`` None). Histories written before snapshots keep each player's texts in
    "private.views"; their public texts are in the hands table's phh and text columns.
    A history that is not as the server writes it raises HistoryError."""
    with _reading("a stored history"):
        if kind not in ("phh", "txt"):
            raise HistoryError(f"no {kind!r} text: 'phh' or 'txt'")
        private = history["private"]
        if "hand" not in private:  # an older history, its texts written at the end of the hand
            if seat is None or "views" not in private:
                raise HistoryError("this history keeps no text for this reader")
            return str(private["views"][str(seat)]["phh" if kind == "phh" else "text"])
        seats = [p["seat"] for p in history["players"]]
        names = [p["name"] for p in history["players"]]
        if seat is not None and seat not in seats:
            raise HistoryError(f"seat {seat!r} did not play this hand")
        viewer = None if seat is None else seats.index(seat)
        hand = restore(private["hand"])
        reveals = _stored_reveals(history, seats)
        if kind == "phh":
            return to_phh(hand, names=names, seats=seats, table=history["table"], number=history["number"],
                          viewer=viewer, started_at=history["started_at"], reveals=reveals)
        return to_pokerstars(hand, names=names, seats=seats, table=history["table"], number=history["number"],
                             button_seat=private["button_seat"], started_at=history["started_at"],
                             viewer=viewer, max_seats=private["max_seats"], reveals=reveals)
