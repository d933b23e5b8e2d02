"""The terminal client's account windows against a real server: register, a rated game
against the bot given up, the profile shows it, the leaderboard, sign in elsewhere."""

from __future__ import annotations

import asyncio
import re

import pytest

from client.model import ClientModel, Intent, Overlay, Screen
from client.render import render_screen_text
from client.session import start_embedded_server
from protocol import messages as m
from tests.client.test_live import connected, until


def _type(model: ClientModel, text: str) -> None:
    for char in text:
        model.press("space" if char == " " else char)


@pytest.mark.timeout(120)
def test_register_play_rated_and_see_the_profile_and_the_leaderboard() -> None:
    async def run() -> None:
        server = await start_embedded_server(bot_delay=0.0)
        try:
            model = ClientModel("zoe", intent=Intent(kind="lobby"))
            async with connected(server.url, model):
                await until(lambda: model.screen is Screen.LOBBY, [])
                assert "a sign in or register" in render_screen_text(model)
                model.press("a")
                assert model.overlay is Overlay.ACCOUNT
                model.press("tab")  # register instead
                assert "Register" in render_screen_text(model)
                _type(model, "zoe")
                model.press("enter")
                _type(model, "short")
                model.press("enter")
                await until(lambda: model.account.error != "", [])
                assert "at least 8 characters" in render_screen_text(model)
                for _ in range(5):
                    model.press("backspace")
                _type(model, "a long password")
                model.press("enter")
                await until(lambda: model.account.signed_in == "zoe", [])
                assert model.overlay is None
                assert "zoe: classic 1500? · five-hundred 1500?" in render_screen_text(model)
                token = model.token
                assert token is not None
                # a rated game against the bot, given up after one action: a loss
                model.press("c")  # the create window: rated by default when signed in
                assert "rated (R changes)" in render_screen_text(model)
                model.press("R")
                assert "casual (R changes)" in render_screen_text(model)
                model.press("R")
                model.press("enter")  # classic against the normal bot
                assert model.sent[-1] == m.CreateTable(bot="normal", rated=True)
                await until(lambda: model.turn is not None, [])
                table = model.table
                assert table is not None
                code = table.code
                await until(lambda: model.view is not None and model.view.version > 3, [model])
                model.send(m.Leave(code=code))
                await until(lambda: model.screen is Screen.LOBBY, [])
                model.press("m")
                await until(lambda: model.account.profile is not None, [])
                screen = render_screen_text(model)
                assert "Profile of zoe" in screen
                assert "lost" in screen and "rated" in screen and "bot (normal)" in screen
                assert re.search(r"classic\s+1[0-4]\d\d\?", screen)  # lower, provisional
                model.press("escape")
                model.press("b")
                await until(lambda: model.account.board is not None, [])
                assert "Nobody has an established rating" in render_screen_text(model)
                model.press("right")
                await until(
                    lambda: (
                        model.account.board is not None
                        and model.account.board.preset == "five-hundred"
                    ),
                    [],
                )
                assert "five-hundred" in render_screen_text(model)
        finally:
            await server.close()

    asyncio.run(run())
