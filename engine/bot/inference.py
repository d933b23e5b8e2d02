"""What the opponent's bid and follows say about its hidden hand, for the search.

    weight = opponent_bid_weight(view, know)      # hand mask -> likelihood, or None
    narrowed = narrowed_knowledge(view, know)     # Knowledge without ruled-out cards

:func:`follow_exclusions` reads which cards the opponent's follows to the bot's leads rule
out; :func:`opponent_play_weight` weighs a drawn hand by how likely those follows were
with it; :func:`opponent_bid_weight` by how likely its bid was. The search of
:mod:`engine.bot.search` draws deals with them. Nothing here raises.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine.bot.evaluate import modes_table
from engine.bot.heuristics import bid_likelihood
from engine.bot.knowledge import Knowledge
from engine.cards import ALL_CARDS_MASK, SPADES, SUIT_MASKS
from engine.fast import greedy_card
from engine.game import PlayerView

__all__ = [
    "combined_likelihood",
    "follow_exclusions",
    "narrowed_knowledge",
    "opponent_bid_weight",
    "opponent_lead_weight",
    "opponent_play_weight",
]


def follow_exclusions(view: PlayerView, know: Knowledge) -> int:
    """Cards the opponent most likely does not hold, judging by its follows to the bot's
    leads (a mask of cards still unseen).

    When it followed suit and lost a trick it wanted, it held no higher card of the suit
    (it would have won cheaply); when it followed suit and won a trick it did not want
    (ducking: its own nil, bags, or setting the bot's nil), it held no lower card. Its
    mood is the greedy policy's for the bids and the trick score at that trick.
    """
    me, opp = know.me, know.opp
    my_bid = view.bids[me]
    opp_bid = view.bids[opp]
    if view.blind_nil[me]:
        my_bid = 0
    if view.blind_nil[opp]:
        opp_bid = 0
    if my_bid is None or opp_bid is None:
        return 0
    modes = modes_table((my_bid, opp_bid))
    won_me = won_opp = 0
    excluded = 0
    for trick in view.tricks:
        first, second = int(trick.cards[0]), int(trick.cards[1])
        if trick.leader == me and first // 13 == second // 13:
            suit_mask = SUIT_MASKS[first // 13]
            wanted = bool(modes[won_me * 14 + won_opp] & 2)
            if wanted and trick.winner == me:
                excluded |= suit_mask & ~((1 << (first + 1)) - 1)
            elif not wanted and trick.winner == opp:
                excluded |= suit_mask & ((1 << first) - 1)
        if trick.winner == me:
            won_me += 1
        else:
            won_opp += 1
    return excluded & know.unseen


def narrowed_knowledge(view: PlayerView, know: Knowledge) -> Knowledge | None:
    """``know`` without the cards :func:`follow_exclusions` rules out (``None``: none are,
    or too few cards would be left to fill the opponent's hand)."""
    excluded = follow_exclusions(view, know)
    if not excluded:
        return None
    narrowed = replace(know, unseen=know.unseen & ~excluded)
    if narrowed.possible.bit_count() < know.opp_size:
        return None
    return narrowed


def opponent_bid_weight(view: PlayerView, know: Knowledge) -> Callable[[int], float] | None:
    """The likelihood of a drawn opponent hand given its bid (``None``: no bid yet).

    The opponent's played cards are added back, so the hand is judged as it stood when
    it bid.
    """
    opp = know.opp
    blind = bool(view.blind_nil[opp])
    bid = view.bids[opp]
    if not blind and bid is None:
        return None
    played = know.opp_played

    def weight(hand: int) -> float:
        return bid_likelihood(hand | played, bid, blind)

    return weight


_MISMATCH = 0.35
"""Likelihood factor of one follow of the opponent that the follow model would not have
played with a drawn hand (a hand is not ruled out: the opponent may play otherwise)."""


def opponent_play_weight(view: PlayerView, know: Knowledge) -> Callable[[int], float] | None:
    """The likelihood of a drawn opponent hand given its follows to the bot's leads
    (``None``: no such follow yet, or the bids are not known).

    The opponent's hand at each of those tricks is rebuilt from the drawn hand and the
    cards it played since; the greedy follow of :mod:`engine.fast` in the opponent's
    mood at that trick (wanting the trick or ducking it, from both bids and the trick
    score) is the model of its play. Each follow the model would have played (or a card
    equivalent to it for the opponent) keeps the weight, each other one multiplies it by
    :data:`_MISMATCH`. Unlike :func:`follow_exclusions` this reads discards and ruffs too.
    """
    me, opp = know.me, know.opp
    my_bid = 0 if view.blind_nil[me] else view.bids[me]
    opp_bid = 0 if view.blind_nil[opp] else view.bids[opp]
    if my_bid is None or opp_bid is None:
        return None
    modes = modes_table((my_bid, opp_bid))
    # per follow: (trick card, card played, wanted, cards the opponent played later,
    # every card played before this trick)
    follows: list[tuple[int, int, bool, int, int]] = []
    won_me = won_opp = 0
    played_before = 0
    later = know.opp_played
    for trick in view.tricks:
        first, second = int(trick.cards[0]), int(trick.cards[1])
        opp_card = second if trick.leader == me else first
        later &= ~(1 << opp_card)
        if trick.leader == me:
            wanted = bool(modes[won_me * 14 + won_opp] & 2)
            follows.append((first, second, wanted, later | (1 << second), played_before))
        played_before |= (1 << first) | (1 << second)
        if trick.winner == me:
            won_me += 1
        else:
            won_opp += 1
    if not follows:
        return None

    def weight(hand: int) -> float:
        value = 1.0
        for trick_card, card, wanted, since, before in follows:
            held = hand | since
            model = greedy_card(held, 0, trick_card, True, wanted, not wanted)
            if model == card:
                continue
            if model // 13 == card // 13:
                low, high = (model, card) if model < card else (card, model)
                between = ((1 << high) - 1) & ~((1 << (low + 1)) - 1)
                if not between & ~(held | before):
                    continue  # equivalent for the opponent: nothing of others between
            value *= _MISMATCH
        return value

    return weight


def opponent_lead_weight(
    view: PlayerView, know: Knowledge, mismatch: float
) -> Callable[[int], float] | None:
    """The likelihood of a drawn opponent hand given its own leads (``None``: no lead yet,
    the bids are not known, or ``mismatch >= 1``: off).

    Like :func:`opponent_play_weight` for follows: the opponent's hand at each trick it
    led is rebuilt from the drawn hand and the cards it played since, and the greedy lead
    of :mod:`engine.fast` in its mood at that trick is the model. The model does not see
    the bot's hand: it judges every card it has not seen played as possibly the bot's (a
    seat cashes a card only when it is sure to win). Each lead the model would not have
    made (nor a card equivalent to it for the opponent) multiplies the weight by
    ``mismatch``.
    """
    me, opp = know.me, know.opp
    my_bid = 0 if view.blind_nil[me] else view.bids[me]
    opp_bid = 0 if view.blind_nil[opp] else view.bids[opp]
    if mismatch >= 1.0 or my_bid is None or opp_bid is None:
        return None
    modes = modes_table((my_bid, opp_bid))
    # per lead: (card led, wanted, the bot wanted, cards it played from then on, every
    # card played before this trick)
    leads: list[tuple[int, bool, bool, int, int]] = []
    won_me = won_opp = 0
    played_before = 0
    later = know.opp_played
    for trick in view.tricks:
        first, second = int(trick.cards[0]), int(trick.cards[1])
        opp_card = second if trick.leader == me else first
        later &= ~(1 << opp_card)
        if trick.leader == opp:
            mode = modes[won_me * 14 + won_opp]
            leads.append(
                (first, bool(mode & 2), bool(mode & 1), later | (1 << first), played_before)
            )
        played_before |= (1 << first) | (1 << second)
        if trick.winner == me:
            won_me += 1
        else:
            won_opp += 1
    if not leads:
        return None
    spades = SUIT_MASKS[SPADES]

    def weight(hand: int) -> float:
        value = 1.0
        for card, wanted, bot_wants, since, before in leads:
            held = hand | since
            others = ALL_CARDS_MASK & ~(held | before)
            model = greedy_card(held, others, -1, bool(before & spades), wanted, bot_wants)
            if model == card:
                continue
            if model // 13 == card // 13:
                low, high = (model, card) if model < card else (card, model)
                between = ((1 << high) - 1) & ~((1 << (low + 1)) - 1)
                if not between & others:
                    continue  # equivalent for the opponent
            value *= mismatch
        return value

    return weight


def combined_likelihood(
    first: Callable[[int], float] | None, second: Callable[[int], float] | None
) -> Callable[[int], float] | None:
    """The product of two likelihoods (either may be ``None``: absent)."""
    if first is None:
        return second
    if second is None:
        return first
    one, two = first, second
    return lambda hand: one(hand) * two(hand)
