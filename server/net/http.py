"""Plain HTTP on the game's port: ``/healthz``, the web client's files, and the answers
to anything that is not a websocket upgrade of ``/``.

    process_request = http_responder(health)      # given to websockets.serve
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from server.net.web import respond as web_respond

__all__ = ["http_responder"]

Responder = Callable[[ServerConnection, Request], Response | None]


def http_responder(health: Callable[[], dict[str, Any]]) -> Responder:
    """``process_request`` for ``websockets.serve``: ``health()`` is the ``/healthz`` body."""

    def process_request(connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        upgrade = request.headers.get("Upgrade", "").lower() == "websocket"
        if path == "/healthz":
            response = connection.respond(200, json.dumps(health()) + "\n")
            del response.headers["Content-Type"]
            response.headers["Content-Type"] = "application/json"
            return response
        if not upgrade:
            page = web_respond(connection, request)  # the web client's files
            if page is not None:
                return page
        if path != "/":
            return connection.respond(
                404,
                "Not found. This is a spades websocket server: "
                "connect to / with a websocket client.\n",
            )
        if not upgrade:
            response = connection.respond(
                426,
                "Upgrade required. This is a spades websocket server: use a websocket client.\n",
            )
            response.headers["Upgrade"] = "websocket"
            return response
        return None

    return process_request
