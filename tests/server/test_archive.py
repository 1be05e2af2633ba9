"""Every hand a player played in one download (issue 19, item 8):
``GET /api/hands/archive?format=pokerstars|phh`` on a real server (SQLite, and PostgreSQL
when POKERROOM_TEST_DATABASE_URL names one) whose database holds 234 hands, 140 of them
the hero's (tests/server/helpers/hands.py).

- PokerStars text: one .txt, the hands apart by two blank lines, each hand exactly his
  download of that hand (``/api/hands/{id}.txt``), oldest first; pokerregion's parser
  reads each hold'em hand of it.
- PHH: one .phhs (tables [1], [2], ...) that PokerKit's ``loads_all`` and the room's own
  reader take, each table his .phh of that hand.
- D6: no card of another player that the table never saw (folded, or won unshown) is in
  it, counted from the deal itself, not from the writers; the filters apply."""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from poker.room.pokerstars import PokerStarsHandHistory
from pokerkit import HandHistory as PokerKitHistory

from pokerroom.core import phh
from tests.server.conftest import _databases
from tests.server.helpers import Server
from tests.server.helpers.hands import DAYS, Hand, Room, Seeded, seeded_room

PASSWORD = "correct horse battery"
CARD = re.compile(r"[2-9TJQKA][cdhs]")


