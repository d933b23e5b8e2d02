"""The top bids re-priced by playing the deal out under them (``bid_playout_top``, off)."""

import random
from collections import Counter
from dataclasses import replace

from engine.actions import Bid
from engine.bot import LEVEL_CONFIGS, Bot
from engine.bot.bid_playout import (
    RECENTRE,
    bid_candidates,
    conditioned_taken,
    playout_bid,
    playout_draws,
    playout_values,
    side_rng,
)
from engine.bot.bid_raise import raised_bid
from engine.bot.config import SearchConfig
from engine.bot.knowledge import read_knowledge
from engine.bot.search import SearchConfig as ReExported
from engine.bot.search import bid_values
from tests.bot.helpers import bid_view

HAND = ("3C 9D 7C 9C 6C 10D 2H QD 8S 4C JS KH AC", "8D JC QS QC 4H 7H 2S 7S 3S 6S 4D AS 5D")
STRONG = ("AS KS QS JS 10S AC KC AD 4C 6C 3D 5H 7H", "QC JC KD QD AH KH QH 9S 8S 2C 2D 2H 3H")
RAISED = ("5S 7S 4H 6D QS 10D 9D AH JS KS AS 5C JC", "6C QD KH 2S 10C 10S 2C 7H 8D 7C 4D 6S 8H")
SMALL = LEVEL_CONFIGS["hard"].scaled(1000)  # 500 bid samples: cheap


def test_off_by_default_and_scaled_and_re_exported() -> None:
    assert ReExported is SearchConfig
    assert LEVEL_CONFIGS["hard"].bid_playout_top == 0
    assert LEVEL_CONFIGS["normal"].bid_playout_top == 0
    assert replace(SMALL, bid_playout_top=3).scaled(500).bid_playout_top == 3


def test_off_is_the_served_bid_with_the_same_draws() -> None:
    for hand in (HAND, RAISED):
        view = bid_view(*hand)
        know = read_knowledge(view)
        rng, twin = random.Random(4), random.Random(4)
        assert playout_bid(view, know, rng, SMALL) == raised_bid(view, know, twin, SMALL)
        assert rng.getstate() == twin.getstate()


def test_on_leaves_the_bots_stream_where_the_served_bid_leaves_it() -> None:
    view = bid_view(*HAND)
    know = read_knowledge(view)
    rng, twin = random.Random(4), random.Random(4)
    playout_bid(view, know, rng, replace(SMALL, bid_playout_top=3))
    raised_bid(view, know, twin, SMALL)
    assert rng.getstate() == twin.getstate()
    state = rng.getstate()
    assert side_rng(rng).random() == side_rng(rng).random()  # reproducible
    assert rng.getstate() == state  # and it does not move rng


def test_the_candidates_always_hold_the_served_bid() -> None:
    values = {bid: float(-abs(bid - 6)) for bid in range(14)}
    assert bid_candidates(values, 6, 3) == [5, 6, 7]
    assert bid_candidates(values, 9, 3) == [5, 6, 7, 9]
    assert bid_candidates(values, 0, 1) == [0, 6]
    values[0] = 10.0  # nil is the best: not a candidate unless served
    assert bid_candidates(values, 6, 3) == [5, 6, 7]
    assert bid_candidates(values, 6, 0) == [6]
    rng = random.Random(1)
    for _ in range(50):
        values = {bid: rng.random() for bid in range(14)}
        served = rng.randrange(14)
        top = rng.randrange(5)
        chosen = bid_candidates(values, served, top)
        assert served in chosen
        assert len(chosen) in (top, top + 1) or top == 0
        assert 0 not in chosen or served == 0
        assert chosen == sorted(chosen)


