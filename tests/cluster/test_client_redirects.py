"""The terminal client's redirect following is bounded: a table that keeps moving (here a
scripted peer that redirects every join to itself) is followed MAX_REDIRECTS times, then
the client stays where it is and says so."""

from __future__ import annotations

import asyncio
import contextlib

from websockets.asyncio.server import ServerConnection, serve

from client.model import ClientModel, Intent
from client.net import MAX_REDIRECTS, Connection
from protocol import messages as m
from protocol.codec import decode_client, encode


def test_redirects_are_followed_a_bounded_number_of_times_in_a_row() -> None:
    async def run() -> tuple[ClientModel, Connection, list[str]]:
        seen: list[str] = []
        url = ""

        async def node(websocket: ServerConnection) -> None:
            async for data in websocket:
                assert isinstance(data, bytes)
                message = decode_client(data)
                seen.append(message.type)
                if isinstance(message, m.Hello):
                    welcome = m.Welcome(
                        protocol_version=1, server_versions=(1,), player_id="p1", name="bo",
                        token="t" * 43, resumed=message.token is not None, tables=(),
                        protocol_minor=m.PROTOCOL_MINOR,
                    )  # fmt: skip
                    await websocket.send(encode(welcome))
                elif isinstance(message, m.JoinTable):
                    moved = m.Redirect(url=url, table=message.code, request=message.type)
                    await websocket.send(encode(moved))

        async with serve(node, "127.0.0.1", 0) as server:
            port = next(iter(server.sockets)).getsockname()[1]
            url = f"ws://127.0.0.1:{port}/"
            model = ClientModel("bo", intent=Intent(kind="join", code="ROAMING1"))
            connection = Connection(url, model, ping_interval=None, retry_delays=(0.05,))
            task = asyncio.create_task(connection.run())
            try:
                async with asyncio.timeout(20):
                    while not model.flash:
                        await asyncio.sleep(0.01)
                await asyncio.sleep(0.3)  # nothing more happens: it stays put
            finally:
                await connection.close()
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        return model, connection, seen

    model, connection, seen = asyncio.run(run())
    assert connection.redirects == MAX_REDIRECTS
    assert "keeps moving" in model.flash
    # the first join, then one hello and the same join again per redirect followed
    assert seen.count("join_table") == MAX_REDIRECTS + 1
    assert seen.count("hello") == MAX_REDIRECTS + 1
    assert connection.connects == MAX_REDIRECTS + 1
