"""Per-connection bounds below the protocol: control frames, unread output, stalled peers,
half-open handshakes, and the websockets library's own log lines.

    connection_class = guarded_connection(config, admission)   # see server.net.listener
    watchdog = asyncio.create_task(watch_stalled(connections, config))

- websockets answers every ping frame with a pong on its own, outside the application's
  rate limit and send-buffer check: :func:`guarded_connection` gives each connection a
  ping budget (a token bucket) and drops a connection whose unread output passes
  ``send_buffer_bytes`` whatever put it there.
- Keep-alive: one :class:`~server.net.keepalive.Keepalive` for all the connections of a
  server (not websockets' task per connection) pings a connection silent for
  ``ping_interval`` and closes it (1011) when still silent ``ping_timeout`` later.
  A peer that sends but stopped reading is never timed out that way:
  :func:`watch_stalled` drops a connection whose output has not drained for
  ``ping_interval + ping_timeout`` seconds.
- A handshake that fails is worth one log line, not a traceback: :class:`OneLineLogger`;
  refused handshakes are counted and logged at most once a second, pages served are
  logged at DEBUG, and the front door (:mod:`server.net.frontdoor`) reads and answers
  every request within bounds: at most ``max_half_open_per_address`` handshakes in
  progress per address, ``Origin`` checked against ``allowed_origins``.
- A connection reaches this class only once :class:`~server.net.admission.Admission`
  admitted its raw socket (:mod:`server.net.listener` accepts it): the open-file bound,
  the address's connection rate and its half-open handshakes are checked before anything
  is built for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import time
import weakref
from collections.abc import Callable, Iterable, MutableMapping
from typing import Any, Final, TypeVar

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode, Frame, Opcode
from websockets.http11 import SERVER, Request, Response
from websockets.protocol import CLOSED, OPEN, Event
from websockets.server import ServerProtocol

from server.config import ServerConfig
from server.limits import TokenBucket
from server.net.admission import FD_RESERVE, Admission
from server.net.framereader import read_whole_frames
from server.net.frontdoor import SERVER_HEADER, adopt, answer
from server.net.keepalive import Keepalive

__all__ = [
    "FD_RESERVE",
    "SCAN_SLICE",
    "OneLineLogger",
    "drop",
    "guarded_connection",
    "keep_lists",
    "let_go",
    "raise_fd_limit",
    "scan_stalled",
    "watch_stalled",
]


SCAN_SLICE: Final = 200
"""Connections the stalled-output watchdog looks at in one turn of the loop."""


def raise_fd_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit where allowed;
    returns the soft limit now in force (``0``: unknown, no limit applied)."""
    try:
        import resource
    except ImportError:  # not on this platform
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return 0 if soft == resource.RLIM_INFINITY else int(soft)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
        return int(wanted)
    except (ValueError, OSError):
        return int(soft)


log = logging.getLogger("server")


def drop(ws: ServerConnection, reason: str) -> None:
    """Abort ``ws`` at once (no closing handshake: the peer is not reading) and log why."""
    transport = ws.transport
    if transport is None or transport.is_closing():
        return
    log.warning("connection from %s dropped: %s", _address(ws), reason)
    transport.abort()


def _address(ws: ServerConnection) -> str:
    try:
        host, port = ws.remote_address[:2]
        return f"{host}:{port}"
    except Exception:
        return "?"


def let_go(connection: ServerConnection, transport: object = None, ended: bool = False) -> None:
    """Break the reference cycles a websockets connection keeps (``transport``: its
    asyncio transport, once the connection is lost), so that reference counting frees
    a connection as soon as its handler is done: an address opening and dropping
    hundreds of connections a second then leaves no garbage for the collector's passes,
    which hold the loop for every player (a connection's cycles are some 70 objects).
    Call it when the handshake is over, again when the connection is lost (``ended``:
    it was shed before it began); what is gone already is left alone.

    The cycles, all in code that is not ours: the library's per-connection subprotocol
    chooser (a closure over the connection, kept by its protocol), a failed handshake's
    error (kept by the protocol, its traceback holds frames that hold the protocol), the
    protocol's parser (a generator, suspended for good once the connection ends, whose
    frame holds the protocol), the keepalive task (cancelled at the end, its
    ``CancelledError`` keeps the frame that holds the connection) and asyncio's socket
    transport (a bound method of its own kept in an attribute).
    """
    vars(connection.protocol).pop("select_subprotocol", None)
    error: BaseException | None = connection.protocol.handshake_exc
    for _ in range(8):  # the error and its causes: kept, without the frames
        if error is None:
            break
        error.__traceback__ = None
        error = error.__cause__ or error.__context__
    if ended or connection.protocol.state is CLOSED:
        connection.keepalive_task = None
        connection.protocol.parser.close()  # parsed its last: its frame held the protocol
    if transport is not None and getattr(transport, "_read_ready_cb", None) is not None:
        transport._read_ready_cb = None  # type: ignore[attr-defined]


