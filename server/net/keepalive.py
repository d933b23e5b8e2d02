"""One keep-alive for every connection of a server, in place of a task per connection.

    keepalive = Keepalive(interval=5.0, timeout=8.0)
    keepalive.watch(peer)        # once its handshake is over (peer: see Peer)
    peer.heard_at = now          # each time bytes arrive from it (the peer does this)
    keepalive.forget(peer)       # when its connection is lost
    keepalive.pings_sent, keepalive.timed_out, len(keepalive)

websockets' own keep-alive runs a task per connection that pings every ``interval``
whatever the connection does: with thousands of players that is hundreds of pings (each a
coroutine, a future, a timeout and a pong to parse) a second, their timers bunched where
the connections were opened. A connection that sent us anything lately has shown it is
alive, so here a peer is pinged only once it has been silent for ``interval``, and closed
(close code 1011, as websockets does) when it is still silent ``timeout`` after that
ping. Each peer is looked at when its own deadline comes (a timing wheel of
:data:`RESOLUTION` slots), so the checks are spread over time like the peers' traffic,
not bunched: about one look per peer and ``interval`` (less for a busy peer, whose look
only moves its deadline on). A ping is sent up to one slot before its ``interval`` is
up and a peer closed at most one slot (plus the loop's lateness) after its ``timeout``,
so a dead peer is closed at most ``interval + timeout`` plus a slot after it was last
heard. Nothing here raises; the wheel ticks only while it watches a peer.
"""

from __future__ import annotations

import asyncio
import math
from typing import Final, Protocol

__all__ = ["RESOLUTION", "Keepalive", "Peer"]

RESOLUTION: Final = 0.05
"""Seconds between the wheel's slots: how early a ping, how late a close may be."""


class Peer(Protocol):
    """A connection as the keep-alive sees it: when it was last heard from (the loop's
    clock, set by the connection as bytes arrive), and how to ping it and give up on it."""

    heard_at: float

    def keepalive_ping(self) -> None:
        """Send a ping frame now (nothing waits for its pong: any frame will do)."""

    def keepalive_timed_out(self) -> None:
        """Close the connection: it did not answer a ping in time."""


class Keepalive:
    """The peers of one server, each with its next look due (see the module). Call
    from the event loop's thread only; ``loop`` (its clock and timers) is the running
    loop by default, taken at the first :meth:`watch`."""

    def __init__(
        self,
        interval: float,
        timeout: float,
        resolution: float = RESOLUTION,
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        self.interval, self.timeout, self.resolution = interval, timeout, resolution
        self._loop = loop
        self._slots: dict[int, set[Peer]] = {}
        self._slot_of: dict[Peer, int] = {}
        self._pinged_at: dict[Peer, float] = {}
        self._done = -1  # the last slot looked at
        self._tick: asyncio.TimerHandle | None = None
        self.pings_sent = 0
        self.timed_out = 0

    def __len__(self) -> int:
        return len(self._slot_of)

    def watch(self, peer: Peer) -> None:
        """Keep ``peer`` alive from now on (again: no effect)."""
        if peer in self._slot_of:
            return
        loop = self._get_loop()
        peer.heard_at = max(getattr(peer, "heard_at", 0.0), loop.time())
        if not self._slot_of:
            self._done = self._slot(loop.time()) - 1
        self._place(peer, peer.heard_at + self.interval - self.resolution)
        if self._tick is None:
            self._schedule(loop)

    def forget(self, peer: Peer) -> None:
        """Stop watching ``peer`` (its connection is gone); not watched: no effect."""
        slot = self._slot_of.pop(peer, None)
        self._pinged_at.pop(peer, None)
        if slot is not None:
            peers = self._slots.get(slot)
            if peers is not None:
                peers.discard(peer)
                if not peers:
                    del self._slots[slot]
        if not self._slot_of and self._tick is not None:
            self._tick.cancel()
            self._tick = None

    def close(self) -> None:
        """Forget every peer and stop ticking."""
        for peer in list(self._slot_of):
            self.forget(peer)

    def _get_loop(self) -> asyncio.AbstractEventLoop:
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        return self._loop

    def _slot(self, when: float) -> int:
        return math.ceil(when / self.resolution)

    def _place(self, peer: Peer, due: float) -> None:
        # never in a slot already looked at: the next tick sees it
        slot = max(self._slot(due), self._done + 1)
        self._slot_of[peer] = slot
        peers = self._slots.get(slot)
        if peers is None:
            self._slots[slot] = {peer}
        else:
            peers.add(peer)

    def _schedule(self, loop: asyncio.AbstractEventLoop) -> None:
        self._tick = loop.call_at((self._done + 1) * self.resolution, self._run)

    def _run(self) -> None:
        self._tick = None
        loop = self._get_loop()
        now = loop.time()
        # the slot this timer was set for, even when the clock reads a hair before it
        last = max(math.floor(now / self.resolution), self._done + 1)
        slots = self._slots
        for slot in range(self._done + 1, last + 1):
            self._done = slot
            peers = slots.pop(slot, None)
            if peers:
                for peer in peers:
                    if self._slot_of.get(peer) == slot:
                        self._look(peer, now)
        if self._slot_of:
            self._schedule(loop)

    def _look(self, peer: Peer, now: float) -> None:
        heard = peer.heard_at
        pinged = self._pinged_at.get(peer)
        if pinged is not None:
            if heard < pinged:  # silent since the ping
                if now < pinged + self.timeout:
                    self._place(peer, pinged + self.timeout)
                    return
                self.forget(peer)
                self.timed_out += 1
                peer.keepalive_timed_out()
                return
            del self._pinged_at[peer]
        due = heard + self.interval - self.resolution
        if now < due:
            self._place(peer, due)
            return
        self._pinged_at[peer] = now
        self.pings_sent += 1
        # looked at again when its next ping would be due if it answered at once (then
        # an idle peer is pinged every interval), or at its timeout if that comes first
        self._place(peer, now + min(self.timeout, self.interval - self.resolution))
        peer.keepalive_ping()
