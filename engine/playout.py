"""Play-phase playouts on int-bitmask hands: uniformly random and the greedy policy.

No objects, no events, no checks: the caller passes a consistent position. Re-exported by
:mod:`engine.fast` (the search's fast path, which adds the exact solver)::

    won = random_playout(hands=[mask0, mask1], leader=0, trick_card=-1,
                         spades_broken=False, tricks_won=[0, 0], rng=random.Random(7))

``trick_card`` is the card the leader already played to the current trick (``-1`` if
none). Returns the final trick counts ``(seat 0, seat 1)``. :func:`greedy_playout` plays
both seats by a fast full-information heuristic in a mood per seat (see
:mod:`engine.fast`); :func:`greedy_card` is that policy's one card. Raise nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from engine.cards import SPADES, SUIT_MASKS

__all__ = ["greedy_card", "greedy_playout", "random_playout"]

_SPADES: Final = SUIT_MASKS[SPADES]
_SUITS: Final = SUIT_MASKS
_CLUBS, _DIAMONDS, _HEARTS = SUIT_MASKS[0], SUIT_MASKS[1], SUIT_MASKS[2]
_NOT_SPADES: Final = _CLUBS | _DIAMONDS | _HEARTS


def _random_card(mask: int, rng: random.Random) -> int:
    count = mask.bit_count()
    if count == 1:
        return mask.bit_length() - 1
    skip = rng.randrange(count)
    while skip:
        mask &= mask - 1
        skip -= 1
    return (mask & -mask).bit_length() - 1


def random_playout(
    hands: list[int],
    leader: int,
    trick_card: int,
    spades_broken: bool,
    tricks_won: list[int],
    rng: random.Random,
) -> tuple[int, int]:
    """Play the rest of the hand with uniformly random legal cards; return trick counts."""
    hand0, hand1 = hands
    won0, won1 = tricks_won
    suits = _SUITS
    spades = _SPADES
    pick = _random_card
    while True:
        if trick_card < 0:
            if not (hand0 | hand1):
                return won0, won1
            held = hand0 if leader == 0 else hand1
            legal = held if spades_broken else (held & ~spades) or held
            trick_card = pick(legal, rng)
            if leader == 0:
                hand0 &= ~(1 << trick_card)
            else:
                hand1 &= ~(1 << trick_card)
        lead_suit = trick_card // 13
        held = hand1 if leader == 0 else hand0
        legal = (held & suits[lead_suit]) or held
        reply = pick(legal, rng)
        if leader == 0:
            hand1 &= ~(1 << reply)
        else:
            hand0 &= ~(1 << reply)
        reply_suit = reply // 13
        if reply_suit == 3 or lead_suit == 3:
            spades_broken = True
        if reply_suit == lead_suit:
            winner = leader if trick_card > reply else 1 - leader
        else:
            winner = 1 - leader if reply_suit == 3 else leader
        if winner == 0:
            won0 += 1
        else:
            won1 += 1
        leader = winner
        trick_card = -1


# ---------------------------------------------------------------------------------------
# The greedy full-information policy.


def _low_rank(mask: int) -> int:
    """The card of ``mask`` with the lowest rank (clubs first among equal ranks)."""
    best = -1
    best_rank = 99
    for suit_mask, base in ((_CLUBS, 0), (_DIAMONDS, 13), (_HEARTS, 26), (_SPADES, 39)):
        part = mask & suit_mask
        if part:
            card = (part & -part).bit_length() - 1
            if card - base < best_rank:
                best_rank = card - base
                best = card
    return best


def _high_rank(mask: int) -> int:
    """The card of ``mask`` with the highest rank (clubs first among equal ranks)."""
    best = -1
    best_rank = -1
    for suit_mask, base in ((_CLUBS, 0), (_DIAMONDS, 13), (_HEARTS, 26), (_SPADES, 39)):
        part = mask & suit_mask
        if part:
            card = part.bit_length() - 1
            if card - base > best_rank:
                best_rank = card - base
                best = card
    return best


def _lead(held: int, other: int, broken: bool, want: bool, other_wants: bool) -> int:
    allowed = held if broken or not (held & _NOT_SPADES) else held & _NOT_SPADES
    other_spades = other & _SPADES
    if want:
        mine = allowed & _SPADES
        spade_master = mine.bit_length() > other_spades.bit_length()
        if spade_master and mine.bit_count() >= other_spades.bit_count() and other_spades:
            return mine.bit_length() - 1  # draw trumps while ahead in them
        loose = -1
        for suit_mask in (_CLUBS, _DIAMONDS, _HEARTS):
            part = allowed & suit_mask
            if not part:
                continue
            theirs = other & suit_mask
            top = part.bit_length() - 1
            if theirs:
                if top >= theirs.bit_length():
                    return top
            elif not other_spades:
                loose = top
        if loose >= 0:
            return loose
        if spade_master:
            return mine.bit_length() - 1
        # no sure winner: lead low in a side suit the other seat must follow
        best = -1
        best_rank = 99
        for suit_mask, base in ((_CLUBS, 0), (_DIAMONDS, 13), (_HEARTS, 26)):
            part = allowed & suit_mask
            if part and other & suit_mask:
                low = (part & -part).bit_length() - 1
                if low - base < best_rank:
                    best_rank = low - base
                    best = low
        if best >= 0:
            return best
        return _low_rank(allowed & _NOT_SPADES or allowed)
    # ducking: lead the lowest card, without peeking at the other hand (a seat setting a
    # nil cannot see it either; peeking would make every nil look doomed)
    side = allowed & _NOT_SPADES
    return _low_rank(side or allowed)


def _follow(held: int, trick_card: int, want: bool) -> int:
    suit_mask = _SUITS[trick_card // 13]
    part = held & suit_mask
    if part:
        if want:
            higher = part >> (trick_card + 1) << (trick_card + 1)
            if higher:
                return (higher & -higher).bit_length() - 1
            return (part & -part).bit_length() - 1
        lower = part & ((1 << trick_card) - 1)
        if lower:
            return lower.bit_length() - 1
        return part.bit_length() - 1
    spades = held & _SPADES
    if want:
        if spades:
            return (spades & -spades).bit_length() - 1
        return _low_rank(held)
    rest = held & _NOT_SPADES
    if rest:
        return _high_rank(rest)
    return spades.bit_length() - 1


def greedy_card(
    held: int, other: int, trick_card: int, spades_broken: bool, want: bool, other_wants: bool
) -> int:
    """The greedy policy's card for the seat holding ``held`` (``other``: the other hand)."""
    if trick_card < 0:
        return _lead(held, other, spades_broken, want, other_wants)
    return _follow(held, trick_card, want)


