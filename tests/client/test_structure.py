"""The terminal client's layout: one module per screen and window, each with its keys and
its drawing; nothing outside the model writes into it; no module over 500 lines."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

CLIENT = Path(__file__).resolve().parents[2] / "client"
PYTHON = sorted(p for p in CLIENT.rglob("*.py") if "web" not in p.relative_to(CLIENT).parts)
SCREENS = [
    "connecting",
    "lobby",
    "create",
    "waiting",
    "deal",
    "blind_nil",
    "draft",
    "exchange",
    "bidding",
    "play",
    "hand_result",
    "game_over",
]
OVERLAYS = ["help", "scores", "settings", "chat", "pile", "rules", "question"]


@pytest.mark.parametrize("path", PYTHON, ids=lambda p: str(p.relative_to(CLIENT)))
def test_no_module_is_over_500_lines(path: Path) -> None:
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 500


@pytest.mark.parametrize("name", SCREENS)
def test_each_screen_owns_its_keys_and_its_drawing(name: str) -> None:
    module = importlib.import_module(f"client.screens.{name}")
    assert callable(getattr(module, "keys", None)) or callable(getattr(module, "code_keys", None))
    drawing = [d for d in ("centre", "main", "lines") if callable(getattr(module, d, None))]
    assert drawing, f"{name} draws nothing"
    # its help line: the prompt, or (a window) the hint among its lines
    assert callable(getattr(module, "prompt", None)) or callable(getattr(module, "title", None))


@pytest.mark.parametrize("name", OVERLAYS)
def test_each_window_owns_its_keys_and_its_drawing(name: str) -> None:
    module = importlib.import_module(f"client.overlays.{name}")
    for part in ("title", "lines", "keys"):
        assert callable(getattr(module, part, None)), (name, part)


def _writes_into_the_model(tree: ast.AST) -> list[int]:
    """Lines assigning to an attribute of ``model`` or ``self.model`` (or deeper)."""
    found = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            base = target
            while isinstance(base, ast.Attribute | ast.Subscript):
                base = base.value
                if isinstance(base, ast.Name) and base.id == "model" and base is not target:
                    found.append(node.lineno)
                if (
                    isinstance(base, ast.Attribute)
                    and base.attr == "model"
                    and isinstance(base.value, ast.Name)
                    and base.value.id == "self"
                ):
                    found.append(node.lineno)
    return found


@pytest.mark.parametrize(
    "path",
    [p for p in PYTHON if "model" not in p.relative_to(CLIENT).parts],
    ids=lambda p: str(p.relative_to(CLIENT)),
)
def test_nothing_outside_the_model_writes_into_it(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert _writes_into_the_model(tree) == []


def test_the_write_check_sees_a_write() -> None:
    tree = ast.parse("model.flash = 'x'\nself.model.log = []\nmodel.settings.ascii = True\n")
    assert _writes_into_the_model(tree) == [1, 2, 3]


def test_the_model_keeps_no_terminal_size() -> None:
    from client.model import ClientModel

    assert not hasattr(ClientModel("alice"), "size")
