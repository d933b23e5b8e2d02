"""The events of an ``events`` message (tagged by ``kind``), server to client.

A part of :mod:`protocol.messages`: :data:`EventMessage` is their union.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from protocol._messages.common import CardText, Count, HexText, MessageBase, Score, Seat
from protocol._messages.structures import TrickData

__all__ = [
    "BidEvent",
    "BlindNilEvent",
    "CardPlayedEvent",
    "DraftTurnEvent",
    "EventMessage",
    "ExchangeEvent",
    "GameOverEvent",
    "HandScoredEvent",
    "HandStartedEvent",
    "ShuffledEvent",
    "TrickWonEvent",
]


class HandStartedEvent(MessageBase):
    """A hand begins: the server has fixed its secret seed and publishes ``commitment``,
    SHA-256 of it. Nothing is drawn yet: the stock is shuffled by the later ``shuffled``
    event, after the seats' ``entropy`` (1.0 connections get no ``shuffled``: for them the
    draft simply follows)."""

    kind: Literal["hand_started"] = "hand_started"
    hand_number: Count
    """The new hand, from 1."""
    first_drafter: Seat
    """The seat that drafts first."""
    first_bidder: Seat
    """The seat that bids first and leads the first trick."""
    commitment: HexText
    """SHA-256 (hex) of the hidden shuffle seed, revealed in ``hand_result``."""


class ShuffledEvent(MessageBase):
    """1.1: the stock was shuffled from the committed seed and the seats' entropy; the draft
    (or the blind-nil round) starts. ``entropy_from`` says whose entropy went in."""

    kind: Literal["shuffled"] = "shuffled"
    hand_number: Count
    """The hand."""
    entropy_from: tuple[bool, bool]
    """Whether seat 0's and seat 1's entropy were mixed in (false: the seat sent none in time,
    or is a bot).
    """
    withheld: tuple[bool, bool] = (False, False)
    """1.3: whether seat 0 and seat 1 committed to a value and did not reveal it in time (or
    revealed one that does not match): the hand goes on without it. Count it: it is also
    in ``SeatInfo.withheld_reveals``."""


class BlindNilEvent(MessageBase):
    kind: Literal["blind_nil"] = "blind_nil"
    seat: Seat
    """The seat that answered."""
    declared: bool
    """True if it declared blind nil."""


class DraftTurnEvent(MessageBase):
    """A draft turn. ``kept``, ``card`` and ``other_card`` are only filled in for the
    drafting seat itself; everyone else learns only that a turn was taken."""

    kind: Literal["draft_turn"] = "draft_turn"
    seat: Seat
    """The seat that drafted."""
    turns_left: int
    """Draft turns that seat has left (0..12)."""
    kept: bool | None = None
    """You only: true for keep, false for discard."""
    card: CardText | None = None
    """You only: the card that was on offer."""
    other_card: CardText | None = None
    """You only: the card taken after a discard, or seen going to the pile after a keep (nil when
    unseen).
    """


class ExchangeEvent(MessageBase):
    """A blind-nil exchange; ``given`` and ``received`` only for the exchanging seat."""

    kind: Literal["exchange"] = "exchange"
    seat: Seat
    """The exchanging seat."""
    count: int
    """How many cards it exchanged."""
    given: tuple[CardText, ...] = ()
    """You only: the cards you gave."""
    received: tuple[CardText, ...] = ()
    """You only: the cards you received from the pile."""


class BidEvent(MessageBase):
    kind: Literal["bid"] = "bid"
    seat: Seat
    """The seat that bid."""
    tricks: int
    """Its bid (0 is nil)."""


class CardPlayedEvent(MessageBase):
    kind: Literal["card_played"] = "card_played"
    seat: Seat
    """The seat that played."""
    card: CardText
    """The card."""


class TrickWonEvent(MessageBase):
    kind: Literal["trick_won"] = "trick_won"
    number: int
    """The trick's number in the hand, 1..13."""
    trick: TrickData
    """The finished trick."""


class HandScoredEvent(MessageBase):
    kind: Literal["hand_scored"] = "hand_scored"
    hand_number: Count
    """The hand."""
    points: tuple[Score, Score]
    """Points each seat scored in it."""
    scores: tuple[Score, Score]
    """Each seat's total after it (a ``hand_result`` with every detail follows)."""


class GameOverEvent(MessageBase):
    kind: Literal["game_over"] = "game_over"
    winner: Seat
    """The winning seat."""
    scores: tuple[Score, Score]
    """Final scores."""


EventMessage = Annotated[
    HandStartedEvent
    | ShuffledEvent
    | BlindNilEvent
    | DraftTurnEvent
    | ExchangeEvent
    | BidEvent
    | CardPlayedEvent
    | TrickWonEvent
    | HandScoredEvent
    | GameOverEvent,
    Field(discriminator="kind"),
]
