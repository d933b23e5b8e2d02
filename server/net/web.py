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
headers that keep the page to its own origin (no script or style elsewhere; websockets
to any host, because a table may live on another node of a cluster).

A browser that accepts gzip (``Accept-Encoding``) gets the gzip form of a file, made once
when the files are loaded (only where it is smaller), with ``Content-Encoding: gzip``,
``Vary: Accept-Encoding`` and an entity tag of its own.
"""

from __future__ import annotations

import gzip
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

__all__ = [
    "WEB_FILES",
    "WebFile",
    "accepts_gzip",
    "load_web_files",
    "respond",
    "select_subprotocol",
]

_CONTENT_TYPES: Final = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".json": "application/json",
    ".txt": "text/plain; charset=utf-8",
    ".webmanifest": "application/manifest+json",
}


@dataclass(frozen=True)
class WebFile:
    """One servable file: its bytes, content type and entity tag, and its gzip form
    (``None`` where gzip would not make it smaller)."""

    body: bytes
    content_type: str
    etag: str
    gzipped: bytes | None = None

    @property
    def gzip_etag(self) -> str:
        """The entity tag of the gzip form (another representation, another tag)."""
        return self.etag[:-1] + '-gz"'


def _gzip(body: bytes) -> bytes | None:
    # mtime 0: the same file gives the same bytes on every start
    packed = gzip.compress(body, compresslevel=9, mtime=0)
    return packed if len(packed) < len(body) else None


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
            files[f"/{prefix}{entry.name}"] = WebFile(body, kind, etag, _gzip(body))

    walk(root, "")
    if "/index.html" in files:
        files["/"] = files["/index.html"]
    return files


WEB_FILES: Final = load_web_files()


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` value takes gzip (``gzip`` or ``*``, not ``q=0``)."""
    for item in accept_encoding.split(","):
        coding, _, params = item.strip().partition(";")
        if coding.strip().lower() not in ("gzip", "*"):
            continue
        quality = params.strip().lower().replace(" ", "")
        if quality.startswith("q="):
            try:
                return float(quality[2:]) > 0
            except ValueError:
                return False
        return True
    return False


def _headers(file: WebFile, etag: str) -> Headers:
    headers = Headers()
    headers["Content-Type"] = file.content_type
    headers["Cache-Control"] = "no-cache"
    headers["ETag"] = etag
    headers["Vary"] = "Accept-Encoding"
    headers["X-Content-Type-Options"] = "nosniff"
    headers["Referrer-Policy"] = "no-referrer"
    headers["X-Frame-Options"] = "DENY"
    # 'self' for connect-src does not cover ws: in every browser; and a table may live on
    # another node of a cluster (a redirect names its ws:// URL), so websockets may go to
    # any host. Scripts stay our own, so only our code chooses where it connects.
    headers["Content-Security-Policy"] = (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self' ws: wss:; worker-src 'self'; manifest-src 'self'; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    )
    return headers


def respond(
    connection: ServerConnection, request: Request, files: dict[str, WebFile] | None = None
) -> Response | None:
    """The HTTP answer for ``request`` if it asks for a web file, else ``None``.

    The gzip form goes to a browser that accepts it. A matching ``If-None-Match`` gets
    ``304 Not Modified`` with no body. Raises nothing.
    """
    table = WEB_FILES if files is None else files
    path = request.path.split("?", 1)[0].split("#", 1)[0]
    file = table.get(path)
    if file is None:
        return None
    packed = file.gzipped is not None and accepts_gzip(request.headers.get("Accept-Encoding", ""))
    etag = file.gzip_etag if packed else file.etag
    headers = _headers(file, etag)
    if etag in request.headers.get("If-None-Match", ""):
        return Response(304, "Not Modified", headers)
    body = file.body
    if packed and file.gzipped is not None:
        body = file.gzipped
        headers["Content-Encoding"] = "gzip"
    headers["Content-Length"] = str(len(body))
    return Response(200, "OK", headers, body)


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
