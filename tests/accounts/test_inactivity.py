"""The deviation grows with the rating periods an account sat out (Glicko-2's step 6 for a
period without games, lichess's 0.21436 periods a day), capped at a new account's 350:
when a rating is shown, paired by and updated. Every time here is a fixed number."""

from __future__ import annotations

import math

import pytest

from protocol import messages as m
from server.accounts.anchors import BOT_ANCHORS
from server.accounts.glicko2 import (
    DEFAULT,
    INACTIVE_DEVIATION,
    PERIOD_SECONDS,
    SCALE,
    Rating,
    Result,
    after_absence,
    as_of,
    periods_between,
    update,
)
from server.accounts.profile import leaderboard_message, profile_message
from server.accounts.rating import GameEnd, Rater, Side, StoredRatings
from server.store import Store
from server.store.accounts_rows import RatingRow

DAY = 86_400.0
YEAR = 365 * DAY
T0 = 1_780_000_000.0  # a fixed wall-clock time: the last rated game


def test_one_period_is_lichess_s_and_an_active_deviation_turns_provisional_in_a_year() -> None:
    assert periods_between(T0, T0 + DAY) == pytest.approx(0.21436)
    assert periods_between(T0, T0 + PERIOD_SECONDS) == pytest.approx(1.0)
    # why lichess's constant: deviation 60 at volatility 0.06 reaches 110 in 365 days
    phi_60, phi_110 = 60.0 / SCALE, 110.0 / SCALE
    days = (phi_110**2 - phi_60**2) / 0.06**2 / 0.21436
    assert days == pytest.approx(365.0, abs=0.5)


def test_an_account_away_a_year_is_provisional_again() -> None:
    active = Rating(1712.0, 60.0, 0.06)
    assert not active.provisional
    assert not as_of(active, T0, T0 + 30 * DAY).provisional
    away = as_of(active, T0, T0 + YEAR + DAY)
    assert away.provisional and away.shown() == "1712?"
    assert (away.rating, away.volatility) == (active.rating, active.volatility)


def test_the_deviation_grows_as_the_square_root_of_the_periods_away() -> None:
    rating = Rating(1500.0, 80.0, 0.06)
    periods = 40.0
    grown = after_absence(rating, periods)
    expected = math.sqrt((80.0 / SCALE) ** 2 + 0.06**2 * periods) * SCALE
    assert grown.deviation == pytest.approx(expected)
    # the same whether the time is taken in one step or two: the formula adds variances
    halfway = after_absence(after_absence(rating, periods / 2), periods / 2)
    assert halfway.deviation == pytest.approx(grown.deviation)


def test_time_away_never_widens_past_a_new_accounts_deviation_nor_narrows_one() -> None:
    assert as_of(Rating(1500.0, 60.0, 0.06), T0, T0 + 30 * YEAR).deviation == INACTIVE_DEVIATION
    wide = Rating(1500.0, 420.0, 0.06)  # wider than 350 after a game's clamp: left as is
    assert as_of(wide, T0, T0 + YEAR) == wide
    # no time, or a clock behind the last game: nothing changes
    assert as_of(Rating(1500.0, 60.0, 0.06), T0, T0) == Rating(1500.0, 60.0, 0.06)
    assert as_of(Rating(1500.0, 60.0, 0.06), T0, T0 - DAY) == Rating(1500.0, 60.0, 0.06)


def test_the_papers_worked_example_still_holds_with_no_time_away() -> None:
    player = as_of(Rating(1500.0, 200.0, 0.06), T0, T0)
    results = [
        Result(Rating(1400.0, 30.0, 0.06), 1.0),
        Result(Rating(1550.0, 100.0, 0.06), 0.0),
        Result(Rating(1700.0, 300.0, 0.06), 0.0),
    ]
    after = update(player, results, tau=0.5, clamp=False)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def _store_with(rating: Rating, updated: float) -> Store:
    store = Store(":memory:")
    store.accounts.add_account("p-ann", "ann", "ann", "hash", 1.0)
    store.accounts.add_account("p-ben", "ben", "ben", "hash", 1.0)
    store.accounts.put_rating(
        RatingRow("p-ann", "classic", rating.rating, rating.deviation, rating.volatility,
                  40, 25, 15, updated)
    )  # fmt: skip
    return store


def _end(ended: float) -> GameEnd:
    return GameEnd(
        record_id=f"rec-{int(ended)}",
        code="K7QX2M9A",
        preset="classic",
        rated=True,
        outcome="score",
        winner=0,
        sides=(Side("ann", "p-ann"), Side("bot (normal)", None, "normal")),
        scores=(512, 300),
        ended=ended,
    )


def test_a_game_after_a_year_away_updates_from_the_widened_deviation() -> None:
    active = Rating(1650.0, 60.0, 0.06)
    store = _store_with(active, T0)
    Rater(store, {}).ended(_end(T0 + YEAR + DAY))
    row = store.accounts.rating("p-ann", "classic")
    assert row is not None and row.updated == T0 + YEAR + DAY
    widened = as_of(active, T0, T0 + YEAR + DAY)
    expected = update(widened, [Result(BOT_ANCHORS["classic"]["normal"], 1.0)])
    assert row.deviation == pytest.approx(expected.deviation)
    assert row.rating == pytest.approx(expected.rating)
    # the win moves the rating further than it would have the day after the last game
    fresh = update(active, [Result(BOT_ANCHORS["classic"]["normal"], 1.0)])
    assert row.rating - 1650.0 > fresh.rating - 1650.0 > 0


def test_the_profile_lookup_and_leaderboard_show_the_rating_as_of_now() -> None:
    active = Rating(1650.0, 60.0, 0.06)
    store = _store_with(active, T0)
    account = store.accounts.account("p-ann")
    assert account is not None

    def line(now: float) -> m.RatingLine:
        profile = profile_message(store, account, 1, now)
        return next(r for r in profile.ratings if r.preset == "classic")

    assert (line(T0).deviation, line(T0 + 60 * DAY).deviation) == (60, 71)
    assert not line(T0 + 60 * DAY).provisional
    later = line(T0 + YEAR + DAY)
    assert later.provisional and later.deviation >= 110 and later.rating == 1650
    board = leaderboard_message(store, "classic", 1, T0 + 60 * DAY)
    assert [(e.name, e.deviation) for e in board.entries] == [("ann", 71)]
    assert leaderboard_message(store, "classic", 1, T0 + YEAR + DAY).entries == ()
    clock = [T0 + DAY]
    lookup = StoredRatings(store, lambda: clock[0])
    assert lookup.rating_of("p-ben", "classic") == DEFAULT
    assert lookup.rating_of("p-guest", "classic") is None
    first = lookup.rating_of("p-ann", "classic")
    clock[0] = T0 + YEAR + DAY
    second = lookup.rating_of("p-ann", "classic")
    assert first is not None and second is not None
    assert not first.provisional and second.provisional
