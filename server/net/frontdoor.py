"""The front door: the HTTP request of a new connection, read and answered before any
websocket opens.

    adopt(protocol)                                   # in the connection's __init__
    response = await answer(connection, request, inner, allowed_origins)
    tally = RefusalTally(log)                         # one per server; tally.note("HTTP 400")
    half_open = HalfOpen(limit=64, exempt=("10.0.0.2",))

The websockets library reads any request line and up to 128 header lines of 8 KiB each
(about 1 MiB held per half-open socket; its limits are process-wide environment
variables read at import) and answers anything but ``GET ... HTTP/1.1`` with nothing
but an ERROR log line. :func:`adopt` gives a connection our own reader instead: the
request line and headers together stay within :data:`MAX_HEADER_BYTES`, and a request
we cannot serve still reaches :func:`answer`, which says why over HTTP (``HEAD`` like
``GET`` without the body, other methods ``405``, HTTP/1.0 and malformed requests
``400``, headers too large ``431``, a websocket from a page of another origin ``403``).

Refused handshakes are counted, not logged one by one: :class:`RefusalTally` writes at
most one line a second, with the count and the reasons. :class:`HalfOpen` bounds the
connections of one address that have not finished their handshake. Nothing here
raises.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import re
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Generator, Iterable
from dataclasses import dataclass
from typing import Final

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.exceptions import InvalidMessage
from websockets.http11 import Request, Response
from websockets.protocol import CONNECTING, Protocol
from websockets.server import ServerProtocol

from server.logs import event

__all__ = [
    "MAX_HEADER_BYTES",
    "SERVER_HEADER",
    "FrontDoorRequest",
    "HalfOpen",
    "RefusalTally",
    "address_group",
    "adopt",
    "answer",
    "origin_allowed",
]

MAX_HEADER_BYTES: Final = 16 * 1024
"""The request line and every header line together (browsers send 1-2 KiB here)."""
MAX_HEADER_LINES: Final = 64
SERVER_HEADER: Final = "spades"
"""The ``Server:`` header: the program, never a library or its version."""

_TOKEN = re.compile(rb"[-!#$%&'*+.^_`|~0-9a-zA-Z]+")
_VALUE = re.compile(rb"[\x09\x20-\x7e\x80-\xff]*")

Inner = Callable[[ServerConnection, Request], Awaitable[Response | None] | Response | None]


@dataclass
class FrontDoorRequest(Request):
    """A request as our reader saw it: ``problem`` is the status to answer with (400, 431)
    when it cannot be served at all, else ``None``."""

    method: str = "GET"
    problem: int | None = None


class _TooLarge(Exception):
    pass


def _line(
    read_line: Callable[[int], Generator[None, None, bytes]], budget: int
) -> Generator[None, None, bytes]:
    """One CRLF-ended line of at most ``budget`` bytes, without the CRLF; raises
    :class:`_TooLarge` past the budget and EOFError when the peer stops first."""
    try:
        line = yield from read_line(budget)
    except RuntimeError:  # the reader's own bound: no line end within budget bytes
        raise _TooLarge from None
    if len(line) > budget:
        raise _TooLarge
    if not line.endswith(b"\r\n"):
        raise EOFError("line without CRLF")
    return line[:-2]


def read_request(
    read_line: Callable[[int], Generator[None, None, bytes]],
) -> Generator[None, None, FrontDoorRequest]:
    """The next request, read within :data:`MAX_HEADER_BYTES`; raises EOFError when the
    peer closes before a whole request. Anything malformed is a request with a
    ``problem``, not an exception, so that it gets an answer."""
    budget = MAX_HEADER_BYTES
    try:
        first = yield from _line(read_line, budget)
    except _TooLarge:
        return FrontDoorRequest("/", Headers(), problem=431)
    budget -= len(first) + 2
    parts = first.split(b" ")
    if len(parts) != 3 or not _TOKEN.fullmatch(parts[0]) or not parts[1]:
        return FrontDoorRequest("/", Headers(), problem=400)
    method, raw_path, version = parts
    path = raw_path.decode("ascii", "surrogateescape")
    if version != b"HTTP/1.1":  # HTTP/1.0 cannot upgrade to a websocket
        return FrontDoorRequest(path, Headers(), method=method.decode(), problem=400)
    headers = Headers()
    for _ in range(MAX_HEADER_LINES + 1):
        try:
            line = yield from _line(read_line, budget)
        except _TooLarge:
            return FrontDoorRequest(path, headers, method=method.decode(), problem=431)
        budget -= len(line) + 2
        if line == b"":
            problem = 400 if "Transfer-Encoding" in headers else None
            return FrontDoorRequest(path, headers, method=method.decode(), problem=problem)
        name, colon, value = line.partition(b":")
        value = value.strip(b" \t")
        if not colon or not _TOKEN.fullmatch(name) or not _VALUE.fullmatch(value):
            return FrontDoorRequest(path, headers, method=method.decode(), problem=400)
        headers[name.decode("ascii")] = value.decode("ascii", "surrogateescape")
    return FrontDoorRequest(path, headers, method=method.decode(), problem=431)


class _FrontDoorProtocol(ServerProtocol):
    """The library's server protocol with :func:`read_request` as its request reader."""

    def parse(self) -> Generator[None]:
        if self.state is CONNECTING:
            try:
                request = yield from read_request(self.reader.read_line)
            except EOFError as error:
                self.handshake_exc = InvalidMessage("did not receive a whole HTTP request")
                self.handshake_exc.__cause__ = error
                self.send_eof()
                self.parser = self.discard()
                next(self.parser)
                yield
                return
            self.events.append(request)
            if request.problem is not None:
                # answered without reading on (there is no sense in what follows): the
                # answer replaces this parser; until then what comes is dropped
                while not (yield from self.reader.at_eof()):
                    self.reader.discard()
                yield
                return
        yield from Protocol.parse(self)  # the frames, once the handshake is done


