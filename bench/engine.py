"""Engine benchmark: random hands and games through the public API, and fast-path playouts.

    python3 bench/engine.py [--seconds 4]

Measured on one core (the process pins itself to one CPU where it can):

- ``hands_per_s``: complete random hands through the public API, per preset. Each hand is
  a new :class:`engine.GameState`, a ``Deal`` with a fresh 32-byte seed, then uniformly
  random choices from ``legal_actions`` applied with ``apply`` until the hand is scored
  (blind-nil declarations, the draft, exchanges, bids and all 26 cards).
- ``us_per_apply``: the mean time inside ``GameState.apply`` over those hands, and
  ``us_per_action``: the mean time per action including ``legal_actions`` and the choice.
- ``games_per_s``: complete random games through the public API, per preset, with
  ``target_score=100`` and ``lose_score=-100`` (random bids mostly fail, so the full
  targets of 300 and 500 are rarely reached; the lose score ends those games).
- ``playouts_per_s``: :func:`engine.fast.random_playout` from the first trick, on hands
  dealt from :func:`engine.shuffle.shuffled_deck` (13 cards each, random leader).

Targets on one core: 1,000 complete hands per second through the public API (each preset)
and 20,000 play-phase playouts per second on the fast path. The last line printed is one
JSON object with every number.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any

# Run as a script, this file's folder comes first on sys.path and its name would shadow the
# engine package: put the repository root first and drop the bench folder.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from engine import Deal, GameState, RuleSet  # noqa: E402
from engine.fast import random_playout  # noqa: E402
from engine.shuffle import shuffled_deck  # noqa: E402

HANDS_TARGET = 1_000
PLAYOUTS_TARGET = 20_000
GAME_RULES = {"target_score": 100, "lose_score": -100}


def pin_one_core() -> str:
    """Pin this process to one CPU if the OS allows it; say which."""
    try:
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[-1]})
        return f"cpu {cpus[-1]}"
    except (AttributeError, OSError):
        return "unpinned"


def random_hand(rules: RuleSet, rng: random.Random) -> tuple[int, float]:
    """Play one complete random hand; return (actions applied, seconds inside apply)."""
    clock = time.perf_counter
    state = GameState(rules)
    start = clock()
    state.apply(None, Deal(rng.randbytes(32)))
    in_apply = clock() - start
    applied = 1
    choice = rng.choice
    while not state.is_chance_node:
        seat = state.current_player
        action = choice(state.legal_actions(seat))
        start = clock()
        state.apply(seat, action)
        in_apply += clock() - start
        applied += 1
    return applied, in_apply


def bench_hands(preset: str, seconds: float, seed: int) -> dict[str, float]:
    rules = RuleSet.preset(preset)
    rng = random.Random(seed)
    for _ in range(20):  # warm up
        random_hand(rules, rng)
    hands = actions = 0
    in_apply = 0.0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        applied, inside = random_hand(rules, rng)
        hands += 1
        actions += applied
        in_apply += inside
        if hands % 50 == 0 and time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {
        "hands_per_s": round(hands / elapsed, 1),
        "us_per_apply": round(in_apply / actions * 1e6, 2),
        "us_per_action": round(elapsed / actions * 1e6, 2),
        "actions_per_hand": round(actions / hands, 2),
        "hands": hands,
    }


def random_game(rules: RuleSet, rng: random.Random) -> int:
    """Play one complete random game; return its number of hands."""
    state = GameState(rules)
    choice = rng.choice
    while not state.is_over:
        seat = state.current_player
        if seat is None:
            state.apply(None, Deal(rng.randbytes(32)))
        else:
            state.apply(seat, choice(state.legal_actions(seat)))
    return len(state.hand_results)


def bench_games(preset: str, seconds: float, seed: int) -> dict[str, float]:
    rules = RuleSet.preset(preset, **GAME_RULES)
    rng = random.Random(seed)
    games = hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline or games < 5:
        hands += random_game(rules, rng)
        games += 1
    elapsed = time.perf_counter() - start
    return {
        "games_per_s": round(games / elapsed, 1),
        "hands_per_game": round(hands / games, 2),
        "games": games,
    }


def bench_playouts(seconds: float, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    deals = []
    for _ in range(500):
        deck = shuffled_deck(rng.randbytes(32))
        hand0 = hand1 = 0
        for card in deck[:13]:
            hand0 |= 1 << card
        for card in deck[13:26]:
            hand1 |= 1 << card
        deals.append((hand0, hand1, rng.randrange(2)))
    for hand0, hand1, leader in deals[:50]:  # warm up
        random_playout([hand0, hand1], leader, -1, False, [0, 0], rng)
    playouts = 0
    tricks = 0
    in_playout = 0.0
    clock = time.perf_counter
    deadline = clock() + seconds
    while clock() < deadline:
        start = clock()
        for hand0, hand1, leader in deals:
            won = random_playout([hand0, hand1], leader, -1, False, [0, 0], rng)
            tricks += won[0] + won[1]
        in_playout += clock() - start
        playouts += len(deals)
    assert tricks == 13 * playouts
    return {"playouts_per_s": round(playouts / in_playout, 1), "playouts": playouts}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="time per measurement")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args()
    core = pin_one_core()

    result: dict[str, Any] = {
        "bench": "engine",
        "python": platform.python_version(),
        "core": core,
        "seconds_per_measurement": args.seconds,
    }
    for preset in ("classic", "five-hundred"):
        hands = bench_hands(preset, args.seconds, args.seed)
        print(f"{preset}: hands {hands}", flush=True)
        games = bench_games(preset, args.seconds, args.seed)
        print(f"{preset}: games {games}", flush=True)
        result[preset] = {**hands, **games}
    playouts = bench_playouts(args.seconds, args.seed)
    print(f"fast path: {playouts}", flush=True)
    result["fast_random_playout"] = playouts
    result["games_rules"] = GAME_RULES
    worst_hands = min(result[p]["hands_per_s"] for p in ("classic", "five-hundred"))
    result["targets"] = {
        "hands_per_s": HANDS_TARGET,
        "playouts_per_s": PLAYOUTS_TARGET,
        "hands_ok": worst_hands >= HANDS_TARGET,
        "playouts_ok": playouts["playouts_per_s"] >= PLAYOUTS_TARGET,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
