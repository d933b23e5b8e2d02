"""The SPRT of bench/strength.py: its math against values worked out by hand."""

import math

import pytest

from bench.sprt import (
    PAIR_SCORES,
    TRINOMIAL_SCORES,
    constrained_mle,
    pair_score,
    pentanomial_counts,
    pentanomial_llr,
    points_pair_score,
    sprt_bounds,
    sprt_verdict,
    trinomial_counts,
    trinomial_llr,
)


def test_wald_bounds_for_five_percent_errors() -> None:
    lower, upper = sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(-math.log(19.0))  # log(0.05 / 0.95) = -2.944439
    assert upper == pytest.approx(math.log(19.0))
    assert upper == pytest.approx(2.944439, abs=1e-6)
    lower, upper = sprt_bounds(0.05, 0.10)
    assert lower == pytest.approx(math.log(0.10 / 0.95))
    assert upper == pytest.approx(math.log(0.90 / 0.05))


def test_pair_scores_and_counts() -> None:
    assert pair_score(1.0, 0.5) == 0.75
    assert pair_score(0.0, 0.0) == 0.0
    assert pentanomial_counts([0.0, 0.25, 0.5, 0.75, 1.0, 1.0, 0.5]) == [1, 1, 2, 1, 2]
    with pytest.raises(ValueError):
        pair_score(0.3, 1.0)
    with pytest.raises(ValueError):
        pentanomial_counts([0.3])


def test_only_won_or_lost_pairs_is_walds_binomial_sprt() -> None:
    # With pairs only at 0 and 1 the constrained distribution is (1 - p, p) on them, so the
    # LLR is Wald's binomial one: W log(p1/p0) + L log((1-p1)/(1-p0)).
    wins, losses = 30, 12
    expected = wins * math.log(0.6 / 0.5) + losses * math.log(0.4 / 0.5)  # 2.792 = 5.4696 - 2.6777
    assert expected == pytest.approx(2.79195, abs=1e-4)
    llr = pentanomial_llr([losses, 0, 0, 0, wins], 0.5, 0.6)
    assert llr == pytest.approx(expected, abs=0.02)  # the 0.001 pseudo-counts move it a little


def test_two_point_pairs_at_a_quarter_and_three_quarters() -> None:
    # Only 1/4 and 3/4 pairs: mean p forces q = ((3/4 - p) / (1/2), (p - 1/4) / (1/2)).
    low, high = 10, 20

    def q(p: float) -> tuple[float, float]:
        return (0.75 - p) / 0.5, (p - 0.25) / 0.5

    (a0, b0), (a1, b1) = q(0.5), q(0.6)
    expected = low * math.log(a1 / a0) + high * math.log(b1 / b0)  # 10 log .6 + 20 log 1.4
    assert expected == pytest.approx(10 * math.log(0.6) + 20 * math.log(1.4))
    assert pentanomial_llr([0, low, 0, high, 0], 0.5, 0.6) == pytest.approx(expected, abs=0.02)


def test_all_draw_pairs_favour_neither_symmetric_hypothesis() -> None:
    assert pentanomial_llr([0, 0, 50, 0, 0], 0.45, 0.55) == pytest.approx(0.0, abs=1e-9)


def test_large_samples_match_the_normal_approximation() -> None:
    # For many pairs, LLR ~ N (p1 - p0) (2 m - p0 - p1) / (2 var) with the sample mean m and
    # variance var of the pair scores.
    counts = [40, 90, 160, 120, 90]
    pairs = sum(counts)
    mean = sum(c * x for c, x in zip(counts, PAIR_SCORES, strict=True)) / pairs
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, PAIR_SCORES, strict=True)) / pairs
    p0, p1 = 0.5, 0.55
    approx = pairs * (p1 - p0) * (2 * mean - p0 - p1) / (2 * var)
    llr = pentanomial_llr(counts, p0, p1)
    assert llr == pytest.approx(approx, rel=0.03)
    assert llr > 0  # the sample mean 0.5625 is nearer H1


def test_constrained_mle_has_the_asked_mean_and_keeps_a_fitting_sample() -> None:
    probs = [0.1, 0.2, 0.3, 0.25, 0.15]
    mean = sum(p * x for p, x in zip(probs, PAIR_SCORES, strict=True))
    same = constrained_mle(probs, PAIR_SCORES, mean)
    assert same == pytest.approx(probs, abs=1e-9)
    moved = constrained_mle(probs, PAIR_SCORES, 0.6)
    assert sum(moved) == pytest.approx(1.0)
    assert sum(q * x for q, x in zip(moved, PAIR_SCORES, strict=True)) == pytest.approx(0.6)
    with pytest.raises(ValueError):
        constrained_mle([0.5, 0.5, 0.0, 0.0, 0.0], PAIR_SCORES, 0.6)


