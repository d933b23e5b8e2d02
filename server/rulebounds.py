"""Which rule sets a table may use: every score their games can reach fits the protocol.

    check_score_range(rules)           # raises ScoreRangeError (a RuleError) if not

The protocol carries scores as ``Score`` (``|score| <= 10,000,000``). A game ends once a
seat reaches the target, so scores can only run past the range downwards, and only when
the rule set has no ``lose_score``: then the server asks that one hand cost at most
:data:`MAX_HAND_LOSS_WITHOUT_LOSE_SCORE` points, so that leaving the range takes more
than 10,000 hands of losing at the worst possible rate.
"""

from __future__ import annotations

from engine import RuleError, RuleSet

__all__ = [
    "MAX_HAND_LOSS_WITHOUT_LOSE_SCORE",
    "SCORE_LIMIT",
    "ScoreRangeError",
    "check_score_range",
    "hand_gain_bound",
    "hand_loss_bound",
]

SCORE_LIMIT = 10_000_000
"""The largest score magnitude the protocol carries (``protocol.messages.Score``)."""

MAX_HAND_LOSS_WITHOUT_LOSE_SCORE = 1_000
"""The most one hand may cost a seat when the rule set has no ``lose_score``."""

_TRICKS = 13


class ScoreRangeError(RuleError):
    """The rule set lets a game's scores leave the range the protocol carries."""


def _largest_bid_swing(rules: RuleSet) -> int:
    swing = 10 * _TRICKS  # bid 13: +130 made (no bags possible), -130 set
    if rules.nil:
        swing = max(swing, rules.nil_bonus)
    if rules.blind_nil:
        swing = max(swing, rules.blind_nil_bonus)
    return swing


def hand_gain_bound(rules: RuleSet) -> int:
    """The most points one seat can win in one hand (bags included)."""
    return _largest_bid_swing(rules)


def hand_loss_bound(rules: RuleSet) -> int:
    """The most points one seat can lose in one hand (failed bid or nil plus bag penalties).

    A seat starts a hand with at most ``bag_limit - 1`` bags and adds at most 13, so it
    pays at most ``(bag_limit + 12) // bag_limit`` penalties in one hand.
    """
    penalties = (rules.bag_limit - 1 + _TRICKS) // rules.bag_limit
    return _largest_bid_swing(rules) + penalties * rules.bag_penalty


def check_score_range(rules: RuleSet) -> None:
    """Refuse ``rules`` whose games could carry a score past :data:`SCORE_LIMIT`.

    Raises :class:`ScoreRangeError` saying which fields to change.
    """
    high = rules.target_score - 1 + hand_gain_bound(rules)
    if high > SCORE_LIMIT:
        raise ScoreRangeError(f"a score could reach {high}, past {SCORE_LIMIT}")
    loss = hand_loss_bound(rules)
    if rules.lose_score is not None:
        low = rules.lose_score + 1 - loss
        if low < -SCORE_LIMIT:
            raise ScoreRangeError(f"a score could fall to {low}, past -{SCORE_LIMIT}")
        return
    if loss > MAX_HAND_LOSS_WITHOUT_LOSE_SCORE:
        raise ScoreRangeError(
            f"one hand could cost a seat {loss} points (a failed bid or nil plus bag "
            f"penalties); without lose_score at most {MAX_HAND_LOSS_WITHOUT_LOSE_SCORE} "
            "is allowed: set lose_score, or lower bag_penalty, nil_bonus or "
            "blind_nil_bonus, or raise bag_limit"
        )