def test_ducking_after_a_low_bid_lowers_the_count() -> None:
    # about four tricks: bidding 2 the seat ducks once it has two, bidding 5 it takes
    # what it can (the opponent's bid guessed from each deal)
    view = bid_view(*HAND)
    know = read_knowledge(view)
    draws = playout_draws(view, know, random.Random(2), SMALL, [2, 5], 60)
    total = sum(draws.values())
    natural = sum(n * many for (n, _, _), many in draws.items()) / total
    low = sum(c[0] * many for (_, _, c), many in draws.items()) / total
    high = sum(c[1] * many for (_, _, c), many in draws.items()) / total
    assert 3.5 < natural < 5.5
    assert low < natural - 0.6  # bags ducked
    assert abs(high - natural) < 0.2
    assert all(c[0] <= n for (n, _, c) in draws)  # ducking never takes more here
    assert all(c[0] >= 2 for (_, _, c) in draws)  # and it still makes its 2


def test_a_known_low_opponent_bid_gifts_tricks() -> None:
    # the opponent bid 2 and ducks once it has made it: the seat takes more than it
    # takes when both seats take everything
    view = bid_view(*HAND, opp_bid=2)
    know = read_knowledge(view)
    draws = playout_draws(view, know, random.Random(3), SMALL, [5], 80)
    total = sum(draws.values())
    natural = sum(n * many for (n, _, _), many in draws.items()) / total
    under = sum(c[0] * many for (_, _, c), many in draws.items()) / total
    assert all(guess == 2 for (_, guess, _) in draws)
    assert under > natural + 0.3


def test_conditioned_taken_spreads_strength_not_the_bunching() -> None:
    for natural in range(14):
        for offset in range(-3, 4):
            assert conditioned_taken(5, natural, natural, offset) == natural + offset
    # made with two to spare, ducked to the bid: a one-trick shortfall does not set it
    assert conditioned_taken(5, 7, 5, -1) == 5
    assert conditioned_taken(5, 7, 5, -3) == 4  # three short of seven: set
    assert conditioned_taken(5, 7, 6, 1) == 7  # the bags spread alike
    assert conditioned_taken(5, 4, 5, 0) == 5  # gifted by the opponent's ducking
    assert conditioned_taken(5, 6, 4, 0) == 4  # set under the bid's moods


def test_the_bot_bids_legally_through_the_re_pricing() -> None:
    for index, hand in enumerate((HAND, STRONG, RAISED)):
        for opp_bid in (None, 3):
            view = bid_view(*hand, opp_bid=opp_bid)
            bot = Bot("hard", seed=index, iterations=400)
            assert bot.config is not None
            bot.config = replace(bot.config, bid_playout_top=3)
            action = bot.choose(view)
            assert isinstance(action, Bid)
            assert action in view.legal_actions()
            assert 0 <= action.tricks <= 13


def test_the_bot_routes_its_bid_through_the_re_pricing() -> None:
    view = bid_view(*HAND, opp_bid=2)
    config = replace(SMALL, bid_playout_top=3)
    bot = Bot("hard", seed=5)
    bot.config = config
    expected = playout_bid(view, read_knowledge(view), random.Random(5), config)
    assert bot.choose(view) == Bid(expected)


def test_equal_counts_price_as_served_a_quarter_trick_lower() -> None:
    view = bid_view(*HAND, opp_bid=3)
    know = read_knowledge(view)
    served = Counter({(4, 1, 3): 5, (6, 0, 3): 2, (3, 2, 3): 3})
    played = Counter({(4, 3, (4, 4, 1)): 5, (6, 3, (6, 6, 0)): 2, (3, 3, (3, 3, 2)): 3})
    lower = replace(SMALL, bid_shift=SMALL.bid_shift + RECENTRE)
    expected = bid_values(view, know, served, lower)
    got = playout_values(view, know, played, [4, 5, 0], SMALL)
    assert RECENTRE == -0.25
    for bid in (4, 5, 0):
        assert abs(got[bid] - expected[bid]) < 1e-9
    unshifted = bid_values(view, know, served, SMALL)
    assert got[5] < unshifted[5]  # the lower centre sets 5 more often
