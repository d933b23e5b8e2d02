"""Bidding: who bids next, recording a bid, and the turn to the play once both are in.

A seat that declared blind nil does not bid. Each function returns the next
``(phase, seat to act)``: ``BIDDING`` and the next bidder, or ``PLAY`` and the leader of
the first trick once no bid is missing. Nothing here raises: the bid is checked before
(:func:`engine.legal.check_move`).
"""

from __future__ import annotations

from engine.events import BidMade, Event
from engine.hand import HandState, Phase

__all__ = ["make_bid", "next_to_bid"]


def next_to_bid(hand: HandState) -> tuple[Phase, int]:
    """``(BIDDING, seat)`` for the next seat still to bid, else ``(PLAY, leader)``.

    The first bidder goes first; a blind-nil seat has no bid to make.
    """
    for seat in (hand.first_bidder, 1 - hand.first_bidder):
        if not hand.blind[seat] and hand.bids[seat] is None:
            return Phase.BIDDING, seat
    return Phase.PLAY, hand.leader


def make_bid(hand: HandState, seat: int, tricks: int, events: list[Event]) -> tuple[Phase, int]:
    """``seat`` bids ``tricks`` (appends ``BidMade``); return who acts next, as above."""
    hand.bids[seat] = tricks
    events.append(BidMade(seat, tricks))
    return next_to_bid(hand)
