"""The messages of every action, packed without building pydantic models.

    data = events_bytes("K7QX2M9A", version, outcome.for_viewer(seat))   # or None
    data = your_turn_bytes(state, seat, "K7QX2M9A", seconds_left)         # or None
    data = ack_bytes("K7QX2M9A", seq, version, req_id)                    # or None

    if serves(minor): ...                # whether a 1.minor connection takes them

Each returns exactly the msgpack bytes that :func:`protocol.codec.encode_for` gives for
the model :mod:`protocol.convert` builds (``m.Events``, ``m.YourTurn``, ``m.Ack``) on a
connection speaking a minor version for which :func:`serves` is true (every one whose
forms of these messages are the newest's: none of their fields came later): the same
keys in the same order, the same values. A server sends one of these per seat
per action; building and dumping the models cost about half of a turn's encoding.

``None`` means "not covered here, take the model path": an event kind that comes once
a hand (a deal, a shuffle, a score, the game's end), the exchange phase, or a value the
model would refuse (a version past the protocol's range), so that the model raises as
it always did.
The events given must already be one viewer's (``Outcome.for_viewer``): nothing is
redacted here. Raises nothing of its own.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any, Final

import msgpack
from pydantic import BaseModel

from engine import (
    Action,
    BidMade,
    BlindNilDeclared,
    CardPlayed,
    DraftTurnTaken,
    Event,
    GameState,
    Phase,
    TrickWon,
)
from engine.actions import Bid, BlindNil, Discard, Keep, Play
from engine.cards import Card
from protocol import messages as m

__all__ = ["ack_bytes", "events_bytes", "serves", "your_turn_bytes"]

# every model whose wire form is written here
_WRITTEN: Final[tuple[type[BaseModel], ...]] = (
    m.Events,
    m.YourTurn,
    m.Ack,
    m.CardPlayedEvent,
    m.DraftTurnEvent,
    m.BidEvent,
    m.TrickWonEvent,
    m.BlindNilEvent,
    m.TrickData,
    m.PlayAction,
    m.BidAction,
    m.KeepAction,
    m.DiscardAction,
    m.BlindNilAction,
)


@functools.cache
def serves(minor: int) -> bool:
    """Whether a connection speaking ``1.minor`` gets these messages as written here:
    none of their fields or kinds came after its version."""
    added = m.added_after(minor)
    return not any(model in added for model in _WRITTEN)


_COUNT_MAX: Final = 1_000_000  # the messages' ``Count`` bound
_REQUEST_ID_MAX: Final = 2**53  # ``RequestId``'s bound
_CARD_TEXT: Final = tuple(str(Card(index)) for index in range(52))

_KEEP: Final = {"kind": "keep"}
_DISCARD: Final = {"kind": "discard"}
# the wire maps of a seat's actions, made once each (msgpack only reads them)
_PLAYS: Final = tuple({"kind": "play", "card": text} for text in _CARD_TEXT)
_BIDS: Final = tuple({"kind": "bid", "tricks": tricks} for tricks in range(14))
_BLIND_NIL: Final = (
    {"kind": "blind_nil", "declare": False},
    {"kind": "blind_nil", "declare": True},
)


def _pack(obj: dict[str, Any]) -> bytes:
    packed: bytes = msgpack.packb(obj, use_bin_type=True)
    return packed


def _action(action: Action) -> dict[str, Any] | None:
    if isinstance(action, Play):
        return _PLAYS[action.card]
    if isinstance(action, Bid):
        return _BIDS[action.tricks] if 0 <= action.tricks <= 13 else None
    if isinstance(action, Keep):
        return _KEEP
    if isinstance(action, Discard):
        return _DISCARD
    if isinstance(action, BlindNil):
        return _BLIND_NIL[1 if action.declare else 0]
    return None


def _card(card: Card | None) -> str | None:
    return None if card is None else _CARD_TEXT[card]


def _event(event: Event) -> dict[str, Any] | None:
    if isinstance(event, CardPlayed):
        return {"kind": "card_played", "seat": event.seat, "card": _CARD_TEXT[event.card]}
    if isinstance(event, DraftTurnTaken):
        return {
            "kind": "draft_turn",
            "seat": event.seat,
            "turns_left": event.turns_left,
            "kept": event.kept,
            "card": _card(event.card),
            "other_card": _card(event.other_card),
        }
    if isinstance(event, BidMade):
        return {"kind": "bid", "seat": event.seat, "tricks": event.tricks}
    if isinstance(event, TrickWon):
        trick = event.trick
        return {
            "kind": "trick_won",
            "number": event.number,
            "trick": {
                "leader": trick.leader,
                "cards": (_CARD_TEXT[trick.cards[0]], _CARD_TEXT[trick.cards[1]]),
                "winner": trick.winner,
            },
        }
    if isinstance(event, BlindNilDeclared):
        return {"kind": "blind_nil", "seat": event.seat, "declared": event.declared}
    return None


def events_bytes(table: str, version: int, events: Iterable[Event]) -> bytes | None:
    """The ``events`` message of one viewer's ``events`` (see the module); ``None`` when
    one of them is a kind taken by the model path."""
    if not 0 <= version <= _COUNT_MAX:
        return None
    out = []
    for event in events:
        wire = _event(event)
        if wire is None:
            return None
        out.append(wire)
    return _pack({"type": "events", "table": table, "version": version, "events": out})


def your_turn_bytes(
    state: GameState, seat: int, table: str, seconds_left: float | None
) -> bytes | None:
    """The ``your_turn`` message of ``seat``, whose turn it is in ``state`` (see the
    module); ``None`` in the exchange phase or when it is not that seat's turn."""
    phase = state.phase
    version = state.version
    if phase is Phase.EXCHANGE or state.current_player != seat or not 0 <= version <= _COUNT_MAX:
        return None
    legal = []
    for action in state.legal_actions(seat):
        wire = _action(action)
        if wire is None:
            return None
        legal.append(wire)
    if not legal:
        return None
    return _pack(
        {
            "type": "your_turn",
            "table": table,
            "version": version,
            "phase": phase.value,
            "legal": legal,
            "exchange_max": None,
            "seconds_left": seconds_left,
            "offered": _card(state.offered_to(seat)),
        }
    )


def ack_bytes(table: str, seq: int, version: int, req_id: int | None) -> bytes | None:
    """The ``ack`` of an action (see the module); ``None`` for a value out of range."""
    if not 0 <= version <= _COUNT_MAX or (
        req_id is not None and not 0 <= req_id <= _REQUEST_ID_MAX
    ):
        return None
    return _pack({"type": "ack", "table": table, "seq": seq, "version": version, "id": req_id})
