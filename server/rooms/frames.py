"""A server message encoded once per wire format, shared by every socket that gets it.

    frame = Frame.of(message, minor=1)     # msgpack now (None: that minor never gets it)
    frame.data                             # the msgpack bytes (binary frames)
    frame.text()                           # the JSON text as UTF-8 (text frames): built
                                           # on the first call, then kept
    Frame(data, text)                      # both forms known already (a cache of pages)

A table's move is built once per viewer kind (seat 0, seat 1, spectators) and protocol
minor version; the frame then goes to every socket of that kind. Each socket takes the
form its wire format wants, so the JSON text is made at most once per frame however many
browsers watch. The msgpack bytes are made eagerly: packing is what refuses a value past
the protocol's range (``OverflowError``), and that must happen before the action is
stored. :meth:`text` raises :class:`~protocol.errors.DecodeError` when ``data`` is not
msgpack (it always is when made by :meth:`of`).
"""

from __future__ import annotations

from pydantic import BaseModel

from protocol.codec import encode_for, json_from_msgpack

__all__ = ["Frame"]


class Frame:
    """One encoded server message (see the module)."""

    __slots__ = ("_text", "data")

    def __init__(self, data: bytes, text: bytes | None = None) -> None:
        self.data = data
        self._text = text

    @classmethod
    def of(cls, message: BaseModel, minor: int) -> Frame | None:
        """``message`` as a connection speaking ``1.minor`` gets it (``None``: never);
        raises what packing raises (``OverflowError``, ``TypeError``)."""
        data = encode_for(message, minor)
        return None if data is None else cls(data)

    def text(self) -> bytes:
        """The JSON form (UTF-8), the same fields as :attr:`data`; made once."""
        text = self._text
        if text is None:
            text = self._text = json_from_msgpack(self.data).encode()
        return text
