"""What the bot's seat knows about the hidden cards, read from its :class:`PlayerView` only.

:func:`read_knowledge` turns a view into bitmasks: the bot's hand, the cards that may be
in the opponent's hand (every card the seat has not seen, less the suits the opponent has
shown void in), the cards it saw go to the pile, the opponent's plays. :func:`sample_hand`
draws the opponent's hidden hand among the hands consistent with all that, as a drafted
hand (the opponent kept high cards and spades, see
:data:`engine.bot.heuristics.PRIOR`), optionally weighted by a likelihood such as that
of the opponent's bid.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from engine.bot.heuristics import NIL_SAMPLE_WEIGHT, SAMPLE_WEIGHT
from engine.cards import ALL_CARDS_MASK, SPADES, SUIT_MASKS, card_mask
from engine.game import PlayerView

__all__ = ["Knowledge", "pick_drafted", "read_knowledge", "sample_hand"]

_SPADE_MASK = SUIT_MASKS[SPADES]
_INVERSE_WEIGHT = tuple(1.0 / weight for weight in SAMPLE_WEIGHT)
_INVERSE_NIL_WEIGHT = tuple(1.0 / weight for weight in NIL_SAMPLE_WEIGHT)


@dataclass(frozen=True, slots=True)
class Knowledge:
    """The bot seat's knowledge of one hand, as card masks (bit ``c`` = card ``c``)."""

    me: int
    opp: int
    hand: int
    """The bot's own cards now."""
    opp_size: int
    """How many cards the opponent holds now."""
    unseen: int
    """Cards the bot has never seen (in the opponent's hand or face down in the pile)."""
    pile_seen: int
    """Cards the bot saw go to the pile, not played since."""
    voids: int
    """Bit ``s`` set: the opponent has shown it holds no card of suit ``s``."""
    opp_played: int
    """Cards the opponent played this hand (including to the current trick)."""
    played: int
    """Every card played this hand."""
    opp_exchanged: int
    """How many cards the opponent received from the pile after the bot saw the pile cards
    (a blind-nil exchange): so many of its cards may come from ``pile_seen``."""
    pile_seen_at_exchange: int
    """How many of the pile's cards the bot had seen when the opponent drew from it."""
    pile_at_exchange: int
    """The pile's size when the opponent drew from it."""
    opp_nil: bool = False
    """The opponent bid nil or blind nil (its hand is drawn low)."""

    @property
    def void_mask(self) -> int:
        """The cards of every suit the opponent is void in."""
        mask = 0
        for suit in range(4):
            if self.voids >> suit & 1:
                mask |= SUIT_MASKS[suit]
        return mask

    @property
    def possible(self) -> int:
        """Cards that may be in the opponent's hand."""
        mask = self.unseen
        if self.opp_exchanged:
            mask |= self.pile_seen
        return mask & ~self.void_mask

    @property
    def outside(self) -> int:
        """Cards not in the bot's hand and not played: the opponent's hand and the pile."""
        return ALL_CARDS_MASK & ~self.hand & ~self.played


def read_knowledge(view: PlayerView) -> Knowledge:
    """Everything ``view``'s seat knows about hidden cards, as masks."""
    me = view.seat if view.seat is not None else 0
    opp = 1 - me
    hand = view.hand_mask
    played = 0
    opp_played = 0
    voids = 0
    broken = False
    for trick in view.tricks:
        first, second = trick.cards
        lead_suit = first.suit
        opp_card = trick.card_of(opp)
        opp_played |= 1 << opp_card
        played |= (1 << first) | (1 << second)
        if trick.leader == opp:
            if lead_suit == SPADES and not broken:
                voids |= 0b0111  # led a spade before they broke: it held only spades
        elif second.suit != lead_suit:
            voids |= 1 << lead_suit
        if first.suit == SPADES or second.suit == SPADES:
            broken = True
    if view.current_trick:
        first = view.current_trick[0]
        played |= 1 << first
        if view.leader == opp:
            opp_played |= 1 << first
            if first.suit == SPADES and not broken:
                voids |= 0b0111
    pile_seen = card_mask(view.draft_discarded) | card_mask(view.draft_seen_after_keep)
    draft_pile_seen = pile_seen
    pile_seen |= card_mask(view.exchange_given)
    pile_seen &= ~played
    unseen = ALL_CARDS_MASK & ~hand & ~played & ~pile_seen
    unseen &= ~card_mask(view.draft_kept) & ~card_mask(view.draft_taken)
    unseen &= ~card_mask(view.exchange_received)
    # A blind-nil exchange by the opponent may have pulled cards the bot saw from the pile.
    opp_exchanged = 0
    seen_at_exchange = 0
    opp_count = view.exchange_counts[opp]
    if opp_count:
        opp_exchanged = opp_count
        seen_at_exchange = draft_pile_seen.bit_count()
        first_exchanger = view.first_drafter
        my_count = view.exchange_counts[me]
        if first_exchanger == me and my_count:
            seen_at_exchange += my_count
    pile_size = view.pile_size if view.pile_size else 26
    return Knowledge(
        me=me,
        opp=opp,
        hand=hand,
        opp_size=view.hand_sizes[opp],
        unseen=unseen,
        pile_seen=pile_seen,
        voids=voids,
        opp_played=opp_played,
        played=played,
        opp_exchanged=opp_exchanged,
        pile_seen_at_exchange=seen_at_exchange,
        pile_at_exchange=pile_size,
        opp_nil=bool(view.blind_nil[opp]) or view.bids[opp] == 0,
    )


