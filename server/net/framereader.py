"""The common case of a client's frames read without websockets' parser (its twin:
:mod:`server.net.writer`).

    used = read_whole_frames(ws, data)   # data: the bytes the socket just gave
    if used < len(data):
        ...feed data[used:] to websockets as before

A client's requests are whole, masked, final text or binary frames, one or a few per
read. websockets parses each through a generator and a ``Frame`` object before
:class:`~server.net.reader.DirectReader` gets it: some 18 us of a turn's 230 in the
load benchmark. Here such frames, from the start of ``data`` on, are unmasked and handed
to the connection's reader directly (``DirectReader.whole``), which delivers them just
as it does the frames websockets gives it (the per-connection turns, backlog, holds
and the gateway's per-message budgets all apply as before).

Only when websockets would do exactly that with the frame: the connection is open,
without extensions, no fragmented message in progress, websockets holds no partial
frame (its parser waits at a frame's boundary), and the frame is final, opcode 1 or 2,
reserved bits clear, masked, no longer than the connection's ``max_size`` and wholly in
``data``. The first frame that is anything else (a control frame, a fragment, an
unmasked or oversized frame, a partial one) ends the fast path for this read: it and
every byte after it go to websockets' parser in order, so websockets answers it exactly
as before (pong, close 1002, 1009, ...). No byte is read by both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.protocol import OPEN, Protocol
from websockets.streams import StreamReader

from server.net.reader import DirectReader

__all__ = ["read_whole_frames", "unmask"]


def _unmask_python(data: bytes | memoryview, mask: bytes | memoryview) -> bytes:
    """``data`` XOR ``mask`` repeated (websockets' pure-Python way: one big integer)."""
    size = len(data)
    key = bytes(mask)
    repeated = key * (size // 4) + key[: size % 4]
    return (int.from_bytes(data, "big") ^ int.from_bytes(repeated, "big")).to_bytes(size, "big")


def _speedups() -> Callable[[Any, Any], bytes] | None:
    try:
        from websockets.speedups import apply_mask
    except ImportError:  # built without its C extension
        return None
    return apply_mask


unmask: Callable[[Any, Any], bytes] = _speedups() or _unmask_python
"""``unmask(payload, key)``: the payload of a masked frame, unmasked (websockets' C
``apply_mask`` when it is built, else :func:`_unmask_python`)."""

_FIN_TEXT = 0x81  # FIN, no reserved bits, opcode 1
_FIN_BINARY = 0x82  # FIN, no reserved bits, opcode 2
_AT_EOF = StreamReader.at_eof.__code__
_PARSE = Protocol.parse.__code__


def _parser_idle(parser: Any) -> bool:
    """Whether websockets' frame parser waits for the first byte of a frame (not in
    the middle of one whose header it read already)."""
    outer = None
    inner = parser
    while True:
        below = getattr(inner, "gi_yieldfrom", None)
        if below is None:
            break
        outer, inner = inner, below
    return (
        outer is not None
        and getattr(inner, "gi_code", None) is _AT_EOF
        and getattr(outer, "gi_code", None) is _PARSE
    )


def read_whole_frames(ws: ServerConnection, data: bytes) -> int:
    """Hand the whole common data frames at the start of ``data`` to ``ws``'s reader
    (see the module); returns how many bytes of ``data`` they were (``0``: none, all
    of ``data`` is websockets'). Never raises."""
    reader = getattr(ws, "recv_messages", None)
    protocol = ws.protocol
    # websockets' internals read with defaults that mean "not the common case": a
    # version without them sends every byte through its own parser, as before
    if (
        type(reader) is not DirectReader
        or reader.closed
        or reader.fragmenting
        or protocol.state is not OPEN
        or protocol.extensions
        or getattr(protocol, "cur_size", 0) is not None
        or getattr(getattr(protocol, "reader", None), "buffer", True)
        or not _parser_idle(getattr(protocol, "parser", None))
    ):
        return 0
    limit = protocol.max_size
    view = memoryview(data)
    end = len(data)
    used = 0
    while used + 6 <= end:  # the shortest masked frame: 2 bytes, the key, no payload
        first = data[used]
        second = data[used + 1]
        if (first != _FIN_TEXT and first != _FIN_BINARY) or second < 0x80:
            break  # not ours (or not masked): websockets says what it is
        size = second & 0x7F
        key = used + 2
        if size == 126:
            key += 2
            if key > end:
                break
            size = int.from_bytes(view[used + 2 : key], "big")
        elif size == 127:
            key += 8
            if key > end:
                break
            size = int.from_bytes(view[used + 2 : key], "big")
        if limit is not None and size > limit:
            break  # websockets refuses it (1009)
        start = key + 4
        stop = start + size
        if stop > end:
            break  # partial: websockets keeps the rest until it is whole
        payload = unmask(view[start:stop], view[key:start])
        used = stop
        reader.whole(payload, first == _FIN_TEXT)
        if reader.closed or protocol.state is not OPEN:
            break  # the reader failed it or the handler closed it: websockets goes on
    return used
