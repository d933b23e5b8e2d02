"""Running the client: the full-screen app and the network task in one event loop.

``run_session(url, model)`` is what ``spades play`` runs; ``run_local(...)`` is what
``spades`` with no arguments runs: it first starts an embedded server on a free loopback
port with an in-memory store, in the same process, and plays the bot there.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import ssl as ssl_module
from collections.abc import Callable

from prompt_toolkit.input import Input
from prompt_toolkit.output import Output

from client.model import ClientModel
from client.net import Connection
from client.ui import build_application
from server.app import RunningServer, start_server
from server.config import ServerConfig

__all__ = ["run_local", "run_session", "start_embedded_server"]


async def run_session(
    url: str,
    model: ClientModel,
    *,
    input: Input | None = None,
    output: Output | None = None,
    ssl: ssl_module.SSLContext | None = None,
) -> None:
    """Show the client for ``model`` connected to ``url`` until the player quits
    (``ssl``: the TLS context for a ``wss://`` address, see :func:`client.net.ssl_context`)."""
    model.address(url, local=model.local)
    app = build_application(model, input=input, output=output)
    connection = Connection(url, model, redraw=app.invalidate, ssl=ssl)
    loop = asyncio.get_running_loop()

    def later(delay: float, callback: Callable[[], None]) -> None:
        def fire() -> None:
            callback()
            app.invalidate()

        loop.call_later(delay, fire)

    model.attach(schedule=later)
    reader = asyncio.create_task(connection.run())
    try:
        await app.run_async()
    finally:
        await connection.close()
        reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await reader


async def start_embedded_server(bot_delay: float | None = None) -> RunningServer:
    """Start the real server on a free loopback port with an in-memory store; the bot
    thinks in a thread of this process."""
    config = ServerConfig(host="127.0.0.1", port=0, db_path=":memory:", bot_workers=0)
    if bot_delay is not None:
        config = dataclasses.replace(config, bot_delay=bot_delay)
    return await start_server(config)


async def run_local(
    model: ClientModel,
    *,
    bot_delay: float | None = None,
    input: Input | None = None,
    output: Output | None = None,
) -> None:
    """Start an embedded server, play on it, stop it when the player quits."""
    server = await start_embedded_server(bot_delay)
    model.address(server.url, local=True)
    try:
        await run_session(server.url, model, input=input, output=output)
    finally:
        await server.close()
