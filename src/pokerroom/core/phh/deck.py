"""Deck building: the deck a hand's recorded cards imply, in the engine's dealing order.

Hold'em: the hole deals transposed into the real dealing order (a card to each player,
then the second), then burn, flop, burn, turn, burn, river. Stud: third street transposed,
then per later street a burn and the street's cards in the file's order; streets dealt
after the engine reshuffles the burned cards into the stub (S9, D4) are handed over to a
``_Reshuffle`` callback. Burns, '??' and cards the file never deals get the first cards
that appear nowhere in the file; ``filled`` says which they are, so that a showdown that
needs one is an error, not a guess.
"""

from __future__ import annotations

from typing import Final, cast

from pokerroom.core.cards import FULL_DECK, Card
from pokerroom.core.phh.grammar import Action, PHHError, UnsupportedError, _fmt, _whole


def _build_deck(acts: list[Action], n: int) -> tuple[list[Card], set[Card]]:
    """The deck in dealing order, and the cards we filled in for '??' or undealt cards."""
    holes: list[list[Card | None]] = [[] for _ in range(n)]
    board: list[Card | None] = []
    seen = _unseen()
    unknown = False
    for i, a in enumerate(acts):
        verb = a.verb
        if verb == "dh" or verb == "db":
            cards = a.cards
            if cards is None:
                continue
            if _note_cards(i, a, cards, seen):
                unknown = True
            (board if a.target is None else holes[a.target]).extend(cards)
        elif verb == "cbr":
            if not isinstance(a.amount, int):
                _whole(f"actions[{i}] {a.text!r}", a.amount)
        elif verb == "sd" or verb == "pb":
            what = "draws ('sd')" if verb == "sd" else "bring-ins ('pb') in hold'em"
            raise UnsupportedError(f"unsupported: actions[{i}] {a.text!r}: {what}")
    for p, dealt_to in enumerate(holes):
        if len(dealt_to) != 2:
            raise PHHError(f"p{p + 1} is dealt {len(dealt_to)} hole cards: hold'em needs 2")
    if len(board) > 5:
        raise PHHError(f"the file deals {len(board)} board cards: hold'em has 5")
    if unknown:  # a hand shown (at the showdown or after the hand, D12) reveals unknown hole cards
        _reveal_shown(acts, holes, seen)
    # burns, unknown cards and undealt board cards: the first cards the file does not use
    board += [None] * (5 - len(board))
    order: list[Card | None] = [h[0] for h in holes]
    order += [h[1] for h in holes]
    order += [None, board[0], board[1], board[2], None, board[3], None, board[4]]
    filled: set[Card] = set()
    k = 0
    burns = (2 * n, 2 * n + 4, 2 * n + 6)
    for j in [j for j, c in enumerate(order) if c is None]:
        while seen[k] >= 0:
            k += 1
        c = order[j] = FULL_DECK[k]
        k += 1
        if j not in burns:
            filled.add(c)
    return cast("list[Card]", order), filled


def _unseen() -> list[int]:
    """Where the file deals each card (by the card's number 0..51): an index into the
    actions, -1 for a card it does not deal."""
    return [-1] * _DECK_SIZE


def _note_cards(i: int, a: Action, cards: tuple[Card | None, ...], seen: list[int]) -> bool:
    """Record where the file deals each card; True if one is unknown ('??'). A card dealt
    twice is an error naming both places."""
    unknown = False
    for c in cards:
        if c is None:
            unknown = True
        elif seen[c] >= 0:
            raise _twice(i, a, c, seen[c])
        else:
            seen[c] = i
    return unknown


def _reveal_shown(acts: list[Action], holes: list[list[Card | None]], seen: list[int]) -> None:
    """Fill the unknown ('??') cards of the players that 'sm' lines show: a shown card
    goes to its own position if that card is unknown, else to the player's first unknown."""
    for i, a in enumerate(acts):
        if a.verb == "sm" and a.cards and a.actor is not None:
            dealt = holes[a.actor]
            for k, c in enumerate(a.cards):
                if c is not None and c not in dealt and None in dealt:
                    if seen[c] >= 0:
                        raise _twice(i, a, c, seen[c])
                    seen[c] = i
                    dealt[k if k < len(dealt) and dealt[k] is None else dealt.index(None)] = c


def _twice(i: int, a: Action, c: Card, first: int) -> PHHError:
    return PHHError(f"actions[{i}] {a.text!r}: card {c} appears twice (also actions[{first}])")


# A later stud street as the file deals it: (player, index into that player's cards), the
# player None for the community card.
_Street = list[tuple[int | None, int]]
_DECK_SIZE: Final = len(FULL_DECK)


_Later = list[tuple[bool, list[Card | None]]]  # streets dealt after a reshuffle: (community?, cards)


