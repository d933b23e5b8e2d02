"""``spades bot`` speaks 1.3: it follows a ``redirect`` (a cluster node: it connects to the
node named, says hello there with the token it was given, and sends its join again; a
table that keeps moving is followed MAX_REDIRECTS times in a row, then it gives up), and
against a real server it commits, reveals after the relay and checks every hand."""

from __future__ import annotations

import asyncio
import random

import pytest
from websockets.asyncio.server import ServerConnection, serve

from client.bot_client import MAX_REDIRECTS, BotClientError, BotStats, play
from protocol import messages as m
from protocol.codec import decode_client, encode
from server import RunningServer
from tests.server.helpers import FAST, Client, play_to_end, run

TOKEN = "t" * 43


def welcome(hello: m.Hello) -> m.Welcome:
    return m.Welcome(
        protocol_version=1, server_versions=(1,), player_id="p1", name=hello.name,
        token=TOKEN, resumed=hello.token is not None, tables=(), protocol_minor=m.PROTOCOL_MINOR,
    )  # fmt: skip


def run_nodes(moves: int) -> tuple[list[tuple[str, str | None]], BotStats, str]:
    """A node that redirects each join_table ``moves`` times (to itself), then refuses it."""
    seen: list[tuple[str, str | None]] = []
    stats = BotStats()

    async def main() -> str:
        url = ""

        async def node(websocket: ServerConnection) -> None:
            async for data in websocket:
                assert isinstance(data, bytes)
                message = decode_client(data)
                if isinstance(message, m.Hello):
                    seen.append(("hello", message.token))
                    await websocket.send(encode(welcome(message)))
                elif isinstance(message, m.JoinTable):
                    seen.append(("join_table", message.code))
                    if len([s for s in seen if s[0] == "join_table"]) <= moves:
                        reply: m.Redirect | m.ErrorMessage = m.Redirect(
                            url=url, table=message.code, request="join_table", id=message.id
                        )
                    else:
                        reply = m.ErrorMessage(
                            code="unknown_table", message="no such table",
                            request="join_table", id=message.id,
                        )  # fmt: skip
                    await websocket.send(encode(reply))

        async with serve(node, "127.0.0.1", 0) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            url = f"ws://127.0.0.1:{port}/"
            try:
                async with asyncio.timeout(30):
                    await play(url, "ROAMING1", stats=stats)
            except BotClientError as error:
                return str(error)
        return ""

    return seen, stats, asyncio.run(main())


def test_the_bot_follows_a_redirect_with_its_token_and_joins_again() -> None:
    seen, stats, error = run_nodes(moves=1)
    assert seen == [
        ("hello", None),
        ("join_table", "ROAMING1"),
        ("hello", TOKEN),  # the node it was sent to: the same player
        ("join_table", "ROAMING1"),
    ]
    assert stats.redirects == 1 and error.startswith("unknown_table")


@pytest.mark.parametrize("moves", [MAX_REDIRECTS + 3])
def test_the_bot_gives_up_on_a_table_that_keeps_moving(moves: int) -> None:
    seen, stats, error = run_nodes(moves)
    assert stats.redirects == MAX_REDIRECTS and "redirects in a row" in error
    assert [kind for kind, _ in seen].count("join_table") == MAX_REDIRECTS + 1


def test_the_bot_client_commits_reveals_and_checks_every_hand_of_a_game() -> None:
    """Against a real server with the entropy step on (its opponent a 1.0 connection, which
    takes no part): the bot speaks 1.3, commits, reveals after the relay, and every hand
    passes every check; its value is in every hand of the record."""
    stats = BotStats()
    results: list[m.HandResult] = []

    async def test(server: RunningServer) -> None:
        host = await Client.hello(server.url, "host", minor=0)
        # to 200: no single hand can end it (at most 130 points or a set of 130), so the
        # game has at least two hands whatever the shuffle the entropy step draws
        longer = {**FAST, "target_score": 200, "lose_score": -200}
        snap = await host.request(m.CreateTable(overrides=longer, private=True), m.Snapshot)
        bot = asyncio.create_task(
            play(server.url, snap.table.code, level="easy", seed=5, stats=stats)
        )

        def keep(message: m.ServerMessage) -> bool:
            if isinstance(message, m.HandResult):
                results.append(message)
            return False

        over = await play_to_end(host, random.Random(5), stop=keep)
        assert isinstance(over, m.GameOver)
        assert await bot == 1

    run(test, timeout=240.0, entropy_seconds=30.0)
    assert len(results) >= 2 and stats.verified == len(results) and stats.problems == {}
    assert stats.withheld == 0
    assert all(len(result.entropy[1]) == 64 for result in results)  # its value, every hand
