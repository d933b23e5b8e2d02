"""Bot strength: duplicate-pair matches between two bot levels (or a level and random play).

    python3 bench/strength.py --a hard --b easy --pairs 500 --workers 2
    python3 bench/strength.py --a easy --b random --pairs 500
    python3 bench/strength.py --a hard --b normal --sprt 0.5 0.6 --pairs 400 --max-wall 3600
    python3 bench/strength.py --a hard --b pimc --pairs 40 --workers 1    # or --b ismcts
    python3 bench/strength.py --a hard --b pimc --sprt 0.5 0.6 --pair-score points --max-hands 1
    python3 bench/strength.py --a hard --b hard --set-a fog=false --pairs 40 --max-hands 1

A side is a bot level, a reference opponent of ``bench/reference`` (``ismcts``, ``pimc``:
not bot levels, see there) or ``random``.

Fixed-size mode plays ``--pairs`` pairs. SPRT mode (``--sprt P0 P1``) plays pairs in seed
order until the test decides (H0: A's win rate is ``P0``, H1: it is ``P1``; ``--alpha``
and ``--beta`` default to 0.05), with ``--pairs`` as the cap on pairs and ``--max-wall``
as the cap on seconds; at a cap it reports the verdict "undecided". The test is the
pentanomial generalised SPRT of ``bench/sprt.py`` (the pair is the unit, a draw counts
half). ``--pair-score points`` scores each pair as bridge duplicate does instead (A wins
the pair when its points over the two games total more than B's, a tie is half) and runs
the trinomial test on those pairs. Both LLRs are reported; the verdict is the chosen
unit's. The pair-points win rate and its interval are in the JSON in every mode.

``--journal FILE`` keeps each finished pair in ``FILE`` and resumes a run from the pairs
it already holds (``bench/strength_journal.py``), for tests longer than one sitting.
``--stop-file PATH`` ends a run without losing a pair: once ``PATH`` exists no further
pair is started, and the pairs already playing finish and count (``--max-wall`` drops
them); the SPRT's ``stopped_by`` is then ``"stop_file"``.

Each pair plays one sequence of shuffle seeds twice, with the seats swapped, so card luck
cancels as far as the draft lets it. Games run in parallel processes. Decision times are
measured here (the engine has no clock) with ``time.perf_counter`` around ``bot.choose``,
for decisions with more than one legal action, in wall time and in the process's CPU time
(what the decision costs on a core of its own; the wall time also holds the waits of a
busy machine). The last line printed is one JSON object:
games, wins of each side, A's win rate with a 95% interval (over pairs, draws count half),
the mean per-hand score difference A - B with its interval, decision times per level,
and per level: the share of non-nil bids made, bags per hand, nil and blind nil bid rates
and their success rates (nils made and set, blind nils made), and the share of the
opponent's nils (blind or not) it set. In SPRT mode also the verdict, the LLR, its
bounds and the pentanomial counts.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import random
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import replace
from multiprocessing.pool import AsyncResult
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.reference import REFERENCES, ReferencePlayer, make_reference
from bench.sprt import (
    pair_score,
    pentanomial_counts,
    pentanomial_llr,
    points_pair_score,
    sprt_bounds,
    sprt_verdict,
    trinomial_counts,
    trinomial_llr,
)
from bench.strength_journal import PairJournal, run_identity
from bench.strength_report import GameResult, game_score, pair_margin, results_report
from bench.strength_tally import BID_KEYS, hand_record, tally_hand
from engine import Deal, GameState, Phase, RuleSet
from engine.actions import Action
from engine.bot import LEVELS, Bot

SIDES = (*LEVELS, *REFERENCES, "random")
Tweaks = tuple[tuple[str, ...], tuple[str, ...]]
_MODELS = {
    "games": "pentanomial GSPRT (pair scores 0, 1/4, 1/2, 3/4, 1; draws half)",
    "points": "trinomial GSPRT (pair won, drawn or lost on its two games' points)",
}
"""Per side, ``FIELD=VALUE`` overrides of its search config (``--set-a``, ``--set-b``)."""


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
    tweaks: Tweaks = ((), ()),
) -> GameResult:
    labels = side_labels(side_a, side_b, tweaks)
    sides = [side_a, side_b] if a_seat == 0 else [side_b, side_a]
    its = [iterations[0], iterations[1]] if a_seat == 0 else [iterations[1], iterations[0]]
    seat_tweaks = [tweaks[0], tweaks[1]] if a_seat == 0 else [tweaks[1], tweaks[0]]
    players: list[Bot | ReferencePlayer | random.Random] = []
    for seat, side in enumerate(sides):
        bot_seed = int.from_bytes(_seed(base, pair, 1000 + seat)[:8], "big")
        if side == "random":
            players.append(random.Random(bot_seed))
        elif side in REFERENCES:
            players.append(make_reference(side, seed=bot_seed, iterations=its[seat]))
        else:
            bot = Bot(side, seed=bot_seed, iterations=its[seat])
            if seat_tweaks[seat] and bot.config is not None:
                bot.config = replace(bot.config, **parse_tweaks(seat_tweaks[seat]))
            players.append(bot)
    sides = [labels[0], labels[1]] if a_seat == 0 else [labels[1], labels[0]]
    state = GameState(rules)
    times: dict[str, list[float]] = {}
    play_times: dict[str, list[float]] = {}
    cpu_times: dict[str, list[float]] = {}
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
        if isinstance(player, (Bot, ReferencePlayer)):
            legal = view.legal_actions()
            start = time.perf_counter()
            cpu_start = time.process_time()
            action = player.choose(view)
            elapsed = time.perf_counter() - start
            cpu = time.process_time() - cpu_start
            if len(legal) > 1:
                times.setdefault(sides[seat], []).append(elapsed)
                cpu_times.setdefault(sides[seat], []).append(cpu)
                if view.phase is Phase.PLAY:
                    play_times.setdefault(sides[seat], []).append(elapsed)
        else:
            action = player.choice(view.legal_actions())
        state.apply(seat, action)
    diffs = []
    bidding: dict[str, dict[str, int]] = {}
    records = [hand_record(result, (sides[0], sides[1])) for result in state.hand_results]
    for result in state.hand_results:
        points = result.points
        diffs.append(points[a_seat] - points[1 - a_seat])
        for seat in (0, 1):
            tally = bidding.setdefault(sides[seat], dict.fromkeys(BID_KEYS, 0))
            tally_hand(tally, result.bids[seat], result.blind_nil[seat], result, seat)
    scores = (state.scores[0], state.scores[1])
    winner = state.winner
    if capped and scores[0] != scores[1]:
        winner = 0 if scores[0] > scores[1] else 1
    return GameResult(
        pair, a_seat, winner, capped, diffs, scores, times, play_times, bidding, cpu_times, records
    )


Job = tuple[int, str, str, int, dict[str, object], tuple[int | None, int | None], int, Tweaks]


def parse_tweaks(items: tuple[str, ...]) -> dict[str, object]:
    """``("fog=0", "bid_spread=1.5")`` as :class:`engine.bot.search.SearchConfig` field
    values (``true``/``false``, ints, floats). Raises :class:`ValueError` for an item
    without ``=`` or a field the config does not have."""
    from engine.bot.search import SearchConfig

    fields = set(SearchConfig.__dataclass_fields__)
    values: dict[str, object] = {}
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or key not in fields:
            raise ValueError(f"not a FIELD=VALUE of SearchConfig: {item!r}")
        value: object
        if text.lower() in ("true", "false"):
            value = text.lower() == "true"
        else:
            try:
                value = int(text)
            except ValueError:
                value = float(text)
        values[key] = value
    return values


def side_labels(side_a: str, side_b: str, tweaks: Tweaks) -> tuple[str, str]:
    """The names the report uses for the two sides (a tweaked level shows its tweaks;
    two equal names get ``/a`` and ``/b``)."""
    label_a = side_a + (f"[{','.join(tweaks[0])}]" if tweaks[0] else "")
    label_b = side_b + (f"[{','.join(tweaks[1])}]" if tweaks[1] else "")
    if label_a == label_b:
        return label_a + "/a", label_b + "/b"
    return label_a, label_b


def _run_pair(job: Job) -> list[GameResult]:
    pair, side_a, side_b, base, rule_dict, iterations, max_hands, tweaks = job
    rules = RuleSet.from_dict(dict(rule_dict))
    return [
        play_game(pair, a_seat, side_a, side_b, base, rules, iterations, max_hands, tweaks)
        for a_seat in (0, 1)
    ]


def play_pairs(
    jobs: Iterator[Job],
    workers: int,
    deadline: float | None,
    stop_file: Path | None,
    take: Callable[[list[GameResult]], bool],
) -> str:
    """Play ``jobs`` in seed order, each finished pair handed to ``take`` in that order
    until it returns true (the test decided). Returns why play stopped: ``"sprt"``,
    ``"pairs"`` (no job left), ``"wall"`` (``deadline``, a ``time.perf_counter`` value,
    passed: the pairs still playing are dropped) or ``"stop_file"`` (``stop_file`` exists:
    no pair is started after it appears, and those already started finish and count).
    Raises what a pair raises."""

    def stop_asked() -> bool:
        return stop_file is not None and stop_file.exists()

    if workers <= 1 and deadline is None:
        for job in jobs:
            if stop_asked():
                return "stop_file"
            if take(_run_pair(job)):
                return "sprt"
        return "pairs"
    # a pool even for one worker, so that the wall-clock cap can interrupt a pair; pairs
    # are started one per free worker (no more), so a stop file leaves none queued
    pool = multiprocessing.Pool(max(1, workers))
    playing: deque[AsyncResult[list[GameResult]]] = deque()
    try:
        while True:
            while not stop_asked() and sum(not p.ready() for p in playing) < max(1, workers):
                upcoming = next(jobs, None)
                if upcoming is None:
                    break
                playing.append(pool.apply_async(_run_pair, (upcoming,)))
            if not playing:
                return "stop_file" if stop_asked() else "pairs"
            wait = 1.0 if deadline is None else min(1.0, max(0.0, deadline - time.perf_counter()))
            try:
                games = playing[0].get(wait)  # the next pair in seed order
            except multiprocessing.TimeoutError:
                if deadline is not None and time.perf_counter() >= deadline:
                    return "wall"
                continue
            playing.popleft()
            if take(games):
                return "sprt"
    finally:
        pool.terminate()
        pool.join()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default="hard", choices=SIDES)
    parser.add_argument("--b", default="easy", choices=SIDES)
    parser.add_argument("--pairs", type=int, default=500, help="pairs (SPRT: the cap on pairs)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--target", type=int, default=None, help="override target_score")
    parser.add_argument("--seed", type=int, default=1, help="base of the shuffle seeds")
    parser.add_argument("--iterations", type=int, default=None, help="override both levels")
    parser.add_argument("--iterations-a", type=int, default=None)
    parser.add_argument("--iterations-b", type=int, default=None)
    parser.add_argument("--max-hands", type=int, default=60, help="hand cap per game")
    for side in ("a", "b"):  # a lever measured alone: A's (or B's) search config changed
        # "extend": a repeated flag adds its fields (it used to keep only the last one)
        parser.add_argument(
            f"--set-{side}", nargs="*", action="extend", default=[], metavar="FIELD=VALUE"
        )
    parser.add_argument(
        "--sprt",
        type=float,
        nargs=2,
        metavar=("P0", "P1"),
        default=None,
        help="sequential test of H0: A's win rate P0 against H1: P1",
    )
    parser.add_argument(
        "--pair-score",
        choices=("games", "points"),
        default="games",
        help="the SPRT's unit: games won in the pair (pentanomial) or the pair won on "
        "points (trinomial, duplicate scoring)",
    )
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument(
        "--max-wall", type=float, default=None, help="wall-clock cap in seconds (SPRT mode)"
    )
    parser.add_argument(
        "--stop-file",
        default=None,
        help="once this file exists, start no new pair; the pairs playing finish and count",
    )
    parser.add_argument("--log", default=None, help="append each hand as a JSON line here")
    parser.add_argument(
        "--journal", default=None, help="keep each pair here and resume from the pairs it holds"
    )
    args = parser.parse_args(argv)

    overrides: dict[str, object] = {}
    if args.target is not None:
        overrides["target_score"] = args.target
    rules = RuleSet.preset(args.preset, **overrides)
    iterations = (
        args.iterations_a if args.iterations_a is not None else args.iterations,
        args.iterations_b if args.iterations_b is not None else args.iterations,
    )
    tweaks = (tuple(args.set_a), tuple(args.set_b))
    for items in tweaks:
        parse_tweaks(items)  # fail early on a bad field
    journal: PairJournal | None = None
    resumed: list[list[GameResult]] = []
    if args.journal is not None:  # a run that goes on where an earlier sitting stopped
        identity = run_identity(
            args.a, args.b, tweaks, iterations, rules.to_dict(), args.seed, args.max_hands
        )
        journal = PairJournal(Path(args.journal), identity)
        resumed = [
            [GameResult(**{**game, "scores": tuple(game["scores"])}) for game in pair]
            for pair in journal.load()[: args.pairs]
        ]
    jobs = (
        (pair, args.a, args.b, args.seed, rules.to_dict(), iterations, args.max_hands, tweaks)
        for pair in range(len(resumed), args.pairs)
    )
    sprt: dict[str, object] | None = None
    bounds = sprt_bounds(args.alpha, args.beta)
    pair_results: list[float] = []
    points_results: list[float] = []
    verdict = "continue"
    llr = llr_games = llr_points = 0.0

    def decided(games: list[GameResult], played_now: bool = True) -> bool:
        nonlocal verdict, llr, llr_games, llr_points
        if played_now and journal is not None:
            journal.append(games)
        if played_now and args.log is not None:  # each hand of the pair as played, for study
            with open(args.log, "a", encoding="utf-8") as log:
                for game in games:
                    for index, record in enumerate(game.hands):
                        line = {"pair": game.pair, "a_seat": game.a_seat, "hand": index}
                        log.write(json.dumps({**line, **record}) + "\n")
        progress = [[g.a_seat, g.winner, list(g.scores)] for g in games]
        print(json.dumps({"pair": games[0].pair, "games": progress}), file=sys.stderr, flush=True)
        if args.sprt is None:
            return False
        pair_results.append(pair_score(*(game_score(g) for g in games)))
        points_results.append(points_pair_score(pair_margin(games), 0))
        llr_games = pentanomial_llr(pentanomial_counts(pair_results), *args.sprt)
        llr_points = trinomial_llr(trinomial_counts(points_results), *args.sprt)
        llr = llr_points if args.pair_score == "points" else llr_games
        verdict = sprt_verdict(llr, bounds)
        return verdict != "continue"

    started = time.perf_counter()
    deadline = started + args.max_wall if args.max_wall is not None else None
    results: list[GameResult] = []
    stopped_by = "pairs"
    for games in resumed:  # the journal's pairs count as if they had just been played
        results.extend(games)
        if decided(games, played_now=False):
            stopped_by = "sprt"
            break
    if stopped_by != "sprt":

        def take(games: list[GameResult]) -> bool:
            results.extend(games)
            return decided(games)

        stop_file = Path(args.stop_file) if args.stop_file is not None else None
        stopped_by = play_pairs(jobs, args.workers, deadline, stop_file, take)
    wall = time.perf_counter() - started
    if args.sprt is not None:
        counts = pentanomial_counts(pair_results)
        sprt = {
            "p0": args.sprt[0],
            "p1": args.sprt[1],
            "alpha": args.alpha,
            "beta": args.beta,
            "model": _MODELS[args.pair_score],
            "unit": args.pair_score,
            "verdict": verdict if verdict != "continue" else "undecided",
            "llr": round(llr, 3),
            "bounds": [round(bounds[0], 3), round(bounds[1], 3)],
            "llr_games": round(llr_games, 3),
            "llr_points": round(llr_points, 3),
            "pentanomial": counts,
            "trinomial": trinomial_counts(points_results),
            "pairs_played": len(pair_results),
            "stopped_by": stopped_by,
        }

    if not results:
        print(json.dumps({"a": args.a, "b": args.b, "pairs": 0, "sprt": sprt}))
        return
    report = {
        "a": args.a,
        "b": args.b,
        "set_a": args.set_a,
        "set_b": args.set_b,
        "preset": args.preset,
        "target_score": rules.target_score,
        "iterations": list(iterations),
        "mode": "sprt" if args.sprt is not None else "fixed",
        "sprt": sprt,
        **results_report(results),
        "resumed_pairs": len(resumed),
        "workers": args.workers,
        "wall_s": round(wall, 1),
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
