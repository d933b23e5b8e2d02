"""Hand judgement shared by every level: counting tricks, nil safety, the draft, bids.

All on card masks. ``unknown`` is the set of cards whose place the seat does not know
(the opponent holds ``opp_size`` of them, the pile the rest), so each unknown card is in
the opponent's hand with a chance that depends on the card.

The opponent drafted its hand, so an unseen card is not in its hand with a flat
chance: it kept high cards and spades (see :data:`PRIOR`).

- :func:`estimate_tricks`: expected tricks of a hand. A card wins in its suit when the
  opponent holds no more of the higher unknown cards than the seat has lower cards to
  play under them; side-suit winners lose value to ruffs when the opponent may run out
  of the suit first; spare spades add ruffing tricks against short side suits.
- :func:`nil_chance`: the chance a hand takes no trick. In each suit the opponent breaks
  a nil when its ``i``-th lowest card is below the seat's ``i``-th lowest one.
- :func:`draft_keep`: keep the card on offer when the hand with it is worth at least the
  hand with a random unseen card, judged on the plan (tricks or nil) that is worth more.
"""

from __future__ import annotations

import math
from functools import lru_cache

from engine.cards import SPADES, SUIT_MASKS, card_indexes

__all__ = [
    "NIL_SAMPLE_WEIGHT",
    "PRIOR",
    "SAMPLE_WEIGHT",
    "best_exchange",
    "bid_likelihood",
    "draft_keep",
    "estimate_tricks",
    "nil_chance",
    "plan_value",
    "quick_nil",
    "quick_tricks",
]

_SPADE_MASK = SUIT_MASKS[SPADES]
_SIDE_MASKS = SUIT_MASKS[:3]
_RUFF_FACTOR = 0.75
_RUFF_SHARE = 0.35
_FUTURE_TRICKS_PER_CARD = 0.5
_FUTURE_NIL_SURVIVAL = 0.93
# bids against quick_tricks, fitted over easy-against-easy hands
_QUICK_SLOPE = 1.16
_QUICK_OFFSET = -3.9


# P(a card the seat has not seen is in the opponent's hand) at bidding time, by rank, for
# side suits and spades, measured over drafts by these heuristics (classic preset): the
# opponent kept its high cards and spades and passed its low cards to the pile.
_SIDE_PRIOR = (0.26, 0.26, 0.27, 0.28, 0.28, 0.30, 0.32, 0.37, 0.44, 0.48, 0.63, 0.73, 0.74)
_SPADE_PRIOR = (0.75, 0.74, 0.75, 0.76, 0.76, 0.77, 0.77, 0.77, 0.78, 0.77, 0.75, 0.78, 0.78)
PRIOR: tuple[float, ...] = _SIDE_PRIOR * 3 + _SPADE_PRIOR
"""Per card: how likely the opponent holds it, when the seat has not seen it."""
SAMPLE_WEIGHT: tuple[float, ...] = tuple(p**1.5 for p in PRIOR)
"""Per card: weights for drawing opponent hands whose card frequencies match ``PRIOR``."""
NIL_SAMPLE_WEIGHT: tuple[float, ...] = tuple(
    (((13 - card % 13) / 13.0) ** 2 + 0.03) * (0.7 if card >= 39 else 1.0) for card in range(52)
)
"""Per card: weights for drawing the hand of an opponent that bid nil (low cards likelier)."""


@lru_cache(maxsize=65536)
def _at_most(n: int, k: int, f_milli: int) -> float:
    """P(Binomial(n, f) <= k) with ``f = f_milli / 1000``."""
    if k < 0:
        return 0.0
    if k >= n:
        return 1.0
    f = f_milli / 1000.0
    total = 0.0
    for i in range(k + 1):
        total += math.comb(n, i) * f**i * (1.0 - f) ** (n - i)
    return min(1.0, total)


def card_chances(unknown: int, opp_size: int) -> list[float]:
    """Per card (52 entries): the chance the opponent holds it; 0 outside ``unknown``."""
    chances = [0.0] * 52
    total = 0.0
    rest = unknown
    while rest:
        low = rest & -rest
        total += PRIOR[low.bit_length() - 1]
        rest ^= low
    if total <= 0.0:
        return chances
    scale = opp_size / total
    rest = unknown
    while rest:
        low = rest & -rest
        card = low.bit_length() - 1
        chances[card] = min(0.97, PRIOR[card] * scale)
        rest ^= low
    return chances


def _group(chances: list[float], mask: int) -> tuple[int, int]:
    """``(count, mean chance in thousandths)`` of the cards of ``mask``."""
    indexes = card_indexes(mask)
    count = len(indexes)
    total = sum(chances[index] for index in indexes)
    if not count:
        return 0, 0
    return count, max(0, min(1000, round(1000 * total / count)))


