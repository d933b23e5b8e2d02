"""Glicko-2 against the worked example of Glickman's paper, and the bots' anchors."""

from __future__ import annotations

import pytest

from server.accounts import BOT_ANCHORS, MemoryRatings
from server.accounts.anchors import LADDER, Rung, anchors_from_ladder, rating_gap
from server.accounts.glicko2 import (
    DEFAULT,
    MAX_DEVIATION,
    MIN_DEVIATION,
    Rating,
    Result,
    expected_score,
    update,
)


def test_the_papers_worked_example() -> None:
    """Glickman, "Example of the Glicko-2 system": 1500/200/0.06 beats 1400/30, loses to
    1550/100 and 1700/300 at tau 0.5 -> 1464.06, 151.52, 0.05999."""
    player = Rating(1500.0, 200.0, 0.06)
    results = [
        Result(Rating(1400.0, 30.0, 0.06), 1.0),
        Result(Rating(1550.0, 100.0, 0.06), 0.0),
        Result(Rating(1700.0, 300.0, 0.06), 0.0),
    ]
    after = update(player, results, tau=0.5, clamp=False)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    before = Rating(1600.0, 100.0, 0.06)
    after = update(before, [])
    assert after.rating == before.rating
    assert after.volatility == before.volatility
    assert 100.0 < after.deviation < 101.0


def test_a_win_raises_a_loss_lowers_and_both_narrow_the_deviation() -> None:
    opponent = Rating(1500.0, 60.0, 0.06)
    won = update(DEFAULT, [Result(opponent, 1.0)])
    lost = update(DEFAULT, [Result(opponent, 0.0)])
    assert won.rating > 1500.0 > lost.rating
    assert won.rating - 1500.0 == pytest.approx(1500.0 - lost.rating, rel=1e-6)
    assert won.deviation < DEFAULT.deviation and lost.deviation < DEFAULT.deviation


def test_the_deviation_stays_within_lichesss_bounds() -> None:
    wide = update(Rating(1500.0, 499.0, 0.2), [])
    assert wide.deviation == MAX_DEVIATION
    narrow = Rating(1500.0, MIN_DEVIATION, 0.01)
    for _ in range(50):
        narrow = update(narrow, [Result(Rating(1500.0, 45.0, 0.06), 0.5)])
    assert narrow.deviation == MIN_DEVIATION


def test_provisional_while_the_deviation_is_above_110_and_shown_with_a_question_mark() -> None:
    assert Rating(1512.4, 110.1, 0.06).provisional
    assert Rating(1512.4, 110.1, 0.06).shown() == "1512?"
    assert not Rating(1512.6, 110.0, 0.06).provisional
    assert Rating(1512.6, 110.0, 0.06).shown() == "1513"
    assert DEFAULT.provisional


def test_expected_score_is_even_between_equals_and_favours_the_higher() -> None:
    assert expected_score(DEFAULT, DEFAULT) == pytest.approx(0.5)
    assert expected_score(Rating(1700, 50, 0.06), Rating(1500, 50, 0.06)) > 0.7


def test_the_anchors_come_from_the_ladder_with_normal_pinned_at_the_start() -> None:
    derived = anchors_from_ladder(LADDER)
    assert derived == {p: dict(levels) for p, levels in BOT_ANCHORS.items()}
    for preset in ("classic", "five-hundred"):
        levels = BOT_ANCHORS[preset]
        assert levels["normal"].rating == 1500.0
        assert levels["easy"].rating < levels["normal"].rating < levels["hard"].rating
    # classic: normal beat easy 33-7, hard (as served) beat normal 31-11 (docs/bot.md)
    assert BOT_ANCHORS["classic"]["easy"].rating == round(1500 - rating_gap(33, 7))
    assert BOT_ANCHORS["classic"]["hard"].rating == round(1500 + rating_gap(31, 11))
    assert BOT_ANCHORS["classic"]["easy"].rating == 1231.0
    assert BOT_ANCHORS["classic"]["hard"].rating == 1680.0
    assert BOT_ANCHORS["five-hundred"]["hard"].rating == 1705.0


def test_a_ladder_missing_a_level_or_with_a_sweep_is_refused() -> None:
    with pytest.raises(ValueError, match="hard"):
        anchors_from_ladder(tuple(r for r in LADDER if r.stronger != "hard"))
    with pytest.raises(ValueError, match="finite"):
        anchors_from_ladder((Rung("classic", "normal", "easy", 40, 0), *LADDER[1:]))


def test_the_memory_lookup_says_none_for_a_guest_and_the_start_for_a_new_account() -> None:
    ratings = MemoryRatings()
    assert ratings.rating_of("guest", "classic") is None
    ratings.add("p1")
    assert ratings.rating_of("p1", "classic") == DEFAULT
    ratings.set("p1", "classic", Rating(1600.0, 80.0, 0.06))
    assert ratings.rating_of("p1", "classic") == Rating(1600.0, 80.0, 0.06)
    assert ratings.rating_of("p1", "five-hundred") == DEFAULT
