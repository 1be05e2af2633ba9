"""The room settings of issue 15 in the TOML config (config.py): the protection limit
(D7) and the rathole window (D13) in ``[room]``, missed blinds (D11) and straddles (D10)
per table; the default room's tables keep the table defaults (all-in protection)."""

from __future__ import annotations

import pytest

from pokerroom.config import DEFAULT, ConfigError, parse_room
from pokerroom.table import TableConfig
from tests.rooms import FL24, room, table

TABLE = room(table("T", min_buy_in=40, max_buy_in=200))


def test_D7_D13_the_room_defaults_two_protections_a_day_and_an_hour_against_ratholing() -> None:
    room = parse_room(TABLE)
    assert (room.max_protections, room.protection_hours, room.rathole_minutes) == (2, 24.0, 60.0)
    assert (room.protection_window, room.rathole_window) == (86_400.0, 3_600.0)
    default = parse_room(DEFAULT)
    assert (default.max_protections, default.protection_hours, default.rathole_minutes) == (2, 24.0, 60.0)


def test_D7_every_table_of_the_default_room_uses_all_in_protection() -> None:
    default = parse_room(DEFAULT)
    assert len(default.tables) == 5 and [t.name for t in default.templates] == ["Moskva NL 1/2"]
    tables = [*default.tables, *(t.config_of(1) for t in default.templates)]
    assert {t.timeout_policy for t in tables} == {"all_in_protection"}
    assert {t.missed_blinds for t in tables} == {"seeds"}
    assert {t.straddles for t in tables} == {False}


def test_D7_D13_room_settings_are_read() -> None:
    room = parse_room("[room]\nmax_protections = 0\nprotection_hours = 0.5\nrathole_minutes = 0\n" + TABLE)
    assert (room.max_protections, room.protection_hours, room.rathole_minutes) == (0, 0.5, 0.0)
    assert room.rathole_window == 0.0
    room = parse_room("[room]\nmax_protections = 5\nprotection_hours = 48\nrathole_minutes = 1.5\n" + TABLE)
    assert (room.max_protections, room.protection_hours, room.rathole_minutes) == (5, 48.0, 1.5)
    assert type(room.protection_hours) is float


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("max_protections = -1", "max_protections"),
        ("max_protections = 1.5", "max_protections"),
        ("max_protections = true", "max_protections"),
        ("max_protections = 5000", "max_protections"),
        ("protection_hours = 0", "protection_hours"),
        ("protection_hours = -3", "protection_hours"),
        ("protection_hours = nan", "protection_hours"),
        ("protection_hours = inf", "protection_hours"),
        ("protection_hours = '24'", "protection_hours"),
        ("rathole_minutes = -1", "rathole_minutes"),
        ("rathole_minutes = false", "rathole_minutes"),
        ("rathole_minutes = 1e9", "rathole_minutes"),
    ],
)
def test_D7_D13_bad_room_settings_are_refused_saying_which(line: str, words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        parse_room(f"[room]\n{line}\n" + TABLE)


def test_D10_D11_table_settings_missed_blinds_and_straddles() -> None:
    room = parse_room(TABLE + 'missed_blinds = "standard"\nstraddles = true\n')
    (table,) = room.tables
    assert isinstance(table, TableConfig)
    assert (table.missed_blinds, table.straddles) == ("standard", True)
    (plain,) = parse_room(TABLE).tables
    assert (plain.missed_blinds, plain.straddles) == ("seeds", False)
    assert plain.timeout_policy == "all_in_protection"


@pytest.mark.parametrize(
    "line", ['missed_blinds = "dead"', "missed_blinds = 1", 'straddles = "yes"', "straddles = 1"]
)
def test_D10_D11_bad_table_settings_are_refused_naming_the_table(line: str) -> None:
    with pytest.raises(ConfigError, match="table 'T'"):
        parse_room(TABLE + line + "\n")


def test_D10_straddles_on_a_fixed_limit_table_are_refused() -> None:
    fixed = room(table("F", **FL24, straddles=True))
    with pytest.raises(ConfigError, match="table 'F'"):
        parse_room(fixed)


def test_templates_are_read_and_name_their_tables() -> None:
    text = TABLE + '\n[[template]]\nname = "Quick"\ngame = "NLHE"\nsmall_blind = 1\nbig_blind = 2\n' \
        'min_buy_in = 40\nmax_buy_in = 200\nmin_free = 2\nmax_tables = 5\nclose_after = 60\n'
    config = parse_room(text)
    [quick] = config.templates
    assert (quick.name, quick.min_free, quick.max_tables, quick.close_after) == ("Quick", 2, 5, 60.0)
    third = config.table_config("Quick #3")
    assert third is not None and third.name == "Quick #3" and third.template == "Quick"
    assert third.min_buy_in == 40 and third.seats == 6
    for name in ("Quick #0", "Quick #6", "Quick #03", "Quick 3", "Quick #3x", "Nowhere"):
        assert config.table_config(name) is None, name
    for bad, message in (
        ("min_free = 2", "min_free = 9"),  # above max_tables
        ("close_after = 60", "close_after = -1"),
        ('name = "Quick"', 'name = "' + "Q" * 57 + '"'),
        ("min_free = 2", "min_free = 2\nwho = 1"),
    ):
        with pytest.raises(ConfigError):
            parse_room(text.replace(bad, message))
    with pytest.raises(ConfigError, match="has a name of template"):
        parse_room(room(table("Quick #1", min_buy_in=40, max_buy_in=200)) + text[len(TABLE):])
    with pytest.raises(ConfigError, match="unique"):
        parse_room(room(table("Quick", min_buy_in=40, max_buy_in=200)) + text[len(TABLE):])
