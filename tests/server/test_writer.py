"""The writer's frames are what the websockets library would have written: the same
bytes for binary and text frames of every length class, and a client reads them."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve
from websockets.frames import OP_BINARY, OP_TEXT, Frame
from websockets.server import ServerProtocol

from server.net.writer import frame_header, write_frames


class _Transport:
    def __init__(self) -> None:
        self.written = b""

    def write(self, data: bytes) -> None:
        self.written += data

    def writelines(self, chunks: list[bytes]) -> None:
        self.written += b"".join(chunks)


class _Socket:
    def __init__(self) -> None:
        self.protocol = ServerProtocol()
        self.protocol.state = self.protocol.state.OPEN
        self.transport = _Transport()


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
@pytest.mark.parametrize("text", [False, True])
def test_frames_are_the_bytes_the_library_would_write(size: int, text: bool) -> None:
    payload = b"a" * size
    expected = Frame(OP_TEXT if text else OP_BINARY, payload).serialize(mask=False, extensions=[])
    socket = _Socket()
    write_frames(socket, [payload, b"bc"], text, 1)  # type: ignore[arg-type]
    tail = Frame(OP_TEXT if text else OP_BINARY, b"bc").serialize(mask=False, extensions=[])
    assert socket.transport.written == expected + tail
    assert frame_header(0x81 if text else 0x82, size) == expected[: len(expected) - size]


def test_a_queued_pong_goes_first_and_a_closing_socket_gets_nothing() -> None:
    socket = _Socket()
    socket.protocol.send_pong(b"p")
    pong = socket.protocol.writes[0]
    write_frames(socket, [b"x"], False, 1)  # type: ignore[arg-type]
    assert socket.transport.written.startswith(pong)
    closing = _Socket()
    closing.protocol.state = closing.protocol.state.CLOSING
    write_frames(closing, [b"x"], False, 1)  # type: ignore[arg-type]
    assert closing.transport.written == b""


def test_a_real_client_reads_what_the_writer_writes() -> None:
    messages: list[Any] = [b"\x81\xa4type", b"z" * 70_000, '{"type":"pong"}']

    async def handler(ws: ServerConnection) -> None:
        write_frames(ws, [messages[0], messages[1]], False, 1)
        write_frames(ws, [messages[2].encode()], True, 1)
        await ws.wait_closed()

    async def main() -> list[Any]:
        async with serve(handler, "127.0.0.1", 0, compression=None) as server:
            port = server.sockets[0].getsockname()[1]
            async with connect(f"ws://127.0.0.1:{port}", compression=None) as client:
                return [await client.recv() for _ in range(3)]

    assert asyncio.run(main()) == messages
