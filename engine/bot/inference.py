"""What the opponent's bid and follows say about its hidden hand, for the search.

    weight = opponent_bid_weight(view, know)      # hand mask -> likelihood, or None
    narrowed = narrowed_knowledge(view, know)     # Knowledge without ruled-out cards

:func:`follow_exclusions` reads which cards the opponent's follows to the bot's leads rule
out; :func:`opponent_play_weight` weighs a drawn hand by how likely those follows were
with it; :func:`opponent_bid_weight` by how likely its bid was. The search of
:mod:`engine.bot.search` draws deals with them. Nothing here raises.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import NamedTuple

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


class _Played(NamedTuple):
    """One trick played, as the opponent's models read it."""

    bot_led: bool
    first: int  # the card led
    second: int  # the card that followed
    bot_won: bool
    mood: int  # the greedy policy's mood byte at the trick's start (2: wants tricks)
    opp_since: int  # the cards the opponent played from this trick on, its own here included
    before: int  # every card played before this trick


def _moods(view: PlayerView, know: Knowledge) -> list[int] | None:
    """The mood table for both bids (a blind nil counts as 0), or ``None`` before both."""
    my_bid = 0 if view.blind_nil[know.me] else view.bids[know.me]
    opp_bid = 0 if view.blind_nil[know.opp] else view.bids[know.opp]
    if my_bid is None or opp_bid is None:
        return None
    return modes_table((my_bid, opp_bid))


def _tricks_played(view: PlayerView, know: Knowledge, moods: list[int]) -> Iterator[_Played]:
    """The tricks played so far, in order, each with the trick score's mood at its start."""
    me = know.me
    won_me = won_opp = 0
    before = 0
    later = know.opp_played
    for trick in view.tricks:
        first, second = int(trick.cards[0]), int(trick.cards[1])
        opp_card = second if trick.leader == me else first
        later &= ~(1 << opp_card)
        bot_won = trick.winner == me
        mood = moods[won_me * 14 + won_opp]
        yield _Played(
            trick.leader == me, first, second, bot_won, mood, later | (1 << opp_card), before
        )
        before |= (1 << first) | (1 << second)
        if bot_won:
            won_me += 1
        else:
            won_opp += 1


def _equivalent(model: int, card: int, unseen_by_opp: int) -> bool:
    """Whether ``card`` is as good as ``model`` for the opponent: the same suit and no
    card it cannot see between them."""
    if model // 13 != card // 13:
        return False
    low, high = (model, card) if model < card else (card, model)
    between = ((1 << high) - 1) & ~((1 << (low + 1)) - 1)
    return not between & unseen_by_opp


def follow_exclusions(view: PlayerView, know: Knowledge) -> int:
    """Cards the opponent most likely does not hold, judging by its follows to the bot's
    leads (a mask of cards still unseen).

    When it followed suit and lost a trick it wanted, it held no higher card of the suit
    (it would have won cheaply); when it followed suit and won a trick it did not want
    (ducking: its own nil, bags, or setting the bot's nil), it held no lower card. Its
    mood is the greedy policy's for the bids and the trick score at that trick.
    """
    moods = _moods(view, know)
    if moods is None:
        return 0
    excluded = 0
    for t in _tricks_played(view, know, moods):
        if t.bot_led and t.first // 13 == t.second // 13:
            suit_mask = SUIT_MASKS[t.first // 13]
            wanted = bool(t.mood & 2)
            if wanted and t.bot_won:
                excluded |= suit_mask & ~((1 << (t.first + 1)) - 1)
            elif not wanted and not t.bot_won:
                excluded |= suit_mask & ((1 << t.first) - 1)
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
    moods = _moods(view, know)
    if moods is None:
        return None
    # per follow: (trick card, card played, wanted, cards the opponent played from then
    # on, every card played before this trick)
    follows = [
        (t.first, t.second, bool(t.mood & 2), t.opp_since, t.before)
        for t in _tricks_played(view, know, moods)
        if t.bot_led
    ]
    if not follows:
        return None

    def weight(hand: int) -> float:
        value = 1.0
        for trick_card, card, wanted, since, before in follows:
            held = hand | since
            model = greedy_card(held, 0, trick_card, True, wanted, not wanted)
            if model != card and not _equivalent(model, card, ~(held | before)):
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
    if mismatch >= 1.0:
        return None  # off (as served): not even the mood table is worked out
    moods = _moods(view, know)
    if moods is None:
        return None
    # per lead: (card led, wanted, the bot wanted, cards it played from then on, every
    # card played before this trick)
    leads = [
        (t.first, bool(t.mood & 2), bool(t.mood & 1), t.opp_since, t.before)
        for t in _tricks_played(view, know, moods)
        if not t.bot_led
    ]
    if not leads:
        return None
    spades = SUIT_MASKS[SPADES]

    def weight(hand: int) -> float:
        value = 1.0
        for card, wanted, bot_wants, since, before in leads:
            held = hand | since
            others = ALL_CARDS_MASK & ~(held | before)
            model = greedy_card(held, others, -1, bool(before & spades), wanted, bot_wants)
            if model != card and not _equivalent(model, card, others):
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
