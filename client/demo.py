"""``spades demo``: two bots play one game, each hand printed in the player's language.

    run_demo("classic", "easy", seed=3)   # prints "hand 1: bids 4 / 3, ..."; returns 0

Raises nothing of its own (an unknown preset or level is the parser's to refuse).
"""

from __future__ import annotations

import random
import secrets

from client.i18n import _
from engine import Deal, GameState, RuleSet
from engine.bot import Bot

__all__ = ["run_demo"]


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
                _("blind nil") if b else (_("nil") if x == 0 else str(x))
                for x, b in zip(result.bids, result.blind_nil, strict=True)
            ]
            line = _(
                "hand {hand}: bids {bid0} / {bid1}, tricks {tricks0} / {tricks1}, "
                "points {points0} / {points1}, scores {score0} / {score1}"
            )
            print(
                line.format(
                    hand=result.hand_number,
                    bid0=bids[0],
                    bid1=bids[1],
                    tricks0=result.tricks[0],
                    tricks1=result.tricks[1],
                    points0=f"{result.points[0]:+d}",
                    points1=f"{result.points[1]:+d}",
                    score0=result.scores[0],
                    score1=result.scores[1],
                )
            )
            printed += 1
        if len(state.hand_results) > 200:
            print(_("no winner after 200 hands; stopping"))
            return 1
    print(
        _("seat {seat} wins {score} to {other}").format(
            seat=state.winner, score=state.scores[0], other=state.scores[1]
        )
    )
    return 0
