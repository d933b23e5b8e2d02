"""The server's own accept step in front of websockets: a socket past a bound is closed
as it is accepted, before asyncio or websockets build anything for it.

    server, admission = await listen(config, handler, process_request,
                                     select_subprotocol, fd_limit=0, tls=None)
    server.sockets; admission.shed       # the websockets Server; what was shed, by reason
    server.close(); await server.wait_closed()

Left to asyncio's own server, each accepted socket got a task, a transport and the
library's protocol and connection objects (some 110 us of the loop) before our first hook
could look at its address; an address opening hundreds a second held the loop for every
player. Here :class:`Listener` accepts from the listening sockets itself (at most
:data:`ACCEPT_BATCH` per turn of the loop) and asks :class:`~server.net.admission.
Admission` about the raw socket: a refused one is closed at once (one system call); an
admitted one gets its connection object and its transport (TLS too) through
``loop.connect_accepted_socket``, and the websockets :class:`Server` takes it from there.
Raises ``OSError`` from :func:`listen` when the address cannot be bound.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import socket
import ssl
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Final

from websockets.asyncio.server import Server, ServerConnection
from websockets.http11 import Request, Response
from websockets.server import ServerProtocol
from websockets.typing import Subprotocol

from server.config import ServerConfig
from server.limits import address_share
from server.net.admission import Admission
from server.net.guard import OneLineLogger, guarded_connection, let_go
from server.net.keepalive import Keepalive

__all__ = ["ACCEPT_BATCH", "ACCEPT_PER_TURN", "LISTEN_QUEUE", "Listener", "listen"]

ACCEPT_BATCH: Final = 16
"""Admitted connections set up (each some 110 us: its protocol, connection and
transport) in one turn of the loop, so that a burst of hundreds is spread over turns."""
ACCEPT_PER_TURN: Final = 128
"""New connections taken from a listening socket in one turn of the loop. Taking one is
cheap either way: a refused one is an accept and a close on the bare descriptor (some
11 us on the benchmark machine, no Python socket object), an admitted one is counted
and waits for its set-up (:data:`ACCEPT_BATCH` a turn, the address shares in turn). An
honest connection that arrives behind a burst of a thousand from a few addresses thus
leaves the kernel's queue in some 8 turns rather than 60, and is set up after at most
one connection of each other share waiting, not after all of theirs."""
LISTEN_QUEUE: Final = 1024
"""Connections the kernel holds for the server before they are accepted (the system's
``somaxconn`` caps it)."""
RETRY_AFTER: Final = 1.0
"""Seconds accepting pauses when the process or the system is out of descriptors."""

_OUT_OF_RESOURCES: Final = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}

log = logging.getLogger("server")

Handler = Callable[[ServerConnection], Awaitable[None]]
ProcessRequest = Callable[[ServerConnection, Request], Awaitable[Response | None] | Response | None]
Chooser = Callable[[ServerConnection, Sequence[Subprotocol]], Subprotocol | None]


class Listener(asyncio.AbstractServer):
    """Listening ``sockets`` that hand each accepted socket and its peer's host to
    ``on_accept`` (which owns it from then on); an :class:`asyncio.AbstractServer`, so
    that a websockets :class:`Server` can ``wrap`` it. ``start()`` begins accepting."""

    def __init__(
        self,
        sockets: list[socket.socket],
        on_accept: Callable[[socket.socket, str], None],
        refuse: Callable[[str], bool] | None = None,
    ) -> None:
        self._loop = asyncio.get_running_loop()
        self._sockets = sockets
        self._on_accept = on_accept
        self._refuse = refuse
        self._serving = False
        self._closed = self._loop.create_future()
        self.on_close: list[Callable[[], None]] = []

    @property
    def sockets(self) -> tuple[socket.socket, ...]:
        return tuple(self._sockets)

    def start(self) -> None:
        """Accept from every socket, as they become readable."""
        if self._serving or self._closed.done():
            return
        self._serving = True
        for sock in self._sockets:
            sock.setblocking(False)
            self._loop.add_reader(sock.fileno(), self._ready, sock)

    def _ready(self, sock: socket.socket) -> None:
        for _ in range(ACCEPT_PER_TURN):
            try:
                # the bare descriptor: a refused connection never gets a socket object
                fd, peer = sock._accept()  # type: ignore[attr-defined]
            except (BlockingIOError, InterruptedError):
                return
            except OSError as error:
                if error.errno not in _OUT_OF_RESOURCES:
                    continue  # this one went (ECONNABORTED and the like): the next
                # out of descriptors: the connections waiting stay in the kernel's queue
                log.warning("accepting paused for %g s: %s", RETRY_AFTER, error)
                self._loop.remove_reader(sock.fileno())
                self._loop.call_later(RETRY_AFTER, self._resume, sock)
                return
            host = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
            if self._refuse is not None and self._refused(fd, host):
                continue
            conn = socket.socket(sock.family, sock.type, sock.proto, fileno=fd)
            try:
                self._on_accept(conn, host)
            except Exception:  # our bug: this socket is lost, the listener goes on
                log.exception("a new connection from %s could not be set up", host)
                conn.close()

    def _refused(self, fd: int, host: str) -> bool:
        """Whether the connection ``fd`` from ``host`` was refused (and closed)."""
        assert self._refuse is not None
        try:
            refuse = self._refuse(host)
        except Exception:  # our bug: let the connection in, as without the check
            log.exception("the admission of a connection from %s failed", host)
            return False
        if refuse:
            os.close(fd)  # one system call: nothing was built for it
        return refuse

    def _resume(self, sock: socket.socket) -> None:
        if self._serving:
            self._loop.add_reader(sock.fileno(), self._ready, sock)

    def close(self) -> None:
        """Stop accepting and close the listening sockets (again: no effect)."""
        if self._closed.done():
            return
        self._serving = False
        for sock in self._sockets:
            self._loop.remove_reader(sock.fileno())
            sock.close()
        for hook in self.on_close:
            hook()
        self._closed.set_result(None)

    async def wait_closed(self) -> None:
        await asyncio.shield(self._closed)

    def get_loop(self) -> asyncio.AbstractEventLoop:
        return self._loop

    def is_serving(self) -> bool:
        return self._serving

    async def start_serving(self) -> None:
        self.start()

    async def serve_forever(self) -> None:
        self.start()
        await self.wait_closed()


class Doorway:
    """What becomes of each accepted socket: shed, or a websockets connection of
    ``connection_class`` served by ``server`` (see the module)."""

    def __init__(
        self,
        config: ServerConfig,
        server: Server,
        admission: Admission,
        connection_class: type[ServerConnection],
        choose: Chooser,
        tls: ssl.SSLContext | None,
    ) -> None:
        self.config, self.server, self.admission = config, server, admission
        self.connection_class, self.choose, self.tls = connection_class, choose, tls
        self.attaching: set[asyncio.Task[None]] = set()
        # admitted sockets waiting for their set-up, by address share, shares in turn
        self._parked: dict[str, deque[tuple[socket.socket, str, object]]] = {}
        self._pump: asyncio.Handle | None = None

    def refuse(self, host: str) -> bool:
        """Whether a new connection from ``host`` is refused (counted, and logged at most
        once a second); the listener then closes its bare descriptor."""
        reason = self.admission.refusal(host)
        if reason is None:
            return False
        self.admission.note_shed(reason)
        return True

    def accept(self, sock: socket.socket, host: str) -> None:
        """Take an admitted connection (after :meth:`refuse` said ``False``): counted at
        once (open, half-open), set up in a later turn, :data:`ACCEPT_BATCH` a turn,
        one of each address share waiting in turn."""
        place = object()  # stands for the connection in the counts until it is built
        self.admission.admit(place, host)
        share = address_share(host, self.config.ipv6_share_prefix)
        self._parked.setdefault(share, deque()).append((sock, host, place))
        if self._pump is None:
            self._pump = asyncio.get_running_loop().call_soon(self._set_up)

    @property
    def parked(self) -> int:
        """Admitted connections waiting for their set-up."""
        return sum(len(queue) for queue in self._parked.values())

    def _set_up(self) -> None:
        self._pump = None
        for _ in range(ACCEPT_BATCH):
            if not self._parked:
                break
            share = next(iter(self._parked))
            queue = self._parked.pop(share)
            sock, host, place = queue.popleft()
            if queue:
                self._parked[share] = queue  # to the back: the other shares' turn first
            self.admission.gone(place)
            try:
                self._open(sock, host)
            except Exception:  # our bug: this socket is lost, the others go on
                log.exception("a new connection from %s could not be set up", host)
                sock.close()
        if self._parked:
            self._pump = asyncio.get_running_loop().call_soon(self._set_up)

    def _open(self, sock: socket.socket, host: str) -> None:
        connection = self._build()
        self.admission.admit(connection, host)
        task = asyncio.get_running_loop().create_task(self._attach(sock, connection))
        self.attaching.add(task)
        task.add_done_callback(self.attaching.discard)

    def _build(self) -> ServerConnection:
        choose = self.choose

        def chosen(protocol: ServerProtocol, offered: Sequence[Subprotocol]) -> Subprotocol | None:
            return choose(connection, offered)

        protocol = ServerProtocol(
            select_subprotocol=chosen,
            max_size=self.config.max_message_bytes,
            logger=self.server.logger,
        )
        connection = self.connection_class(
            protocol,
            self.server,
            ping_interval=self.config.ping_interval,
            ping_timeout=self.config.ping_timeout,
            close_timeout=self.config.close_timeout,
            max_queue=32,
        )
        return connection

    async def _attach(self, sock: socket.socket, connection: ServerConnection) -> None:
        loop = asyncio.get_running_loop()
        tls: dict[str, Any] = {}
        if self.tls is not None:
            tls = {
                "ssl": self.tls,
                "ssl_handshake_timeout": self.config.handshake_timeout,
                "ssl_shutdown_timeout": self.config.close_timeout,
            }
        try:
            await loop.connect_accepted_socket(lambda: connection, sock, **tls)
        except BaseException as error:
            # the TLS handshake failed or the server is closing: it never opened
            self.admission.gone(connection)
            sock.close()
            let_go(connection, ended=True)
            if not isinstance(error, Exception):
                raise
            self.admission.refusals.note("no TLS handshake")

    def stop(self) -> None:
        """Give up the connections still waiting for their set-up or in their TLS
        handshake (the server closes)."""
        if self._pump is not None:
            self._pump.cancel()
            self._pump = None
        for queue in self._parked.values():
            for sock, _, place in queue:
                self.admission.gone(place)
                sock.close()
        self._parked.clear()
        for task in list(self.attaching):
            task.cancel()


async def _bind(host: str, port: int) -> list[socket.socket]:
    """Listening TCP sockets for every address ``host`` names (``""``: every interface)."""
    loop = asyncio.get_running_loop()
    infos = await loop.getaddrinfo(
        host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, _, address in dict.fromkeys(infos):
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6 and hasattr(socket, "IPPROTO_IPV6"):
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
            sock.listen(LISTEN_QUEUE)
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    return sockets


async def listen(
    config: ServerConfig,
    handler: Handler,
    process_request: ProcessRequest,
    choose: Chooser,
    fd_limit: int = 0,
    tls: ssl.SSLContext | None = None,
) -> tuple[Server, Admission]:
    """Listen on ``config.host``/``config.port`` and serve websockets with ``handler``
    (``process_request``: the pages; ``choose``: the subprotocol), every new socket first
    admitted by the returned :class:`Admission` (``fd_limit``: the soft limit on open
    files, ``0``: none) and kept alive by one :class:`~server.net.keepalive.Keepalive`
    (``ping_interval``, ``ping_timeout``). Raises ``OSError`` when the address cannot be bound."""
    admission = Admission(config, fd_limit)
    server = Server(
        handler,
        process_request=process_request,
        open_timeout=config.handshake_timeout,
        logger=OneLineLogger(logging.getLogger("websockets.server")),
    )
    # one keep-alive for every connection, not websockets' task per connection
    keepalive = Keepalive(
        config.ping_interval, config.ping_timeout, loop=asyncio.get_running_loop()
    )
    connection_class = guarded_connection(config, admission, keepalive)
    doorway = Doorway(config, server, admission, connection_class, choose, tls)
    listener = Listener(await _bind(config.host, config.port), doorway.accept, doorway.refuse)
    listener.on_close.append(doorway.stop)
    server.wrap(listener)  # type: ignore[arg-type]  # the asyncio.Server interface it uses
    listener.start()
    return server, admission
