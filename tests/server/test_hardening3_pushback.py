"""A connection past its request budget (or its address's) is refused once and then not
read until the budget has refilled: TCP makes the sender wait, instead of the server
reading, looking at and refusing each of its frames. Nothing it sent is dropped without
an answer: the frames that came meanwhile are handled after the hold.

The budgets are emptied and refilled by hand (a refill rate of next to nothing), so what
each test sees does not depend on the wall clock."""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from types import SimpleNamespace
from typing import Any

from websockets.frames import Frame, Opcode

from protocol import messages as m
from server import RunningServer
from server.gateway.session import Session
from server.net.reader import DirectReader
from tests.server.helpers import Client, run

NEVER = 1e-9  # a refill rate: nothing comes back within a test


class _Transport:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def pause_reading(self) -> None:
        self.calls.append("pause")

    def resume_reading(self) -> None:
        self.calls.append("resume")


def _frame(data: bytes) -> Frame:
    return Frame(Opcode.BINARY, data)


def _ws() -> Any:
    queue = SimpleNamespace(queue=deque[Frame]())
    assembler = SimpleNamespace(frames=queue, get_in_progress=False, paused=False, closed=False)
    return SimpleNamespace(recv_messages=assembler, transport=_Transport())


async def _turns(count: int) -> None:
    for _ in range(count):
        await asyncio.sleep(0)


def test_a_held_reader_reads_and_delivers_nothing_until_the_hold_ends_then_all_in_order() -> None:
    got: list[bytes | str] = []

    async def test() -> None:
        ws = _ws()
        reader = DirectReader.install(ws, got.append, lambda code, reason: None)
        assert reader is not None
        reader.put(_frame(b"m0"))
        reader.hold(3600.0)  # as the gateway does while handling m0
        for n in (1, 2, 3):
            reader.put(_frame(f"m{n}".encode()))  # what one read of the socket held
        await _turns(10)
        assert got == [b"m0"] and reader.held
        assert ws.transport.calls == ["pause"]  # the socket is not read meanwhile
        reader.hold(0.0)  # ends it (a new hold replaces the one running)
        await _turns(10)
        assert got == [b"m0", b"m1", b"m2", b"m3"] and not reader.held
        assert ws.transport.calls == ["pause", "resume"]

    asyncio.run(test())


def test_a_hold_on_an_idle_reader_and_a_close_during_a_hold_leave_nothing_running() -> None:
    got: list[bytes | str] = []

    async def test() -> None:
        ws = _ws()
        reader = DirectReader.install(ws, got.append, lambda code, reason: None)
        assert reader is not None
        reader.hold(3600.0)
        reader.put(_frame(b"late"))
        await _turns(5)
        assert got == []
        reader.hold(0.0)
        await _turns(5)
        assert got == [b"late"]

        other = DirectReader.install(_ws(), got.append, lambda code, reason: None)
        assert other is not None
        other.hold(3600.0)
        other.close()
        assert not other.held  # the loop's timer is cancelled: it keeps nothing alive

    asyncio.run(test())


def _session(server: RunningServer, name: str) -> Session:
    found = [s for s in server.hub.transport.sessions if s.player and s.player.name == name]
    assert len(found) == 1
    return found[0]


async def _answers(client: Client, count: int) -> list[str]:
    """The next ``count`` answers: ``pong`` or the error's code."""
    seen: list[str] = []
    while len(seen) < count:
        message = await client.recv()
        if isinstance(message, m.Pong):
            seen.append("pong")
        elif isinstance(message, m.ErrorMessage):
            seen.append(message.code)
    return seen


def test_a_connection_past_its_budget_is_refused_once_then_held_unread() -> None:
    async def test(server: RunningServer) -> None:
        client = await Client.hello(server.url, "flood")
        session = _session(server, "flood")
        session.rate.tokens, session.rate.rate = 0.0, NEVER
        for nonce in range(6):
            await client.send(m.Ping(nonce=nonce))
        assert await _answers(client, 1) == ["rate_limited"]
        await _turns(50)  # the server shares this loop: time to read the other five
        assert client.inbox.empty()  # before: five more refusals, one a turn
        reader = session.ws.recv_messages
        assert isinstance(reader, DirectReader) and reader.held
        assert session.ws.transport is not None and not session.ws.transport.is_reading()
        # before: each of the six read and refused; now the five wait for the budget
        session.rate.tokens = 10.0
        assert session.hold_reading(0.0)
        assert await _answers(client, 5) == ["pong"] * 5
        assert session.strikes == 1
        assert session.ws.transport.is_reading()

    run(test, rate_messages_per_second=30.0, rate_burst=60, rate_close_after=20)


def test_connections_past_their_address_budget_are_each_refused_once_then_held() -> None:
    async def test(server: RunningServer) -> None:
        first = await Client.hello(server.url, "first")
        second = await Client.hello(server.url, "second")
        address = _session(server, "first").address
        shared = server.hub.router.budgets.buckets[server.hub.limits.share(address)]
        shared.tokens, shared.rate = 0.0, NEVER
        for nonce in range(3):
            await first.send(m.Ping(nonce=nonce))
        await second.send(m.Ping(nonce=9))
        assert await _answers(first, 1) == ["rate_limited"]
        assert await _answers(second, 1) == ["rate_limited"]
        await _turns(50)
        # the first one's two other pings were not refused in turn: they wait unread
        assert first.inbox.empty()
        shared.tokens = 10.0
        for name in ("first", "second"):
            assert _session(server, name).hold_reading(0.0)
        assert await _answers(first, 2) == ["pong", "pong"]
        await second.send(m.Ping(nonce=10))
        assert await _answers(second, 1) == ["pong"]

    run(test, address_messages_per_second=30.0, address_burst=60)


def test_a_flood_that_never_lets_its_budget_refill_is_still_closed() -> None:
    async def test(server: RunningServer) -> None:
        client = await Client.hello(server.url, "flood")
        session = _session(server, "flood")
        session.rate.tokens, session.rate.rate = 0.0, NEVER
        refusals = 0
        for round_ in range(4):
            await client.send(m.Ping(nonce=round_))
            await client.send(m.Ping(nonce=100 + round_))
            answers = await _answers(client, 1)
            refusals += answers == ["rate_limited"]
            session.rate.tokens = 1.0  # one request's worth: never the whole budget
            assert session.hold_reading(0.0)
            assert await _answers(client, 1) == ["pong"]
        assert refusals == 4 and session.strikes == 4  # a pass between does not forgive
        session.rate.tokens = 0.0
        for nonce in range(3):
            await client.send(m.Ping(nonce=200 + nonce))
        await _answers(client, 1)
        session.hold_reading(0.0)
        with contextlib.suppress(ConnectionError):
            await _answers(client, 2)
        assert client.ws.close_code == 1008

    run(test, rate_messages_per_second=30.0, rate_burst=60, rate_close_after=5)
