"""Write the seed corpus of each fuzz target, tests/fuzz/corpus/<target>/, from valid
inputs made here (a fixed seed: the same files every time). Run from the repository's
root when the formats change, and commit what it writes:

    .venv/bin/python tests/fuzz/make_corpus.py

Each seed of ``frames`` and ``handshake`` starts with one byte that chooses how the
stream is cut into reads (_harness.split); ``phh`` seeds are .phh texts; ``history``
seeds are a deck (104 characters) and a newline, then a stored history's JSON text, as
the hands table keeps them (runner._store_hand).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from pokerroom import websocket as ws  # noqa: E402
from pokerroom.core.cards import FULL_DECK  # noqa: E402
from pokerroom.histories import full_history, stored_text  # noqa: E402
from tests.server.helpers.tables import played_tables, runner_history  # noqa: E402

MASK = b"\x37\xfa\x21\x3d"
KEY = "dGhlIHNhbXBsZSBub25jZQ=="  # the key fuzz_handshake's client sends


def masked(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    whole = ws.frame(opcode, payload, MASK)
    return bytes((whole[0] & 0x7F | (0x80 if fin else 0),)) + whole[1:]


def frames() -> dict[str, bytes]:
    text = masked(ws.TEXT, b'{"type":"ping","id":"p"}')
    return {
        "text": b"\x00" + text,
        "text-cut": b"\x07" + text + masked(ws.TEXT, "caf\u00e9 \u2660".encode()),
        "binary-long": b"\x03" + masked(ws.BINARY, bytes(range(200))),
        "fragments": b"\x05" + masked(ws.TEXT, b"he", fin=False) + masked(ws.PING, b"p")
        + masked(ws.CONTINUATION, b"ll", fin=False) + masked(ws.CONTINUATION, b"o"),
        "empty-fragments": b"\x00" + masked(ws.TEXT, b"{", fin=False)
        + masked(ws.CONTINUATION, b"", fin=False) * 4 + masked(ws.CONTINUATION, b"}"),
        "pings": b"\x02" + masked(ws.PING, b"x" * 125) * 3 + masked(ws.PONG, b"y"),
        "close": b"\x00" + text + masked(ws.CLOSE, ws.close_payload(1000, "bye")),
    }


def handshake() -> dict[str, bytes]:
    browser = ("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nConnection: Upgrade\r\nPragma: no-cache\r\n"
               "Upgrade: websocket\r\nOrigin: http://127.0.0.1:8000\r\nSec-WebSocket-Version: 13\r\n"
               "User-Agent: Mozilla/5.0\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
               "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n")
    ours = ("GET /ws?token=abc HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: AQIDBAUGBwgJCgsMDQ4PEA==\r\n"
            "Sec-WebSocket-Version: 13\r\nAuthorization: Bearer abc\r\n\r\n")
    answer = (f"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
              f"Sec-WebSocket-Accept: {ws.accept_key(KEY)}\r\n\r\n")
    return {
        "browser": b"\x00" + browser.encode(),
        "browser-cut": b"\x09" + browser.encode() + masked(ws.TEXT, b"{}"),
        "ours": b"\x00" + ours.encode(),
        "answer": b"\x00" + answer.encode(),
        "answer-frames": b"\x04" + answer.encode() + ws.frame(ws.TEXT, b'{"type":"welcome"}'),
        "refusal": b"\x00HTTP/1.1 403 Forbidden\r\nContent-Length: 2\r\n\r\nno",
    }


def stored() -> tuple[dict[str, bytes], dict[str, bytes]]:
    """PHH texts and stored histories of one late hand of each game played_tables plays."""
    rng = random.Random(16)
    phh: dict[str, bytes] = {}
    history: dict[str, bytes] = {}
    wanted = {10, 70, 130, 190, 250, 310}  # one hand of each of its six tables
    for k, table in enumerate(played_tables(16)):
        if k not in wanted:
            continue
        deck = list(FULL_DECK)
        rng.shuffle(deck)
        new, cards, _ = runner_history(table, deck, k)
        name = f"{table.hand.game.variant}-{table.hand.game.structure.value}-{k}"
        history[name] = f"{cards}\n{json.dumps(new)}".encode()
        seat = new["players"][0]["seat"]
        phh[name] = stored_text(json.loads(full_history(json.dumps(new), cards, k)), seat, "phh").encode()
    phh["doc-example"] = (b"variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
                          b"starting_stacks = [100, 100]\n"
                          b"actions = ['d dh p1 AsKs', 'd dh p2 7h2c', 'p2 cbr 6', 'p1 f']\n")
    phh["phhs"] = b"[1]\n" + phh["doc-example"] + b"\n[2]\n" + phh["doc-example"]
    return phh, history


def main() -> None:
    phh, history = stored()
    targets = {"frames": frames(), "handshake": handshake(), "phh": phh, "history": history}
    for target, seeds in targets.items():
        folder = HERE / "corpus" / target
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.iterdir():
            old.unlink()
        for name, data in seeds.items():
            (folder / name).write_bytes(data)
        print(f"{target}: {len(seeds)} seeds, {sum(map(len, seeds.values()))} bytes")


if __name__ == "__main__":
    main()
