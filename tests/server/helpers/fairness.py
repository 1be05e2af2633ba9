"""Hands dealt as the server deals them (deal.py), stored as runner._store_hand stores them
and served as /api/hands/{id} serves them, and the issue-16 attacks on the proof of a deal
(``ATTACKS``, built when this module is imported): for tests/server/test_fairness.py and
tests/web/test_fairness_ui.py."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

from pokerroom.core.cards import Card
from pokerroom.core.structures import Game
from pokerroom.fairness import commit, root, salt_text
from pokerroom.gateway.app import hand_for
from pokerroom.histories import full_history, snapshot
from pokerroom.table import PLAYING, Table, TableConfig
from pokerroom.worker.deal import Deal, Dealer

NOON = 1_764_626_400.0
HOLDEM = Game.no_limit(1, 2)
STUD = Game.stud(10, 20, ante=1, bring_in=3)


def passive(legal: Any) -> str:
    """Everyone stays to the end: check or call (bring in in stud), show at the showdown."""
    if legal.show:
        return "show"
    if legal.bring_in:
        return "bring_in"
    return "check" if legal.check else "call"


def play(game: Game, players: int, seeds: dict[int, str] | None = None,
         cheat: Callable[[list[Card]], list[Card]] | None = None,
         reshuffle: Callable[[Deal, tuple[Card, ...]], list[Card]] | None = None) -> tuple[Table, Deal]:
    """One hand dealt as the server deals it, everyone staying to the end; ``cheat``: what
    a cheating server does to the deck before the core takes it; ``reshuffle``: a stud
    reshuffle other than the committed one."""
    table = Table(TableConfig.single(game, seats=max(players, 2), min_buy_in=40, max_buy_in=5000,
                                     action_time=30))
    for s in range(1, players + 1):
        table.sit(f"p{s}", s, 2000)
    dealer = Dealer()
    for seat, seed in (seeds or {}).items():
        dealer.take_seed(f"p{seat}", dealer.next_commitment, seed, [f"p{s}" for s in range(1, players + 1)])
    deal = dealer.deal({s: seat.player for s, seat in table.seats.items()})
    cards = cheat(list(deal.cards)) if cheat else deal.cards
    shuffle = deal.reshuffle if reshuffle is None else lambda pool: reshuffle(deal, pool)
    table.start_hand(cards, NOON, reshuffle=shuffle, button=players)
    now = NOON
    while table.phase == PLAYING:
        now += 1
        assert table.hand is not None and table.actor is not None
        table.act(table.seats[table.actor].player, passive(table.hand.legal_actions()), None, now)
    return table, deal


def stored(table: Table, deal: Deal, scheme: int = 2) -> str:
    """The history text runner._store_hand stores for the table's last hand."""
    hand, plan, record = table.hand, table.plan, table.previous
    assert hand is not None and plan is not None and record is not None
    history: dict[str, Any] = {"table": "T", "number": record.number, "started_at": NOON,
                               "commitment": deal.commitment}
    if scheme == 2:
        history["deal"] = {"scheme": 2, "seeds": sorted(deal.seeds.items())}
    history["players"] = [{"seat": s, "name": n} for s, n in zip(plan.seats, table.hand_players, strict=True)]
    history["private"] = {
        "salts": salt_text(deal.salts),
        "holes": {str(s): [str(c) for c in hand.holes[i]] for i, s in enumerate(plan.seats)},
        "hand": snapshot(hand), "button_seat": plan.positions.button, "max_seats": table.config.seats,
        "game": record.game,
    }
    return json.dumps(history)


def served(text: str, deal: Deal, seat: int) -> dict[str, Any]:
    """What /api/hands/{id} gives the player in ``seat`` (app.hand_for)."""
    seats = [p["seat"] for p in json.loads(text)["players"]]
    data = {"id": 1, "history": full_history(text, deal.card_text, 1),
            "players": [{"seat": s, "net": 0} for s in seats]}
    return json.loads(hand_for(data, seat, "").body)


def old_scheme(deal: Deal) -> Deal:
    """The same cards committed as before seeds: the commitment of the leaves in order."""
    leaves = commit([str(c) for c in deal.cards], salts=deal.salts).leaves
    return Deal(root(leaves), {}, "", deal.cards, deal.salts, "")


def river_from_30(cards: list[Card]) -> list[Card]:
    """Heads-up the river is position 11; a cheating server deals position 30 there."""
    cards[11], cards[30] = cards[30], cards[11]
    return cards


def attacks() -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """Each attack: the history the player is served, and what he saw announced."""
    out: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
    table, deal = play(HOLDEM, 2, cheat=river_from_30)
    out["river from position 30"] = served(stored(table, deal), deal, 1), {"announced": deal.commitment}
    table, deal = play(HOLDEM, 2)
    empty = served(stored(table, deal), deal, 1)
    empty["openings"] = []
    out["no openings"] = empty, {"announced": deal.commitment}
    # after the hand, a deck made up to fit what was dealt, committed in order (the old scheme)
    made_up = commit([str(c) for c in deal.cards])
    fake = Deal(root(made_up.leaves), {}, "", deal.cards, made_up.salts, "")
    forged = served(stored(table, fake, 1), deal, 1)
    forged["leaves"] = list(made_up.leaves)
    forged["openings"] = [dict(o, salt=made_up.salts[o["position"]]) for o in forged["openings"]]
    out["a commitment made up after the hand"] = forged, {"announced": deal.commitment}
    rng = random.Random(7)
    # the server takes the cards of the committed reshuffle one place on (any order it likes)
    table, deal = play(STUD, 8, reshuffle=lambda d, pool: (lambda o: o[1:] + o[:1])(d.reshuffle(pool)))
    out["a stud reshuffle not drawn from the mix"] = served(stored(table, deal), deal, 1), {}
    table, deal = play(STUD, 8, reshuffle=lambda d, pool: rng.sample(list(pool), len(pool)))
    old = old_scheme(deal)
    out["an uncommitted stud reshuffle (old scheme)"] = served(stored(table, old, scheme=1), old, 1), {}
    return out


ATTACKS = attacks()
