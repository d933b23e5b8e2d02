"""Analysis speed: the time to judge every decision of one seat, per decision kind.

    nice -n 10 python3 bench/analysis.py                    # 2 classic games, level normal
    python3 bench/analysis.py --games 3 --level hard
    python3 bench/analysis.py --record game.json --seat 1   # a saved game instead
    python3 bench/analysis.py --baseline 300                # re-measure AVERAGE_DD_TRICKS

Games are played by two easy bots (instant) from fixed seeds, then seat 0 is analysed
with :func:`engine.analysis.analyze_record`. Times are CPU seconds of this process
(``time.process_time``, so one core, whatever else the machine runs), taken between the
analysis' progress calls: each decision's time is the time since the previous call; what
follows the last call (the hand summaries) is counted as ``summary``. The target: a whole
classic game (about 250 decisions) under 60 s at the default level. The last line printed
is one JSON object.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Deal, GameState, RuleSet, game_record
from engine.analysis import ANALYSIS_LEVELS, DEFAULT_LEVEL, Verdict, analyze_record
from engine.analysis.review import average_dd_tricks
from engine.bot import Bot

_MAX_ACTIONS = 20000


def _seed(base: int, game: int, hand: int) -> bytes:
    return hashlib.sha256(f"analysis-bench/{base}/{game}/{hand}".encode()).digest()


def make_record(base: int, game: int, rules: RuleSet) -> dict[str, Any]:
    """A finished game between two easy bots, from fixed seeds."""
    state = GameState(rules)
    bots = (Bot("easy", seed=base * 1000 + game), Bot("easy", seed=base * 1000 + game + 500))
    hands = 0
    for _ in range(_MAX_ACTIONS):
        if state.is_over:
            break
        seat = state.current_player
        if seat is None:
            state.apply(None, Deal(_seed(base, game, hands)))
            hands += 1
        else:
            state.apply(seat, bots[seat].choose(state.view_for(seat)))
    return game_record(state)


def time_analysis(record: dict[str, Any], seat: int, level: str) -> dict[str, Any]:
    """Analyse ``record`` for ``seat``; CPU seconds per decision kind and in total."""
    stamps: list[float] = []
    start = time.process_time()
    analysis = analyze_record(
        record, seat, level, lambda done, total: stamps.append(time.process_time())
    )
    end = time.process_time()
    kinds: dict[str, list[float]] = {}
    previous = start
    for decision, stamp in zip(analysis.decisions, stamps, strict=True):
        key = decision.kind.value if decision.verdict is not Verdict.FORCED else "forced"
        kinds.setdefault(key, []).append(stamp - previous)
        previous = stamp
    kinds["summary"] = [end - previous]
    return {
        "decisions": len(stamps),
        "hands": len(analysis.hands),
        "cpu_s": end - start,
        "accuracy": analysis.accuracy,
        "kinds": kinds,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2, help="games to analyse (default 2)")
    parser.add_argument("--level", default=DEFAULT_LEVEL, choices=sorted(ANALYSIS_LEVELS))
    parser.add_argument("--rules", default="classic", choices=("classic", "five-hundred"))
    parser.add_argument("--seed", type=int, default=1, help="base of the deal seeds")
    parser.add_argument("--record", default=None, help="analyse this record file instead")
    parser.add_argument("--seat", type=int, default=0, choices=(0, 1))
    parser.add_argument(
        "--baseline", type=int, default=0, help="also measure the average DD tricks over N deals"
    )
    args = parser.parse_args(argv)
    games = max(1, min(args.games, 20))
    if args.record:
        records = [json.loads(Path(args.record).read_text(encoding="utf-8"))]
    else:
        rules = RuleSet.preset(args.rules)
        records = [make_record(args.seed, game, rules) for game in range(games)]
    per_game = []
    kinds: dict[str, list[float]] = {}
    for record in records:
        timing = time_analysis(record, args.seat, args.level)
        for key, values in timing.pop("kinds").items():
            kinds.setdefault(key, []).extend(values)
        per_game.append(timing)
        print(
            f"game: {timing['decisions']} decisions in {timing['hands']} hands, "
            f"{timing['cpu_s']:.1f} s CPU",
            flush=True,
        )
    decisions = sum(game["decisions"] for game in per_game)
    cpu = sum(game["cpu_s"] for game in per_game)
    result: dict[str, Any] = {
        "bench": "analysis",
        "level": args.level,
        "rules": "record" if args.record else args.rules,
        "games": len(per_game),
        "decisions": decisions,
        "cpu_s": round(cpu, 2),
        "cpu_s_per_250_decisions": round(cpu / max(1, decisions) * 250, 2),
        "per_game": [
            {"decisions": g["decisions"], "hands": g["hands"], "cpu_s": round(g["cpu_s"], 2)}
            for g in per_game
        ],
        "per_kind_ms": {
            key: {
                "count": len(values),
                "mean": round(1000 * statistics.fmean(values), 2),
                "max": round(1000 * max(values), 2),
            }
            for key, values in sorted(kinds.items())
        },
    }
    if args.baseline > 0:
        deals = min(args.baseline, 2000)
        start = time.process_time()
        result["average_dd_tricks_on_lead"] = round(average_dd_tricks(deals, True), 3)
        result["baseline_deals"] = deals
        result["baseline_cpu_s"] = round(time.process_time() - start, 2)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
