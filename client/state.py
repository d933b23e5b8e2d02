"""The one fold of the Python clients: the view kept in step with the server's messages.

Every client (terminal, web, bot) folds events rather than asking for a snapshot after
each one: no extra request per event, a view that is whole the moment a frame arrives,
and a fold the tests check against the engine on random games (the folded view equals
``GameState.view_for(viewer)`` after every action's messages)::

    view = view_from_message(snapshot.view, snapshot.table.rules)  # join, resume, resync
    view = fold(view, message)   # each events / hand_result / your_turn of that table

A ``snapshot`` replaces the view outright. :func:`apply_event` folds one event the way
the engine changed this viewer's view; :func:`fold` takes a whole server message and
checks its version: an ``events`` frame must move the version on by exactly one, a
``your_turn`` must be for the version held. Anything else raises :class:`OutOfStep`, and
the client asks for a snapshot (``join_table`` / ``watch_table`` again).

Errors: :class:`OutOfStep` (a ``ValueError``) is the only one raised here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import TypeVar

from engine import Card, EngineError, Phase, PlayerView, Trick
from protocol import messages as m
from protocol.convert import hand_result_from_message
from protocol.errors import ProtocolError

__all__ = ["OutOfStep", "apply_event", "apply_events", "fold", "fold_events", "seat_pair"]

HAND_SIZE = 13
T = TypeVar("T")


class OutOfStep(ValueError):
    """A message the held view cannot take (a version gap, an event that does not fit):
    the client must ask for a snapshot."""


def seat_pair(pair: tuple[T, T], seat: int, value: T) -> tuple[T, T]:
    """``pair`` with the item of ``seat`` replaced by ``value``."""
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def _card(text: str | None) -> Card | None:
    return None if text is None else Card.parse(text)


def _sorted(cards: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(cards))


def _start_bidding(view: PlayerView) -> PlayerView:
    """The engine's ``_start_bidding``: the first seat still to bid, else play."""
    first = view.first_bidder if view.first_bidder is not None else 0
    order = (first, 1 - first)
    bidders = [s for s in order if not view.blind_nil[s] and view.bids[s] is None]
    if bidders:
        return dataclasses.replace(view, phase=Phase.BIDDING, current_player=bidders[0])
    return dataclasses.replace(view, phase=Phase.PLAY, current_player=first, leader=first)


def _exchangers(view: PlayerView) -> list[int]:
    if view.rules.blind_nil_exchange == 0:
        return []
    first = view.first_drafter if view.first_drafter is not None else 0
    order = (first, 1 - first)
    return [s for s in order if view.blind_nil[s] and view.exchange_counts[s] is None]


