"""Determinised search for the ``normal`` and ``hard`` levels.

Card play (:func:`search_play`) is perfect-information Monte Carlo: draw the opponent's
hidden hand many times from what the seat knows (the cards it has not seen, drawn as a
drafted hand, without the suits the opponent has shown void in, and weighted by how well
the hand fits the opponent's bid; at ``hard`` most draws also leave out the cards the
opponent's follows rule out, see :func:`follow_exclusions`, and every draw is weighted
by how likely the opponent's follows were with it, see :func:`opponent_play_weight`),
and score every distinct legal card on each draw by playing the hand out (at ``hard``
half of the draws value every card and the rest only the two best so far, ``focus``);
the card with the best average worth is played (the cheapest among equals). At
``hard`` (``tree_iterations``) the same draws feed one search tree over the seat's
information sets instead (:mod:`engine.bot.tree`), except while a nil is live. The playout
is the greedy policy of :mod:`engine.fast`, its last few tricks solved exactly
(``rollout_exact``); at ``hard``, once at most ``endgame_tricks`` tricks are left, every
draw is solved exactly by alpha-beta instead. The worth of a finished hand is the
score-aware utility of :mod:`engine.bot.evaluate` (an estimate of the chance to win the
game), so bags, nil bids and the target are weighed as the score stands. The exact
solves of one decision share a node budget (``node_budget``), so its worst case is
bounded.

Bidding (:func:`search_bid`) plays each drawn deal out twice: once with both seats taking
what they can, once with the bot ducking every trick (a nil) against an opponent trying
to hand it one. Each deal's trick count is spread by :func:`play_noise` (real play
varies more than one full-information playout) and the bid with the best expected worth
over the draws is chosen.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterator

from engine.bot.config import MIN_SAMPLES as _MIN_SAMPLES
from engine.bot.config import SearchConfig
from engine.bot.endgame import draw_worlds, infoset_values
from engine.bot.evaluate import game_worth, hand_points, modes_table, utility_table
from engine.bot.inference import (
    combined_likelihood,
    follow_exclusions,
    narrowed_knowledge,
    opponent_bid_weight,
    opponent_lead_weight,
    opponent_play_weight,
)
from engine.bot.knowledge import Knowledge, sample_hand
from engine.bot.tree import tree_card
from engine.cards import ALL_CARDS_MASK, CARDS, SUIT_MASKS, Card
from engine.fast import greedy_card, greedy_playout, solve_bounded
from engine.game import PlayerView, legal_play_mask, trick_winner

__all__ = [
    "SearchConfig",
    "best_bid",
    "bid_deals",
    "bid_draws",
    "bid_values",
    "bid_worth",
    "deal_sampler",
    "distinct_moves",
    "follow_exclusions",
    "opponent_bid_weight",
    "opponent_nil",
    "opponent_play_weight",
    "play_noise",
    "search_bid",
    "search_play",
]

_LATE_SET_DISCOUNT = 0.3
_NIL_SHED_MARGIN = 0.002
"""Worth (about a point of score early in a game) within which a live nil's follows count
as equal, so the highest of them is shed."""
_FINALISTS = 2


_TRUST_FOLLOWS = 0.85
"""Share of sampled deals drawn with the inferences from the opponent's follows (the rest
are drawn without, in case the opponent played otherwise than expected)."""


def distinct_moves(legal: int, separators: int) -> list[int]:
    """One card (the lowest) of each run of legal cards that no card of ``separators``
    splits: two such cards are worth the same in any play."""
    moves = []
    for suit_mask in SUIT_MASKS:
        part = legal & suit_mask
        while part:
            low = (part & -part).bit_length() - 1
            moves.append(low)
            above = separators & suit_mask & ~((1 << (low + 1)) - 1)
            if not above:
                break
            part &= ~((1 << ((above & -above).bit_length() - 1)) - 1)
    return moves


def search_play(
    view: PlayerView,
    know: Knowledge,
    rng: random.Random,
    config: SearchConfig,
    nodes: list[int] | None = None,
) -> Card:
    """The card with the best average worth over sampled deals.

    ``nodes``, if given, gets the count of exact-solver nodes this decision searched
    added to its first item (at most ``config.node_budget``).
    """
    me, opp = know.me, know.opp
    hand = know.hand
    lead_suit = view.lead_suit
    legal = legal_play_mask(hand, lead_suit, view.spades_broken)
    if legal & (legal - 1) == 0:
        return CARDS[legal.bit_length() - 1]
    trick_card = int(view.current_trick[0]) if view.current_trick else -1
    separators = ALL_CARDS_MASK & ~hand & ~know.played
    if trick_card >= 0:
        separators |= 1 << trick_card
    moves = distinct_moves(legal, separators)
    if len(moves) == 1:
        return CARDS[moves[0]]
    blind = (bool(view.blind_nil[me]), bool(view.blind_nil[opp]))
    bids = (view.bids[me], view.bids[opp])
    scores = (view.scores[me], view.scores[opp])
    bags = (view.bags[me], view.bags[opp])
    # in the fast layer the bot is seat 0
    won0 = view.tricks_won[me]
    won1 = view.tricks_won[opp]
    util = utility_table(view.rules, scores, bags, bids, blind, 0, config.play_bag_share)
    modes = modes_table(bids, config.chase)
    broken = view.spades_broken
    draw = deal_sampler(view, know, rng, config)
    # while a nil is live, flat sampling with its nil rules below plays (it covers and
    # hunts a nil as the tests of tests/bot/test_nil.py ask; the tree does not yet)
    own_nil_live = (blind[0] or bids[0] == 0) and won0 == 0
    # A live nil of the opponent: rollouts (which see every card) set it too easily later,
    # so a set that only happens later counts at a discount against one made now.
    opp_nil_live = (blind[1] or bids[1] == 0) and won1 == 0
    if config.tree_iterations > 0 and not (own_nil_live or opp_nil_live):
        pool = min(config.max_samples, config.tree_iterations)
        won = (won0, won1)
        move = tree_card(
            hand, trick_card, broken, won, modes, util, draw, rng, config.tree_iterations, pool
        )
        return CARDS[move]
    left = hand.bit_count()  # tricks left including the current one
    exact = left <= config.endgame_tricks
    budget = config.endgame_solves if exact else config.playouts
    samples = min(config.max_samples, max(_MIN_SAMPLES, budget // len(moves)))
    stop = config.rollout_exact
    fog = config.fog
    opp_fog = know.pile_seen if fog else 0
    totals = [0.0] * len(moves)
    # focus: half the deals value every card, the rest of the effort goes to the two best
    # cards so far (the close decision between them is where more deals pay)
    first_rounds = second_rounds = 0
    if config.focus and len(moves) > _FINALISTS:
        first_rounds = max(_MIN_SAMPLES, samples // 2)
        spare = samples * len(moves) - first_rounds * len(moves)
        second_rounds = min(2 * config.max_samples, max(1, spare // _FINALISTS))
    # the node budget is shared out in order: each solve may use what is left divided by
    # the solves still to come (so early cheap solves leave more to later ones)
    unbounded = config.node_budget is None
    left_budget = config.node_budget or 0
    if first_rounds:
        solves_left = first_rounds * len(moves) + second_rounds * _FINALISTS
    else:
        solves_left = samples * len(moves)
    used = 0

    def bounded(h0: int, h1: int, lead: int, card: int, now_broken: bool, won: int) -> float:
        nonlocal left_budget, solves_left, used
        if unbounded:
            value, count = solve_bounded(h0, h1, lead, card, now_broken, won, util, 1 << 62)
        else:
            allowance = max(1, left_budget // max(1, solves_left))
            value, count = solve_bounded(h0, h1, lead, card, now_broken, won, util, allowance)
            left_budget -= count
        solves_left -= 1
        used += count
        return value

    counts = [0] * len(moves)

    def run(rounds: int, active: list[int]) -> None:
        """``rounds`` sampled deals, each valued for the moves of ``active``."""
        for _ in range(rounds):
            other = draw()
            for index in active:
                totals[index] += value_of(other, moves[index])
                counts[index] += 1

    def value_of(other: int, move: int) -> float:
        nonlocal solves_left
        mine = hand & ~(1 << move)
        if exact:
            if trick_card < 0:
                return bounded(mine, other, 0, move, broken, won0)
            winner = trick_winner(1, trick_card, move)
            now_broken = broken or move // 13 == 3 or trick_card // 13 == 3
            return bounded(mine, other, winner, -1, now_broken, won0 + (winner == 0))
        if trick_card < 0:
            mode = modes[won0 * 14 + won1]
            reply = greedy_card(other, mine, move, broken, bool(mode & 2), bool(mode & 1))
            theirs = other & ~(1 << reply)
            winner = trick_winner(0, move, reply)
            now_broken = broken or move // 13 == 3 or reply // 13 == 3
        else:
            theirs = other
            winner = trick_winner(1, trick_card, move)
            now_broken = broken or move // 13 == 3 or trick_card // 13 == 3
        final, their_won, h0, h1, lead, end_broken = greedy_playout(
            mine,
            theirs,
            winner,
            -1,
            now_broken,
            won0 + (winner == 0),
            won1 + (winner == 1),
            modes,
            stop,
            (know.unseen & ~other) if fog else 0,
            opp_fog,
        )
        if h0:
            value = bounded(h0, h1, lead, -1, end_broken, final)
        else:
            solves_left -= 1
            value = util[final]
        if opp_nil_live and winner == 0 and their_won:
            value = (1.0 - _LATE_SET_DISCOUNT) * value + _LATE_SET_DISCOUNT * util[13]
        return value

    everything = list(range(len(moves)))
    if left <= config.infoset_tricks:
        worlds = draw_worlds(draw, samples)
        totals = infoset_values(hand, moves, trick_card, broken, won0, worlds, util)
        counts = [samples] * len(moves)
    elif first_rounds:
        run(first_rounds, everything)
        ranked = sorted(everything, key=lambda i: -totals[i])
        run(second_rounds, ranked[:_FINALISTS])
    else:
        run(samples, everything)
    if nodes is not None:
        nodes[0] += used
    means = [totals[i] / counts[i] for i in everything]
    best = max(everything, key=lambda i: (counts[i], means[i], -(moves[i] % 13)))
    if trick_card >= 0 and own_nil_live:
        # a live nil following: among cards about as good (sampling noise apart; the cards
        # left out of ``focus``'s final too) shed the highest, the likeliest to win later
        near = max(means) - _NIL_SHED_MARGIN
        high = max(
            (i for i in everything if means[i] >= near),
            key=lambda i: (moves[i] % 13, moves[i] // 13 != 3),
        )
        return CARDS[moves[high]]
    # among near-equal cards (as well sampled as the best) the cheapest (rank, not spade)
    threshold = means[best] - 1e-6
    cheap = min(
        (i for i in everything if counts[i] == counts[best] and means[i] >= threshold),
        key=lambda i: (moves[i] % 13, moves[i] // 13 == 3),
    )
    return CARDS[moves[cheap]]


def deal_sampler(
    view: PlayerView, know: Knowledge, rng: random.Random, config: SearchConfig
) -> Callable[[], int]:
    """A function drawing one opponent hand for card play from ``rng``: weighted by how
    well it fits the opponent's bid and, with ``config.play_inference``, by how likely
    its follows and leads were, most draws leaving out what its follows rule out
    (:data:`_TRUST_FOLLOWS`). Raises nothing."""
    weight = opponent_bid_weight(view, know)
    narrowed = None
    if config.play_inference:
        narrowed = narrowed_knowledge(view, know)
        weight = combined_likelihood(weight, opponent_play_weight(view, know))
        leads = opponent_lead_weight(view, know, config.lead_mismatch)
        weight = combined_likelihood(weight, leads)

    def draw() -> int:
        source = narrowed if narrowed is not None and rng.random() < _TRUST_FOLLOWS else know
        return sample_hand(source, rng, weight, tries=6)

    return draw


def play_noise(
    sigma: float, shift: float = 0.0, reach: int | None = None
) -> tuple[tuple[int, float], ...]:
    """A discrete normal kernel ``((offset, weight), ...)`` over ``-reach..reach`` tricks
    (by default three standard deviations, at least 3), centred on ``shift``.

    Added to each sampled deal's trick count when bidding: the playout sees both hands
    and plays one fixed policy, so its counts spread less than real play does (and run a
    little high). ``sigma <= 0`` gives no spread and no shift.
    """
    if sigma <= 0.0:
        return ((0, 1.0),)
    if reach is None:
        reach = max(3, math.ceil(3.0 * sigma))
    raw = [
        (k, math.exp(-(k - shift) * (k - shift) / (2.0 * sigma * sigma)))
        for k in range(-reach, reach + 1)
    ]
    norm = sum(weight for _, weight in raw)
    return tuple((k, weight / norm) for k, weight in raw)


def opponent_nil(view: PlayerView, know: Knowledge) -> bool:
    """The opponent has bid nil or declared blind nil."""
    return bool(view.blind_nil[know.opp]) or view.bids[know.opp] == 0


def bid_deals(
    view: PlayerView, know: Knowledge, rng: random.Random, config: SearchConfig, samples: int
) -> Iterator[tuple[int, int, Callable[[list[int]], int]]]:
    """``samples`` (at least 1) sampled deals for the bid, each as ``(natural, guess,
    play_out)``: the tricks the seat takes when both seats take what they can, the
    opponent's bid (known, or guessed from ``natural``) and ``play_out(modes)``, the
    seat's tricks on the same deal under other moods (:func:`modes_table`). Draws one
    opponent hand from ``rng`` per deal, weighed by its bid; shared by
    :func:`bid_draws` and :mod:`engine.bot.bid_playout`. Raises nothing."""
    opp_bid = view.bids[know.opp]
    opp_known = bool(view.blind_nil[know.opp]) or opp_bid is not None
    opp_nil = opponent_nil(view, know)
    leader = 0 if view.first_bidder == know.me else 1
    weight = opponent_bid_weight(view, know)
    natural_modes = modes_table((13, 0 if opp_nil else 13))
    opp_fog = know.pile_seen if config.fog else 0
    hand = know.hand
    for _ in range(max(1, samples)):
        other = sample_hand(know, rng, weight, tries=8)
        fog = (know.unseen & ~other) if config.fog else 0

        def play_out(modes: list[int], other: int = other, fog: int = fog) -> int:
            return greedy_playout(hand, other, leader, -1, False, 0, 0, modes, 0, fog, opp_fog)[0]

        natural = play_out(natural_modes)
        guess = max(1, 13 - natural - 1)
        if opp_known:
            guess = 0 if opp_nil else int(opp_bid or 0)
        yield natural, guess, play_out


def bid_draws(
    view: PlayerView, know: Knowledge, rng: random.Random, config: SearchConfig
) -> Counter[tuple[int, int, int]]:
    """Sampled deals for the bid (:func:`bid_deals`), counted by ``(natural, nil,
    guess)``: the tricks the seat takes when both seats take what they can, the tricks it
    takes ducking every trick (a nil), and the opponent's bid (known, or guessed)."""
    nil_modes = modes_table((0, 0 if opponent_nil(view, know) else 13))
    draws: Counter[tuple[int, int, int]] = Counter()
    for natural, guess, play_out in bid_deals(view, know, rng, config, config.bid_samples):
        nil = play_out(nil_modes) if view.rules.nil else natural
        draws[(natural, nil, guess)] += 1
    return draws


