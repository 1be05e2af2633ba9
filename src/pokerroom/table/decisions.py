"""What the table does for a player who is not deciding: his clock ran out, he is leaving,
or he sits out (R1, D7, case 47).

It checks when that is free, posts a stud bring-in owed, keeps a player with chips in the
pot in for them when ``protect`` says he may be protected (the seeds' all-in protection),
and otherwise folds. At the showdown a hand beaten by one already shown is mucked; any
other is shown.
"""

from __future__ import annotations

from pokerroom.core.events import Event
from pokerroom.core.hand import SHOWDOWN, Hand


def beaten(hand: Hand, p: int) -> bool:
    """Whether p's hand loses, in every pot he could win, to a hand already shown."""
    mine = hand.hand_value(p)
    if mine is None:
        return False
    for pot in hand.pots():
        if p not in pot.eligible:
            continue
        shown = [v for q in pot.eligible if q in hand.shown and (v := hand.hand_value(q)) is not None]
        if not shown or mine >= max(shown):
            return False
    return True


def would_protect(hand: Hand, p: int) -> bool:
    """Whether a time-out of player ``p`` now is one all-in protection could answer: he
    faces a bet with chips in the pot (and is not owing a stud bring-in)."""
    if hand.phase == SHOWDOWN:
        return False
    legal = hand.legal_actions()
    return not legal.bring_in and not legal.check and hand.can_protect(p)


def decide_for(hand: Hand, p: int, protect: bool) -> tuple[str, tuple[Event, ...]]:
    """Act for player ``p``, whose turn it is: the verb ('muck', 'show', 'bring_in',
    'check', 'protected', 'fold') and the hand's events. ``protect``: he may be protected."""
    if hand.phase == SHOWDOWN:
        if hand.can_muck(p) and beaten(hand, p):
            return "muck", hand.muck(p)
        return "show", hand.show(p)
    legal = hand.legal_actions()
    if legal.bring_in:  # D7: a stud bring-in owed is posted for the player
        return "bring_in", hand.bring_in(p)
    if legal.check:
        return "check", hand.check_call(p)
    if protect and hand.can_protect(p):
        return "protected", hand.protect(p)
    if legal.fold:
        return "fold", hand.fold(p)
    return "call", hand.check_call(p)  # cannot happen: a player facing a bet may fold
