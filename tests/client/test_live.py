"""The client model and network task against the real server on a loopback port."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from client.model import ClientModel, Intent, Screen
from client.net import Connection
from client.replay import load_pages, run_replay
from client.session import start_embedded_server
from client.tokens import load_token, save_token
from engine import Phase


def autoplay(model: ClientModel) -> None:
    """Press what a simple player would press when it is this model's turn."""
    turn = model.turn
    if turn is None:
        return
    keys = {
        "blind_nil": ["n"],
        "draft": ["k"],
        "exchange": ["enter"],
        "bidding": ["3", "enter"],
        "play": ["enter"],
    }[turn.phase]
    for key in keys:
        model.press(key)


async def until(condition: object, models: list[ClientModel], timeout: float = 30) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():  # type: ignore[operator]
        if loop.time() > deadline:
            raise AssertionError("timed out")
        for model in models:
            autoplay(model)
        await asyncio.sleep(0.005)


@contextlib.asynccontextmanager
async def connected(url: str, model: ClientModel) -> AsyncIterator[Connection]:
    connection = Connection(url, model, ping_interval=None)
    task = asyncio.create_task(connection.run())
    try:
        yield connection
    finally:
        await connection.close()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


@pytest.mark.timeout(60)
def test_a_hand_against_the_bot_with_a_dropped_connection() -> None:
    async def run() -> None:
        server = await start_embedded_server(bot_delay=0.0)
        try:
            model = ClientModel("alice", intent=Intent(kind="create", bot="easy"))
            async with connected(server.url, model) as connection:
                await until(lambda: model.view is not None and model.view.phase is Phase.DRAFT, [])
                first_token = model.token
                # play into the draft, then drop the socket
                await until(
                    lambda: model.view is not None and model.view.draft_turns[0] >= 4, [model]
                )
                await connection.drop()
                await until(lambda: model.connection == "reconnecting", [])
                await until(lambda: model.connection == "connected", [])
                assert model.token == first_token
                assert connection.connects == 2
                assert model.view is not None and model.view.seat == 0
                # the game goes on from where it was, to the hand's result
                await until(lambda: bool(model.results), [model])
                result = model.results[0]
                assert sum(result.tricks) == 13
                assert model.verified[1]
                assert model.view is not None
                assert model.view.scores == result.scores
        finally:
            await server.close()

    asyncio.run(run())


@pytest.mark.timeout(60)
def test_two_players_meet_in_the_lobby_and_a_spectator_watches() -> None:
    async def run() -> None:
        server = await start_embedded_server(bot_delay=0.0)
        try:
            host = ClientModel("alice", intent=Intent(kind="create"))
            guest = ClientModel("bob", intent=Intent(kind="lobby"))
            viewer = ClientModel("carol", intent=Intent(kind="lobby"))
            async with (
                connected(server.url, host),
                connected(server.url, guest),
                connected(server.url, viewer),
            ):
                await until(lambda: host.table is not None, [])
                assert host.table is not None
                code = host.table.code
                await until(lambda: guest.screen is Screen.LOBBY, [])
                guest.press("r")
                await until(lambda: any(t.code == code for t in guest.tables), [])
                guest.lobby_row = [t.code for t in guest.tables].index(code)
                guest.press("enter")
                await until(lambda: guest.view is not None and guest.table is not None, [])
                viewer.press("v")
                for char in code:
                    viewer.press(char)
                viewer.press("enter")
                await until(lambda: viewer.view is not None, [])
                await until(lambda: bool(host.results) and bool(guest.results), [host, guest])
                await until(lambda: bool(viewer.results), [])
                assert viewer.view is not None and viewer.view.seat is None
                assert viewer.view.hand == ()
                assert host.results[0] == guest.results[0] == viewer.results[0]
                host.press("m")
                for char in "gg":
                    host.press(char)
                host.press("enter")
                await until(lambda: any("gg" in line for line in guest.chat.lines), [])
        finally:
            await server.close()

    asyncio.run(run())


@pytest.mark.timeout(60)
def test_game_over_save_the_record_and_a_rematch_with_the_bot(tmp_path: Path) -> None:
    async def run() -> None:
        server = await start_embedded_server(bot_delay=0.0)
        try:
            intent = Intent(kind="create", bot="easy", overrides={"target_score": 1})
            model = ClientModel("alice", intent=intent)
            async with connected(server.url, model):
                await until(lambda: model.game_over is not None, [model])
                assert model.view is not None
                first = model.results[-1].scores
                assert max(first) >= 1
                model.record_dir = tmp_path
                model.press("s")
                await until(lambda: model.saved_record is not None, [])
                assert model.saved_record is not None
                assert run_replay(str(model.saved_record), print_only=True) == 0
                state, pages = load_pages(json.loads(model.saved_record.read_text()))
                assert state.is_over and len(pages) == len(model.results)
                model.press("r")
                await until(
                    lambda: (
                        model.game_over is None
                        and model.view is not None
                        and model.view.phase is Phase.DRAFT
                    ),
                    [],
                )
                assert model.view is not None
                assert model.view.scores == (0, 0) and model.view.hand_number == 1
                assert model.results == []
                await until(lambda: bool(model.results), [model])
                assert model.results[0].hand_number == 1
        finally:
            await server.close()

    asyncio.run(run())


@pytest.mark.timeout(60)
def test_a_new_client_with_the_saved_token_takes_the_seat_back(tmp_path: Path) -> None:
    async def run() -> None:
        server = await start_embedded_server(bot_delay=0.0)
        store = tmp_path / "tokens.json"
        try:
            first = ClientModel("alice", intent=Intent(kind="create", bot="easy"))
            first.on_token = lambda token: save_token(server.url, "alice", token, store)
            async with connected(server.url, first):
                await until(
                    lambda: first.view is not None and first.view.draft_turns[0] >= 2, [first]
                )
            code = first.code
            # a new process: a fresh model, the token from the file
            token = load_token(server.url, "alice", store)
            again = ClientModel("alice", intent=Intent(kind="create", bot="easy"), token=token)
            assert again.token == first.token
            async with connected(server.url, again):
                await until(lambda: again.view is not None, [])
                assert again.code == code  # the same table, not a new one
                await until(lambda: bool(again.results), [again])
            # a token the server does not know: a new session, and the intent runs
            intent = Intent(kind="create", bot="easy")
            stale = ClientModel("bob", intent=intent, token="not-a-token")
            async with connected(server.url, stale):
                await until(lambda: stale.view is not None, [])
                assert stale.code != code
                assert stale.token != "not-a-token"
        finally:
            await server.close()

    asyncio.run(run())


def test_tokens_are_kept_per_server_and_name(tmp_path: Path) -> None:
    store = tmp_path / "state" / "tokens.json"
    assert load_token("ws://a/", "x", store) is None
    save_token("ws://a/", "x", "t1", store)
    save_token("ws://a", "y", "t2", store)
    assert load_token("ws://a", "x", store) == "t1"
    assert load_token("ws://a/", "y", store) == "t2"
    assert load_token("ws://b/", "x", store) is None
    store.write_text("not json")
    assert load_token("ws://a/", "x", store) is None