def _cards_high_first(mask: int) -> list[int]:
    cards = []
    while mask:
        top = mask.bit_length() - 1
        cards.append(top)
        mask &= ~(1 << top)
    return cards


def estimate_tricks(hand: int, unknown: int, opp_size: int = 13) -> float:
    """Expected tricks ``hand`` takes against an opponent holding ``opp_size`` of ``unknown``."""
    if not unknown or not opp_size:
        return float(hand.bit_count())
    chances = card_chances(unknown, opp_size)
    total = 0.0
    spade_wins = 0.0
    spade_count, spade_f = _group(chances, unknown & _SPADE_MASK)
    opp_spade_chance = 1.0 - _at_most(spade_count, 0, spade_f)
    ruff_room = 0.0
    for suit, suit_mask in enumerate(SUIT_MASKS):
        mine = hand & suit_mask
        length = mine.bit_count()
        theirs = unknown & suit_mask
        their_count, their_f = _group(chances, theirs)
        if suit != SPADES:
            ruff_room += max(0.0, their_count * their_f / 1000.0 - length)
        if not length:
            continue
        for index, card in enumerate(_cards_high_first(mine)):
            higher, higher_f = _group(chances, theirs >> (card + 1) << (card + 1))
            below = length - index - 1
            chance = _at_most(higher, below, higher_f)
            if suit != SPADES:
                void_first = _at_most(their_count, index, their_f)
                chance *= 1.0 - _RUFF_FACTOR * opp_spade_chance * void_first
                total += chance
            else:
                spade_wins += chance
    spares = (hand & _SPADE_MASK).bit_count() - spade_wins
    total += spade_wins + min(max(0.0, spares), _RUFF_SHARE * ruff_room)
    return total


def nil_chance(hand: int, unknown: int, opp_size: int = 13) -> float:
    """The chance that ``hand`` takes no trick when the opponent tries to make it take one."""
    chances = card_chances(unknown, opp_size)
    chance = 1.0
    for suit_mask in SUIT_MASKS:
        mine = hand & suit_mask
        if not mine:
            continue
        theirs = unknown & suit_mask
        position = 0
        while mine:
            low = mine & -mine
            lower, lower_f = _group(chances, theirs & (low - 1))
            chance *= _at_most(lower, position, lower_f)
            position += 1
            mine ^= low
    # spades are also forced out when the seat runs out of a side suit
    spades = (hand & _SPADE_MASK).bit_count()
    if spades:
        high = (hand & _SPADE_MASK) >> (39 + 7)
        chance *= 0.97 ** (spades - 1) * 0.85 ** high.bit_count()
    return chance


def plan_value(
    hand: int, unknown: int, opp_size: int, cards_to_come: int, nil_allowed: bool, nil_only: bool
) -> float:
    """Worth in points of a (partial) hand: the better of bidding its tricks or nil.

    ``cards_to_come`` more cards will join it (drafted with a choice each time). With
    ``nil_only`` (a declared blind nil) it is the log of the nil chance instead, so that
    a hand that already looks lost still drafts towards the best chance it has.
    """
    chance = nil_chance(hand, unknown, opp_size)
    if nil_only:
        return math.log(max(chance, 1e-12))
    nil_worth = 200.0 * chance * _FUTURE_NIL_SURVIVAL**cards_to_come - 100.0
    tricks = estimate_tricks(hand, unknown, opp_size) + _FUTURE_TRICKS_PER_CARD * cards_to_come
    trick_worth = 10.0 * tricks
    if nil_allowed and nil_worth > trick_worth:
        return nil_worth
    return trick_worth


