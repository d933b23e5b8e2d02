"""The web files go gzip-compressed to a browser that accepts it, and the first load
(every file a browser fetches before anyone plays, artwork included) stays within 150 KB
as it travels (issue 29)."""

from __future__ import annotations

import asyncio
import gzip

from server import RunningServer
from server.net.web import WEB_FILES, accepts_gzip
from tests.server.helpers import run
from tests.web.test_first_load import WEB, static_modules
from tests.web.test_serve import get

BUDGET = 150 * 1024  # bytes on the wire (issue 29)
GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def first_load_paths() -> list[str]:
    """What a browser fetches to show the page: the HTML, its style, its static modules,
    the rules, the manifest and its icon, and the service worker."""
    modules = [f"/{path.relative_to(WEB).as_posix()}" for path in static_modules(WEB / "app.js")]
    extras = ["/", "/app.css", "/rules.json", "/manifest.webmanifest", "/icon.svg", "/sw.js"]
    return sorted(set(modules) | set(extras))


def test_accept_encoding_is_read_as_browsers_write_it() -> None:
    assert accepts_gzip("gzip, deflate, br")
    assert accepts_gzip("br;q=1.0, gzip;q=0.8")
    assert accepts_gzip("*")
    assert not accepts_gzip("gzip;q=0")
    assert not accepts_gzip("br, deflate")
    assert not accepts_gzip("")


def test_a_browser_that_accepts_gzip_gets_the_files_compressed() -> None:
    async def test(server: RunningServer) -> None:
        status, headers, body = await asyncio.to_thread(get, server.port, "/app.js", GZIP)
        assert status == 200
        assert headers["Content-Encoding"] == "gzip"
        assert headers["Vary"] == "Accept-Encoding"
        assert gzip.decompress(body) == WEB_FILES["/app.js"].body
        assert int(headers["Content-Length"]) == len(body) < len(WEB_FILES["/app.js"].body)
        # the compressed form has a tag of its own, and revalidates as itself
        status, again, body = await asyncio.to_thread(
            get, server.port, "/app.js", {**GZIP, "If-None-Match": headers["ETag"]}
        )
        assert status == 304 and body == b"" and again["ETag"] == headers["ETag"]
        # without gzip (or gzip refused with q=0): the plain bytes, and another tag
        for plain in ({}, {"Accept-Encoding": "gzip;q=0"}):
            status, other, body = await asyncio.to_thread(get, server.port, "/app.js", plain)
            assert status == 200 and "Content-Encoding" not in other
            assert body == WEB_FILES["/app.js"].body and other["ETag"] != headers["ETag"]

    run(test)


def test_the_first_load_travels_in_at_most_150_kb() -> None:
    paths = first_load_paths()
    assert {"/app.js", "/fold.js", "/screens/table.js", "/icon.svg", "/sw.js"} <= set(paths)

    sizes: list[int] = []  # each file's headers and body as they travel
    bodies: list[int] = []

    async def test(server: RunningServer) -> None:
        for path in paths:
            status, headers, body = await asyncio.to_thread(get, server.port, path, GZIP)
            assert status == 200, path
            bodies.append(len(body))
            sizes.append(len(body) + sum(len(k) + len(v) + 4 for k, v in headers.items()))

    run(test)
    on_the_wire = sum(sizes)
    print(f"first load: {on_the_wire} bytes on the wire")
    plain = sum(len(WEB_FILES[path].body) for path in paths)
    assert on_the_wire < BUDGET, on_the_wire
    assert sum(bodies) < plain / 2, (sum(bodies), plain)  # gzip did its work
