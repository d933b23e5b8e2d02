"""The one writer to a socket: a session's queued frames, in one system call.

    write_frames(ws, [frame, ...], text=False, conn_id=7)

Called only after the store committed what the frames tell (see
:mod:`server.lobby.turn`). Never waits for a slow reader: the frames go to the
transport's buffer, and a connection that lets too much pile up there is dropped by
:mod:`server.net.guard` and :class:`server.gateway.session.Session`.

A server's data frame is a two-to-ten-byte header and the payload as it is (RFC 6455
5.2: no mask from a server; no extension is negotiated, as the server turns compression
off), so the headers are written here: going through the library's frame objects cost
about half the time of a turn's writes, not counting the system call. A connection
that did negotiate an extension goes through the library.
"""

from __future__ import annotations

import logging

from websockets.asyncio.server import ServerConnection
from websockets.protocol import State

__all__ = ["frame_header", "write_frames"]

log = logging.getLogger("server")

_FIN_TEXT = 0x81  # FIN and opcode 1
_FIN_BINARY = 0x82  # FIN and opcode 2


def frame_header(first: int, size: int) -> bytes:
    """The header of an unmasked frame whose first byte is ``first`` (FIN and opcode)
    and whose payload is ``size`` bytes long."""
    if size < 126:
        return bytes((first, size))
    if size < 1 << 16:
        return bytes((first, 126)) + size.to_bytes(2, "big")
    return bytes((first, 127)) + size.to_bytes(8, "big")


def write_frames(ws: ServerConnection, frames: list[bytes], text: bool, conn_id: int) -> None:
    """Write ``frames`` (text frames when ``text``) to ``ws`` if it is open; a connection
    that broke under us is left to its reader, which ends it."""
    protocol = ws.protocol
    if protocol.state is not State.OPEN:
        return
    try:
        if protocol.extensions:
            send = protocol.send_text if text else protocol.send_binary
            for data in frames:
                send(data)
            ws.transport.writelines([chunk for chunk in protocol.data_to_send() if chunk])
            return
        # anything the library queued first (a pong) keeps its place ahead of ours
        out = [chunk for chunk in protocol.data_to_send() if chunk]
        first = _FIN_TEXT if text else _FIN_BINARY
        for data in frames:
            out.append(frame_header(first, len(data)))
            out.append(data)
        ws.transport.write(b"".join(out))
    except Exception:
        log.debug("connection %d: write failed", conn_id, exc_info=True)
