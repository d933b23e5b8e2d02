"""The server serves the web client's files: types, caching, and nothing else."""

from __future__ import annotations

import asyncio
import http.client
import re
import subprocess
import sys
from pathlib import Path

from server import RunningServer
from server.web import WEB_FILES
from tests.server.helpers import run

# anything that would make the browser fetch from another origin (or any absolute URL)
FETCH_ELSEWHERE = re.compile(
    r"""(src|href|action)\s*=\s*["']?(https?:)?//|url\(\s*["']?(https?:)?//"""
    r"""|from\s+["'](https?:)?//|import\(\s*["'](https?:)?//|@import|fetch\(\s*["'](https?:)?//""",
    re.IGNORECASE,
)


def get(
    port: int, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """A raw GET (http.client leaves the path exactly as written: no normalising)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def test_get_root_is_the_web_client() -> None:
    async def test(server: RunningServer) -> None:
        status, headers, body = await asyncio.to_thread(get, server.port, "/")
        assert status == 200
        assert headers["Content-Type"] == "text/html; charset=utf-8"
        assert b"<!doctype html>" in body.lower() and b'type="module"' in body
        assert headers["Cache-Control"] == "no-cache"
        assert headers["X-Content-Type-Options"] == "nosniff"
        policy = headers["Content-Security-Policy"]
        assert "default-src 'self'" in policy
        # websockets may go to another node of a cluster (a redirect names its URL)
        assert "connect-src 'self' ws: wss:" in policy
        # the ETag lets the browser revalidate instead of downloading again
        status, _, body = await asyncio.to_thread(
            get, server.port, "/", {"If-None-Match": headers["ETag"]}
        )
        assert status == 304 and body == b""

    run(test)


def test_every_web_file_is_served_with_its_type() -> None:
    expected = {
        ".html": "text/html",
        ".js": "text/javascript",
        ".css": "text/css",
        ".json": "application/json",
        ".svg": "image/svg+xml",
        ".webmanifest": "application/manifest+json",
    }
    assert {"/", "/index.html", "/app.js", "/app.css"} <= set(WEB_FILES)

    async def test(server: RunningServer) -> None:
        for path, file in WEB_FILES.items():
            status, headers, body = await asyncio.to_thread(get, server.port, path)
            assert status == 200, path
            assert body == file.body
            suffix = "." + (path.rsplit(".", 1)[-1] if "." in path else "html")
            assert headers["Content-Type"].startswith(expected[suffix]), path

    run(test)


def test_no_path_reaches_another_file() -> None:
    bad = [
        "/../pyproject.toml",
        "/..%2fpyproject.toml",
        "/%2e%2e/%2e%2e/server/app.py",
        "//etc/passwd",
        "/web/index.html",
        "/index.html/",
        "/./index.html",
        "/app.js%00.html",
        "/__init__.py",
        "/../client/__init__.py",
        "/nope.html",
    ]

    async def test(server: RunningServer) -> None:
        for path in bad:
            status, _, body = await asyncio.to_thread(get, server.port, path)
            assert status == 404, path
            assert b"websocket" in body

    run(test)


def test_first_load_is_under_150_kb() -> None:
    # everything the page can load is these files, and one catalogue of client/web/locale
    # (none for English); no file comes from anywhere else; together they travel (gzip) in
    # less than the first load's budget
    def size(file: object) -> int:
        return len(file.gzipped or file.body)  # type: ignore[attr-defined]

    catalogues = [size(file) for path, file in WEB_FILES.items() if path.startswith("/locale/")]
    total = sum(size(f) for p, f in WEB_FILES.items() if p != "/" and not p.startswith("/locale/"))
    total += max(catalogues, default=0)
    assert total < 150 * 1024, total
    for path, file in WEB_FILES.items():
        if path.endswith((".html", ".js", ".css")):
            text = file.body.decode()
            assert not FETCH_ELSEWHERE.search(text), path


def test_spades_serve_prints_the_address_to_open_in_a_browser() -> None:
    root = Path(__file__).resolve().parents[2]
    process = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", "0", "--db", ":memory:",
         "--log-level", "WARNING"],
        cwd=root,
        stdout=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        second = process.stdout.readline()
        assert first.startswith("spades server listening on ws://127.0.0.1:"), first
        assert second.startswith("play in a browser: http://127.0.0.1:"), second
        address = second.split()[4]
        port = int(address.rsplit(":", 1)[1].rstrip("/"))
        assert address == f"http://127.0.0.1:{port}/"
        status, _, body = get(port, "/")
        assert status == 200 and b"Spades" in body
    finally:
        process.terminate()
        process.wait(10)
        if process.stdout is not None:
            process.stdout.close()
