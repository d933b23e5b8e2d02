"""The bot's modules, the search's fast path and the analysis judges stay under the house
limit of 500 lines (engine/fast.py and engine/analysis/judge.py were split to get there)."""

from __future__ import annotations

from pathlib import Path

import engine.analysis.judge
import engine.analysis.judge_setup
import engine.fast
import engine.playout

ROOT = Path(__file__).resolve().parents[2]
MAX_LINES = 500
WATCHED = (
    *sorted((ROOT / "engine" / "bot").glob("*.py")),
    *sorted((ROOT / "engine" / "analysis").glob("*.py")),
    ROOT / "engine" / "fast.py",
    ROOT / "engine" / "playout.py",
    *sorted((ROOT / "bench").glob("strength*.py")),
    *sorted((ROOT / "bench" / "reference").glob("*.py")),
    ROOT / "bench" / "nil_probe.py",
)


def test_each_bot_and_analysis_module_is_at_most_500_lines() -> None:
    lengths = {
        str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
        for path in WATCHED
    }
    assert len(lengths) >= 15  # the globs found the modules
    assert {name: n for name, n in lengths.items() if n > MAX_LINES} == {}


def test_engine_fast_still_serves_the_playouts_as_the_same_objects() -> None:
    # the playouts moved to engine.playout; every caller of engine.fast keeps working
    for name in ("greedy_card", "greedy_playout", "random_playout"):
        assert getattr(engine.fast, name) is getattr(engine.playout, name)
    assert {"solve", "solve_bounded"} <= set(engine.fast.__all__)


def test_the_judge_still_serves_the_blind_nil_constant_and_dispatches_to_its_split() -> None:
    assert (
        engine.analysis.judge.OPPONENT_POINTS_AGAINST_BLIND_NIL
        == engine.analysis.judge_setup.OPPONENT_POINTS_AGAINST_BLIND_NIL
    )
    assert engine.analysis.judge.judge_draft is engine.analysis.judge_setup.judge_draft