_Item = TypeVar("_Item")


def _handed_out(kept: list[_Item]) -> list[_Item]:
    """A copy of ``kept`` for the caller, ``kept`` emptied in place (it stays the
    protocol's list, old enough to be out of the young generations)."""
    if not kept:
        return []
    handed = kept[:]
    kept.clear()
    return handed


def _events_received(protocol: ServerProtocol) -> list[Event]:
    return _handed_out(protocol.events)


def _data_to_send(protocol: ServerProtocol) -> list[bytes]:
    return _handed_out(protocol.writes)


_KEEPING: dict[type[ServerProtocol], type[ServerProtocol]] = {}


def keep_lists(protocol: ServerProtocol) -> None:
    """Make ``protocol`` keep its two lists (events parsed, bytes to send) for the
    connection's life: websockets replaces each with a new empty list every time it
    hands them out (``events_received``, ``data_to_send``: once or twice a frame
    received), and those lists stay until the connection's next frame; with thousands
    of connections they were half of the objects every young pass of the garbage
    collector walked. Here the caller gets a copy, freed as soon as it is used, and the
    kept lists age out of the young generations. Call it once the protocol has its
    final class (after :func:`~server.net.frontdoor.adopt`)."""
    base = type(protocol)
    keeping = _KEEPING.get(base)
    if keeping is None:
        members = {"events_received": _events_received, "data_to_send": _data_to_send}
        keeping = type(f"Keeping{base.__name__}", (base,), {"__module__": __name__, **members})
        _KEEPING[base] = keeping
    protocol.__class__ = keeping


def guarded_connection(
    config: ServerConfig, admission: Admission, keepalive: Keepalive | None = None
) -> type[ServerConnection]:
    """A :class:`ServerConnection` class bounding pings and unread output per ``config``.

    Its connections are admitted already (:class:`~server.net.admission.Admission`, on the
    raw socket, by :mod:`server.net.listener`): each tells ``admission`` when its
    handshake is over and when it is gone. With ``keepalive``, an open connection is
    kept alive by it (and websockets' own keep-alive task is not started).
    """
    closing: set[asyncio.Task[None]] = set()

    class GuardedConnection(ServerConnection):
        stalled_since: float | None = None
        heard_at: float = 0.0

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            # the library's logger names the connection for log formatters: by a weak
            # reference, so that the connection and its logger are no cycle
            adapter = self.protocol.logger
            if isinstance(adapter, logging.LoggerAdapter):
                adapter.extra = {"websocket": weakref.proxy(self)}
            adopt(self.protocol)
            keep_lists(self.protocol)
            self.pings = TokenBucket(config.pings_per_second, config.ping_burst)

        def connection_lost(self, exc: Exception | None) -> None:
            admission.gone(self)
            if keepalive is not None:
                keepalive.forget(self)
            super().connection_lost(exc)
            let_go(self, self.transport)

        async def handshake(
            self,
            process_request: Callable[..., Any] | None = None,
            process_response: Callable[..., Any] | None = None,
            server_header: str | None = SERVER,
        ) -> None:
            async def front(connection: ServerConnection, request: Request) -> Response | None:
                return await answer(connection, request, process_request, config.allowed_origins)

            done = False  # stays False when the handshake's time ran out (cancelled)
            try:
                await super().handshake(front, process_response, SERVER_HEADER)
                done = True
            except Exception as error:  # answered (or the peer left): counted below
                done = True
                if getattr(getattr(self, "response", None), "status_code", 0) == 500:
                    log.error("opening handshake failed: %r", error)  # our own bug
            finally:
                admission.handshake_over(self)
                let_go(self)  # the subprotocol is chosen: its closure may go
                response: Response | None = getattr(self, "response", None)
                if not done:  # its time ran out, or the server is closing
                    if self.server.is_serving():
                        admission.refusals.note("no whole request in time")
                elif response is None:
                    admission.refusals.note("no whole request")
                elif response.status_code >= 400:
                    admission.refusals.note(f"HTTP {response.status_code}")
                elif response.status_code != 101:
                    log.debug("%s: HTTP %d", _address(self), response.status_code)

        def start_keepalive(self) -> None:
            if keepalive is None:
                super().start_keepalive()
            elif self.protocol.state is OPEN:
                keepalive.watch(self)

        def keepalive_ping(self) -> None:
            if self.protocol.state is OPEN and not self.transport.is_closing():
                self.protocol.send_ping(b"")  # the pong is not awaited: any frame will do
                self.send_data()

        def keepalive_timed_out(self) -> None:
            task = self.loop.create_task(self._keepalive_fail())
            closing.add(task)
            task.add_done_callback(closing.discard)

        async def _keepalive_fail(self) -> None:
            # as websockets' keep-alive does: close 1011, wait ``close_timeout`` for
            # the peer, then abort
            with contextlib.suppress(ConnectionClosed):
                async with self.send_context():
                    self.protocol.fail(CloseCode.INTERNAL_ERROR, "keepalive ping timeout")

        def data_received(self, data: bytes) -> None:
            self.heard_at = self.loop.time()  # alive: the keep-alive need not ping it
            used = read_whole_frames(self, data)  # the common frames, without the parser
            if used < len(data):
                super().data_received(data[used:] if used else data)
            # pongs (and anything else the library wrote) count against the same bound
            # as the application's own messages
            if self.transport.get_write_buffer_size() > config.send_buffer_bytes:
                drop(self, "too much unread output")

        def process_event(self, event: Event) -> None:
            if isinstance(event, Frame) and event.opcode is Opcode.PING and not self.pings.take():
                drop(self, "too many pings")
                return
            super().process_event(event)

    return GuardedConnection


