"""The room's configuration: its tables and money settings, from a TOML file.

``[room]`` holds ``starting_balance`` (play chips for a new account), ``daily_topup`` (a
broke player may get back to this once a day), ``pause`` (seconds between hands),
``max_protections`` and ``protection_hours`` (D7: a player's timeouts are answered with
all-in protection at most that many times in that many hours, counted across the room's
tables and kept across restarts; past it they check or fold) and ``rathole_minutes`` (D13:
a player who leaves a table and sits there again within that time must bring at least
the stack he left with; 0 turns the rule off) and ``registrations_per_hour`` (10: new
accounts one address may register in an hour, so free chips cannot be farmed). Each
``[[table]]`` has a unique ``name``, a ``game`` (NLHE, PLHE, FLHE, mixed, Stud), its stakes
(``small_blind``/``big_blind``; fixed limit ``small_bet``/``big_bet``, blinds optional;
stud ``small_bet``, ``big_bet``, ``ante``, ``bring_in``; ``ante`` for hold'em too), a mixed
table a ``schedule`` of such games each with ``hands``, and the table settings of
``TableConfig``: ``seats``, ``min_buy_in``, ``max_buy_in``, ``action_time``, ``time_bank``,
``time_bank_max``, ``time_bank_refill``, ``timeout_policy`` (all_in_protection, the
default, or check_fold; D7), ``max_timeouts``, ``max_missed_orbits``, ``missed_blinds``
("seeds", the default: one live post the size of the big blind, or "standard": the big
blind live and the small blind dead; D11) and ``straddles`` (true or false, the default;
D10) and ``seat_offer_time`` (30: seconds a freed seat is held for the first on the
waiting list). Each ``[[template]]`` describes tables that open themselves, as a
``[[table]]`` does one table, plus ``min_free`` (1: tables of it kept with a free seat),
``max_tables`` (20) and ``close_after`` (300: seconds an empty surplus table stays open);
its tables are named after it, '<name> #1', '#2'... (issue 19). ``DEFAULT`` below, the
room ``pokerroom serve`` runs without a file, is a complete example; its tables keep the
table defaults (all-in protection, the seeds' missed blinds, no straddles).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pokerroom.core.structures import Game, GameError
from pokerroom.table import Stage, TableConfig, TableError

GAMES = ("NLHE", "PLHE", "FLHE", "mixed", "Stud")
_TABLE_SETTINGS = (
    "seats",
    "min_buy_in",
    "max_buy_in",
    "action_time",
    "time_bank",
    "time_bank_max",
    "time_bank_refill",
    "timeout_policy",
    "max_timeouts",
    "max_missed_orbits",
    "missed_blinds",
    "straddles",
    "seat_offer_time",
)


class ConfigError(ValueError):
    """A room configuration that cannot be used; the message says where and why."""


@dataclass(frozen=True)
class TemplateConfig:
    """Tables that open themselves (issue 19): ``table`` describes each (its name is the
    template's); they are named '<template> #1', '#2'... The room keeps ``min_free`` of them
    with a free seat, at most ``max_tables`` open, and closes a surplus table nobody sat
    at for ``close_after`` seconds (worker/templates.py)."""

    table: TableConfig
    min_free: int = 1
    max_tables: int = 20
    close_after: float = 300.0

    @property
    def name(self) -> str:
        return self.table.name

    def table_name(self, number: int) -> str:
        return f"{self.name} #{number}"

    def number_of(self, name: str) -> int | None:
        """The number of this template's table ``name`` (None: not one of its names)."""
        prefix = f"{self.name} #"
        if not name.startswith(prefix) or not re.fullmatch(r"[1-9][0-9]{0,5}", name[len(prefix):]):
            return None
        number = int(name[len(prefix):])
        return number if number <= self.max_tables else None

    def config_of(self, number: int) -> TableConfig:
        return replace(self.table, name=self.table_name(number), template=self.name)


@dataclass(frozen=True)
class RoomConfig:
    tables: tuple[TableConfig, ...]
    starting_balance: int = 10_000
    daily_topup: int = 2_000
    pause: float = 3.0
    max_protections: int = 2  # D7: all-in protections a player gets in protection_hours
    protection_hours: float = 24.0
    rathole_minutes: float = 60.0  # D13: 0 turns the rule off
    registrations_per_hour: int = 10  # new accounts from one address in an hour (issue 16)
    templates: tuple[TemplateConfig, ...] = ()  # tables that open themselves (issue 19)

    def table_config(self, name: str) -> TableConfig | None:
        """The table named ``name``: one of the config's, or of a template's (None: neither)."""
        for table in self.tables:
            if table.name == name:
                return table
        for template in self.templates:
            number = template.number_of(name)
            if number is not None:
                return template.config_of(number)
        return None

    @property
    def protection_window(self) -> float:
        """The protection limit's window in seconds."""
        return self.protection_hours * 3600.0

    @property
    def rathole_window(self) -> float:
        """The rathole rule's window in seconds (0: off)."""
        return self.rathole_minutes * 60.0


DEFAULT = """
[room]
starting_balance = 10000
daily_topup = 2000
pause = 3.0
max_protections = 2
protection_hours = 24.0
rathole_minutes = 60.0
registrations_per_hour = 10

[[table]]
name = "Arbat NL 1/2"
game = "NLHE"
small_blind = 1
big_blind = 2
seats = 6
min_buy_in = 40
max_buy_in = 200

[[table]]
name = "Nevsky PL 1/2"
game = "PLHE"
small_blind = 1
big_blind = 2
seats = 6
min_buy_in = 40
max_buy_in = 200

[[table]]
name = "Tverskaya FL 2/4"
game = "FLHE"
small_bet = 2
big_bet = 4
seats = 9
min_buy_in = 40
max_buy_in = 400

[[table]]
name = "Mixed NL/FL"
game = "mixed"
seats = 6
min_buy_in = 40
max_buy_in = 400
schedule = [
  { game = "NLHE", small_blind = 1, big_blind = 2, hands = 6 },
  { game = "FLHE", small_bet = 4, big_bet = 8, small_blind = 2, big_blind = 4, hands = 6 },
]

[[table]]
name = "Stud 10/20"
game = "Stud"
small_bet = 10
big_bet = 20
ante = 1
bring_in = 3
seats = 8
min_buy_in = 200
max_buy_in = 1000

# tables that open themselves: "Moskva NL 1/2 #1", "#2"... one always with a free seat
[[template]]
name = "Moskva NL 1/2"
game = "NLHE"
small_blind = 1
big_blind = 2
seats = 6
min_buy_in = 40
max_buy_in = 200
min_free = 1
max_tables = 20
close_after = 300
"""


def _int(spec: dict[str, Any], key: str, where: str, default: int | None = None) -> int:
    value = spec.get(key, default)
    if type(value) is not int or value < 0:
        raise ConfigError(f"{where}: {key} must be a non-negative whole number, got {value!r}")
    return value


def _number(room: dict[str, Any], key: str, default: float, low: float, high: float, above: bool,
            where: str = "[room]") -> float:
    """A number of [room] (or of ``where``) in ``low`` .. ``high`` (``above``: strictly above ``low``)."""
    value = room.get(key, default)
    if type(value) not in (int, float) or not (low < value if above else low <= value) or not value <= high:
        bound = f"above {low:g}" if above else f"{low:g}"
        raise ConfigError(f"{where}: {key} must be a number from {bound} to {high:g}, got {value!r}")
    return float(value)


def _game(spec: dict[str, Any], where: str) -> Game:
    kind = spec.get("game")
    try:
        if kind == "NLHE":
            return Game.no_limit(
                _int(spec, "small_blind", where), _int(spec, "big_blind", where), _int(spec, "ante", where, 0)
            )
        if kind == "PLHE":
            return Game.pot_limit(
                _int(spec, "small_blind", where), _int(spec, "big_blind", where), _int(spec, "ante", where, 0)
            )
        if kind == "FLHE":
            small = _int(spec, "small_bet", where)
            return Game.fixed_limit(
                small,
                _int(spec, "big_bet", where, 2 * small),
                small_blind=spec.get("small_blind"),
                big_blind=spec.get("big_blind"),
                ante=_int(spec, "ante", where, 0),
            )
        if kind == "Stud":
            return Game.stud(
                _int(spec, "small_bet", where),
                _int(spec, "big_bet", where),
                ante=_int(spec, "ante", where, 0),
                bring_in=_int(spec, "bring_in", where),
            )
    except GameError as e:
        raise ConfigError(f"{where}: {e}") from None
    raise ConfigError(f"{where}: game must be one of {', '.join(GAMES)}, got {kind!r}")


def _table(spec: Any, index: int) -> TableConfig:
    if not isinstance(spec, dict):
        raise ConfigError(f"table {index + 1} must be a TOML table")
    name = spec.get("name")
    where = f"table {name!r}" if name else f"table {index + 1}"
    if type(name) is not str or not 1 <= len(name) <= 64:
        raise ConfigError(f"{where}: a name of 1 to 64 characters is needed")
    known = {
        "name",
        "game",
        "small_blind",
        "big_blind",
        "ante",
        "small_bet",
        "big_bet",
        "bring_in",
        "schedule",
        *_TABLE_SETTINGS,
    }
    unknown = sorted(set(spec) - known)
    if unknown:
        raise ConfigError(f"{where}: unknown setting {unknown[0]!r}")
    if spec.get("game") == "mixed":
        schedule = spec.get("schedule")
        if not isinstance(schedule, list) or not schedule:
            raise ConfigError(f"{where}: a mixed table needs a schedule of games")
        stages = []
        for k, stage in enumerate(schedule):
            if not isinstance(stage, dict):
                raise ConfigError(f"{where}: schedule entry {k + 1} must be a table")
            stages.append(
                Stage(_game(stage, f"{where}, schedule entry {k + 1}"), _int(stage, "hands", where, 6))
            )
    else:
        stages = [Stage(_game(spec, where), 1)]
    settings = {k: spec[k] for k in _TABLE_SETTINGS if k in spec}
    try:
        return TableConfig.mixed(stages, name=name, **settings)
    except TableError as e:
        raise ConfigError(f"{where}: {e}") from None


_TEMPLATE_SETTINGS = ("min_free", "max_tables", "close_after")


def _template(spec: Any, index: int) -> TemplateConfig:
    if not isinstance(spec, dict):
        raise ConfigError(f"template {index + 1} must be a TOML table")
    name = spec.get("name")
    where = f"template {name!r}" if name else f"template {index + 1}"
    if type(name) is str and len(name) > 56:
        raise ConfigError(f"{where}: a template's name has at most 56 characters (its tables add ' #N')")
    table = _table({k: v for k, v in spec.items() if k not in _TEMPLATE_SETTINGS}, index)
    min_free = _int(spec, "min_free", where, 1)
    max_tables = _int(spec, "max_tables", where, 20)
    if not 1 <= min_free <= max_tables <= 10_000:
        raise ConfigError(f"{where}: needs 1 <= min_free <= max_tables <= 10000, "
                          f"got {min_free} and {max_tables}")
    close_after = _number(spec, "close_after", 300.0, 0.0, 86_400.0, above=False, where=where)
    return TemplateConfig(table, min_free, max_tables, close_after)


def parse_room(text: str) -> RoomConfig:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"not valid TOML: {e}") from None
    room = data.get("room", {})
    if not isinstance(room, dict):
        raise ConfigError("[room] must be a table")
    specs = data.get("table", [])
    kinds = data.get("template", [])
    if not isinstance(specs, list) or not isinstance(kinds, list) or not (specs or kinds):
        raise ConfigError("the room needs at least one [[table]] or [[template]]")
    tables = tuple(_table(spec, i) for i, spec in enumerate(specs))
    templates = tuple(_template(spec, i) for i, spec in enumerate(kinds))
    names = [t.name for t in tables] + [t.name for t in templates]
    if len(set(names)) != len(names):
        raise ConfigError("table and template names must be unique")
    for table in tables:
        for template in templates:
            if template.number_of(table.name) is not None:
                raise ConfigError(f"table {table.name!r} has a name of template {template.name!r}'s tables")
    pause = room.get("pause", 3.0)
    if type(pause) not in (int, float) or not 0 <= pause <= 60:
        raise ConfigError(f"pause must be 0 to 60 seconds, got {pause!r}")
    max_protections = _int(room, "max_protections", "[room]", 2)
    if max_protections > 1000:
        raise ConfigError(f"[room]: max_protections must be 0 to 1000, got {max_protections!r}")
    registrations = _int(room, "registrations_per_hour", "[room]", 10)
    if not 1 <= registrations <= 1_000_000:
        raise ConfigError(f"[room]: registrations_per_hour must be 1 to 1000000, got {registrations!r}")
    return RoomConfig(
        tables,
        starting_balance=_int(room, "starting_balance", "[room]", 10_000),
        daily_topup=_int(room, "daily_topup", "[room]", 2_000),
        pause=float(pause),
        max_protections=max_protections,
        protection_hours=_number(room, "protection_hours", 24.0, 0.0, 24.0 * 365, above=True),
        rathole_minutes=_number(room, "rathole_minutes", 60.0, 0.0, 60.0 * 24 * 30, above=False),
        registrations_per_hour=registrations,
        templates=templates,
    )


def load_room(path: str | Path | None) -> RoomConfig:
    if path is None:
        return parse_room(DEFAULT)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"cannot read {path}: {e}") from None
    return parse_room(text)
