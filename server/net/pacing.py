"""Websocket handshakes spread over turns of the loop, a few per turn, fair among addresses.

    pacer = HandshakePacer(holds=held, share=limits.share)      # one per server
    process_request = paced(http_responder(health), pacer, address_of)
    await pacer.turn("192.0.2.7")        # returns in a later turn of the loop

What a websocket upgrade costs once its request is read (the answer, the ``101``, the
session and its reader) is 1.4 to 1.8 ms of the loop in one step on the benchmark
machine (the probe of the longest loop turns, hello flood). Requests that arrive
together were each answered in the same turn, one after the other, and an honest ping
read in that turn waited for all of them. Here every upgrade first waits for its turn:
a callback lets :data:`PER_TURN` of the waiting upgrades go on in each turn of the loop
(their steps run in the next turn, with the other connections' reads), so a turn
carries at most that many handshakes whatever arrives at once; the rest wait, in the
order they came within their address share. Among the shares waiting, one holding no
connection goes first (a newcomer always finds room, as with the caps), then the others
in turn, one upgrade each: one address's burst of fifty waits behind the newcomer,
not the other way round. Refusals (``400``, ``405``, ``403``: :mod:`server.net.frontdoor`)
and pages are not paced: they never reach the upgrade. A handshake that runs out of
time while waiting (``handshake_timeout``) is cancelled and leaves its place. Nothing
here raises, but ``CancelledError`` into a waiting caller.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Final

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

__all__ = ["PER_TURN", "HandshakePacer", "paced"]

PER_TURN: Final = 1
"""Upgrades let through in one turn of the loop (each some 1.5 ms of it)."""

Responder = Callable[[ServerConnection, Request], Response | None]


class HandshakePacer:
    """The upgrades waiting for their turn, by address share (see the module).

    ``holds(share)``: the connections the share holds now; ``share(address)``: the share
    an address counts toward; ``per_turn``: upgrades let through per turn of the loop."""

    def __init__(
        self,
        holds: Callable[[str], int],
        share: Callable[[str], str],
        per_turn: int = PER_TURN,
    ) -> None:
        self.holds = holds
        self.share = share
        self.per_turn = max(1, per_turn)
        self._waiting: dict[str, deque[asyncio.Future[None]]] = {}
        # the waiting shares that held no connection when one of their upgrades came,
        # in that order: the next share is found without asking every waiting share
        self._newcomers: dict[str, None] = {}
        self._pump: asyncio.Handle | None = None
        self.released = 0  # upgrades let through so far

    @property
    def waiting(self) -> int:
        """Upgrades waiting now (a cancelled one is counted until its turn comes)."""
        return sum(len(queue) for queue in self._waiting.values())

    async def turn(self, address: str) -> None:
        """Return in a later turn of the loop, when this upgrade from ``address`` may go
        on (raises ``CancelledError`` when the caller is cancelled meanwhile)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        share = self.share(address)
        self._waiting.setdefault(share, deque()).append(future)
        if self.holds(share) <= 0:
            self._newcomers[share] = None
        if self._pump is None:
            self._pump = loop.call_soon(self._release)
        await future

    def _release(self) -> None:
        """One turn of the loop: let :attr:`per_turn` waiting upgrades go on."""
        self._pump = None
        let_through = 0
        while let_through < self.per_turn and self._waiting:
            share = self._next_share()
            queue = self._waiting.pop(share)
            while queue and queue[0].done():  # cancelled while waiting (its time ran out)
                queue.popleft()
            if not queue:
                continue
            future = queue.popleft()
            if queue:
                self._waiting[share] = queue  # to the back: the others' turn first
            future.set_result(None)
            let_through += 1
            self.released += 1
        if self._waiting:
            self._pump = asyncio.get_running_loop().call_soon(self._release)

    def _next_share(self) -> str:
        """The first waiting share that held no connection when an upgrade of its came
        and holds none still, else the first in turn. Each share leaves the newcomers
        once it waits no more or holds a connection: a few steps a release, whatever the
        number of shares waiting (asking each of them was a step per share)."""
        while self._newcomers:
            share = next(iter(self._newcomers))
            if share in self._waiting and self.holds(share) <= 0:
                return share
            del self._newcomers[share]
        return next(iter(self._waiting))


def paced(
    inner: Responder, pacer: HandshakePacer, address_of: Callable[[ServerConnection], str]
) -> Callable[[ServerConnection, Request], Awaitable[Response | None]]:
    """``process_request`` for the server: ``inner``'s answer, a websocket upgrade's only
    once ``pacer`` gives it its turn (``address_of``: the address a connection counts as)."""

    async def process_request(connection: ServerConnection, request: Request) -> Response | None:
        if request.headers.get("Upgrade", "").lower() == "websocket":
            await pacer.turn(address_of(connection))
        return inner(connection, request)

    return process_request
