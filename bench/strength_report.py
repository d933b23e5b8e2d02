"""The game results of bench/strength.py and the figures its report draws from them.

``GameResult`` is one game of a duplicate pair; ``game_score(game)`` is A's score in it
(win 1, draw 0.5, loss 0); ``pair_margin(games)`` A's points minus B's over games;
``results_report(results)`` the report's figures over all games played (wins, the win rate
and the points a hand with 95% intervals, pair points, per-level bidding and decision
times). Raises :class:`ValueError` when ``results`` is empty.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field

from bench.strength_tally import BID_KEYS, bidding_report, mean_interval, pair_points_report

__all__ = ["GameResult", "game_score", "pair_margin", "results_report"]


@dataclass
class GameResult:
    pair: int
    a_seat: int
    winner: int | None  # seat, None when the hand cap stopped an even game
    capped: bool
    hand_diffs: list[int]  # per hand, A's points minus B's
    scores: tuple[int, int]
    times: dict[str, list[float]] = field(default_factory=dict)
    play_times: dict[str, list[float]] = field(default_factory=dict)
    bidding: dict[str, dict[str, int]] = field(default_factory=dict)
    cpu_times: dict[str, list[float]] = field(default_factory=dict)
    hands: list[dict[str, object]] = field(default_factory=list)  # the --log lines


def _percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))
    return ordered[index]


def _finite(value: float) -> float | None:
    """``value``, or ``None`` where it is not a number (JSON has no NaN)."""
    return None if math.isnan(value) else value


def game_score(game: GameResult) -> float:
    if game.winner is None:
        return 0.5
    return 1.0 if game.winner == game.a_seat else 0.0


def pair_margin(games: list[GameResult]) -> int:
    """A's points minus B's over a pair's games (final scores; one hand a game: its
    points), the margin that pair points (``--pair-score points``) score."""
    return sum(g.scores[g.a_seat] - g.scores[1 - g.a_seat] for g in games)


def results_report(results: list[GameResult]) -> dict[str, object]:
    """The figures of the report over ``results`` (see the module docstring), keyed as
    the JSON line names them. Raises :class:`ValueError` for no results."""
    if not results:
        raise ValueError("no games to report on")
    wins_a = wins_b = draws = capped = 0
    pair_scores: dict[int, list[float]] = {}
    pair_diffs: dict[int, list[int]] = {}
    pair_margins: dict[int, int] = {}
    all_diffs: list[int] = []
    times: dict[str, list[float]] = {}
    play_times: dict[str, list[float]] = {}
    cpu_times: dict[str, list[float]] = {}
    tallies: dict[str, dict[str, int]] = {}
    for game in results:
        score = game_score(game)
        if game.winner is None:
            draws += 1
        elif score == 1.0:
            wins_a += 1
        else:
            wins_b += 1
        capped += game.capped
        pair_scores.setdefault(game.pair, []).append(score)
        pair_diffs.setdefault(game.pair, []).extend(game.hand_diffs)
        pair_margins[game.pair] = pair_margins.get(game.pair, 0) + pair_margin([game])
        all_diffs.extend(game.hand_diffs)
        for level, values in game.times.items():
            times.setdefault(level, []).extend(values)
        for level, values in game.play_times.items():
            play_times.setdefault(level, []).extend(values)
        for level, values in game.cpu_times.items():
            cpu_times.setdefault(level, []).extend(values)
        for level, tally in game.bidding.items():
            into = tallies.setdefault(level, dict.fromkeys(BID_KEYS, 0))
            for key, value in tally.items():
                into[key] += value
    win_rate, win_low, win_high = mean_interval([statistics.fmean(v) for v in pair_scores.values()])
    diff_mean, diff_low, diff_high = mean_interval(
        [statistics.fmean(v) for v in pair_diffs.values() if v]
    )
    decision_time = {
        level: {
            "n": len(values),
            "p50": round(_percentile(values, 0.5), 5),
            "p95": round(_percentile(values, 0.95), 5),
            "max": round(max(values), 5),
            "play_p50": round(_percentile(play_times.get(level, []), 0.5), 5),
            "play_p95": round(_percentile(play_times.get(level, []), 0.95), 5),
            "cpu_p50": round(_percentile(cpu_times.get(level, []), 0.5), 5),
            "cpu_p95": round(_percentile(cpu_times.get(level, []), 0.95), 5),
            "cpu_max": round(max(cpu_times.get(level, [0.0])), 5),
        }
        for level, values in sorted(times.items())
    }
    return {
        "pairs": len(pair_scores),
        "games": len(results),
        "wins_a": wins_a,
        "wins_b": wins_b,
        "draws": draws,
        "capped_games": capped,
        "win_rate_a": round(win_rate, 4),
        "win_rate_a_ci95": [
            _finite(round(max(0.0, win_low), 4)),
            _finite(round(min(1.0, win_high), 4)),
        ],
        "pair_points": pair_points_report(list(pair_margins.values())),
        "hands": len(all_diffs),
        "mean_hand_diff": round(diff_mean, 2),
        "mean_hand_diff_ci95": [_finite(round(diff_low, 2)), _finite(round(diff_high, 2))],
        "bidding": bidding_report(tallies),
        "decision_time_s": decision_time,
    }
