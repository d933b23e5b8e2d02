"""The ``spades`` command.

``spades`` with no arguments plays a game against the bot on this machine; the
subcommands are listed by ``spades --help``.
"""

from __future__ import annotations

import argparse
import random
import secrets
import sys
from collections.abc import Sequence

import engine
from engine import Deal, GameState, RuleSet
from engine.bot import LEVELS, Bot

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="spades",
        description="Two-handed Spades over the network. With no command: play the bot.",
    )
    parser.add_argument("--version", action="version", version=f"spades {engine.__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    demo = commands.add_parser("demo", help="watch two bots play a game in the terminal")
    demo.add_argument("--rules", default="classic", choices=sorted(engine.PRESETS))
    demo.add_argument("--level", default="easy", choices=LEVELS)
    demo.add_argument("--seed", type=int, default=None, help="make the game reproducible")
    return parser


def run_demo(rules_name: str, level: str, seed: int | None) -> int:
    """Two bots play one game; print each hand's bids, tricks and scores."""
    rng = random.Random(seed)
    state = GameState(RuleSet.preset(rules_name))
    bots = (Bot(level, seed=rng.randrange(2**32)), Bot(level, seed=rng.randrange(2**32)))
    printed = 0
    while not state.is_over:
        seat = state.current_player
        if seat is None:
            seed_bytes = rng.randbytes(32) if seed is not None else secrets.token_bytes(32)
            state.apply(None, Deal(seed_bytes))
            continue
        state.apply(seat, bots[seat].choose(state.view_for(seat)))
        for result in state.hand_results[printed:]:
            bids = [
                "blind nil" if b else ("nil" if x == 0 else str(x))
                for x, b in zip(result.bids, result.blind_nil, strict=True)
            ]
            print(
                f"hand {result.hand_number}: bids {bids[0]} / {bids[1]}, "
                f"tricks {result.tricks[0]} / {result.tricks[1]}, "
                f"points {result.points[0]:+d} / {result.points[1]:+d}, "
                f"scores {result.scores[0]} / {result.scores[1]}"
            )
            printed += 1
        if len(state.hand_results) > 200:
            print("no winner after 200 hands; stopping")
            return 1
    print(f"seat {state.winner} wins {state.scores[0]} to {state.scores[1]}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command in (None, "demo"):
        return run_demo(
            getattr(args, "rules", "classic"),
            getattr(args, "level", "easy"),
            getattr(args, "seed", None),
        )
    return 2


if __name__ == "__main__":
    sys.exit(main())
