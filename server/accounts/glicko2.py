"""Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013), as pure arithmetic.

    after = update(Rating(1500, 200, 0.06), [Result(Rating(1400, 30, 0.06), 1.0), ...])
    after = update(before, [])            # a period without games: only the deviation grows
    now_rating = as_of(stored, stored_at, now)    # the deviation grown over the time away

A :class:`Rating` is on the Glicko scale (rating about 1500, deviation in rating points);
the arithmetic runs on the Glicko-2 scale (divided by 173.7178) as the paper's steps 2-8
say. Like lichess, spades2 treats each game as one rating period (see docs/accounts.md)
with ``tau`` 0.75 and keeps the deviation within [:data:`MIN_DEVIATION`,
:data:`MAX_DEVIATION`]. Time away widens the deviation as the paper's step 6 does for a
period without games, one period per :data:`PERIOD_SECONDS` (lichess's 0.21436 periods a
day), up to :data:`INACTIVE_DEVIATION`: :func:`as_of` takes the times as values (no clock
is read here). Nothing here raises for finite inputs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "DEFAULT",
    "INACTIVE_DEVIATION",
    "MAX_DEVIATION",
    "MIN_DEVIATION",
    "PERIODS_PER_DAY",
    "PERIOD_SECONDS",
    "PROVISIONAL_DEVIATION",
    "SCALE",
    "TAU",
    "Rating",
    "Result",
    "after_absence",
    "as_of",
    "expected_score",
    "periods_between",
    "update",
]

SCALE = 173.7178
"""Glicko points per Glicko-2 unit (400 / ln 10)."""
TAU = 0.75
"""How far the volatility may move in a period (lichess; the paper's example uses 0.5)."""
MIN_DEVIATION = 45.0
MAX_DEVIATION = 500.0
PROVISIONAL_DEVIATION = 110.0
"""A rating whose deviation is above this is provisional (shown with "?", not on the board)."""
PERIODS_PER_DAY = 0.21436
"""Rating periods a day for the time away (lichess's constant: at volatility 0.06 it takes
a deviation of 60, an active player's, to the provisional 110 in 365 days)."""
PERIOD_SECONDS = 86_400.0 / PERIODS_PER_DAY
"""One rating period of absence, in seconds (about 4.67 days)."""
INACTIVE_DEVIATION = 350.0
"""Time away widens a deviation up to this, a new account's (the paper's cap)."""
_EPSILON = 0.000001  # the paper's convergence tolerance of step 5


@dataclass(frozen=True)
class Rating:
    """A rating, its deviation (both in Glicko points) and its volatility."""

    rating: float
    deviation: float
    volatility: float

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION

    def shown(self) -> str:
        """``"1512"``, or ``"1512?"`` while provisional."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"


DEFAULT = Rating(1500.0, 350.0, 0.06)
"""A new account's rating in each preset (lichess's start)."""


@dataclass(frozen=True)
class Result:
    """One game of the period: the opponent as rated before it, and the score (1, 0.5, 0)."""

    opponent: Rating
    score: float


def periods_between(since: float, now: float) -> float:
    """Rating periods (fractional) from ``since`` to ``now``, both in seconds of one clock
    (wall-clock seconds in the store); 0 when ``now`` is not later."""
    return max(0.0, now - since) / PERIOD_SECONDS


def after_absence(rating: Rating, periods: float) -> Rating:
    """``rating`` after ``periods`` rating periods without a game: the deviation becomes
    min(sqrt(RD^2 + sigma^2 t), :data:`INACTIVE_DEVIATION`) on the Glicko-2 scale (a
    deviation already wider stays as it is); rating and volatility stay."""
    if periods <= 0.0 or rating.deviation >= INACTIVE_DEVIATION:
        return rating
    phi = rating.deviation / SCALE
    grown = math.sqrt(phi * phi + rating.volatility * rating.volatility * periods) * SCALE
    return Rating(rating.rating, min(grown, INACTIVE_DEVIATION), rating.volatility)


def as_of(rating: Rating, updated: float, now: float) -> Rating:
    """``rating``, last updated at ``updated``, as it stands at ``now`` (same clock): what
    is shown, paired by, and updated from (the pre-period step of the next game)."""
    return after_absence(rating, periods_between(updated, now))


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The score ``player`` is expected to make against ``opponent`` (0..1)."""
    return _expected(
        (player.rating - 1500.0) / SCALE,
        (opponent.rating - 1500.0) / SCALE,
        opponent.deviation / SCALE,
    )


def _volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2.0 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > _EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(
    player: Rating,
    results: Sequence[Result],
    tau: float = TAU,
    clamp: bool = True,
) -> Rating:
    """``player`` after one rating period of ``results`` (steps 2-8 of the paper).

    ``player`` and the opponents are as they stand when the period starts: a stored
    rating goes through :func:`as_of` first (the time away before this game).

    ``clamp`` keeps the deviation within [MIN_DEVIATION, MAX_DEVIATION] as lichess does
    (the paper's example is checked with ``clamp=False``).
    """
    mu = (player.rating - 1500.0) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return _clamped(Rating(player.rating, phi_star * SCALE, sigma), clamp)
    v_inverse = 0.0
    improvement = 0.0
    for result in results:
        mu_j = (result.opponent.rating - 1500.0) / SCALE
        phi_j = result.opponent.deviation / SCALE
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        v_inverse += g * g * e * (1.0 - e)
        improvement += g * (result.score - e)
    v = 1.0 / v_inverse
    delta = v * improvement
    new_sigma = _volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return _clamped(Rating(new_mu * SCALE + 1500.0, new_phi * SCALE, new_sigma), clamp)


def _clamped(rating: Rating, clamp: bool) -> Rating:
    if not clamp:
        return rating
    deviation = min(MAX_DEVIATION, max(MIN_DEVIATION, rating.deviation))
    return Rating(rating.rating, deviation, rating.volatility)
