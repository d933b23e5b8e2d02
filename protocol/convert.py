"""Conversions between engine values and protocol messages, all in one place.

The engine never imports pydantic, and the server never builds a message by hand::

    view_message(state.view_for(seat))            # engine PlayerView -> View
    view_from_message(msg, rules)                  # View -> engine PlayerView
    action_message(engine_action) / action_from_message(msg)
    event_messages(outcome.for_viewer(seat))       # engine events -> event messages
    your_turn_message(state.view_for(seat), code)  # the your_turn of the seat to move
    rules_message(rule_set) / rules_from_message(msg)

``*_from_message`` raise :class:`~protocol.errors.ConversionError` for a value the engine
does not accept (an unknown rule field value, say).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import (
    Action,
    Bid,
    BidMade,
    BlindNil,
    BlindNilDeclared,
    Card,
    CardPlayed,
    Discard,
    DraftTurnTaken,
    EngineError,
    Event,
    Exchange,
    ExchangeMade,
    GameOver,
    HandScored,
    HandStarted,
    Keep,
    Phase,
    Play,
    PlayerAction,
    PlayerView,
    RuleSet,
    Shuffled,
    Trick,
    TrickWon,
)
from engine import HandResult as EngineHandResult
from protocol import messages as m
from protocol.errors import ConversionError

__all__ = [
    "action_from_message",
    "action_message",
    "event_messages",
    "hand_result_from_message",
    "hand_result_message",
    "rules_from_message",
    "rules_message",
    "view_from_message",
    "view_message",
    "your_turn_message",
]


def _cards(cards: Iterable[Card]) -> tuple[str, ...]:
    return tuple(str(card) for card in cards)


def _from_cards(texts: Sequence[str]) -> tuple[Card, ...]:
    try:
        return tuple(Card.parse(text) for text in texts)
    except EngineError as error:
        raise ConversionError(str(error)) from None


def rules_message(rules: RuleSet) -> m.Rules:
    return m.Rules(**rules.to_dict())


def rules_from_message(message: m.Rules) -> RuleSet:
    try:
        return RuleSet.from_dict(message.model_dump())
    except EngineError as error:
        raise ConversionError(str(error)) from None


def action_message(action: Action) -> m.ActionMessage:
    """The message form of a seat's action (chance's Deal has none: ConversionError)."""
    if isinstance(action, Keep):
        return m.KeepAction()
    if isinstance(action, Discard):
        return m.DiscardAction()
    if isinstance(action, BlindNil):
        return m.BlindNilAction(declare=action.declare)
    if isinstance(action, Exchange):
        return m.ExchangeAction(cards=_cards(action.cards))
    if isinstance(action, Bid):
        return m.BidAction(tricks=action.tricks)
    if isinstance(action, Play):
        return m.PlayAction(card=str(action.card))
    raise ConversionError(f"{type(action).__name__} is not sent over the protocol")


def action_from_message(message: m.ActionMessage) -> PlayerAction:
    if isinstance(message, m.KeepAction):
        return Keep()
    if isinstance(message, m.DiscardAction):
        return Discard()
    if isinstance(message, m.BlindNilAction):
        return BlindNil(message.declare)
    if isinstance(message, m.ExchangeAction):
        return Exchange(_from_cards(message.cards))
    if isinstance(message, m.BidAction):
        return Bid(message.tricks)
    return Play(_from_cards((message.card,))[0])


def _trick(trick: Trick) -> m.TrickData:
    return m.TrickData(
        leader=trick.leader, cards=(str(trick.cards[0]), str(trick.cards[1])), winner=trick.winner
    )


def _trick_from(message: m.TrickData) -> Trick:
    first, second = _from_cards(message.cards)
    return Trick(message.leader, (first, second), message.winner)


def hand_result_message(result: EngineHandResult, table: str) -> m.HandResult:
    return m.HandResult(
        table=table,
        hand_number=result.hand_number,
        first_drafter=result.first_drafter,
        bids=result.bids,
        blind_nil=result.blind_nil,
        tricks=result.tricks,
        points=result.points,
        bags_added=result.bags_added,
        bag_penalties=result.bag_penalties,
        scores=result.scores,
        bags=result.bags,
        commitment=result.commitment,
        seed=result.seed.hex(),
        entropy=tuple(value.hex() for value in result.entropy),
    )


def _from_hex(text: str) -> bytes:
    try:
        return bytes.fromhex(text)
    except ValueError:
        raise ConversionError(f"not whole bytes in hex: {text!r}") from None


def hand_result_from_message(message: m.HandResult) -> EngineHandResult:
    return EngineHandResult(
        hand_number=message.hand_number,
        first_drafter=message.first_drafter,
        bids=message.bids,
        blind_nil=message.blind_nil,
        tricks=message.tricks,
        points=message.points,
        bags_added=message.bags_added,
        bag_penalties=message.bag_penalties,
        scores=message.scores,
        bags=message.bags,
        commitment=message.commitment,
        seed=_from_hex(message.seed),
        entropy=tuple(_from_hex(value) for value in message.entropy),
    )


def view_message(view: PlayerView, table: str = "-") -> m.View:
    """The message form of ``view``; ``table`` labels its hand results."""
    return m.View(
        seat=view.seat,
        phase=view.phase.value,
        version=view.version,
        hand_number=view.hand_number,
        scores=view.scores,
        bags=view.bags,
        first_drafter=view.first_drafter,
        first_bidder=view.first_bidder,
        current_player=view.current_player,
        commitment=view.commitment,
        hand=_cards(view.hand),
        offered=None if view.offered is None else str(view.offered),
        draft_kept=_cards(view.draft_kept),
        draft_discarded=_cards(view.draft_discarded),
        draft_taken=_cards(view.draft_taken),
        draft_seen_after_keep=_cards(view.draft_seen_after_keep),
        exchange_given=_cards(view.exchange_given),
        exchange_received=_cards(view.exchange_received),
        hand_sizes=view.hand_sizes,
        draft_turns=view.draft_turns,
        stock_left=view.stock_left,
        pile_size=view.pile_size,
        blind_nil=view.blind_nil,
        exchange_counts=view.exchange_counts,
        bids=view.bids,
        tricks=tuple(_trick(trick) for trick in view.tricks),
        current_trick=_cards(view.current_trick),
        leader=view.leader,
        tricks_won=view.tricks_won,
        spades_broken=view.spades_broken,
        hand_results=tuple(hand_result_message(r, table) for r in view.hand_results),
        winner=view.winner,
    )


def view_from_message(message: m.View, rules: m.Rules | RuleSet) -> PlayerView:
    """The engine view a ``View`` message describes, under ``rules``."""
    rule_set = rules if isinstance(rules, RuleSet) else rules_from_message(rules)
    return PlayerView(
        seat=message.seat,
        rules=rule_set,
        phase=Phase(message.phase),
        version=message.version,
        hand_number=message.hand_number,
        scores=message.scores,
        bags=message.bags,
        first_drafter=message.first_drafter,
        first_bidder=message.first_bidder,
        current_player=message.current_player,
        commitment=message.commitment,
        hand=_from_cards(message.hand),
        offered=None if message.offered is None else _from_cards((message.offered,))[0],
        draft_kept=_from_cards(message.draft_kept),
        draft_discarded=_from_cards(message.draft_discarded),
        draft_taken=_from_cards(message.draft_taken),
        draft_seen_after_keep=_from_cards(message.draft_seen_after_keep),
        exchange_given=_from_cards(message.exchange_given),
        exchange_received=_from_cards(message.exchange_received),
        hand_sizes=message.hand_sizes,
        draft_turns=message.draft_turns,
        stock_left=message.stock_left,
        pile_size=message.pile_size,
        blind_nil=message.blind_nil,
        exchange_counts=message.exchange_counts,
        bids=message.bids,
        tricks=tuple(_trick_from(t) for t in message.tricks),
        current_trick=_from_cards(message.current_trick),
        leader=message.leader,
        tricks_won=message.tricks_won,
        spades_broken=message.spades_broken,
        hand_results=tuple(hand_result_from_message(r) for r in message.hand_results),
        winner=message.winner,
    )


def _event(event: Event) -> m.EventMessage:
    if isinstance(event, HandStarted):
        return m.HandStartedEvent(
            hand_number=event.hand_number,
            first_drafter=event.first_drafter,
            first_bidder=event.first_bidder,
            commitment=event.commitment,
        )
    if isinstance(event, Shuffled):
        return m.ShuffledEvent(hand_number=event.hand_number, entropy_from=event.entropy_from)
    if isinstance(event, BlindNilDeclared):
        return m.BlindNilEvent(seat=event.seat, declared=event.declared)
    if isinstance(event, DraftTurnTaken):
        return m.DraftTurnEvent(
            seat=event.seat,
            turns_left=event.turns_left,
            kept=event.kept,
            card=None if event.card is None else str(event.card),
            other_card=None if event.other_card is None else str(event.other_card),
        )
    if isinstance(event, ExchangeMade):
        return m.ExchangeEvent(
            seat=event.seat,
            count=event.count,
            given=_cards(event.given),
            received=_cards(event.received),
        )
    if isinstance(event, BidMade):
        return m.BidEvent(seat=event.seat, tricks=event.tricks)
    if isinstance(event, CardPlayed):
        return m.CardPlayedEvent(seat=event.seat, card=str(event.card))
    if isinstance(event, TrickWon):
        return m.TrickWonEvent(number=event.number, trick=_trick(event.trick))
    if isinstance(event, HandScored):
        return m.HandScoredEvent(
            hand_number=event.result.hand_number,
            points=event.result.points,
            scores=event.result.scores,
        )
    if isinstance(event, GameOver):
        return m.GameOverEvent(winner=event.winner, scores=event.scores)
    raise ConversionError(f"unknown event {event!r}")


def event_messages(events: Iterable[Event]) -> tuple[m.EventMessage, ...]:
    """Message forms of events already filtered for one viewer (``Outcome.for_viewer``)."""
    return tuple(_event(event) for event in events)


def your_turn_message(
    view: PlayerView, table: str, seconds_left: float | None = None
) -> m.YourTurn:
    """The ``your_turn`` message for the seat of ``view``, which must be the seat to move.

    ``legal`` lists the view's legal actions, except in the ``exchange`` phase where it is
    empty and ``exchange_max`` says how many cards may be given; in the ``draft`` phase
    ``offered`` is the card on offer. Raises :class:`ConversionError` when it is not this
    view's seat's turn.
    """
    if not view.my_turn:
        raise ConversionError("it is not this seat's turn")
    if view.phase is Phase.EXCHANGE:
        legal: tuple[m.ActionMessage, ...] = ()
        exchange_max: int | None = min(view.rules.blind_nil_exchange, len(view.hand))
    else:
        legal = tuple(action_message(action) for action in view.legal_actions())
        exchange_max = None
    return m.YourTurn(
        table=table,
        version=view.version,
        phase=view.phase.value,
        legal=legal,
        exchange_max=exchange_max,
        seconds_left=seconds_left,
        offered=None if view.offered is None else str(view.offered),
    )
