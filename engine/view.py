"""What one viewer may know: :class:`PlayerView`, made by :meth:`engine.game.GameState.view_for`.

A view is an immutable snapshot for a seat (``0``/``1``) or a spectator (``None``): the
public state of the game and the hand, and, for a seat, its own cards and nothing of the
other seat's. The bot decides from a view alone (:meth:`PlayerView.legal_actions`,
:meth:`PlayerView.seen_cards_mask`). Nothing here raises.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.actions import Action
from engine.cards import Card, card_mask
from engine.events import HandResult, Trick
from engine.hand import Phase
from engine.legal import legal_actions
from engine.rules import RuleSet

__all__ = ["PlayerView"]


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Exactly what one viewer knows: a seat (``0``/``1``) or a spectator (``None``).

    Private fields (``hand``, ``offered``, ``draft_*``, ``exchange_given``/``received``)
    are empty for a spectator and only ever hold this seat's own cards.
    """

    seat: int | None
    rules: RuleSet
    phase: Phase
    version: int
    hand_number: int
    scores: tuple[int, int]
    bags: tuple[int, int]
    first_drafter: int | None
    first_bidder: int | None
    current_player: int | None
    commitment: str | None
    # this seat's private knowledge
    hand: tuple[Card, ...] = ()
    offered: Card | None = None
    draft_kept: tuple[Card, ...] = ()
    draft_discarded: tuple[Card, ...] = ()
    draft_taken: tuple[Card, ...] = ()
    draft_seen_after_keep: tuple[Card, ...] = ()
    exchange_given: tuple[Card, ...] = ()
    exchange_received: tuple[Card, ...] = ()
    # public
    hand_sizes: tuple[int, int] = (0, 0)
    draft_turns: tuple[int, int] = (0, 0)
    stock_left: int = 0
    pile_size: int = 0
    blind_nil: tuple[bool | None, bool | None] = (None, None)
    exchange_counts: tuple[int | None, int | None] = (None, None)
    bids: tuple[int | None, int | None] = (None, None)
    tricks: tuple[Trick, ...] = ()
    current_trick: tuple[Card, ...] = ()
    leader: int | None = None
    tricks_won: tuple[int, int] = (0, 0)
    spades_broken: bool = False
    hand_results: tuple[HandResult, ...] = ()
    winner: int | None = None

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.current_player == self.seat

    @property
    def hand_mask(self) -> int:
        return card_mask(self.hand)

    @property
    def lead_suit(self) -> int:
        """Suit led to the current trick, ``-1`` when no card is on it."""
        return self.current_trick[0].suit if self.current_trick else -1

    def legal_actions(self) -> tuple[Action, ...]:
        """This seat's legal actions now (empty when it is not this seat's turn)."""
        if not self.my_turn or self.seat is None:
            return ()
        return legal_actions(
            self.phase,
            self.rules,
            self.seat,
            self.hand_mask,
            self.lead_suit,
            self.spades_broken,
            self.scores,
        )

    def seen_cards_mask(self) -> int:
        """Every card this seat has seen: its hand, its draft cards, its exchange, and
        every card played.

        None of them is in the opponent's hand, except after the opponent's blind-nil
        exchange: it draws from the pile, which holds this seat's discards and the cards it
        saw go there.
        """
        mask = card_mask(self.hand)
        mask |= card_mask(self.draft_kept) | card_mask(self.draft_discarded)
        mask |= card_mask(self.draft_taken) | card_mask(self.draft_seen_after_keep)
        mask |= card_mask(self.exchange_given) | card_mask(self.exchange_received)
        for trick in self.tricks:
            mask |= card_mask(trick.cards)
        return mask | card_mask(self.current_trick)
