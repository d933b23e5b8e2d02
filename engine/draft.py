"""Before the bidding: blind-nil declarations, the draft from the stock, and the exchange.

The seats declare (or decline) blind nil in turn, then draft in turn: the drafter sees the
top card of the stock and keeps it (the next card goes to the pile) or discards it to the
pile and takes the next card. After the draft each blind-nil seat may give up to
``rules.blind_nil_exchange`` cards to the pile and draw as many from it at random. Each
function returns the next ``(phase, seat to act)``, handing over to
:func:`engine.bidding.next_to_bid` when the draft and the exchanges are done. Nothing here
raises: the action is checked before (:func:`engine.legal.check_move`).
"""

from __future__ import annotations

from engine.bidding import next_to_bid
from engine.cards import CARDS, Card, card_mask
from engine.events import BlindNilDeclared, DraftTurnTaken, Event, ExchangeMade
from engine.hand import HAND_SIZE, HandState, Phase
from engine.rules import RuleSet

__all__ = ["declare_blind_nil", "draft_turn", "exchange"]


def declare_blind_nil(
    hand: HandState, seat: int, declare: bool, events: list[Event]
) -> tuple[Phase, int]:
    """``seat`` declares (or declines) blind nil; the draft starts once both have said."""
    hand.blind[seat] = declare
    events.append(BlindNilDeclared(seat, declare))
    if hand.blind[1 - seat] is None:
        return Phase.BLIND_NIL, 1 - seat
    return Phase.DRAFT, hand.first_drafter


def draft_turn(
    rules: RuleSet, hand: HandState, seat: int, keep: bool, events: list[Event]
) -> tuple[Phase, int]:
    """``seat`` keeps (or discards) the card on offer; appends ``DraftTurnTaken``.

    The event carries the drafter's cards; :meth:`engine.events.Outcome.for_viewer` strips
    them for everyone else.
    """
    top, following = hand.stock[hand.stock_pos], hand.stock[hand.stock_pos + 1]
    hand.stock_pos += 2
    other_card: int | None
    if keep:
        hand.hands[seat] |= 1 << top
        hand.pile.append(following)
        hand.kept[seat].append(top)
        other_card = following if rules.see_card_after_keep else None
        if other_card is not None:
            hand.seen_after_keep[seat].append(following)
    else:
        hand.pile.append(top)
        hand.hands[seat] |= 1 << following
        hand.discarded[seat].append(top)
        hand.taken[seat].append(following)
        other_card = following
    hand.draft_turns[seat] += 1
    events.append(
        DraftTurnTaken(
            seat,
            HAND_SIZE - hand.draft_turns[seat],
            keep,
            CARDS[top],
            None if other_card is None else CARDS[other_card],
        )
    )
    if hand.stock_pos < len(hand.stock):
        return Phase.DRAFT, 1 - seat
    exchanger = _next_to_exchange(rules, hand)
    if exchanger is not None:
        return Phase.EXCHANGE, exchanger
    return next_to_bid(hand)


def exchange(
    rules: RuleSet, hand: HandState, seat: int, cards: tuple[Card, ...], events: list[Event]
) -> tuple[Phase, int]:
    """``seat`` gives ``cards`` (held, sorted) to the pile and draws as many from it.

    The draw comes from the hand's stream, so a replay draws the same cards. Appends
    ``ExchangeMade`` (its cards are for ``seat`` only).
    """
    received = tuple(CARDS[c] for c in hand.stream.sample(hand.pile, len(cards)))
    for card in received:
        hand.pile.remove(card)
    hand.pile.extend(int(card) for card in cards)
    hand.hands[seat] = (hand.hands[seat] & ~card_mask(cards)) | card_mask(received)
    hand.given[seat] = tuple(sorted(cards))
    hand.received[seat] = tuple(sorted(received))
    hand.exchange_counts[seat] = len(cards)
    events.append(ExchangeMade(seat, len(cards), hand.given[seat], hand.received[seat]))
    exchanger = _next_to_exchange(rules, hand)
    if exchanger is not None:
        return Phase.EXCHANGE, exchanger
    return next_to_bid(hand)


def _next_to_exchange(rules: RuleSet, hand: HandState) -> int | None:
    """The next blind-nil seat yet to exchange (the first drafter's first), if any."""
    if rules.blind_nil_exchange == 0:
        return None
    for seat in (hand.first_drafter, 1 - hand.first_drafter):
        if hand.blind[seat] and hand.exchange_counts[seat] is None:
            return seat
    return None
