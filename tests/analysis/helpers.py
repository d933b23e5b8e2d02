"""Helpers for the analysis tests: games between easy bots, with a seat's choices forced."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from engine import Action, Commit, Deal, GameState, PlayerView, RuleSet, Shuffle, game_record
from engine.bot import Bot

CLASSIC = RuleSet.preset("classic")
FIVE_HUNDRED = RuleSet.preset("five-hundred")

Override = Callable[[GameState, int, PlayerView, Action], Action]
Stop = Callable[[GameState], bool]


def seed_of(*parts: object) -> bytes:
    return hashlib.sha256("/".join(map(str, ("analysis-test", *parts))).encode()).digest()


def play(
    rules: RuleSet,
    name: object,
    *,
    override: Override | None = None,
    stop: Stop | None = None,
    max_actions: int = 3000,
    two_step: bool = False,
) -> GameState:
    """A game between two easy bots, seeded by ``name``.

    ``override(state, seat, view, action)`` may replace a bot's action; ``stop(state)``
    ends the game early (checked before each action). ``two_step`` deals each hand with
    a Commit and a Shuffle (seat entropy mixed in) instead of one Deal.
    """
    state = GameState(rules)
    bots = (Bot("easy", seed=1), Bot("easy", seed=2))
    deals = 0
    for _ in range(max_actions):
        if state.is_over or (stop is not None and stop(state)):
            break
        seat = state.current_player
        if seat is None:
            if not two_step:
                state.apply(None, Deal(seed_of(name, deals)))
            elif state.awaiting_shuffle:
                state.apply(None, Shuffle((seed_of(name, deals, 0), seed_of(name, deals, 1))))
            else:
                state.apply(None, Commit(seed_of(name, deals)))
                continue
            deals += 1
            continue
        view = state.view_for(seat)
        action = bots[seat].choose(view)
        if override is not None:
            action = override(state, seat, view, action)
        state.apply(seat, action)
    return state


def record_of(state: GameState) -> dict[str, Any]:
    return game_record(state)
