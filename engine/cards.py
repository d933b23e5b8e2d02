"""Cards and int-bitmask card sets.

A card is a small int ``0..51``: ``suit * 13 + rank`` with suits ordered clubs, diamonds,
hearts, spades (``0..3``) and ranks ``0`` (two) to ``12`` (ace). :class:`Card` is an
``int`` subclass, so it is cheap, hashable and immutable, with text forms both ways::

    >>> Card.parse("QS"), Card.parse("10h"), Card.parse("TH")
    (Card.parse('QS'), Card.parse('10H'), Card.parse('10H'))
    >>> str(Card.parse("td")), Card.parse("td").pretty()
    ('10D', '10♦')

A set of cards is an ``int`` whose bit ``c`` is set when card ``c`` is in it; the helpers
below convert between masks and card tuples. The bot's fast path works on masks only.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from engine.errors import CardParseError

__all__ = [
    "ALL_CARDS_MASK",
    "CARDS",
    "CLUBS",
    "DIAMONDS",
    "HEARTS",
    "RANK_TEXT",
    "SPADES",
    "SUIT_MASKS",
    "SUIT_SYMBOLS",
    "SUIT_TEXT",
    "Card",
    "card_indexes",
    "card_mask",
    "cards_in",
    "format_cards",
    "parse_cards",
]

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3

SUIT_TEXT: Final = "CDHS"
SUIT_SYMBOLS: Final = "♣♦♥♠"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
RANK_TEXT: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_RANK_ALIASES: Final = {text: index for index, text in enumerate(RANK_TEXT)} | {"T": 8, "1": 12}


class Card(int):
    """One playing card, an ``int`` in ``0..51``.

    Build one with :meth:`Card.parse` (``"AS"``, ``"10h"``, ``"th"``, ``"2C"``, or with a
    unicode suit ``"Q♠"``) or from its index ``Card(51)``; ``str(card)`` gives the
    canonical text (``"10H"``), :meth:`pretty` the unicode form. Raises
    :class:`~engine.errors.CardParseError` on bad text and ``ValueError`` on an index
    outside ``0..51``.
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        if not 0 <= index < 52:
            raise ValueError(f"card index {index} is outside 0..51")
        return super().__new__(cls, index)

    @classmethod
    def of(cls, rank: int, suit: int) -> Card:
        """The card of ``rank`` (0 = two .. 12 = ace) in ``suit`` (0 = clubs .. 3 = spades)."""
        return CARDS[suit * 13 + rank]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card such as ``"QS"``, ``"10h"``, ``"Th"`` or ``"A♠"``.

        Raises :class:`~engine.errors.CardParseError` if it is not a card.
        """
        cleaned = text.strip().upper()
        if len(cleaned) < 2:
            raise CardParseError(f"not a card: {text!r} (try 'QS', '10H' or 'TH')")
        rank_text, suit_text = cleaned[:-1], cleaned[-1]
        suit = SUIT_TEXT.find(suit_text)
        if suit < 0:
            suit = SUIT_SYMBOLS.find(suit_text)
        rank = _RANK_ALIASES.get(rank_text)
        if suit < 0 or rank is None:
            raise CardParseError(f"not a card: {text!r} (try 'QS', '10H' or 'TH')")
        return CARDS[suit * 13 + rank]

    @property
    def suit(self) -> int:
        """The suit, 0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades."""
        return int(self) // 13

    @property
    def rank(self) -> int:
        """The rank, 0 = two .. 12 = ace."""
        return int(self) % 13

    @property
    def bit(self) -> int:
        """This card as a one-card mask."""
        return 1 << int(self)

    def pretty(self, ascii_only: bool = False) -> str:
        """Display text, ``"10♥"`` (or ``"10H"`` when ``ascii_only``)."""
        suits = SUIT_TEXT if ascii_only else SUIT_SYMBOLS
        return RANK_TEXT[self.rank] + suits[self.suit]

    def __str__(self) -> str:
        return RANK_TEXT[self.rank] + SUIT_TEXT[self.suit]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


CARDS: Final[tuple[Card, ...]] = tuple(int.__new__(Card, i) for i in range(52))
ALL_CARDS_MASK: Final = (1 << 52) - 1
SUIT_MASKS: Final = tuple(((1 << 13) - 1) << (13 * suit) for suit in range(4))


def card_mask(cards: Iterable[int]) -> int:
    """The mask holding ``cards``."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def card_indexes(mask: int) -> list[int]:
    """The card indexes (0 to 51) set in ``mask``, lowest first: ``card_indexes(0b101)``
    is ``[0, 2]``."""
    result = []
    while mask:
        low = mask & -mask
        result.append(low.bit_length() - 1)
        mask ^= low
    return result


def cards_in(mask: int) -> tuple[Card, ...]:
    """The cards of ``mask``, lowest index first (clubs 2 up to the spade ace)."""
    return tuple(CARDS[index] for index in card_indexes(mask))


def parse_cards(text: str) -> tuple[Card, ...]:
    """Read cards separated by spaces or commas: ``"QS 10h, 2c"``.

    Raises :class:`~engine.errors.CardParseError` on any bad card.
    """
    return tuple(Card.parse(part) for part in text.replace(",", " ").split())


def format_cards(cards: Iterable[int]) -> str:
    """Canonical text of ``cards`` separated by spaces."""
    return " ".join(str(CARDS[c]) for c in cards)
