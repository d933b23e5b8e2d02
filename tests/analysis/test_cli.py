"""``spades analyze``: the report, its errors, and the progress bar."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from client.analyze import analyze_file, format_analysis, with_progress_bar
from client.cli import main
from engine import parse_action
from engine.analysis import GameAnalysis, Progress, Verdict, analysis_to_dict

from .helpers import CLASSIC, play, record_of


@pytest.fixture(scope="module")
def record_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    state = play(CLASSIC, "cli", stop=lambda s: bool(s.hand_results))
    path = tmp_path_factory.mktemp("records") / "game.json"
    path.write_text(json.dumps(record_of(state)), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def analysis(record_path: Path) -> GameAnalysis:
    return analyze_file(record_path, 0, "easy")


def test_spades_analyze_prints_every_decision_of_the_seat(
    record_path: Path, analysis: GameAnalysis, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyze", str(record_path), "--level", "easy", "--all", "--ascii"]) == 0
    out = capsys.readouterr().out
    assert out.strip() == format_analysis(analysis, ascii_only=True, every=True)
    lines = out.splitlines()
    assert lines[0].startswith("Analysis of seat 0 (classic, level easy): unfinished")
    assert lines[1].startswith("Accuracy ")
    assert any(line.startswith("Hand 1: ") for line in lines)
    drafts = [line for line in lines if re.match(r"\s+draft (keep|discard) ", line)]
    plays = [line for line in lines if re.match(r"\s+trick \d+ ", line)]
    assert len(drafts) == 13 and len(plays) == 13
    assert sum(bool(re.match(r"\s+bid (\d+|nil)", line)) for line in lines) == 1
    assert all(len(line) <= 80 for line in lines)
    assert "♠" not in out and "♥" not in out


def test_by_default_only_the_costly_decisions_are_listed(analysis: GameAnalysis) -> None:
    text = format_analysis(analysis)
    listed = [
        line
        for line in text.splitlines()
        if re.match(r"\s+(trick \d+|bid|draft|exchange|blind nil) ", line)
    ]
    costly = [d for d in analysis.decisions if d.verdict not in (Verdict.GOOD, Verdict.FORCED)]
    assert len(listed) == len(costly)
    for decision, line in zip(costly, listed, strict=True):
        assert line.rstrip().split()[-1] == decision.verdict.value or (
            f" {decision.verdict.value} " in line
        )
    top = text.split("Costliest decisions")[1].split("\n\n")[0].splitlines()[1:]
    assert len(top) == min(3, len([d for d in analysis.decisions if d.loss > 0]))


def test_a_bad_record_is_refused_with_a_clear_error(
    record_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(record_path.read_text(encoding="utf-8"))
    record["actions"][5] = [record["actions"][5][0], "play AS"]
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(record), encoding="utf-8")
    assert main(["analyze", str(tampered)]) == 1
    assert "does not apply" in capsys.readouterr().err
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json", encoding="utf-8")
    assert main(["analyze", str(garbage)]) == 1
    assert "garbage.json" in capsys.readouterr().err
    assert main(["analyze", str(tmp_path / "missing.json")]) == 1
    assert "missing.json" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["analyze", str(record_path), "--seat", "2"])


def test_the_progress_bar_counts_the_decisions(analysis: GameAnalysis) -> None:
    screen = io.StringIO()
    output = Vt100_Output(screen, lambda: Size(rows=24, columns=80), term="xterm")
    seen: list[int] = []

    def work(progress: Progress | None) -> GameAnalysis:
        assert progress is not None
        for done in range(1, 28):
            progress(done, 27)
            seen.append(done)
        return analysis

    with create_pipe_input() as keys:
        assert with_progress_bar(work, output, keys) is analysis
    text = screen.getvalue()
    assert seen == list(range(1, 28))
    assert "Analysing the game" in text
    assert re.search(r"27/\s*27", text)


def test_the_json_form_holds_every_decision(analysis: GameAnalysis) -> None:
    data = analysis_to_dict(analysis)
    assert json.loads(json.dumps(data)) == data
    decisions = [d for hand in data["hands"] for d in hand["decisions"]]
    assert len(decisions) == len(analysis.decisions)
    for original, written in zip(analysis.decisions, decisions, strict=True):
        assert parse_action(written["action"]) == original.action
        assert written["verdict"] == original.verdict.value
        assert (written["knew"] is None) == (original.knew is None)
        if original.knew is not None:
            assert written["knew"]["loss"] == round(original.knew.loss, 2)
    assert data["costliest"] == [d.index for d in analysis.costliest]
    assert sum(data["verdicts"].values()) == len(decisions)
