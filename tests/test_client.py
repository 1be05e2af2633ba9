"""pokerroom.client, the one protocol client, on its own: commands go out as the server
reads them, server messages come back as their models, text that is no protocol message
goes to ``on_invalid``, the token goes in the handshake; against a loopback echo server
of pokerroom.websocket (tests/helpers.py), so what the client wrote is what comes back."""

from __future__ import annotations

import asyncio
import json

import pytest
from pydantic import ValidationError

from pokerroom import client
from pokerroom import websocket as w
from pokerroom.protocol import Act, EventsMessage, Options, Pong, ServerMessage, Subscribe, YourTurn
from tests.helpers import WAIT, echo_server


def test_a_command_is_written_without_its_unset_fields() -> None:
    assert json.loads(client.encode(Act(type="act", table="NL", action="call"))) == {
        "type": "act", "table": "NL", "action": "call",
    }
    assert json.loads(client.encode(Options(type="options", table="NL", auto_muck=False, id=7))) == {
        "type": "options", "table": "NL", "auto_muck": False, "id": 7,
    }
    assert json.loads(client.encode(Subscribe(type="subscribe", table="T", since=0))) == {
        "type": "subscribe", "table": "T", "since": 0,
    }


def test_a_server_message_is_parsed_into_its_model() -> None:
    turn = client.parse(json.dumps({
        "type": "your_turn", "table": "NL", "deadline": 12.5, "game": "NT",
        "legal": {"player": 0, "fold": True, "check": False, "call": 2, "min_to": 4, "max_to": 200,
                  "show": False, "muck": False},
        "cards": ["As", "Kd"], "pot": 3, "stack": 198, "players": 6,
    }))
    assert isinstance(turn, YourTurn)
    assert (turn.table, turn.cards, turn.pot, turn.players, turn.board) == ("NL", ["As", "Kd"], 3, 6, [])
    assert turn.legal.call == 2 and turn.legal.min_to == 4
    acted = {"type": "Acted", "player": 2, "action": "call", "amount": 2, "to": 2, "all_in": False}
    batch = {"type": "events", "table": "NL", "events": [{"version": 4, "event": acted}]}
    events = client.parse(json.dumps(batch))
    assert isinstance(events, EventsMessage) and events.events[0].version == 4
    assert events.events[0].event.type == "Acted" and events.events[0].event.player == 2
    with pytest.raises(ValidationError):
        client.parse('{"type": "act", "table": "NL", "action": "call"}')  # a command, not a server message


def test_addresses_and_the_login_header() -> None:
    assert client.ws_url("http://127.0.0.1:8000/") == "ws://127.0.0.1:8000/ws"
    assert client.ws_url("https://room.example") == "wss://room.example/ws"
    assert client.bearer("abc") == {"Authorization": "Bearer abc"}
    assert client.bearer(None) == {}


def test_a_connection_sends_commands_and_hands_over_messages_and_mistakes() -> None:
    async def main() -> None:
        received: list[tuple[ServerMessage, str]] = []
        invalid: list[str] = []
        closed: list[int | None] = []
        async with echo_server() as hub:
            connection = await client.connect(
                hub.url, lambda m, text: received.append((m, text)), token="secret-token",
                on_invalid=lambda text, error: invalid.append(text), on_close=lambda: closed.append(1),
                timeout=WAIT,
            )
            server = await hub.next()
            assert server.request.headers["authorization"] == "Bearer secret-token"
            connection.send(Act(type="act", table="NL", action="raise", amount=12, id="a1"))
            connection.send_raw('{"type": "pong", "id": 3}')
            async with asyncio.timeout(WAIT):
                while len(received) + len(invalid) < 2:
                    await asyncio.sleep(0.01)
            # the server got the command as the protocol writes it; its echo is no server message
            assert [json.loads(t) for t in server.texts[:1]] == [
                {"type": "act", "table": "NL", "action": "raise", "amount": 12, "id": "a1"}
            ]
            assert [json.loads(t) for t in invalid] == [json.loads(server.texts[0])]
            assert received == [(Pong(id=3), '{"type": "pong", "id": 3}')]
            assert connection.open
            server.close()
            async with asyncio.timeout(WAIT):
                await connection.wait_closed()
            assert closed == [1] and not connection.open and connection.close_code == w.NORMAL
            await connection.aclose()  # closing a closed connection is nothing
            assert closed == [1]

    asyncio.run(main())

