"""Cards as the players of each language write and type them.

German and Dutch decks print their own letters for the picture cards and the ace
(German Bube, Dame, König, Ass: ``B D K A``; Dutch boer, vrouw, heer, aas: ``B V H A``),
and their players name the suits by their own initials; Japanese and Greek decks print
``J Q K A``, and the Latin letters are what those keyboards type at the table. The hand
shows the language's letters; a typed card is read in the language's letters and, as
well, in the English ones (``qs`` is always the queen of spades)::

    card_text(Card.parse("QS"), "de")              # -> "D♠"
    card_text(Card.parse("QS"), "de", ascii=True)  # -> "DP"  (Dame, Pik)
    read_card("dp", "de")                           # -> Card QS
    suit_letters("nl")                              # -> "krhs"  (klaveren ruiten harten schoppen)

Raises nothing; :func:`read_card` answers ``None`` for a text that is not a card.
"""

from __future__ import annotations

from typing import Final

from engine import Card
from engine.cards import RANK_TEXT, SUIT_SYMBOLS

__all__ = ["card_keys", "card_text", "is_suit_letter", "read_card", "suit_letters"]

# the letters of jack, queen, king and ace on the language's decks
_PICTURES: Final[dict[str, str]] = {"de": "BDKA", "nl": "BVHA"}
# the suits' initials, clubs, diamonds, hearts, spades: German Kreuz (x: a K is taken by
# Karo, and Kreuz is a cross), Karo, Herz, Pik; Dutch klaveren, ruiten, harten, schoppen
_SUITS: Final[dict[str, str]] = {"de": "xkhp", "nl": "krhs"}
_ENGLISH_PICTURES: Final = "JQKA"
_ENGLISH_SUITS: Final = "cdhs"


def suit_letters(language: str) -> str:
    """The letters that name clubs, diamonds, hearts and spades in ``language``."""
    return _SUITS.get(language, _ENGLISH_SUITS)


def _rank_text(rank: int, language: str) -> str:
    if rank < 9:
        return RANK_TEXT[rank]
    return _PICTURES.get(language, _ENGLISH_PICTURES)[rank - 9]


def card_text(card: Card, language: str, ascii: bool = False) -> str:
    """``card`` as the language shows it: ``"D♠"`` in German, ``"DP"`` in ASCII."""
    suit = suit_letters(language)[card.suit].upper() if ascii else SUIT_SYMBOLS[card.suit]
    return _rank_text(card.rank, language) + suit


def card_keys(language: str) -> frozenset[str]:
    """Every key that may be part of a typed card in ``language`` (both cases)."""
    letters = "0123456789t" + _ENGLISH_PICTURES + _ENGLISH_SUITS
    letters += _PICTURES.get(language, "") + _SUITS.get(language, "")
    return frozenset(letters.lower() + letters.upper())


def _rank_of(text: str, language: str) -> int | None:
    if text in ("t", "10"):
        return 8
    if text == "1":  # an ace, as the engine reads it too
        return 12
    if text.isdigit() and 2 <= int(text) <= 9:
        return int(text) - 2
    if len(text) != 1:
        return None
    local = _PICTURES.get(language, "").lower()
    if text in local:
        return 9 + local.index(text)
    english = _ENGLISH_PICTURES.lower()
    return 9 + english.index(text) if text in english else None


def read_card(text: str, language: str) -> Card | None:
    """The card ``text`` names (rank then suit, ``dp``, ``10h``, ``qs``), in the language's
    letters or the English ones, or None."""
    text = text.strip().lower()
    if len(text) < 2:
        return None
    rank = _rank_of(text[:-1], language)
    suit_letter = text[-1]
    local = _SUITS.get(language, "")
    if suit_letter in local:
        suit = local.index(suit_letter)
    elif suit_letter in _ENGLISH_SUITS:
        suit = _ENGLISH_SUITS.index(suit_letter)
    else:
        return None
    if rank is None:
        return None
    return Card.of(rank, suit)


def is_suit_letter(key: str, language: str) -> bool:
    """Whether ``key`` ends a typed card in ``language``."""
    return key.lower() in _ENGLISH_SUITS + _SUITS.get(language, "")
