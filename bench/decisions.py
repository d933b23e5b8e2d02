"""Bot decision time as the server runs it: worker processes beside an event loop.

    python3 bench/decisions.py --levels normal hard --deals 4 --workers 2
    python3 bench/decisions.py --levels hard ismcts pimc --deals 2 --workers 1

A level may also be a reference opponent of ``bench/reference`` (``ismcts``, ``pimc``),
timed the same way in the same workers.

Positions are fixed by the seed: ``--deals`` hands (classic preset unless ``--preset``)
are played between two ``normal`` bots at a small effort, and every bid and card decision
with more than one legal action is kept (both seats). Each level then decides every
position at its full effort, the way the server does it (``server/bots.py``): a
``ProcessPoolExecutor`` of ``--workers`` spawned processes at nice 10, fed through
``loop.run_in_executor`` from an asyncio event loop, ``--workers`` decisions in flight at
once (one per worker, as a server with that many bot games does). Per decision it records
the wall time the event loop waited and the CPU time the worker spent
(``time.process_time``: what the decision costs on a core of its own; the wall time also
holds the waits of a busy machine). The last line printed is one JSON object: per level
and per phase (bid, play) the count, p50, p95 and max of both. The same seed gives the
same positions and, since a decision is a function of its view and seed, the same
actions (``actions_digest``). ``--effort F`` decides at that share of each level's search
effort, as ``spades serve --bot-effort F`` does.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import hashlib
import json
import math
import multiprocessing
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.reference import REFERENCES, make_reference
from engine import Deal, GameState, Phase, PlayerView, RuleSet
from engine.actions import Action
from engine.bot import Bot
from server.bots import choose, effort_iterations, lower_priority


def _seed(base: int, deal: int) -> bytes:
    return hashlib.sha256(f"decisions/{base}/{deal}".encode()).digest()


def positions(rules: RuleSet, deals: int, base: int) -> list[PlayerView]:
    """Every decision with a choice in ``deals`` hands between two small-effort bots."""
    views: list[PlayerView] = []
    for deal in range(deals):
        state = GameState(rules)
        bots = [Bot("normal", seed=base * 100 + deal, iterations=300) for _ in range(2)]
        state.apply(None, Deal(_seed(base, deal)))
        while not state.hand_results:
            seat = state.current_player
            assert seat is not None
            view = state.view_for(seat)
            if view.phase in (Phase.BIDDING, Phase.PLAY) and len(view.legal_actions()) > 1:
                views.append(view)
            state.apply(seat, bots[seat].choose(view))
    return views


def timed_choose(
    view: PlayerView, level: str, seed: int, effort: float = 1.0
) -> tuple[Action, float]:
    """Run in a worker: the server's :func:`server.bots.choose` (at ``effort``, as
    ``spades serve --bot-effort`` sets it) and its CPU time (for a reference opponent of
    ``bench/reference``, its own ``choose``: the server does not serve them)."""
    start = time.process_time()
    if level in REFERENCES:
        action = make_reference(level, seed=seed).choose(view)
    else:
        action = choose(view, level, seed, effort_iterations(level, effort))
    return action, time.process_time() - start


def _percentile(values: list[float], fraction: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))
    return round(ordered[index], 4)


def _figures(values: list[float]) -> dict[str, object]:
    return {
        "n": len(values),
        "p50": _percentile(values, 0.5),
        "p95": _percentile(values, 0.95),
        "max": round(max(values), 4) if values else None,
    }


async def measure(
    views: list[PlayerView], level: str, workers: int, base: int, effort: float = 1.0
) -> dict[str, object]:
    loop = asyncio.get_running_loop()
    executor = concurrent.futures.ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=lower_priority,
    )
    wall: dict[str, list[float]] = {"bid": [], "play": []}
    cpu: dict[str, list[float]] = {"bid": [], "play": []}
    digest = hashlib.sha256()
    try:
        # start every worker (and its imports) before the clock runs
        await asyncio.gather(
            *(loop.run_in_executor(executor, time.process_time) for _ in range(workers))
        )
        queue = list(enumerate(views))
        results: dict[int, Action] = {}

        async def worker() -> None:
            while queue:
                index, view = queue.pop(0)
                phase = "bid" if view.phase is Phase.BIDDING else "play"
                start = time.perf_counter()
                action, spent = await loop.run_in_executor(
                    executor, timed_choose, view, level, base * 1000 + index, effort
                )
                wall[phase].append(time.perf_counter() - start)
                cpu[phase].append(spent)
                results[index] = action

        await asyncio.gather(*(worker() for _ in range(workers)))
        for index in sorted(results):
            digest.update(repr(results[index]).encode())
    finally:
        executor.shutdown(wait=True)
    every_cpu = cpu["bid"] + cpu["play"]
    every_wall = wall["bid"] + wall["play"]
    return {
        "cpu_s": _figures(every_cpu),
        "wall_s": _figures(every_wall),
        "bid_cpu_s": _figures(cpu["bid"]),
        "play_cpu_s": _figures(cpu["play"]),
        "over_3s": sum(1 for value in every_cpu if value > 3.0),
        "actions_digest": digest.hexdigest()[:16],
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", nargs="+", default=["normal", "hard"])
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--effort", type=float, default=1.0, help="share of each level's effort (--bot-effort)"
    )
    args = parser.parse_args(argv)
    rules = RuleSet.preset(args.preset)
    started = time.perf_counter()
    views = positions(rules, args.deals, args.seed)
    report: dict[str, object] = {
        "preset": args.preset,
        "deals": args.deals,
        "positions": len(views),
        "workers": args.workers,
        "effort": args.effort,
    }
    for level in args.levels:
        report[level] = asyncio.run(measure(views, level, args.workers, args.seed, args.effort))
    report["wall_total_s"] = round(time.perf_counter() - started, 1)
    print(json.dumps(report))


if __name__ == "__main__":
    main()
