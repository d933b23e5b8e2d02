"""The browser's "Manage account" section in Chromium: change the password (a wrong
current one refused first), delete the account (a wrong password and an unticked box
refused first); after the delete the page is a guest and the name signs in no more."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from selenium.common.exceptions import WebDriverException

from server.accounts.passwords import Passwords
from tests.web.browser import DESKTOP, Page, ServerThread
from tests.web.play import enter


@pytest.fixture(scope="module")
def server() -> Iterator[ServerThread]:
    running = ServerThread()

    def cheap_passwords() -> None:
        running.hub.accounts.passwords = Passwords(time_cost=1, memory_kib=1024, parallelism=1)

    running.call(cheap_passwords)
    try:
        yield running
    finally:
        running.close()


def _fill(page: Page, selector: str, text: str) -> None:
    """Type ``text`` into a field, again if the panel was drawn anew under the typing (the
    lobby's first messages redraw it while the page settles)."""

    def typed() -> bool:
        try:
            field = page.find(selector)
            field.clear()
            field.send_keys(text)
            return bool(field.get_attribute("value") == text)
        except WebDriverException:
            return False

    page.wait(typed, f"{text!r} typed into {selector}")


def _register(page: Page, server: ServerThread, name: str, password: str) -> None:
    enter(page, server.base, name)
    page.wait(lambda: page.visible("#account-name"), "the account panel")
    _fill(page, "#account-name", name)
    _fill(page, "#account-password", password)
    page.click("[data-account='register']")
    page.wait(lambda: f"Signed in as {name}" in page.find("#account").text, "signed in")
    page.click("#manage summary")
    page.wait(lambda: page.visible("#manage-old"), "the manage section")


def _sign_in(page: Page, name: str, password: str) -> None:
    _fill(page, "#account-name", name)
    _fill(page, "#account-password", password)
    page.click("[data-account='sign_in']")


def test_change_password_in_the_manage_section(server: ServerThread) -> None:
    page = Page(DESKTOP)
    try:
        _register(page, server, "eve", "eve first password")
        _fill(page, "#manage-old", "not the password")
        _fill(page, "#manage-new", "eve second password")
        page.click("[data-manage='password']")
        page.wait(lambda: "Wrong name or password." in page.find("#account").text, "refused")
        assert page.find("#manage-new").get_attribute("value") == "eve second password"
        _fill(page, "#manage-old", "eve first password")
        page.click("[data-manage='password']")
        page.wait(lambda: "Password changed." in page.find("#manage").text, "changed")
        assert page.find("#manage-old").get_attribute("value") == ""
        assert page.find("#manage-new").get_attribute("value") == ""
        page.screenshot("account-manage")
        assert not page.errors()
    finally:
        page.close()
    # another page: the old password is refused, the new one signs in
    other = Page(DESKTOP)
    try:
        enter(other, server.base, "eve-too")
        other.wait(lambda: other.visible("#account-name"), "the account panel")
        _sign_in(other, "eve", "eve first password")
        other.wait(lambda: "Wrong name or password." in other.find("#account").text, "refused")
        _sign_in(other, "eve", "eve second password")
        other.wait(lambda: "Signed in as eve" in other.find("#account").text, "signed in")
        assert not other.errors()
    finally:
        other.close()


def test_delete_account_asks_password_and_box_then_the_page_is_a_guest(
    server: ServerThread,
) -> None:
    page = Page(DESKTOP)
    try:
        _register(page, server, "finn", "finn password")
        _fill(page, "#manage-password", "finn password")
        page.click("[data-manage='delete']")  # the box is not ticked
        page.wait(lambda: "Tick the box to confirm." in page.find("#account").text, "the box")
        assert "Signed in as finn" in page.find("#account").text
        _fill(page, "#manage-password", "wrong password")
        page.find("#manage-sure").click()
        page.click("[data-manage='delete']")
        page.wait(lambda: "Wrong name or password." in page.find("#account").text, "refused")
        assert "Signed in as finn" in page.find("#account").text
        _fill(page, "#manage-password", "finn password")
        page.click("[data-manage='delete']")
        page.wait(lambda: page.visible("#account-name"), "a guest's sign-in form")
        text = page.find("#account").text
        assert "Account deleted. You play as a guest now." in text
        assert not page.exists("#manage")
        token = page.js("return localStorage.getItem('spades2.token')")
        # the page comes back as a guest on a new connection (a new token)
        page.wait(
            lambda: page.js("return localStorage.getItem('spades2.token')") not in (None, token),
            "a guest's token",
        )
        _sign_in(page, "finn", "finn password")
        page.wait(lambda: "Wrong name or password." in page.find("#account").text, "gone")
        assert not page.errors()
    finally:
        page.close()
