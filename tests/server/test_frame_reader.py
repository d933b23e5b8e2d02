"""server.net.framereader: whole masked data frames read without websockets' parser, and
everything else left to websockets with the same outcome as before.

Each case sends fixed bytes over a raw socket to a real server twice, the common-case
reader on and off, and compares what comes back (data messages in order, control
frames, the close code): they must be the same, and the common case must have been
taken where the bytes allow it."""

from __future__ import annotations

import asyncio
import base64
from typing import Any

import pytest

from protocol import messages as m
from protocol.codec import JSON_SUBPROTOCOL, decode_server, decode_server_json, encode, encode_json
from server.net import framereader, guard
from server.net.framereader import _unmask_python, unmask
from tests.server.helpers import RunningServer, run

_KEY = b"\x12\x34\x56\x78"


def _frame(
    payload: bytes,
    opcode: int = 2,
    fin: bool = True,
    masked: bool = True,
    rsv: int = 0,
    claimed: int | None = None,
) -> bytes:
    """A client frame; ``claimed``: the length its header says (else the payload's)."""
    size = len(payload) if claimed is None else claimed
    head = bytes([(0x80 if fin else 0) | rsv << 4 | opcode])
    bit = 0x80 if masked else 0
    if size < 126:
        head += bytes([bit | size])
    elif size < 1 << 16:
        head += bytes([bit | 126]) + size.to_bytes(2, "big")
    else:
        head += bytes([bit | 127]) + size.to_bytes(8, "big")
    if not masked:
        return head + payload
    return head + _KEY + bytes(b ^ _KEY[i % 4] for i, b in enumerate(payload))


HELLO = encode(m.Hello(protocol_version=1, name="raw"))


def _ping(nonce: int) -> bytes:
    return encode(m.Ping(nonce=nonce))


