"""A protocol client for tests, and a way to run a test against a real server.

Tests are plain functions calling :func:`run` (``asyncio.run`` inside), so nothing beyond
pytest is needed. The server listens on a loopback port; clients are real websocket
clients speaking msgpack through :mod:`protocol.codec`.
"""

from __future__ import annotations

import argparse
import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, TypeVar

from websockets.asyncio import server as ws_server
from websockets.asyncio.client import ClientConnection, connect

from protocol import convert
from protocol import messages as m
from protocol.codec import MAX_SERVER_MESSAGE_BYTES, decode_server, encode
from server import RunningServer, ServerConfig, start_server
from server.cli import add_serve_arguments, config_from_args

T = TypeVar("T")

FAST: dict[str, int | bool | str | None] = {"target_score": 100, "lose_score": -100}

TEST_CONFIG = ServerConfig(
    port=0,
    db_path=":memory:",
    bot_delay=0.0,
    bot_workers=0,
    standin_level="easy",
    rate_messages_per_second=10_000.0,
    rate_burst=10_000,
    entropy_seconds=0.0,  # no entropy step unless a test turns it on
    # every test client comes from 127.0.0.1: the per-address limits get their own tests
    max_connections_per_address=100_000,
    max_tables_per_address=100_000,
    max_bot_tables_per_address=100_000,
    share_reserve=0.0,
    connects_per_second_per_address=0.0,  # no bound: tests open connections back to back
)


def run(
    test: Callable[[RunningServer], Awaitable[None]], timeout: float = 60.0, **overrides: Any
) -> None:
    """Start a server with ``TEST_CONFIG`` and ``overrides``, run ``test(server)``, close."""

    async def main() -> None:
        server = await start_server(replace(TEST_CONFIG, **overrides))
        try:
            await asyncio.wait_for(test(server), timeout)
        finally:
            await server.close()

    asyncio.run(main())


class Client:
    """One websocket connection: every frame it gets is kept raw and decoded."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.raw: list[bytes] = []
        self.inbox: asyncio.Queue[m.ServerMessage | None] = asyncio.Queue()
        self.welcome: m.Welcome | None = None
        self.seq = 0
        self.next_id = 100
        self._reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(cls, url: str) -> Client:
        ws = await connect(url, max_size=MAX_SERVER_MESSAGE_BYTES, compression=None)
        return cls(ws)

    @classmethod
    async def hello(
        cls, url: str, name: str = "p", token: str | None = None, minor: int = m.PROTOCOL_MINOR
    ) -> Client:
        client = await cls.open(url)
        await client.send(m.Hello(protocol_version=1, protocol_minor=minor, name=name, token=token))
        client.welcome = await client.expect(m.Welcome)
        return client

    @property
    def token(self) -> str:
        assert self.welcome is not None
        return self.welcome.token

    async def _read(self) -> None:
        try:
            async for data in self.ws:
                assert isinstance(data, bytes), "the server sent a text frame"
                self.raw.append(data)
                await self.inbox.put(decode_server(data))
        except Exception:
            pass
        finally:
            await self.inbox.put(None)

    async def send(self, message: Any) -> None:
        await self.ws.send(encode(message))

    async def send_raw(self, data: bytes | str) -> None:
        await self.ws.send(data)

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    async def recv(self, timeout: float = 20.0) -> m.ServerMessage:
        # asyncio.timeout, not wait_for: on 3.11 a cancelled wait_for can swallow the
        # cancellation and go on reading, and drive() cancels readers
        async with asyncio.timeout(timeout):
            message = await self.inbox.get()
        if message is None:
            self.inbox.put_nowait(None)
            closed = f"{self.ws.close_code} {self.ws.close_reason}"
            raise ConnectionError(f"connection closed ({closed})")
        return message

    async def expect(
        self,
        kind: type[T],
        where: Callable[[T], bool] | None = None,
        timeout: float = 20.0,
    ) -> T:
        """The next message of ``kind`` (matching ``where``), skipping others."""
        while True:
            message = await self.recv(timeout)
            if isinstance(message, kind) and (where is None or where(message)):
                return message

    async def request(self, message: Any, kind: type[T], timeout: float = 20.0) -> T:
        """Send ``message`` with a fresh id and wait for the reply (or error) with that id."""
        req_id = self.new_id()
        await self.send(message.model_copy(update={"id": req_id}))
        while True:
            reply = await self.recv(timeout)
            if getattr(reply, "id", None) == req_id:
                if isinstance(reply, kind):
                    return reply
                raise AssertionError(f"expected {kind.__name__}, got {reply!r}")

    async def error(self, message: Any, code: str) -> m.ErrorMessage:
        """Send ``message`` and expect an ``error`` with ``code`` for it."""
        reply = await self.request(message, m.ErrorMessage)
        assert reply.code == code, reply
        return reply

    async def snapshot(self, code: str) -> m.Snapshot:
        """A fresh snapshot of this client's seat (join again changes nothing)."""
        return await self.request(m.JoinTable(code=code), m.Snapshot)

    async def close(self) -> None:
        await self.ws.close()
        self._reader.cancel()

    async def drop(self) -> None:
        """Vanish without a closing handshake (like a dead network)."""
        transport = self.ws.transport
        transport.abort()
        self._reader.cancel()


