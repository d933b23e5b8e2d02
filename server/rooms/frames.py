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

The frames of every action (a viewer's ``events``, the mover's ``ack``, the next seat's
``your_turn``) come from :func:`events_frame`, :func:`ack_frame` and
:func:`your_turn_frame`: packed straight from the engine's values (:mod:`protocol.fastwire`,
the same bytes) for every minor version it serves, else through the models. They raise
what :meth:`Frame.of` raises.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from engine import Event, GameState
from protocol import convert
from protocol import messages as m
from protocol.codec import encode_for, json_from_msgpack
from protocol.fastwire import ack_bytes, events_bytes, serves, your_turn_bytes
from server.rooms.entropy import with_withheld

__all__ = ["Frame", "ack_frame", "events_frame", "your_turn_frame"]


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


def events_frame(
    table: str, version: int, events: Sequence[Event], minor: int, withheld: tuple[bool, bool]
) -> Frame | None:
    """The ``events`` message of one viewer's ``events`` (``Outcome.for_viewer``) for a
    connection speaking ``1.minor``; ``withheld``: the shuffle's withheld reveals."""
    if not any(withheld) and serves(minor):
        data = events_bytes(table, version, events)
        if data is not None:
            return Frame(data)
    messages = with_withheld(convert.event_messages(events), withheld)
    return Frame.of(m.Events(table=table, version=version, events=messages), minor)


def ack_frame(table: str, seq: int, version: int, req_id: int | None, minor: int) -> Frame | None:
    """The ``ack`` of an action with ``seq``, now at ``version``."""
    if serves(minor):
        data = ack_bytes(table, seq, version, req_id)
        if data is not None:
            return Frame(data)
    return Frame.of(m.Ack(table=table, seq=seq, version=version, id=req_id), minor)


def your_turn_frame(
    state: GameState, seat: int, table: str, seconds_left: float | None, minor: int
) -> Frame | None:
    """The ``your_turn`` of ``seat``, whose turn it is (``seconds_left``: its timer's)."""
    if serves(minor):
        data = your_turn_bytes(state, seat, table, seconds_left)
        if data is not None:
            return Frame(data)
    message = convert.your_turn_message(state.view_for(seat), table, seconds_left)
    return Frame.of(message, minor)
