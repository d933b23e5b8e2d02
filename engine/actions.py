"""Actions: what a seat (or chance) does, as small immutable values with text forms.

==================  ============================  ===============================
action              text form                     phase
==================  ============================  ===============================
``Deal``            ``deal <seed hex> [e0 e1]``   chance, before each hand (one step)
``Commit(seed)``    ``commit <seed hex>``         chance, before each hand (two steps)
``Shuffle(e)``      ``shuffle <e0|-> <e1|->``     chance, after a Commit
``BlindNil(True)``  ``blind-nil``                 blind-nil declarations
``BlindNil(False)`` ``no-blind-nil``              blind-nil declarations
``Keep()``          ``keep``                      draft
``Discard()``       ``discard``                   draft
``Exchange(cards)`` ``exchange QS 2C`` / ``exchange``  blind-nil exchange
``Bid(n)``          ``bid 4`` / ``bid nil``       bidding
``Play(card)``      ``play QS``                   play
==================  ============================  ===============================

``parse_action(text)`` reads any of them, ``str(action)`` writes it back (an empty
entropy value of a Deal or Shuffle is written ``-``).

A hand is dealt in one step (``Deal``: seed and entropy at once) or in two, so that the
seats' entropy can come after the commitment is published: ``Commit`` fixes the seed
(the hand starts and its commitment goes out), then ``Shuffle`` mixes in one value per
seat (seat 0's then seat 1's; empty for a seat that sent none) and draws the stock.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import Card, format_cards, parse_cards
from engine.errors import CardParseError

__all__ = [
    "Action",
    "Bid",
    "BlindNil",
    "Commit",
    "Deal",
    "Discard",
    "Exchange",
    "Keep",
    "Play",
    "PlayerAction",
    "Shuffle",
    "parse_action",
]


@dataclass(frozen=True, slots=True)
class Deal:
    """Chance's action: shuffle the stock for the next hand from ``seed`` and seat entropy.

    The text form writes an empty entropy value as ``-`` so that it survives a round trip.
    """

    seed: bytes
    entropy: tuple[bytes, ...] = ()

    def __str__(self) -> str:
        return " ".join(["deal", self.seed.hex(), *(value.hex() or "-" for value in self.entropy)])


@dataclass(frozen=True, slots=True)
class Commit:
    """Chance, first of two steps: commit to the next hand's ``seed`` (the hand starts and
    its commitment is published); the stock is drawn by the :class:`Shuffle` that follows."""

    seed: bytes

    def __str__(self) -> str:
        return f"commit {self.seed.hex()}"


@dataclass(frozen=True, slots=True)
class Shuffle:
    """Chance, second step: mix in each seat's entropy (seat 0's, seat 1's; ``b""`` for a
    seat that sent none) and draw the stock of the committed hand."""

    entropy: tuple[bytes, bytes]

    def __str__(self) -> str:
        return " ".join(["shuffle", *(value.hex() or "-" for value in self.entropy)])


@dataclass(frozen=True, slots=True)
class BlindNil:
    """Declare (``True``) or decline (``False``) blind nil before the draft."""

    declare: bool

    def __str__(self) -> str:
        return "blind-nil" if self.declare else "no-blind-nil"


@dataclass(frozen=True, slots=True)
class Keep:
    """Draft: keep the card on offer."""

    def __str__(self) -> str:
        return "keep"


@dataclass(frozen=True, slots=True)
class Discard:
    """Draft: discard the card on offer and take the next one."""

    def __str__(self) -> str:
        return "discard"


@dataclass(frozen=True, slots=True)
class Exchange:
    """Blind-nil exchange: give these cards (possibly none) face down."""

    cards: tuple[Card, ...] = ()

    def __str__(self) -> str:
        return ("exchange " + format_cards(sorted(self.cards))).rstrip()


@dataclass(frozen=True, slots=True)
class Bid:
    """Bid ``tricks`` (0 is nil)."""

    tricks: int

    def __str__(self) -> str:
        return "bid nil" if self.tricks == 0 else f"bid {self.tricks}"


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` to the current trick."""

    card: Card

    def __str__(self) -> str:
        return f"play {self.card}"


PlayerAction = BlindNil | Keep | Discard | Exchange | Bid | Play
Action = Deal | Commit | Shuffle | PlayerAction


def parse_action(text: str) -> Action:
    """Read an action's text form; raises :class:`~engine.errors.CardParseError` if bad."""
    words = text.strip().split()
    if not words:
        raise CardParseError("empty action")
    head, rest = words[0].lower(), words[1:]
    try:
        if head == "deal" and 1 <= len(rest) <= 3:
            entropy = tuple(b"" if w == "-" else bytes.fromhex(w) for w in rest[1:])
            return Deal(bytes.fromhex(rest[0]), entropy)
        if head == "commit" and len(rest) == 1:
            return Commit(bytes.fromhex(rest[0]))
        if head == "shuffle" and len(rest) == 2:
            first, second = (b"" if w == "-" else bytes.fromhex(w) for w in rest)
            return Shuffle((first, second))
        if head in ("blind-nil", "no-blind-nil") and not rest:
            return BlindNil(head == "blind-nil")
        if head == "keep" and not rest:
            return Keep()
        if head == "discard" and not rest:
            return Discard()
        if head == "exchange":
            return Exchange(parse_cards(" ".join(rest)))
        if head == "bid" and len(rest) == 1:
            return Bid(0 if rest[0].lower() == "nil" else int(rest[0]))
        if head == "play" and len(rest) == 1:
            return Play(Card.parse(rest[0]))
    except ValueError as error:
        raise CardParseError(f"bad action {text!r}: {error}") from None
    raise CardParseError(f"unknown action {text!r}")
