"""bench/games_study.py: each side's points in whole games, split by where they came from."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from bench.games_study import PARTS, StudyError, game_parts, main, read_journal
from engine.rules import PRESETS

ROOT = Path(__file__).resolve().parents[2]
DECIDED = ROOT / "bench" / "journals" / "hard-normal-500-s19.jsonl"
FIVE_HUNDRED = PRESETS["five-hundred"]


def _hand(
    bids: list[int | None],
    tricks: list[int],
    points: list[int],
    bags: list[int],
    blind: bool = False,
) -> dict[str, Any]:
    return {
        "sides": ["hard", "normal"],
        "bids": bids,
        "blind_nil": [blind, False],
        "tricks": tricks,
        "points": points,
        "bags_added": bags,
    }


def _game(hands: list[dict[str, Any]], winner: int | None = 0) -> dict[str, Any]:
    scores = [sum(h["points"][0] for h in hands), sum(h["points"][1] for h in hands)]
    return {"pair": 3, "a_seat": 0, "winner": winner, "scores": scores, "hands": hands}


def _journal(tmp_path: Path, games: list[dict[str, Any]], a: str = "hard") -> Path:
    head = {"journal": "strength", "a": a, "b": "normal"}
    head["rules"] = dataclasses.asdict(FIVE_HUNDRED)
    path = tmp_path / "run.jsonl"
    lines = [json.dumps(head), json.dumps({"games": games})]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_each_part_is_counted_where_the_rules_put_it() -> None:
    hands = [
        _hand([4, 6], [9, 4], [45, -60], [5, 0]),  # hard makes 4 with 5 bags; normal set of 6
        _hand([3, 0], [8, 5], [35, -100], [5, 0]),  # the tenth bag: a penalty; a nil lost
        _hand([None, 5], [0, 13], [200, 58], [0, 8], blind=True),  # a blind nil made
    ]
    hands[1]["points"][0] = 30 + 5 - 100
    parts = game_parts(FIVE_HUNDRED, _game(hands), "hard").parts
    assert {k: parts["hard"][k] for k in PARTS} == {
        "made": 70,
        "overtricks": 10,
        "sets": 0,
        "nil": 0,
        "blind_nil": 200,
        "penalties": -100,
    }
    assert parts["hard"]["penalty_count"] == 1 and parts["hard"]["bags"] == 10
    assert {k: parts["normal"][k] for k in PARTS} == {
        "made": 50,
        "overtricks": 8,
        "sets": -60,
        "nil": -100,
        "blind_nil": 0,
        "penalties": 0,
    }
    assert parts["normal"]["set_count"] == 1


def test_a_hand_the_rules_score_otherwise_is_refused(tmp_path: Path) -> None:
    wrong = _hand([4, 6], [9, 4], [49, -60], [5, 0])  # 4 made with 5 bags is 45, not 49
    with pytest.raises(StudyError, match="pair 3, hand 1, seat 0: the rules score 45 points"):
        read_journal(_journal(tmp_path, [_game([wrong])]))


def test_the_parts_of_the_kept_journal_add_up_to_every_final_score() -> None:
    side_a, side_b, games = read_journal(DECIDED)
    assert (side_a, side_b) == ("hard", "normal") and len(games) == 34
    raw = [
        game for line in DECIDED.read_text().splitlines()[1:] for game in json.loads(line)["games"]
    ]
    for study, game in zip(games, raw, strict=True):
        for side in (side_a, side_b):
            assert sum(study.parts[side][k] for k in PARTS) == study.scores[side]
            tally = game["bidding"][side]
            assert study.parts[side]["set_count"] == tally["bids"] - tally["made"]
            assert study.parts[side]["bags"] == tally["bags"]
    assert sum(g.a_won is True for g in games) == 26  # the rung's 26-8


def test_the_command_ends_with_the_report_and_refuses_what_is_not_a_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(DECIDED)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 35 and lines[0].startswith("pair 0: hard won 504-51;")
    report = json.loads(lines[-1])
    assert report["games"] == {"all": 34, "a_won": 26, "a_lost": 8}
    won = report["per_game"]["a_won"]
    assert won["hard"]["sets"] > won["normal"]["sets"]  # the games hard won: normal set more
    not_a_journal = tmp_path / "notes.txt"
    not_a_journal.write_text("hello\n", encoding="utf-8")
    assert main([str(not_a_journal)]) == 2
    assert "is not a strength journal" in capsys.readouterr().err
    mixed = _journal(tmp_path, [], a="easy")
    assert main([str(DECIDED), str(mixed)]) == 2
    assert "easy against normal, not hard against normal" in capsys.readouterr().err
