"""The one writer to a socket: a session's queued frames, in one system call.

    write_frames(ws, [frame, ...], text=False, conn_id=7)

Called only after the store committed what the frames tell (see
:mod:`server.lobby.turn`). Never waits for a slow reader: the frames go to the
transport's buffer, and a connection that lets too much pile up there is dropped by
:mod:`server.net.guard` and :class:`server.gateway.session.Session`.
"""

from __future__ import annotations

import logging

from websockets.asyncio.server import ServerConnection
from websockets.protocol import State

__all__ = ["write_frames"]

log = logging.getLogger("server")


def write_frames(ws: ServerConnection, frames: list[bytes], text: bool, conn_id: int) -> None:
    """Write ``frames`` (text frames when ``text``) to ``ws`` if it is open; a connection
    that broke under us is left to its reader, which ends it."""
    protocol = ws.protocol
    if protocol.state is not State.OPEN:
        return
    try:
        send = protocol.send_text if text else protocol.send_binary
        for data in frames:
            send(data)
        chunks = [chunk for chunk in protocol.data_to_send() if chunk]
        ws.transport.writelines(chunks)
    except Exception:
        log.debug("connection %d: write failed", conn_id, exc_info=True)
