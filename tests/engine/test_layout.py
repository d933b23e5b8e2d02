"""The state machine's modules: small, layered under engine.game, and every name the repository
imports from engine.game still there."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import engine
import engine.game

ROOT = Path(__file__).resolve().parents[2]
# engine.game and the modules it was split into, in the order the data flows through them
GAME_PARTS = (
    "hand",
    "events",
    "tricks",
    "legal",
    "view",
    "deal",
    "bidding",
    "draft",
    "scoring",
)
MAX_LINES = 500


def _module_imports(path: Path) -> set[str]:
    """Every absolute module a file imports (``from m import n`` counts as ``m`` and ``m.n``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def _names_imported_from_engine_game() -> dict[str, list[str]]:
    """Name -> the files that do ``from engine.game import name``, over the whole repository."""
    found: dict[str, list[str]] = {}
    for folder in ("engine", "protocol", "server", "client", "tests", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module == "engine.game":
                    for alias in node.names:
                        found.setdefault(alias.name, []).append(str(path.relative_to(ROOT)))
    return found


def test_the_game_and_its_parts_are_each_at_most_500_lines() -> None:
    lengths = {
        name: len((ROOT / "engine" / f"{name}.py").read_text(encoding="utf-8").splitlines())
        for name in ("game", *GAME_PARTS)
    }
    assert {name: n for name, n in lengths.items() if n > MAX_LINES} == {}
    assert lengths["game"] > 100  # the state is still here, not an empty shell


def test_the_parts_never_import_the_state() -> None:
    # engine.game composes the parts; a part importing it back would be a cycle
    offenders = {
        name: sorted(n for n in _module_imports(ROOT / "engine" / f"{name}.py") if "game" in n)
        for name in GAME_PARTS
    }
    assert {name: found for name, found in offenders.items() if found} == {}


def test_every_name_the_repository_imports_from_engine_game_is_there() -> None:
    imported = _names_imported_from_engine_game()
    # the bot and the analysis read these from engine.game; if the scan misses them it is broken
    assert {"PlayerView", "Phase", "legal_play_mask", "score_seat", "trick_winner"} <= set(imported)
    missing = {name: files for name, files in imported.items() if not hasattr(engine.game, name)}
    assert missing == {}


def test_engine_game_still_exports_its_public_names_as_the_same_objects() -> None:
    for name in engine.game.__all__:
        assert getattr(engine, name) is getattr(engine.game, name), name
    assert len(engine.game.__all__) == 20
    assert engine.game.HAND_SIZE == 13
    assert engine.game.SPADE_MASK == 0x1FFF << 39


def test_each_part_defines_the_classes_and_functions_it_exports() -> None:
    for name in GAME_PARTS:
        module = importlib.import_module(f"engine.{name}")
        assert module.__all__, name
        for exported in module.__all__:
            value = getattr(module, exported)
            if callable(value):
                assert value.__module__ == module.__name__, f"engine.{name}.{exported}"
