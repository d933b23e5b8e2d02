"""Errors raised by the engine.

Every error the engine raises on purpose derives from one root::

    EngineError
     ├── CardParseError      a card or card list in text form could not be read
     ├── RuleError           a rule set field has a bad value
     ├── IllegalActionError  an action that is not legal now (the state is unchanged)
     ├── RecordError         a game record is malformed or does not replay
     └── ShuffleError        a shuffle seed or entropy value is unusable
"""

from __future__ import annotations

__all__ = [
    "CardParseError",
    "EngineError",
    "IllegalActionError",
    "RecordError",
    "RuleError",
    "ShuffleError",
]


class EngineError(Exception):
    """Root of every error the engine raises on purpose."""


class CardParseError(EngineError, ValueError):
    """A card, action or card list in text form could not be read."""


class RuleError(EngineError, ValueError):
    """A rule set field has a bad value; the message names the field."""


class IllegalActionError(EngineError):
    """The action is not legal for that seat now.

    Raised by :meth:`engine.GameState.apply`; the state is exactly as it was before the call.
    """


class RecordError(EngineError, ValueError):
    """A game record is malformed, or replaying it does not reproduce what it claims."""


class ShuffleError(EngineError, ValueError):
    """A shuffle seed or a seat's entropy value is unusable."""
