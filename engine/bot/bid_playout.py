"""The top bids re-priced by playing sampled deals out under them (``bid_playout_top``).

    bid = playout_bid(view, read_knowledge(view), rng, config)   # 0 is nil

The served bid (:func:`engine.bot.search.search_bid`, raised by
:func:`engine.bot.bid_raise.raised_from`) prices every bid from one playout per sampled
deal in which both seats take every trick they can. Real play differs once a bid is
made: the seat that made its bid ducks (bags) or chases the other's set, by
:func:`engine.bot.evaluate.modes_table` of the two bids. With
``config.bid_playout_top`` K above 0, :func:`playout_bid` takes the K trick bids of the best
served worth and the served choice (:func:`bid_candidates`; a served nil stays: the
served nil is already priced by a ducking playout), draws a further
``config.bid_samples // SUBSET_SHARE`` deals of the same kind (:func:`playout_draws`)
and plays each deal out once as served (both seats taking everything: the opponent's
guessed bid and the seat's strength) and once per candidate with the moods of that bid
against the opponent's bid (known, or guessed as :func:`engine.bot.search.bid_draws`
guesses it). Each candidate's count is spread by the served kernel's spread and valued
with the same :func:`engine.bot.evaluate.game_worth` (:func:`playout_values`); the best candidate
is bid.

The kernel (centre ``bid_shift``, spread ``bid_spread``) was calibrated on the
take-everything count: it models how far real play falls short of a full-information
playout in taking tricks. A bid-conditioned count bunches on the bid (the seat ducks
once it is made), and that bunching is play, not strength: spreading a count of exactly
the bid by the kernel would set about 40% of the bids the seat made with tricks to
spare. So :func:`conditioned_taken` spreads the seat's *strength* for made or set (the
conditioned count where the playout set the bid; otherwise the higher of it and the
take-everything count) and, where the spread strength still makes the bid, its tricks
are the conditioned count spread by the same offset, never below the bid. Where the two
counts agree this is the served pricing. That strength runs higher than the
take-everything count, so the kernel is centred :data:`RECENTRE` lower, which keeps the
served bid's average make chance where the calibration put it.

The further deals come from :func:`side_rng`, so the bot's own stream moves exactly
as served: with K = 0, or wherever the re-pricing keeps the served bid, every decision
is the served one. Raises nothing.
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter

from engine.bot.bid_raise import raised_from
from engine.bot.config import MIN_SAMPLES, SearchConfig
from engine.bot.evaluate import modes_table
from engine.bot.knowledge import Knowledge
from engine.bot.search import (
    best_bid,
    bid_deals,
    bid_draws,
    bid_values,
    bid_worth,
    play_noise,
)
from engine.game import PlayerView

__all__ = [
    "RECENTRE",
    "SUBSET_SHARE",
    "bid_candidates",
    "conditioned_taken",
    "playout_bid",
    "playout_draws",
    "playout_values",
    "side_rng",
]

SUBSET_SHARE = 3
"""The re-pricing plays out ``bid_samples // SUBSET_SHARE`` further deals."""

RECENTRE = -0.25
"""Tricks added to the kernel's centre (``bid_shift``) for the conditioned count: the
strength it spreads runs higher than the take-everything count the centre was fitted to
(mostly the tricks a known low-bidding opponent hands over once its bid is made), so the
served centre would give the served bid a make chance about 4 points above the
calibrated one; a quarter trick lower gives it about the same (600 sampled deals of 60
random bid views, two seeds; docs/bot-rounds.md, "Tenth round")."""

PlayoutDraws = Counter[tuple[int, int, tuple[int, ...]]]
"""Sampled deals counted by ``(natural, guess, counts)``: the take-everything count, the
opponent's bid (known or guessed) and the seat's tricks under each candidate bid."""


def bid_candidates(values: dict[int, float], served: int, top: int) -> list[int]:
    """The ``top`` trick bids of the best worth in ``values`` (the lower first among
    equals) and ``served``, in increasing order; nil is a candidate only as ``served``.
    Raises nothing."""
    tricks = [bid for bid in values if bid > 0]
    ranked = sorted(tricks, key=lambda bid: (-values[bid], bid))[: max(0, top)]
    return sorted({*ranked, served})