async def watch_stalled(
    connections: Callable[[], Iterable[ServerConnection]], config: ServerConfig
) -> None:
    """Forever: drop every connection whose output has not drained for the keep-alive's
    whole budget (``ping_interval + ping_timeout``), checked every second or faster."""
    budget = config.ping_interval + config.ping_timeout
    step = min(1.0, budget / 4)
    while True:
        await asyncio.sleep(step)
        # in a call of its own: a loop variable here would keep the last connection
        # looked at alive (and its objects) while the watchdog sleeps
        await scan_stalled(connections(), budget)


async def scan_stalled(
    connections: Iterable[ServerConnection], budget: float, slice_size: int = SCAN_SLICE
) -> None:
    """One pass of the watchdog over ``connections``, ``slice_size`` of them a turn of the
    loop: a pass over thousands at once held every player's loop turn for milliseconds
    once a second (some 2 us a connection), a tail of its own in the load benchmark."""
    pending = list(connections)
    for start in range(0, len(pending), slice_size):
        if start:
            await asyncio.sleep(0)
        _drop_stalled(pending[start : start + slice_size], budget, time.monotonic())


def _drop_stalled(connections: Iterable[ServerConnection], budget: float, now: float) -> None:
    for ws in list(connections):
        transport = ws.transport
        if transport is None or transport.is_closing():
            continue
        waiting = transport.get_write_buffer_size() > 0
        since: float | None = getattr(ws, "stalled_since", None)
        if not waiting:
            ws.stalled_since = None  # type: ignore[attr-defined]
        elif since is None:
            ws.stalled_since = now  # type: ignore[attr-defined]
        elif now - since > budget:
            drop(ws, f"output not read for {budget:g} s")


class OneLineLogger(logging.LoggerAdapter[logging.Logger]):
    """Logs what the websockets library reports as one line: a failed handshake is
    ``opening handshake failed: TimeoutError()``, not a 30-line traceback."""

    def __init__(self, logger: logging.Logger) -> None:
        super().__init__(logger, {})

    def log(self, level: int, msg: object, *args: Any, **kwargs: Any) -> None:
        # the library's line for every HTTP answer but 101; the front door counts refusals
        # and logs pages served at DEBUG
        if msg == "connection rejected (%d %s)":
            level = logging.DEBUG
        kwargs.setdefault("stacklevel", 2)  # the library's line, not this one, as the caller
        super().log(level, msg, *args, **kwargs)

    def process(
        self, msg: Any, kwargs: MutableMapping[str, Any]
    ) -> tuple[Any, MutableMapping[str, Any]]:
        exc_info = kwargs.pop("exc_info", None)
        if exc_info:
            error = exc_info if isinstance(exc_info, BaseException) else None
            if error is None and isinstance(exc_info, tuple):
                error = exc_info[1]
            if error is None:
                error = sys.exc_info()[1]
            if error is not None:
                cause = error.__cause__ or error.__context__
                msg = f"{msg}: {error!r}" + (f" ({cause!r})" if cause is not None else "")
        return msg, kwargs
