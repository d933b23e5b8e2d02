"""Issue 25 (hardening 3), the honest ping's tail: websocket upgrades go on a few per turn
of the loop, an address holding nothing first (server/net/pacing.py)."""

from __future__ import annotations

import asyncio
import socket

import pytest
from websockets.http11 import Request
from websockets.server import ServerProtocol

from protocol import messages as m
from server import RunningServer
from server.net.pacing import PER_TURN, HandshakePacer
from tests.server.helpers import Client, run


def _turns() -> tuple[list[int], asyncio.Task[None]]:
    """A counter of the loop's turns (``[turn]``), kept by a task yielding once a turn."""
    turn = [0]

    async def count() -> None:
        while True:
            turn[0] += 1
            await asyncio.sleep(0)

    return turn, asyncio.get_running_loop().create_task(count())


def test_a_turn_of_the_loop_lets_at_most_per_turn_upgrades_through_and_a_newcomer_first() -> None:
    async def scenario() -> None:
        held = {"192.0.2.1": 5, "192.0.2.2": 0}
        pacer = HandshakePacer(lambda share: held.get(share, 0), lambda address: address)
        turn, counter = _turns()
        order: list[tuple[str, int]] = []

        async def upgrade(address: str) -> None:
            await pacer.turn(address)
            order.append((address, turn[0]))

        attackers = [asyncio.create_task(upgrade("192.0.2.1")) for _ in range(200)]
        await asyncio.sleep(0)
        await asyncio.sleep(0)  # some of the 200 are through already
        newcomer = asyncio.create_task(upgrade("192.0.2.2"))
        await asyncio.gather(*attackers, newcomer)
        counter.cancel()
        per_turn: dict[int, int] = {}
        for _, at in order:
            per_turn[at] = per_turn.get(at, 0) + 1
        assert len(order) == 201
        assert max(per_turn.values()) <= PER_TURN
        # the newcomer waited for no more than the few let through before it asked
        assert [address for address, _ in order].index("192.0.2.2") <= 4 * PER_TURN
        assert pacer.waiting == 0 and pacer.released == 201

    asyncio.run(scenario())


def test_shares_holding_connections_take_turns_and_a_cancelled_wait_gives_its_place() -> None:
    async def scenario() -> None:
        pacer = HandshakePacer(lambda share: 1, lambda address: address, per_turn=1)
        order: list[str] = []

        async def upgrade(address: str) -> None:
            await pacer.turn(address)
            order.append(address)

        first = [asyncio.create_task(upgrade("a")) for _ in range(4)]
        gone = asyncio.create_task(upgrade("b"))
        second = [asyncio.create_task(upgrade("b")) for _ in range(3)]
        await asyncio.sleep(0)  # every one is waiting
        gone.cancel()
        await asyncio.gather(*first, *second)
        assert order == ["a", "b", "a", "b", "a", "b", "a"]
        assert pacer.released == 7

    asyncio.run(scenario())


def test_a_burst_of_upgrades_is_answered_one_per_turn_and_a_newcomer_goes_before_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    accepted: list[tuple[str, int]] = []
    turn = [0]
    real = ServerProtocol.accept

    def counting(self: ServerProtocol, request: Request) -> object:
        accepted.append((request.headers.get("X-Probe", "honest"), turn[0]))
        return real(self, request)

    monkeypatch.setattr(ServerProtocol, "accept", counting)

    async def test(server: RunningServer) -> None:
        nonlocal turn
        turn, counter = _turns()
        await asyncio.sleep(0)
        # the loop is held while 60 sockets of one address connect and send their
        # upgrade: the kernel keeps them, the loop finds all 60 requests at once
        sockets = []
        for n in range(60):
            sock = socket.create_connection(
                ("127.0.0.1", server.port), timeout=5, source_address=("127.0.0.2", 0)
            )
            sock.sendall(
                b"GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
                b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                b"Sec-WebSocket-Version: 13\r\nX-Probe: a" + str(n).encode() + b"\r\n\r\n"
            )
            sockets.append(sock)
        await asyncio.sleep(0)
        honest = await Client.hello(server.url, "newcomer")  # from 127.0.0.1: holds nothing
        await honest.request(m.Ping(nonce=1), m.Pong)
        for _ in range(500):
            if len(accepted) >= 61:
                break
            await asyncio.sleep(0.01)
        counter.cancel()
        per_turn: dict[int, int] = {}
        for _, at in accepted:
            per_turn[at] = per_turn.get(at, 0) + 1
        assert len(accepted) == 61
        assert max(per_turn.values()) <= PER_TURN
        # the newcomer's upgrade was answered while most of the burst still waited
        assert [tag for tag, _ in accepted].index("honest") < 50
        for sock in sockets:
            sock.close()
        await honest.close()

    run(test)
