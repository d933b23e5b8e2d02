"""Trick play: which cards may be played, who wins a trick, and playing a card.

:func:`legal_play_mask` and :func:`trick_winner` work on card indices and masks, so the bot
and the analysis can call them on hands they imagine; :func:`play_card` moves a
:class:`~engine.hand.HandState` on by one card. None of them raises: the card's legality is
checked before (:func:`engine.legal.check_move`).
"""

from __future__ import annotations

from typing import Final

from engine.cards import CARDS, SPADES, SUIT_MASKS, Card
from engine.events import CardPlayed, Event, Trick, TrickWon
from engine.hand import HAND_SIZE, HandState

__all__ = ["SPADE_MASK", "legal_play_mask", "play_card", "trick_winner"]

SPADE_MASK: Final = SUIT_MASKS[SPADES]


def legal_play_mask(hand: int, lead_suit: int, spades_broken: bool) -> int:
    """The cards of ``hand`` (a mask) that may be played.

    ``lead_suit`` is the suit led to the current trick, or ``-1`` when leading.
    """
    if lead_suit >= 0:
        follow = hand & SUIT_MASKS[lead_suit]
        return follow or hand
    if spades_broken:
        return hand
    return (hand & ~SPADE_MASK) or hand


def trick_winner(leader: int, first: int, second: int) -> int:
    """The seat that wins a trick where ``leader`` played ``first`` and the other ``second``."""
    first_suit, second_suit = first // 13, second // 13
    if second_suit == first_suit:
        return leader if first > second else 1 - leader
    return 1 - leader if second_suit == SPADES else leader


def play_card(hand: HandState, seat: int, card: Card, events: list[Event]) -> int | None:
    """``seat`` plays ``card`` (a legal play); return the seat to play next.

    Appends ``CardPlayed`` and, when the card completes a trick, ``TrickWon``. Returns
    ``None`` once the hand's last trick is won: the hand is then to be scored.
    """
    hand.hands[seat] &= ~(1 << card)
    hand.trick.append(int(card))
    if card // 13 == SPADES:
        hand.spades_broken = True
    events.append(CardPlayed(seat, card))
    if len(hand.trick) == 1:
        return 1 - seat
    first, second = hand.trick
    winner = trick_winner(hand.leader, first, second)
    trick = Trick(hand.leader, (CARDS[first], CARDS[second]), winner)
    hand.tricks.append(trick)
    hand.trick = []
    hand.tricks_won[winner] += 1
    hand.leader = winner
    events.append(TrickWon(trick, len(hand.tricks)))
    return winner if len(hand.tricks) < HAND_SIZE else None
