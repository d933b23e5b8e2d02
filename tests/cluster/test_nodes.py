"""Three real nodes on loopback, sharing a real PostgreSQL and a real Redis: players on
different nodes meet at one table, the lobby lists every node's tables, the terminal
client follows redirects, and a 1.1 client is told where the table is."""

from __future__ import annotations

import asyncio
import contextlib

from websockets.asyncio.client import connect

from protocol import messages as m
from protocol.codec import MAX_SERVER_MESSAGE_BYTES, decode_server, encode
from tests.cluster.nodes import RULES, Node, Player, stop_all, until
from tests.redisfixture import RedisServer


async def _ask(
    url: str, *requests: m.ClientMessage, minor: int = m.PROTOCOL_MINOR
) -> list[m.ServerMessage]:
    """Say hello on ``url``, send ``requests``, return every reply up to the last one's."""
    async with connect(url, max_size=MAX_SERVER_MESSAGE_BYTES, compression=None) as ws:
        await ws.send(encode(m.Hello(protocol_version=1, protocol_minor=minor, name="q")))
        got = [decode_server(await ws.recv())]
        for request in requests:
            await ws.send(encode(request))
            while True:
                message = decode_server(await ws.recv())
                got.append(message)
                if getattr(message, "id", None) == request.id:
                    break
        return got


def test_players_on_different_nodes_meet_at_one_table_and_the_lobby_shows_all(
    redis_server: RedisServer, pg_dsn: str
) -> None:
    nodes = [Node(pg_dsn, redis_server.url, f"n{i}") for i in range(3)]
    try:

        async def scenario() -> None:
            urls = [n.url for n in nodes]
            creator = Player(urls, home=0, seed=1, name="ada")
            create = m.CreateTable(preset="classic", overrides=RULES)
            play_a = asyncio.create_task(creator.run(create))
            await until(lambda: creator.code is not None)
            assert creator.code is not None
            # a second table on node 2, so the lobby has two nodes' tables
            other = Player(urls, home=2, seed=3, name="cy")
            play_c = asyncio.create_task(
                other.run(m.CreateTable(preset="classic", overrides=RULES))
            )
            await until(lambda: other.code is not None)

            # the lobby of node 1 lists both (each node publishes its own in Redis)
            async def listed() -> set[str]:
                replies = await _ask(urls[1], m.ListTables(id=5))
                return {t.code for t in replies[-1].tables}  # type: ignore[union-attr]

            for _ in range(200):
                if {creator.code, other.code} <= await listed():
                    break
                await asyncio.sleep(0.05)
            assert {creator.code, other.code} <= await listed()
            # a player on node 1 joins node 0's table: redirected there, and they play
            joiner = Player(urls, home=1, seed=2, name="bo")
            play_b = asyncio.create_task(joiner.run(m.JoinTable(code=creator.code, id=9)))
            await asyncio.wait_for(asyncio.gather(play_a, play_b), 60)
            assert joiner.redirects == 1 and joiner.url == urls[0]
            assert creator.redirects == 0
            assert creator.record_id is not None and creator.record_id == joiner.record_id
            # a 1.1 client is not redirected: it is told where the table is
            replies = await _ask(urls[2], m.WatchTable(code=creator.code, id=4), minor=1)
            error = replies[-1]
            assert isinstance(error, m.ErrorMessage) and error.code == "unknown_table"
            assert f"served at {urls[0]}" in error.message
            # the third player finishes too (against a late joiner on node 0)
            late = Player(urls, home=0, seed=4, name="di")
            await asyncio.wait_for(
                asyncio.gather(play_c, late.run(m.JoinTable(code=other.code, id=3))), 60
            )
            assert late.redirects == 1 and late.url == urls[2]

        asyncio.run(asyncio.wait_for(scenario(), 120))
    finally:
        stop_all(nodes)


def test_the_terminal_client_follows_a_redirect_and_survives_its_nodes_death(
    redis_server: RedisServer, pg_dsn: str
) -> None:
    from client.model import ClientModel, Intent
    from client.net import Connection
    from tests.client.test_live import autoplay

    nodes = [Node(pg_dsn, redis_server.url, f"n{i}") for i in range(2)]
    try:

        async def scenario() -> None:
            urls = [n.url for n in nodes]
            ada = Player(urls, home=0, seed=11, name="ada", pace=0.02)
            play = asyncio.create_task(ada.run(m.CreateTable(preset="classic", overrides=RULES)))
            await until(lambda: ada.code is not None)
            model = ClientModel("bo", intent=Intent(kind="join", code=ada.code))
            connection = Connection(urls[1], model, ping_interval=None, retry_delays=(0.1,))
            task = asyncio.create_task(connection.run())

            async def playing(condition: object, timeout: float = 60) -> None:
                async with asyncio.timeout(timeout):
                    while not condition():  # type: ignore[operator]
                        autoplay(model)
                        await asyncio.sleep(0.005)

            try:
                # sent from node 1 to node 0 without a word on screen: no error, no lobby
                await playing(lambda: model.table is not None and len(ada.acked) >= 3)
                assert connection.redirects == 1 and connection.url == urls[0]
                assert model.table is not None and model.table.code == ada.code
                assert not model.flash
                assert not any("connect" in line for line in model.log), model.log
                # node 0 dies: the client goes back to its own address, node 1 takes
                # the table over, and the game goes on to its end
                nodes[0].kill()
                await playing(lambda: model.game_over is not None, timeout=90)
                assert connection.url == urls[1]
                await asyncio.wait_for(play, 30)
                assert model.game_over is not None
                assert model.game_over.record_id == ada.record_id
            finally:
                await connection.close()
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

        asyncio.run(asyncio.wait_for(scenario(), 180))
    finally:
        stop_all(nodes)
