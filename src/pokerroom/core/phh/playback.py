"""Replay: a hand history run through the engine, strictly.

Every action goes to the engine (``Hand``'s public API), ``d dh``/``d db`` lines and shown
hands are checked against what it dealt, and nothing is repaired: a refused action is a
``ReplayError`` naming ``actions[i]`` (0-based) and the engine's reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final, cast

from pokerroom.core.cards import Card, CardError
from pokerroom.core.events import PotAwarded
from pokerroom.core.hand import BETTING, SHOWDOWN, STREET_NAMES, Hand, IllegalAction
from pokerroom.core.phh.deck import _build_deck, _build_stud_deck, _Reshuffle
from pokerroom.core.phh.files import HandHistory
from pokerroom.core.phh.grammar import (
    Action,
    Chips,
    PHHError,
    ReplayError,
    UnsupportedError,
    _fmt,
    _whole,
    parse_action,
)
from pokerroom.core.pots import split
from pokerroom.core.structures import Game, GameError, Structure

VARIANT_NAMES = {
    "NS": "no-limit short-deck hold'em", "PO": "pot-limit Omaha", "FO/8": "fixed-limit Omaha hi/lo",
    "F7S": "fixed-limit seven card stud", "F7S/8": "fixed-limit stud hi/lo", "FR": "fixed-limit razz",
    "N2L1D": "no-limit 2-7 single draw", "F2L3D": "fixed-limit 2-7 triple draw", "FB": "fixed-limit badugi",
}
_STRUCTURES: Final = {"NT": Structure.NO_LIMIT, "PT": Structure.POT_LIMIT, "FT": Structure.FIXED_LIMIT}


def game_of(hh: HandHistory) -> Game:
    """The engine's game for an NT, PT, FT or F7S hand; UnsupportedError for anything else."""
    _check_ante_trimming(hh)
    if hh.variant == STUD:
        return _stud_game_of(hh)
    structure = _STRUCTURES.get(hh.variant)
    if structure is None:
        name = VARIANT_NAMES.get(hh.variant, "a variant code we do not know")
        raise UnsupportedError(f"unsupported variant {hh.variant!r} ({name})")
    fixed = structure is Structure.FIXED_LIMIT
    blinds: list[int] = hh.blinds_or_straddles or []  # type: ignore[assignment]
    antes: list[int] = hh.antes  # type: ignore[assignment]
    if not (_whole_numbers(blinds) and _whole_numbers(hh.starting_stacks) and _whole_numbers(antes)):
        for name, values in (("blinds_or_straddles", blinds), ("starting_stacks", hh.starting_stacks),
                             ("antes", antes)):
            for v in values:
                _whole(name, v)
    if len(blinds) < 2:
        raise PHHError(f"blinds_or_straddles needs at least two entries, got {blinds}")
    # D10: one straddle, twice the big blind, by the player after the big blind (p3)
    straddle = len(blinds) > 2 and blinds[1] > 0 and blinds[2] == 2 * blinds[1] and not fixed
    for k in range(3 if straddle else 2, len(blinds)):
        if blinds[k]:
            raise UnsupportedError(f"unsupported: straddles (blinds_or_straddles {blinds}): only a third "
                                   "entry of twice the big blind in no limit or pot limit")
    ante = antes[0] if antes else 0  # antes alike, or none
    for a in antes:
        if a != ante:
            ante = 0
            break
    if fixed:
        sizes = (_whole("small_bet", hh.small_bet), _whole("big_bet", hh.big_bet), 0)
    else:
        sizes = (0, 0, _whole("min_bet", hh.min_bet))
    key = (hh.variant, blinds[0], blinds[1], ante, *sizes)
    game = _GAMES.get(key)
    if game is None:
        game = _game(structure, blinds[0], blinds[1], ante, *sizes)
        if len(_GAMES) < 256:
            _GAMES[key] = game
    if "_big_blind_player" in hh.extra:
        # our histories' mark of a big blind where PHH does not put it (no small blind): then
        # [2, 4, 0, 0] is a big blind of 2 and a straddle, which PHH would read as blinds 2/4
        raise UnsupportedError(f"unsupported: the big blind is p{hh.extra['_big_blind_player']}, "
                               "where PHH has no place for it (_big_blind_player)")
    return game


