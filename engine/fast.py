"""The fast path for search: play-phase playouts on int-bitmask card sets.

No objects, no events, no checks: the caller passes a consistent position. Used by the
bot's search and measured by ``bench/engine.py``::

    won = random_playout(hands=[mask0, mask1], leader=0, trick_card=-1,
                         spades_broken=False, tricks_won=[0, 0], rng=random.Random(7))

``trick_card`` is the card the leader already played to the current trick (``-1`` if
none). Returns the final trick counts ``(seat 0, seat 1)``.
"""

from __future__ import annotations

import random
from typing import Final

from engine.cards import SPADES, SUIT_MASKS

__all__ = ["random_playout"]

_SPADES: Final = SUIT_MASKS[SPADES]
_SUITS: Final = SUIT_MASKS


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