def greedy_playout(
    hand0: int,
    hand1: int,
    leader: int,
    trick_card: int,
    spades_broken: bool,
    won0: int,
    won1: int,
    modes: Sequence[int],
    stop: int = 0,
    fog0: int = 0,
    fog1: int = 0,
) -> tuple[int, int, int, int, int, bool]:
    """Play on with the greedy policy until each hand holds ``stop`` cards at a trick's start.

    Returns ``(won0, won1, hand0, hand1, leader, spades_broken)`` at that point (with
    ``stop == 0``: the final trick counts and two empty hands).

    ``fog0`` (``fog1``) holds cards seat 0 (1) cannot tell from the other seat's: its
    leads judge the other hand as holding them too (a seat that does not see the other
    hand cashes a card only when it is sure to win), so a playout does not credit a seat
    with guesses it could not make. Cards of a fog no longer matter once played: pass
    only cards in neither hand.
    """
    lead = _lead
    follow = _follow
    while True:
        mode = modes[won0 * 14 + won1]
        if trick_card < 0:
            if hand0.bit_count() <= stop:
                return won0, won1, hand0, hand1, leader, spades_broken
            if leader == 0:
                trick_card = lead(
                    hand0, hand1 | fog0, spades_broken, bool(mode & 1), bool(mode & 2)
                )
                hand0 &= ~(1 << trick_card)
            else:
                trick_card = lead(
                    hand1, hand0 | fog1, spades_broken, bool(mode & 2), bool(mode & 1)
                )
                hand1 &= ~(1 << trick_card)
        if leader == 0:
            reply = follow(hand1, trick_card, bool(mode & 2))
            hand1 &= ~(1 << reply)
        else:
            reply = follow(hand0, trick_card, bool(mode & 1))
            hand0 &= ~(1 << reply)
        lead_suit = trick_card // 13
        reply_suit = reply // 13
        if reply_suit == 3 or lead_suit == 3:
            spades_broken = True
        if reply_suit == lead_suit:
            winner = leader if trick_card > reply else 1 - leader
        else:
            winner = 1 - leader if reply_suit == 3 else leader
        if winner == 0:
            won0 += 1
        else:
            won1 += 1
        leader = winner
        trick_card = -1
