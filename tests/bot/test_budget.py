"""The exact solver's node budget: counted in nodes (never timed), reproducible."""

import random
from dataclasses import replace

import pytest

from engine.bot import LEVEL_CONFIGS
from engine.bot.knowledge import read_knowledge
from engine.bot.search import search_play
from engine.fast import solve, solve_bounded
from tests.bot.helpers import play_view
from tests.bot.test_fast import deal


def test_a_budget_never_reached_gives_the_exact_value() -> None:
    rng = random.Random(5)
    for _ in range(40):
        size = rng.randint(1, 5)
        h0, h1 = deal(rng, size)
        util = [rng.uniform(-1.0, 1.0) for _ in range(14)]
        won0 = rng.randint(0, 13 - size)
        exact = solve(h0, h1, 0, -1, True, won0, util)
        value, nodes = solve_bounded(h0, h1, 0, -1, True, won0, util, 10**9)
        assert value == exact
        assert 1 <= nodes < 10**9


def test_the_budget_holds_and_the_result_is_reproducible() -> None:
    rng = random.Random(8)
    util = [float(t >= 6) - 0.01 * max(0, t - 6) for t in range(14)]  # bid 6, bags hurt
    for _ in range(10):
        h0, h1 = deal(rng, 9)
        _, unbounded_nodes = solve_bounded(h0, h1, 0, -1, False, 0, util, 10**9)
        budget = max(1, unbounded_nodes // 10)
        value, nodes = solve_bounded(h0, h1, 0, -1, False, 0, util, budget)
        assert nodes == budget  # the search wanted more, and stopped at the budget
        assert min(util) <= value <= max(util)
        assert solve_bounded(h0, h1, 0, -1, False, 0, util, budget) == (value, nodes)


def test_a_card_decision_stays_within_its_node_budget() -> None:
    # ten cards left, hard's exact rollout tails in flat sampling (the tree solves
    # nothing exactly): many solves share one budget
    past = [(0, "AC", "2C"), (1, "KD", "3D"), (0, "QH", "4H")]
    view = play_view("4C 7C 9C JD 9D 5H 8H 3S 9S QS", past=past, bids=(4, 5), pile_seen="5C 6D 7H")
    know = read_knowledge(view)
    flat = replace(LEVEL_CONFIGS["hard"], tree_iterations=0)
    base = replace(flat.scaled(600), node_budget=None)
    free = [0]
    search_play(view, know, random.Random(3), base, free)
    budget = free[0] // 4
    assert budget > 1000
    bounded_config = replace(base, node_budget=budget)
    spent = [0]
    card = search_play(view, know, random.Random(3), bounded_config, spent)
    assert 0 < spent[0] <= budget
    again = [0]
    assert search_play(view, know, random.Random(3), bounded_config, again) == card
    assert again == spent
    assert card in view.hand


def test_levels_have_a_node_budget() -> None:
    for config in LEVEL_CONFIGS.values():
        assert config.node_budget is not None
        assert config.scaled(100).node_budget is not None


def test_the_bid_spread_kernel() -> None:
    from engine.bot.search import play_noise

    assert play_noise(0.0) == ((0, 1.0),)
    kernel = play_noise(1.0, -0.25)
    assert sum(weight for _, weight in kernel) == pytest.approx(1.0)
    mean = sum(offset * weight for offset, weight in kernel)
    assert -0.3 < mean < -0.2  # centred near the shift (the tails are cut at 3 tricks)
    assert dict(kernel)[0] > dict(kernel)[1] > dict(kernel)[2]


def test_scaling_a_level_keeps_its_fog_and_draft_search() -> None:
    hard = LEVEL_CONFIGS["hard"]
    assert hard.fog and hard.draft_samples == 160
    small = hard.scaled(600)
    assert small.fog
    # fewer draft samples at a tenth of the effort, never more than the level's own
    assert 8 <= small.draft_samples == 16 < hard.draft_samples
    assert hard.scaled(60_000).draft_samples == hard.draft_samples
    assert LEVEL_CONFIGS["normal"].scaled(600).draft_samples == 0


def test_a_wide_bid_spread_reaches_three_deviations() -> None:
    from engine.bot.search import play_noise

    offsets = [offset for offset, _ in play_noise(1.5)]
    assert offsets[0] == -5 and offsets[-1] == 5
    assert [offset for offset, _ in play_noise(0.5)] == list(range(-3, 4))
