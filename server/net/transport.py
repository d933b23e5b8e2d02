"""Connections in: accept or refuse, read frames, and the end of a connection.

    transport = Transport(config, parts)          # TransportParts: see below
    await serve(transport.handler, ...)           # one call per websocket connection

Messages are handed over as websockets parses them (:mod:`server.net.reader`: no
coroutine waits per connection and message). Connections take turns: each handles one
frame, then lets the others run (a burst of requests from one client is spread over
turns of the loop, not answered in one block ahead of everyone). A connection from a
banned address is refused (``banned``, close 1008); one past the server's or its
address's connection limit gets ``server_full`` (close 1013). A new connection must
say ``hello`` within ``hello_timeout`` seconds. Frames go to the gateway
(:meth:`server.gateway.router.Router.handle_data`) one at a time; when the connection
ends, the gateway's ``goodbye`` holds its player's seats.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from protocol import messages as m
from protocol.codec import encode, encode_json
from server.config import ServerConfig
from server.limits import AddressLimits
from server.logs import event
from server.net.addresses import peer_address
from server.net.reader import DirectReader

__all__ = ["Connection", "Transport", "TransportParts"]

log = logging.getLogger("server")

C = TypeVar("C", bound="Connection")


class _Player(Protocol):
    @property
    def id(self) -> str: ...


class Connection(Protocol):
    """A connection as the transport sees it (a gateway ``Session``)."""

    closed: bool
    pending: list[bytes]

    @property
    def id(self) -> int: ...

    @property
    def address(self) -> str: ...

    @property
    def json(self) -> bool: ...

    @property
    def player(self) -> _Player | None: ...

    @property
    def close_task(self) -> asyncio.Task[None] | None: ...

    def close_soon(self, code: int, reason: str) -> None: ...


class _Metrics(Protocol):
    def error(self, code: str) -> None: ...

    def opened(self) -> None: ...


class _Bans(Protocol):
    def address_banned(self, address: str) -> bool: ...


@dataclass
class TransportParts(Generic[C]):
    """``open`` makes the session of a new websocket connection (the gateway's)."""

    limits: AddressLimits
    bans: _Bans
    metrics: _Metrics
    open: Callable[[ServerConnection], C]
    handle_data: Callable[[C, bytes | str], None]
    goodbye: Callable[[C], None]
    now: Callable[[], float]


class Transport(Generic[C]):
    """Every open session of one server (see the module)."""

    def __init__(self, config: ServerConfig, parts: TransportParts[C]) -> None:
        self.config = config
        self.parts = parts
        self.sessions: set[C] = set()
        self.closing = False

    async def handler(self, ws: ServerConnection) -> None:
        parts = self.parts
        session = parts.open(ws)
        full = len(self.sessions) >= self.config.max_connections or self.closing
        if parts.bans.address_banned(session.address):
            await self._refuse(ws, session, "banned", "this address is banned from this server")
            return
        if full or not parts.limits.connect(session.address):
            reason = "the server is full" if full else "your address has too many connections"
            await self._refuse(ws, session, "server_full", reason)
            return
        self.sessions.add(session)
        parts.metrics.opened()
        log.info(
            "connection %d: opened from %s",
            session.id,
            peer_address(ws),
            extra=event("connection.open", conn=session.id, address=peer_address(ws)),
        )
        try:
            await self._receive(ws, session)
        except ConnectionClosed:
            pass
        finally:
            parts.limits.disconnect(session.address)
            self.sessions.discard(session)
            session.closed = True
            session.pending = []
            parts.goodbye(session)
            if session.close_task is not None:  # our close code, not the default 1000
                with contextlib.suppress(ConnectionClosed, asyncio.CancelledError):
                    await session.close_task
            code, reason = ws.close_code, ws.close_reason or ""
            player_id = session.player.id if session.player is not None else None
            log.info(
                "connection %d: closed (%s %s)",
                session.id,
                code,
                reason,
                extra=event(
                    "connection.close", conn=session.id, code=code, reason=reason, player=player_id
                ),
            )

    async def _refuse(self, ws: ServerConnection, session: C, code: str, why: str) -> None:
        address = peer_address(ws)
        log.info(
            "connection from %s refused: %s",
            address,
            "banned" if code == "banned" else why,
            extra=event(
                "connection.refused", address=address, reason="banned" if code == "banned" else why
            ),
        )
        self.parts.metrics.error(code)
        if code == "banned":
            refusal = m.ErrorMessage(code="banned", message=why)
            close_code, close_reason = 1008, "banned"
        else:
            refusal = m.ErrorMessage(code="server_full", message=f"{why}; try later")
            close_code, close_reason = 1013, "server full"
        with contextlib.suppress(ConnectionClosed):
            await ws.send(encode_json(refusal) if session.json else encode(refusal))
            await ws.close(close_code, close_reason)

    async def _receive(self, ws: ServerConnection, session: C) -> None:
        """Hand ``session``'s messages to the gateway until the connection ends: as
        websockets parses them (:class:`~server.net.reader.DirectReader`), else (a
        connection without websockets' usual queue) by awaiting each."""
        reader = DirectReader.install(
            ws,
            functools.partial(self._deliver, session),
            functools.partial(self._fail, session),
        )
        if reader is None:
            await self._read(ws, session)
            return
        late = None
        if session.player is None:
            late = asyncio.get_running_loop().call_later(
                max(0.0, self.config.hello_timeout), self._hello_late, session
            )
        try:
            await ws.wait_closed()
        finally:
            reader.close()  # it lets go of the session (no cycle through the socket)
            if late is not None:
                late.cancel()

    def _deliver(self, session: C, data: bytes | str) -> None:
        if not session.closed:
            self.parts.handle_data(session, data)

    def _fail(self, session: C, code: int, reason: str) -> None:
        session.close_soon(code, reason)

    def _hello_late(self, session: C) -> None:
        if session.player is None:
            session.close_soon(1008, "no hello in time")

    async def _read(self, ws: ServerConnection, session: C) -> None:
        deadline = self.parts.now() + self.config.hello_timeout
        # the frames websockets has read and not yet handed out (its own queue); when it
        # is unknown, every frame yields
        assembler = getattr(ws, "recv_messages", None)
        queued = getattr(assembler, "frames", None)
        while not session.closed:
            if session.player is None:
                try:
                    data = await asyncio.wait_for(ws.recv(), max(0.0, deadline - self.parts.now()))
                except TimeoutError:
                    await ws.close(1008, "no hello in time")
                    return
            else:
                data = await ws.recv()
            self.parts.handle_data(session, data)
            # one frame, then the other connections' turn: ``recv`` does not wait while
            # frames are queued, so a client sending a burst would otherwise hold the loop
            # for all of them (and their answers go out in one flush) before anyone else.
            # With nothing queued ``recv`` waits anyway: a yield here would only cost a
            # turn of the loop per frame
            if queued is None or len(queued):
                await asyncio.sleep(0)
