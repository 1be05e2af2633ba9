"""Read, write and replay PHH hands (Poker Hand History, TOML; spec: uoftcprg/phh-std).

A module per job: ``grammar`` (the action lines), ``tomltext`` and ``files`` (TOML in and
out), ``deck`` (the deck a hand's cards imply), ``playback`` (the hand run through the
engine) and ``results`` (the result compared with the file). The names below are the API.

``load`` reads a ``.phh`` file (one hand, index None) or a ``.phhs`` file (tables ``[1]``,
``[2]``, ...; index = the table key); ``loads`` parses text; ``dumps`` writes a hand
(fields we do not model stay in ``HandHistory.extra`` and are written back).

Variants: ``NT`` (no-limit Texas hold'em), ``FT`` (fixed limit: ``small_bet``/``big_bet``,
blinds from the array), ``PT``, our own code for pot-limit Texas hold'em with the same
fields as ``NT``, and ``F7S`` (fixed-limit seven card stud: ``bring_in``, ``small_bet``,
``big_bet`` and ``antes``, no blinds). ``NT`` and ``PT`` may have a straddle (D10): a third
``blinds_or_straddles`` entry of twice the big blind (``[1, 2, 4, 0, 0, 0]``, 3+ players).
Others (``NS``, ``PO``, ``F7S/8``, ...), any other straddle, draws (``sd``), bring-ins
(``pb``) in hold'em and fractional chips raise ``UnsupportedError``.

``replay`` is strict: the deck comes from the file (hole deals transposed into the real
dealing order; burns and ``??`` get cards that appear nowhere in the file), every action
goes to the engine, ``d dh``/``d db`` lines and shown hands are checked against what it
dealt, and nothing is repaired: a refused action is a ``ReplayError`` naming
``actions[i]`` (0-based) and the engine's reason. Players are in PHH order; heads-up the
``antes`` and ``blinds_or_straddles`` apply reversed (p1 posts the big blind), as in
PokerKit (in stud this only matters for unequal antes).

Stud (``F7S``): ``d dh p1 5d2sAd`` deals third street (two down, the third card up); each
later street is the run of one-card ``d dh`` lines after a betting round (a player dealt
twice in a run starts the next street, as in an all-in run-out), and ``d db Xx`` is the
community card of a seventh street short of cards (S9, D4). The deck is third street
transposed, then per street a burn and the street's cards in the file's order; if the
engine must shuffle the burned cards into the stub, the ``reshuffle`` callback puts the
cards the file deals next first. ``pN pb`` is the bring-in, ``pN cbr X`` completes, bets
or raises to X. As PokerKit writes them, all-in hands are shown (``sm``) before the
remaining cards are dealt and shown again after seventh street: a repeated show may name
the first cards of the hand only, in dealing order; and a bring-in all in (a player left
with no more than the bring-in) is ``pN cbr X``, X his whole stack: it is the bring-in.

After the hand is over, ``pN sm cards`` by a player who did not reach the showdown (he won
when the others folded, or folded) is a show at the end of the hand (D12): some cards may
be ``??`` (those he kept hidden); the known ones must be his, and no stack changes.

>>> hh = loads('''variant = 'NT'
... antes = [0, 0]
... blinds_or_straddles = [1, 2]
... min_bet = 2
... starting_stacks = [100, 100]
... actions = ['d dh p1 AsKs', 'd dh p2 7h2c', 'p2 cbr 6', 'p1 f']''')
>>> replay(hh).stacks
[98, 102]
"""

from __future__ import annotations

from pokerroom.core.phh.files import HandHistory, dumps, load, loads
from pokerroom.core.phh.grammar import Action, PHHError, ReplayError, UnsupportedError, parse_action
from pokerroom.core.phh.playback import game_of, replay
from pokerroom.core.phh.results import ReplayResult, replay_paths, verify

__all__ = ["Action", "HandHistory", "PHHError", "ReplayError", "ReplayResult", "UnsupportedError", "dumps",
           "game_of", "load", "loads", "parse_action", "replay", "replay_paths", "verify"]
