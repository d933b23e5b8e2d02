"""Running the client: the full-screen app and the network task in one event loop.

``run_session(url, model)`` is what ``spades play`` runs; ``run_local(...)`` is what
``spades`` with no arguments runs: it first starts an embedded server on a free loopback
port with an in-memory store, in the same process, and plays the bot there.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import importlib
from typing import Any, Protocol

from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from client.model import ClientModel
from client.net import Connection
from client.ui import build_application

__all__ = ["EmbeddedServer", "run_local", "run_session", "start_embedded_server"]


class EmbeddedServer(Protocol):
    """What ``server.app.start_server`` returns."""

    @property
    def url(self) -> str: ...

    async def close(self) -> None: ...


async def run_session(
    url: str,
    model: ClientModel,
    *,
    input: Input | None = None,
    output: Output | None = None,
) -> None:
    """Show the client for ``model`` connected to ``url`` until the player quits."""
    model.url = url
    app = build_application(model, input=input, output=output)
    connection = Connection(url, model, redraw=app.invalidate)
    reader = asyncio.create_task(connection.run())
    try:
        await app.run_async()
    finally:
        await connection.close()
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await reader


def _server_config(bot_delay: float | None, extra: dict[str, Any] | None = None) -> object:
    config_module = importlib.import_module("server.config")
    config_class = config_module.ServerConfig
    names = {f.name for f in dataclasses.fields(config_class)}
    values: dict[str, Any] = {"host": "127.0.0.1", "port": 0, "db": ":memory:"}
    if bot_delay is not None:
        for name in ("bot_delay", "bot_delay_seconds", "bot_think_delay"):
            if name in names:
                values[name] = bot_delay
                break
    for name in ("log_level", "quiet"):
        if name == "quiet" and name in names:
            values[name] = True
    values.update(extra or {})
    return config_class(**{k: v for k, v in values.items() if k in names})


async def start_embedded_server(bot_delay: float | None = None) -> EmbeddedServer:
    """Start the real server on a free loopback port with an in-memory store."""
    app_module = importlib.import_module("server.app")
    server: EmbeddedServer = await app_module.start_server(_server_config(bot_delay))
    return server


async def run_local(
    model: ClientModel,
    *,
    bot_delay: float | None = None,
    input: Input | None = None,
    output: Output | None = None,
) -> None:
    """Start an embedded server, play on it, stop it when the player quits."""
    server = await start_embedded_server(bot_delay)
    try:
        await run_session(server.url, model, input=input, output=output)
    finally:
        await server.close()
