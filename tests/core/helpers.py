"""Helpers shared by the hold'em rule and case tests: stacked decks, scripted play."""

from __future__ import annotations

from collections.abc import Sequence

from pokerroom.core.cards import FULL_DECK, Card, parse_cards
from pokerroom.core.hand import Hand
from pokerroom.core.structures import Game

NL12 = Game.no_limit(1, 2)


def stacked_deck(n: int, holes: Sequence[str | None] = (), board: str = "") -> tuple[Card, ...]:
    """A full deck in dealing order: player i gets ``holes[i]`` ('AsKd'; missing or None:
    unused cards), the board comes out as flop, turn, river with a burn before each."""
    given = [parse_cards(h) if h else None for h in holes] + [None] * (n - len(holes))
    board_cards = parse_cards(board)
    used = {c for h in given if h for c in h} | set(board_cards)
    spare = iter([c for c in reversed(FULL_DECK) if c not in used])
    two = [h or (next(spare), next(spare)) for h in given]
    b = list(board_cards) + [next(spare) for _ in range(5 - len(board_cards))]
    order = [two[i][r] for r in range(2) for i in range(n)]
    order += [next(spare), *b[:3], next(spare), b[3], next(spare), b[4], *spare]
    assert len(order) == 52 and len(set(order)) == 52, "a card was given twice"
    return tuple(order)


def deal(
    game: Game,
    stacks: Sequence[int],
    holes: Sequence[str | None] = (),
    board: str = "",
    **forced: Sequence[int] | int,
) -> Hand:
    """A hand with a stacked deck (see ``stacked_deck``); ``forced`` goes to ``Hand``."""
    return Hand(game, list(stacks), stacked_deck(len(stacks), holes, board), **forced)  # type: ignore[arg-type]


def play(hand: Hand, script: str) -> None:
    """Apply 'player verb [amount]' steps separated by ';', e.g. '2 raise 6; 3 call'.
    'check' and 'call' are checked against what the player faces."""
    for step in filter(None, (s.strip() for s in script.split(";"))):
        who, verb, *amount = step.split()
        legal = hand.legal_actions()
        if verb == "check":
            assert legal.check, f"{step!r}: player {who} faces a bet ({legal})"
        if verb == "call":
            assert legal.call > 0, f"{step!r}: nothing to call ({legal})"
        hand.act(verb, int(amount[0]) if amount else None, player=int(who))


def check_down(hand: Hand) -> None:
    """Check or call every remaining betting decision."""
    while hand.phase == "betting" and hand.actor is not None:
        hand.check_call()


def show_all(hand: Hand) -> None:
    while hand.phase == "showdown" and hand.actor is not None:
        hand.show()


def events_of(hand: Hand, kind: type) -> list:
    return [e for e in hand.events if type(e) is kind]
