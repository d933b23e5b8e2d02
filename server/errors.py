"""The server package's root error.

try:
    running = await start_server(config)
except ServerError as error:      # e.g. StoreError: the store cannot be opened
    print(error)
"""

from __future__ import annotations

__all__ = ["ServerError", "StartupError"]


class ServerError(Exception):
    """Root of the errors the server package raises to its callers."""


class StartupError(ServerError):
    """The server cannot start as configured (say its TLS certificate cannot be loaded)."""