STUD: Final = "F7S"


def _check_ante_trimming(hh: HandHistory) -> None:
    """Our rules split the antes at the level of a player all in on his ante (H13), which
    is PHH's ante_trimming_status = true; without it such a hand plays by other rules."""
    if hh.ante_trimming_status:
        return
    antes = list(hh.antes)[::-1] if len(hh.antes) == 2 else list(hh.antes)
    short = [p + 1 for p, (s, a) in enumerate(zip(hh.starting_stacks, antes, strict=False)) if s < a]
    if short:
        players = ", ".join(f"p{p}" for p in short)
        raise UnsupportedError(
            f"unsupported: ante_trimming_status is false and {players} cannot cover the ante"
        )


def _stud_game_of(hh: HandHistory) -> Game:
    for name in ("starting_stacks", "antes"):
        for v in getattr(hh, name):
            _whole(name, v)
    blinds = hh.blinds_or_straddles
    if blinds is not None and any(blinds):
        raise PHHError(f"stud has antes and a bring-in, not blinds (blinds_or_straddles {blinds})")
    antes = {a for a in hh.antes if a}
    ante = int(antes.pop()) if len(antes) == 1 and all(hh.antes) else 0
    return _stud_game(_whole("small_bet", hh.small_bet), _whole("big_bet", hh.big_bet), ante,
                      _whole("bring_in", hh.bring_in))


@lru_cache(maxsize=64)
def _stud_game(small: int, big: int, ante: int, bring_in: int) -> Game:
    try:
        return Game.stud(small, big, ante=ante, bring_in=bring_in)
    except GameError as e:
        raise PHHError(f"bad stakes: {e}") from None


# Games are immutable values: one per set of stakes is enough (by variant code and stakes)
_GAMES: Final[dict[tuple[str, int, int, int, int, int, int], Game]] = {}


def _whole_numbers(values: Sequence[Chips]) -> bool:
    return all(type(v) is int for v in values)


def _game(structure: Structure, sb: int, bb: int, ante: int, small: int, big: int, min_bet: int) -> Game:
    try:
        if structure.fixed:
            return Game(structure, sb, bb, ante, small_bet=small, big_bet=big)
        return Game(structure, sb, bb, ante, min_bet=min_bet)
    except GameError as e:
        raise PHHError(f"bad stakes: {e}") from None



# The file's own rules (issue 17, item 7): players whose hand the file mucks where our room
# shows it for them, the called last bettor (H14, case 33), each with the action that did
_ByFile = dict[int, int]


def _finish(hand: Hand, filled: set[Card], by_file: _ByFile) -> Hand:
    """After the file's last action: a showdown left undecided is finished by showing the
    hands (cards speak); a hand still in its betting is an error. A showdown must not need
    a card the file left unknown."""
    if not hand.complete:
        if hand.phase != SHOWDOWN:
            street = hand.street_name if hand.game.stud_game else f"the {hand.street_name}"
            raise ReplayError(None, "", f"the actions end before the hand is over: p{(hand.actor or 0) + 1} "
                                        f"is to act on {street}")
        while hand.actor is not None:
            hand.show(hand.actor)
    if filled and hand.reached_showdown:
        _check_known(hand, filled, by_file)
    return hand



def _same(said: tuple[Card | None, ...], actual: list[Card], what: str) -> None:
    if len(said) != len(actual) or any(c is not None and c not in actual for c in said):
        raise PHHError(f"the file says {what} {_fmt(said)}, the engine has {_fmt(actual)}")



def replay(hh: HandHistory) -> Hand:
    """Replay ``hh`` strictly with the engine, by our room's rules; returns the finished hand.
    A muck our room does not allow is an error here: ``verify`` settles it by the file's."""
    hand, by_file = play(hh)
    if by_file:
        p, i = next(iter(by_file.items()))
        raise ReplayError(i, hh.actions[i], f"p{p + 1}'s hand was already shown: our room shows the hand "
                          "of a bettor who was called (H14, case 33); the file's room let him muck it")
    return hand