def _build_stud_deck(acts: list[Action], n: int) -> tuple[list[Card], set[Card], _Later]:
    """Stud: the deck in dealing order, the cards that appear nowhere in the file (filled in
    for burns, '??' and cards the file does not deal), and the streets to deal after the
    engine reshuffles (community?, cards) in the order the file deals them."""
    holes: list[list[Card | None]] = [[] for _ in range(n)]
    board: list[Card | None] = []
    seen = _unseen()
    streets: list[_Street] = []
    current: _Street | None = None
    unknown = False
    for i, a in enumerate(acts):
        verb = a.verb
        if verb == "dh" or verb == "db":
            cards = a.cards
            if cards is None:
                continue
            if _note_cards(i, a, cards, seen):
                unknown = True
            if verb == "db":
                if len(cards) != 1 or board:
                    raise PHHError(f"actions[{i}] {a.text!r}: stud has at most one community card, dealt "
                                   "on a seventh street short of cards (S9): 'd db' with one card")
                board.append(cards[0])
                current = [(None, 0)]
                streets.append(current)
                continue
            p = a.target if a.target is not None else 0
            dealt = holes[p]
            if len(dealt) < 3:  # third street
                if len(dealt) + len(cards) > 3:
                    raise PHHError(f"actions[{i}] {a.text!r}: third street is three cards (two down, "
                                   f"one up), this makes {len(dealt) + len(cards)} for p{p + 1}")
                dealt.extend(cards)
                continue
            if len(cards) != 1:
                raise PHHError(f"actions[{i}] {a.text!r}: after third street a 'd dh' line deals one card")
            if len(dealt) == 7:
                raise PHHError(f"actions[{i}] {a.text!r}: p{p + 1} already has seven cards")
            short = [q for q in range(n) if len(holes[q]) < 3]
            if short:
                raise PHHError(f"actions[{i}] {a.text!r}: p{short[0] + 1} is not dealt third street yet")
            if current is None or current[0][0] is None or any(q == p for q, _ in current):
                current = []
                streets.append(current)
            current.append((p, len(dealt)))
            dealt.append(cards[0])
        elif verb == "f" or verb == "cc" or verb == "cbr" or verb == "pb":
            current = None  # a betting round: the next deal starts a street
            if verb == "cbr":
                _whole(f"actions[{i}] {a.text!r}", a.amount)
        elif verb == "sd":
            raise UnsupportedError(f"unsupported: actions[{i}] {a.text!r}: draws ('sd')")
    for p, dealt_to in enumerate(holes):
        if len(dealt_to) < 3:
            raise PHHError(f"p{p + 1} is dealt {len(dealt_to)} cards on third street: stud needs 3 "
                           "(two down, one up)")
    if unknown:  # a hand shown at the showdown reveals unknown cards, in dealing order
        _reveal_shown(acts, holes, seen)
    order: list[Card | None] = [holes[p][r] for r in range(3) for p in range(n)]
    burns: list[int] = []  # where the burns go in ``order``
    later: _Later = []
    for street in streets:
        community = street[0][0] is None
        street_cards = [board[0] if q is None else holes[q][k] for q, k in street]
        if later or community or _DECK_SIZE - len(order) < len(street_cards) + 1:
            later.append((community, street_cards))
        else:
            burns.append(len(order))
            order.append(None)
            order.extend(street_cards)
    # '??' first, then the burns: cards that appear nowhere in the file; when the burns are
    # reshuffled into the stub (S9), a burn may also be a card the file deals after that
    spare = [c for c in FULL_DECK if seen[c] < 0]
    unknown_at = [k for k, c in enumerate(order) if c is None and k not in burns]
    reused = [c for _, cards in later for c in cards if c is not None]
    fill = [*spare, *reused]
    if len(unknown_at) > len(spare) or len(unknown_at) + len(burns) > len(fill):
        count = _DECK_SIZE - seen.count(-1)
        raise PHHError(f"the file deals more cards than a deck holds ({count} and {len(burns)} burns)")
    for k, c in zip([*unknown_at, *burns], fill, strict=False):
        order[k] = c
    deck = cast("list[Card]", order)
    in_deck = set(deck)
    deck += [c for c in FULL_DECK if c not in in_deck]
    return deck, set(spare), later


class _Reshuffle:
    """The ``reshuffle`` callback of a stud replay (S9, D4): the stub and the burned cards
    reshuffled so that the cards the file deals next come first, a burn before each street
    (spare cards for burns and '??')."""

    def __init__(self, later: _Later) -> None:
        self.later = later

    def __call__(self, pool: tuple[Card, ...]) -> list[Card]:
        rest = list(pool)
        wanted = {c for _, cards in self.later for c in cards if c is not None}
        order: list[Card] = []
        while self.later:
            community, cards = self.later[0]
            if not community and len(rest) < len(cards) + 1:
                break  # the engine will deal a community card: the replay reports the difference
            gone = [c for c in cards if c is not None and c not in rest]
            if gone:
                raise PHHError(f"the file deals {_fmt(gone)} after the burned cards were shuffled into the "
                               f"stub (S9), but the {len(pool)} cards reshuffled are {_fmt(sorted(pool))}")
            slots: list[Card | None] = [None, *cards] if not community or len(rest) >= 2 else list(cards)
            for c in slots:
                if c is None:
                    free = [x for x in rest if x not in wanted]
                    if not free:
                        raise PHHError(f"too few cards to burn after the reshuffle: {_fmt(sorted(pool))}")
                    c = free[0]
                rest.remove(c)
                order.append(c)
            wanted.difference_update(cards)
            del self.later[0]
        return order + rest

