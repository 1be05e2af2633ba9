"""Provably fair deals without showing anyone a folded hand (docs/protocol.md, "Provably
fair deals"; the server's side is worker/deal.py).

The deck is committed card by card: each card gets a random salt and a leaf
``sha256(salt + card)``. The commitment is the SHA-256 of the 52 leaves (hex) sorted and
joined: the sorted leaves are the server's deck order, fixed before any player's seed can
be sent. At the deal, the seeds mix with the commitment into a key (``mix``), and the key
draws the dealing order (``permutation``): position k of the dealt deck is the committed
card ``permutation(key, 52)[k]``. A stud reshuffle takes its order from the same key
(``reshuffle_key``). When the hand is over, its history gives every leaf in the dealing
order, and the salt and card of every position the reader may see (the board, the hands
shown or that reached the showdown, his own cards); the cards nobody showed stay secret:
a leaf reveals nothing without its salt.

``verify_history`` is the proof of a hand: the leaves make the commitment (the one the
reader saw announced, when he kept it), they stand in the order the commitment and the
seeds give, the position of every card dealt follows from the dealing order of the game
(``deal_slots``: burns and the reshuffle included), and his own cards and the board are
opened at exactly those positions. ``verify`` checks openings against leaves only.

>>> from pokerroom.core.cards import FULL_DECK
>>> deal = commit(FULL_DECK, salts=['00'] * 52)
>>> verify(deal.commitment, deal.leaves, [opening(deal, FULL_DECK, 0)])
True
>>> verify(deal.commitment, deal.leaves, [{'position': 0, 'card': 'Ah', 'salt': '00'}])
False
>>> permutation('key', 5)
[2, 3, 1, 4, 0]

The server stores a deal as its salts joined in one string (``salt_text``, beside the
deck's cards in the hands row, both in the dealing order) and makes the leaves and
openings from them when a history is read (``leaves_of``, ``openings_of``).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import struct
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import count
from typing import Any, NamedTuple

SCHEME = 2  # seeds mixed into a committed deck; 1: the deck committed in the dealing order
BOARD = -1  # the owner of a board card in ``deal_slots``
_WORDS = 1 << 32
_HEX64 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Commitment:
    commitment: str
    leaves: tuple[str, ...]
    salts: tuple[str, ...]


def _leaf(salt: str, card: str) -> str:
    return hashlib.sha256((salt + card).encode()).hexdigest()


def root(leaves: Sequence[str]) -> str:
    """The commitment of the leaves in this order (the scheme before seeds)."""
    return hashlib.sha256("".join(leaves).encode()).hexdigest()


def set_root(leaves: Sequence[str]) -> str:
    """The commitment of the leaves sorted: the same whatever order they are listed in."""
    return root(sorted(leaves))


SALT_CHARS = 32  # a salt: 16 random bytes, in hex


def commit(deck: Sequence[object], salts: Sequence[str] | None = None) -> Commitment:
    """Commit to ``deck`` (cards printed as 'As'); salts are 16 random bytes each (from one
    call to ``secrets``, cut in 16-byte pieces). The leaves stay in the deck's order; the
    commitment is ``set_root`` of them."""
    if salts is None:
        text = secrets.token_hex(16 * len(deck))
        salts = [text[i : i + SALT_CHARS] for i in range(0, len(text), SALT_CHARS)]
    leaves = tuple(_leaf(s, str(c)) for s, c in zip(salts, deck, strict=True))
    return Commitment(set_root(leaves), leaves, tuple(salts))


def salt_text(deal: Commitment | Sequence[str]) -> str:
    """A deal's salts (or the salts) as one string, to store (``openings_of`` and
    ``leaves_of`` read it)."""
    salts = deal.salts if isinstance(deal, Commitment) else deal
    if set(map(len, salts)) - {SALT_CHARS}:
        raise ValueError(f"salts of {SALT_CHARS} characters are stored as one text")
    return "".join(salts)


def _pieces(salts: str, cards: str) -> list[tuple[str, str]]:
    """(salt, card) by position, from ``salt_text`` and the deck's cards ('AsKd...')."""
    if len(salts) != SALT_CHARS * (len(cards) // 2) or len(cards) % 2:
        raise ValueError("the salts and the deck do not match")
    n = SALT_CHARS
    return [(salts[n * i : n * (i + 1)], cards[2 * i : 2 * i + 2]) for i in range(len(cards) // 2)]


def openings_of(salts: str, cards: str) -> list[dict[str, Any]]:
    """Every position's opening, as ``opening`` makes them, from the stored salts and deck."""
    pieces = _pieces(salts, cards)
    return [{"position": i, "card": card, "salt": salt} for i, (salt, card) in enumerate(pieces)]


def leaves_of(salts: str, cards: str) -> list[str]:
    """The deal's leaves, as ``commit`` makes them, from the stored salts and deck."""
    return [_leaf(salt, card) for salt, card in _pieces(salts, cards)]


def opening(deal: Commitment, deck: Sequence[object], position: int) -> dict[str, Any]:
    """What proves the card at ``position``."""
    return {"position": position, "card": str(deck[position]), "salt": deal.salts[position]}


def verify(commitment: str, leaves: Sequence[str], openings: Sequence[dict[str, Any]]) -> bool:
    """Whether the leaves make the commitment (in either scheme) and there are openings,
    each matching its leaf. Where each card had to be is ``verify_history``'s to check."""
    if not openings or commitment not in (root(leaves), set_root(leaves)):
        return False
    return all(_opened(o, leaves) is not None for o in openings)


def _opened(o: object, leaves: Sequence[str]) -> str | None:
    """The card an opening proves at its position, or None when it proves nothing."""
    if not isinstance(o, dict):
        return None
    position, card, salt = o.get("position"), o.get("card"), o.get("salt")
    if type(position) is not int or not 0 <= position < len(leaves):
        return None
    if type(card) is not str or type(salt) is not str or _leaf(salt, card) != leaves[position]:
        return None
    return card


# ---------------------------------------------------------------------- the dealing order


def mix(commitment: str, seeds: Mapping[int, str]) -> str:
    """The key a deal's order is drawn from: SHA-256 (hex) of a line naming the scheme, the
    commitment, and a line ``seat:seed`` per seed, by seat."""
    lines = "".join(f"{seat}:{seeds[seat]}\n" for seat in sorted(seeds))
    return hashlib.sha256(f"pokerroom deal 2\n{commitment}\n{lines}".encode()).hexdigest()


def _words(key: str) -> Iterator[int]:
    """32-bit words (big-endian) of SHA-256(``key:0``), SHA-256(``key:1``), ..."""
    for counter in count():
        yield from struct.unpack(">8I", hashlib.sha256(f"{key}:{counter}".encode()).digest())


def permutation(key: str, n: int) -> list[int]:
    """The Fisher-Yates shuffle of ``0 .. n-1`` drawn from ``key``: for i from n-1 down to
    1, j is the next word below the last whole multiple of i+1, modulo i+1 (no bias), and
    places i and j swap. The browser has the same (web/js/sha256.js)."""
    order = list(range(n))
    words = _words(key)
    for i in range(n - 1, 0, -1):
        m = i + 1
        limit = _WORDS - _WORDS % m
        word = next(words)
        while word >= limit:
            word = next(words)
        j = word % m
        order[i], order[j] = order[j], order[i]
    return order


def reshuffle_key(key: str, k: int) -> str:
    """The key of the ``k``-th stud reshuffle (from 0) of the deal whose mix is ``key``."""
    return f"{key}:reshuffle:{k}"


class Unproven(ValueError):
    """What makes a hand's proof fail (the message says what)."""


def deal_slots(
    seats: Sequence[int], events: Sequence[Mapping[str, Any]], key: str | None
) -> list[tuple[int, int]]:
    """(position in the dealt deck, seat or ``BOARD``) of every card dealt, in the order
    dealt, recomputed from the hand's public events (the record's) and the game's dealing
    order: hold'em deals two rounds of one card from the first player left of the button,
    then burns one before the flop, the turn and the river; stud deals two down and one up
    round the table, then burns one before each street and deals one card to each player
    still in, and when the stub is short shuffles the burns into it (``key``: the order is
    drawn from the deal's mix; None: the scheme before seeds, whose reshuffle nobody can
    prove) or deals one card to the board (S9, D4)."""
    n = len(seats)
    dealt = [e for e in events if e.get("type") in ("HoleDealt", "BoardDealt", "Reshuffled", "Acted")]
    first = 0
    while first < len(dealt) and dealt[first].get("type") == "HoleDealt":
        first += 1
    if first not in (2 * n, 3 * n) or n < 2:
        raise Unproven(f"{first} hole cards dealt first to {n} players: neither hold'em nor stud")
    slots: list[tuple[int, int]] = []
    for k in range(first):
        if dealt[k].get("player") != seats[k % n]:
            raise Unproven(f"hole card {k + 1} went to seat {dealt[k].get('player')}, not {seats[k % n]}")
        slots.append((k, seats[k % n]))
    rest = dealt[first:]
    if first == 2 * n:
        return slots + _holdem_board(rest, first)
    return slots + _stud_streets(seats, rest, first, key)


def _holdem_board(events: Sequence[Mapping[str, Any]], pos: int) -> list[tuple[int, int]]:
    slots: list[tuple[int, int]] = []
    for e in events:
        kind = e.get("type")
        if kind == "BoardDealt":
            pos += 1  # the burn
            for _ in e.get("cards") or ():
                slots.append((pos, BOARD))
                pos += 1
        elif kind != "Acted":
            raise Unproven(f"a hold'em hand with {kind} after the hole cards")
    if len(slots) not in (0, 3, 4, 5) or pos > 52:
        raise Unproven(f"a board of {len(slots)} cards")
    return slots


def _stud_streets(
    seats: Sequence[int], events: Sequence[Mapping[str, Any]], pos: int, key: str | None
) -> list[tuple[int, int]]:
    """Stud's streets after the first, as core/hand.py deals them (``_deal_stud_street``)."""
    stock, burned, folded = list(range(52)), list[int](), set[object]()
    slots: list[tuple[int, int]] = []
    reshuffles, announced, i = 0, False, 0
    while i < len(events):
        e = events[i]
        kind = e.get("type")
        if kind == "Acted":
            if e.get("action") == "fold":
                folded.add(e.get("player"))
            i += 1
            continue
        if kind == "Reshuffled":
            announced, i = True, i + 1
            continue
        live = [s for s in seats if s not in folded]
        need = len(live) + 1
        if len(stock) - pos < need:
            if not announced:
                raise Unproven("the stub ran short without a reshuffle in the record")
            if key is None:
                raise Unproven("the stud reshuffle of this hand (the scheme before seeds) was not committed")
            pool = stock[pos:] + burned
            stock = [pool[j] for j in permutation(reshuffle_key(key, reshuffles), len(pool))]
            pos, burned, reshuffles, announced = 0, [], reshuffles + 1, False
        elif announced:
            raise Unproven("a reshuffle in the record that the stub did not need")
        if len(stock) - pos >= need:
            burned.append(stock[pos])
            group = events[i : i + len(live)]
            got = [g.get("player") for g in group if g.get("type") == "HoleDealt"]
            if got != live:
                raise Unproven(f"a street dealt to seats {got}, not to the players still in {live}")
            slots += [(stock[pos + 1 + k], s) for k, s in enumerate(live)]
            pos += 1 + len(live)
            i += len(live)
            continue
        if kind != "BoardDealt" or len(e.get("cards") or ()) != 1:
            raise Unproven("a short stub must deal one community card")
        if len(stock) - pos >= 2:
            burned.append(stock[pos])
            pos += 1
        if pos >= len(stock):
            raise Unproven("more cards dealt than the deck holds")
        slots.append((stock[pos], BOARD))
        pos += 1
        i += 1
    return slots


# ---------------------------------------------------------------------- a hand's proof


class Verdict(NamedTuple):
    """What ``verify_history`` found: ``ok``, and the reason or what was proven."""

    ok: bool
    message: str
    scheme: int = SCHEME
    proven: int = 0  # cards proven at their places
    seat: int | None = None  # the reader's seat


def verify_history(
    history: Mapping[str, Any],
    announced: str | None = None,
    announced_seeds: Sequence[Sequence[object]] | None = None,
    seat: int | None = None,
) -> Verdict:
    """The proof of a hand a player downloaded (``/api/hands/{id}``): see the module's
    docstring. ``announced`` and ``announced_seeds``: the commitment and the seeds he saw
    published at the deal (without them, those written in the history are taken: a check
    of the deal's order, not of when it was fixed). ``seat``: his seat, when he knows it
    (else the seat whose cards are his). Never raises: a malformed history fails."""
    try:
        return _verify(history, announced, announced_seeds, seat)
    except Unproven as e:
        return Verdict(False, str(e), _scheme(history))
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as e:
        return Verdict(False, f"not a hand history this checks ({type(e).__name__}: {e})", _scheme(history))


def _scheme(history: object) -> int:
    deal = history.get("deal") if isinstance(history, Mapping) else None
    return deal.get("scheme", 1) if isinstance(deal, Mapping) and type(deal.get("scheme", 1)) is int else 1


def seeds_of(history: Mapping[str, Any]) -> dict[int, str]:
    """The seeds a history says were mixed into its deal, seat -> seed."""
    deal = history.get("deal") or {}
    seeds: dict[int, str] = {}
    for pair in deal.get("seeds", ()):
        seat, seed = pair
        if type(seat) is not int or type(seed) is not str or seat in seeds:
            raise Unproven(f"a bad seed entry {pair!r}")
        seeds[seat] = seed
    return seeds


def _verify(
    history: Mapping[str, Any],
    announced: str | None,
    announced_seeds: Sequence[Sequence[object]] | None,
    seat: int | None,
) -> Verdict:
    scheme = _scheme(history)
    if scheme not in (1, SCHEME):
        raise Unproven(f"a deal of scheme {scheme}, which this does not know")
    commitment, leaves = history["commitment"], history["leaves"]
    if type(commitment) is not str or not _HEX64.fullmatch(commitment):
        raise Unproven("the history has no commitment")
    if announced is not None and announced != commitment:
        raise Unproven(f"the history's commitment {commitment[:16]}... is not the one announced at the deal, "
                       f"{announced[:16]}...")
    if not isinstance(leaves, list) or len(leaves) != 52 or len(set(leaves)) != 52:
        raise Unproven("the history does not list 52 distinct leaves")
    seeds = seeds_of(history)
    seen = None if announced_seeds is None else {int(str(s)): str(x) for s, x in announced_seeds}
    if seen is not None and (scheme == 1 or seeds != seen):
        raise Unproven("the history's seeds are not those announced at the deal")
    key = None
    if scheme == 1:
        if seeds or root(leaves) != commitment:
            raise Unproven("the leaves do not make the commitment")
    else:
        if set_root(leaves) != commitment:
            raise Unproven("the leaves do not make the commitment")
        key = mix(commitment, seeds)
        ordered = sorted(leaves)
        if any(leaves[k] != ordered[j] for k, j in enumerate(permutation(key, 52))):
            raise Unproven("the leaves are not in the order the commitment and the seeds give")
    record = history["record"]
    seats = [p["seat"] for p in history["players"]]
    slots = deal_slots(seats, record["events"], key)
    proven, seat = _check_openings(history, leaves, slots, seats, seat)
    return Verdict(True, f"{proven} cards proven at their places in the committed deck", scheme, proven, seat)


def _check_openings(
    history: Mapping[str, Any], leaves: Sequence[str], slots: Sequence[tuple[int, int]],
    seats: Sequence[int], seat: int | None,
) -> tuple[int, int]:
    """Every opening matches its leaf, and the reader's cards, the board and the cards
    shown stand opened at the places the deal gives them. Returns how many were proven, and
    the reader's seat."""
    opened: dict[int, str] = {}
    for o in history["openings"]:
        card = _opened(o, leaves)
        if card is None:
            raise Unproven(f"the opening {o!r} does not match its leaf")
        opened[o["position"]] = card
    places: dict[int, list[int]] = {}
    for position, owner in slots:
        places.setdefault(owner, []).append(position)
    mine = [str(c) for c in history["your_cards"]]
    if seat is None:
        seat = history.get("your_seat")
    if seat is None:
        seat = next((s for s in seats if [opened.get(x) for x in places.get(s, [])] == mine), None)
    if seat is None or seat not in seats or not mine:
        raise Unproven("your cards are not opened at your seat's places in the deal")
    record = history["record"]
    wanted = _placed(places.get(seat, []), mine, "your cards")
    wanted += _placed(places.get(BOARD, []), record["board"], "the board")
    for player in record["players"]:
        cards = player["cards"]
        if player["seat"] != seat and any(cards):
            wanted += [(x, c) for x, c in _placed(places.get(player["seat"], []), cards, "a hand") if c]
    for position, card in wanted:
        if opened.get(position) != card:
            got = opened.get(position, "nothing")
            raise Unproven(f"{card} was dealt from position {position} of the deck, which opens {got}")
    return len(wanted), seat


def _placed(places: Sequence[int], cards: Sequence[Any], what: str) -> list[tuple[int, Any]]:
    if len(places) != len(cards):
        raise Unproven(f"{what}: {len(cards)} cards where the deal gives {len(places)}")
    return list(zip(places, cards, strict=True))
