"""What a hand's outcome is worth to the bot: score-aware utilities.

The bot does not maximise tricks but its chance of winning the game. A hand's outcome
(its final trick counts, given both bids) moves both scores and bag counts; the worth of
the resulting position is an estimated probability of winning the game, plus a small
share of the score difference (so it still prefers more points when the game is decided).

- The game ends after this hand if a seat reaches the target (or the lose score): then the
  worth is 1 for a win and 0 for a loss.
- Otherwise it is ``Phi(d / (sigma * sqrt(n)))`` where ``d`` is the score difference with
  every bag counted at part of its future penalty and ``n`` an estimate of the hands left.

:func:`utility_table` gives the worth for each possible number of tricks the bot takes;
:func:`modes_table` gives the greedy rollout policy's moods for each trick score.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.game import score_seat
from engine.rules import RuleSet

__all__ = [
    "HAND_POINTS",
    "game_worth",
    "hand_points",
    "modes_table",
    "utility_table",
]

HAND_POINTS = 55.0
"""Rough points a seat gains in a typical hand (how fast games move to the target)."""
_SIGMA = 75.0
"""Rough spread of one hand's score difference."""
_BAG_SHARE = 0.5
"""The part of a bag's future penalty charged now."""
_TIE_BREAK = 1e-4


def _normal_cdf(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def game_worth(
    rules: RuleSet,
    scores: tuple[int, int],
    bags: tuple[int, int],
    me: int,
    tie_break: bool = True,
    bag_share: float = _BAG_SHARE,
) -> float:
    """The worth to seat ``me`` of the position after a hand: about its chance to win.

    With ``tie_break`` a small share of the (bag-adjusted) score difference is added;
    ``bag_share`` is the part of a bag's future penalty charged now.
    """
    mine, theirs = scores[me], scores[1 - me]
    diff = mine - theirs
    bag_cost = bag_share * rules.bag_penalty / rules.bag_limit
    adjusted = diff - bag_cost * (bags[me] - bags[1 - me])
    bonus = _TIE_BREAK * adjusted if tie_break else 0.0
    target, lose = rules.target_score, rules.lose_score
    if max(mine, theirs) >= target and mine != theirs:
        return (1.0 if mine > theirs else 0.0) + bonus
    if lose is not None and min(mine, theirs) <= lose and mine != theirs:
        return (1.0 if mine > theirs else 0.0) + bonus
    left = (target - max(mine, theirs)) / HAND_POINTS
    if lose is not None:
        left = min(left, (min(mine, theirs) - lose) / HAND_POINTS + 1.0)
    hands_left = max(1.0, left)
    return _normal_cdf(adjusted / (_SIGMA * math.sqrt(hands_left))) + bonus


def hand_points(
    rules: RuleSet,
    bids: tuple[int | None, int | None],
    blind: tuple[bool, bool],
    tricks: tuple[int, int],
    bags: tuple[int, int],
) -> tuple[tuple[int, int], tuple[int, int]]:
    """Both seats' points for the hand and bag counts after it."""
    points0, _, _, bags0 = score_seat(rules, bids[0], blind[0], tricks[0], bags[0])
    points1, _, _, bags1 = score_seat(rules, bids[1], blind[1], tricks[1], bags[1])
    return (points0, points1), (bags0, bags1)


def utility_table(
    rules: RuleSet,
    scores: tuple[int, int],
    bags: tuple[int, int],
    bids: tuple[int | None, int | None],
    blind: tuple[bool, bool],
    me: int,
    bag_share: float = _BAG_SHARE,
) -> list[float]:
    """Worth to ``me`` of the hand ending with ``t`` tricks for ``me`` (index ``t``, 0..13).

    ``bids`` must be known for both seats (``None`` only for a blind nil seat);
    ``bag_share`` is the part of a bag's future penalty charged now (see
    :func:`game_worth`).
    """
    table = []
    for taken in range(14):
        tricks = (taken, 13 - taken) if me == 0 else (13 - taken, taken)
        points, after = hand_points(rules, bids, blind, tricks, bags)
        new_scores = (scores[0] + points[0], scores[1] + points[1])
        table.append(game_worth(rules, new_scores, after, me, bag_share=bag_share))
    return table


def _wants(
    bid: int | None, won: int, other_bid: int | None, other_won: int, chase: float = 0.5
) -> bool:
    """Whether a seat that bid ``bid`` (``None``/0: nil) and took ``won`` wants a trick
    (``chase``: see :func:`modes_table`)."""
    nil = not bid
    other_nil = not other_bid
    if nil:
        return won > 0 and not other_nil and other_won < (other_bid or 0)
    if other_nil and other_won == 0:
        return False  # help the other seat's nil fail
    if won < bid:  # type: ignore[operator]
        return True
    if other_nil:
        return False
    need = (other_bid or 0) - other_won
    if need <= 0:
        return False  # the other seat made its bid: every further trick is a bag
    # Setting the other seat takes all but need - 1 of the tricks left, each one a bag if
    # the set fails: chase it only while the other seat still needs half of them.
    left = 13 - won - other_won
    return need >= chase * left


def modes_table(bids: Sequence[int | None], chase: float = 0.5) -> list[int]:
    """The greedy policy's moods: index ``won0 * 14 + won1``, bit 0 (1) for seat 0 (1).

    A seat whose bid is made wants a trick (to set the other seat) only while the other
    seat still needs at least ``chase`` of the tricks left; ``chase`` applies to seat 0
    (the searching seat), seat 1 keeps a half."""
    bid0, bid1 = bids[0], bids[1]
    table = []
    for won0 in range(14):
        for won1 in range(14):
            mode = 0
            if _wants(bid0, won0, bid1, won1, chase):
                mode |= 1
            if _wants(bid1, won1, bid0, won0):
                mode |= 2
            table.append(mode)
    return table
