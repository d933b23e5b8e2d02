"""The guarded raise of the bid (``SearchConfig.bid_raise_floor``), served in ``hard`` at 0.78."""

import random
from collections import Counter
from dataclasses import replace

from engine.actions import Bid
from engine.bot import LEVEL_CONFIGS, Bot
from engine.bot.bid_raise import RAISE_STEP, bid_make_chance, raised_bid
from engine.bot.knowledge import read_knowledge
from engine.bot.search import best_bid, bid_draws, search_bid
from tests.bot.helpers import bid_view

# a 3-bid hand whose kernel a quarter trick up bids 4 (hard's draws with seed 4: the
# served kernel gives 3 about 0.92 and 4 about 0.71 of being made)
HAND = ("3C 9D 7C 9C 6C 10D 2H QD 8S 4C JS KH AC", "8D JC QS QC 4H 7H 2S 7S 3S 6S 4D AS 5D")
STRONG = ("AS KS QS JS 10S AC KC AD 4C 6C 3D 5H 7H", "QC JC KD QD AH KH QH 9S 8S 2C 2D 2H 3H")
# a 6-bid hand that served hard raises to 7 (seed 4: the served kernel gives 7 about
# 0.83 of being made)
RAISED = ("5S 7S 4H 6D QS 10D 9D AH JS KS AS 5C JC", "6C QD KH 2S 10C 10S 2C 7H 8D 7C 4D 6S 8H")


def test_served_hard_raises_at_a_floor_of_0_78_and_normal_does_not() -> None:
    hard = LEVEL_CONFIGS["hard"]
    assert hard.bid_raise_floor == 0.78
    assert hard.scaled(1000).bid_raise_floor == 0.78
    assert LEVEL_CONFIGS["normal"].bid_raise_floor == 0.0


def test_a_floor_of_zero_is_exactly_the_search_bid() -> None:
    off = replace(LEVEL_CONFIGS["hard"], bid_raise_floor=0.0)
    for hand in (HAND, STRONG, RAISED):
        view = bid_view(*hand)
        know = read_knowledge(view)
        rng, twin = random.Random(4), random.Random(4)
        assert raised_bid(view, know, rng, off) == search_bid(view, know, twin, off)
        assert rng.random() == twin.random()  # the same draws were taken


def test_best_bid_is_the_lowest_of_the_best_worth() -> None:
    assert best_bid({0: -5.0, 1: 2.0, 2: 3.0, 3: 3.0 + 1e-12, 4: 1.0}) == 2
    assert best_bid({1: 1.0, 2: 1.0 + 1e-6}) == 2
    assert best_bid({}) == 1


def test_the_raise_is_taken_only_above_its_floor() -> None:
    hard = LEVEL_CONFIGS["hard"]
    view = bid_view(*HAND)
    know = read_knowledge(view)
    draws = bid_draws(view, know, random.Random(4), hard)
    assert search_bid(view, know, random.Random(4), hard) == 3
    chance = bid_make_chance(draws, 4, hard)
    assert 0.6 < chance < 0.8
    assert bid_make_chance(draws, 3, hard) > chance
    low = replace(hard, bid_raise_floor=0.6)
    high = replace(hard, bid_raise_floor=0.8)
    assert raised_bid(view, know, random.Random(4), low) == 4
    assert raised_bid(view, know, random.Random(4), high) == 3
    assert low.scaled(1000).bid_raise_floor == 0.6


def test_the_bot_routes_its_bid_through_the_raise() -> None:
    view = bid_view(*HAND)
    served = Bot("hard", seed=4)
    raising = Bot("hard", seed=4)
    assert raising.config is not None
    raising.config = replace(raising.config, bid_raise_floor=0.6)
    assert served.choose(view) == Bid(3)  # 4 is made about 0.71 of the time: below 0.78
    assert raising.choose(view) == Bid(4)


def test_served_hard_bids_the_raise_where_it_is_safe() -> None:
    view = bid_view(*RAISED)
    know = read_knowledge(view)
    hard = LEVEL_CONFIGS["hard"]
    draws = bid_draws(view, know, random.Random(4), hard)
    assert search_bid(view, know, random.Random(4), hard) == 6
    assert bid_make_chance(draws, 7, hard) >= 0.78
    assert Bot("hard", seed=4).choose(view) == Bid(7)
    unraised = Bot("hard", seed=4)
    assert unraised.config is not None
    unraised.config = replace(unraised.config, bid_raise_floor=0.0)
    assert unraised.choose(view) == Bid(6)


def test_make_chance_of_a_nil_and_of_no_draws() -> None:
    config = replace(LEVEL_CONFIGS["hard"], bid_spread=0.0, bid_shift=0.0)
    draws = Counter({(5, 0, 4): 3, (6, 1, 4): 1})
    assert bid_make_chance(draws, 0, config) == 0.75
    assert bid_make_chance(draws, 6, config) == 0.25
    assert bid_make_chance(Counter(), 3, config) == 0.0
    assert RAISE_STEP == 0.25
