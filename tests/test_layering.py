"""The import direction of src/pokerroom (DESIGN.md, issue 17), read from the sources with
``ast`` (nothing imported to check it): the rules engine knows nothing of the room, the
table layer knows only the rules, the clients (bots, pokerroom.client, the load tester's
bots) know the server only by its protocol, the store knows neither the gateway nor the
worker, and the gateway and the worker meet only through the bus. And no import cycle
among the modules, counting the imports that run when a module is imported."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

import pokerroom

SRC = Path(pokerroom.__file__).resolve().parent
SERVER = ("pokerroom.gateway", "pokerroom.worker", "pokerroom.store")

# (importer prefix, what it must not import, why): a prefix is a module or a package
RULES: list[tuple[str, tuple[str, ...], str]] = [
    ("pokerroom.store", ("pokerroom.gateway", "pokerroom.worker"), "the store serves both, knows neither"),
    ("pokerroom.worker", ("pokerroom.gateway", "pokerroom.bus"),
     "the worker meets the gateway through pokerroom.bus, which calls it, never the other way"),
    ("pokerroom.gateway", ("pokerroom.worker",), "the gateway meets the worker through pokerroom.bus"),
    ("pokerroom.bus.gateway", ("pokerroom.worker", "pokerroom.bus.tables", "pokerroom.bus.local"),
     "a gateway process never loads the worker: the bus's gateway side knows only the messages"),
    ("pokerroom.bus.messages", ("pokerroom.worker", "pokerroom.gateway"), "what both sides share"),
    ("pokerroom.bus.transport", ("pokerroom.worker", "pokerroom.gateway"), "what both sides share"),
    ("pokerroom.bus.nats", ("pokerroom.worker", "pokerroom.gateway"), "what both sides share"),
    ("pokerroom.bus.natsclient", ("pokerroom.worker", "pokerroom.gateway"), "what both sides share"),
    ("pokerroom.bots", SERVER, "a bot knows the room by its protocol only"),
    ("pokerroom.client", SERVER, "a client knows the room by its protocol only"),
    ("pokerroom.loadtest.players", SERVER, "the load test's bots are clients"),
    ("pokerroom.loadtest.drive", SERVER, "the load test drives the room as its clients"),
    ("pokerroom.web", SERVER, "the browser client"),
]
# (layer, the only pokerroom modules it may import, why)
ONLY: list[tuple[str, tuple[str, ...], str]] = [
    ("pokerroom.core", ("pokerroom.core",), "the rules engine imports nothing of the room"),
    ("pokerroom.table", ("pokerroom.core", "pokerroom.table"), "the table layer imports only the rules"),
    ("pokerroom.websocket", ("pokerroom.websocket",), "a WebSocket library, nothing of poker"),
]

# Imports that break a rule today, each being removed by the issue-17 work named beside
# it: (importer, imported) -> why it is still here. Empty it as they go; an entry that no
# longer matches an import fails the test, so the set cannot go stale.
KNOWN_EXCEPTIONS: dict[tuple[str, str], str] = {}
# import cycles today, each as its sorted modules, being removed likewise
KNOWN_CYCLES: dict[tuple[str, ...], str] = {}


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    line: int
    at_import: bool  # runs when the importer is imported (not inside a function, not TYPE_CHECKING)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    found = {module_name(p): p for p in SRC.rglob("*.py")}
    return {name: path for name, path in found.items() if ".migrations." not in f"{name}."}


def _target(module: str, name: str | None, known: dict[str, Path]) -> str:
    """What ``from module import name`` loads: the submodule when ``name`` is one."""
    if name is not None and f"{module}.{name}" in known:
        return f"{module}.{name}"
    return module


def _walk(node: ast.AST, at_import: bool) -> Iterator[tuple[ast.AST, bool]]:
    for child in ast.iter_child_nodes(node):
        inside = at_import
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            inside = False
        elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
            yield from ((n, False) for n in ast.walk(child) if isinstance(n, ast.Import | ast.ImportFrom))
            continue
        yield child, inside
        yield from _walk(child, inside)


def imports_of(name: str, path: Path, known: dict[str, Path]) -> list[Import]:
    tree = ast.parse(path.read_text(), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node, at_import in _walk(tree, True):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            targets = [_target(base, a.name, known) for a in node.names]
        else:
            continue
        for target in targets:
            if target == "pokerroom" or target.startswith("pokerroom."):
                found.append(Import(name, target, node.lineno, at_import))
    return found


def all_imports() -> list[Import]:
    known = modules()
    return [i for name, path in sorted(known.items()) for i in imports_of(name, path, known)]


def within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def violations(imports: list[Import]) -> dict[tuple[str, str], str]:
    """Every import that breaks a rule: (importer, imported) -> the rule's reason."""
    broken: dict[tuple[str, str], str] = {}
    for i in imports:
        for prefix, forbidden, why in RULES:
            if within(i.importer, prefix) and any(within(i.imported, f) for f in forbidden):
                broken[(i.importer, i.imported)] = f"line {i.line}: {why}"
        for layer, allowed, why in ONLY:
            if within(i.importer, layer) and not any(within(i.imported, a) for a in allowed):
                broken[(i.importer, i.imported)] = f"line {i.line}: {why}"
    return broken


