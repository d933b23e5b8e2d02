"""The server package's root error, and the refusal of one request.

    ServerError                 root of what the server raises to its callers
    ├── StartupError            cannot start as configured (server.errors)
    ├── RequestError            one request refused, nothing changed (becomes ``error``)
    ├── StoreError              the store (server.store.base); FencedError below it
    ├── LimitError              an address at one of its limits (server.limits)
    ├── AdminError              an admin command that cannot be done (server.ops.moderation)
    ├── PresenceError           Redis cannot be reached (server.cluster.presence)
    └── BackupError             a backup or restore failed (server.store.sqlite_backup)

try:
    running = await start_server(config)
except ServerError as error:      # e.g. StoreError: the store cannot be opened
    print(error)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from protocol.messages import ErrorCode

__all__ = ["RequestError", "ServerError", "StartupError"]


class ServerError(Exception):
    """Root of the errors the server package raises to its callers."""


class StartupError(ServerError):
    """The server cannot start as configured (say its TLS certificate cannot be loaded)."""


class RequestError(ServerError):
    """A refused request: ``code`` and ``message`` become an ``error`` message; raised
    before anything changed."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
