"""The score bounds behind the rule-set check hold for every hand the engine can score."""

from __future__ import annotations

import itertools

import pytest

from engine import RuleSet
from engine.game import score_seat
from server.rulebounds import (
    MAX_HAND_LOSS_WITHOUT_LOSE_SCORE,
    SCORE_LIMIT,
    ScoreRangeError,
    check_score_range,
    hand_gain_bound,
    hand_loss_bound,
)

RULE_SETS = [
    RuleSet.preset("classic"),
    RuleSet.preset("five-hundred"),
    RuleSet.preset("classic", bag_limit=1, bag_penalty=10_000, lose_score=-100),
    RuleSet.preset("classic", bag_limit=3, bag_penalty=150, blind_nil=True),
    RuleSet.preset(
        "classic", nil_bonus=900, failed_nil_tricks_are_bags=True, bag_limit=2, bag_penalty=10
    ),
    RuleSet.preset("classic", nil=False, bag_limit=13, bag_penalty=7),
]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_no_hand_scores_outside_the_per_hand_bounds(rules: RuleSet) -> None:
    gain, loss = hand_gain_bound(rules), hand_loss_bound(rules)
    worst_loss = best_gain = 0
    bids: list[tuple[int | None, bool]] = [(bid, False) for bid in range(0 if rules.nil else 1, 14)]
    if rules.blind_nil:
        bids.append((None, True))
    for (bid, blind), tricks, bags in itertools.product(bids, range(14), range(rules.bag_limit)):
        points = score_seat(rules, bid, blind, tricks, bags)[0]
        worst_loss, best_gain = min(worst_loss, points), max(best_gain, points)
    assert -loss <= worst_loss and best_gain <= gain


def test_the_presets_and_bounded_rule_sets_pass() -> None:
    for rules in RULE_SETS:
        check_score_range(rules)


@pytest.mark.parametrize(
    "overrides",
    [
        {"bag_limit": 1, "bag_penalty": 10_000, "nil_bonus": 10_000, "target_score": 100_000},
        {"bag_limit": 1, "bag_penalty": 100},  # 13 penalties a hand: 1430 > 1000
        {"nil_bonus": 5_000},
    ],
)
def test_unbounded_losses_without_lose_score_are_refused(
    overrides: dict[str, int],
) -> None:
    rules = RuleSet.preset("classic", **overrides)
    assert hand_loss_bound(rules) > MAX_HAND_LOSS_WITHOUT_LOSE_SCORE
    with pytest.raises(ScoreRangeError, match="lose_score"):
        check_score_range(rules)


def test_with_a_lose_score_every_reachable_score_fits() -> None:
    rules = RuleSet.preset(
        "classic",
        bag_limit=1,
        bag_penalty=10_000,
        nil_bonus=10_000,
        lose_score=-100_000,
        target_score=100_000,
    )
    check_score_range(rules)
    assert rules.lose_score is not None
    assert rules.lose_score + 1 - hand_loss_bound(rules) >= -SCORE_LIMIT
