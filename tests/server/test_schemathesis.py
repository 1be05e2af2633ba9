"""schemathesis against the room's own OpenAPI spec (issue 16): every operation with
generated requests (valid and invalid, derandomized), then the spec's links walked as a
state machine (register, log in, top up, hands), against a real `pokerroom serve`, SQLite
and PostgreSQL. No answer may be a 500, and the server logs no traceback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings

from tests.server.helpers import PASSWORD, Room, serving

SETTINGS = settings(
    max_examples=40, derandomize=True, deadline=None, database=None,
    suppress_health_check=list(HealthCheck),
)


@pytest.fixture
def spec_room(tmp_path: Path, database: tuple[str, str | None]) -> Iterator[Room]:
    yield from serving(Room(tmp_path, database))


def load(room: Room) -> Any:
    """The spec as the server serves it, each request carrying a live session's token."""
    answer = httpx.post(f"{room.http}/api/register", json={"name": "Fuzzer", "password": PASSWORD})
    token = answer.json()["token"]
    schema = schemathesis.openapi.from_url(f"{room.http}/api/openapi.json")

    @schema.auth()
    class Bearer:
        def get(self, case: Any, context: Any) -> str:
            return str(token)

        def set(self, case: Any, data: str, context: Any) -> None:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}

    return schema


def no_server_error(response: Any, where: str) -> None:
    assert response.status_code < 500, f"{where}: {response.status_code} {response.text[:300]}"
    if response.status_code >= 400:  # the room's error format, whatever was sent
        error = json.loads(response.text)["error"]
        assert set(error) == {"code", "message"} and error["message"], (where, response.text)


def test_no_operation_answers_500(spec_room: Room) -> None:
    schema = load(spec_room)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert {op.path for op in operations} >= {"/api/register", "/api/login", "/api/topup", "/api/hands/{ref}"}
    for operation in operations:
        if operation.path == "/api/logout":
            continue  # would end the session the others use: the state machine logs out

        @given(case=operation.as_strategy())
        @SETTINGS
        def check(case: Any) -> None:
            response = case.call()
            no_server_error(response, f"{case.method} {case.formatted_path}")

        check()
    assert not spec_room.errors(), spec_room.errors()


def test_a_session_walked_through_the_links_never_answers_500(spec_room: Room) -> None:
    """The spec's links as a flow: register with a generated body, log in with the same
    (the register link's ``$request.body``), then with that session's token top up, list
    the hands and open the first one (the hands link's ``$response.body#/hands/0/id``),
    and log out. Every request is drawn before any is sent, so the data drawn never
    depends on the server's answers (schemathesis' own state machine does, and a
    derandomized run of it is flaky against a server that keeps its state)."""
    schema = load(spec_room)
    names = ("register", "login", "topup", "hands", "hand", "logout")
    steps = {name: schema.find_operation_by_id(name) for name in names}
    links = schema.raw_schema["paths"]["/api/register"]["post"]["responses"]["200"]["links"]
    assert links["login"] == {"operationId": "login", "requestBody": "$request.body"}
    seen: dict[str, set[int]] = {name: set() for name in steps}

    @given(**{name: op.as_strategy() for name, op in steps.items()})
    @settings(SETTINGS, max_examples=30)
    def walk(**cases: Any) -> None:
        register = cases["register"]
        answer = register.call()
        no_server_error(answer, "register")
        seen["register"].add(answer.status_code)
        login = cases["login"]
        login.body = register.body  # the link: the same credentials
        answer = login.call()
        no_server_error(answer, "login")
        seen["login"].add(answer.status_code)
        token = json.loads(answer.text).get("token") if answer.status_code == 200 else None
        for name in ("topup", "hands", "hand", "logout"):
            case = cases[name]
            if token is not None:
                case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
            answer = case.call()
            no_server_error(answer, name)
            seen[name].add(answer.status_code)
            if name == "hands" and answer.status_code == 200:
                hands = json.loads(answer.text)["hands"]
                if hands:
                    cases["hand"].path_parameters = {"ref": str(hands[0]["id"])}

    walk()
    print({name: sorted(codes) for name, codes in seen.items()})
    assert 200 in seen["register"] and 200 in seen["login"] and 200 in seen["hands"]
    assert not spec_room.errors(), spec_room.errors()
