"""What each minor version of protocol 1 added, by model and field: a connection of an
older minor version never gets these (:func:`protocol.codec.wire_dict` leaves them out).

A part of :mod:`protocol.messages`.
"""

from __future__ import annotations

from typing import Final

from pydantic import BaseModel

from protocol._messages.client import Entropy, GetAnalysis, Hello
from protocol._messages.events import ShuffledEvent
from protocol._messages.server import AnalysisMessage, EntropyAccepted, Redirect, Snapshot, Welcome
from protocol._messages.structures import SeatInfo

__all__ = [
    "ADDED_IN_1_1",
    "ADDED_IN_1_2",
]

ADDED_IN_1_1: Final[dict[type[BaseModel], frozenset[str]]] = {
    Hello: frozenset({"protocol_minor"}),
    Welcome: frozenset({"protocol_minor", "server_time", "entropy_seconds"}),
    SeatInfo: frozenset({"hold_deadline"}),
    Snapshot: frozenset({"your_turn"}),
    Entropy: frozenset(Entropy.model_fields),
    EntropyAccepted: frozenset(EntropyAccepted.model_fields),
    ShuffledEvent: frozenset(ShuffledEvent.model_fields),
    GetAnalysis: frozenset(GetAnalysis.model_fields),
    AnalysisMessage: frozenset(AnalysisMessage.model_fields),
}
"""Fields each model gained in 1.1 (every field: a message or event new in 1.1).

A connection that speaks 1.0 never gets these fields, these messages or these events.
"""

ADDED_IN_1_2: Final[dict[type[BaseModel], frozenset[str]]] = {
    Redirect: frozenset(Redirect.model_fields),
}
"""What 1.2 added: the ``redirect`` message (a 1.0 or 1.1 connection never gets it)."""
