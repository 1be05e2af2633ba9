"""The table layer is pure (DESIGN.md): no clock, no randomness, no I/O of its own, and
below the room: of the project it imports only the rules engine (pokerroom.core) and
itself, so it can never reach the server (tests/test_layering.py checks all of src/)."""

from __future__ import annotations

import ast
from pathlib import Path

import pokerroom.table

FORBIDDEN_MODULES = {
    "time", "datetime", "random", "secrets", "os", "sys", "io", "socket", "asyncio", "threading",
    "subprocess", "pathlib", "sqlite3", "logging", "uuid",
}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "__import__"}
PROJECT_ALLOWED = ("pokerroom.core", "pokerroom.table")  # of pokerroom, only these


def _sources() -> list[Path]:
    return sorted(Path(pokerroom.table.__file__).parent.glob("*.py"))


def test_table_imports_nothing_impure():
    assert len(_sources()) >= 8
    for path in _sources():
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            for name in _imported(node):
                root = name.split(".")[0]
                assert root not in FORBIDDEN_MODULES, f"{path.name} imports {name}"
                assert root in {"__future__", "pokerroom", "collections", "dataclasses", "typing"}, (
                    f"{path.name} imports {name}: check it is pure, then allow it here"
                )
                if root == "pokerroom":
                    assert any(name == a or name.startswith(a + ".") for a in PROJECT_ALLOWED), (
                        f"{path.name} imports {name}: the table layer imports only pokerroom.core"
                    )


def _imported(node: ast.AST) -> list[str]:
    """The modules an import statement names: for ``from pokerroom import x`` that is
    ``pokerroom.x`` (which must then be core or table), relative imports made absolute."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:  # relative: inside pokerroom.table, up from there
        base = ".".join(["pokerroom", "table"][: 3 - node.level] + ([node.module] if node.module else []))
    else:
        base = node.module or ""
    if base == "pokerroom":
        return [f"pokerroom.{a.name}" for a in node.names]
    return [base]


def test_the_purity_check_sees_the_table_reaching_the_server():
    for source, allowed in [
        ("from pokerroom.worker.room import Room", False),
        ("from pokerroom import store", False),
        ("import pokerroom.gateway.app", False),
        ("from .. import protocol", False),
        ("from pokerroom.core.cards import Card", True),
        ("from . import seating", True),
        ("from pokerroom import core", True),
    ]:
        names = _imported(ast.parse(source).body[0])
        ok = all(any(n == a or n.startswith(a + ".") for a in PROJECT_ALLOWED) for n in names)
        assert ok is allowed, (source, names)


def test_table_calls_no_io_builtins():
    for path in _sources():
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno} calls {node.func.id}"
