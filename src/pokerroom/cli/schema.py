"""``pokerroom schema``: the WebSocket protocol's JSON schema (docs/protocol.schema.json)."""

from __future__ import annotations

import argparse
import sys

from pokerroom.cli.args import Subparsers


def add(sub: Subparsers) -> None:
    p = sub.add_parser(
        "schema", help="print the WebSocket protocol's JSON schema",
        description="Print the JSON schema of the WebSocket messages (docs/protocol.schema.json).",
    )
    p.set_defaults(func=_schema)


def _schema(args: argparse.Namespace) -> int:
    from pokerroom.protocol import schema_text

    sys.stdout.write(schema_text())
    return 0
