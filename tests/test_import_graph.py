"""The import graph of the four packages: no cycle, and nothing imports upward.

Every import counts: at module level, inside a function, and under ``TYPE_CHECKING``
(a cycle hidden from the interpreter is still one for a reader). Layers, lowest first:
``engine`` (rules), ``protocol`` (messages), then ``server`` and ``client``; a package
may import only packages below it, except that ``client`` may import ``server`` (the
terminal client starts a local server for single play) and never the reverse.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "protocol", "server", "client")
MAY_IMPORT = {
    "engine": set(),
    "protocol": {"engine"},
    "server": {"engine", "protocol"},
    "client": {"engine", "protocol", "server"},
}


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_of(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def _imported_names(module: str, path: Path) -> set[str]:
    """Every module name an ``import`` or ``from ... import`` of this file names
    (relative imports resolved; ``from a import b`` names both ``a`` and ``a.b``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def _graph() -> dict[str, set[str]]:
    """Module -> the modules of the four packages it imports (the nearest known name:
    ``from server.store import Store`` is an edge to ``server.store``). An edge from a
    package to its own submodule (an ``__init__`` re-exporting) is left out."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        edges: set[str] = set()
        for name in _imported_names(module, path):
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name and name != module and not name.startswith(module + "."):
                edges.add(name)
        graph[module] = edges
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, list[str]]] = [(start, sorted(graph[start]))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(graph.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_there_is_no_import_cycle_in_any_package() -> None:
    assert _cycles(_graph()) == []


def test_no_package_imports_a_package_above_it() -> None:
    upward = sorted(
        f"{module} imports {target}"
        for module, targets in _graph().items()
        for target in targets
        if target.split(".")[0] != module.split(".")[0]
        and target.split(".")[0] not in MAY_IMPORT[module.split(".")[0]]
    )
    assert upward == []


SERVER_LAYERS = ("store", "accounts", "rooms", "lobby", "cluster", "ops", "net", "gateway", "app")
"""server's parts, lowest first: each imports only the parts before it (and the shared
modules beside them: config, errors, logs, bots, limits, rulebounds, tasks)."""


def test_the_server_parts_import_only_the_parts_below_them() -> None:
    def part(module: str) -> str | None:
        name = module.split(".")[1] if module.count(".") else ""
        return name if name in SERVER_LAYERS else None

    upward = sorted(
        f"{module} imports {target}"
        for module, targets in _graph().items()
        if module.startswith("server.") and part(module) is not None
        for target in targets
        if target.startswith("server.")
        and part(target) is not None
        and SERVER_LAYERS.index(part(target) or "") > SERVER_LAYERS.index(part(module) or "")
    )
    assert upward == []


def test_the_checks_see_cycles_and_imports_hidden_from_the_interpreter() -> None:
    """The walk itself: a TYPE_CHECKING import and one inside a function are edges."""
    graph = _graph()
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
    # server/cluster/directory.py imports the Redis directory only inside a function,
    # server/errors.py the protocol's messages only under TYPE_CHECKING
    assert "server.cluster.redis_directory" in graph["server.cluster.directory"]
    assert "protocol.messages" in graph["server.errors"]
    # engine's modules are all seen, and none reaches outside the engine
    engine = [module for module in graph if module.startswith("engine")]
    assert len(engine) > 3
    assert all(target.startswith("engine") for module in engine for target in graph[module])


@pytest.mark.parametrize("package", PACKAGES)
def test_every_package_is_walked(package: str) -> None:
    assert any(module.split(".")[0] == package for module in _graph())
