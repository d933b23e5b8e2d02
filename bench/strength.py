"""Bot strength: duplicate-pair matches between two bot levels (or a level and random play).

    python3 bench/strength.py --a hard --b easy --pairs 500 --workers 2
    python3 bench/strength.py --a easy --b random --pairs 500

Each pair plays one sequence of shuffle seeds twice, with the seats swapped, so card luck
cancels as far as the draft lets it. Games run in parallel processes. Decision times are
measured here (the engine has no clock) with ``time.perf_counter`` around ``bot.choose``,
for decisions with more than one legal action. The last line printed is one JSON object:
games, wins of each side, A's win rate with a 95% interval (over pairs, draws count half),
the mean per-hand score difference A - B with its interval, and decision times per level.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Deal, GameState, Phase, RuleSet
from engine.actions import Action
from engine.bot import LEVELS, Bot

SIDES = (*LEVELS, "random")


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


def _seed(base: int, pair: int, hand: int) -> bytes:
    return hashlib.sha256(f"strength/{base}/{pair}/{hand}".encode()).digest()


def play_game(
    pair: int,
    a_seat: int,
    side_a: str,
    side_b: str,
    base: int,
    rules: RuleSet,
    iterations: tuple[int | None, int | None],
    max_hands: int,
) -> GameResult:
    sides = [side_a, side_b] if a_seat == 0 else [side_b, side_a]
    its = [iterations[0], iterations[1]] if a_seat == 0 else [iterations[1], iterations[0]]
    players: list[Bot | random.Random] = []
    for seat, side in enumerate(sides):
        bot_seed = int.from_bytes(_seed(base, pair, 1000 + seat)[:8], "big")
        if side == "random":
            players.append(random.Random(bot_seed))
        else:
            players.append(Bot(side, seed=bot_seed, iterations=its[seat]))
    state = GameState(rules)
    times: dict[str, list[float]] = {}
    play_times: dict[str, list[float]] = {}
    hand = 0
    capped = False
    while not state.is_over:
        seat = state.current_player
        if seat is None:
            if hand >= max_hands:
                capped = True
                break
            state.apply(None, Deal(_seed(base, pair, hand)))
            hand += 1
            continue
        view = state.view_for(seat)
        player = players[seat]
        action: Action
        if isinstance(player, Bot):
            legal = view.legal_actions()
            start = time.perf_counter()
            action = player.choose(view)
            elapsed = time.perf_counter() - start
            if len(legal) > 1:
                times.setdefault(sides[seat], []).append(elapsed)
                if view.phase is Phase.PLAY:
                    play_times.setdefault(sides[seat], []).append(elapsed)
        else:
            action = player.choice(view.legal_actions())
        state.apply(seat, action)
    diffs = []
    for result in state.hand_results:
        points = result.points
        diffs.append(points[a_seat] - points[1 - a_seat])
    scores = (state.scores[0], state.scores[1])
    winner = state.winner
    if capped and scores[0] != scores[1]:
        winner = 0 if scores[0] > scores[1] else 1
    return GameResult(pair, a_seat, winner, capped, diffs, scores, times, play_times)


Job = tuple[int, str, str, int, dict[str, object], tuple[int | None, int | None], int]


def _run_pair(job: Job) -> list[GameResult]:
    pair, side_a, side_b, base, rule_dict, iterations, max_hands = job
    rules = RuleSet.from_dict(dict(rule_dict))
    return [
        play_game(pair, a_seat, side_a, side_b, base, rules, iterations, max_hands)
        for a_seat in (0, 1)
    ]


def _percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))
    return ordered[index]


def _interval(values: list[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, float("nan"), float("nan")
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default="hard", choices=SIDES)
    parser.add_argument("--b", default="easy", choices=SIDES)
    parser.add_argument("--pairs", type=int, default=500)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--target", type=int, default=None, help="override target_score")
    parser.add_argument("--seed", type=int, default=1, help="base of the shuffle seeds")
    parser.add_argument("--iterations", type=int, default=None, help="override both levels")
    parser.add_argument("--iterations-a", type=int, default=None)
    parser.add_argument("--iterations-b", type=int, default=None)
    parser.add_argument("--max-hands", type=int, default=60, help="hand cap per game")
    args = parser.parse_args(argv)

    overrides: dict[str, object] = {}
    if args.target is not None:
        overrides["target_score"] = args.target
    rules = RuleSet.preset(args.preset, **overrides)
    iterations = (
        args.iterations_a if args.iterations_a is not None else args.iterations,
        args.iterations_b if args.iterations_b is not None else args.iterations,
    )
    jobs = [
        (pair, args.a, args.b, args.seed, rules.to_dict(), iterations, args.max_hands)
        for pair in range(args.pairs)
    ]
    started = time.perf_counter()
    results: list[GameResult] = []
    if args.workers <= 1:
        for job in jobs:
            results.extend(_run_pair(job))
    else:
        with multiprocessing.Pool(args.workers) as pool:
            for games in pool.imap_unordered(_run_pair, jobs):
                results.extend(games)
    wall = time.perf_counter() - started

    wins_a = wins_b = draws = capped = 0
    pair_scores: dict[int, list[float]] = {}
    pair_diffs: dict[int, list[int]] = {}
    all_diffs: list[int] = []
    times: dict[str, list[float]] = {}
    play_times: dict[str, list[float]] = {}
    for game in results:
        if game.winner is None:
            draws += 1
            score = 0.5
        elif game.winner == game.a_seat:
            wins_a += 1
            score = 1.0
        else:
            wins_b += 1
            score = 0.0
        capped += game.capped
        pair_scores.setdefault(game.pair, []).append(score)
        pair_diffs.setdefault(game.pair, []).extend(game.hand_diffs)
        all_diffs.extend(game.hand_diffs)
        for level, values in game.times.items():
            times.setdefault(level, []).extend(values)
        for level, values in game.play_times.items():
            play_times.setdefault(level, []).extend(values)
    win_rate, win_low, win_high = _interval([statistics.fmean(v) for v in pair_scores.values()])
    diff_mean, diff_low, diff_high = _interval(
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
        }
        for level, values in sorted(times.items())
    }
    report = {
        "a": args.a,
        "b": args.b,
        "preset": args.preset,
        "target_score": rules.target_score,
        "iterations": list(iterations),
        "pairs": args.pairs,
        "games": len(results),
        "wins_a": wins_a,
        "wins_b": wins_b,
        "draws": draws,
        "capped_games": capped,
        "win_rate_a": round(win_rate, 4),
        "win_rate_a_ci95": [round(max(0.0, win_low), 4), round(min(1.0, win_high), 4)],
        "hands": len(all_diffs),
        "mean_hand_diff": round(diff_mean, 2),
        "mean_hand_diff_ci95": [round(diff_low, 2), round(diff_high, 2)],
        "decision_time_s": decision_time,
        "workers": args.workers,
        "wall_s": round(wall, 1),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