def apply_event(view: PlayerView, event: m.EventMessage) -> PlayerView:
    """The view after ``event`` (already filtered for this viewer by the server)."""
    replace = dataclasses.replace
    mine = view.seat
    if isinstance(event, m.ShuffledEvent):
        return replace(
            view,
            phase=Phase.BLIND_NIL if view.rules.blind_nil else Phase.DRAFT,
            current_player=view.first_drafter,
        )
    if isinstance(event, m.HandStartedEvent):
        if event.hand_number == 1:  # a new game (a rematch): the totals start again
            view = replace(view, scores=(0, 0), bags=(0, 0), hand_results=(), winner=None)
        # protocol 1.1: the stock is drawn only after the seats' entropy (``shuffled``)
        return replace(
            view,
            phase=Phase.DEAL,
            hand_number=event.hand_number,
            first_drafter=event.first_drafter,
            first_bidder=event.first_bidder,
            current_player=None,
            commitment=event.commitment,
            hand=(),
            offered=None,
            draft_kept=(),
            draft_discarded=(),
            draft_taken=(),
            draft_seen_after_keep=(),
            exchange_given=(),
            exchange_received=(),
            hand_sizes=(0, 0),
            draft_turns=(0, 0),
            stock_left=52,
            pile_size=0,
            blind_nil=(None, None),
            exchange_counts=(None, None),
            bids=(None, None),
            tricks=(),
            current_trick=(),
            leader=None,
            tricks_won=(0, 0),
            spades_broken=False,
        )
    if isinstance(event, m.BlindNilEvent):
        blind = seat_pair(view.blind_nil, event.seat, event.declared)
        if blind[1 - event.seat] is None:
            return replace(view, blind_nil=blind, current_player=1 - event.seat)
        return replace(view, blind_nil=blind, phase=Phase.DRAFT, current_player=view.first_drafter)
    if isinstance(event, m.DraftTurnEvent):
        seat = event.seat
        turns = seat_pair(view.draft_turns, seat, HAND_SIZE - event.turns_left)
        sizes = seat_pair(view.hand_sizes, seat, view.hand_sizes[seat] + 1)
        view = replace(
            view,
            draft_turns=turns,
            hand_sizes=sizes,
            stock_left=max(0, view.stock_left - 2),
            pile_size=view.pile_size + 1,
            offered=None,
        )
        if seat == mine and event.card is not None:
            card, other = _card(event.card), _card(event.other_card)
            assert card is not None
            if event.kept:
                view = replace(
                    view,
                    hand=_sorted((*view.hand, card)),
                    draft_kept=(*view.draft_kept, card),
                    draft_seen_after_keep=view.draft_seen_after_keep
                    + ((other,) if other is not None else ()),
                )
            elif other is not None:
                view = replace(
                    view,
                    hand=_sorted((*view.hand, other)),
                    draft_discarded=(*view.draft_discarded, card),
                    draft_taken=(*view.draft_taken, other),
                )
        if view.stock_left > 0:
            return replace(view, current_player=1 - seat)
        exchangers = _exchangers(view)
        if exchangers:
            return replace(view, phase=Phase.EXCHANGE, current_player=exchangers[0])
        return _start_bidding(view)
    if isinstance(event, m.ExchangeEvent):
        view = replace(
            view, exchange_counts=seat_pair(view.exchange_counts, event.seat, event.count)
        )
        if event.seat == mine:
            given = {Card.parse(text) for text in event.given}
            received = tuple(Card.parse(text) for text in event.received)
            view = replace(
                view,
                hand=_sorted([c for c in view.hand if c not in given] + list(received)),
                exchange_given=_sorted(given),
                exchange_received=_sorted(received),
            )
        exchangers = _exchangers(view)
        if exchangers:
            return replace(view, current_player=exchangers[0])
        return _start_bidding(view)
    if isinstance(event, m.BidEvent):
        view = replace(view, bids=seat_pair(view.bids, event.seat, event.tricks))
        return _start_bidding(view)
    if isinstance(event, m.CardPlayedEvent):
        card = Card.parse(event.card)
        seat = event.seat
        hand = tuple(c for c in view.hand if c != card) if seat == mine else view.hand
        leader = view.leader if view.current_trick else seat
        return replace(
            view,
            phase=Phase.PLAY,
            hand=hand,
            hand_sizes=seat_pair(view.hand_sizes, seat, max(0, view.hand_sizes[seat] - 1)),
            current_trick=(*view.current_trick, card),
            leader=leader,
            spades_broken=view.spades_broken or card.suit == 3,
            current_player=1 - seat,
        )
    if isinstance(event, m.TrickWonEvent):
        first, second = (Card.parse(text) for text in event.trick.cards)
        trick = Trick(event.trick.leader, (first, second), event.trick.winner)
        winner = event.trick.winner
        return replace(
            view,
            tricks=(*view.tricks, trick),
            current_trick=(),
            leader=winner,
            current_player=winner,
            tricks_won=seat_pair(view.tricks_won, winner, view.tricks_won[winner] + 1),
        )
    if isinstance(event, m.HandScoredEvent):
        return replace(
            view,
            phase=Phase.HAND_OVER,
            scores=event.scores,
            current_player=None,
            leader=None,
        )
    # GameOverEvent
    return replace(
        view, phase=Phase.GAME_OVER, winner=event.winner, scores=event.scores, current_player=None
    )


def apply_events(
    view: PlayerView, events: Iterable[m.EventMessage], version: int | None = None
) -> PlayerView:
    """Fold ``events`` into ``view``; ``version`` is the state version after them."""
    for event in events:
        view = apply_event(view, event)
    if version is not None:
        view = dataclasses.replace(view, version=version)
    return view


def fold_events(
    view: PlayerView, events: Iterable[m.EventMessage], version: int | None = None
) -> PlayerView:
    """:func:`apply_events`, raising :class:`OutOfStep` for an event that cannot apply
    (part of a frame: the terminal shows a finished trick before the rest of its frame)."""
    try:
        return apply_events(view, events, version)
    except (ValueError, EngineError, AssertionError) as error:  # an event out of place
        raise OutOfStep(f"an event did not fit the view: {error}") from error


def fold(view: PlayerView, message: m.Events | m.HandResult | m.YourTurn) -> PlayerView:
    """``view`` after ``message`` (one of its table's ``events``, ``hand_result`` or
    ``your_turn``). Raises :class:`OutOfStep` when the message does not follow the view
    (a missed frame, a turn for another version, an event that cannot apply)."""
    if isinstance(message, m.Events):
        if message.version != view.version + 1:
            raise OutOfStep(f"events for version {message.version}, holding {view.version}")
        return fold_events(view, message.events, message.version)
    if isinstance(message, m.HandResult):
        try:
            result = hand_result_from_message(message)
        except (ValueError, ProtocolError) as error:
            raise OutOfStep(f"an unreadable hand result: {error}") from error
        earlier = tuple(r for r in view.hand_results if r.hand_number < result.hand_number)
        return dataclasses.replace(
            view, hand_results=(*earlier, result), scores=result.scores, bags=result.bags
        )
    if message.version != view.version:
        raise OutOfStep(f"your_turn for version {message.version}, holding {view.version}")
    if view.seat is None or view.current_player != view.seat or view.phase.value != message.phase:
        raise OutOfStep(f"your_turn in {message.phase} does not fit the view")
    try:
        offered = _card(message.offered) if message.phase == Phase.DRAFT.value else None
    except EngineError as error:
        raise OutOfStep(f"an unreadable card on offer: {error}") from error
    return dataclasses.replace(view, offered=offered)
