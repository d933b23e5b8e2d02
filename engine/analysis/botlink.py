"""The one place where the analysis reaches into the bot (:mod:`engine.bot`, :mod:`engine.fast`).

The analysis judges decisions with the bot's own machinery: its reading of a
:class:`~engine.game.PlayerView` into card masks, its sampler of hidden hands, its greedy
playout policy, its exact solver and its draft and exchange heuristics. Every name the
analysis uses from the bot is imported (or wrapped) here, so a change in the bot touches
this module only. Nothing here adds judgement of its own.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.bot.evaluate import modes_table
from engine.bot.heuristics import (
    SAMPLE_WEIGHT,
    best_exchange,
    nil_chance,
    plan_value,
)
from engine.bot.knowledge import Knowledge, read_knowledge, sample_hand
from engine.bot.rules_based import BLIND_NIL_SUCCESS
from engine.bot.search import distinct_moves
from engine.bot.search import opponent_bid_weight as bid_weight
from engine.fast import greedy_card, greedy_playout, solve

__all__ = [
    "BLIND_NIL_SUCCESS",
    "SAMPLE_WEIGHT",
    "Knowledge",
    "best_exchange",
    "bid_weight",
    "distinct_moves",
    "draw_opponent",
    "greedy_card",
    "greedy_playout",
    "modes_table",
    "nil_chance",
    "plan_value",
    "read_knowledge",
    "sample_hand",
    "solve",
]


def draw_opponent(
    know: Knowledge,
    rng: random.Random,
    weight: Callable[[int], float] | None,
) -> int:
    """One opponent hand consistent with ``know`` (the bot's sampler, bid-weighted)."""
    return sample_hand(know, rng, weight, tries=6)
