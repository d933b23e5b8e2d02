"""The hand in progress: the :class:`Phase` a game is in and the :class:`HandState` record.

A :class:`HandState` is plain mutable data, owned by one :class:`~engine.game.GameState`
and changed only by the phase modules (:mod:`engine.deal`, :mod:`engine.draft`,
:mod:`engine.bidding`, :mod:`engine.tricks`) that the state's ``apply`` dispatches to.
It holds both seats' secrets (hands, draft cards, the stock, the pile), so it never leaves
the engine: :meth:`~engine.game.GameState.view_for` copies out what one viewer may know.
Nothing here raises.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Final

from engine.cards import Card
from engine.events import Trick
from engine.shuffle import RandomStream

__all__ = ["HAND_SIZE", "HandState", "Phase"]

HAND_SIZE: Final = 13


class Phase(enum.StrEnum):
    """Where a game stands. ``DEAL`` and ``HAND_OVER`` wait for chance's Deal."""

    DEAL = "deal"
    BLIND_NIL = "blind_nil"
    DRAFT = "draft"
    EXCHANGE = "exchange"
    BIDDING = "bidding"
    PLAY = "play"
    HAND_OVER = "hand_over"
    GAME_OVER = "game_over"


@dataclass(slots=True)
class HandState:
    """Everything about the hand in progress, both seats' secrets included.

    Cards are indices ``0..51`` (hands as bit masks) except where a field says
    :class:`~engine.cards.Card`; per-seat fields are two-item lists indexed by seat.
    """

    number: int
    seed: bytes
    entropy: tuple[bytes, ...]
    commitment: str
    stock: list[int]
    stream: RandomStream
    first_drafter: int
    first_bidder: int
    stock_pos: int = 0
    hands: list[int] = field(default_factory=lambda: [0, 0])
    pile: list[int] = field(default_factory=list)
    blind: list[bool | None] = field(default_factory=lambda: [None, None])
    draft_turns: list[int] = field(default_factory=lambda: [0, 0])
    kept: list[list[int]] = field(default_factory=lambda: [[], []])
    discarded: list[list[int]] = field(default_factory=lambda: [[], []])
    taken: list[list[int]] = field(default_factory=lambda: [[], []])
    seen_after_keep: list[list[int]] = field(default_factory=lambda: [[], []])
    given: list[tuple[Card, ...]] = field(default_factory=lambda: [(), ()])
    received: list[tuple[Card, ...]] = field(default_factory=lambda: [(), ()])
    exchange_counts: list[int | None] = field(default_factory=lambda: [None, None])
    bids: list[int | None] = field(default_factory=lambda: [None, None])
    tricks: list[Trick] = field(default_factory=list)
    trick: list[int] = field(default_factory=list)
    leader: int = 0
    tricks_won: list[int] = field(default_factory=lambda: [0, 0])
    spades_broken: bool = False
