"""Scoring at the end of a hand, and whether the game is then won.

:func:`score_seat` is the rule for one seat (bids, nil and blind nil, bags and their
penalty), kept public for the bot and the analysis; :func:`score_hand` applies it to both
seats of a finished :class:`~engine.hand.HandState` and :func:`winner_of` reads the new
scores against the targets. Nothing here raises.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.events import HandResult
from engine.hand import HandState
from engine.rules import RuleSet

__all__ = ["score_hand", "score_seat", "winner_of"]


def score_seat(
    rules: RuleSet, bid: int | None, blind: bool, tricks: int, bags_before: int
) -> tuple[int, int, int, int]:
    """One seat's hand score: ``(points, bags_added, penalties, bags_after)``.

    ``bid`` is ``None`` for blind nil (``blind`` true). Points include bag penalties.
    """
    bags_added = 0
    if blind or bid == 0:
        bonus = rules.blind_nil_bonus if blind else rules.nil_bonus
        points = bonus if tricks == 0 else -bonus
        if tricks and rules.failed_nil_tricks_are_bags:
            bags_added = tricks
    else:
        assert bid is not None
        if tricks >= bid:
            bags_added = tricks - bid
            points = 10 * bid + bags_added
        else:
            points = -10 * bid
    bags = bags_before + bags_added
    penalties = 0
    while bags >= rules.bag_limit:
        bags -= rules.bag_limit
        penalties += 1
    return points - penalties * rules.bag_penalty, bags_added, penalties, bags


def score_hand(
    rules: RuleSet, hand: HandState, scores: Sequence[int], bags: Sequence[int]
) -> HandResult:
    """The result of ``hand`` (all its tricks played) for seats with ``scores`` and ``bags``
    before it; the result's ``scores`` and ``bags`` are the totals after it."""
    points, added, penalties, bags_after = [0, 0], [0, 0], [0, 0], [0, 0]
    for seat in (0, 1):
        points[seat], added[seat], penalties[seat], bags_after[seat] = score_seat(
            rules,
            hand.bids[seat],
            bool(hand.blind[seat]),
            hand.tricks_won[seat],
            bags[seat],
        )
    return HandResult(
        hand_number=hand.number,
        first_drafter=hand.first_drafter,
        bids=(hand.bids[0], hand.bids[1]),
        blind_nil=(bool(hand.blind[0]), bool(hand.blind[1])),
        tricks=(hand.tricks_won[0], hand.tricks_won[1]),
        points=(points[0], points[1]),
        bags_added=(added[0], added[1]),
        bag_penalties=(penalties[0], penalties[1]),
        scores=(scores[0] + points[0], scores[1] + points[1]),
        bags=(bags_after[0], bags_after[1]),
        commitment=hand.commitment,
        seed=hand.seed,
        entropy=hand.entropy,
    )


def winner_of(rules: RuleSet, scores: Sequence[int]) -> int | None:
    """The seat that has won with these ``scores``, or ``None`` while the game goes on.

    Reaching ``rules.target_score`` wins for the higher score (a tie plays on); falling to
    ``rules.lose_score`` loses to the other seat, unless the scores are equal.
    """
    first, second = scores
    target, lose = rules.target_score, rules.lose_score
    if max(first, second) >= target:
        return None if first == second else (0 if first > second else 1)
    if lose is not None and min(first, second) <= lose and first != second:
        return 0 if first > second else 1
    return None
