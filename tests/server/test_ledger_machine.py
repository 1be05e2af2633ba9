"""A hypothesis state machine against a real server (issue 16): two accounts, each with
two connections of its own login, sit, act, add chips, leave, log out (here or
everywhere) and reconnect in any order; after every step the ledger balances, every
balance and seat matches its book, nothing was made or lost, and a logged-out token's
connections are closed."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from pokerroom.store import Store
from pokerroom.store.audit import audit as room_audit
from tests.server.helpers import Client, Server, audit

NAMES = ("Anneke", "Bertil")
GRANT = 10_000
EXAMPLES, STEPS = 8, 18


class LedgerMachine(RuleBasedStateMachine):
    server: Server  # set by the test

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.clients: dict[tuple[int, int], Client] = {}
        self.store = Store(*self.server.database)

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(asyncio.wait_for(coro, 30))

    def client(self, who: int, slot: int) -> Client:
        return self.clients[(who, slot)]

    @initialize()
    def log_in_everyone(self) -> None:
        async def start() -> None:
            for who, name in enumerate(NAMES):
                for slot in (0, 1):
                    c = Client(self.server.http, self.server.ws, name)
                    r = await c.login()
                    if r.status_code != 200:
                        assert (await c.register()).status_code == 200
                    await c.connect()
                    await c.request({"type": "subscribe", "table": "NL"})
                    self.clients[(who, slot)] = c

        self.run(start())

    # ------------------------------------------------------------------ steps

    def send(self, who: int, slot: int, message: dict[str, Any]) -> dict[str, Any] | None:
        c = self.client(who, slot)
        if not c.connected:
            return None
        answer: dict[str, Any] = self.run(c.request(message))
        assert answer["type"] in ("ok", "error"), answer
        if answer["type"] == "error":
            assert answer["code"] != "internal", answer
        return answer

    @rule(who=st.integers(0, 1), slot=st.integers(0, 1), seat=st.integers(1, 6), buy_in=st.integers(1, 300))
    def sit(self, who: int, slot: int, seat: int, buy_in: int) -> None:
        self.send(who, slot, {"type": "sit", "table": "NL", "seat": seat, "buy_in": buy_in})

    @rule(who=st.integers(0, 1), slot=st.integers(0, 1),
          action=st.sampled_from(["fold", "check", "call", "raise"]), amount=st.integers(1, 400))
    def act(self, who: int, slot: int, action: str, amount: int) -> None:
        message: dict[str, Any] = {"type": "act", "table": "NL", "action": action}
        if action == "raise":
            message["amount"] = amount
        self.send(who, slot, message)

    @rule(who=st.integers(0, 1), slot=st.integers(0, 1), amount=st.integers(1, 300))
    def add_chips(self, who: int, slot: int, amount: int) -> None:
        self.send(who, slot, {"type": "top_up", "table": "NL", "amount": amount})

    @rule(who=st.integers(0, 1), slot=st.integers(0, 1))
    def leave(self, who: int, slot: int) -> None:
        self.send(who, slot, {"type": "leave", "table": "NL"})

    @rule(who=st.integers(0, 1))
    def daily_top_up(self, who: int) -> None:
        c = self.client(who, 0)
        r = self.run(c.http.post("/api/topup", headers=c._auth()))
        assert r.status_code in (200, 400, 401, 409, 429), (r.status_code, r.text)

    @rule(who=st.integers(0, 1), slot=st.integers(0, 1), everywhere=st.booleans())
    def log_out(self, who: int, slot: int, everywhere: bool) -> None:
        c = self.client(who, slot)
        if not c.token:
            return
        path = "/api/logout?all=1" if everywhere else "/api/logout"
        r = self.run(c.http.post(path, headers=c._auth()))
        assert r.status_code == 200, r.text
        ended = [(who, s) for s in (0, 1)] if everywhere else [(who, slot)]
        if everywhere:
            ended = [k for k in ended if self.clients[k].token]
        deadline = time.monotonic() + 5
        for key in ended:  # the server closes what came in on the token(s) ended
            while self.clients[key].connected:
                assert time.monotonic() < deadline, f"{key}'s connection outlived its session"
                self.run(asyncio.sleep(0.05))
            self.clients[key].token = None
        for key in ended:
            answer = self.run(self.clients[key].get("/api/me"))
            assert answer.status_code == 401, answer.text

    @precondition(lambda self: any(not c.connected for c in self.clients.values()))
    @rule(data=st.data())
    def reconnect(self, data: st.DataObject) -> None:
        gone = sorted(k for k, c in self.clients.items() if not c.connected)
        key = data.draw(st.sampled_from(gone))
        c = self.client(*key)

        async def again() -> None:
            await c.close()
            if not c.token:
                assert (await c.login()).status_code == 200
            await c.connect()
            await c.request({"type": "subscribe", "table": "NL"})

        self.run(again())

    # ------------------------------------------------------------------ after every step

    @invariant()
    def no_chip_made_or_lost(self) -> None:
        if not self.clients:
            return

        async def check() -> None:
            totals = await audit(self.store)
            assert totals["granted"] >= len(NAMES) * GRANT, totals
            report = await room_audit(self.store)
            assert report.balanced, report.problems

        self.run(check())

    def teardown(self) -> None:
        async def close() -> None:
            for c in self.clients.values():
                if c.connected:
                    await c.request({"type": "leave", "table": "NL"})
                await c.aclose()
            await self.store.close()

        try:
            self.run(close())
        finally:
            self.loop.close()


@pytest.mark.parametrize("action_time", [2.0])
def test_the_ledger_holds_after_every_step(tmp_path: Path, database: tuple[str, str | None],
                                          action_time: float) -> None:
    server = Server(tmp_path, database, action_time=action_time)
    server.start()
    try:
        LedgerMachine.server = server
        machine = LedgerMachine.TestCase
        machine.settings = settings(max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None,
                                    derandomize=True, suppress_health_check=list(HealthCheck))
        machine().runTest()
    finally:
        server.stop()
    assert not server.errors(), server.errors()
