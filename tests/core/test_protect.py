"""All-in protection in the engine (R1, D7): a player kept in for what he committed."""

from __future__ import annotations

import pytest

from pokerroom.core.events import Acted, PotAwarded
from pokerroom.core.hand import IllegalAction
from tests.core.helpers import NL12, deal, play


def test_protected_player_wins_only_what_he_matched_D7():
    # three-handed: 0 SB, 1 BB, 2 BTN
    hand = deal(NL12, [100, 100, 100], ["AsAh", "KsKh", "QcJd"], "Ad9c5h4s3c")
    play(hand, "2 call; 0 call; 1 check")  # 2 each in
    play(hand, "0 bet 10; 1 call")
    assert hand.actor == 2
    assert hand.can_protect()
    events = hand.protect()
    assert events[0] == Acted(2, "protected", 0, 0, True)
    assert hand.stacks[2] == 0 and hand.protected[2] == 98
    # betting goes on between the others; the protected player is all in for 2
    play(hand, "0 bet 20; 1 call")
    play(hand, "0 check; 1 check; 0 show; 1 muck")
    assert hand.complete
    pots = [e for e in hand.events if type(e) is PotAwarded]
    assert [(p.amount, p.eligible) for p in pots] == [(60, (0, 1)), (6, (0, 1, 2))]
    assert hand.stacks == [100 - 32 + 66, 100 - 32, 98]  # his 98 behind came back
    assert sum(hand.stacks) == 300


def test_protection_needs_a_bet_to_face_and_chips_committed():
    hand = deal(NL12, [100, 100, 100])
    # the button (player 2) faces the big blind but has nothing in the pot
    with pytest.raises(IllegalAction) as info:
        hand.protect()
    assert info.value.code == "nothing_committed"
    play(hand, "2 call; 0 call")
    with pytest.raises(IllegalAction) as info:
        hand.protect()  # the big blind may check
    assert info.value.code == "nothing_to_call"
    with pytest.raises(IllegalAction) as info:
        hand.protect(0)
    assert info.value.code == "not_your_turn"
