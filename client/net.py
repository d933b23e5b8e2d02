"""The network side: one websocket, a background reader, and reconnection with the token.

    connection = Connection(url, model, redraw=app.invalidate)
    task = asyncio.create_task(connection.run())
    ...
    await connection.close()

:meth:`Connection.run` connects, says ``hello`` (with the session token once it has one),
feeds every server message to ``model.handle`` and calls ``redraw``. When the socket drops
it marks the model ``reconnecting`` and tries again with growing pauses, saying hello
with the same token, so the server gives the seats back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidURI, WebSocketException

from client.model import ClientModel
from protocol import messages as m
from protocol.codec import decode_server, encode
from protocol.errors import DecodeError

__all__ = ["Connection"]

log = logging.getLogger(__name__)

RETRY_DELAYS = (0.2, 0.5, 1.0, 2.0, 3.0)


class Connection:
    """The client's connection to ``url``, kept alive for the model's lifetime."""

    def __init__(
        self,
        url: str,
        model: ClientModel,
        redraw: Callable[[], None] = lambda: None,
        *,
        ping_interval: float | None = 10.0,
    ) -> None:
        self.url = url
        self.model = model
        self.redraw = redraw
        self.ping_interval = ping_interval
        self._socket: ClientConnection | None = None
        self._closing = False
        self._outbox: asyncio.Queue[m.ClientMessage] = asyncio.Queue()
        model.sender = self.send
        self.connects = 0

    def send(self, message: m.ClientMessage) -> None:
        """Queue ``message`` for the server (dropped while disconnected, except actions,
        which the model resends after the resume)."""
        self._outbox.put_nowait(message)

    async def run(self) -> None:
        """Connect and read until :meth:`close`; reconnect whenever the socket drops."""
        failures = 0
        while not self._closing:
            try:
                async with connect(
                    self.url,
                    max_size=2**20,
                    compression=None,
                    ping_interval=self.ping_interval,
                    open_timeout=5,
                ) as socket:
                    self._socket = socket
                    self.connects += 1
                    failures = 0
                    self._drain_outbox()
                    hello = m.Hello(
                        protocol_version=m.PROTOCOL_VERSION,
                        protocol_minor=m.PROTOCOL_MINOR,
                        name=self.model.name[:24] or "player",
                        token=self.model.token,
                    )
                    await socket.send(encode(hello))
                    writer = asyncio.create_task(self._write(socket))
                    try:
                        await self._read(socket)
                    finally:
                        writer.cancel()
                        with contextlib.suppress(asyncio.CancelledError):
                            await writer
            except InvalidURI as error:
                self.model.flash = f"not a server address: {error}"
                break
            except (OSError, WebSocketException, TimeoutError) as error:
                log.debug("connection to %s failed: %s", self.url, error)
            self._socket = None
            if self._closing:
                break
            self.model.connection_lost()
            self.redraw()
            await asyncio.sleep(RETRY_DELAYS[min(failures, len(RETRY_DELAYS) - 1)])
            failures += 1
        self.model.connection = "closed"
        self.redraw()

    def _drain_outbox(self) -> None:
        while not self._outbox.empty():
            self._outbox.get_nowait()

    async def _write(self, socket: ClientConnection) -> None:
        while True:
            message = await self._outbox.get()
            await socket.send(encode(message))

    async def _read(self, socket: ClientConnection) -> None:
        async for data in socket:
            if isinstance(data, str):
                continue
            try:
                message = decode_server(data)
            except DecodeError as error:
                self.model.flash = f"unreadable message from the server: {error}"
                self.redraw()
                continue
            try:
                self.model.handle(message)
            except Exception as error:  # a client bug must not stop the reader
                log.exception("handling %s failed", message.type)
                self.model.flash = f"client error on {message.type}: {error!r}"
            self.redraw()

    async def drop(self) -> None:
        """Close the socket without stopping (tests: simulate a dropped connection)."""
        if self._socket is not None:
            await self._socket.close()

    async def close(self) -> None:
        """Stop reconnecting and close the socket."""
        self._closing = True
        if self._socket is not None:
            with contextlib.suppress(Exception):
                await self._socket.close()
