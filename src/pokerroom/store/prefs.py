"""A player's own bet presets (issue 19, item 9), kept on the server so that they follow
him from one browser to another.

Before the flop (``preflop``) a preset is a multiple of the bet to raise (2.5 opens to
2.5 big blinds, and over a raise to 6 makes it 15); after it (``postflop``) a percent of
the pot once the player has called (33, 66, 125). At most ``MAX_PRESETS`` of each, in a
sane range, kept sorted; an empty list means the action bar's own buttons (min, half
pot, pot). All-in is always there and is no preset. One row per account in
``account_prefs``, the presets as JSON. The gateway's prefs.py reads what a client sends;
``check_presets`` here says what is wrong (``PrefsError``), so no caller stores what the
action bar could not draw.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from pokerroom.store.database import Database
from pokerroom.store.schema import account_prefs

MAX_PRESETS = 4  # per street kind: with all-in, five buttons, keys 1-5
# (lowest, highest) of each kind: a multiple of the bet, a percent of the pot
RANGES = {"preflop": (1.5, 20.0), "postflop": (5.0, 500.0)}
DECIMALS = {"preflop": 2, "postflop": 0}  # 2.25x yes, 2.125x no; whole percents

Presets = dict[str, list[float]]


class PrefsError(ValueError):
    """Presets the room does not keep: not a list of numbers, too many, out of range,
    too precise, repeated, or a kind it does not know."""


@dataclass(frozen=True)
class Prefs:
    presets: Presets
    updated_at: float | None  # None: never saved (the defaults)


def empty() -> Presets:
    return {kind: [] for kind in RANGES}


def check_presets(value: object) -> Presets:
    """The presets as stored (each kind sorted, whole percents as ints), or PrefsError."""
    if not isinstance(value, dict):
        raise PrefsError('presets are an object {"preflop": [...], "postflop": [...]}')
    unknown = sorted(str(k) for k in value if k not in RANGES)
    if unknown:
        raise PrefsError(f"unknown kind of preset {unknown[0]!r} (preflop, postflop)")
    presets = empty()
    for kind, (lo, hi) in RANGES.items():
        items = value.get(kind, [])
        if not isinstance(items, list):
            raise PrefsError(f"{kind} presets are a list of numbers")
        if len(items) > MAX_PRESETS:
            raise PrefsError(f"at most {MAX_PRESETS} {kind} presets")
        seen: list[float] = []
        for item in items:
            if isinstance(item, bool) or not isinstance(item, int | float) or not math.isfinite(item):
                raise PrefsError(f"{kind} presets are numbers")
            if not lo <= item <= hi:
                raise PrefsError(f"a {kind} preset is from {lo:g} to {hi:g}")
            scaled = item * 10 ** DECIMALS[kind]
            if abs(scaled - round(scaled)) > 1e-9:
                raise PrefsError(f"a {kind} preset has at most {DECIMALS[kind]} decimals")
            number = round(item, DECIMALS[kind]) if DECIMALS[kind] else round(item)
            if number in seen:
                raise PrefsError(f"the {kind} preset {number:g} is given twice")
            seen.append(number)
        presets[kind] = sorted(seen)
    return presets


async def prefs_of(db: Database, account_id: int) -> Prefs:
    """The account's presets (empty lists when he never saved any)."""
    query = select(account_prefs.c.presets, account_prefs.c.updated_at).where(
        account_prefs.c.account_id == account_id)
    async with db.engine.connect() as conn:
        row = (await conn.execute(query)).first()
    if row is None:
        return Prefs(empty(), None)
    return Prefs({**empty(), **json.loads(row.presets)}, float(row.updated_at))


async def put_prefs(db: Database, account_id: int, presets: object) -> Prefs:
    """Check and keep the account's presets (over the old ones); as stored."""
    checked = check_presets(presets)
    now = time.time()
    text = json.dumps(checked, separators=(",", ":"))
    insert = pg_insert if not db.sqlite else sqlite_insert
    statement = insert(account_prefs).values(account_id=account_id, presets=text, updated_at=now)
    statement = statement.on_conflict_do_update(
        index_elements=[account_prefs.c.account_id], set_={"presets": text, "updated_at": now})
    async with db._writing() as conn:
        await conn.execute(statement)
    return Prefs(checked, now)
