"""The web client's static files over plain HTTP, and the websocket subprotocol choice.

The server's ``process_request`` calls :func:`respond` for every request that is not a
websocket upgrade; :func:`select_subprotocol` is given to ``websockets.serve``::

    response = respond(connection, request)   # a Response for a web file, or None
    chosen = select_subprotocol(connection, ["spades2.json"])   # "spades2.json" or None

The files are the ``client/web`` folder shipped inside the package. Only the files found
there when the server starts are served, by exact name (``/`` is ``index.html``): a path
that is not one of them (``..``, an encoded slash, a folder) is simply not found, so no
request can reach any other file. Answers carry the file's content type, an ``ETag`` (a
hash of the content) with ``Cache-Control: no-cache`` (the browser keeps a copy and asks
whether it is still current, so a new version of the package is picked up at once), and
headers that keep the page to its own origin (no script, style or connection elsewhere).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Final

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response
from websockets.typing import Subprotocol

from protocol.codec import JSON_SUBPROTOCOL

__all__ = ["WEB_FILES", "WebFile", "load_web_files", "respond", "select_subprotocol"]

_CONTENT_TYPES: Final = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".json": "application/json",
    ".txt": "text/plain; charset=utf-8",
}


@dataclass(frozen=True)
class WebFile:
    """One servable file: its bytes, content type and entity tag."""

    body: bytes
    content_type: str
    etag: str


def load_web_files() -> dict[str, WebFile]:
    """Every file of ``client/web`` with a known type, keyed by its URL path (``/app.js``).

    ``/`` maps to ``index.html``. Raises nothing when the folder is missing (no web client
    installed): the result is then empty.
    """
    files: dict[str, WebFile] = {}
    try:
        root = resources.files("client").joinpath("web")
    except ModuleNotFoundError:
        return files

    def walk(folder: resources.abc.Traversable, prefix: str) -> None:
        if not folder.is_dir():
            return
        for entry in folder.iterdir():
            if entry.name.startswith("."):
                continue
            if entry.is_dir():
                walk(entry, f"{prefix}{entry.name}/")
                continue
            suffix = "." + entry.name.rsplit(".", 1)[-1] if "." in entry.name else ""
            kind = _CONTENT_TYPES.get(suffix)
            if kind is None:
                continue
            body = entry.read_bytes()
            etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
            files[f"/{prefix}{entry.name}"] = WebFile(body, kind, etag)

    walk(root, "")
    if "/index.html" in files:
        files["/"] = files["/index.html"]
    return files


WEB_FILES: Final = load_web_files()


def _headers(file: WebFile, host: str) -> Headers:
    headers = Headers()
    headers["Content-Type"] = file.content_type
    headers["Cache-Control"] = "no-cache"
    headers["ETag"] = file.etag
    headers["X-Content-Type-Options"] = "nosniff"
    headers["Referrer-Policy"] = "no-referrer"
    headers["X-Frame-Options"] = "DENY"
    # 'self' for connect-src does not cover ws: in every browser, so the page's own
    # host is named for both schemes.
    sockets = f" ws://{host} wss://{host}" if _safe_host(host) else ""
    headers["Content-Security-Policy"] = (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        f"connect-src 'self'{sockets}; frame-ancestors 'none'; base-uri 'none'; "
        "form-action 'none'"
    )
    return headers


def _safe_host(host: str) -> bool:
    allowed = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
    return 0 < len(host) <= 255 and all(char in allowed for char in host)


def respond(
    connection: ServerConnection, request: Request, files: dict[str, WebFile] | None = None
) -> Response | None:
    """The HTTP answer for ``request`` if it asks for a web file, else ``None``.

    A matching ``If-None-Match`` gets ``304 Not Modified`` with no body. Raises nothing.
    """
    table = WEB_FILES if files is None else files
    path = request.path.split("?", 1)[0].split("#", 1)[0]
    file = table.get(path)
    if file is None:
        return None
    headers = _headers(file, request.headers.get("Host", ""))
    if file.etag in request.headers.get("If-None-Match", ""):
        return Response(304, "Not Modified", headers)
    headers["Content-Length"] = str(len(file.body))
    return Response(200, "OK", headers, file.body)


def select_subprotocol(
    connection: ServerConnection, offered: Sequence[Subprotocol]
) -> Subprotocol | None:
    """``spades2.json`` when the client offers it, else ``None`` (msgpack, the default).

    Other offered subprotocols are ignored rather than refused, so a client that offers
    nothing we know still speaks msgpack as before.
    """
    if JSON_SUBPROTOCOL in offered:
        return Subprotocol(JSON_SUBPROTOCOL)
    return None
