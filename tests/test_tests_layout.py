"""The tests' own layout (issue 17): what test modules share lives in helpers (tests/helpers.py,
tests/core/helpers.py, tests/server/helpers/, tests/web/helpers.py, ...) or a conftest.py,
never in another test module. Read from the sources with ``ast``: no module under tests/
imports from a module whose name starts with ``test_`` (at the top or inside a function,
``import``, ``from ... import``, relative or by ``importlib.import_module``)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent


def _is_test_module(dotted: str) -> bool:
    return any(part.startswith("test_") for part in dotted.split("."))


def _package(path: Path) -> list[str]:
    """The package a file under tests/ is in, as dotted parts (``tests``, ``tests.server``)."""
    return ["tests", *path.parent.relative_to(TESTS).parts]


def imports_of_test_modules(source: str, path: Path) -> Iterator[tuple[int, str]]:
    """(line, module) of each import in ``source`` that reaches a ``test_*`` module."""
    for node in ast.walk(ast.parse(source, str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = _package(path)
                anchor = package[: len(package) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            # the module itself, and each name imported from it (``from tests.core import test_phh``)
            targets = [base, *(f"{base}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Call):
            name = ast.unparse(node.func)
            if name in ("importlib.import_module", "import_module", "__import__") and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    targets = [first.value]
        for target in targets:
            if _is_test_module(target):
                yield node.lineno, target
                break


@pytest.mark.parametrize(("source", "found"), [
    ("from tests.server.test_histories import NAMES", True),
    ("import tests.core.test_phh", True),
    ("from tests.core import test_phh", True),
    ("from .test_fairness import ATTACKS", True),
    ("def f():\n    from tests.core.test_phh import PK_COMMUNITY_CARD\n", True),
    ("import importlib\nimportlib.import_module('tests.server.test_fairness')", True),
    ("from tests.server.helpers.histories import NAMES", False),
    ("from tests.core.helpers import PK_COMMUNITY_CARD", False),
    ("from . import helpers", False),
    ("from pokerroom.core import phh", False),
])
def test_the_check_sees_each_form(source: str, found: bool) -> None:
    """The check itself: it finds each way of importing a test module, and passes helpers."""
    path = TESTS / "server" / "test_example.py"
    assert bool(list(imports_of_test_modules(source, path))) is found


def test_no_module_under_tests_imports_a_test_module() -> None:
    paths = sorted(p for p in TESTS.rglob("*.py") if "__pycache__" not in p.parts)
    assert len(paths) > 50  # the tree was found
    broken = [f"{p.relative_to(TESTS.parent)}:{line}: imports {target}"
              for p in paths for line, target in imports_of_test_modules(p.read_text(), p)]
    assert not broken, "shared test code goes in a helpers module or conftest.py, not a test module:\n" + \
        "\n".join(broken)
