"""Accounts in a cluster: an account registered on one node signs in on another (the
store is shared), and its token's hello on a node without its table is redirected."""

from __future__ import annotations

import asyncio

from websockets.asyncio.client import connect

from protocol import messages as m
from protocol.codec import MAX_SERVER_MESSAGE_BYTES, decode_server, encode
from tests.cluster.nodes import Node, stop_all
from tests.redisfixture import RedisServer

PASSWORD = "correct horse"


def _open(url: str) -> connect:
    return connect(url, max_size=MAX_SERVER_MESSAGE_BYTES, compression=None)


async def _until(ws: object, kind: type, request_id: int | None = None) -> object:
    while True:
        message = decode_server(await ws.recv())  # type: ignore[attr-defined]
        if isinstance(message, kind) and (request_id is None or message.id == request_id):  # type: ignore[attr-defined]
            return message
        assert not isinstance(message, m.ErrorMessage), message


def test_an_account_signs_in_on_another_node_and_its_token_is_redirected_to_its_table(
    redis_server: RedisServer, pg_dsn: str
) -> None:
    nodes = [Node(pg_dsn, redis_server.url, f"n{i}") for i in range(2)]
    try:

        async def scenario() -> None:
            urls = [n.url for n in nodes]
            async with _open(urls[0]) as ws:
                await ws.send(encode(m.Hello(protocol_version=1, protocol_minor=2, name="ada")))
                await _until(ws, m.Welcome)
                await ws.send(encode(m.Register(name="ada", password=PASSWORD, id=1)))
                signed = await _until(ws, m.SignedIn, 1)
                await ws.send(encode(m.CreateTable(bot="easy", rated=True, id=2)))
                snapshot = await _until(ws, m.Snapshot, 2)
            assert isinstance(signed, m.SignedIn) and isinstance(snapshot, m.Snapshot)
            # another node: the same account signs in there (one shared store)
            async with _open(urls[1]) as ws:
                await ws.send(encode(m.Hello(protocol_version=1, protocol_minor=2, name="x")))
                await _until(ws, m.Welcome)
                await ws.send(encode(m.SignIn(name="ADA", password=PASSWORD, id=3)))
                again = await _until(ws, m.SignedIn, 3)
            assert isinstance(again, m.SignedIn) and again.player_id == signed.player_id
            # the account's token on the node without its table: sent to the table's node
            async with _open(urls[1]) as ws:
                hello = m.Hello(protocol_version=1, protocol_minor=2, name="x", token=again.token)
                await ws.send(encode(hello))
                redirect = await _until(ws, m.Redirect)
            assert isinstance(redirect, m.Redirect)
            assert redirect.url == urls[0] and redirect.table == snapshot.table.code

        asyncio.run(asyncio.wait_for(scenario(), 120))
    finally:
        stop_all(nodes)
