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
    ``"bad_message"``). ``request`` and ``request_id`` are the frame's ``type`` and ``id``
    when the bytes were a readable map that held them (a short string, an integer in the
    request-id range), else ``None``: the server echoes them in its ``error``.
    """

    def __init__(
        self,
        reason: str,
        code: str = "bad_message",
        request: str | None = None,
        request_id: int | None = None,
    ) -> None:
        super().__init__(reason)
        self.code = code
        self.request = request
        self.request_id = request_id


class ConversionError(ProtocolError):
    """A well-formed message that does not convert to an engine value (a bad card...)."""
