"""The table layer is pure (DESIGN.md): no clock, no randomness, no I/O of its own."""

from __future__ import annotations

import ast
from pathlib import Path

import pokerroom.table

FORBIDDEN_MODULES = {
    "time", "datetime", "random", "secrets", "os", "sys", "io", "socket", "asyncio", "threading",
    "subprocess", "pathlib", "sqlite3", "logging", "uuid",
}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "__import__"}


def _sources() -> list[Path]:
    return sorted(Path(pokerroom.table.__file__).parent.glob("*.py"))


def test_table_imports_nothing_impure():
    assert len(_sources()) >= 8
    for path in _sources():
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                root = name.split(".")[0]
                assert root not in FORBIDDEN_MODULES, f"{path.name} imports {name}"
                assert root in {"__future__", "pokerroom", "collections", "dataclasses", "typing"}, (
                    f"{path.name} imports {name}: check it is pure, then allow it here"
                )


def test_table_calls_no_io_builtins():
    for path in _sources():
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in FORBIDDEN_CALLS, f"{path.name}:{node.lineno} calls {node.func.id}"
