"""The page installs on a phone (issue 29): a web app manifest, and a service worker that
keeps the page's own files only, never game data."""

from __future__ import annotations

import json
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from server.net.web import WEB_FILES
from tests.web.browser import PHONE, Page, ServerThread
from tests.web.play import create, enter


@pytest.fixture
def served() -> Iterator[tuple[ServerThread, Page]]:
    server = ServerThread()
    page = Page(PHONE)
    try:
        yield server, page
    finally:
        page.close()
        server.close()


def test_the_manifest_names_the_app_its_start_and_an_icon() -> None:
    manifest = json.loads(WEB_FILES["/manifest.webmanifest"].body)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["name"] and manifest["short_name"]
    icons = {icon["src"] for icon in manifest["icons"]}
    assert icons and icons <= set(WEB_FILES)
    assert b'rel="manifest" href="/manifest.webmanifest"' in WEB_FILES["/"].body


def test_the_worker_keeps_the_pages_files_and_no_game_data(
    served: tuple[ServerThread, Page],
) -> None:
    server, page = served
    enter(page, server.base, "Ines")
    create(page, bot="easy")  # a game runs: its data comes over the websocket
    page.wait(lambda: page.table_data().get("phase") not in (None, "", "deal"), "a game")
    page.wait(
        lambda: (
            page.js("return !!(navigator.serviceWorker && navigator.serviceWorker.controller)")
            or page.js("location.reload(); return false")
        ),
        "the service worker in charge of the page",
    )
    kept = page.driver.execute_async_script(
        "const done = arguments[0];"
        "(async () => { const out = [];"
        " for (const name of await caches.keys()) {"
        "  const cache = await caches.open(name);"
        "  for (const request of await cache.keys()) out.push(request.url); }"
        " return out; })().then(done, (e) => done(['error ' + e]));"
    )
    paths = {urlsplit(url).path for url in kept}
    assert {"/", "/app.js", "/app.css", "/manifest.webmanifest"} <= paths, kept
    assert paths <= set(WEB_FILES), kept  # the page's own files, nothing else
    assert all(urlsplit(url).netloc == urlsplit(server.base).netloc for url in kept)
    # the manifest the browser found is ours, with its icon
    found = page.js(
        "return fetch(document.querySelector('link[rel=manifest]').href).then(r => r.json())"
    )
    assert found["start_url"] == "/"
    assert not page.errors()
