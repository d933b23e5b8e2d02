"""bench/strength.py's pair-points unit: pairs scored on their two games' points."""

from __future__ import annotations

import json

import pytest

from bench.sprt import trinomial_counts, trinomial_llr
from bench.strength import GameResult, main, pair_margin
from bench.strength_tally import pair_points_report


def _game(pair: int, a_seat: int, scores: tuple[int, int]) -> GameResult:
    winner = None if scores[0] == scores[1] else int(scores[1] > scores[0])
    diff = scores[a_seat] - scores[1 - a_seat]
    return GameResult(pair, a_seat, winner, True, [diff], scores)


def test_the_pair_margin_adds_a_points_in_both_seats() -> None:
    # Game 1: A in seat 0 makes 60 to B's -50; game 2: A in seat 1 is set, -40 to 64.
    # Each side won one game, but A is ahead on the pair's points: 110 - 104 = +6.
    games = [_game(0, 0, (60, -50)), _game(0, 1, (64, -40))]
    assert [g.winner == g.a_seat for g in games] == [True, False]
    assert pair_margin(games) == (60 - -50) + (-40 - 64)
    assert pair_margin(games) == 6


def test_pair_points_report_counts_and_interval() -> None:
    report = pair_points_report([6, -20, 0, 35])
    assert report["pairs"] == 4
    assert (report["lost"], report["drawn"], report["won"]) == (1, 1, 2)
    assert report["win_rate"] == 0.625  # (0 + 0.5 + 1 + 1) / 4
    # stdev of (1, 0, 0.5, 1) is 0.478714; half-width 1.96 * 0.478714 / 2 = 0.469140
    assert report["win_rate_ci95"] == [pytest.approx(0.1559, abs=1e-4), 1.0]
    assert pair_points_report([])["win_rate"] is None
    assert pair_points_report([5])["win_rate_ci95"] == [None, None]


def test_a_points_sprt_run_reports_both_units(capsys: pytest.CaptureFixture[str]) -> None:
    main(
        [
            "--a", "easy", "--b", "random", "--pairs", "3", "--max-hands", "1",
            "--workers", "1", "--seed", "4", "--sprt", "0.5", "0.6", "--pair-score", "points",
        ]
    )  # fmt: skip
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    sprt = report["sprt"]
    points = report["pair_points"]
    assert sprt["unit"] == "points"
    assert sprt["pairs_played"] == points["pairs"] == 3
    assert sprt["trinomial"] == [points["lost"], points["drawn"], points["won"]]
    assert sum(sprt["pentanomial"]) == 3
    assert sprt["llr"] == sprt["llr_points"]
    expected = trinomial_llr(sprt["trinomial"], 0.5, 0.6)
    assert sprt["llr_points"] == pytest.approx(expected, abs=1e-3)
    assert trinomial_counts([]) == [0, 0, 0]


def test_the_default_unit_stays_games_and_still_reports_pair_points(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(
        [
            "--a", "easy", "--b", "random", "--pairs", "2", "--max-hands", "1",
            "--workers", "1", "--seed", "4", "--sprt", "0.5", "0.6",
        ]
    )  # fmt: skip
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["sprt"]["unit"] == "games"
    assert report["sprt"]["llr"] == report["sprt"]["llr_games"]
    assert report["pair_points"]["pairs"] == 2


def test_repeated_set_flags_add_their_fields(capsys: pytest.CaptureFixture[str]) -> None:
    main(
        [
            "--a", "normal", "--b", "random", "--iterations", "5", "--pairs", "1",
            "--max-hands", "1", "--workers", "1", "--seed", "4",
            "--set-a", "bid_shift=0.0", "--set-a", "chase=0.4", "fog=True",
        ]
    )  # fmt: skip
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["set_a"] == ["bid_shift=0.0", "chase=0.4", "fog=True"]
    assert report["a"] == "normal" and report["pairs"] == 1
