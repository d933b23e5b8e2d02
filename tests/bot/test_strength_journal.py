"""bench/strength.py --journal: a long run resumes from the pairs it already played."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import strength
from bench.strength import _run_pair, main
from bench.strength_journal import JournalError, PairJournal, code_digest
from bench.strength_report import GameResult

RUN = ["--a", "easy", "--b", "random", "--max-hands", "1", "--workers", "1", "--seed", "4"]
OWN_MEASUREMENTS = ("wall_s", "decision_time_s", "resumed_pairs")
"""What each sitting measures for itself; every other figure comes from the pairs."""


def _report(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    main([*RUN, *args])
    report: dict[str, object] = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    return report


def _pair_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()[1:]


def test_a_resumed_run_reports_what_one_uninterrupted_run_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = _report(capsys, "--pairs", "5", "--sprt", "0.5", "0.6")
    journal = tmp_path / "journals" / "run.jsonl"  # a folder not made yet is made
    first = _report(capsys, "--pairs", "2", "--sprt", "0.5", "0.6", "--journal", str(journal))
    assert first["resumed_pairs"] == 0 and first["pairs"] == 2
    assert len(_pair_lines(journal)) == 2
    resumed = _report(capsys, "--pairs", "5", "--sprt", "0.5", "0.6", "--journal", str(journal))
    assert resumed["resumed_pairs"] == 2
    assert len(_pair_lines(journal)) == 5  # only pairs 2, 3 and 4 were played and added
    assert [json.loads(line)["games"][0]["pair"] for line in _pair_lines(journal)] == [
        0,
        1,
        2,
        3,
        4,
    ]
    for key in OWN_MEASUREMENTS:
        whole.pop(key, None)
        resumed.pop(key)
    assert resumed == whole  # the SPRT, the win rate, the points and the bids alike


def test_a_decided_journal_plays_no_further_pair(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "run.jsonl"
    first = _report(capsys, "--pairs", "60", "--sprt", "0.5", "0.6", "--journal", str(journal))
    sprt = first["sprt"]
    assert isinstance(sprt, dict) and sprt["verdict"] == "H1" and sprt["stopped_by"] == "sprt"
    lines = journal.read_text(encoding="utf-8")
    again = _report(capsys, "--pairs", "60", "--sprt", "0.5", "0.6", "--journal", str(journal))
    assert again["sprt"] == sprt
    assert again["resumed_pairs"] == sprt["pairs_played"] == first["pairs"]
    assert journal.read_text(encoding="utf-8") == lines


def test_another_runs_journal_is_refused_and_left_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "run.jsonl"
    _report(capsys, "--pairs", "1", "--journal", str(journal))
    before = journal.read_text(encoding="utf-8")
    with pytest.raises(JournalError, match=r"another run's journal \(differs in \['seed'\]\)"):
        main([*RUN[:-1], "5", "--pairs", "2", "--journal", str(journal)])
    with pytest.raises(JournalError, match=r"differs in \['set_a'\]"):
        main([*RUN, "--pairs", "2", "--set-a", "chase=0.4", "--journal", str(journal)])
    assert journal.read_text(encoding="utf-8") == before


def test_a_line_cut_off_by_a_killed_run_is_dropped_and_played_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "run.jsonl"
    _report(capsys, "--pairs", "2", "--journal", str(journal))
    whole = journal.read_text(encoding="utf-8")
    journal.write_text(whole[: len(whole) - 40], encoding="utf-8")  # pair 1 half written
    report = _report(capsys, "--pairs", "2", "--journal", str(journal))
    assert report["resumed_pairs"] == 1
    assert journal.read_text(encoding="utf-8") == whole  # pair 1 played again, the same


def test_a_gap_or_a_foreign_line_in_the_journal_is_an_error(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"
    identity: dict[str, object] = {"journal": "strength", "seed": 1}
    game = {
        "pair": 0,
        "a_seat": 0,
        "winner": 0,
        "capped": True,
        "hand_diffs": [10],
        "scores": [10, 0],
        "bidding": {},
        "hands": [],
    }
    pair_zero = json.dumps({"games": [game, {**game, "a_seat": 1}]})
    pair_two = pair_zero.replace('"pair": 0', '"pair": 2')
    journal.write_text(f"{json.dumps(identity)}\n{pair_zero}\n{pair_two}\n", encoding="utf-8")
    with pytest.raises(JournalError, match=r"run.jsonl:3: pair 1 expected here"):
        PairJournal(journal, identity).load()
    journal.write_text(f'{json.dumps(identity)}\n{{"games": [1, 2]}}\n', encoding="utf-8")
    with pytest.raises(JournalError, match=r"run.jsonl:2: not a pair of this run"):
        PairJournal(journal, identity).load()
    journal.write_text("not json\n", encoding="utf-8")
    with pytest.raises(JournalError, match="the first line is not a run's identity"):
        PairJournal(journal, identity).load()


def test_the_code_digest_follows_the_code_that_plays(tmp_path: Path) -> None:
    for folder in ("engine/bot", "bench/reference"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "engine" / "bot" / "search.py").write_text("CHASE = 0.5\n", encoding="utf-8")
    (tmp_path / "bench" / "reference" / "pimc.py").write_text("N = 1\n", encoding="utf-8")
    (tmp_path / "bench" / "strength.py").write_text("# the harness\n", encoding="utf-8")
    before = code_digest(tmp_path)
    (tmp_path / "bench" / "strength.py").write_text("# the harness, reworded\n", encoding="utf-8")
    assert code_digest(tmp_path) == before  # the harness does not decide a game
    reworded = (
        '"""How hard chases."""\n\nCHASE = (0.5)  # a share of the tricks left\n"""A share."""\n'
    )
    (tmp_path / "engine" / "bot" / "search.py").write_text(reworded, encoding="utf-8")
    assert code_digest(tmp_path) == before  # a docstring, a comment, a layout: the same code
    (tmp_path / "engine" / "bot" / "search.py").write_text("CHASE = 0.6\n", encoding="utf-8")
    changed = code_digest(tmp_path)
    assert changed != before
    (tmp_path / "bench" / "reference" / "pimc.py").write_text("N = 2\n", encoding="utf-8")
    assert code_digest(tmp_path) != changed
    assert len(before) == 16 and int(before, 16) >= 0


def test_the_journal_keeps_each_hand_as_the_log_writes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal, log = tmp_path / "run.jsonl", tmp_path / "hands.jsonl"
    _report(
        capsys, "--pairs", "2", "--max-hands", "3", "--journal", str(journal), "--log", str(log)
    )
    logged = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    kept = [
        {"pair": game["pair"], "a_seat": game["a_seat"], "hand": index, **hand}
        for line in _pair_lines(journal)
        for game in json.loads(line)["games"]
        for index, hand in enumerate(game["hands"])
    ]
    assert len(kept) >= 4 and kept == logged
    assert {"bids", "tricks", "points", "bags_added"} <= set(kept[0])


_asks_stop: list[Path] = []  # where the first pair asks the run to stop (seen by forked workers)


def _pair_that_asks_to_stop(job: strength.Job) -> list[GameResult]:
    _asks_stop[0].write_text("", encoding="utf-8")  # while this pair is still playing
    return _run_pair(job)


@pytest.mark.parametrize("wall", [[], ["--max-wall", "3600"]], ids=["in process", "pool"])
def test_a_stop_file_starts_no_further_pair_and_the_pair_playing_counts(
    wall: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    journal, stop = tmp_path / "run.jsonl", tmp_path / "stop"
    _asks_stop[:] = [stop]
    monkeypatch.setattr(strength, "_run_pair", _pair_that_asks_to_stop)
    args = ["--pairs", "5", "--sprt", "0.5", "0.6", "--stop-file", str(stop), *wall]
    report = _report(capsys, *args, "--journal", str(journal))
    sprt = report["sprt"]
    assert isinstance(sprt, dict) and sprt["stopped_by"] == "stop_file"
    assert report["pairs"] == 1 and len(_pair_lines(journal)) == 1  # pair 0 finished, kept
    # with the file still there a resumed run starts nothing and reports what it holds
    again = _report(capsys, *args, "--journal", str(journal))
    assert again["resumed_pairs"] == 1 and again["pairs"] == 1
    assert len(_pair_lines(journal)) == 1
    stop.unlink()  # taken away: the run goes on to its cap
    monkeypatch.setattr(strength, "_run_pair", _run_pair)
    rest = _report(capsys, *args, "--journal", str(journal))
    assert rest["pairs"] == 5 and len(_pair_lines(journal)) == 5
