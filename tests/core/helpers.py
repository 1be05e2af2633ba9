"""Helpers shared by the hold'em rule and case tests: stacked decks, scripted play; and a
PokerKit stud hand that test_phh.py and tests/test_cli.py both read."""

from __future__ import annotations

from collections.abc import Sequence

from pokerroom.core.cards import FULL_DECK, Card, parse_cards
from pokerroom.core.events import Mucked, Shown
from pokerroom.core.hand import Hand
from pokerroom.core.structures import Game

NL12 = Game.no_limit(1, 2)

# 8 players reach seventh street: stub 1 + 3 burns = 4 cards, one community card (S9, D4, case 43b)
PK_COMMUNITY_CARD = """variant = 'F7S'
ante_trimming_status = false
antes = [1, 1, 1, 1, 1, 1, 1, 1]
bring_in = 2
small_bet = 4
big_bet = 8
starting_stacks = [26, 146, 12, 13, 170, 76, 23, 27]
actions = ['d dh p1 Qs3dKs', 'd dh p2 3sQdAd', 'd dh p3 4h7c6s', 'd dh p4 TsKdKc', 'd dh p5 6cQcTh',
  'd dh p6 Kh2dTc', 'd dh p7 As3c8c', 'd dh p8 4cAcQh', 'p3 cbr 4', 'p4 cbr 8', 'p5 cc', 'p6 cbr 12', 'p7 cc',
  'p8 cc', 'p1 cbr 16', 'p2 cc', 'p3 cc', 'p4 cc', 'p5 cc', 'p6 cc', 'p7 cc', 'p8 cc', 'd dh p1 2c',
  'd dh p2 9d', 'd dh p3 6h', 'd dh p4 2h', 'd dh p5 4s', 'd dh p6 8h', 'd dh p7 4d', 'd dh p8 5d', 'p5 cc',
  'p6 cc', 'p7 cc', 'p8 cc', 'p1 cbr 4', 'p2 cc', 'p5 cbr 8', 'p6 cbr 12', 'p7 cc', 'p8 cc', 'p1 cc', 'p2 cc',
  'p5 cc', 'd dh p1 5h', 'd dh p2 5c', 'd dh p3 7d', 'd dh p4 Jd', 'd dh p5 Td', 'd dh p6 3h', 'd dh p7 6d',
  'd dh p8 8d', 'p5 cbr 8', 'p6 cbr 16', 'p2 cc', 'p5 cbr 24', 'p6 cc', 'p2 cc', 'd dh p1 Jc', 'd dh p2 Jh',
  'd dh p3 7s', 'd dh p4 9c', 'd dh p5 9s', 'd dh p6 8s', 'd dh p7 2s', 'd dh p8 Js', 'p5 cbr 8', 'p6 cc',
  'p2 cc', 'd db Ah', 'p5 cc', 'p6 cbr 8', 'p2 cc', 'p5 cc', 'p6 sm Kh2dTc8h3h8s', 'p7 sm As3c8c4d6d2s',
  'p8 sm 4cAcQh5d8dJs', 'p1 sm Qs3dKs2c5hJc', 'p2 sm 3sQdAd9d5cJh', 'p3 sm 4h7c6s6h7d7s',
  'p4 sm TsKdKc2hJd9c', 'p5 sm 6cQcTh4sTd9s']
finishing_stacks = [0, 289, 96, 0, 101, 7, 0, 0]
"""


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


def showdown_log(hand: Hand) -> list[tuple[str, int, bool | None]]:
    """The showdown in order: ('shown', player, forced) and ('mucked', player, None)."""
    log: list[tuple[str, int, bool | None]] = []
    for e in hand.events:
        if type(e) is Shown:
            log.append(("shown", e.player, e.forced))
        elif type(e) is Mucked:
            log.append(("mucked", e.player, None))
    return log
