"""Moderation in the browser client: /mute in its chat, and a ban that stops the page."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator

import pytest

from protocol import messages as m
from server.admin import run_command
from tests.server.helpers import Client
from tests.web.browser import Page, ServerThread
from tests.web.play import create, enter


@pytest.fixture
def server() -> Iterator[ServerThread]:
    running = ServerThread()
    try:
        yield running
    finally:
        running.close()


def say(page: Page, text: str) -> None:
    page.find("#chat-input").send_keys(text, "\n")


def test_slash_mute_hides_the_others_chat_in_the_browser(server: ServerThread, page: Page) -> None:
    enter(page, server.base, "web")
    code = create(page, bot="", private=True)
    go_rude, rude_sent, go_after = threading.Event(), threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def opponent() -> None:
        async def talk() -> None:
            client = await Client.hello(server.url, "other")
            await client.request(m.JoinTable(code=code), m.Snapshot)
            for text, go in (("before", None), ("rude line", go_rude), ("after", go_after)):
                if go is not None:
                    await asyncio.to_thread(go.wait, 30)
                await client.send(m.Chat(code=code, text=text))
                await client.expect(m.ChatMessage, lambda c, text=text: c.text == text)
                if go is go_rude:
                    rude_sent.set()  # the page's frames for it were written with our echo
            await client.close()

        try:
            asyncio.run(talk())
        except BaseException as error:
            failures.append(error)

    thread = threading.Thread(target=opponent, daemon=True)
    thread.start()
    page.wait(lambda: "before" in page.text(".chat"), "the opponent's first line")
    assert "/mute" in (page.attr("#chat-input", "placeholder") or "")
    say(page, "/mute")
    page.wait(lambda: "hidden here" in page.text(".log"), "the mute notice")
    go_rude.set()
    assert rude_sent.wait(30)
    say(page, "mine")  # answered after the rude line went out to this page
    page.wait(lambda: "mine" in page.text(".chat"), "our own line")
    assert "rude line" not in page.text(".chat")
    assert "before" in page.text(".chat")
    say(page, "/unmute")
    page.wait(lambda: "1 line was hidden" in page.text(".log"), "the unmute notice")
    go_after.set()
    page.wait(lambda: "after" in page.text(".chat"), "the opponent's next line")
    thread.join(30)
    assert not failures, failures
    sent = server.call(lambda: list(server.hub.moderation.recent_chat[code]))
    assert sent == ["other: before", "other: rude line", "web: mine", "other: after"]


def test_a_banned_page_stops_and_says_so(server: ServerThread, page: Page) -> None:
    enter(page, server.base, "web")
    create(page, bot="easy", private=True)
    reply = server.call(
        lambda: run_command(server.hub, {"command": "ban", "args": ["name", "web"]})
    )
    assert reply["ok"] and reply["result"]["connections_dropped"] == 1
    page.wait(lambda: page.visible("#name-input"), "the name form")
    assert "banned" in page.text("body")
    assert "null:banned" in page.js("return globalThis.spadesErrors.join(' ')")
    time.sleep(1.5)  # longer than the first reconnection pause: nothing comes back
    assert server.call(lambda: sum(conn.player is not None for conn in server.hub.conns)) == 0
