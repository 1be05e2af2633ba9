"""The hand replayer's steps (issue 19, item 5; gateway/replay.py): ``GET
/api/hands/{id}/replay`` for a player of the hand, on a real server whose database holds
hands played at six tables of every game (tests/server/helpers/hands.py); and ``POST
/api/replay`` of PHH files from ../shared/phh."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pokerroom.core import phh
from tests.server.helpers.hands import Room, seeded_room

PASSWORD = "correct horse battery"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "phh"
if not SHARED.is_dir():
    SHARED = Path("/work/shared/phh")


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    yield from seeded_room("sqlite", tmp_path_factory.mktemp("replay"), PASSWORD)


def replay_of(room: Room, hand_id: int, headers: dict[str, str]) -> httpx.Response:
    return httpx.get(f"{room[0].http}/api/hands/{hand_id}/replay", headers=headers, timeout=30)


def cards_in(value: Any) -> set[str]:
    """Every card-like string anywhere in a JSON value."""
    text = json.dumps(value)
    out = set()
    for token in text.replace('"', " ").replace(",", " ").replace("]", " ").replace("[", " ").split():
        if len(token) == 2 and token[0] in "23456789TJQKA" and token[1] in "cdhs":
            out.add(token)
    return out


def test_steps_end_on_the_hands_stacks_and_board_and_hide_other_folded_hands(seeded: Room) -> None:
    _, data, headers, _ = seeded
    mine = data.mine()
    assert len(mine) > 100
    checked_folds = 0
    for hand in mine:
        r = replay_of(seeded, hand.id, headers)
        assert r.status_code == 200, r.text
        steps = r.json()["steps"]
        history = httpx.get(f"{seeded[0].http}/api/hands/{hand.id}", headers=headers, timeout=30).json()
        record = history["record"]
        last = steps[-1]["view"]
        # the end: the history's final stacks and board, the viewer's own seat and cards
        assert last["board"] == record["board"]
        assert {s["seat"]: s["stack"] for s in last["seats"]} == {p["seat"]: p["final_stack"]
                                                                 for p in record["players"]}
        my_seat = hand.seats[data.hero]
        assert r.json()["seat"] == my_seat == last["seat"]
        mine_now = next(s for s in last["seats"] if s["seat"] == my_seat)
        assert mine_now["cards"] == hand.holes[my_seat]
        # at the end every card the history shows him is drawn, and no other
        for p in record["players"]:
            drawn = next(s for s in last["seats"] if s["seat"] == p["seat"])["cards"]
            if p["seat"] != my_seat:
                assert drawn == p["cards"], (hand.id, p)
        # the first step: every stack as the hand began, nothing dealt
        first = steps[0]["view"]
        assert {s["seat"]: s["stack"] for s in first["seats"]} == {p["seat"]: p["starting_stack"]
                                                                  for p in record["players"]}
        assert first["board"] == [] and all(s["cards"] == [] for s in first["seats"])
        # D6: the hidden cards of another player (folded, or never shown) appear nowhere
        seen = cards_in(steps)
        public = set(record["board"]) | set(hand.holes[my_seat])
        for p in record["players"]:
            public |= {c for c in p["cards"] if c}
        for seat, holes in hand.holes.items():
            hidden = set(holes) - public
            assert not hidden & seen, (hand.id, seat, hidden & seen)
            folded = next(p for p in record["players"] if p["seat"] == seat)["folded"]
            if seat != my_seat and folded and hidden:
                checked_folds += 1
        # each step has the snapshot view's shape
        for step in steps:
            keys = {"seats", "board", "pot", "button", "game_info", "hand_number", "street"}
            assert keys <= set(step["view"])
    assert checked_folds > 50


def test_a_player_of_another_hand_gets_404(seeded: Room) -> None:
    _, data, hero, rival = seeded
    not_his = next(h for h in data.mine() if data.rival not in h.seats)
    r = replay_of(seeded, not_his.id, rival)
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert replay_of(seeded, 99999, hero).status_code == 404
    assert replay_of(seeded, not_his.id, {}).status_code == 401
    assert httpx.get(f"{seeded[0].http}/api/hands/x1/replay", headers=hero).status_code == 404


def post_phh(room: Room, headers: dict[str, str], text: str) -> httpx.Response:
    return httpx.post(f"{room[0].http}/api/replay", json={"phh": text}, headers=headers, timeout=30)


@pytest.mark.parametrize("name", ["wsop-2023-43-5/3.phh", "wsop-2023-43-5/10.phh", "wsop-2023-43-5/34.phh"])
def test_a_phh_file_replays_to_its_finishing_stacks(seeded: Room, name: str) -> None:
    text = (SHARED / name).read_text()
    hh = phh.loads(text)
    r = post_phh(seeded, seeded[2], text)
    assert r.status_code == 200, r.text
    data = r.json()
    last = data["steps"][-1]["view"]
    assert [s["stack"] for s in last["seats"]] == hh.finishing_stacks
    assert data["finishing_stacks"] == hh.finishing_stacks
    # every card the file names is drawn by the end; none it does not name
    named: set[str] = set()
    for line in hh.actions:
        named |= {str(c) for c in phh.parse_action(line).cards or () if c is not None}
    drawn = {c for s in last["seats"] for c in s["cards"] if c} | set(last["board"])
    assert drawn <= named
    assert cards_in(data["steps"]) <= named
    shown = {str(c) for line in hh.actions if " dh " in line
             for c in phh.parse_action(line).cards or () if c is not None}
    assert shown <= {c for step in data["steps"] for s in step["view"]["seats"] for c in s["cards"] if c}


@pytest.mark.parametrize(("body", "says"), [
    ({"phh": "variant = 'NT'\nnonsense"}, "this PHH file cannot be replayed"),
    ({"phh": "variant = 'NS'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
             "starting_stacks = [100, 100]\nactions = []\n"}, "this PHH file cannot be replayed"),
    ({"phh": "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
             "starting_stacks = [100, 100]\nactions = ['d dh p1 AsKs', 'd dh p2 QdQc', 'p9 f']\n"},
     "this PHH file cannot be replayed"),
    ({"phh": ""}, "send the file's text"),
    ({"file": "x"}, "send the file's text"),
])
def test_bad_phh_files_are_400_with_a_reason(seeded: Room, body: dict[str, str], says: str) -> None:
    r = httpx.post(f"{seeded[0].http}/api/replay", json=body, headers=seeded[2], timeout=30)
    assert r.status_code == 400, r.text
    error = r.json()["error"]
    assert error["code"] == "bad_phh" and error["message"].startswith(says), error
    assert len(error["message"]) > len(says)


def test_a_phh_file_needs_a_login_and_a_bounded_body(seeded: Room) -> None:
    text = (SHARED / "wsop-2023-43-5/3.phh").read_text()
    assert httpx.post(f"{seeded[0].http}/api/replay", json={"phh": text}).status_code == 401
    r = post_phh(seeded, seeded[2], text + "#" * 10_000)
    assert r.status_code == 413


@pytest.mark.parametrize("raw", [b'["phh"]', b'{"phh": ', b"\xff"])
def test_a_body_that_is_not_a_json_object_is_the_rooms_bad_json(seeded: Room, raw: bytes) -> None:
    # the room's one body reader (app.py's) answers for /api/replay as for every other POST
    r = httpx.post(f"{seeded[0].http}/api/replay", content=raw,
                   headers={**seeded[2], "content-type": "application/json"}, timeout=30)
    assert r.status_code == 400, r.text
    assert r.json()["error"]["code"] == "bad_json", r.text
