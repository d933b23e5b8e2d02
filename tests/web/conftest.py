"""The fixtures most browser tests share: one server for the module, a fresh desktop page
for each test (closed after it, failing the test if the page logged an error). A module
that needs other ones (a phone page, a page already open) defines its own of the name."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.web.browser import DESKTOP, Page, ServerThread


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    running = ServerThread()
    try:
        yield running
    finally:
        running.close()


@pytest.fixture
def page(server: ServerThread) -> Iterator[Page]:
    opened = Page(DESKTOP)
    try:
        yield opened
    finally:
        errors = opened.errors()
        opened.close()
        assert not errors, errors