def _nil_danger(hand: int, card: int) -> float:
    """How much ``card`` would hurt a nil hand: its rank, the cards already held below it in
    its suit (each one more lead it must survive), more for a spade."""
    suit_mask = SUIT_MASKS[card // 13]
    below = (hand & suit_mask & ((1 << card) - 1)).bit_count()
    above = (hand & suit_mask & ~((1 << (card + 1)) - 1)).bit_count()
    danger = card % 13 + 1.5 * below + 0.5 * above
    if card >= 39:
        danger += 3.0
    return danger


def draft_keep(
    hand: int,
    offered: int,
    unseen: int,
    cards_to_come: int,
    nil_allowed: bool,
    nil_only: bool,
) -> bool:
    """Keep the ``offered`` card (else discard it and take the next, unseen, card)?

    ``unseen`` holds the cards the seat has not seen (the next card is one of them);
    ``cards_to_come`` counts the draft turns left after this one. A declared blind nil
    keeps the card when it is less dangerous than the average unseen card.
    """
    opp_size = 13
    unknown = unseen & ~(1 << offered)
    if nil_only:
        total = 0.0
        count = 0
        rest = unknown
        while rest:
            low = rest & -rest
            total += _nil_danger(hand, low.bit_length() - 1)
            count += 1
            rest ^= low
        return count == 0 or _nil_danger(hand, offered) <= total / count
    keep_value = plan_value(
        hand | 1 << offered, unknown, opp_size, cards_to_come, nil_allowed, nil_only
    )
    total = 0.0
    count = 0
    rest = unknown
    while rest:
        low = rest & -rest
        rest ^= low
        total += plan_value(
            hand | low,
            (unknown & ~low) | (1 << offered),
            opp_size,
            cards_to_come,
            nil_allowed,
            nil_only,
        )
        count += 1
    if count == 0:
        return True
    return keep_value >= total / count


_GENERIC_F = 333  # an unknown card is in the other hand with chance 1/3 (39 unknown, 13 held)


@lru_cache(maxsize=16384)
def _suit_tricks(pattern: int, trumps: bool) -> float:
    """Tricks of one suit holding (a 13-bit rank pattern), judged with no other knowledge."""
    length = pattern.bit_count()
    total = 0.0
    index = 0
    for rank in range(12, -1, -1):
        if not pattern >> rank & 1:
            continue
        higher = (12 - rank) - (pattern >> (rank + 1)).bit_count()
        chance = _at_most(higher, length - index - 1, _GENERIC_F)
        if not trumps:
            void_first = _at_most(13 - length, index, _GENERIC_F)
            chance *= 1.0 - _RUFF_FACTOR * void_first
        total += chance
        index += 1
    return total


@lru_cache(maxsize=16384)
def _suit_nil(pattern: int) -> float:
    """Chance one suit holding survives a nil, judged with no other knowledge."""
    chance = 1.0
    position = 0
    for rank in range(13):
        if pattern >> rank & 1:
            lower = rank - (pattern & ((1 << rank) - 1)).bit_count()
            chance *= _at_most(lower, position, _GENERIC_F)
            position += 1
    return chance


def quick_tricks(hand: int) -> float:
    """A fast trick count of a 13-card hand with no knowledge of other cards."""
    total = 0.0
    short = 0
    for suit in range(3):
        pattern = hand >> (13 * suit) & 0x1FFF
        total += _suit_tricks(pattern, False)
        short += max(0, 2 - pattern.bit_count())
    spades = hand >> 39 & 0x1FFF
    spade_tricks = _suit_tricks(spades, True)
    spare = spades.bit_count() - spade_tricks
    return total + spade_tricks + min(max(0.0, spare), 0.5 * short)


def quick_nil(hand: int) -> float:
    """A fast nil chance of a 13-card hand with no knowledge of other cards."""
    chance = 1.0
    for suit in range(4):
        chance *= _suit_nil(hand >> (13 * suit) & 0x1FFF)
    return chance


def bid_likelihood(hand: int, bid: int | None, blind: bool) -> float:
    """How likely (0..1, unnormalised) a seat holding ``hand`` at bidding time bid ``bid``.

    Judged from the seat's side with no knowledge of the pile (fast, table-driven).
    """
    if blind:
        return 0.25 + 0.75 * min(1.0, quick_nil(hand) / 0.1)
    if not bid:
        return min(1.0, 0.02 + quick_nil(hand) / 0.1)
    expected = _QUICK_SLOPE * quick_tricks(hand) + _QUICK_OFFSET
    gap = bid - expected
    return math.exp(-gap * gap / (2.0 * 1.3 * 1.3))


def best_exchange(hand: int, pile_known: int, unseen: int, pile_size: int, limit: int) -> int:
    """The cards (a mask, at most ``limit``) a blind-nil seat should give up.

    It receives as many cards drawn at random from the pile, which holds the known
    ``pile_known`` cards and the rest drawn from ``unseen``. A card is given when swapping
    it for a random pile card raises the hand's nil chance.
    """
    unknown = unseen
    opp_size = 13
    unseen_in_pile = max(0, pile_size - pile_known.bit_count())
    unseen_count = unseen.bit_count()
    weights: list[tuple[int, float]] = []
    rest = pile_known
    while rest:
        low = rest & -rest
        weights.append((low, 1.0))
        rest ^= low
    if unseen_count:
        share = unseen_in_pile / unseen_count
        rest = unseen
        while rest:
            low = rest & -rest
            weights.append((low, share))
            rest ^= low
    weight_sum = sum(weight for _, weight in weights) or 1.0
    base = nil_chance(hand, unknown, opp_size)
    gains: list[tuple[float, int]] = []
    rest = hand
    while rest:
        low = rest & -rest
        rest ^= low
        without = hand & ~low
        expected = 0.0
        for bit, weight in weights:
            expected += weight * nil_chance(without | bit, unknown & ~bit, opp_size)
        gains.append((expected / weight_sum - base, low.bit_length() - 1))
    gains.sort(reverse=True)
    given = 0
    for gain, card in gains[:limit]:
        if gain > 0.01:
            given |= 1 << card
    return given
