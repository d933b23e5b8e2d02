"""The draft by search, for the ``hard`` level: keep or discard by playing sampled hands out.

    keep = search_draft(view, rng, samples=160)     # True: keep the card on offer

A draft turn trades the card on offer for the next stock card, which the seat has not
seen (discard), or keeps it (keep). Each sample draws that next card, the cards the seat
will still draft and the opponent's hand (a drafted hand: high cards and spades likelier),
and plays the hand out twice with the greedy full-information policy of
:mod:`engine.fast`: once holding the card on offer, once the next card. The rest of the
deal is the same in both (common random numbers), so the difference between them is
measured with little noise. A hand is worth ten points a trick, or, when nil is allowed
and it looks like a nil hand, the nil bonus won or lost by a ducking playout against an
opponent trying to set it; each choice takes the plan that is worth more on average.

The two plans draw the cards still to come differently, as the seat would draft them
under each plan: for tricks as a trick-taker keeps them (:func:`pick_drafted`), for nil as
a nil drafter does (:func:`draw_nil_draft`: keep the card on offer when it is low, else
take the next one). Drawn the trick-taker's way, the cards to come bring the high cards
a nil drafter would have passed, and a nil almost never survived its probe.

A seat that declared blind nil, or whose opponent did, drafts with the shared heuristic
(:func:`engine.bot.rules_based.choose_draft`), which is built for those cases.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from engine.bot.evaluate import modes_table
from engine.bot.heuristics import quick_nil
from engine.bot.knowledge import pick_drafted
from engine.bot.search import play_noise
from engine.cards import ALL_CARDS_MASK, card_mask
from engine.fast import greedy_playout
from engine.game import PlayerView
from engine.rules import RuleSet

__all__ = ["NIL_SAFE_RANK", "bid_worth", "draw_nil_draft", "search_draft", "search_nil_draft"]

_NIL_PROBE = 24
"""Samples that also try a nil before nil is dropped for hands that never survived one."""
_NIL_HOPE = 0.01
"""Below this :func:`~engine.bot.heuristics.quick_nil` chance neither choice tries nil."""
NIL_SAFE_RANK = 6
"""A nil drafter keeps a side card on offer of at most this rank index (0 is a deuce, 6 an
eight) and a spade of at most half of it; it passes higher cards for the next one."""


def draw_nil_draft(pool: int, count: int, rng: random.Random) -> int:
    """``count`` cards of ``pool`` as a nil drafter would draft them (a mask).

    Each turn sees a card on offer drawn from ``pool`` and keeps it when it is low (see
    :data:`NIL_SAFE_RANK`), else passes it and takes the next card, drawn from ``pool``
    too, whatever it is.
    """
    cards = [card for card in range(52) if pool >> card & 1]
    chosen = 0
    for _ in range(min(count, len(cards))):
        index = rng.randrange(len(cards))
        offered = cards[index]
        rank = offered % 13
        low = rank <= NIL_SAFE_RANK // 2 if offered >= 39 else rank <= NIL_SAFE_RANK
        if not low and len(cards) > 1:
            cards[index] = cards[-1]
            cards.pop()  # passed to the pile
            index = rng.randrange(len(cards))
        chosen |= 1 << cards[index]
        cards[index] = cards[-1]
        cards.pop()
    return chosen


class _DraftTurn(NamedTuple):
    offered_bit: int  # the card on offer
    hand: int  # the cards kept so far
    unseen: int  # every card the seat has not seen
    cards_to_come: int  # draft turns of the seat after this one
    leader: int  # 0: the seat leads the first trick
    unseen_cards: list[int]


def _draft_turn(view: PlayerView) -> _DraftTurn | None:
    """What the draft searches read of a draft turn of ``view``'s seat; ``None`` when
    there is nothing to search (no card on offer, or none left unseen): keep the card."""
    me = view.seat if view.seat is not None else 0
    offered = view.offered
    if offered is None:
        return None
    offered_bit = 1 << int(offered)
    hand = view.hand_mask
    seen = hand | card_mask(view.draft_discarded) | card_mask(view.draft_seen_after_keep)
    unseen = ALL_CARDS_MASK & ~seen & ~offered_bit
    if not unseen:
        return None
    return _DraftTurn(
        offered_bit,
        hand,
        unseen,
        13 - view.draft_turns[me] - 1,
        0 if view.first_bidder == me else 1,
        [card for card in range(52) if unseen >> card & 1],
    )


def search_draft(
    view: PlayerView,
    rng: random.Random,
    samples: int,
    nil_lean: float = 0.0,
    nil_weight: float = 0.0,
) -> bool:
    """Keep the card on offer (``True``) or discard it and take the next one (``False``).

    ``view`` must be a draft turn of its seat (``view.offered`` set). Ties keep the card
    (it is known, the next one is not). With ``nil_lean`` above 0, once the nil plan's
    survival chance reaches it (for either choice) the choice a nil survives more often
    is taken: the hand leans to nil, and the bid will weigh nil against tricks. With
    ``nil_weight`` above 0 each choice is worth its mean trick points plus ``nil_weight``
    times the share of draws its nil plan survives (a soft lean: a card that raises the
    nil's chance a little is not worth a trick given up).
    """
    turn = _draft_turn(view)
    if turn is None:
        return True
    offered_bit, hand, unseen, cards_to_come, leader, unseen_cards = turn
    rules = view.rules
    natural = modes_table((13, 13))
    nil_modes = modes_table((0, 13))
    try_nil = rules.nil and max(quick_nil(hand | offered_bit), quick_nil(hand)) >= _NIL_HOPE
    keep_counts = [0] * 14
    discard_counts = [0] * 14
    keep_nils = discard_nils = nil_samples = 0
    keep_nil_tricks = discard_nil_tricks = 0
    for index in range(samples):
        next_bit = 1 << rng.choice(unseen_cards)
        rest = unseen & ~next_bit
        future = pick_drafted(rest, cards_to_come, rng)
        opponent = pick_drafted(rest & ~future, 13, rng)
        kept = hand | offered_bit | future
        taken = hand | next_bit | future
        keep_counts[greedy_playout(kept, opponent, leader, -1, False, 0, 0, natural)[0]] += 1
        discard_counts[greedy_playout(taken, opponent, leader, -1, False, 0, 0, natural)[0]] += 1
        if try_nil:
            nil_samples += 1
            nil_future = draw_nil_draft(rest, cards_to_come, rng)
            nil_opponent = pick_drafted(rest & ~nil_future, 13, rng)
            nil_kept = hand | offered_bit | nil_future
            nil_taken = hand | next_bit | nil_future
            keep_nil = greedy_playout(nil_kept, nil_opponent, leader, -1, False, 0, 0, nil_modes)
            discard_nil = greedy_playout(
                nil_taken, nil_opponent, leader, -1, False, 0, 0, nil_modes
            )
            keep_nils += keep_nil[0] == 0
            discard_nils += discard_nil[0] == 0
            keep_nil_tricks += keep_nil[0]
            discard_nil_tricks += discard_nil[0]
            if index + 1 == _NIL_PROBE and not keep_nils and not discard_nils:
                try_nil = False

    def mean_points(counts: list[int]) -> float:
        return 10.0 * sum(tricks * count for tricks, count in enumerate(counts)) / samples

    if nil_samples:
        keep_nil_value = rules.nil_bonus * (2.0 * keep_nils / nil_samples - 1.0)
        discard_nil_value = rules.nil_bonus * (2.0 * discard_nils / nil_samples - 1.0)
        leaning = nil_lean > 0.0 and max(keep_nils, discard_nils) >= nil_lean * nil_samples
        if leaning and keep_nils != discard_nils:
            return keep_nils > discard_nils
        if leaning and keep_nil_tricks != discard_nil_tricks:
            # as often survived: the card a ducking hand takes fewer tricks with
            return keep_nil_tricks < discard_nil_tricks
        keep_bid, discard_bid = bid_worth(keep_counts, rules), bid_worth(discard_counts, rules)
        if keep_nil_value > keep_bid or discard_nil_value > discard_bid:
            # nil is in play: the trick plan is worth what its best bid scores on average
            # (sets included, as the nil's value counts its failures), not ten a trick
            return max(keep_bid, keep_nil_value) >= max(discard_bid, discard_nil_value)
        if nil_weight > 0.0:
            keep_soft = mean_points(keep_counts) + nil_weight * keep_nils / nil_samples
            discard_soft = mean_points(discard_counts) + nil_weight * discard_nils / nil_samples
            return keep_soft >= discard_soft
    return mean_points(keep_counts) >= mean_points(discard_counts)


def search_nil_draft(view: PlayerView, rng: random.Random, samples: int) -> bool | None:
    """For a seat bound to nil (blind nil): keep the card on offer (``True``), take the
    next one (``False``), or ``None`` when the draws do not tell the two apart.

    Each of ``samples`` draws plays both choices out by a ducking playout (the cards to
    come drawn as a nil drafter takes them, the opponent's hand as a drafted hand) and
    counts the draws the nil survives; equal counts are decided by fewer tricks taken.
    """
    turn = _draft_turn(view)
    if turn is None:
        return True
    offered_bit, hand, unseen, cards_to_come, leader, unseen_cards = turn
    nil_modes = modes_table((0, 13))
    # (draws survived, minus tricks taken) per choice: the larger is better
    keep_score = [0, 0]
    discard_score = [0, 0]
    for _ in range(samples):
        next_bit = 1 << rng.choice(unseen_cards)
        rest = unseen & ~next_bit
        future = draw_nil_draft(rest, cards_to_come, rng)
        opponent = pick_drafted(rest & ~future, 13, rng)
        for held, score in ((hand | offered_bit, keep_score), (hand | next_bit, discard_score)):
            tricks = greedy_playout(held | future, opponent, leader, -1, False, 0, 0, nil_modes)[0]
            score[0] += tricks == 0
            score[1] -= tricks
    if keep_score == discard_score:
        return None
    return keep_score > discard_score


_NOISE = play_noise(1.0, -0.25)
"""Real play spreads a playout's trick count (as :func:`engine.bot.search.search_bid`)."""


def bid_worth(counts: list[int], rules: RuleSet) -> float:
    """Expected points of the best trick bid (1..13) over a histogram of sampled trick
    counts (``counts[t]`` samples took ``t`` tricks), each count spread by play noise and
    each bag charged its share of the penalty."""
    total = sum(counts)
    if not total:
        return 0.0
    bag_cost = rules.bag_penalty / rules.bag_limit
    spread = [0.0] * 14
    for tricks, count in enumerate(counts):
        if count:
            for offset, weight in _NOISE:
                spread[min(13, max(0, tricks + offset))] += count * weight
    best = float("-inf")
    for bid in range(1, 14):
        value = 0.0
        for taken, weight in enumerate(spread):
            if weight:
                made = 10.0 * bid + (taken - bid) * (1.0 - bag_cost)
                value += weight * (made if taken >= bid else -10.0 * bid)
        best = max(best, value)
    return best / total
