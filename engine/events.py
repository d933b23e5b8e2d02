"""What the engine tells the world: the events of an :class:`Outcome` and the records in them.

Every event (:class:`HandStarted`, :class:`Shuffled`, :class:`BlindNilDeclared`,
:class:`DraftTurnTaken`, :class:`ExchangeMade`, :class:`BidMade`, :class:`CardPlayed`,
:class:`TrickWon`, :class:`HandScored`, :class:`GameOver`) is an immutable value holding the
full truth; :meth:`Outcome.for_viewer` hands out the copy one viewer may see, with the other
seat's draft and exchange cards left out. :class:`Trick` and :class:`HandResult` are the
public records of a finished trick and a scored hand. Nothing here raises.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card

__all__ = [
    "BidMade",
    "BlindNilDeclared",
    "CardPlayed",
    "DraftTurnTaken",
    "Event",
    "ExchangeMade",
    "GameOver",
    "HandResult",
    "HandScored",
    "HandStarted",
    "Outcome",
    "Shuffled",
    "Trick",
    "TrickWon",
]


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: who led, the two cards in play order, who won it."""

    leader: int
    cards: tuple[Card, Card]
    winner: int

    def card_of(self, seat: int) -> Card:
        return self.cards[0] if seat == self.leader else self.cards[1]


@dataclass(frozen=True, slots=True)
class HandResult:
    """One hand's public outcome, per seat where a pair, with the revealed shuffle."""

    hand_number: int
    first_drafter: int
    bids: tuple[int | None, int | None]
    blind_nil: tuple[bool, bool]
    tricks: tuple[int, int]
    points: tuple[int, int]
    bags_added: tuple[int, int]
    bag_penalties: tuple[int, int]
    scores: tuple[int, int]
    bags: tuple[int, int]
    commitment: str
    seed: bytes
    entropy: tuple[bytes, ...]


# ---------------------------------------------------------------------------------------
# Events. Each is the full truth; `_redact` makes the copy one viewer may see.


@dataclass(frozen=True, slots=True)
class HandStarted:
    hand_number: int
    first_drafter: int
    first_bidder: int
    commitment: str


@dataclass(frozen=True, slots=True)
class Shuffled:
    """The stock of hand ``hand_number`` was drawn; ``entropy_from`` says which seats'
    entropy went into it. After a one-step Deal it follows ``HandStarted`` at once."""

    hand_number: int
    entropy_from: tuple[bool, bool]


@dataclass(frozen=True, slots=True)
class BlindNilDeclared:
    seat: int
    declared: bool


@dataclass(frozen=True, slots=True)
class DraftTurnTaken:
    """A draft turn. Only the drafter learns ``kept``, ``card`` (the card on offer) and
    ``other_card`` (the card taken after a discard, or seen going to the pile after a
    keep); every other viewer gets ``None`` in all three."""

    seat: int
    turns_left: int
    kept: bool | None = None
    card: Card | None = None
    other_card: Card | None = None


@dataclass(frozen=True, slots=True)
class ExchangeMade:
    """A blind-nil exchange; only its seat learns ``given`` and ``received``."""

    seat: int
    count: int
    given: tuple[Card, ...] = ()
    received: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class BidMade:
    seat: int
    tricks: int


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickWon:
    trick: Trick
    number: int


@dataclass(frozen=True, slots=True)
class HandScored:
    result: HandResult


@dataclass(frozen=True, slots=True)
class GameOver:
    winner: int
    scores: tuple[int, int]


Event = (
    HandStarted
    | Shuffled
    | BlindNilDeclared
    | DraftTurnTaken
    | ExchangeMade
    | BidMade
    | CardPlayed
    | TrickWon
    | HandScored
    | GameOver
)


def _redact(event: Event, viewer: int | None) -> Event:
    if isinstance(event, DraftTurnTaken) and event.seat != viewer:
        return DraftTurnTaken(event.seat, event.turns_left)
    if isinstance(event, ExchangeMade) and event.seat != viewer:
        return ExchangeMade(event.seat, event.count)
    return event


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one :meth:`~engine.game.GameState.apply` did, as events. Read it per viewer."""

    version: int
    _events: tuple[Event, ...]

    def for_viewer(self, viewer: int | None) -> tuple[Event, ...]:
        """The events seat ``viewer`` (``None``: a spectator) may see, in order."""
        return tuple([_redact(event, viewer) for event in self._events])

    def scored(self) -> tuple[HandScored, ...]:
        """The hands this action ended (a score is public: no view to redact first)."""
        return tuple([event for event in self._events if isinstance(event, HandScored)])