def test_verdicts_at_the_bounds() -> None:
    bounds = sprt_bounds(0.05, 0.05)
    assert sprt_verdict(3.0, bounds) == "H1"
    assert sprt_verdict(-3.0, bounds) == "H0"
    assert sprt_verdict(2.9, bounds) == "continue"
    # A clear winner is decided in tens of pairs: 16 won pairs of 20 against H0 .5 / H1 .6.
    assert sprt_verdict(pentanomial_llr([1, 1, 2, 4, 12], 0.5, 0.6), bounds) == "H1"
    # A loser is rejected as quickly.
    assert sprt_verdict(pentanomial_llr([10, 5, 3, 1, 1], 0.5, 0.6), bounds) == "H0"
    assert pentanomial_llr([0, 0, 0, 0, 0], 0.5, 0.6) == 0.0
    with pytest.raises(ValueError):
        pentanomial_llr([1, 2, 3, 4, 5], 0.6, 0.5)


# The pair-points unit (duplicate scoring): a pair is won, drawn or lost on its points.


def test_a_pair_is_won_drawn_or_lost_on_its_two_games_points() -> None:
    assert points_pair_score(120, 40) == 1.0
    assert points_pair_score(-30, -30) == 0.5
    assert points_pair_score(-31, -30) == 0.0
    assert trinomial_counts([1.0, 0.5, 0.0, 1.0, 1.0]) == [1, 1, 3]
    assert TRINOMIAL_SCORES == (0.0, 0.5, 1.0)
    with pytest.raises(ValueError):
        trinomial_counts([0.75])


def test_trinomial_llr_against_a_hand_solved_case() -> None:
    # Counts lost 1, drawn 2, won 3 (N = 6). With mean m the bins are (a, b, c) with
    # b = 2 (m - c), a = 1 - 2m + c; the likelihood's stationary point in c solves
    # n0 / a - n1 / (m - c) + n2 / c = 0.
    # m = 0.5: a = c = (n0 + n2) / 2N = 1/3, b = n1 / N = 1/3.
    # m = 0.6: 1/(c - .2) - 2/(.6 - c) + 3/c = 0, i.e. 6c^2 - 3.4c + 0.36 = 0, whose root
    # above 0.2 is c = (3.4 + sqrt(2.92)) / 12 = 0.425733, b = 0.348534, a = 0.225733.
    c = (3.4 + math.sqrt(2.92)) / 12
    assert c == pytest.approx(0.425733, abs=1e-6)
    a1, b1, c1 = c - 0.2, 2 * (0.6 - c), c
    expected = math.log(a1 * 3) + 2 * math.log(b1 * 3) + 3 * math.log(c1 * 3)
    assert expected == pytest.approx(0.433404, abs=1e-6)
    assert trinomial_llr([1, 2, 3], 0.5, 0.6) == pytest.approx(expected, abs=1e-9)
    # the pentanomial test on the same pairs (no 1/4 or 3/4 bins) agrees up to its pseudo-counts
    assert pentanomial_llr([1, 0, 2, 0, 3], 0.5, 0.6) == pytest.approx(expected, abs=1e-3)


def test_trinomial_without_draws_is_walds_binomial_sprt() -> None:
    wins, losses = 25, 10
    expected = wins * math.log(0.6 / 0.5) + losses * math.log(0.4 / 0.5)  # 4.5580 - 2.2314
    assert expected == pytest.approx(2.3266, abs=1e-4)
    assert trinomial_llr([losses, 0, wins], 0.5, 0.6) == pytest.approx(expected, abs=0.02)


def test_trinomial_verdicts_and_domain() -> None:
    bounds = sprt_bounds(0.05, 0.05)
    assert trinomial_llr([0, 0, 0], 0.5, 0.6) == 0.0
    assert trinomial_llr([0, 40, 0], 0.45, 0.55) == pytest.approx(0.0, abs=1e-9)
    # 30 pairs won on points, 8 lost, 2 drawn: LLR about 30 log 1.2 + 8 log 0.8 > 2.944
    assert sprt_verdict(trinomial_llr([8, 2, 30], 0.5, 0.6), bounds) == "H1"
    assert sprt_verdict(trinomial_llr([25, 2, 10], 0.5, 0.6), bounds) == "H0"
    with pytest.raises(ValueError):
        trinomial_llr([1, 2, 3, 4, 5], 0.5, 0.6)
    with pytest.raises(ValueError):
        trinomial_llr([1, 2, 3], 0.6, 0.5)
