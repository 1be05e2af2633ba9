"""Room configs for tests, built instead of written out as TOML in each test: ``room(...)``
gives the text ``pokerroom serve --config`` reads (docs: pokerroom.config), from the room's
settings and its tables; ``table(...)`` is one table, no-limit 1/2 unless told, every
setting not given left to the room's defaults; ``NO_BANK`` turns the time bank off (a
test's clock is then exactly its ``action_time``).

    room(table("NL", seats=6, action_time=2, **NO_BANK), pause=0.05)
"""

from __future__ import annotations

from typing import Any

NO_BANK = {"time_bank": 0, "time_bank_max": 0, "time_bank_refill": 0}

# the games, as the tables of the test room play them
NL12 = {"game": "NLHE", "small_blind": 1, "big_blind": 2}
PL12 = {"game": "PLHE", "small_blind": 1, "big_blind": 2}
FL24 = {"game": "FLHE", "small_bet": 2, "big_bet": 4}
STUD = {"game": "Stud", "small_bet": 10, "big_bet": 20, "ante": 1, "bring_in": 3}
SIX = {"seats": 6, "min_buy_in": 40, "max_buy_in": 200}  # the usual table of the tests, at 1/2


def table(name: str, **settings: Any) -> dict[str, Any]:
    """One table: no-limit 1/2 unless ``settings`` give a ``game`` (and its stakes)."""
    game = dict(NL12) if "game" not in settings else {}
    return {"name": name, **game, **settings}


def room(*tables: dict[str, Any], templates: tuple[dict[str, Any], ...] = (), **settings: Any) -> str:
    """The TOML text of a room of ``tables`` (and ``templates``, tables that open themselves:
    each as ``table`` makes one, with ``min_free``, ``max_tables``, ``close_after``) with the
    room ``settings`` (none: the room's defaults)."""
    parts = []
    if settings:
        parts.append("[room]\n" + "".join(f"{k} = {_value(v)}\n" for k, v in settings.items()))
    for kind, specs in (("table", tables), ("template", templates)):
        for t in specs:
            parts.append(f"[[{kind}]]\n" + "".join(f"{k} = {_value(v)}\n" for k, v in t.items()))
    return "\n".join(parts)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, int | float):
        return repr(v)
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_value(x)}" for k, x in v.items()) + " }"
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    raise TypeError(f"no TOML for {v!r}")
