"""The host's endpoints beside the game's port: the metrics page and the admin socket.

    endpoints = await OpsEndpoints.start(config, metrics, admin_port)
    endpoints.metrics_url, endpoints.admin_path     # None when not served
    await endpoints.close()

An admin socket asked for by name (``--admin-socket``) must open; at its default place
(beside the store) a failure is logged and play goes on without moderation. A folder
that holds the admin socket or the moderation files and that another user could write
to stops the start with :class:`~server.errors.StartupError` (see
:func:`server.ops.admin.folder_problem`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os

from websockets.asyncio.server import Server

from server.config import ServerConfig
from server.errors import ServerError, StartupError
from server.ops.admin import AdminPort, admin_socket_path, folder_problem, serve_admin
from server.ops.metrics import Metrics, serve_metrics
from server.ops.moderation import moderation_path

__all__ = ["OpsEndpoints"]

log = logging.getLogger("server")


class OpsEndpoints:
    """The metrics server and the admin socket of one server (either may be absent)."""

    def __init__(self) -> None:
        self.metrics_server: Server | None = None
        self.metrics_url: str | None = None  # http://127.0.0.1:PORT/metrics when served
        self.admin_server: asyncio.Server | None = None
        self.admin_path: str | None = None

    async def open(self, config: ServerConfig, metrics: Metrics, port: AdminPort) -> None:
        """Open what ``config`` asks for; raises what cannot be opened (see the module)."""
        if config.metrics_port is not None:
            self.metrics_server = await serve_metrics(
                metrics, config.metrics_host, config.metrics_port
            )
            bound = next(iter(self.metrics_server.sockets)).getsockname()
            shown = f"[{bound[0]}]" if ":" in str(bound[0]) else str(bound[0])
            self.metrics_url = f"http://{shown}:{bound[1]}/metrics"
            log.info("metrics on %s", self.metrics_url)
        path = admin_socket_path(config)
        _check_folders(path, moderation_path(config))
        if path is None:
            return
        try:
            self.admin_server = await serve_admin(port, path)
            self.admin_path = path
        except ServerError as error:
            if config.admin_socket is not None:  # asked for by name: it must work
                raise
            # the default place: play goes on without moderation, and the log says why
            log.warning("no admin socket (spades admin will not reach this server): %s", error)

    async def close(self) -> None:
        if self.metrics_server is not None:
            self.metrics_server.close()
            await self.metrics_server.wait_closed()
        if self.admin_server is not None:
            self.admin_server.close()
            await self.admin_server.wait_closed()
            with contextlib.suppress(OSError):
                os.unlink(self.admin_path or "")


def _check_folders(*paths: str | None) -> None:
    """Raise :class:`StartupError` when another user could write where ``paths`` go."""
    for path in paths:
        if path is None:
            continue
        problem = folder_problem(os.path.dirname(os.path.abspath(path)))
        if problem is not None:
            raise StartupError(
                f"will not keep the admin socket and moderation files at {path}: {problem}"
            )