async def choose(client: Client, turn: m.YourTurn, rng: random.Random) -> m.ActionMessage:
    """A random legal action; in the exchange phase 0..max random cards of the hand."""
    if turn.phase == "exchange":
        snap = await client.snapshot(turn.table)
        hand = list(snap.view.hand)
        count = rng.randint(0, min(turn.exchange_max or 0, len(hand)))
        return m.ExchangeAction(cards=tuple(rng.sample(hand, count)))
    return rng.choice(turn.legal)


async def play_to_end(
    client: Client,
    rng: random.Random,
    stop: Callable[[m.ServerMessage], bool] | None = None,
    first: m.ServerMessage | None = None,
) -> m.ServerMessage:
    """Answer every ``your_turn`` with a random legal action until game over (or ``stop``);
    ``first`` is a message already received to handle before reading more."""
    while True:
        message, first = (first, None) if first is not None else (await client.recv(30.0), None)
        if stop is not None and stop(message):
            return message
        if isinstance(message, m.GameOver):
            return message
        if isinstance(message, m.YourTurn):
            action = await choose(client, message, rng)
            client.seq += 1
            await client.send(
                m.Act(code=message.table, action=action, version=message.version, seq=client.seq)
            )
        elif isinstance(message, m.ErrorMessage):
            raise AssertionError(f"unexpected error {message!r}")


async def finished_record_json(server: RunningServer, seed: int) -> str:
    """The stored record of a one-point classic game ``alice`` plays to its end against
    the easy bot, with random legal moves from ``seed``."""
    alice = await Client.hello(server.url, "alice")
    await alice.request(
        m.CreateTable(preset="classic", overrides={"target_score": 1}, bot="easy"), m.Snapshot
    )
    over = await play_to_end(alice, random.Random(seed))
    assert isinstance(over, m.GameOver) and over.record_id is not None
    record_json = server.hub.store.record_json(over.record_id)
    assert record_json is not None
    return record_json


async def two_players(
    server: RunningServer, preset: str = "classic", **create: Any
) -> tuple[Client, Client, str]:
    """Two clients seated at a new table (created by the first); the game has started."""
    first = await Client.hello(server.url, "alice")
    second = await Client.hello(server.url, "bob")
    overrides = create.pop("overrides", FAST)
    snap = await first.request(
        m.CreateTable(preset=preset, overrides=overrides, **create), m.Snapshot
    )
    code = snap.table.code
    await second.request(m.JoinTable(code=code), m.Snapshot)
    return first, second, code


def view_of(snapshot: m.Snapshot) -> Any:
    return convert.view_from_message(snapshot.view, snapshot.table.rules)


async def drive(
    clients: list[Client],
    rng: random.Random,
    stop: Callable[[int, m.YourTurn], Awaitable[bool]],
) -> tuple[int, m.YourTurn]:
    """Play random legal moves for every client (one has the turn at a time) until
    ``stop(index, turn)`` says so; returns that client's index and its unanswered turn."""
    while True:
        tasks = [asyncio.create_task(client.expect(m.YourTurn)) for client in clients]
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        index = next(i for i, task in enumerate(tasks) if task in done)
        for task in tasks:
            if task is not tasks[index]:
                task.cancel()
        turn = tasks[index].result()
        if await stop(index, turn):
            return index, turn
        client = clients[index]
        action = await choose(client, turn, rng)
        client.seq += 1
        await client.send(
            m.Act(code=turn.table, action=action, version=turn.version, seq=client.seq)
        )


def handshakes_started(monkeypatch: Any) -> list[object]:
    """The connections the websockets server starts a handshake for, in order, from now
    on (``monkeypatch``: pytest's; the patch ends with the test)."""
    started: list[object] = []
    real = ws_server.Server.start_connection_handler

    def counting(self: ws_server.Server, connection: ws_server.ServerConnection) -> None:
        started.append(connection)
        real(self, connection)

    monkeypatch.setattr(ws_server.Server, "start_connection_handler", counting)
    return started


def serve_config(*argv: str) -> ServerConfig:
    """The configuration ``spades serve`` builds from ``argv`` (its defaults with none);
    raises ``SystemExit`` where the command would refuse the arguments."""
    parser = argparse.ArgumentParser()
    add_serve_arguments(parser)
    return config_from_args(parser.parse_args(list(argv)))
