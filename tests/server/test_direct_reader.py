"""server.net.reader.DirectReader: websockets' frames handed over as whole messages, one
per connection per turn of the loop, without a coroutine per message."""

from __future__ import annotations

import asyncio
from collections import deque
from types import SimpleNamespace
from typing import Any

from websockets.frames import Frame, Opcode

from server.net.reader import DirectReader


class _Transport:
    def __init__(self) -> None:
        self.paused = 0
        self.resumed = 0

    def pause_reading(self) -> None:
        self.paused += 1

    def resume_reading(self) -> None:
        self.resumed += 1


def _binary(data: bytes, fin: bool = True) -> Frame:
    return Frame(Opcode.BINARY, data, fin=fin)


def _ws(frames: list[Frame]) -> Any:
    """A connection as websockets leaves it after the handshake (its queue of frames)."""
    queue = SimpleNamespace(queue=deque(frames))
    assembler = SimpleNamespace(frames=queue, get_in_progress=False, paused=False, closed=False)
    return SimpleNamespace(recv_messages=assembler, transport=_Transport())


def test_frames_queued_before_it_came_are_taken_over_and_a_burst_takes_turns() -> None:
    got: list[tuple[str, bytes | str]] = []

    async def test() -> None:
        burst = _ws([_binary(b"a0"), _binary(b"a1"), _binary(b"a2")])
        honest = _ws([])
        first = DirectReader.install(burst, lambda d: got.append(("a", d)), lambda c, r: None)
        second = DirectReader.install(honest, lambda d: got.append(("b", d)), lambda c, r: None)
        assert first is burst.recv_messages and second is honest.recv_messages
        assert second is not None
        second.put(_binary(b"b0"))
        for _ in range(5):
            await asyncio.sleep(0)

    asyncio.run(test())
    # the burst's first message at once, the rest one per turn: the other connection's
    # message is not behind all of them
    assert got == [("a", b"a0"), ("b", b"b0"), ("a", b"a1"), ("a", b"a2")]


def test_fragments_are_joined_and_text_is_decoded() -> None:
    got: list[bytes | str] = []

    async def test() -> None:
        reader = DirectReader.install(_ws([]), got.append, lambda c, r: None)
        assert reader is not None
        reader.put(Frame(Opcode.TEXT, "hé".encode()[:2], fin=False))
        reader.put(Frame(Opcode.CONT, "hé".encode()[2:], fin=True))
        await asyncio.sleep(0)
        reader.put(_binary(b"x", fin=False))
        reader.put(Frame(Opcode.CONT, b"y", fin=True))
        await asyncio.sleep(0)

    asyncio.run(test())
    assert got == ["hé", b"xy"]


def test_text_that_is_not_utf8_fails_the_connection_with_1007() -> None:
    failed: list[tuple[int, str]] = []
    got: list[bytes | str] = []

    async def test() -> None:
        reader = DirectReader.install(_ws([]), got.append, lambda c, r: failed.append((c, r)))
        assert reader is not None
        reader.put(Frame(Opcode.TEXT, b"\xff\xfe"))
        assert reader.closed

    asyncio.run(test())
    assert got == []
    assert failed == [(1007, "invalid UTF-8")]


def test_a_long_backlog_stops_reading_the_socket_until_it_is_worked_down() -> None:
    got: list[bytes | str] = []

    async def test() -> None:
        ws = _ws([])
        reader = DirectReader.install(ws, got.append, lambda c, r: None)
        assert reader is not None
        for n in range(20):
            reader.put(_binary(bytes([n])))
        assert ws.transport.paused == 1  # 19 waiting, past 16
        for _ in range(30):
            await asyncio.sleep(0)
        assert ws.transport.resumed == 1

    asyncio.run(test())
    assert got == [bytes([n]) for n in range(20)]


def test_an_error_in_the_handler_closes_and_a_closed_reader_lets_go() -> None:
    failed: list[tuple[int, str]] = []

    def broken(data: bytes | str) -> None:
        raise RuntimeError("boom")

    async def test() -> None:
        reader = DirectReader.install(_ws([]), broken, lambda c, r: failed.append((c, r)))
        assert reader is not None
        reader.put(_binary(b"x"))
        assert reader.closed
        try:
            reader.put(_binary(b"y"))
        except EOFError:
            pass
        else:
            raise AssertionError("a closed reader took a frame")

    asyncio.run(test())
    assert failed == [(1011, "internal error")]


def test_a_connection_without_the_usual_queue_keeps_awaiting_recv() -> None:
    async def test() -> None:
        assert DirectReader.install(SimpleNamespace(), print, print) is None  # type: ignore[arg-type]

    asyncio.run(test())


def test_a_connection_closed_before_the_reader_came_still_hands_over_its_first_frame() -> None:
    got: list[bytes | str] = []

    async def test() -> None:
        ws = _ws([_binary(b"hello")])
        ws.recv_messages.closed = True
        reader = DirectReader.install(ws, got.append, lambda c, r: None)
        assert reader is not None and reader.closed

    asyncio.run(test())
    assert got == [b"hello"]