def _pick(mask: int, count: int, rng: random.Random) -> int:
    """``count`` cards of ``mask`` drawn uniformly (all of them if it holds fewer)."""
    cards = []
    rest = mask
    while rest:
        low = rest & -rest
        cards.append(low.bit_length() - 1)
        rest ^= low
    if count >= len(cards):
        return mask
    chosen = 0
    for card in rng.sample(cards, count):
        chosen |= 1 << card
    return chosen


def pick_drafted(mask: int, count: int, rng: random.Random, nil: bool = False) -> int:
    """``count`` cards of ``mask`` drawn as a drafted hand: high cards and spades likelier.

    Successive sampling with the weights of :data:`SAMPLE_WEIGHT` (random keys
    ``u ** (1 / w)``, the ``count`` largest win).
    """
    if count <= 0:
        return 0
    keyed = []
    rest = mask
    random_value = rng.random
    inverse = _INVERSE_NIL_WEIGHT if nil else _INVERSE_WEIGHT
    while rest:
        low = rest & -rest
        card = low.bit_length() - 1
        keyed.append((random_value() ** inverse[card], low))
        rest ^= low
    if count >= len(keyed):
        return mask
    keyed.sort(reverse=True)
    chosen = 0
    for _, bit in keyed[:count]:
        chosen |= bit
    return chosen


def _draw_once(know: Knowledge, rng: random.Random) -> int:
    size = know.opp_size
    void_mask = know.void_mask
    fresh = know.unseen & ~void_mask
    from_pile = 0
    if know.opp_exchanged and know.pile_seen:
        # how many of the opponent's received cards were ones the bot had seen
        seen_left = know.pile_seen_at_exchange
        slots = max(know.pile_at_exchange, seen_left)
        hits = 0
        for _ in range(know.opp_exchanged):
            if slots <= 0:
                break
            if rng.randrange(slots) < seen_left:
                hits += 1
                seen_left -= 1
            slots -= 1
        from_pile = _pick(know.pile_seen & ~void_mask, min(hits, size), rng)
    need = size - from_pile.bit_count()
    chosen = from_pile | pick_drafted(fresh, need, rng, know.opp_nil)
    short = size - chosen.bit_count()
    if short > 0:  # inconsistent knowledge (should not happen): fill from what is left
        rest = (know.unseen | know.pile_seen) & ~chosen
        chosen |= _pick(rest, short, rng)
    return chosen


def sample_hand(
    know: Knowledge,
    rng: random.Random,
    weight: Callable[[int], float] | None = None,
    tries: int = 12,
) -> int:
    """One opponent hand consistent with ``know``, as a mask.

    Without ``weight`` it follows the drafted-hand prior. With it, a hand is
    accepted with probability ``weight(hand)`` (in ``0..1``; rejection sampling), and
    after ``tries`` rejections the likeliest one drawn is returned.
    """
    if weight is None:
        return _draw_once(know, rng)
    best, best_weight = 0, -1.0
    for _ in range(tries):
        candidate = _draw_once(know, rng)
        value = weight(candidate)
        if rng.random() < value:
            return candidate
        if value > best_weight:
            best, best_weight = candidate, value
    return best
