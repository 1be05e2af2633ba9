"""The ``pokerroom`` command line.

- ``pokerroom replay [--json] PATH...``: replay PHH hands (.phh/.phhs files, folders
  recursively) and compare with their recorded finishing stacks. Exit status 1 when a
  hand errs or mismatches; a variant or feature we do not support is such an error,
  reported as "unsupported" with its name.
- ``pokerroom bench engine [--json] [--hands N] [--repeats R]``: this engine against
  PokerKit on the same work in one run (PokerKit is a dev extra).
- ``pokerroom simulate [--hands N] [--players K] [--game NL|PL|FL|STUD] [--stakes 1/2]
  [--ante A] [--bring-in B] [--stack S] [--seed X] [--show]``: random legal play from
  seeded decks; checks that chips are conserved. ``STUD`` is fixed-limit seven card stud
  for 2 to 8 players: ``--stakes`` are the small and big bet (default 10/20), the ante
  defaults to a tenth of the small bet and the bring-in to three tenths (at least 1
  each: ante 1 and bring-in 3 at 10/20).
- ``pokerroom equity HAND HAND... [--board CARDS] [--dead CARDS] [--samples N] [--seed S]
  [--json]``: hold'em equity, win and tie of 2 to 9 hands, over every remaining board or N
  random ones; bad input exits 2. With ``--stud`` each argument is the 1 to 7 known cards
  of a seven card stud player (2 to 8), completed to 7 cards: exhaustive up to 2,000,000
  deals, otherwise Monte Carlo (200,000 deals unless ``--samples`` says).

And the room's own: ``serve`` (the room in one process), ``bots``, ``loadtest``, ``audit``,
``verify`` (a deal's proof), ``schema`` (the protocol's JSON schema); ``--help`` on each.

Each command is a module of this package with an ``add(sub)`` that adds its parser;
``COMMANDS`` lists them in the order ``--help`` shows.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

from pokerroom.cli import (
    audit,
    bench,
    bots,
    cluster,
    equity,
    gateway,
    loadtest,
    replay,
    schema,
    serve,
    simulate,
    status,
    verify,
    worker,
)
from pokerroom.cli.args import Handler, Subparsers

COMMANDS: dict[str, Callable[[Subparsers], None]] = {
    "replay": replay.add,
    "simulate": simulate.add,
    "bench": bench.add,
    "equity": equity.add,
    "bots": bots.add,
    "serve": serve.add,
    "gateway": gateway.add,
    "worker": worker.add,
    "status": status.add,
    "cluster": cluster.add,
    "schema": schema.add,
    "loadtest": loadtest.add,
    "audit": audit.add,
    "verify": verify.add,
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pokerroom", description="An online poker room: tools.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in COMMANDS.values():
        add(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    func: Handler = args.func
    try:
        return func(args)
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1

