"""The room's cut along the coming gateway/worker split (issue 17; DESIGN.md on lila and
lila-ws), read from the source's imports (``ast``, every import, at the top or inside a
function): no import cycle among the room's modules, the worker never imports the gateway,
and the gateway reaches the tables through the bus only (its app wires the in-process
worker, the one exception)."""

from __future__ import annotations

import ast
from pathlib import Path

import pokerroom

SRC = Path(pokerroom.__file__).resolve().parent
ROOM = ("pokerroom.gateway", "pokerroom.worker", "pokerroom.bus", "pokerroom.store", "pokerroom.protocol",
        "pokerroom.wire", "pokerroom.histories", "pokerroom.fairness", "pokerroom.config", "pokerroom.table",
        "pokerroom.core", "pokerroom.websocket")


def _name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, set[str]]:
    """Each module of pokerroom -> the pokerroom modules it imports (a package's
    ``from x import y`` counts y when y is a module)."""
    files = {_name(f): f for f in SRC.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                found |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from the package, up ``level - 1``
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, base]).strip(".")
                found.add(base)
                found |= {f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in files}
        graph[name] = {m for m in found if m in files and m != name}
    return graph


def _cycle(graph: dict[str, set[str]], within: tuple[str, ...]) -> list[str] | None:
    """An import cycle among the modules under ``within``, if there is one."""
    nodes = {m for m in graph if m.startswith(within)}
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for n in sorted(graph[m] & nodes):
            if state.get(n) == 1:
                return [*path[path.index(n):], n]
            if n not in state and (found := visit(n)) is not None:
                return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(nodes):
        if m not in state and (found := visit(m)) is not None:
            return found
    return None


def _imports_under(graph: dict[str, set[str]], module: str, prefix: str) -> set[str]:
    return {m for m in graph[module] if m == prefix or m.startswith(prefix + ".")}


def test_the_room_has_no_import_cycle() -> None:
    assert _cycle(_modules(), ROOM) is None


def test_the_cycle_finder_finds_one() -> None:
    """So that the test above can fail."""
    graph = {"pokerroom.worker.a": {"pokerroom.worker.b"}, "pokerroom.worker.b": {"pokerroom.worker.a"}}
    assert _cycle(graph, ROOM) == ["pokerroom.worker.a", "pokerroom.worker.b", "pokerroom.worker.a"]


def test_the_worker_never_imports_the_gateway_nor_the_bus() -> None:
    graph = _modules()
    workers = [m for m in graph if m.startswith("pokerroom.worker")]
    assert len(workers) >= 8
    for m in workers:
        assert not _imports_under(graph, m, "pokerroom.gateway"), m
        assert not _imports_under(graph, m, "pokerroom.bus"), m


def test_the_gateway_reaches_the_tables_through_the_bus() -> None:
    graph = _modules()
    gateway = [m for m in graph if m.startswith("pokerroom.gateway")]
    for m in gateway:
        allowed = {"pokerroom.worker.room"} if m == "pokerroom.gateway.app" else set()  # the wiring
        assert _imports_under(graph, m, "pokerroom.worker") <= allowed, m
    assert "pokerroom.bus" in graph["pokerroom.gateway.ws"]
    assert "pokerroom.bus" in graph["pokerroom.gateway.app"]