@pytest.fixture(scope="module", params=_databases())
def seeded(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    yield from seeded_room(request.param, tmp_path_factory.mktemp("archive"), PASSWORD)


def archive(server: Server, headers: dict[str, str], **params: Any) -> httpx.Response:
    return httpx.get(f"{server.http}/api/hands/archive", params=params, headers=headers, timeout=120)


def split_pokerstars(text: str) -> list[str]:
    """The hands of a PokerStars file: apart by blank lines, each from its header on."""
    return [f"{part.strip()}\n" for part in re.split(r"\n\n\n+", text) if part.strip()]


def split_phhs(text: str) -> list[tuple[int, str]]:
    """The tables of a .phhs text: (index, the table's lines without its header)."""
    parts = re.split(r"^\[(\d+)\]\n", text, flags=re.M)
    assert parts[0] == ""
    return [(int(parts[i]), parts[i + 1]) for i in range(1, len(parts), 2)]


def hidden_cards(data: Seeded, hand: Hand, detail: dict[str, Any]) -> set[str]:
    """The cards of the hand's other players that the hero may not see (D6): their hole
    cards from the deal, less what the table saw of them (their cards in the public
    record: shown at the showdown, mucked there, stud up cards) and shows after the hand."""
    seen = set(detail["record"]["board"])
    for player in detail["record"]["players"]:
        seen |= {c for c in player["cards"] if c}
    for cards in detail.get("reveals", {}).values():
        seen |= set(cards)
    mine = hand.seats[data.hero]
    assert set(hand.holes[mine]) == set(detail["your_cards"])
    return {c for seat, cards in hand.holes.items() if seat != mine for c in cards} - seen


@pytest.mark.parametrize("form", ["pokerstars", "phh"])
def test_the_archive_is_every_hand_as_his_own_downloads_give_them(seeded: Room, form: str) -> None:
    server, data, headers, _ = seeded
    r = archive(server, headers, format=form)
    assert r.status_code == 200, r.text
    suffix = "txt" if form == "pokerstars" else "phhs"
    assert r.headers["content-disposition"] == f'attachment; filename="pokerroom-{data.hero}-hands.{suffix}"'
    # streamed: sent in chunks as the batches are written, its length unknown beforehand
    assert r.headers.get("transfer-encoding") == "chunked" and "content-length" not in r.headers
    mine = sorted(data.mine(), key=lambda h: h.id)  # oldest first
    if form == "pokerstars":
        assert r.headers["content-type"].startswith("text/plain")
        texts = split_pokerstars(r.text)
    else:
        assert r.headers["content-type"].startswith("application/toml")
        tables = split_phhs(r.text)
        assert [i for i, _ in tables] == list(range(1, len(mine) + 1))
        texts = [text for _, text in tables]
    assert len(texts) == len(mine) >= 120
    one = "txt" if form == "pokerstars" else "phh"
    for text, hand in zip(texts, mine, strict=True):
        single = httpx.get(f"{server.http}/api/hands/{hand.id}.{one}", headers=headers).text
        assert text.rstrip() == single.rstrip(), hand.id


def test_trackers_read_the_archives(seeded: Room) -> None:
    server, data, headers, _ = seeded
    mine = sorted(data.mine(), key=lambda h: h.id)
    text = archive(server, headers, format="phh").text
    ours = phh.loads(text, multi=True)
    assert [hh.hand for _, hh in ours] == [h.id for h in mine]
    theirs = list(PokerKitHistory.loads_all(text))
    assert [h.hand for h in theirs] == [h.id for h in mine]
    stars = archive(server, headers, format="pokerstars").text
    holdem = [h for h in mine if not h.game.startswith("Stud")]
    parsed = 0
    for part in split_pokerstars(stars):
        if "Hold'em" not in part.splitlines()[0]:
            continue
        history = PokerStarsHandHistory(part)
        history.parse()
        assert int(history.ident) == holdem[parsed].id
        parsed += 1
    assert parsed == len(holdem) > 50


def test_no_other_players_hidden_card_is_in_either_archive_D6(seeded: Room) -> None:
    server, data, headers, _ = seeded
    mine = sorted(data.mine(), key=lambda h: h.id)
    hidden = {}
    for hand in mine:
        detail = httpx.get(f"{server.http}/api/hands/{hand.id}", headers=headers).json()
        hidden[hand.id] = hidden_cards(data, hand, detail)
    assert sum(len(v) for v in hidden.values()) > 200  # folded hands enough to prove something
    texts = split_pokerstars(archive(server, headers, format="pokerstars").text)
    for text, hand in zip(texts, mine, strict=True):
        shown = {c for group in re.findall(r"\[([^\]]*)\]", text) for c in CARD.findall(group)}
        assert not shown & hidden[hand.id], (hand.id, shown & hidden[hand.id])
        assert set(hand.holes[hand.seats[data.hero]]) <= shown  # his own, folded or not
    tables = split_phhs(archive(server, headers, format="phh").text)
    for (_, text), hand in zip(tables, mine, strict=True):
        actions = re.search(r"^actions = \[(.*?)\]$", text, flags=re.M | re.S)
        assert actions, text
        shown = set(CARD.findall(actions.group(1)))
        assert not shown & hidden[hand.id], (hand.id, shown & hidden[hand.id])
        assert set(hand.holes[hand.seats[data.hero]]) <= shown


def test_the_rival_gets_his_own_hands_and_the_filters_apply(seeded: Room) -> None:
    server, data, headers, rivals = seeded
    theirs = sorted(data.mine(data.rival), key=lambda h: h.id)
    tables = split_phhs(archive(server, rivals, format="phh").text)
    assert [phh.loads(text).hand for _, text in tables] == [h.id for h in theirs]
    mine = sorted(data.mine(), key=lambda h: h.id)
    that_day = [h for h in mine if _on(h, DAYS[1])]
    game = that_day[-1].game
    expected = [h.id for h in that_day if h.game == game]
    day = DAYS[1].isoformat()
    text = archive(server, headers, format="pokerstars", game=game, since=day, until=day).text
    assert [int(re.findall(r"^PokerStars Hand #(\d+):", t)[0]) for t in split_pokerstars(text)] == expected
    assert 0 < len(expected) < len(that_day)
    empty = archive(server, headers, format="phh", since="2027-01-01")
    assert (empty.status_code, empty.text) == (200, "")


def _on(hand: Hand, day: datetime.date) -> bool:
    start = datetime.datetime(day.year, day.month, day.day, tzinfo=datetime.UTC).timestamp()
    return start <= hand.ended_at < start + 86400


@pytest.mark.parametrize("params", [{}, {"format": ""}, {"format": "zip"}, {"format": "PHH"},
                                    {"format": "phh", "since": "soon"}, {"format": "phh", "game": "x" * 81}])
def test_a_bad_format_or_filter_is_a_400(seeded: Room, params: dict[str, str]) -> None:
    server, _, headers, _ = seeded
    r = archive(server, headers, **params)
    assert (r.status_code, r.json()["error"]["code"]) == (400, "bad_query")
