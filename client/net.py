"""The network side: one websocket, a background reader, and reconnection with the token.

    connection = Connection(url, model, redraw=app.invalidate)
    task = asyncio.create_task(connection.run())
    ...
    await connection.close()

:meth:`Connection.run` connects, says ``hello`` (with the session token once it has one),
feeds every server message to ``model.handle`` and calls ``redraw``. When the socket drops
it marks the model ``reconnecting`` and tries again with growing pauses, saying hello
with the same token, so the server gives the seats back.

A ``redirect`` (protocol 1.2: the table lives on another node of a cluster) is followed
without the model hearing of it: the connection moves to the given URL at once, says
hello there with the same token, and sends the redirected request again, at most
:data:`MAX_REDIRECTS` times in a row. When a node it was sent to cannot be reached, the
client goes back to the address it was started with (any node redirects it again).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket as socket_module
import ssl
from collections import deque
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import (
    InvalidHandshake,
    InvalidMessage,
    InvalidStatus,
    InvalidURI,
    WebSocketException,
)

from client.i18n import _
from client.model.core import Model
from protocol import messages as m
from protocol.codec import decode_server, encode
from protocol.errors import DecodeError

__all__ = ["CONNECT_ATTEMPTS", "MAX_REDIRECTS", "Connection", "describe_failure", "ssl_context"]

log = logging.getLogger(__name__)

RETRY_DELAYS = (0.2, 0.5, 1.0, 2.0, 3.0)
# a server never reached is tried this many times (the count is on screen), then the
# client stops and says why; a server reached once is retried for as long as it takes
CONNECT_ATTEMPTS = 5
# redirects followed in a row (a table may move once more during a failover); past it
# the client stays where it is and says so
MAX_REDIRECTS = 4


def ssl_context(url: str, cafile: str | None = None) -> ssl.SSLContext | None:
    """The TLS context for ``url``: None for ``ws://``; for ``wss://`` the system's
    trusted CAs, plus ``cafile`` (a PEM file) for a server with its own certificate.
    Raises ``ValueError`` for ``cafile`` with a ``ws://`` address, ``OSError`` or
    ``ssl.SSLError`` for a ``cafile`` that cannot be read."""
    secure = url.lower().startswith("wss://")
    if not secure:
        if cafile is not None:
            raise ValueError("--cafile needs a wss:// address")
        return None
    context = ssl.create_default_context()
    if cafile is not None:
        context.load_verify_locations(cafile=cafile)
    return context


def describe_failure(error: BaseException, url: str) -> tuple[str, bool]:
    """Why connecting to ``url`` failed, in words, and whether trying again may help."""
    host = urlsplit(url).hostname or url
    if isinstance(error, ssl.SSLCertVerificationError):
        reason = error.verify_message or str(error)
        return (
            _(
                "TLS error: the server's certificate was not accepted ({reason}); "
                "for a server with its own certificate pass --cafile"
            ).format(reason=reason),
            False,
        )
    if isinstance(error, ssl.SSLError):
        return _("TLS error: {reason}").format(
            reason=getattr(error, "reason", None) or error
        ), False
    if isinstance(error, socket_module.gaierror):
        return _("unknown host {host}").format(host=repr(host)), False
    if isinstance(error, ConnectionRefusedError):
        return _("connection refused by {host} (is the server running there?)").format(
            host=host
        ), True
    if isinstance(error, InvalidStatus):
        code = error.response.status_code
        return _("not a Spades server (it answered HTTP {code})").format(code=code), False
    if isinstance(error, (InvalidMessage, InvalidHandshake)):
        return _("not a Spades server (no websocket handshake)"), False
    if isinstance(error, TimeoutError):
        return _("no answer from {host} (timed out)").format(host=host), True
    if isinstance(error, OSError):
        return _("cannot reach {host}: {reason}").format(
            host=host, reason=error.strerror or error
        ), True
    return _("connection failed: {error}").format(error=error), True


class Connection:
    """The client's connection to ``url``, kept alive for the model's lifetime."""

    def __init__(
        self,
        url: str,
        model: Model,
        redraw: Callable[[], None] = lambda: None,
        *,
        ping_interval: float | None = 10.0,
        ssl: ssl.SSLContext | None = None,
        retry_delays: tuple[float, ...] = RETRY_DELAYS,
    ) -> None:
        self.url = url
        self.home_url = url  # where to go back to when a node we were sent to is gone
        self.ssl = ssl
        self.retry_delays = retry_delays
        self.model = model
        self.redraw = redraw
        self.ping_interval = ping_interval
        self._socket: ClientConnection | None = None
        self._closing = False
        self._outbox: asyncio.Queue[m.ClientMessage] = asyncio.Queue()
        model.attach(send=self.send)
        self.connects = 0
        self.redirects = 0  # redirects followed so far (all of them)
        self._hops = 0  # redirects followed in a row
        self._redirect_to: str | None = None
        self._repeat: m.ClientMessage | None = None  # the request to send again there
        self._arriving = False  # connected to where a redirect sent us, not welcomed yet
        self._recent: deque[m.ClientMessage] = deque(maxlen=64)

    def send(self, message: m.ClientMessage) -> None:
        """Queue ``message`` for the server (dropped while disconnected, except actions,
        which the model resends after the resume)."""
        self._outbox.put_nowait(message)

    async def run(self) -> None:
        """Connect and read until :meth:`close`; reconnect whenever the socket drops.

        A server never reached is tried :data:`CONNECT_ATTEMPTS` times, with the reason
        and the count on the model; a failure that retrying cannot mend (unknown host,
        TLS, not a Spades server, protocol version refused) stops at once."""
        failures = 0
        while not self._closing:
            options: dict[str, Any] = {"ssl": self.ssl} if self.ssl is not None else {}
            try:
                async with connect(
                    self.url,
                    max_size=2**20,
                    compression=None,
                    ping_interval=self.ping_interval,
                    open_timeout=5,
                    **options,
                ) as socket:
                    self._socket = socket
                    self.connects += 1
                    failures = 0
                    self.model.connection_reached()
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
                self.model.connection_failed(
                    _("not a server address: {error}").format(error=error), final=True
                )
                break
            except (OSError, WebSocketException, TimeoutError, ssl.SSLError) as error:
                log.debug("connection to %s failed: %s", self.url, error)
                self._arriving = False  # the player will see this reconnection
                if not self.model.welcomed_once:
                    reason, retry = describe_failure(error, self.url)
                    final = not retry or failures + 1 >= CONNECT_ATTEMPTS
                    self.model.connection_failed(
                        reason, final=final, attempt=failures + 1, of=CONNECT_ATTEMPTS
                    )
            self._socket = None
            if self._closing or self.model.given_up:
                break
            if self._redirect_to is not None:
                self.url, self._redirect_to = self._redirect_to, None
                continue  # straight there: the player is not told
            if self.url != self.home_url and self.model.welcomed_once:
                self.url = self.home_url  # the node we were sent to is gone: start over
            self.model.connection_lost()
            self.redraw()
            await asyncio.sleep(self.retry_delays[min(failures, len(self.retry_delays) - 1)])
            failures += 1
        self.model.connection_closed()
        self.redraw()

    def _drain_outbox(self) -> None:
        while not self._outbox.empty():
            self._outbox.get_nowait()

    async def _write(self, socket: ClientConnection) -> None:
        while True:
            message = await self._outbox.get()
            self._recent.append(message)
            await socket.send(encode(message))

    async def _read(self, socket: ClientConnection) -> None:
        async for data in socket:
            if isinstance(data, str):
                continue
            try:
                message = decode_server(data)
            except DecodeError as error:
                if not self.model.welcomed_once:  # the first reply is not ours to read
                    self.model.connection_failed(
                        _("not a Spades server (its reply is not our protocol)"), final=True
                    )
                    self.redraw()
                    return
                self.model.notify(
                    _("unreadable message from the server: {error}").format(error=error)
                )
                self.redraw()
                continue
            if isinstance(message, m.Redirect):
                if self._follow(message):
                    await socket.close()
                    return
                continue
            if isinstance(message, m.Welcome) and self._arriving:
                # the welcome at the node we were sent to: no "Reconnected." for a move
                # the player never saw, then the redirected request again
                self._arriving = False
                logged = len(self.model.log)
                self.model.handle(message)
                if len(self.model.log) == logged + 1:
                    self.model.unsay(_("Reconnected.")[:-1])
                if self._repeat is not None:
                    self.send(self._repeat)
                    self._repeat = None
                self.redraw()
                continue
            if not isinstance(message, m.Welcome):
                self._hops = 0
            try:
                self.model.handle(message)
            except Exception as error:  # a client bug must not stop the reader
                log.exception("handling %s failed", message.type)
                self.model.notify(
                    _("client error on {message}: {error}").format(
                        message=message.type, error=repr(error)
                    )
                )
            self.redraw()
            if self.model.given_up:
                return

    def _follow(self, redirect: m.Redirect) -> bool:
        """Prepare to follow ``redirect``: whether to (the hop limit not reached)."""
        if self._hops >= MAX_REDIRECTS:
            self.model.notify(
                _("table {code} keeps moving between servers; try again later").format(
                    code=redirect.table
                )
            )
            self.redraw()
            return False
        self._hops += 1
        self.redirects += 1
        log.debug("redirected to %s for table %s", redirect.url, redirect.table)
        self._redirect_to = redirect.url
        self._arriving = True
        self._repeat = None
        if redirect.request not in (None, "hello"):
            for sent in reversed(self._recent):
                if sent.type == redirect.request and sent.id == redirect.id:
                    self._repeat = sent
                    break
        return True

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