def cycles(imports: list[Import]) -> list[tuple[str, ...]]:
    """The strongly connected components of more than one module (or a module importing
    itself) over the imports that run at import time (Tarjan's algorithm)."""
    graph: dict[str, set[str]] = {}
    for i in imports:
        graph.setdefault(i.importer, set())
        if i.at_import and i.imported != i.importer:
            graph[i.importer].add(i.imported)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[tuple[str, ...]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(tuple(sorted(component)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


# ------------------------------------------------------------------- the checker itself


def test_the_checker_reads_every_kind_of_import(tmp_path: Path) -> None:
    known = {n: Path() for n in ("pokerroom.a", "pokerroom.pkg", "pokerroom.pkg.b", "pokerroom.pkg.c")}
    source = tmp_path / "b.py"
    source.write_text(
        "from __future__ import annotations\n"
        "from typing import TYPE_CHECKING\n"
        "import pokerroom.a\n"
        "from . import c\n"
        "from pokerroom import pkg\n"
        "if TYPE_CHECKING:\n"
        "    from pokerroom.pkg.c import Thing\n"
        "def later():\n"
        "    from pokerroom.a import x\n"
    )
    found = [(i.imported, i.at_import) for i in imports_of("pokerroom.pkg.b", source, known)]
    assert found == [
        ("pokerroom.a", True), ("pokerroom.pkg.c", True), ("pokerroom.pkg", True),
        ("pokerroom.pkg.c", False), ("pokerroom.a", False),
    ]


def test_the_checker_finds_a_broken_rule_and_a_cycle() -> None:
    made = [
        Import("pokerroom.table.table", "pokerroom.worker.room", 3, True),  # the table reaching the server
        Import("pokerroom.core.hand", "pokerroom.table.view", 4, False),
        Import("pokerroom.bots.client", "pokerroom.store", 5, True),
        Import("pokerroom.gateway.ws", "pokerroom.bus", 6, True),  # allowed
        Import("pokerroom.x", "pokerroom.y", 1, True),
        Import("pokerroom.y", "pokerroom.z", 1, True),
        Import("pokerroom.z", "pokerroom.x", 1, True),
        Import("pokerroom.z", "pokerroom.w", 1, False),
        Import("pokerroom.w", "pokerroom.z", 1, True),  # a cycle only through a function's import
    ]
    assert set(violations(made)) == {
        ("pokerroom.table.table", "pokerroom.worker.room"),
        ("pokerroom.core.hand", "pokerroom.table.view"),
        ("pokerroom.bots.client", "pokerroom.store"),
    }
    assert cycles(made) == [("pokerroom.x", "pokerroom.y", "pokerroom.z")]


# ------------------------------------------------------------------- the sources


def test_every_layer_is_there() -> None:
    names = modules()
    for prefix in ("pokerroom.core", "pokerroom.table", "pokerroom.bots", "pokerroom.client",
                   "pokerroom.gateway", "pokerroom.worker", "pokerroom.store", "pokerroom.websocket"):
        assert any(within(n, prefix) for n in names), f"no module {prefix}: update the rules"


def test_the_imports_go_one_way() -> None:
    broken = violations(all_imports())
    new = {k: v for k, v in broken.items() if k not in KNOWN_EXCEPTIONS}
    listed = "\n".join(f"{a} -> {b} ({why})" for (a, b), why in new.items())
    assert not new, f"imports against the layering:\n{listed}"
    gone = set(KNOWN_EXCEPTIONS) - set(broken)
    assert not gone, f"fixed, so remove them from KNOWN_EXCEPTIONS: {sorted(gone)}"


def test_no_import_cycle() -> None:
    found = set(cycles(all_imports()))
    new = found - set(KNOWN_CYCLES)
    assert not new, f"import cycles: {sorted(new)}"
    gone = set(KNOWN_CYCLES) - found
    assert not gone, f"fixed, so remove them from KNOWN_CYCLES: {sorted(gone)}"


@pytest.mark.parametrize("module", ["pokerroom.client", "pokerroom.bots"])
def test_the_clients_reach_the_server_through_nothing(module: str) -> None:
    """Not even indirectly: nothing a client imports at import time imports the server."""
    imports = all_imports()
    graph: dict[str, set[str]] = {}
    for i in imports:
        graph.setdefault(i.importer, set()).add(i.imported)
    seen, todo = set(), [m for m in modules() if within(m, module)]
    while todo:
        m = todo.pop()
        if m in seen:
            continue
        seen.add(m)
        todo.extend(graph.get(m, ()))
    assert not [m for m in seen if any(within(m, s) for s in SERVER)], sorted(seen)


@pytest.mark.parametrize("library", ["nats", "pokerkit", "treys", "eval7", "phevaluator"])
def test_the_product_runs_without_the_test_and_benchmark_libraries(library: str) -> None:
    """nats-py is the bus client's rival and a test peer, the others oracles and rivals:
    no module of src/ imports them (the bus has its own client, bus/natsclient.py)."""
    found = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])
            found += [f"{path.relative_to(SRC)}: {n}" for n in names if n.split(".")[0] == library]
    assert not found, found