def adopt(protocol: ServerProtocol) -> None:
    """Make ``protocol`` (new, nothing read yet) read its request with
    :func:`read_request`. Call it before the connection receives any data."""
    protocol.__class__ = _FrontDoorProtocol
    protocol.parser.close()
    protocol.parser = protocol.parse()
    next(protocol.parser)


def origin_allowed(headers: Headers, allowed: Iterable[str]) -> bool:
    """Whether a websocket request with ``headers`` may open: no ``Origin`` (not a
    browser: the terminal client, bots), an origin listed in ``allowed``, or the page's
    own origin (``http://`` or ``https://`` and the request's ``Host``)."""
    origins = headers.get_all("Origin")
    if not origins:
        return True
    if len(origins) > 1:
        return False
    origin = origins[0].strip().lower().rstrip("/")
    if origin in {entry.strip().lower().rstrip("/") for entry in allowed}:
        return True
    host = headers.get("Host", "").strip().lower()
    return bool(host) and origin in (f"http://{host}", f"https://{host}")


def _status(connection: ServerConnection, code: int, text: str) -> Response:
    return connection.respond(code, text)


async def answer(
    connection: ServerConnection, request: Request, inner: Inner | None, allowed: Iterable[str]
) -> Response | None:
    """The answer to ``request`` (``None``: open the websocket), ``inner`` being the
    server's own ``process_request`` for the requests we can serve."""
    method = getattr(request, "method", "GET")
    problem = getattr(request, "problem", None)
    if problem == 431:
        return _status(connection, 431, "Request headers too large.\n")
    if problem is not None:
        return _status(connection, 400, "Bad request: this server speaks HTTP/1.1.\n")
    if method not in ("GET", "HEAD"):
        refusal = _status(connection, 405, "Method not allowed: use GET or HEAD.\n")
        refusal.headers["Allow"] = "GET, HEAD"
        return refusal
    upgrade = request.headers.get("Upgrade", "").lower() == "websocket"
    if upgrade and method == "GET" and not origin_allowed(request.headers, allowed):
        return _status(connection, 403, "This page's origin may not open a game here.\n")
    response: Response | None = None
    if inner is not None:
        result = inner(connection, request)
        response = await result if isinstance(result, Awaitable) else result
    if method == "HEAD":
        if response is None:  # a websocket cannot open by HEAD
            response = _status(connection, 400, "Bad request: open a websocket with GET.\n")
        return Response(response.status_code, response.reason_phrase, response.headers, b"")
    return response


def address_group(host: str) -> str:
    """What per-address bounds count here: an IPv4 address, an IPv6 /64 (one customer's
    network), or the text itself when it is no address."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class HalfOpen:
    """The connections of each address that have not finished their handshake, at most
    ``limit`` each (addresses in ``exempt``, trusted proxies, have no bound)."""

    def __init__(self, limit: int, exempt: Iterable[str] = ()) -> None:
        self.limit = limit
        self.exempt = {address_group(entry) for entry in exempt}
        self._by_group: dict[str, set[object]] = {}
        self._group_of: dict[object, str] = {}

    def admit(self, connection: object, host: str) -> bool:
        """Count ``connection`` from ``host``; ``False`` (not counted) past the limit."""
        group = address_group(host)
        held = self._by_group.setdefault(group, set())
        if group not in self.exempt and self.limit > 0 and len(held) >= self.limit:
            if not held:
                del self._by_group[group]
            return False
        held.add(connection)
        self._group_of[connection] = group
        return True

    def release(self, connection: object) -> None:
        """``connection`` finished its handshake or closed (again: no effect)."""
        group = self._group_of.pop(connection, None)
        if group is None:
            return
        held = self._by_group.get(group)
        if held is not None:
            held.discard(connection)
            if not held:
                del self._by_group[group]

    def held(self, host: str) -> int:
        return len(self._by_group.get(address_group(host), ()))

    def room(self, host: str) -> bool:
        """Whether :meth:`admit` would count one more connection from ``host``."""
        group = address_group(host)
        if group in self.exempt or self.limit <= 0:
            return True
        return len(self._by_group.get(group, ())) < self.limit


class RefusalTally:
    """Refused handshakes, logged at most once per ``interval`` seconds as one WARNING
    line with their count and reasons (the first refusal after a quiet spell at once)."""

    def __init__(
        self,
        logger: logging.Logger,
        interval: float = 1.0,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger
        self.interval = interval
        self.now = now
        self.counts: Counter[str] = Counter()
        self.total = 0
        self._last = float("-inf")
        self._timer: asyncio.TimerHandle | None = None

    def note(self, reason: str) -> None:
        """Count one refusal for ``reason`` ("HTTP 400", "too many half-open")."""
        self.counts[reason] += 1
        self.total += 1
        waited = self.now() - self._last
        if waited >= self.interval:
            self.flush()
        elif self._timer is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # no loop (a unit test): the next note flushes
                return
            self._timer = loop.call_later(self.interval - waited, self.flush)

    def flush(self) -> None:
        """Write the line for what was counted since the last one (nothing when nothing)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self.counts:
            return
        count = sum(self.counts.values())
        reasons = ", ".join(f"{reason}: {n}" for reason, n in self.counts.most_common())
        self.logger.warning(
            "handshakes refused: %d since the last such line (%s)",
            count,
            reasons,
            extra=event("handshake.refused", count=count, reasons=dict(self.counts)),
        )
        self.counts.clear()
        self._last = self.now()