def bid_worth(
    view: PlayerView, know: Knowledge, config: SearchConfig
) -> Callable[[int, int, int], float]:
    """``worth(bid, taken, guess)``: the score-aware worth to the bot
    (:func:`engine.bot.evaluate.game_worth`, bags charged by ``config.bid_bag_share``) of
    bidding ``bid`` (0 is nil) and taking ``taken`` tricks (clamped to 0..13) while the
    opponent bids ``guess``. Memoised per call; shared by :func:`bid_values` and
    :mod:`engine.bot.bid_playout`. Raises nothing."""
    me, opp = know.me, know.opp
    rules = view.rules
    opp_blind = bool(view.blind_nil[opp])
    scores = (view.scores[me], view.scores[opp])
    bags = (view.bags[me], view.bags[opp])
    blind = (False, opp_blind)
    cache: dict[tuple[int, int, int], float] = {}

    def worth(bid: int, taken: int, guess: int) -> float:
        taken = 0 if taken < 0 else 13 if taken > 13 else taken
        key = (bid, taken, guess)
        value = cache.get(key)
        if value is None:
            opp_bid_value: int | None = None if opp_blind else guess
            points, after = hand_points(
                rules, (bid, opp_bid_value), blind, (taken, 13 - taken), bags
            )
            new_scores = (scores[0] + points[0], scores[1] + points[1])
            value = game_worth(rules, new_scores, after, 0, bag_share=config.bid_bag_share)
            cache[key] = value
        return value

    return worth