def play(hh: HandHistory) -> tuple[Hand, _ByFile]:
    """``replay``, except that a called bettor may muck as the file says (the file's rule
    where it records one): the hand and those players ({player: actions index})."""
    game = game_of(hh)
    n = len(hh.starting_stacks)
    acts = hh._parsed_actions  # as the file was read, if the actions are still those
    if acts is None or not _parsed_from(acts, hh.actions):
        acts = [parse_action(a) for a in hh.actions]
    if game.variant == "stud":
        return _replay_stud(hh, game, acts)
    deck, filled = _build_deck(acts, n)
    by_file: _ByFile = {}
    order = slice(None, None, -1 if n == 2 else 1)  # heads-up: forced bets reversed, p1 is the big blind
    antes = cast("list[int]", hh.antes)[order]  # game_of checked that these are whole chips
    blinds = cast("list[int]", hh.blinds_or_straddles)[order]
    try:
        hand = Hand(game, cast("list[int]", hh.starting_stacks), deck, antes=antes, blinds=blinds,
                    big_blind_position=0 if n == 2 else 1, _trusted=True)  # _build_deck checked it
    except (GameError, CardError) as e:
        raise PHHError(f"cannot start the hand: {e}") from None
    board_seen, started = 0, False
    board = hand.board
    for i, a in enumerate(acts):
        verb = a.verb
        try:
            if verb == "f" or verb == "cc" or verb == "cbr":
                if board_seen < len(board):
                    raise PHHError(f"no 'd db' line for the {_fmt(board[board_seen:])} the engine dealt")
                started = True
                # hand.fold(...), not a bound method kept in a variable: compiled, the call is
                # then a native one, without the argument parsing of a Python call
                if verb == "f":
                    hand.fold(a.actor)
                elif verb == "cc":
                    hand.check_call(a.actor)
                else:
                    hand.bet_raise(a.amount, a.actor)
            elif verb == "dh":
                # the deck was built from these very lines, so the cards match by construction
                if started:
                    raise PHHError("hole cards are dealt after the hand has begun")
            elif verb == "db":
                started = True
                cards = a.cards
                assert cards is not None
                need = 3 if board_seen == 0 else 1
                if board_seen >= 5 or len(cards) != need:
                    raise PHHError(f"this 'd db' line should deal {need} card(s), the "
                                   f"{STREET_NAMES[min(3, 1 + max(0, board_seen - 2))]}")
                if len(board) < board_seen + need:
                    who = f"p{hand.actor + 1} is to act" if hand.actor is not None else "the hand is over"
                    raise PHHError(f"the board is dealt before the betting is over ({who})")
                _same(cards, board[board_seen:board_seen + need], "the board has")
                board_seen += need
            elif verb == "sm":
                started = True
                _show_or_muck(hand, a, by_file, i)
        except (IllegalAction, PHHError) as error:
            raise _refused(i, a, hand, error) from None
    return _finish(hand, filled, by_file), by_file


def _parsed_from(acts: list[Action], texts: list[str]) -> bool:
    # by index: compiled, zip would make a tuple per pair
    return len(acts) == len(texts) and all(acts[i].text == texts[i] for i in range(len(acts)))


def _refused(i: int, a: Action, hand: Hand, error: IllegalAction | PHHError) -> ReplayError:
    """The engine's refusal of ``actions[i]``, or our check's error about it, as a ReplayError."""
    if isinstance(error, IllegalAction):
        turn = f" (p{(hand.actor or 0) + 1} is to act)" if error.code == "not_your_turn" else ""
        return ReplayError(i, a.text, f"{error}{turn}", error.code)
    return ReplayError(i, a.text, str(error))


def _check_known(hand: Hand, filled: set[Card], by_file: _ByFile) -> None:
    """The hands the showdown evaluated hold no card we filled in (a pot that the file's
    mucks leave to one player needs no cards)."""
    for ev in hand.events:
        if type(ev) is PotAwarded and ev.value is not None:  # a hand was evaluated
            live = [p for p in ev.eligible if p not in hand.mucked and p not in by_file]
            if len(live) < 2:
                continue
            for p in live:
                if filled.intersection(hand.holes[p]):
                    what = "cards" if hand.game.variant == "stud" else "hole cards"
                    raise PHHError(f"p{p + 1}'s {what} are unknown, but the showdown needs them")
            if filled.intersection(hand.board):
                raise PHHError("the showdown needs the whole board, but the file does not deal all of it")