def playout_draws(
    view: PlayerView,
    know: Knowledge,
    rng: random.Random,
    config: SearchConfig,
    bids: list[int],
    samples: int,
) -> PlayoutDraws:
    """``samples`` deals drawn as :func:`engine.bot.search.bid_draws` draws them, each
    played out once with both seats taking everything and once per bid of ``bids`` with
    the moods of that bid against the opponent's (see :data:`PlayoutDraws`)."""
    opp_blind = bool(view.blind_nil[know.opp])
    tables: dict[tuple[int, int], list[int]] = {}
    draws: PlayoutDraws = Counter()
    for natural, guess, play_out in bid_deals(view, know, rng, config, samples):
        counts = []
        for bid in bids:
            modes = tables.get((bid, guess))
            if modes is None:
                modes = modes_table((bid, None if opp_blind else guess), config.chase)
                tables[(bid, guess)] = modes
            counts.append(play_out(modes))
        draws[(natural, guess, tuple(counts))] += 1
    return draws


def conditioned_taken(bid: int, natural: int, count: int, offset: int) -> int:
    """The tricks a trick bid ``bid`` takes in real play, ``offset`` tricks (a draw of
    the kernel) from a deal whose take-everything count is ``natural`` and whose count
    under the bid is ``count``: set by the spread strength, else the conditioned count
    spread alike, at least the bid. Equal to ``natural + offset`` where the two counts
    agree. Raises nothing."""
    strength = max(natural, count) if count >= bid else count
    if strength + offset < bid:
        return strength + offset
    return max(bid, count + offset)


def playout_values(
    view: PlayerView,
    know: Knowledge,
    draws: PlayoutDraws,
    bids: list[int],
    config: SearchConfig,
) -> dict[int, float]:
    """Per bid of ``bids``, its expected worth over ``draws`` (:func:`playout_draws` with
    the same ``bids``): a nil by its ducked count, a trick bid by
    :func:`conditioned_taken` under :func:`engine.bot.search.play_noise` (centred
    :data:`RECENTRE` below ``config.bid_shift``), each outcome
    valued as :func:`engine.bot.search.bid_values` values it."""
    noise = play_noise(config.bid_spread, config.bid_shift + RECENTRE)
    worth = bid_worth(view, know, config)
    values: dict[int, float] = {}
    for index, bid in enumerate(bids):
        total = 0.0
        for (natural, guess, counts), many in draws.items():
            count = counts[index]
            if bid == 0:
                total += many * worth(0, count, guess)
            else:
                total += many * sum(
                    w * worth(bid, conditioned_taken(bid, natural, count, k), guess)
                    for k, w in noise
                )
        values[bid] = total
    return values


def playout_bid(view: PlayerView, know: Knowledge, rng: random.Random, config: SearchConfig) -> int:
    """The served bid (:func:`engine.bot.bid_raise.raised_from` of the served draws), or
    with ``config.bid_playout_top`` above 0 the best of :func:`bid_candidates` re-priced
    by :func:`playout_values` on :func:`playout_draws` (``bid_samples //``
    :data:`SUBSET_SHARE` further deals, at least :data:`~engine.bot.config.MIN_SAMPLES`,
    drawn from :func:`side_rng`)."""
    draws = bid_draws(view, know, rng, config)
    values = bid_values(view, know, draws, config)
    served = raised_from(view, know, draws, values, config)
    if config.bid_playout_top <= 0 or served == 0:
        return served
    bids = bid_candidates(values, served, config.bid_playout_top)
    if len(bids) == 1:
        return served
    samples = max(MIN_SAMPLES, config.bid_samples // SUBSET_SHARE)
    draws_rng = side_rng(rng)
    repriced = playout_values(
        view, know, playout_draws(view, know, draws_rng, config, bids, samples), bids, config
    )
    return best_bid(repriced)


def side_rng(rng: random.Random) -> random.Random:
    """A generator seeded by ``rng``'s state, leaving ``rng`` where it was: the
    re-pricing's deals do not move the bot's own stream, so its later decisions are the
    served ones wherever the bid is. Raises nothing."""
    digest = hashlib.sha256(repr(rng.getstate()).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))
