"""engine/ is a pure library: no networking, storage, UI or serialisation imports."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = {
    "asyncio",
    "websockets",
    "msgpack",
    "pydantic",
    "prompt_toolkit",
    "sqlite3",
    "socket",
}


def imported_modules(tree: ast.AST) -> set[str]:
    """Every absolute module name a file imports, statically or by a literal string."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Call):
            func = node.func
            called = (
                func.id
                if isinstance(func, ast.Name)
                else func.attr
                if isinstance(func, ast.Attribute)
                else ""
            )
            if called in ("__import__", "import_module") and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    names.add(first.value)
    return names


def test_engine_imports_nothing_of_io_ui_or_serialisation() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert ENGINE / "game.py" in files and ENGINE / "bot" / "__init__.py" in files
    offenders = []
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for name in imported_modules(tree):
            if name.split(".")[0] in FORBIDDEN:
                offenders.append(f"{path.relative_to(ENGINE.parent)}: {name}")
    assert offenders == []


def test_the_import_checker_catches_each_form() -> None:
    source = (
        "import asyncio\n"
        "import os, socket as s\n"
        "from websockets.client import connect\n"
        "from . import msgpack\n"
        "def f():\n"
        "    import sqlite3\n"
        "    __import__('pydantic')\n"
        "    importlib.import_module('prompt_toolkit.shortcuts')\n"
    )
    found = {name.split(".")[0] for name in imported_modules(ast.parse(source))}
    assert found & FORBIDDEN == FORBIDDEN - {"msgpack"}  # a relative import is the package's own
