"""Every benchmark script still imports: a rename in the packages must not leave a
benchmark that fails before it measures anything (two did: bench/decisions.py and
bench/backup.py)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench"
SCRIPTS = sorted(p.stem for p in BENCH.glob("*.py") if p.stem != "__init__")


def test_the_bench_folder_has_its_scripts() -> None:
    assert {"abuse", "backup", "decisions", "load", "strength"} <= set(SCRIPTS)


@pytest.mark.parametrize("name", SCRIPTS)
def test_a_benchmark_script_imports(name: str) -> None:
    module = importlib.import_module(f"bench.{name}")
    assert module.__name__ == f"bench.{name}"
