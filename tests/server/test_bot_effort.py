"""``spades serve --bot-effort``: a host on a slower core spends a share of each level's
search effort, so the bots keep their decision times (docs/hosting.md)."""

from __future__ import annotations

import asyncio
import math

import pytest

from engine import Deal, GameState, Phase, PlayerView, RuleSet
from engine.bot import LEVEL_CONFIGS, Bot
from server.bots import BotRunner, choose, effort_iterations
from tests.server.helpers import serve_config


def _first_card_view() -> PlayerView:
    """The view of the seat to lead the first trick of a fixed classic deal."""
    state = GameState(RuleSet.preset("classic"))
    state.apply(None, Deal(b"effort".ljust(32, b"\0")))
    bots = [Bot("easy", seed=1), Bot("easy", seed=2)]
    while state.phase is not Phase.PLAY:
        seat = state.current_player
        assert seat is not None
        state.apply(seat, bots[seat].choose(state.view_for(seat)))
    seat = state.current_player
    assert seat is not None
    return state.view_for(seat)


def test_an_effort_scales_each_searching_levels_playouts_and_its_tree() -> None:
    hard = LEVEL_CONFIGS["hard"]
    half = effort_iterations("hard", 0.5)
    assert half == round(hard.playouts * 0.5)
    config = Bot("hard", iterations=half).config
    assert config is not None and config.playouts == half
    assert config.tree_iterations == round(hard.tree_iterations * 0.5)
    assert config.bid_samples == round(hard.bid_samples * 0.5)
    assert effort_iterations("normal", 0.25) == round(LEVEL_CONFIGS["normal"].playouts * 0.25)
    assert effort_iterations("hard", 1.0) is None  # the level's own effort, unscaled
    assert effort_iterations("easy", 0.5) is None  # easy does not search
    assert effort_iterations("hard", 1e-9) == 1  # never below one playout


@pytest.mark.parametrize("effort", [0.0, -0.5, math.nan])
def test_an_effort_not_above_zero_is_refused_everywhere(effort: float) -> None:
    with pytest.raises(ValueError, match="bot effort must be above 0"):
        effort_iterations("hard", effort)
    with pytest.raises(ValueError, match="bot effort must be above 0"):
        BotRunner(0, effort=effort)
    with pytest.raises(SystemExit, match="--bot-effort must be above 0"):
        serve_config("--bot-effort", str(effort))


def test_the_flag_reaches_the_config_and_defaults_to_the_whole_effort() -> None:
    assert serve_config().bot_effort == 1.0
    assert serve_config("--bot-effort", "0.5").bot_effort == 0.5


def test_the_runner_decides_at_its_effort() -> None:
    view = _first_card_view()
    low = effort_iterations("normal", 0.02)
    assert low is not None and low < LEVEL_CONFIGS["normal"].playouts
    expected = Bot("normal", seed=9, iterations=low).choose(view)
    assert choose(view, "normal", 9, low) == expected
    runner = BotRunner(0, effort=0.02)
    try:
        assert asyncio.run(runner.decide(view, "normal", 9)) == expected
    finally:
        runner.close()
    # an explicit iteration count (the config's bot_iterations) wins over the effort
    fixed = Bot("normal", seed=9, iterations=7).choose(view)
    assert choose(view, "normal", 9, 7) == fixed
    runner = BotRunner(0, iterations=7, effort=0.02)
    try:
        assert asyncio.run(runner.decide(view, "normal", 9)) == fixed
    finally:
        runner.close()
