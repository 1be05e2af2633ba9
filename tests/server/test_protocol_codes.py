"""Every error code the server may send, and every word the browser client asks its
dictionaries for, exists in English and in Russian (issue 17, item 4).

The codes are ``protocol.ERROR_CODES``; the server's sources are read for the codes they
raise, so a new code cannot skip the registry. The client's keys are read from its
sources: literal ``t("key")`` keys, the markup's ``data-i18n`` keys, and the keys it makes
from data (``t(`hand.${category}`)``), enumerated from the protocol's values.
"""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest

from pokerroom import outbound
from pokerroom import protocol as p
from pokerroom.core.cards import RANKS, SUITS
from pokerroom.store.notes import PALETTE

SRC = Path(__file__).resolve().parents[2] / "src" / "pokerroom"
WEB = SRC / "web"
# codes raised only while a room or a table is being set up from its settings, or by the
# engine's own argument checks that the protocol's models keep clients from reaching:
# no client is ever sent them
NOT_SENT = {
    "bad_config", "bad_database", "bad_deck", "bad_game", "bad_schedule", "bad_seats",
    "bad_setting", "bad_buy_in", "bad_time", "bad_viewer", "bad_player",
}
# the browser's own codes for a connection's failures (ws.js), not the server's
CLIENT_CODES = {"network", "timeout", "unknown"}


def dictionary(lang: str) -> dict[str, str]:
    text = (WEB / "js" / "i18n" / f"{lang}.js").read_text()
    return dict(re.findall(r'"([^"\n]+)":\s*"((?:[^"\\\n]|\\.)*)"', text))


EN, RU = dictionary("en"), dictionary("ru")


def raised_codes() -> dict[str, set[str]]:
    """code -> the server modules that raise or send it."""
    pattern = re.compile(
        r'(?:Error|IllegalAction|_error)\(\s*(?:#[^\n]*\n\s*)?"([a-z_]+)"|\bcode="([a-z_]+)"'
    )
    found: dict[str, set[str]] = {}
    for path in SRC.rglob("*.py"):
        for m in pattern.finditer(path.read_text()):
            found.setdefault(m.group(1) or m.group(2), set()).add(str(path.relative_to(SRC)))
    return found


def test_the_sources_are_read() -> None:
    codes = raised_codes()
    expected = {"not_your_turn", "amount_out_of_range", "rathole", "bad_message", "insufficient_balance"}
    assert expected <= set(codes)


def test_every_code_the_server_raises_is_registered() -> None:
    unregistered = {
        c: sorted(w) for c, w in raised_codes().items() if c not in p.ERROR_CODES and c not in NOT_SENT
    }
    assert not unregistered, f"add these to protocol.ERROR_CODES: {unregistered}"
    assert not NOT_SENT & set(p.ERROR_CODES)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_error_code_has_words(lang: str) -> None:
    words = EN if lang == "en" else RU
    missing = sorted(c for c in (*p.ERROR_CODES, *CLIENT_CODES) if not words.get(f"error.{c}"))
    assert not missing, f"{lang}.js has no error.<code> for {missing}"


def client_keys() -> tuple[set[str], set[str]]:
    """The literal keys the client asks for, and its keys made from templates (as patterns)."""
    literal, templates = set(), set()
    for path in (WEB / "js").glob("*.js"):
        text = path.read_text()
        literal |= set(re.findall(r'(?<![.\w])(?:t|has)\(\s*"([^"]+)"', text))
        # a plural's words are its forms: every language has at least "other"
        literal |= {f"{k}.other" for k in re.findall(r'(?<![.\w])plural\(\s*"([^"]+)"', text)}
        templates |= set(re.findall(r"(?<![.\w])(?:t|plural|has)\(\s*`([^`]+)`", text))
    html = (WEB / "index.html").read_text()
    literal |= set(re.findall(r'data-i18n(?:-[a-z]+)?="([^"]+)"', html))
    return literal, templates


def made_keys() -> set[str]:
    """The keys the client makes from the data the server sends."""
    categories = typing.get_args(outbound.HandCategory)
    kinds = ("NL", "PL", "FL", "Stud", "Mixed")
    streets = ("preflop", "flop", "turn", "river", "showdown", *(
        f"{n} street" for n in ("third", "fourth", "fifth", "sixth", "seventh")))
    posted = ("ante", "small_blind", "big_blind", "blind", "straddle", "dead", "bring_in")
    acted = ("fold", "check", "call", "bet", "raise", "bring_in", "complete", "protected")
    return {
        *(f"hand.{c}" for c in (*categories, "royal_flush")),
        *(f"rank.{form}.{r}" for form in ("nom", "gen", "nomPl", "genPl", "prepPl") for r in RANKS),
        *(f"card.rank.{r}" for r in RANKS), *(f"card.suit.{s}" for s in SUITS),
        *(f"game.{k}" for k in kinds), *(f"street.{s}" for s in streets),
        *(f"log.posted.{k}" for k in posted), *(f"log.acted.{a}" for a in acted),
        "log.small", "log.big", "table.sb", "table.bb", "table.sbLong", "table.bbLong",
        *(f"notes.colour.{c}" for c in PALETTE),
    }


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_key_the_client_uses_has_words(lang: str) -> None:
    words = EN if lang == "en" else RU
    literal, templates = client_keys()
    assert len(literal) > 200 and "hand.${value.category}" in templates  # the sources were read
    missing = sorted(k for k in literal | made_keys() if not words.get(k))
    assert not missing, f"{lang}.js lacks {missing}"
    for template in templates:  # every key a template makes has words here
        pattern = re.compile("^" + re.sub(r"\\\$\\\{[^}]*\\\}", ".+", re.escape(template)) + "$")
        assert any(pattern.match(k) for k in words), f"{lang}.js has no key like {template}"
        made = {k for k in made_keys() if pattern.match(k)}
        assert made or template.startswith(("log.${", "table.${")), f"{template}: no key made from data"


def test_both_languages_have_the_same_keys() -> None:
    """The same keys but plural forms (Russian has "few" and "many", English not)."""

    def keys(words: dict[str, str]) -> set[str]:
        return {k for k in words if not re.search(r"\.(one|few|many)$", k)}

    assert keys(EN) == keys(RU), (sorted(keys(EN) - keys(RU)), sorted(keys(RU) - keys(EN)))


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_no_key_is_given_words_twice(lang: str) -> None:
    """A key written twice (two pieces of work each adding it) keeps only the later words,
    silently: each key once."""
    text = (WEB / "js" / "i18n" / f"{lang}.js").read_text()
    keys = re.findall(r'^\s*"([^"\n]+)":', text, re.M)
    assert len(keys) > 300
    twice = sorted({k for k in keys if keys.count(k) > 1})
    assert not twice, f"{lang}.js gives these keys words twice: {twice}"
