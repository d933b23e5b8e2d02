"""A connection's messages handed over as websockets parses them: no coroutine per message.

    reader = DirectReader.install(ws, deliver, fail)   # None: this ws cannot take one
    ...                                                 # deliver(data) per message
    await ws.wait_closed()

websockets gives every data frame it parses to the connection's ``recv_messages`` (its
``Assembler``, which ``recv`` awaits). Awaiting ``recv`` per message renews, for every
connection and every message, a chain of coroutines and a future that then wait until
the next message: with thousands of connections they are most of what the garbage
collector walks, and the hand-over costs a turn of the loop. :class:`DirectReader` takes
the Assembler's place and calls ``deliver`` with each whole message (``bytes`` for a
binary message, ``str`` for a text one), fragments joined.

Connections still take turns: a connection gets at most one message delivered per turn
of the loop; more that arrived together wait in its backlog, and past ``high`` of them
the socket stops being read until the backlog is down to ``low`` (as websockets' own
queue does). ``reader.hold(seconds)`` stops both for a while: nothing more is read from
the socket (the peer's kernel buffers fill and TCP makes it wait, at no cost to the
server) and nothing more is delivered; then the backlog is delivered in order and the
socket is read again. The gateway holds a connection whose request budget is spent.

A text message that is not UTF-8 calls ``fail(1007, reason)``; an error
raised by ``deliver`` is logged and calls ``fail(1011, reason)``: the caller closes the
connection. Nothing here raises, except ``EOFError`` from :meth:`put` once closed (as
the Assembler does).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.frames import Frame, Opcode

__all__ = ["DirectReader"]

log = logging.getLogger("server")

Deliver = Callable[[bytes | str], None]
Fail = Callable[[int, str], None]


class DirectReader:
    """Stands in for websockets' ``Assembler`` of one connection (see the module)."""

    # one per connection: slots, and the backlog made only when a burst needs it
    __slots__ = (
        "_backlog",
        "_busy",
        "_deliver",
        "_fail",
        "_fragments",
        "_high",
        "_hold",
        "_loop",
        "_low",
        "_parked",
        "_reading",
        "_text",
        "_transport",
        "closed",
        "paused",
    )

    def __init__(
        self, deliver: Deliver, fail: Fail, transport: Any, high: int = 16, low: int = 4
    ) -> None:
        self.closed = False
        self.paused = False
        self._deliver = deliver
        self._fail = fail
        self._transport = transport
        self._high = high
        self._low = low
        self._loop = asyncio.get_running_loop()
        self._backlog: deque[bytes | str] | None = None
        self._fragments: list[bytes] | None = None
        self._text = False
        self._busy = False  # a message was delivered this turn of the loop
        self._hold: asyncio.TimerHandle | None = None  # held: see hold()
        self._parked = False  # the turn of the backlog came during a hold: the hold's end
        self._reading = True  # whether the socket is read (as this reader last set it)

    @classmethod
    def install(cls, ws: ServerConnection, deliver: Deliver, fail: Fail) -> DirectReader | None:
        """Put a reader in ``ws``'s Assembler's place, taking over the frames it holds
        already; ``None`` (nothing changed) when ``ws`` has no Assembler as expected."""
        old = getattr(ws, "recv_messages", None)
        queued = getattr(getattr(old, "frames", None), "queue", None)
        if old is None or not isinstance(queued, deque) or getattr(old, "get_in_progress", True):
            return None
        reader = cls(deliver, fail, ws.transport)
        frames = list(queued)
        queued.clear()
        if getattr(old, "paused", False):
            ws.transport.resume_reading()
        ws.recv_messages = reader  # type: ignore[assignment]
        for frame in frames:
            reader.put(frame)
        if getattr(old, "closed", False):
            reader.close()  # the connection ended already: nothing more comes
        return reader

    def put(self, frame: Frame) -> None:
        """A data frame from websockets (raises ``EOFError`` once closed)."""
        if self.closed:
            raise EOFError("stream of frames ended")
        opcode = frame.opcode
        if opcode is not Opcode.CONT:
            self._text = opcode is Opcode.TEXT
            if frame.fin:
                self._message(bytes(frame.data))
                return
            self._fragments = [bytes(frame.data)]
            return
        fragments = self._fragments
        if fragments is None:  # a continuation without a first frame: websockets refuses
            return  # those before they get here
        fragments.append(bytes(frame.data))
        if frame.fin:
            self._fragments = None
            self._message(b"".join(fragments))

    def whole(self, data: bytes, text: bool) -> None:
        """A whole message read without a ``Frame`` (:mod:`server.net.framereader`;
        only when no fragmented message is in progress): delivered as :meth:`put`
        delivers one."""
        self._text = text
        self._message(data)

    @property
    def fragmenting(self) -> bool:
        """Whether a fragmented message is in progress."""
        return self._fragments is not None

    def _message(self, data: bytes) -> None:
        message: bytes | str = data
        if self._text:
            try:
                message = data.decode()
            except UnicodeDecodeError:
                self._fail(1007, "invalid UTF-8")
                self.close()
                return
        if self._busy:
            if self._backlog is None:
                self._backlog = deque()
            self._backlog.append(message)
            if len(self._backlog) > self._high and not self.paused:
                self.paused = True
                self._set_reading()
            return
        self._busy = True
        self._loop.call_soon(self._next)
        self._hand_over(message)

    def _next(self) -> None:
        """The next turn of the loop: the backlog's first message, if any."""
        if self._hold is not None and not self.closed:
            self._parked = True  # the hold's end takes the turn up again
            return
        if self.closed or not self._backlog:
            self._busy = False
            self._backlog = None  # a burst's backlog goes with it
            return
        message = self._backlog.popleft()
        if self.paused and len(self._backlog) <= self._low:
            self.paused = False
            self._set_reading()
        self._loop.call_soon(self._next)
        self._hand_over(message)

    def hold(self, seconds: float) -> None:
        """Read and deliver nothing for ``seconds`` (from now: a hold already running is
        replaced); what arrived before is delivered after it, in order. Never raises."""
        if self.closed:
            return
        if self._hold is not None:
            self._hold.cancel()
        self._hold = self._loop.call_later(max(0.0, seconds), self._release)
        if not self._busy:  # no turn is under way: the hold's end starts one
            self._busy = True
            self._parked = True
        self._set_reading()

    @property
    def held(self) -> bool:
        """Whether a hold is running."""
        return self._hold is not None

    def _release(self) -> None:
        self._hold = None
        if self.closed:
            return
        self._set_reading()
        if self._parked:
            self._parked = False
            self._next()

    def _set_reading(self) -> None:
        """Read the socket unless the backlog is past its bound or a hold runs."""
        reading = not (self.paused or self._hold is not None)
        if reading == self._reading:
            return
        self._reading = reading
        if reading:
            self._transport.resume_reading()
        else:
            self._transport.pause_reading()

    def _hand_over(self, message: bytes | str) -> None:
        try:
            self._deliver(message)
        except Exception:
            log.exception("a message could not be handled; the connection is closed")
            self._fail(1011, "internal error")
            self.close()

    def close(self) -> None:
        """The connection ended (websockets calls this): nothing more is delivered, and
        the reader lets go of its callbacks (the socket keeps it; they keep the session,
        which keeps the socket: a cycle for the garbage collector otherwise)."""
        self.closed = True
        if self._hold is not None:
            self._hold.cancel()  # the loop's timer would keep the reader (and the session)
            self._hold = None
        self._backlog = None
        self._fragments = None
        self._deliver = _nothing
        self._fail = _no_failure


def _nothing(data: bytes | str) -> None:
    pass


def _no_failure(code: int, reason: str) -> None:
    pass
