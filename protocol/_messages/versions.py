"""What each minor version of protocol 1 added, by model and field: a connection of an
older minor version never gets these (:func:`protocol.codec.wire_dict` leaves them out).

A part of :mod:`protocol.messages`.
"""

from __future__ import annotations

import functools
from typing import Final

from pydantic import BaseModel

from protocol._messages.client import Entropy, EntropyCommit, GetAnalysis, Hello
from protocol._messages.events import ShuffledEvent
from protocol._messages.server import (
    AnalysisMessage,
    EntropyAccepted,
    EntropyCommitments,
    Redirect,
    Snapshot,
    Welcome,
)
from protocol._messages.structures import HandResult, SeatInfo

__all__ = [
    "ADDED_IN_1_1",
    "ADDED_IN_1_2",
    "ADDED_IN_1_3",
    "added_after",
]

ADDED_IN_1_1: Final[dict[type[BaseModel], frozenset[str]]] = {
    Hello: frozenset({"protocol_minor"}),
    Welcome: frozenset({"protocol_minor", "server_time", "entropy_seconds"}),
    SeatInfo: frozenset({"hold_deadline"}),
    Snapshot: frozenset({"your_turn"}),
    Entropy: frozenset(Entropy.model_fields),
    EntropyAccepted: frozenset(EntropyAccepted.model_fields) - {"stage"},
    ShuffledEvent: frozenset(ShuffledEvent.model_fields) - {"withheld"},
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

ADDED_IN_1_3: Final[dict[type[BaseModel], frozenset[str]]] = {
    EntropyCommit: frozenset(EntropyCommit.model_fields),
    EntropyCommitments: frozenset(EntropyCommitments.model_fields),
    EntropyAccepted: frozenset({"stage"}),
    ShuffledEvent: frozenset({"withheld"}),
    HandResult: frozenset({"entropy_commitments"}),
    SeatInfo: frozenset({"withheld_reveals"}),
}
"""What 1.3 added: seat entropy by commit and reveal (a 1.0 to 1.2 connection never gets
these messages or fields)."""

_BY_MINOR: Final = ((1, ADDED_IN_1_1), (2, ADDED_IN_1_2), (3, ADDED_IN_1_3))


@functools.cache
def added_after(minor: int) -> dict[type[BaseModel], frozenset[str]]:
    """Every model's fields that a connection speaking ``1.minor`` never gets (those added
    in later minor versions); a model all of whose fields are listed is a message or event
    that such a connection never gets at all."""
    merged: dict[type[BaseModel], frozenset[str]] = {}
    for since, added in _BY_MINOR:
        if minor < since:
            for model, names in added.items():
                merged[model] = merged.get(model, frozenset()) | names
    return merged
