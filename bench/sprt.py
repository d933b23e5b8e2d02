"""Sequential probability ratio test over duplicate pairs (pure functions, no I/O).

A duplicate pair is two games on the same shuffles with the seats swapped. Its score for
side A is the mean of A's two game scores (win 1, draw 0.5, loss 0), so it takes one of
five values: 0, 1/4, 1/2, 3/4, 1. The test counts pairs in those five bins (the
*pentanomial* model, as fishtest does for chess engines' game pairs) and compares

    H0: expected pair score (= A's win rate) is p0      against      H1: it is p1

with the generalised log-likelihood ratio: for each hypothesis, the five-bin distribution
of largest likelihood whose mean is that hypothesis's win rate; the LLR is the sum over
pairs of ``log(q1 / q0)`` of each pair's bin. Wald's bounds for error rates ``alpha`` and
``beta`` decide: LLR above ``log((1 - beta) / alpha)`` accepts H1, below
``log(beta / (1 - alpha))`` accepts H0, and between them the test plays on.

    counts = pentanomial_counts([1.0, 0.75, 0.5, 1.0])
    llr = pentanomial_llr(counts, 0.5, 0.6)
    verdict = sprt_verdict(llr, sprt_bounds(0.05, 0.05))   # "H0", "H1" or "continue"

A pair can also be scored as bridge duplicate scores it (*pair points*): the side whose
points over the pair's two games (its seat in one, the other seat in the other) total
more wins the pair (1), equal totals draw (1/2), else 0. The seat's luck cancels inside
the pair, so the pair's result is who played the same cards better. Those pairs fall in
three bins, and the same generalised LLR over them is the *trinomial* test:

    counts = trinomial_counts([points_pair_score(+40, -10), points_pair_score(0, 0)])
    llr = trinomial_llr(counts, 0.5, 0.6)

Every function raises :class:`ValueError` for arguments outside its domain.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

__all__ = [
    "PAIR_SCORES",
    "TRINOMIAL_SCORES",
    "constrained_mle",
    "pair_score",
    "pentanomial_counts",
    "pentanomial_llr",
    "points_pair_score",
    "sprt_bounds",
    "sprt_verdict",
    "trinomial_counts",
    "trinomial_llr",
]

PAIR_SCORES: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0)
"""The five possible pair scores (the bins of the pentanomial model)."""

TRINOMIAL_SCORES: tuple[float, ...] = (0.0, 0.5, 1.0)
"""The three pair scores of the pair-points unit: lost, drawn, won."""

_REGULARISE = 1e-3
"""Pseudo-count given to an empty bin, so that an all-wins or all-losses start still has
a finite LLR (fishtest regularises the same way)."""


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's ``(lower, upper)`` LLR bounds for error rates ``alpha`` and ``beta``."""
    if not (0.0 < alpha < 1.0 and 0.0 < beta < 1.0):
        raise ValueError(f"alpha and beta must lie in (0, 1), not {alpha}, {beta}")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def pair_score(first: float, second: float) -> float:
    """A pair's score from its two game scores (each 0, 0.5 or 1)."""
    for value in (first, second):
        if value not in (0.0, 0.5, 1.0):
            raise ValueError(f"a game score is 0, 0.5 or 1, not {value}")
    return (first + second) / 2.0


def pentanomial_counts(pair_scores: Iterable[float]) -> list[int]:
    """How many pairs scored each of :data:`PAIR_SCORES` (a list of five counts)."""
    counts = [0] * len(PAIR_SCORES)
    for score in pair_scores:
        index = round(score * 4)
        if not (0 <= index <= 4) or abs(index / 4 - score) > 1e-9:
            raise ValueError(f"a pair score is a multiple of 1/4 in [0, 1], not {score}")
        counts[index] += 1
    return counts


