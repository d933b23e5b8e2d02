"""Play now in headless Chromium: the lobby's first choice; two pages seek and meet at one
table; a page alone is offered the bot (the server's clock moved, no waiting) and plays it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from tests.web.browser import DESKTOP, Page, ServerThread
from tests.web.play import enter


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def server() -> Iterator[ServerThread]:
    running = ServerThread()
    try:
        yield running
    finally:
        running.close()


def open_page() -> Page:
    return Page(DESKTOP)


def seek_from_lobby(page: Page, alone: bool = True) -> None:
    page.wait(lambda: page.visible("#play-now-button"), "play now in the lobby")
    # play now is the lobby's first section, before the open tables and the create form
    first = page.js("return document.querySelector('#lobby > section, #lobby > h2').id")
    assert first == "play-now"
    page.click("#play-now-button")
    if alone:  # (a second seeker is paired at once: no time to show the search)
        page.wait(lambda: page.visible("#play-now .seeking"), "looking for an opponent")


def seat_names(page: Page) -> str:
    text: str = page.js("return document.querySelector('#table').textContent")
    return text


def test_two_pages_play_now_and_sit_at_one_table(server: ServerThread) -> None:
    pages = [open_page(), open_page()]
    try:
        for page, name in zip(pages, ("ada", "bo"), strict=True):
            enter(page, server.base, name)
            seek_from_lobby(page, alone=name == "ada")
        for page in pages:
            page.wait(lambda p=page: p.table_data().get("version") is not None, "the table")
        codes = {p.js("return document.querySelector('#table .code').textContent") for p in pages}
        assert len(codes) == 1
        for page, other in zip(pages, ("bo", "ada"), strict=True):
            page.wait(lambda p=page, o=other: o in seat_names(p), "the opponent's name")
        assert server.call(lambda: dict(server.hub.seeks.seekers)) == {}
        for page in pages:
            assert not page.errors(), page.errors()
    finally:
        for page in pages:
            page.close()


def test_a_page_alone_is_offered_the_bot_and_plays_it(server: ServerThread) -> None:
    clock = Clock()
    server.call(lambda: setattr(server.hub.seeks, "clock", clock))
    page = open_page()
    try:
        enter(page, server.base, "cy")
        seek_from_lobby(page)
        page.wait(lambda: server.call(lambda: len(server.hub.seeks.seekers)) == 1, "the seek")
        clock.now += 20
        asyncio.run_coroutine_threadsafe(server.hub.seeks.round(), server.loop).result(10)
        page.wait(lambda: page.visible("[data-playnow='bot']"), "the bot offer")
        assert "normal" in page.text("#play-now")  # a guest: the bot nearest 1500
        page.screenshot("playnow-offer")
        page.click("[data-playnow='bot']")
        page.wait(lambda: page.table_data().get("version") is not None, "the table")
        page.wait(lambda: "bot" in seat_names(page), "the bot at the table")
        assert server.call(lambda: dict(server.hub.seeks.seekers)) == {}
        page.screenshot("playnow-bot")
        assert not page.errors(), page.errors()
    finally:
        page.close()
