"""The terminal client's account upkeep window against a real server: change the
password, sign out everywhere, delete the account (each refused first with a wrong
password where one is asked)."""

from __future__ import annotations

import asyncio

import pytest

from client.model import ClientModel, Intent, Overlay, Screen
from client.render import render_screen_text
from client.session import start_embedded_server
from protocol import messages as m
from tests.client.test_live import connected, until


def _type(model: ClientModel, text: str) -> None:
    for char in text:
        model.press("space" if char == " " else char)


async def _register(model: ClientModel, name: str, password: str) -> None:
    await until(lambda: model.screen is Screen.LOBBY, [])
    model.press("a")
    model.press("tab")  # register instead
    _type(model, name)
    model.press("enter")
    _type(model, password)
    model.press("enter")
    await until(lambda: model.account.signed_in == name, [])


async def _open_manage(model: ClientModel) -> None:
    model.press("a")  # signed in: the profile
    await until(lambda: model.account.profile is not None, [])
    assert "x manage account" in render_screen_text(model)
    model.press("x")
    assert model.overlay is Overlay.MANAGE
    assert "Manage account" in render_screen_text(model)


@pytest.mark.timeout(120)
def test_change_password_refuses_a_wrong_one_then_changes_it() -> None:
    async def run() -> None:
        server = await start_embedded_server(bot_delay=0.0)
        try:
            model = ClientModel("ann", intent=Intent(kind="lobby"))
            async with connected(server.url, model):
                await _register(model, "ann", "first password")
                await _open_manage(model)
                model.press("enter")  # the first line: change password
                screen = render_screen_text(model)
                assert "Current password" in screen and "New password" in screen
                _type(model, "not it at all")
                model.press("enter")
                _type(model, "second password")
                assert "second password" not in render_screen_text(model)  # masked
                assert "•" * len("second password") in render_screen_text(model)
                model.press("enter")
                assert model.sent[-1] == m.ChangePassword(
                    old_password="not it at all", new_password="second password"
                )
                await until(lambda: model.account.error != "", [])
                assert "Wrong name or password." in render_screen_text(model)
                _type(model, "first password")
                model.press("enter")
                _type(model, "second password")
                model.press("enter")
                await until(lambda: model.flash == "Password changed.", [])
                assert model.account.manage.step == "menu"
                assert model.account.error == ""
            other = ClientModel("ann2", intent=Intent(kind="lobby"))
            async with connected(server.url, other):
                await until(lambda: other.screen is Screen.LOBBY, [])
                other.send(m.SignIn(name="ann", password="first password"))
                await until(lambda: other.account.error != "", [])
                assert other.account.error == "Wrong name or password."
                other.send(m.SignIn(name="ann", password="second password"))
                await until(lambda: other.account.signed_in == "ann", [])
        finally:
            await server.close()

    asyncio.run(run())


@pytest.mark.timeout(120)
def test_sign_out_everywhere_asks_first_and_gives_this_client_a_new_token() -> None:
    async def run() -> None:
        server = await start_embedded_server(bot_delay=0.0)
        try:
            model = ClientModel("bea", intent=Intent(kind="lobby"))
            async with connected(server.url, model):
                await _register(model, "bea", "bea password")
                old_token = model.token
                await _open_manage(model)
                model.press("down")
                model.press("enter")  # sign out everywhere: a question first
                assert "Sign out every other device?" in render_screen_text(model)
                model.press("n")
                assert model.account.manage.step == "menu"
                assert not any(isinstance(sent, m.SignOutEverywhere) for sent in model.sent)
                model.press("enter")
                model.press("y")
                assert isinstance(model.sent[-1], m.SignOutEverywhere)
                await until(lambda: model.flash == "Signed out everywhere else.", [])
                assert model.token is not None and model.token != old_token
                assert model.account.signed_in == "bea"  # this client stays signed in
        finally:
            await server.close()

    asyncio.run(run())


@pytest.mark.timeout(120)
def test_delete_account_asks_the_password_and_a_confirmation_then_plays_as_a_guest() -> None:
    async def run() -> None:
        server = await start_embedded_server(bot_delay=0.0)
        try:
            model = ClientModel("cy", intent=Intent(kind="lobby"))
            async with connected(server.url, model):
                await _register(model, "cy", "cy password")
                await _open_manage(model)
                model.press("up")  # wraps round to the last line: delete
                model.press("enter")
                assert "Current password" in render_screen_text(model)
                _type(model, "wrong password")
                model.press("enter")
                assert "Delete cy for good?" in render_screen_text(model)
                model.press("y")
                assert model.sent[-1] == m.DeleteAccount(password="wrong password")
                await until(lambda: model.account.error != "", [])
                assert "Wrong name or password." in render_screen_text(model)
                assert model.account.signed_in == "cy"
                model.press("enter")  # the menu again, on delete
                _type(model, "cy password")
                model.press("enter")
                model.press("y")
                await until(lambda: model.account.signed_in is None, [])
                assert model.flash == "Account deleted. You play as a guest now."
                assert model.overlay is None
                await until(lambda: model.screen is Screen.LOBBY and model.token is not None, [])
                assert "a sign in or register" in render_screen_text(model)
            other = ClientModel("dee", intent=Intent(kind="lobby"))
            async with connected(server.url, other):
                await until(lambda: other.screen is Screen.LOBBY, [])
                other.send(m.SignIn(name="cy", password="cy password"))
                await until(lambda: other.account.error != "", [])
                assert other.account.signed_in is None
        finally:
            await server.close()

    asyncio.run(run())
