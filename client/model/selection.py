"""What the player has chosen or typed at the table: the cursor card, a half-typed
card, the bid being typed and the cards picked for the blind nil exchange.

The screens call these methods from their keys; each returns what to tell the player
(a flash line) when a key cannot do what it asks, else ``None`` or ``""``.
"""

from __future__ import annotations

from collections.abc import Sequence

from client.cardwords import card_keys, is_suit_letter, read_card
from client.i18n import _, language
from engine import Card

__all__ = ["CARD_KEYS", "SUIT_ORDER", "Selection", "hand_order"]

SUIT_ORDER = (3, 2, 0, 1)  # spades, hearts, clubs, diamonds: colours alternate
CARD_KEYS = card_keys("en")  # the English letters; card_keys(language) adds the language's


def hand_order(cards: Sequence[Card]) -> list[Card]:
    """Display order: grouped by suit, spades first, high cards first within a suit."""
    return sorted(cards, key=lambda c: (SUIT_ORDER.index(c.suit), -c.rank))


class Selection:
    """The cursor, the typed card, the typed bid and the exchange picks."""

    def __init__(self) -> None:
        self.cursor: Card | None = None
        self.typed = ""
        self.bid_entry = ""
        self.picks: set[Card] = set()

    def new_turn(self) -> None:
        """A new ``your_turn``: nothing typed, nothing picked (the cursor stays)."""
        self.typed = ""
        self.bid_entry = ""
        self.picks = set()

    def clear_typed(self) -> None:
        self.typed = ""

    def erase_typed(self) -> None:
        self.typed = self.typed[:-1]

    def point(self, card: Card | None) -> None:
        self.cursor = card

    def move(self, key: str, cards: list[Card]) -> None:
        """Arrow ``key`` over ``cards``: left/right one card, up/down a suit group."""
        if not cards:
            return
        if self.cursor not in cards:
            self.cursor = cards[0]
            return
        assert self.cursor is not None
        index = cards.index(self.cursor)
        if key in ("left", "right"):
            index = (index + (1 if key == "right" else -1)) % len(cards)
            self.cursor = cards[index]
            return
        suits: list[int] = []
        for card in cards:
            if card.suit not in suits:
                suits.append(card.suit)
        at = suits.index(self.cursor.suit)
        target = suits[(at + (1 if key == "down" else -1)) % len(suits)]
        self.cursor = next(c for c in cards if c.suit == target)

    def type_card(self, key: str) -> tuple[Card | None, str]:
        """Feed ``key`` to the typed card: the card once one is complete, and what to
        say when the text is not a card (``qs``, ``10h`` and ``th`` are cards)."""
        code = language()
        if key not in card_keys(code):
            return None, ""
        self.typed = (self.typed + key.lower())[-3:]
        if is_suit_letter(self.typed[-1], code) and len(self.typed) >= 2:
            text, self.typed = self.typed, ""
            for start in range(len(text) - 1):
                card = read_card(text[start:], code)
                if card is not None:
                    return card, ""
            return None, _("{text!r} is not a card; type e.g. {example}").format(
                text=text, example=_("qs or 10h")
            )
        return None, ""

    def type_bid(self, digit: str) -> None:
        entry = self.bid_entry + digit if self.bid_entry not in ("", "0") else digit
        self.bid_entry = digit if int(entry) > 13 else entry

    def set_bid(self, value: int) -> None:
        self.bid_entry = str(value)

    def erase_bid(self) -> None:
        self.bid_entry = self.bid_entry[:-1]

    def step_bid(self, step: int, bids: list[int]) -> None:
        """One bid up or down within ``bids`` (sorted); from nothing typed: the end."""
        if not self.bid_entry:
            self.bid_entry = str(bids[0] if step > 0 else bids[-1])
            return
        self.bid_entry = str(min(max(int(self.bid_entry) + step, bids[0]), bids[-1]))

    def toggle_pick(self, card: Card, limit: int) -> str:
        """Pick ``card`` for the exchange, or drop it; what to say when ``limit`` is reached."""
        self.cursor = card
        if card in self.picks:
            self.picks.discard(card)
        elif len(self.picks) >= limit:
            return _("At most {limit} cards; Space on a picked card drops it.").format(limit=limit)
        else:
            self.picks.add(card)
        return ""