def _replay_stud(hh: HandHistory, game: Game, acts: list[Action]) -> tuple[Hand, _ByFile]:
    """``replay`` for seven card stud (F7S)."""
    n = len(hh.starting_stacks)
    deck, filled, later = _build_stud_deck(acts, n)
    by_file: _ByFile = {}
    antes = cast("list[int]", hh.antes)[::-1 if n == 2 else 1]  # as PokerKit: reversed heads-up
    try:
        hand = Hand(game, cast("list[int]", hh.starting_stacks), deck, antes=antes,
                    reshuffle=_Reshuffle(later) if later else None)
    except (GameError, CardError) as e:
        raise PHHError(f"cannot start the hand: {e}") from None
    holes, board = hand.holes, hand.board
    dealt = [0] * n  # the cards of each player the file has dealt so far
    board_seen = 0
    for i, a in enumerate(acts):
        verb = a.verb
        try:
            if verb == "f" or verb == "cc" or verb == "cbr" or verb == "pb":
                _all_dealt(hand, dealt, board_seen)
                if verb == "f":
                    hand.fold(a.actor)
                elif verb == "cc":
                    hand.check_call(a.actor)
                elif verb == "cbr" and not _all_in_bring_in(hand, a):
                    hand.bet_raise(a.amount, a.actor)
                else:
                    hand.bring_in(a.actor)
            elif verb == "dh":
                p = a.target if a.target is not None else 0
                cards = a.cards or ()
                k = dealt[p]
                if len(holes[p]) < k + len(cards):
                    raise PHHError(_why_not_dealt(hand, p, board_seen))
                _same_order(cards, holes[p][k:k + len(cards)], f"the file deals p{p + 1}", "the engine dealt")
                dealt[p] = k + len(cards)
            elif verb == "db":
                if len(board) <= board_seen:
                    live = [q for q in range(n) if not hand.folded[q]]
                    if live and len(holes[live[0]]) == 7:
                        raise PHHError("the engine dealt seventh street to every player: there were enough "
                                       "cards, a community card is only for a deck short of cards (S9, D4)")
                    if hand.phase == BETTING and hand.actor is not None:
                        raise PHHError(f"the card is dealt before the betting is over "
                                       f"(p{hand.actor + 1} is to act)")
                    raise PHHError("the engine deals no community card here")
                _same_order(a.cards or (), board[board_seen:board_seen + 1],
                            "the file deals the community card", "the engine dealt")
                board_seen += 1
            elif verb == "sm":
                _show_or_muck(hand, a, by_file, i)
        except (IllegalAction, PHHError) as error:
            raise _refused(i, a, hand, error) from None
    return _finish(hand, filled, by_file), by_file


def _all_in_bring_in(hand: Hand, a: Action) -> bool:
    """Whether 'pN cbr X' is how PokerKit writes a bring-in all in: X is all the player
    has, no more than the bring-in, and he may only post it (case 40)."""
    p = a.actor
    if p is None or a.amount is None or a.amount > hand.game.bring_in or hand.street or hand.actor != p:
        return False
    legal = hand.legal_actions()
    return bool(legal.bring_in) and legal.min_to is None and a.amount == hand.bets[p] + hand.stacks[p]


def _all_dealt(hand: Hand, dealt: list[int], board_seen: int) -> None:
    """Every card the engine dealt has its 'd dh'/'d db' line before the next action."""
    for p, cards in enumerate(hand.holes):
        if len(cards) > dealt[p]:
            raise PHHError(f"no 'd dh' line for the {_fmt(cards[dealt[p]:])} the engine dealt to p{p + 1}")
    if len(hand.board) > board_seen:
        raise PHHError(f"no 'd db' line for the community card {hand.board[board_seen]} the engine dealt")


