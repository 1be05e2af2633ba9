"""The operator's audit of a room's database (``pokerroom audit``): that no chip was made
or lost, and a report of accounts that look like chip dumping.

The audit reads the ledger (double entry: every movement of chips is a transaction whose
entries sum to zero) and holds it against the state it must explain:

- every ledger transaction sums to zero;
- every account's balance is the sum of its ``balance:<id>`` book;
- every seat's stack is the sum of its ``table:<table>:<id>`` book, and a book of a seat
  nobody holds is zero (the class of fault where a table ran ahead of its database: a
  winner left with chips the database never gave him);
- balances plus seats equal what the bank granted (the room's own sum);
- each hand was settled at most once, and only a finished hand moved chips.

The dumping report attributes each hand's losses to its winners in proportion to what
they won, sums that flow per pair of accounts, and lists the pairs that played many hands
together where the chips went mostly one way, with those hands.
"""

from __future__ import annotations

import contextlib
from collections import defaultdict
from collections.abc import AsyncIterator
from dataclasses import asdict, dataclass, field
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from pokerroom.store import Store
from pokerroom.store.schema import accounts, hand_players, hands, ledger, seats

MAX_LISTED = 50  # offending rows listed per kind of problem


@dataclass
class Report:
    balanced: bool
    accounts: int
    hands: int
    granted: int
    balances: int
    seats: int
    problems: list[dict[str, Any]] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


async def audit(store: Store) -> Report:
    """Check the database of ``store``; ``balanced`` is False and ``problems`` says where,
    when anything does not add up."""
    async with snapshot(store) as conn:
        problems = await _problems(conn)
        count = int(await conn.scalar(select(func.count()).select_from(accounts)) or 0)
        hand_count = int(await conn.scalar(select(func.count()).select_from(hands)) or 0)
        totals = await store.totals(within=conn)
    granted, balances, at_seats = totals["granted"], totals["balances"], totals["seats"]
    if balances + at_seats != granted:
        problems.append({"kind": "room_total", "granted": granted, "balances": balances, "seats": at_seats,
                         "created": balances + at_seats - granted})
    return Report(not problems, count, hand_count, granted, balances, at_seats, problems)


@contextlib.asynccontextmanager
async def snapshot(store: Store) -> AsyncIterator[AsyncConnection]:
    """A connection whose reads all see the database as of one moment, so that a room
    playing meanwhile does not make books and seats seem to disagree: a read-only
    REPEATABLE READ transaction on PostgreSQL, an explicit one on SQLite (WAL: its first
    read fixes what it sees)."""
    async with store.engine.connect() as conn:
        if store.sqlite:
            await conn.exec_driver_sql("BEGIN")
        else:
            conn = await conn.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
            await conn.begin()
        try:
            yield conn
        finally:
            await conn.rollback()


async def _problems(conn: AsyncConnection) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    unbalanced = (
        select(ledger.c.txn, ledger.c.kind, func.sum(ledger.c.amount).label("sum"))
        .group_by(ledger.c.txn, ledger.c.kind)
        .having(func.sum(ledger.c.amount) != 0)
        .limit(MAX_LISTED)
    )
    for row in await conn.execute(unbalanced):
        out.append({"kind": "unbalanced_transaction", "txn": row.txn, "type": row.kind, "sum": int(row.sum)})

    books: dict[str, int] = {
        row.book: int(row.total)
        for row in await conn.execute(
            select(ledger.c.book, func.sum(ledger.c.amount).label("total")).group_by(ledger.c.book)
        )
    }
    for row in await conn.execute(select(accounts.c.id, accounts.c.name, accounts.c.balance)):
        in_book = books.get(f"balance:{row.id}", 0)
        if in_book != row.balance:
            out.append({"kind": "balance", "account": row.name, "account_id": row.id,
                        "balance": int(row.balance), "book": in_book})
    held: dict[str, int] = {}
    for seat in await conn.execute(select(seats.c.table_name, seats.c.account_id, seats.c.stack)):
        held[f"table:{seat.table_name}:{seat.account_id}"] = int(seat.stack)
    for book in sorted(set(held) | {b for b in books if b.startswith("table:")}):
        stack, total = held.get(book), books.get(book, 0)
        if (stack or 0) != total:
            table, _, account = book.partition(":")[2].rpartition(":")
            out.append({"kind": "table_book", "book": book, "table": table, "account_id": account,
                        "seat_stack": stack, "book_sum": total})

    settled = (
        select(ledger.c.hand_id, func.count(func.distinct(ledger.c.txn)).label("txns"))
        .where(ledger.c.kind == "hand")
        .group_by(ledger.c.hand_id)
        .having(func.count(func.distinct(ledger.c.txn)) > 1)
        .limit(MAX_LISTED)
    )
    for twice in await conn.execute(settled):
        out.append({"kind": "settled_twice", "hand_id": twice.hand_id, "transactions": int(twice.txns)})
    unfinished = (
        select(func.distinct(ledger.c.hand_id).label("hand_id"), hands.c.status)
        .join(hands, hands.c.id == ledger.c.hand_id)
        .where(ledger.c.kind == "hand", hands.c.status != "complete")
        .limit(MAX_LISTED)
    )
    for moved in await conn.execute(unfinished):
        out.append({"kind": "unfinished_hand_moved_chips", "hand_id": moved.hand_id, "status": moved.status})
    return out[: MAX_LISTED * 6]


