"""The server-wide keep-alive (server/net/keepalive.py): a silent peer is pinged after the
ping interval and closed when still silent the ping timeout after that; a peer that sends
is never pinged; a live idle peer answers the pings and stays.

The wheel's own logic runs on a fake clock (no waiting); the server's behaviour is tested
end to end with short intervals and a raw socket that shows the frames as they come.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import struct
from collections.abc import Callable
from typing import Any, cast

from protocol import messages as m
from protocol.codec import encode
from server import RunningServer
from server.net.keepalive import RESOLUTION, Keepalive
from tests.server.helpers import run

# --------------------------------------------------------------------------- the wheel


class FakeLoop:
    """Just what the keep-alive uses of a loop: ``time`` and ``call_at``."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.timers: list[tuple[float, int, FakeHandle]] = []
        self.order = itertools.count()

    def time(self) -> float:
        return self.now

    def call_at(self, when: float, callback: Callable[[], None]) -> FakeHandle:
        handle = FakeHandle(callback)
        heapq.heappush(self.timers, (when, next(self.order), handle))
        return handle

    def advance(self, seconds: float, step: float = 0.01) -> None:
        """Move the clock on, running each timer as its time comes."""
        end = self.now + seconds
        while True:
            live = [t for t in self.timers if not t[2].cancelled]
            due = min((t[0] for t in live), default=end + 1)
            if due > end:
                self.now = end
                return
            when, _, handle = heapq.heappop(self.timers)
            if handle.cancelled:
                continue
            self.now = max(self.now, when)
            handle.callback()

    @property
    def pending(self) -> int:
        return sum(1 for t in self.timers if not t[2].cancelled)


class FakeHandle:
    def __init__(self, callback: Callable[[], None]) -> None:
        self.callback, self.cancelled = callback, False

    def cancel(self) -> None:
        self.cancelled = True


class FakePeer:
    def __init__(self, loop: FakeLoop) -> None:
        self.loop = loop
        self.heard_at = 0.0
        self.pings: list[float] = []
        self.closed_at: float | None = None

    def keepalive_ping(self) -> None:
        self.pings.append(self.loop.now)

    def keepalive_timed_out(self) -> None:
        self.closed_at = self.loop.now

    def hear(self) -> None:
        self.heard_at = self.loop.now


def wheel(interval: float = 5.0, timeout: float = 8.0) -> tuple[FakeLoop, Keepalive]:
    loop = FakeLoop()
    return loop, Keepalive(interval, timeout, loop=cast(Any, loop))


def test_a_silent_peer_is_pinged_once_its_interval_is_up_and_not_before() -> None:
    loop, keepalive = wheel()
    peer = FakePeer(loop)
    keepalive.watch(peer)
    start = loop.now
    loop.advance(5.0 - RESOLUTION - 0.001)
    assert peer.pings == []
    loop.advance(RESOLUTION + 0.002)
    assert len(peer.pings) == 1
    assert 5.0 - RESOLUTION <= peer.pings[0] - start <= 5.0 + 1e-9
    assert keepalive.pings_sent == 1


def test_a_peer_silent_after_its_ping_is_closed_after_the_timeout_within_the_bound() -> None:
    loop, keepalive = wheel()
    peer = FakePeer(loop)
    keepalive.watch(peer)
    heard = peer.heard_at
    loop.advance(30.0)
    assert len(peer.pings) == 1
    assert peer.closed_at is not None
    assert peer.closed_at - peer.pings[0] >= 8.0  # the whole timeout to answer
    assert peer.closed_at - heard <= 5.0 + 8.0 + RESOLUTION + 1e-9
    assert keepalive.timed_out == 1
    assert len(keepalive) == 0
    assert loop.pending == 0  # nothing watched: the wheel stopped ticking


def test_a_peer_that_answers_is_kept_and_pinged_again_an_interval_later() -> None:
    loop, keepalive = wheel()
    peer = FakePeer(loop)
    keepalive.watch(peer)
    for _ in range(5):
        count = len(peer.pings)
        while len(peer.pings) == count:
            loop.advance(0.01)
        loop.advance(0.2)  # the pong's round trip
        peer.hear()
    loop.advance(3.0)
    assert peer.closed_at is None
    assert len(peer.pings) == 5
    gaps = [b - a for a, b in itertools.pairwise(peer.pings)]
    # the next ping an interval (less at most a slot) after the pong came, 0.2 s after
    # the ping (and the test's clock moves in steps of 0.01 s)
    assert all(5.2 - RESOLUTION <= gap <= 5.2 + 0.01 + 1e-9 for gap in gaps)


def test_a_peer_that_sends_is_never_pinged() -> None:
    loop, keepalive = wheel()
    peer = FakePeer(loop)
    keepalive.watch(peer)
    for _ in range(60):
        loop.advance(1.0)
        peer.hear()
    assert peer.pings == [] and peer.closed_at is None
    loop.advance(5.0)
    assert len(peer.pings) == 1