def _why_not_dealt(hand: Hand, p: int, board_seen: int) -> str:
    if hand.folded[p]:
        return f"p{p + 1} has folded"
    if len(hand.board) > board_seen:
        return (f"the engine dealt a community card ({hand.board[board_seen]}) instead: too few cards "
                "for every player (S9, D4)")
    if hand.phase == BETTING and hand.actor is not None:
        return f"the card is dealt before the betting is over (p{hand.actor + 1} is to act)"
    if len(hand.holes[p]) == 7:
        return f"p{p + 1} already has seven cards"
    return "the hand is over" if hand.complete else f"the engine deals no more cards to p{p + 1}"


def _same_order(said: tuple[Card | None, ...], actual: list[Card], what: str, engine: str) -> None:
    if len(said) != len(actual) or any(c is not None and c != d for c, d in zip(said, actual, strict=True)):
        raise PHHError(f"{what} {_fmt(said)}, {engine} {_fmt(actual)}")


def _show_or_muck(hand: Hand, a: Action, by_file: _ByFile, i: int) -> None:
    p = a.actor if a.actor is not None else -1
    if a.cards is None and not a.dash and _file_may_muck(hand, p, by_file):
        by_file[p] = i
        return
    if hand.complete and p not in hand.reached_showdown and (a.cards is not None or a.dash):
        # D12: a show at the end of the hand by a player who won uncontested or folded
        if a.cards is not None:
            _same(a.cards, hand.holes[p], f"p{p + 1} shows")
        return
    # shown automatically, or the last hand left after the others mucked (it wins unseen):
    # a line showing it confirms the cards
    done = p in hand.shown or (hand.complete and p in hand.reached_showdown and p not in hand.mucked)
    if done or p in hand.mucked:
        if (a.cards is None and not a.dash) or p in hand.mucked:
            how = "mucked" if p in hand.mucked else "shown" if p in hand.shown else "decided (it won unseen)"
            raise PHHError(f"p{p + 1}'s hand was already {how}")
    elif a.cards is None and not a.dash:
        hand.muck(p)
        return
    else:
        hand.verify_show(p)
    if a.cards is not None:
        have = hand.holes[p]
        if done and len(a.cards) < len(have) and hand.game.variant == "stud":
            # shown before the last cards were dealt (an all-in run-out): the first cards, in order
            _same_order(a.cards, have[:len(a.cards)], f"the file says p{p + 1} shows",
                        f"the engine dealt {_fmt(have)}, starting")
        else:
            _same(a.cards, have, f"p{p + 1} shows")
    if not done:
        hand.show(p)



def _file_may_muck(hand: Hand, p: int, by_file: _ByFile) -> bool:
    """Whether the file's muck of p is one our room refuses but other rooms allow: p is the
    called last bettor, whose hand our room showed for him, and nobody at the showdown is
    all in (then every hand is tabled everywhere: TDA 16)."""
    if p != hand.aggressor or p not in hand.shown or p in hand.mucked or p in by_file:
        return False
    stacks, won = hand.stacks, hand.winnings
    return all(stacks[q] - won[q] > 0 for q in hand.reached_showdown)


def settle_by_file(hand: Hand, by_file: _ByFile) -> list[int]:
    """The final stacks with the pots ``hand`` awarded settled again without the hands of
    ``by_file``, mucked as the file says: same pots, same odd-chip order as the engine's
    (seat order from the first left of the button), the hands compared by the engine."""
    stacks = list(hand.stacks)
    for ev in hand.events:
        if type(ev) is not PotAwarded or not by_file.keys() & set(ev.winners):
            continue
        live = [p for p in ev.eligible if p not in hand.mucked and p not in by_file]
        if not live:
            raise PHHError(f"every hand in pot {ev.pot} is mucked")
        values = {p: hand.hand_value(p) or 0 for p in live}
        best = max(values.values())
        winners = tuple(p for p in live if values[p] == best)
        if len(winners) > 1 and hand.game.variant == "stud":
            raise UnsupportedError("unsupported: a stud pot split again after a muck our room does not allow")
        for p, share in zip(ev.winners, ev.shares, strict=True):
            stacks[p] -= share
        for p, share in zip(winners, split(ev.amount, winners), strict=True):
            stacks[p] += share
    return stacks