class _Counted:
    """The common-case reader, counting the bytes it took."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.taken = 0

    def __call__(self, ws: Any, data: bytes) -> int:
        if not self.enabled:
            return 0
        used = framereader.read_whole_frames(ws, data)
        self.taken += used
        return used


async def _open(port: int, json: bool) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(b"0123456789abcdef").decode()
    extra = f"Sec-WebSocket-Protocol: {JSON_SUBPROTOCOL}\r\n" if json else ""
    writer.write(
        (
            f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            f"Sec-WebSocket-Version: 13\r\n{extra}\r\n"
        ).encode()
    )
    answer = await reader.readuntil(b"\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 101")
    return reader, writer


async def _server_frame(reader: asyncio.StreamReader) -> tuple[int, bytes] | None:
    try:
        head = await reader.readexactly(2)
        size = head[1] & 0x7F
        if size == 126:
            size = int.from_bytes(await reader.readexactly(2), "big")
        elif size == 127:
            size = int.from_bytes(await reader.readexactly(8), "big")
        return head[0] & 0x0F, await reader.readexactly(size)
    except (asyncio.IncompleteReadError, ConnectionError):
        return None


def _described(opcode: int, payload: bytes, json: bool) -> str:
    if opcode == 8:
        return f"close {int.from_bytes(payload[:2], 'big')}"
    if opcode in (9, 10):
        return f"control {opcode} {payload!r}"
    message: Any = (
        decode_server_json(payload.decode()) if opcode == 1 and json else decode_server(payload)
    )
    detail = getattr(message, "nonce", None) or getattr(message, "code", "")
    return f"{'text' if opcode == 1 else 'binary'} {message.type} {detail}".rstrip()


def _outcome(
    monkeypatch: pytest.MonkeyPatch, chunks: list[bytes], enabled: bool, json: bool = False
) -> tuple[list[str], int]:
    """What the server answers ``chunks`` (written one by one, each read on its own),
    then a ping message (nonce 999) that ends the exchange unless it closed first."""
    counted = _Counted(enabled)
    monkeypatch.setattr(guard, "read_whole_frames", counted)
    seen: list[str] = []
    last = encode_json(m.Ping(nonce=999)).encode() if json else _ping(999)

    async def test(server: RunningServer) -> None:
        reader, writer = await _open(server.port, json)
        for chunk in [*chunks, _frame(last, opcode=1 if json else 2)]:
            writer.write(chunk)
            await writer.drain()
            await asyncio.sleep(0.05)  # its own read on the server's side
        while True:
            frame = await _server_frame(reader)
            if frame is None:
                break
            seen.append(_described(*frame, json))
            if frame[0] == 8 or seen[-1].endswith("pong 999"):
                break
        writer.close()

    run(test)
    return seen, counted.taken


def _both(
    monkeypatch: pytest.MonkeyPatch, chunks: list[bytes], json: bool = False
) -> tuple[list[str], int]:
    fast, taken = _outcome(monkeypatch, chunks, True, json)
    slow, none = _outcome(monkeypatch, chunks, False, json)
    assert none == 0
    # data messages in the same order; a pong frame may come before or after a message
    # answered in the same read (both are allowed), so control frames are compared apart
    assert [s for s in fast if not s.startswith("control")] == [
        s for s in slow if not s.startswith("control")
    ]
    assert sorted(fast) == sorted(slow)
    return fast, taken


def test_unmask_matches_the_xor_of_the_key_repeated() -> None:
    for size in range(0, 70):
        data = bytes((i * 37 + 11) % 256 for i in range(size))
        expected = bytes(b ^ _KEY[i % 4] for i, b in enumerate(data))
        assert unmask(data, _KEY) == expected
        assert _unmask_python(data, _KEY) == expected


def test_one_frame_a_read_takes_the_common_case(monkeypatch: pytest.MonkeyPatch) -> None:
    seen, taken = _both(monkeypatch, [_frame(HELLO), _frame(_ping(1))])
    assert seen == ["binary welcome", "binary pong 1", "binary pong 999"]
    assert taken == len(_frame(HELLO)) + len(_frame(_ping(1))) + len(_frame(_ping(999)))


def test_two_frames_in_one_read_are_both_delivered_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    both = _frame(HELLO) + _frame(_ping(2))
    seen, taken = _both(monkeypatch, [both])
    assert seen == ["binary welcome", "binary pong 2", "binary pong 999"]
    assert taken == len(both) + len(_frame(_ping(999)))


def test_a_frame_split_across_reads_is_left_to_websockets_until_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    hello = _frame(HELLO)
    ping = _frame(_ping(3))
    # the first read: a whole hello and the ping's first 3 bytes; then the rest
    seen, taken = _both(monkeypatch, [hello + ping[:3], ping[3:]])
    assert seen == ["binary welcome", "binary pong 3", "binary pong 999"]
    assert taken == len(hello) + len(_frame(_ping(999)))  # the split ping: websockets'


def test_a_ping_frame_between_data_frames_is_answered_and_order_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    chunk = _frame(HELLO) + _frame(b"hi", opcode=9) + _frame(_ping(4))
    seen, taken = _both(monkeypatch, [chunk])
    assert [s for s in seen if not s.startswith("control")] == [
        "binary welcome",
        "binary pong 4",
        "binary pong 999",
    ]
    assert "control 10 b'hi'" in seen
    assert taken == len(_frame(HELLO)) + len(_frame(_ping(999)))


def test_a_fragmented_message_goes_through_websockets(monkeypatch: pytest.MonkeyPatch) -> None:
    first = _frame(HELLO[:5], fin=False)
    rest = _frame(HELLO[5:], opcode=0)
    seen, taken = _both(monkeypatch, [first + rest, _frame(_ping(5))])
    assert seen == ["binary welcome", "binary pong 5", "binary pong 999"]
    assert taken == len(_frame(_ping(5))) + len(_frame(_ping(999)))


def test_a_frame_longer_than_the_limit_closes_with_1009(monkeypatch: pytest.MonkeyPatch) -> None:
    too_long = _frame(b"", claimed=1 << 20)  # only the header: the length is enough
    seen, taken = _both(monkeypatch, [_frame(HELLO), too_long])
    assert seen == ["binary welcome", "close 1009"]
    assert taken == len(_frame(HELLO))


def test_an_unmasked_frame_closes_with_1002(monkeypatch: pytest.MonkeyPatch) -> None:
    seen, taken = _both(monkeypatch, [_frame(HELLO), _frame(_ping(6), masked=False)])
    assert seen == ["binary welcome", "close 1002"]
    assert taken == len(_frame(HELLO))


def test_a_reserved_bit_closes_with_1002(monkeypatch: pytest.MonkeyPatch) -> None:
    seen, _ = _both(monkeypatch, [_frame(HELLO) + _frame(_ping(7), rsv=4)])
    # in the same read as the hello: the close goes out before the hello's answer would
    assert seen == ["close 1002"]


def test_text_frames_on_a_json_connection_are_text(monkeypatch: pytest.MonkeyPatch) -> None:
    hello = encode_json(m.Hello(protocol_version=1, name="raw")).encode()
    ping = encode_json(m.Ping(nonce=8)).encode()
    seen, taken = _both(monkeypatch, [_frame(hello, opcode=1) + _frame(ping, opcode=1)], json=True)
    assert seen == ["text welcome", "text pong 8", "text pong 999"]
    assert taken > len(_frame(hello, opcode=1))


def test_text_that_is_not_utf8_closes_with_1007(monkeypatch: pytest.MonkeyPatch) -> None:
    hello = encode_json(m.Hello(protocol_version=1, name="raw")).encode()
    chunks = [_frame(hello, opcode=1), _frame(b"\xff\xfe", opcode=1)]
    seen, _ = _both(monkeypatch, chunks, json=True)
    assert seen == ["text welcome", "close 1007"]
