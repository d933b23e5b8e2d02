"""Issue 25, the hello flood: a connection that ends is freed by reference counting.

An address opening and dropping hundreds of connections a second made the garbage
collector's young passes run every few milliseconds, each walking the dropped
connections' objects (some 75 a connection: the websockets connection, its protocol,
logger, tasks, a failed handshake's error and the frames its traceback keeps), and the
honest player's ping waited through them. Here the collector is off while connections of
every kind come and go; afterwards no server-side connection object may be left, which
only holds if nothing of theirs is in a reference cycle.
"""

from __future__ import annotations

import asyncio
import gc
import socket
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection
from websockets.server import ServerProtocol

from protocol import messages as m
from server import RunningServer
from tests.server.helpers import Client, run


def _connection_objects() -> list[object]:
    """The server-side connection objects the collector tracks (alive or garbage)."""
    kinds = (ServerConnection, ServerProtocol)  # by type: a dead weak proxy fails isinstance
    return [o for o in gc.get_objects() if issubclass(type(o), kinds)]


async def _freed(kept: list[object], polls: int = 200) -> list[str]:
    """Let the server finish its side (at most ``polls`` turns of 10 ms); the connection
    objects left that are not in ``kept`` (what earlier tests of this process keep)."""
    old = {id(o) for o in kept}  # ``kept`` holds them: their ids stay theirs

    def left() -> list[str]:
        return [type(o).__name__ for o in _connection_objects() if id(o) not in old]

    now = left()
    for _ in range(polls):
        if not now:
            break
        await asyncio.sleep(0.01)
        now = left()
    return now


def _raw(port: int, data: bytes, read: bool) -> bytes:
    """A plain blocking socket (no asyncio objects of the test's own): send ``data``,
    read until the server closes when ``read``, then close."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(data)
        answer = b""
        while read:
            try:
                chunk = sock.recv(65536)
            except ConnectionResetError:  # aborted: nothing more to read
                break
            if not chunk:
                break
            answer += chunk
        return answer


async def _welcomed_then_gone(server: RunningServer) -> None:
    client = await Client.hello(server.url, "brief")
    assert (await client.request(m.Ping(nonce=1), m.Pong)).nonce == 1
    await client.close()


async def _refused_server_full(server: RunningServer) -> None:
    holder = await Client.hello(server.url, "holder")
    refused = await Client.open(server.url)  # refused as it opens, before any hello
    error = await refused.expect(m.ErrorMessage)
    assert error.code == "server_full"
    with pytest.raises(ConnectionError):
        await refused.recv()  # and closed
    await refused.close()
    await holder.close()


async def _no_hello_in_time(server: RunningServer) -> None:
    silent = await Client.open(server.url)
    with pytest.raises(ConnectionError):
        await silent.recv()  # closed: no hello in time
    await silent.close()


async def _half_a_request(server: RunningServer) -> None:
    answer = await asyncio.to_thread(_raw, server.port, b"GET / HTTP/1.1\r\nHost: x\r\n", False)
    assert answer == b""


async def _head_request(server: RunningServer) -> None:
    answer = await asyncio.to_thread(_raw, server.port, b"HEAD / HTTP/1.1\r\nHost: x\r\n\r\n", True)
    assert answer.startswith(b"HTTP/1.1 200 ")


async def _shed_past_the_half_open_cap(server: RunningServer) -> None:
    held = socket.create_connection(("127.0.0.1", server.port))
    held.sendall(b"GET / HTTP/1.1\r\n")  # holds the one half-open place
    try:
        answer = await asyncio.to_thread(_raw, server.port, b"GET / HTTP/1.1\r\n", True)
        assert answer == b""  # shed: closed without a word
    finally:
        held.close()


def _shed_connect(port: int) -> bytes:
    """Connect, send a request and read: the answer (``b""`` when closed unanswered)."""
    try:
        return _raw(port, b"HEAD / HTTP/1.1\r\nHost: x\r\n\r\n", True)
    except (ConnectionResetError, BrokenPipeError):  # aborted before the request went
        return b""


async def _shed_past_the_connect_rate(server: RunningServer) -> None:
    # the address's one connection (its burst) goes to the first run; then all are shed
    answers = [await asyncio.to_thread(_shed_connect, server.port) for _ in range(2)]
    assert answers[-1] == b""


CASES: dict[str, tuple[Callable[[RunningServer], Awaitable[None]], dict[str, Any]]] = {
    "welcomed_then_gone": (_welcomed_then_gone, {}),
    "refused_server_full": (_refused_server_full, {"max_connections_per_address": 1}),
    "no_hello_in_time": (_no_hello_in_time, {"hello_timeout": 0.2}),
    "half_a_request": (_half_a_request, {}),
    "head_request": (_head_request, {}),
    "shed_past_the_half_open_cap": (_shed_past_the_half_open_cap, {"max_half_open_per_address": 1}),
    "shed_past_the_connect_rate": (
        _shed_past_the_connect_rate,
        {"connects_per_second_per_address": 0.001, "connects_burst_per_address": 1},
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_connection_that_ends_leaves_nothing_for_the_garbage_collector(case: str) -> None:
    scenario, overrides = CASES[case]

    async def test(server: RunningServer) -> None:
        await scenario(server)  # once first: whatever is built once and kept
        await _freed([])
        gc.collect()
        kept = _connection_objects()
        gc.disable()
        try:
            for _ in range(3):
                await scenario(server)
            left = await _freed(kept)
        finally:
            gc.enable()
        assert left == []

    run(test, **overrides)
