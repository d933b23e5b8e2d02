"""A bid a quarter trick higher, taken only where it is safe enough (``bid_raise_floor``).

    bid = raised_bid(view, read_knowledge(view), rng, config)   # 0 is nil

The search bid (:func:`engine.bot.search.search_bid`) prices each bid over sampled deals
with a spread kernel centred on ``config.bid_shift``. Centring it a quarter trick higher
raises about one bid in four by a trick: most of those are made (a trick's worth, a bag
fewer), a few are set, and a set costs about ten such gains. :func:`raised_bid` takes the
higher bid only where the calibrated kernel (the served centre) still gives it a make
chance of at least ``config.bid_raise_floor``; elsewhere it bids as the search bid does.
With ``bid_raise_floor`` 0 it is exactly :func:`~engine.bot.search.search_bid` (the same
draws from ``rng``, the same bid; both choose with :func:`~engine.bot.search.best_bid`).
Served ``hard`` bids with a floor of 0.78 (:data:`engine.bot.LEVEL_CONFIGS`). Raises
nothing.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from engine.bot.knowledge import Knowledge
from engine.bot.search import SearchConfig, best_bid, bid_draws, bid_values, play_noise
from engine.game import PlayerView

__all__ = ["RAISE_STEP", "bid_make_chance", "raised_bid", "raised_from"]

RAISE_STEP = 0.25
"""How far (in tricks) the raised kernel's centre sits above ``config.bid_shift``."""


def bid_make_chance(draws: Counter[tuple[int, int, int]], bid: int, config: SearchConfig) -> float:
    """The chance the bid model of ``config`` gives ``bid`` (0: nil) of being made over
    ``draws`` (see :func:`engine.bot.search.bid_draws`); 0.0 for no draws."""
    noise = play_noise(config.bid_spread, config.bid_shift)
    total = sum(draws.values())
    if total <= 0:
        return 0.0
    made = 0.0
    for (natural, nil, _), count in draws.items():
        if bid == 0:
            made += count * (nil == 0)
        else:
            made += count * sum(w for k, w in noise if natural + k >= bid)
    return made / total


def raised_bid(view: PlayerView, know: Knowledge, rng: random.Random, config: SearchConfig) -> int:
    """The search bid, or the bid of the kernel centred :data:`RAISE_STEP` higher where
    that one is higher, not nil, and made at least ``config.bid_raise_floor`` of the
    time by ``config``'s own kernel (:func:`bid_make_chance`)."""
    draws = bid_draws(view, know, rng, config)
    return raised_from(view, know, draws, bid_values(view, know, draws, config), config)


def raised_from(
    view: PlayerView,
    know: Knowledge,
    draws: Counter[tuple[int, int, int]],
    values: dict[int, float],
    config: SearchConfig,
) -> int:
    """:func:`raised_bid` from its draws and their served ``values`` (``bid_values`` of
    ``draws`` with ``config``): the served best bid, raised as :func:`raised_bid` says.
    Draws nothing; raises nothing."""
    served = best_bid(values)
    if config.bid_raise_floor <= 0.0 or served == 0:
        return served
    up = replace(config, bid_shift=config.bid_shift + RAISE_STEP)
    higher = best_bid(bid_values(view, know, draws, up))
    if higher > served and bid_make_chance(draws, higher, config) >= config.bid_raise_floor:
        return higher
    return served
