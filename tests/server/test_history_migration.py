"""Migration 0005 (store/migrations/versions/0005_histories_one_form.py): a database at
revision 0004 holding hands stored in every older form (the "views" form of before
snapshots, the "openings" form of before salts, the current form of before seeds, the
room's first cut) is upgraded, then read through the current code (Store.hand,
gateway hand_for, histories.stored_text): every rewritten row is the history the runner
stores now, served as such; the "views" texts come back byte for byte from the rebuilt
snapshot. On SQLite and on PostgreSQL (POKERROOM_TEST_DATABASE_URL)."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from sqlalchemy import insert, select, update

from pokerroom.core.cards import FULL_DECK
from pokerroom.gateway.app import hand_for
from pokerroom.histories import full_history, stored_text
from pokerroom.store import Store
from pokerroom.store.schema import hand_players, hands
from tests.server.helpers.migrations import upgrade_to
from tests.server.helpers.tables import played_tables, runner_history, views_history

FORMS = ("views", "openings", "no deal", "current", "first cut")


def _with_deal(history: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in history.items():
        out[key] = value
        if key == "commitment":
            out["deal"] = {"scheme": 1}
    return out


async def _at_0004(store: Store) -> None:
    async with store.engine.begin() as conn:
        await upgrade_to(conn, store, "0004")


async def _stored_hands(store: Store, count: int) -> list[dict[str, Any]]:
    """``count`` hands played at tables of every game, stored at 0004 in the forms in turn;
    for each: its id, form, the history the runner stores now (what 0005 should make of
    it), its deck, and (the "views" form) its players' texts."""
    rng = random.Random(17)
    accounts: dict[str, int] = {}
    out: list[dict[str, Any]] = []
    for k, table in enumerate(played_tables(7, hands=20)):  # one table of each game in turn
        if k % 2 or len(out) == count:  # the table plays on between two of them: nothing kept
            continue
        assert table.hand is not None and table.plan is not None
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        new, cards, old = runner_history(table, deck, k)
        for name in table.hand_players:
            if name not in accounts:
                accounts[name] = (await store.create_account(name, "h", 1000)).id
        form = FORMS[k % len(FORMS)]
        async with store.engine.begin() as conn:
            row = await conn.execute(insert(hands).values(
                table_name="T1", number=new["number"], game=old["record"]["game"], status="complete",
                started_at=1.5, ended_at=2.0, commitment=new["commitment"], salt="", deck=cards))
            hand_id = row.inserted_primary_key[0]
            phh = text = None
            views: dict[str, Any] = {}
            if form == "views":
                stored, phh, text = views_history(table, deck, k, hand_id)
                views = stored["private"]["views"]
            elif form == "openings":
                stored = old
            elif form == "no deal":
                stored = new
            elif form == "current":
                stored = new = _with_deal(new)
            else:  # the first cut: one salt, no "private"
                stored = new = {"table": "T1", "number": new["number"], "commitment": new["commitment"],
                                "salt": "00", "deck": cards, "players": new["players"],
                                "record": old["record"]}
            await conn.execute(update(hands).where(hands.c.id == hand_id).values(
                history=json.dumps(stored), phh=phh, text=text))
            for seat, name in zip(table.plan.seats, table.hand_players, strict=True):
                await conn.execute(insert(hand_players).values(
                    hand_id=hand_id, account_id=accounts[name], seat=seat, net=0))
        out.append({"id": hand_id, "form": form, "new": _with_deal(new) if form != "first cut" else new,
                    "cards": cards, "views": views, "seats": list(table.plan.seats)})
    return out


def test_0005_rewrites_every_old_history_into_the_current_form(database: tuple[str, str | None]) -> None:
    async def main() -> None:
        store = Store(*database)
        try:
            await _at_0004(store)
            stored = await _stored_hands(store, 40)
            await store.migrate()  # the server's start: 0005 on top
            async with store.engine.connect() as conn:
                (version,) = (await conn.exec_driver_sql("SELECT version_num FROM alembic_version")).one()
                raw = dict((await conn.execute(select(hands.c.id, hands.c.history))).all())
            assert version == "0008"  # and 0006 (the tables' leases), 0008 (notes) on top
            seen = dict.fromkeys(FORMS, 0)
            for hand in stored:
                seen[hand["form"]] += 1
                # the row as the runner stores a hand now (the first cut's as it was)
                assert json.loads(raw[hand["id"]]) == hand["new"], hand["form"]
                assert list(json.loads(raw[hand["id"]])) == list(hand["new"])
                data = await store.hand(hand["id"])
                assert data is not None
                if hand["form"] == "first cut":
                    assert data["history"] == raw[hand["id"]]
                    continue
                # read through the current code, as it reads what the runner stores now
                want = full_history(json.dumps(hand["new"]), hand["cards"], hand["id"])
                assert json.loads(data["history"]) == json.loads(want)
                history = json.loads(data["history"])
                for seat in hand["seats"]:
                    served = hand_for(data, seat, "")
                    assert json.loads(bytes(served.body))["openings"]
                    for kind, key in (("phh", "phh"), ("txt", "text")):
                        text = stored_text(history, seat, kind)
                        assert bytes(hand_for(data, seat, kind).body).decode() == text
                        if hand["views"]:  # the texts it kept come back from the rebuilt snapshot
                            assert text == hand["views"][str(seat)][key], (hand["form"], seat, kind)
            assert all(seen.values()), seen
            await store.migrate()  # at head already: nothing changes
            async with store.engine.connect() as conn:
                assert dict((await conn.execute(select(hands.c.id, hands.c.history))).all()) == raw
        finally:
            await store.close()

    asyncio.run(main())


def test_0005_stops_at_a_history_that_does_not_rebuild_and_names_it(tmp_path: Any) -> None:
    async def main() -> None:
        store = Store(f"sqlite:///{tmp_path / 'room.db'}")
        try:
            await _at_0004(store)
            (stored,) = await _stored_hands(store, 1)  # a history of the "views" form
            async with store.engine.begin() as conn:
                history = json.loads((await conn.execute(
                    select(hands.c.history).where(hands.c.id == stored["id"]))).scalar_one())
                history["leaves"][3] = "0" * 64  # a leaf its salts do not make
                await conn.execute(update(hands).where(hands.c.id == stored["id"]).values(
                    history=json.dumps(history)))
            with pytest.raises(ValueError, match=f"hand {stored['id']}: .*leaves"):
                await store.migrate()
        finally:
            await store.close()

    asyncio.run(main())