# ---------------------------------------------------------------- chip dumping


@dataclass
class Flow:
    """Chips that went from ``loser`` to ``winner`` over the ``hands`` they played together."""

    loser: str
    winner: str
    chips: int  # from loser to winner, net of what went back
    back: int  # from winner to loser
    hands_together: int
    hands: list[int]  # the hands in which chips went from loser to winner
    # 'one_way': over many hands; 'funnel': one of several accounts that each lost most of
    # what the bank gave them to this winner, in however few hands
    reason: str = "one_way"

    @property
    def one_way(self) -> float:
        total = self.chips + self.back
        return self.chips / total if total else 0.0


async def dumping(
    store: Store, min_hands: int = 20, share: float = 0.9, min_chips: int = 1, funnel: int = 3
) -> list[Flow]:
    """Pairs of accounts between which chips went one way, the largest flows first:

    - ``one_way``: they played at least ``min_hands`` hands together and at least
      ``share`` of the chips that passed between them went one way (at least ``min_chips``);
    - ``funnel``: at least ``funnel`` accounts each lost at least half of what the bank
      gave it, and ``share`` of all it lost, to one winner, in however few hands (new
      accounts made to be lost heads-up to a main one, the issue's attack).

    A hand's losses are shared among its winners in proportion to what each won."""
    by_hand: dict[int, list[tuple[int, int]]] = defaultdict(list)
    async with store.engine.connect() as conn:
        names = {row.id: row.name for row in await conn.execute(select(accounts.c.id, accounts.c.name))}
        rows = await conn.execute(
            select(hand_players.c.hand_id, hand_players.c.account_id, hand_players.c.net)
            .join(hands, hands.c.id == hand_players.c.hand_id)
            .where(hands.c.status == "complete", hand_players.c.net.is_not(None))
        )
        for row in rows:
            by_hand[int(row.hand_id)].append((int(row.account_id), int(row.net)))
        granted = {
            int(row.account_id): int(row.total)
            for row in await conn.execute(
                select(ledger.c.account_id, func.sum(ledger.c.amount).label("total"))
                .where(ledger.c.book.like("balance:%"), ledger.c.kind.in_(("grant", "topup")))
                .group_by(ledger.c.account_id)
            )
        }
    flow: dict[tuple[int, int], float] = defaultdict(float)
    flow_hands: dict[tuple[int, int], list[int]] = defaultdict(list)
    together: dict[tuple[int, int], int] = defaultdict(int)
    for hand_id, nets in by_hand.items():
        ids = sorted(a for a, _ in nets)
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                together[(a, b)] += 1
        won = sum(n for _, n in nets if n > 0)
        if won <= 0:
            continue
        for loser, net in nets:
            if net >= 0:
                continue
            for winner, gain in nets:
                if gain > 0:
                    flow[(loser, winner)] += -net * gain / won
                    flow_hands[(loser, winner)].append(hand_id)
    lost: dict[int, float] = defaultdict(float)
    for (loser, _), chips in flow.items():
        lost[loser] += chips
    fed: dict[int, set[int]] = defaultdict(set)  # winner -> accounts that lost their grants to him
    for (loser, winner), chips in flow.items():
        if chips >= granted.get(loser, 0) / 2 > 0 and chips >= share * lost[loser]:
            fed[winner].add(loser)
    found: list[Flow] = []
    for (loser, winner), chips in flow.items():
        pair = (min(loser, winner), max(loser, winner))
        back = flow.get((winner, loser), 0.0)
        item = Flow(names.get(loser, str(loser)), names.get(winner, str(winner)), round(chips), round(back),
                    together[pair], sorted(flow_hands[(loser, winner)]))
        if item.hands_together >= min_hands and item.chips >= min_chips and item.one_way >= share:
            found.append(item)
        elif len(fed[winner]) >= funnel and loser in fed[winner]:
            item.reason = "funnel"
            found.append(item)
    found.sort(key=lambda f: -f.chips)
    return found
