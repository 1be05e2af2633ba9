"""The room's generated JSON writers against orjson and msgspec, on the same events, same run.

Every event of every table is written once as JSON text (``wire.event_item``: a writer made
per event class, ``_item_writer``), then sent to each viewer as it is. This times that step on
the events of ``--hands`` random six-handed no-limit hands (the engine's events: posts,
deals, actions, streets, pots, showdowns), against the two usual fast libraries writing the same
objects:

- ``room``: ``wire.event_item(version, event)``, what the server runs;
- ``stdlib``: ``json`` on the object ``wire.event_json`` builds (the writer's reference);
- ``orjson``, ``msgspec``: each library writing that same object (``event_json`` then encode),
  and each writing the named tuple straight from the event with its own hooks where it has
  them (msgspec's ``enc_hook``; orjson has no named tuple support, so its ``default`` cannot
  see them: only the first way is fair for it).

And a second measure for the larger objects written whole (a hand's record, a view: dicts
and lists already built): each hand's events as one list, written by the stdlib encoder
(``wire._encode``, which the room keeps for the odd object), orjson, msgspec and pydantic's
serializer (pydantic-core, what the room's typed messages -- views, records, lobby rows --
are written with since protocol 3).

The outputs are checked equal as JSON values before timing. Medians of ``--repeats`` runs.

    python benchmarks/json_writers.py --hands 2000 --repeats 5
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import msgspec
import orjson
from pydantic import TypeAdapter

from pokerroom.core.cards import Card, seeded_deck
from pokerroom.core.structures import Game
from pokerroom.sim import play_random_hand
from pokerroom.wire import _encode, event_item, event_json


def hands_events(hands: int) -> list[list[Any]]:
    rng = random.Random(1)
    return [list(play_random_hand(Game.no_limit(1, 2), [200] * 6, seeded_deck(i), rng).events)
            for i in range(hands)]


def timed(write: Callable[[Any], Any], items: list[Any], repeats: int) -> float:
    best = []
    for _ in range(repeats):
        start = time.perf_counter()
        for item in items:
            write(item)
        best.append(time.perf_counter() - start)
    return statistics.median(best)


def card_hook(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    raise TypeError(type(value).__name__)


def writers() -> dict[str, Callable[[int, Any], str | bytes]]:
    encoder = msgspec.json.Encoder(enc_hook=card_hook)
    stdlib = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode

    def msgspec_direct(version: int, event: Any) -> bytes:
        # a named tuple goes out as an array in msgspec too: give it its names
        return encoder.encode({"version": version, "event": {"type": type(event).__name__,
                                                             **dict(zip(event._fields, event, strict=True))}})

    return {
        "room": event_item,
        "stdlib": lambda v, e: stdlib({"version": v, "event": event_json(e)}),
        "orjson": lambda v, e: orjson.dumps({"version": v, "event": event_json(e)}),
        "msgspec": lambda v, e: encoder.encode({"version": v, "event": event_json(e)}),
        "msgspec_direct": msgspec_direct,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    per_hand = hands_events(args.hands)
    evs = [e for hand in per_hand for e in hand]
    ways = writers()
    for name, write in ways.items():  # the same JSON values, or the timing means nothing
        for v, e in enumerate(evs[:2000]):
            if json.loads(write(v, e)) != json.loads(event_item(v, e)):
                raise SystemExit(f"{name} writes {type(e).__name__} differently: {write(v, e)!r}")
    times: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(args.repeats):
        for name, write in ways.items():
            start = time.perf_counter()
            for v, e in enumerate(evs):
                write(v, e)
            times[name].append(time.perf_counter() - start)
    result: dict[str, Any] = {"events": len(evs), "repeats": args.repeats}
    room = statistics.median(times["room"])
    for name, t in times.items():
        median = statistics.median(t)
        result[name] = {"ns_per_event": 1e9 * median / len(evs), "vs_room": median / room}
    records = [[event_json(e) for e in hand] for hand in per_hand]
    pydantic_list = TypeAdapter(list[dict[str, Any]])
    whole = {"room": _encode, "orjson": orjson.dumps, "msgspec": msgspec.json.Encoder().encode,
             "pydantic": pydantic_list.dump_json}
    for name, write in whole.items():
        if json.loads(write(records[0])) != json.loads(_encode(records[0])):
            raise SystemExit(f"{name} writes a record differently")
    spent = {name: timed(write, records, args.repeats) for name, write in whole.items()}
    result["records"] = {name: {"us_per_record": 1e6 * t / len(records), "vs_room": t / spent["room"]}
                         for name, t in spent.items()}
    if args.json:
        print(json.dumps(result))
        return
    print(f"{len(evs):,} events of {args.hands} hands, each written as an events item, "
          f"medians of {args.repeats}:")
    for name in ways:
        r = result[name]
        print(f"  {name:<15} {r['ns_per_event']:7.0f} ns/event  ({r['vs_room']:.2f}x the room's)")
    print("each hand's events written whole (built objects: a record, a view):")
    for name, r in result["records"].items():
        print(f"  {name:<15} {r['us_per_record']:7.1f} us/record ({r['vs_room']:.2f}x the room's)")


if __name__ == "__main__":
    main()
