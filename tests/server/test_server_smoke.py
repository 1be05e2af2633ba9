"""The server starts on a real port, answers /healthz, and lists its tables."""

from __future__ import annotations

import httpx

from tests.server.helpers import Server


def test_server_starts_and_lists_tables(server: Server) -> None:
    assert httpx.get(f"{server.http}/healthz").json() == {"ok": True, "tables": 3}
    tables = httpx.get(f"{server.http}/api/tables").json()["tables"]
    assert [t["name"] for t in tables] == ["NL", "FL", "Stud"]
    assert tables[0]["game"] == "NL 1/2" and tables[0]["taken"] == 0