def bid_values(
    view: PlayerView,
    know: Knowledge,
    draws: Counter[tuple[int, int, int]],
    config: SearchConfig,
) -> dict[int, float]:
    """Per legal bid (0 is nil), its expected worth over ``draws`` (see :func:`bid_draws`),
    each deal's natural trick count spread by :func:`play_noise`."""
    noise = play_noise(config.bid_spread, config.bid_shift)
    worth = bid_worth(view, know, config)
    values: dict[int, float] = {}
    for bid in range(0 if view.rules.nil else 1, 14):
        total = 0.0
        for (natural, nil, guess), count in draws.items():
            if bid == 0:
                total += count * worth(0, nil, guess)
            else:
                total += count * sum(w * worth(bid, natural + k, guess) for k, w in noise)
        values[bid] = total
    return values


def search_bid(
    view: PlayerView,
    know: Knowledge,
    rng: random.Random,
    config: SearchConfig,
) -> int:
    """The bid (0 is nil) with the best expected worth over sampled deals.

    Each sampled deal is played out twice (:func:`bid_draws`): both seats taking what
    they can (the trick count, spread by :func:`play_noise` with ``config.bid_spread``)
    and the bot ducking every trick against an opponent trying to hand it one (a nil).
    The worth of a bid (:func:`bid_values`) is the score-aware
    :func:`engine.bot.evaluate.game_worth` of the hand's outcome, so the cost of a set,
    of bags and the target are all weighed.
    """
    return best_bid(bid_values(view, know, bid_draws(view, know, rng, config), config))


def best_bid(values: dict[int, float]) -> int:
    """The bid of the best worth in ``values`` (as :func:`bid_values` gives them), the
    first in order (the lowest) where worths tie within 1e-9; 1 when ``values`` is
    empty. Shared by :func:`search_bid` and :func:`engine.bot.bid_raise.raised_bid`.
    Raises nothing."""
    best, best_value = 1, float("-inf")
    for bid, value in values.items():
        if value > best_value + 1e-9:
            best, best_value = bid, value
    return best
