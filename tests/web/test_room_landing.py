"""The first screens a new player sees (issue 29): the name field, and a friend's invitation."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.web.browser import DESKTOP, PHONE, Page, ServerThread
from tests.web.play import create, enter


@pytest.fixture
def server() -> Iterator[ServerThread]:
    running = ServerThread()
    try:
        yield running
    finally:
        running.close()


def focused_id(page: Page) -> str:
    return str(page.js("return document.activeElement && document.activeElement.id"))


def test_the_name_field_starts_empty_and_focused_with_a_placeholder(server: ServerThread) -> None:
    page = Page(PHONE)
    try:
        page.open(server.base)
        page.wait(lambda: page.visible("#name-input"), "the name form")
        field = page.find("#name-input")
        assert field.get_attribute("value") in (None, "")
        assert page.js("return document.querySelector('#name-input').value") == ""
        assert field.get_attribute("placeholder")
        assert focused_id(page) == "name-input"
        # typing a name gives that name, nothing before it
        page.driver.switch_to.active_element.send_keys("Alice")
        assert page.js("return document.querySelector('#name-input').value") == "Alice"
        assert not page.errors()
    finally:
        page.close()


def test_the_invitation_says_who_invites_the_rules_and_has_one_button(
    server: ServerThread,
) -> None:
    host = Page(DESKTOP)
    friend = Page(PHONE)
    try:
        enter(host, server.base, "Alice")
        code = create(host, private=True)
        # before the first hand the table says nothing of a "hand 0"
        assert "hand 0" not in host.text(".topline").lower()
        friend.open(f"{server.base}#t={code}")
        friend.wait(lambda: "Alice invites you" in friend.text("#landing"), "the invitation")
        landing = friend.text("#landing")
        assert code in landing
        assert "First to 300 points wins." in landing  # the rules in plain words
        assert "bid nil" in landing and "bags" in landing
        buttons = friend.js(
            "return [...document.querySelectorAll('#name-screen button')]"
            ".filter((b) => b.offsetWidth || b.offsetHeight).map((b) => b.innerText)"
        )
        assert buttons == ["Sit down"], buttons
        assert friend.js("return document.querySelector('#name-input').value") == ""
        assert focused_id(friend) == "name-input"
        friend.screenshot("room-landing-390x844-light")
        friend.resize(PHONE, dark=True)
        friend.screenshot("room-landing-390x844-dark")
        friend.resize(DESKTOP)
        friend.screenshot("room-landing-1280x800-light")
        friend.driver.switch_to.active_element.send_keys("Bea")
        friend.click("#name-form button")
        friend.wait(lambda: friend.table_data().get("version") is not None, "the table")
        host.wait(lambda: "Bea" in host.text(".opponent"), "the friend at the table")
        assert "Alice" in friend.text(".opponent")
        assert not friend.errors() and not host.errors()
    finally:
        host.close()
        friend.close()
