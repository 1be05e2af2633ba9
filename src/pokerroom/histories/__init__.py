"""Hand histories of finished hands, as text: PHH (the open standard) and PokerStars style.

Both writers take a complete engine ``Hand`` (players in PHH order: player 0 is the first
seat left of the button, heads-up player 0 is the big blind) with the players' ``names``
and table ``seats`` in the same order. Nothing here does I/O.

The server stores ``snapshot(hand)`` when a hand ends (plain JSON values, cheap to make)
and writes a text only when a player asks for it: ``restore`` rebuilds a ``StoredHand``
that the writers take in place of a ``Hand`` and that gives the same texts byte for byte;
``stored_text`` does it all from a stored history. The modules: ``phh`` (the PHH writer),
``pokerstars`` (the PokerStars writer), ``snapshot`` (the hand as stored), ``stored``
(stored histories read back), ``common`` (what the writers share).

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
hand number (a stored hand's room-wide id), players, finishing stacks, winnings and time
are the standard optional fields (``table``, ``seats``, ``hand``, ``players``,
``finishing_stacks``, ``winnings``, ``time``/``time_zone``/``day``/``month``/``year`` in
UTC).

``to_pokerstars`` writes the text trackers read, its header as PokerStars writes it:
"PokerStars Hand #N:  Hold'em No Limit (1/2) - 2026/11/29 17:00:00 UTC [2026/11/29
12:00:00 ET]" (two spaces after the number; the time in UTC, then in Eastern Time in
brackets, which is the one the trackers' parsers read), stud's "7 Card Stud Limit
(10/20)". A stored hand's N is its room-wide id, unique across tables (a tracker drops a
repeated number as a duplicate). Chips are whole numbers and there is no rake. The
amounts are the engine's: when everyone folds to a raise, the blinds did not call it
(H12, case 1), so all of it is "Uncalled bet" and the blinds are the pot. A straddle is
"X: posts straddle 4", as PokerStars writes it. PokerStars has no line for a dead blind
alone (written "posts small blind"), for all-in protection (written "X: times out and is
all-in protected"), nor for the last hand at a showdown that wins unshown while D6
reveals it: "X: doesn't show hand" and, in the summary, "mucked [..] and won".
"""

from pokerroom.histories.common import FinishedHand, HistoryError, visible_players
from pokerroom.histories.phh import to_phh
from pokerroom.histories.pokerstars import hand_name, to_pokerstars
from pokerroom.histories.snapshot import SNAPSHOT_VERSION, StoredHand, restore, snapshot
from pokerroom.histories.stored import full_history, stored_text

__all__ = [
    "SNAPSHOT_VERSION",
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
