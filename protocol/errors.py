"""Errors raised by the protocol package.

::

    ProtocolError
     ├── DecodeError       bytes that are not one valid message (too large, not msgpack,
     │                     not a known message, a field of the wrong type...)
     └── ConversionError   a message that does not convert to an engine value
"""

from __future__ import annotations

__all__ = ["ConversionError", "DecodeError", "ProtocolError"]


class ProtocolError(Exception):
    """Root of every error the protocol package raises on purpose."""


class DecodeError(ProtocolError):
    """The bytes are not one valid message; ``str(error)`` says why in one sentence.

    ``code`` is the error code the server answers with (``"too_large"`` or
    ``"bad_message"``).
    """

    def __init__(self, reason: str, code: str = "bad_message") -> None:
        super().__init__(reason)
        self.code = code


class ConversionError(ProtocolError):
    """A well-formed message that does not convert to an engine value (a bad card...)."""
