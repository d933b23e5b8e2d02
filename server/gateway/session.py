"""The session of one connection: its player, protocol minor version, wire format
(msgpack, or JSON for the browser), rate buckets, and its frames out.

    session = Session(ws, config, work)  # work: the unit of work (dirty(session), flush())
    session.send(message)                # encoded for its minor version and wire format,
                                         # queued until the turn's commit (then written)
    if not session.rate.take(): ...      # the request budget; session.chat_rate for chat
    session.close_soon(1008, "reason")   # flushes what was said first, then closes
    session.hold_reading(0.5)            # read none of its frames for 0.5 s (see below)

This is the one place that encodes for a connection (:meth:`Session.send`, by minor
version); a frame shared by many sockets (:meth:`Session.send_frame`, a
:class:`~server.rooms.frames.Frame`) is taken in the connection's wire format, msgpack or
JSON, each made at most once per frame whatever the number of sockets. The frames are written by
:func:`server.net.writer.write_frames`, the one writer to the socket. Reading frames is
:mod:`server.net.transport`, dispatching them :mod:`server.gateway.router`.
``Conn`` is this class's old name (kept for bench/fuzz.py and the tests).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from pydantic import BaseModel
from websockets.asyncio.server import ServerConnection

from protocol import messages as m
from protocol.codec import JSON_SUBPROTOCOL, encode_for
from server.config import ServerConfig
from server.limits import TokenBucket
from server.lobby.players import Player
from server.logs import event
from server.net.addresses import client_host
from server.net.reader import DirectReader
from server.net.writer import write_frames
from server.rooms.frames import Frame

__all__ = [
    "Conn",
    "Flusher",
    "Player",
    "Session",
    "error_message",
]

log = logging.getLogger("server")


class Flusher(Protocol):
    """What a connection needs from its hub: a flush at the next turn of the loop."""

    def dirty(self, conn: Session) -> None: ...

    def flush(self) -> None: ...


class Session:
    """One websocket connection, welcomed (``player`` set) or not yet.

    ``send`` encodes a message and keeps it until the hub's next flush (at most one turn
    of the event loop later), which first commits the store and then writes every
    connection's frames with one socket write each: nothing leaves before it is stored,
    and a burst of messages for one connection costs one system call.
    """

    _next_id = 0

    __slots__ = (
        "_watching",
        "address",
        "chat_rate",
        "close_task",
        "closed",
        "config",
        "credits",
        "hub",
        "id",
        "json",
        "minor",
        "pending",
        "player",
        "rate",
        "strikes",
        "ws",
    )

    def __init__(
        self, ws: ServerConnection, config: ServerConfig, hub: Flusher | None = None
    ) -> None:
        Session._next_id += 1
        self.id = Session._next_id
        self.ws = ws
        self.config = config
        self.hub = hub
        self.pending: list[bytes] = []
        # The browser's JSON subprotocol: the same messages as UTF-8 JSON in text frames.
        self.json = getattr(ws, "subprotocol", None) == JSON_SUBPROTOCOL
        self.minor = m.PROTOCOL_MINOR  # 1.1 until hello says 1.0
        self.player: Player | None = None
        self._watching: set[str] = set()
        self.rate = TokenBucket(config.rate_messages_per_second, config.rate_burst)
        self.chat_rate = TokenBucket(config.chat_per_second, config.chat_burst)
        # what the server may give back for the replies it asks for (see credit)
        self.credits = TokenBucket(config.credits_per_second, max(1.0, config.credits_per_second))
        self.strikes = 0
        self.closed = False
        self.close_task: asyncio.Task[None] | None = None
        self.address = client_host(ws, config.trusted_proxies)

    @property
    def watching(self) -> set[str]:
        """Codes of the tables this session watches (kept by the rooms only)."""
        return self._watching

    def send(self, message: BaseModel) -> None:
        """Queue ``message`` for this connection (dropped once it is closing), in the form
        of the protocol minor version it speaks (a message newer than it is skipped)."""
        if not self.closed:
            data = encode_for(message, self.minor)
            if data is not None:
                self.send_frame(Frame(data))

    def send_frame(self, frame: Frame) -> None:
        """Queue an encoded message (shared by every viewer who gets the same view): the
        msgpack bytes, or the frame's JSON text (made on the first JSON socket, kept)."""
        if not self.closed:
            self._queue(frame.text() if self.json else frame.data)

    def send_encoded(self, data: bytes, text: str) -> None:
        """Queue a message given in both forms (msgpack ``data``, JSON ``text``), as a
        cache of encoded messages keeps them: nothing is converted here."""
        if not self.closed:
            self._queue(text.encode() if self.json else data)

    def _queue(self, data: bytes) -> None:
        if len(self.pending) >= self.config.send_queue_limit or (
            self.ws.transport is not None
            and self.ws.transport.get_write_buffer_size() > self.config.send_buffer_bytes
        ):
            self.close_soon(1008, "too many unread messages")
            return
        if not self.pending:
            if self.hub is None:
                asyncio.get_running_loop().call_soon(self.flush)
            else:
                self.hub.dirty(self)
        self.pending.append(data)

    def flush(self) -> None:
        """Write the queued frames (the store has them already): one socket write."""
        pending, self.pending = self.pending, []
        if pending:
            write_frames(self.ws, pending, self.json, self.id)

    def credit(self, count: int, per_hand: bool = False) -> None:
        """Give back request tokens: the server asked this session for a reply. One reply
        costs one request, so at most one token comes back whatever ``count`` says, and
        at most ``credits_per_second`` of them a second: two connections answering each
        other's turns must not play for free. A reply asked for once a hand (``per_hand``:
        the 1.3 commitment and reveal) is given back outside that cap: a hand has dozens
        of turns, so it cannot make play free, and an instant client's turns must not
        spend the tokens its entropy steps were given."""
        if count > 0 and (per_hand or self.credits.take()):
            self.rate.credit(1)

    def hold_reading(self, seconds: float) -> bool:
        """Read and handle none of this connection's frames for ``seconds``; those that
        came already are handled after, in order (:meth:`DirectReader.hold`). ``False``
        (nothing held) when the connection is read another way. Never raises."""
        reader = getattr(self.ws, "recv_messages", None)
        if not isinstance(reader, DirectReader) or self.closed:
            return False
        reader.hold(seconds)
        return True

    def close_soon(self, code: int, reason: str) -> None:
        if self.closed:
            return
        if self.hub is not None:
            self.hub.flush()  # what was said before the close goes first (stored first)
        else:
            self.flush()
        self.closed = True
        self.pending = []
        log.info(
            "connection %d: closing (%d %s)",
            self.id,
            code,
            reason,
            extra=event("connection.closing", conn=self.id, code=code, reason=reason),
        )
        self.close_task = asyncio.get_running_loop().create_task(self.ws.close(code, reason))


def error_message(
    code: m.ErrorCode, message: str, request: str | None, req_id: int | None
) -> m.ErrorMessage:
    return m.ErrorMessage(code=code, message=message, request=request, id=req_id)


Conn = Session
