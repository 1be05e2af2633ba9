"""The hand journal: hands started and finished, written in batches by one writer task, and
what the room's rules remember of them across tables and restarts (protection uses, D7;
departures, D13; cards shown after a hand, D12), with the reads of hands.

Three write paths, the same rows: SQLAlchemy's statements (``write`` here, when a raw
path is off), SQLite's raw one (journal_sqlite.py) and PostgreSQL's (journal_pg.py); the
raw paths also carry the buy-ins, top-ups and cash-outs (money.py), so that they share the
journal's transactions.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from pokerroom.histories import full_history
from pokerroom.store.database import Database, StoreError
from pokerroom.store.journal_pg import apply_pg
from pokerroom.store.journal_sqlite import apply_sqlite
from pokerroom.store.ledger import INSERT_LEDGER, ledger_rows, table_book
from pokerroom.store.ops import (
    Fence,
    HandFinish,
    HandStart,
    Op,
    answer,
    check_fences_on,
    merge,
    settle_on,
)
from pokerroom.store.schema import (
    accounts,
    departures,
    hand_players,
    hands,
    protection_uses,
    reveals,
    seats,
)


@dataclass(frozen=True)
class Departure:
    """A player left a table with ``stack`` chips at ``at`` (seconds since the epoch)."""

    stack: int
    at: float


class Journal(Database):
    def __init__(self, url: str, schema: str | None = None) -> None:
        super().__init__(url, schema)
        self.journal_wait = 0.01  # seconds the journal's first write waits for others
        self._queued: list[tuple[Op, asyncio.Future[Any]]] = []
        self._writer: asyncio.Task[None] | None = None

    async def close(self) -> None:
        if self._writer is not None and not self._writer.done():
            with contextlib.suppress(Exception):
                await self._writer  # what is queued is written first
        await super().close()

    # ------------------------------------------------------------------ hands

    async def start_hand(
        self, table: str, number: int, game: str, commitment: str, players: Sequence[tuple[int, int]],
        *, again: bool = False, fence: Fence | None = None,
    ) -> int:
        """A hand begins (``players``: (account id, seat)); its id, once committed. Written
        through the journal (``_journal``) with other tables' hands. Asked ``again``, the
        hand of that table, number and commitment already written is the answer. With a
        ``fence``, only while its owner holds the table's lease (ops.Fence)."""
        op = HandStart(table, number, game, commitment, list(players), time.time(), again, fence)
        return await self._journal(op)  # type: ignore[no-any-return]

    async def finish_hand(
        self,
        hand_id: int,
        table: str,
        results: Sequence[tuple[int, int, int]],  # (account id, net, final stack)
        *,
        salt: str,
        deck: str,
        history: str,
        phh: str | None = None,
        text: str | None = None,
        again: bool = False,
        fence: Fence | None = None,
        number: int = 0,
        memory: str | None = None,
    ) -> None:
        """The hand's result, history and ledger entries, committed when this returns
        (invariant 5), in one transaction with whatever else the journal holds. ``phh`` and
        ``text`` (public texts) are optional: the server leaves them NULL and writes texts
        from ``history`` on request. Asked ``again``, a hand no longer 'playing' was settled
        by the first try: it is settled once. With a ``fence``, only while its owner holds
        the table's lease, and only if hand ``number`` is after the lease's last settled
        hand (which it then becomes, with the table's ``memory``)."""
        moves = [(table_book(table, a), a, net) for a, net, _ in results]
        rows = ledger_rows("hand", moves, hand_id)  # checks the sum before anything
        op = HandFinish(hand_id, table, list(results), salt, deck, history, phh, text, rows, again,
                        fence, number, memory)
        await self._journal(op)

    # ------------------------------------------------------------------ the journal

    async def _journal(self, op: Op) -> Any:
        """Queue a hand write (on a raw path, a buy-in, top-up or cash-out too) and wait
        until it is committed. One writer task commits what is queued in one transaction of
        a few multi-row statements: at hundreds of hands a second, hands of many tables
        share a commit, so the cost per hand falls as the room gets busier (a SQLAlchemy
        statement costs the event loop ~0.3 ms however few rows it has; on SQLite the batch
        is one trip to its thread, _run_sqlite; on PostgreSQL a few asyncpg statements of
        arrays, journal_pg.py; a move refused is undone alone, under a savepoint)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()
        self._queued.append((op, done))
        if self._writer is None or self._writer.done():
            self._writer = loop.create_task(self._write_queued(), name="store journal")
        return await done

    async def _write_queued(self) -> None:
        while self._queued:
            await asyncio.sleep(self.journal_wait)  # company for the first write
            batch, self._queued = self._queued, []
            try:
                await self._write_batch(batch)
            finally:  # cancelled (the room stops): nobody waits for ever
                for _, done in batch:
                    if not done.done():
                        done.set_exception(StoreError("unavailable", "the room's database stopped"))

    async def _write_batch(self, batch: list[tuple[Op, asyncio.Future[Any]]]) -> None:
        applied = False  # every statement ran: a failure now is in the commit itself
        try:
            async with self._batch() as apply:
                results = await apply([op for op, _ in batch])
                applied = True
        except Exception as e:
            if applied:  # the commit may have happened: retrying could write twice
                for _, done in batch:
                    if not done.done():
                        done.set_exception(e)
                return
            # rolled back: one at a time, so that a bad write fails alone
            for op, done in batch:
                try:
                    async with self._batch() as apply:
                        (result,) = await apply([op])
                except Exception as e:
                    if not done.done():
                        done.set_exception(e)
                else:
                    answer(done, result)
        else:
            for (_, done), result in zip(batch, results, strict=True):
                answer(done, result)

    @contextlib.asynccontextmanager
    async def _batch(self) -> AsyncIterator[Callable[[Sequence[Op]], Awaitable[list[Any]]]]:
        """A write transaction of the journal, committed on leaving: what it yields writes
        ops in it (those not committed already: asked ``again`` and found), on this
        database's path, and gives each op's result."""
        if self._pg_direct:
            async with self._writing_pg() as db:
                yield partial(apply_pg, db=db)
            return
        async with self._writing() as conn:
            yield partial(self._apply, conn)

    async def _apply(self, conn: AsyncConnection, ops: Sequence[Op]) -> list[Any]:
        if self._sqlite_direct:
            return await self._run_sqlite(conn, partial(apply_sqlite, ops))
        done, todo = await settle_on(conn, ops)
        await check_fences_on(conn, todo)
        written = await write(conn, todo)  # type: ignore[arg-type]  # no Move but on a raw path
        return merge(len(ops), done, written) if done else written

    # ------------------------------------------------------------------ the rules' memory

    async def record_protection(self, account_id: int, at: float) -> None:
        """A timeout of this player's answered with all-in protection at ``at`` (D7)."""
        async with self._writing() as conn:
            await conn.execute(insert(protection_uses).values(account_id=account_id, at=at))

    async def protection_uses(self, since: float) -> dict[str, list[float]]:
        """The protections used from ``since`` on, by account name, each player's times in
        order (the room loads them into its limit at start)."""
        async with self.engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(accounts.c.name, protection_uses.c.at)
                    .join(accounts, accounts.c.id == protection_uses.c.account_id)
                    .where(protection_uses.c.at >= since)
                    .order_by(protection_uses.c.at, protection_uses.c.id)
                )
            ).all()
        out: dict[str, list[float]] = {}
        for name, at in rows:
            out.setdefault(name, []).append(float(at))
        return out

    async def last_departure(self, table: str, account_id: int, since: float) -> Departure | None:
        """The player's last departure from ``table`` from ``since`` on, if any (D13: the
        last one counts; he sat down again with at least the ones before)."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(departures.c.stack, departures.c.at)
                    .where(
                        departures.c.table_name == table,
                        departures.c.account_id == account_id,
                        departures.c.at >= since,
                    )
                    .order_by(departures.c.at.desc(), departures.c.id.desc())
                    .limit(1)
                )
            ).first()
        return None if row is None else Departure(int(row.stack), float(row.at))

    async def add_reveal(self, hand_id: int, seat: int, cards: str, at: float | None = None) -> None:
        """Cards the player in ``seat`` showed after hand ``hand_id`` ended ('AhKd', or
        one card; D12). Public: the hand's history carries them (``hand``)."""
        async with self._writing() as conn:
            await conn.execute(
                insert(reveals).values(
                    hand_id=hand_id, seat=seat, cards=cards, at=time.time() if at is None else at
                )
            )

    # ------------------------------------------------------------------ reading hands

    async def hand(self, hand_id: int) -> dict[str, Any] | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(hands).where(hands.c.id == hand_id))).first()
            if row is None:
                return None
            players = (
                await conn.execute(
                    select(hand_players.c.account_id, hand_players.c.seat, hand_players.c.net).where(
                        hand_players.c.hand_id == hand_id
                    )
                )
            ).all()
            shown = (
                await conn.execute(
                    select(reveals.c.seat, reveals.c.cards)
                    .where(reveals.c.hand_id == hand_id)
                    .order_by(reveals.c.id)
                )
            ).all()
        data = dict(row._mapping)
        data["players"] = [dict(p._mapping) for p in players]
        if shown and data.get("history"):  # D12: the cards shown after the hand, by seat
            data["history"] = _with_reveals(data["history"], shown)
        if data.get("history") and data.get("deck"):  # the deal's leaves and openings, from its salts
            data["history"] = full_history(data["history"], data["deck"], data["id"])
        return data

    async def hands_of(
        self, account_id: int, limit: int = 50, *, before: int | None = None, game: str | None = None,
        since: float | None = None, until: float | None = None,
    ) -> list[dict[str, Any]]:
        """The player's complete hands, newest first (by id), at most ``limit``: those
        before hand id ``before`` (a page's cursor), of ``game``, ended from ``since`` on
        and before ``until`` (seconds since the epoch) when given. The rows are read by
        the player's own ``hand_players`` rows (index hand_players_account_hand), newest first."""
        query = (
            select(
                hands.c.id,
                hands.c.table_name,
                hands.c.number,
                hands.c.game,
                hands.c.ended_at,
                hand_players.c.seat,
                hand_players.c.net,
            )
            .join(hand_players, hand_players.c.hand_id == hands.c.id)
            .where(*_mine(account_id, before=before, game=game, since=since, until=until))
            .order_by(hand_players.c.hand_id.desc())
            .limit(limit)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [dict(r._mapping) for r in rows]

    async def hand_games_of(self, account_id: int) -> list[tuple[str, int]]:
        """The games of the player's complete hands, each with how many he played, the
        most played first (a history's filter offers them)."""
        count = func.count().label("n")
        query = (
            select(hands.c.game, count)
            .join(hand_players, hand_players.c.hand_id == hands.c.id)
            .where(*_mine(account_id))
            .group_by(hands.c.game)
            .order_by(count.desc(), hands.c.game)
        )
        async with self.engine.connect() as conn:
            rows = (await conn.execute(query)).all()
        return [(str(game), int(n)) for game, n in rows]

    async def histories_of(
        self, account_id: int, *, game: str | None = None, since: float | None = None,
        until: float | None = None, batch: int = 200,
    ) -> AsyncIterator[list[dict[str, Any]]]:
        """The stored histories of the player's complete hands, oldest first, in batches of
        at most ``batch``: each ``{"id", "seat", "history"}`` (the history's JSON text with
        the cards shown after the hand, D12, as ``hand`` gives it, but not made whole:
        ``full_history`` adds what only the JSON view needs). The hands' ids are read
        first (one query, a few bytes a hand), then each batch by its ids (the hands'
        primary key), each in a short read of its own: a player's every history is never
        in memory at once, no read stays open while the caller writes them out, and no
        batch sorts all his hands again (hand_players has no index by account and hand)."""
        async with self.engine.connect() as conn:
            ids = [int(i) for i in (await conn.execute(
                select(hand_players.c.hand_id)
                .join(hands, hand_players.c.hand_id == hands.c.id)
                .where(*_mine(account_id, game=game, since=since, until=until))
                .order_by(hand_players.c.hand_id)
            )).scalars()]
        for start in range(0, len(ids), batch):
            chunk = ids[start : start + batch]
            async with self.engine.connect() as conn:
                rows = (await conn.execute(
                    select(hands.c.id, hand_players.c.seat, hands.c.history)
                    .join(hand_players, hand_players.c.hand_id == hands.c.id)
                    .where(hands.c.id.in_(chunk), hand_players.c.account_id == account_id)
                    .order_by(hands.c.id)
                )).all()
                shown = (await conn.execute(
                    select(reveals.c.hand_id, reveals.c.seat, reveals.c.cards)
                    .where(reveals.c.hand_id.in_(chunk))
                    .order_by(reveals.c.id)
                )).all()
            by_hand: dict[int, list[Any]] = {}
            for hand_id, seat, cards in shown:
                by_hand.setdefault(int(hand_id), []).append((seat, cards))
            out = []
            for r in rows:
                history = r.history or ""
                if int(r.id) in by_hand and history:
                    history = _with_reveals(history, by_hand[int(r.id)])
                out.append({"id": int(r.id), "seat": int(r.seat), "history": history})
            yield out


def _mine(
    account_id: int, *, before: int | None = None, game: str | None = None, since: float | None = None,
    until: float | None = None,
) -> list[Any]:
    """The conditions of a player's complete hands (hands joined to hand_players), with
    hands_of's filters."""
    where = [hand_players.c.account_id == account_id, hands.c.status == "complete"]
    if before is not None:
        where.append(hand_players.c.hand_id < before)
    if game is not None:
        where.append(hands.c.game == game)
    if since is not None:
        where.append(hands.c.ended_at >= since)
    if until is not None:
        where.append(hands.c.ended_at < until)
    return where


# The SQLAlchemy path's statements, made once: building a statement cost more than running
# it (~0.1 ms of CPU each time)
_NEW_HANDS = insert(hands).returning(hands.c.id, sort_by_parameter_order=True)
_INSERT_HAND_PLAYERS = insert(hand_players)
_SET_STACKS = (
    update(seats)
    .where(seats.c.table_name == bindparam("b_table"), seats.c.account_id == bindparam("b_account"))
    .values(stack=bindparam("b_stack"))
)
_SET_NETS = (
    update(hand_players)
    .where(hand_players.c.hand_id == bindparam("b_hand"), hand_players.c.account_id == bindparam("b_account"))
    .values(net=bindparam("b_net"))
)
_FINISH_HANDS = (
    update(hands)
    .where(hands.c.id == bindparam("b_id"))
    .values(
        status="complete",
        ended_at=bindparam("b_ended"),
        salt=bindparam("b_salt"),
        deck=bindparam("b_deck"),
        history=bindparam("b_history"),
        phh=bindparam("b_phh"),
        text=bindparam("b_text"),
    )
)


async def write(conn: AsyncConnection, ops: Sequence[HandStart | HandFinish]) -> list[int | None]:
    """Hand writes in one transaction, as executemany statements in this order: new
    hands (their ids come back in order), their players; then for finished hands the
    seats' stacks, the players' nets, the ledger, the hands' rows. Returns each op's
    result (a new hand's id, None for a finish)."""
    out: list[int | None] = [None] * len(ops)
    starts = [(i, op) for i, op in enumerate(ops) if isinstance(op, HandStart)]
    ends = [op for op in ops if isinstance(op, HandFinish)]
    if starts:
        new = [
            {"table_name": op.table, "number": op.number, "game": op.game, "status": "playing",
             "started_at": op.at, "commitment": op.commitment}
            for _, op in starts
        ]
        result = await conn.execute(_NEW_HANDS, new)
        ids = [int(x) for x in result.scalars().all()]
        for (i, _), hand_id in zip(starts, ids, strict=True):
            out[i] = hand_id
        players = [
            {"hand_id": hand_id, "account_id": account, "seat": seat}
            for (_, op), hand_id in zip(starts, ids, strict=True)
            for account, seat in op.players
        ]
        if players:
            await conn.execute(_INSERT_HAND_PLAYERS, players)
    if ends:
        stacks = [
            {"b_table": op.table, "b_account": a, "b_stack": stack}
            for op in ends
            for a, _, stack in op.results
        ]
        if stacks:
            await conn.execute(_SET_STACKS, stacks)
            await conn.execute(
                _SET_NETS,
                [
                    {"b_hand": op.hand_id, "b_account": a, "b_net": net}
                    for op in ends
                    for a, net, _ in op.results
                ],
            )
        entries = [row for op in ends for row in op.ledger]
        if entries:
            await conn.execute(INSERT_LEDGER, entries)
        now = time.time()
        await conn.execute(
            _FINISH_HANDS,
            [
                {"b_id": op.hand_id, "b_ended": now, "b_salt": op.salt, "b_deck": op.deck,
                 "b_history": op.history, "b_phh": op.phh, "b_text": op.text}
                for op in ends
            ],
        )
    return out


def _with_reveals(text: str, shown: Sequence[Any]) -> str:
    """A stored history's JSON text with ``"reveals": {"<seat>": ["Ah", "Kd"]}`` from the
    reveals rows (seat, 'AhKd'), a seat's showings joined in order (one card, then the other)."""
    by_seat: dict[str, list[str]] = {}
    for seat, cards in shown:
        have = by_seat.setdefault(str(seat), [])
        have += [c for c in (cards[i : i + 2] for i in range(0, len(cards), 2)) if c not in have]
    history = json.loads(text)
    if not isinstance(history, dict):
        return text
    history["reveals"] = by_seat
    return json.dumps(history, separators=(",", ":"))