def constrained_mle(probs: Sequence[float], values: Sequence[float], mean: float) -> list[float]:
    """The distribution over ``values`` with the given ``mean`` that maximises the
    likelihood of data with empirical frequencies ``probs``.

    By a Lagrange multiplier it is ``q_i = p_i / (1 + lam * (x_i - mean))``, with ``lam``
    the root of ``sum p_i (x_i - mean) / (1 + lam (x_i - mean)) = 0`` (found by
    bisection; the left side falls as ``lam`` grows). ``mean`` must lie strictly between
    the smallest and the largest value with positive frequency.
    """
    if len(probs) != len(values):
        raise ValueError("probs and values differ in length")
    total = sum(probs)
    if total <= 0.0 or any(p < 0.0 for p in probs):
        raise ValueError("probs must be non-negative with a positive sum")
    p = [x / total for x in probs]
    support = [v for v, w in zip(values, p, strict=True) if w > 0.0]
    low_value, high_value = min(support), max(support)
    if not low_value < mean < high_value:
        raise ValueError(f"mean {mean} is outside the support ({low_value}, {high_value})")
    offsets = [v - mean for v in values]
    # 1 + lam * offset > 0 for every supported value bounds lam on both sides
    lam_low = -1.0 / (high_value - mean)
    lam_high = -1.0 / (low_value - mean)

    def slope(lam: float) -> float:
        return sum(w * d / (1.0 + lam * d) for w, d in zip(p, offsets, strict=True) if w > 0.0)

    lo, hi = lam_low, lam_high
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if slope(mid) > 0.0:
            lo = mid
        else:
            hi = mid
    lam = (lo + hi) / 2.0
    q = [w / (1.0 + lam * d) if w > 0.0 else 0.0 for w, d in zip(p, offsets, strict=True)]
    norm = sum(q)
    return [x / norm for x in q]


def _gsprt_llr(counts: Sequence[int], values: Sequence[float], p0: float, p1: float) -> float:
    """The generalised LLR of H1 (mean ``p1``) against H0 (``p0``) for bin ``counts``
    over ``values``; empty bins get a pseudo-count of 0.001."""
    if len(counts) != len(values):
        raise ValueError(f"{len(values)} counts expected, not {len(counts)}")
    if any(c < 0 for c in counts):
        raise ValueError("counts must be non-negative")
    if not 0.0 < p0 < p1 < 1.0:
        raise ValueError(f"0 < p0 < p1 < 1 is required, not p0={p0}, p1={p1}")
    pairs = sum(counts)
    if pairs == 0:
        return 0.0
    padded = [c if c > 0 else _REGULARISE for c in counts]
    total = sum(padded)
    probs = [c / total for c in padded]
    q0 = constrained_mle(probs, values, p0)
    q1 = constrained_mle(probs, values, p1)
    return pairs * sum(w * math.log(b / a) for w, a, b in zip(probs, q0, q1, strict=True))


def pentanomial_llr(counts: Sequence[int], p0: float, p1: float) -> float:
    """The generalised log-likelihood ratio of H1 (win rate ``p1``) against H0 (``p0``)
    for pentanomial ``counts`` (five bins, :func:`pentanomial_counts`).

    Empty bins get a pseudo-count of 0.001. ``0 < p0 < p1 < 1`` is required.
    """
    return _gsprt_llr(counts, PAIR_SCORES, p0, p1)


def points_pair_score(a_points: int | float, b_points: int | float) -> float:
    """A pair's score by pair points: 1 if A's points over the pair's two games total
    more than B's, 0.5 if equal, else 0."""
    if a_points > b_points:
        return 1.0
    return 0.5 if a_points == b_points else 0.0


def trinomial_counts(pair_scores: Iterable[float]) -> list[int]:
    """How many pairs were lost, drawn and won (scores 0, 1/2, 1): three counts."""
    counts = [0] * len(TRINOMIAL_SCORES)
    for score in pair_scores:
        if score not in TRINOMIAL_SCORES:
            raise ValueError(f"a pair-points score is 0, 0.5 or 1, not {score}")
        counts[TRINOMIAL_SCORES.index(score)] += 1
    return counts


def trinomial_llr(counts: Sequence[int], p0: float, p1: float) -> float:
    """The generalised LLR of H1 (A's pair score ``p1``) against H0 (``p0``) for
    trinomial ``counts`` (lost, drawn, won: :func:`trinomial_counts`).

    Empty bins get a pseudo-count of 0.001. ``0 < p0 < p1 < 1`` is required.
    """
    return _gsprt_llr(counts, TRINOMIAL_SCORES, p0, p1)


def sprt_verdict(llr: float, bounds: tuple[float, float]) -> str:
    """``"H1"`` above the upper bound, ``"H0"`` below the lower one, else ``"continue"``."""
    lower, upper = bounds
    if llr >= upper:
        return "H1"
    if llr <= lower:
        return "H0"
    return "continue"