def test_a_forgotten_peer_is_left_alone_and_the_wheel_stops() -> None:
    loop, keepalive = wheel()
    kept, gone = FakePeer(loop), FakePeer(loop)
    keepalive.watch(kept)
    keepalive.watch(gone)
    keepalive.forget(gone)
    keepalive.forget(gone)  # again: no effect
    loop.advance(20.0)
    assert gone.pings == [] and gone.closed_at is None
    assert len(kept.pings) == 1 and kept.closed_at is not None
    assert loop.pending == 0
    keepalive.watch(FakePeer(loop))  # a new peer starts the wheel again
    assert loop.pending == 1
    keepalive.close()
    assert loop.pending == 0 and len(keepalive) == 0


def test_pings_follow_each_peers_own_silence_not_a_common_beat() -> None:
    loop, keepalive = wheel()
    peers = []
    for _ in range(200):  # opened over 2 s, all silent after
        peer = FakePeer(loop)
        keepalive.watch(peer)
        peers.append(peer)
        loop.advance(0.01)
    loop.advance(7.0)
    times = sorted(p.pings[0] for p in peers)
    assert len(times) == 200
    per_slot: dict[int, int] = {}
    for when in times:
        per_slot[round(when / RESOLUTION)] = per_slot.get(round(when / RESOLUTION), 0) + 1
    assert max(per_slot.values()) <= 10  # 5 opened per slot: no bunching beyond that
    assert times[-1] - times[0] >= 1.9


# --------------------------------------------------------------------------- the server

INTERVAL, TIMEOUT, CLOSE = 0.2, 0.3, 0.3


class RawPeer:
    """A websocket client on a bare socket: it answers pings only when told to, and
    keeps every frame the server sends as ``(opcode, payload)``."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self.frames: list[tuple[int, bytes]] = []
        self.answer_pings = True
        self.ended = False
        self.task = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, port: int) -> RawPeer:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            b"Sec-WebSocket-Version: 13\r\n\r\n"
        )
        head = await reader.readuntil(b"\r\n\r\n")
        assert b" 101 " in head.split(b"\r\n")[0]
        return cls(reader, writer)

    def send(self, payload: bytes, opcode: int = 2) -> None:
        assert len(payload) < 126
        self.writer.write(bytes((0x80 | opcode, 0x80 | len(payload))) + b"\0\0\0\0" + payload)

    async def _read(self) -> None:
        try:
            while True:
                first, second = await self.reader.readexactly(2)
                size = second & 0x7F
                if size == 126:
                    size = int.from_bytes(await self.reader.readexactly(2), "big")
                elif size == 127:
                    size = int.from_bytes(await self.reader.readexactly(8), "big")
                payload = await self.reader.readexactly(size)
                opcode = first & 0x0F
                self.frames.append((opcode, payload))
                if opcode == 9 and self.answer_pings:
                    self.send(payload, 0xA)
        except (asyncio.IncompleteReadError, ConnectionError):
            self.ended = True

    def count(self, opcode: int) -> int:
        return sum(1 for code, _ in self.frames if code == opcode)

    def close(self) -> None:
        self.task.cancel()
        self.writer.close()


async def until(condition: Callable[[], bool], polls: int = 200) -> bool:
    for _ in range(polls):
        if condition():
            return True
        await asyncio.sleep(0.05)
    return condition()


def test_a_live_idle_peer_is_pinged_and_kept() -> None:
    async def test(server: RunningServer) -> None:
        peer = await RawPeer.open(server.port)
        peer.send(encode(m.Hello(protocol_version=1, name="idle")))
        # it answers every ping and sends nothing else: pinged about every interval,
        # never closed
        assert await until(lambda: peer.count(9) >= 4)
        assert not peer.ended and peer.count(8) == 0
        assert len(server.server.handlers) == 1
        peer.close()

    run(test, ping_interval=INTERVAL, ping_timeout=TIMEOUT, close_timeout=CLOSE)


def test_a_dead_peer_gets_close_1011_and_is_dropped() -> None:
    async def test(server: RunningServer) -> None:
        peer = await RawPeer.open(server.port)
        peer.answer_pings = False
        peer.send(encode(m.Hello(protocol_version=1, name="dead")))
        assert await until(lambda: peer.count(8) == 1)
        close = next(payload for code, payload in peer.frames if code == 8)
        assert struct.unpack("!H", close[:2])[0] == 1011
        assert peer.count(9) == 1  # one ping, unanswered, then the close
        # the peer does not answer the close either: the server drops it after close_timeout
        assert await until(lambda: peer.ended and not server.server.handlers)
        peer.close()

    run(test, ping_interval=INTERVAL, ping_timeout=TIMEOUT, close_timeout=CLOSE)


def test_a_peer_that_keeps_sending_is_never_pinged() -> None:
    async def test(server: RunningServer) -> None:
        busy, idle = await RawPeer.open(server.port), await RawPeer.open(server.port)
        busy.send(encode(m.Hello(protocol_version=1, name="busy")))
        idle.send(encode(m.Hello(protocol_version=1, name="idle")))
        nonce = 0
        while idle.count(9) < 4:  # four intervals and more for the idle one
            nonce += 1
            busy.send(encode(m.Ping(nonce=nonce)))
            await asyncio.sleep(INTERVAL / 4)
            assert nonce < 400
        assert busy.count(9) == 0
        assert not busy.ended and not idle.ended
        busy.close()
        idle.close()

    run(test, ping_interval=INTERVAL, ping_timeout=TIMEOUT, close_timeout=CLOSE)
