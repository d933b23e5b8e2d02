"""Hardening 4 (issue 25, item 7 at the shared placement): a refused connection is
closed on its bare descriptor, and a burst of refusals leaves the kernel's queue in a
few turns of the loop (server.net.listener).

An honest connection that arrives during a burst of a thousand half-open sockets waits
in the kernel's accept queue behind all of them: the sooner they are refused, the sooner
it is accepted.
"""

from __future__ import annotations

import asyncio
import socket

import pytest
from websockets.asyncio import server as ws_server

from server import RunningServer
from server.net.listener import ACCEPT_BATCH, ACCEPT_PER_TURN, Listener
from tests.server.helpers import run


class Turns:
    """Counts turns of the running loop (a task that yields once a turn)."""

    def __init__(self) -> None:
        self.turn = 0
        self.task: asyncio.Task[None] | None = None

    async def _count(self) -> None:
        while True:
            self.turn += 1
            await asyncio.sleep(0)

    def start(self) -> None:
        self.task = asyncio.create_task(self._count())

    def stop(self) -> None:
        assert self.task is not None
        self.task.cancel()


def _burst(port: int, count: int, sources: tuple[str, ...]) -> list[socket.socket]:
    """``count`` connections made while the loop is held: the kernel queues them all."""
    return [
        socket.create_connection(
            ("127.0.0.1", port), timeout=5, source_address=(sources[n % len(sources)], 0)
        )
        for n in range(count)
    ]


async def _listen(refuse: object, accepted: list[str]) -> tuple[Listener, socket.socket, int]:
    listening = socket.create_server(("127.0.0.1", 0), backlog=1024)

    def on_accept(sock: socket.socket, host: str) -> None:
        accepted.append(host)
        sock.close()

    listener = Listener([listening], on_accept, refuse)  # type: ignore[arg-type]
    listener.start()
    return listener, listening, listening.getsockname()[1]


def test_a_refused_connection_is_closed_without_being_handed_on() -> None:
    async def main() -> tuple[list[str], list[str], list[bytes]]:
        asked: list[str] = []
        accepted: list[str] = []

        def refuse(host: str) -> bool:
            asked.append(host)
            return host == "127.0.0.3"

        listener, _, port = await _listen(refuse, accepted)
        answers = []
        for source in ("127.0.0.3", "127.0.0.4", "127.0.0.3"):
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(source, 0)
            )
            answers.append(await asyncio.wait_for(reader.read(), 10))  # closed, both kinds
            writer.close()
        listener.close()
        await listener.wait_closed()
        return asked, accepted, answers

    asked, accepted, answers = asyncio.run(main())
    assert asked == ["127.0.0.3", "127.0.0.4", "127.0.0.3"]
    assert accepted == ["127.0.0.4"]  # the refused two never reached on_accept
    assert answers == [b"", b"", b""]


def test_a_burst_of_refusals_is_taken_many_per_turn_and_never_more_than_the_bound() -> None:
    async def main() -> tuple[dict[int, int], list[str]]:
        turns = Turns()
        per_turn: dict[int, int] = {}
        accepted: list[str] = []

        def refuse(host: str) -> bool:
            per_turn[turns.turn] = per_turn.get(turns.turn, 0) + 1
            return True

        listener, _, port = await _listen(refuse, accepted)
        turns.start()
        await asyncio.sleep(0)
        sockets = _burst(port, 300, ("127.0.0.5", "127.0.0.6"))
        for _ in range(500):
            if sum(per_turn.values()) >= 300:
                break
            await asyncio.sleep(0.01)
        turns.stop()
        for sock in sockets:
            sock.close()
        listener.close()
        await listener.wait_closed()
        return per_turn, accepted

    per_turn, accepted = asyncio.run(main())
    assert sum(per_turn.values()) == 300 and accepted == []
    assert max(per_turn.values()) == ACCEPT_PER_TURN  # many per turn, never more
    assert ACCEPT_PER_TURN > ACCEPT_BATCH  # taking one costs far less than setting it up


def test_admitted_and_refused_together_never_exceed_the_bound_per_turn() -> None:
    async def main() -> tuple[dict[int, int], int, int]:
        turns = Turns()
        taken: dict[int, int] = {}
        refused = 0

        def refuse(host: str) -> bool:
            nonlocal refused
            taken[turns.turn] = taken.get(turns.turn, 0) + 1
            refused += host == "127.0.0.7"
            return host == "127.0.0.7"

        accepted: list[str] = []
        listener, _, port = await _listen(refuse, accepted)
        turns.start()
        await asyncio.sleep(0)
        sockets = _burst(port, 300, ("127.0.0.7", "127.0.0.8"))
        for _ in range(500):
            if len(accepted) + refused >= 300:
                break
            await asyncio.sleep(0.01)
        turns.stop()
        for sock in sockets:
            sock.close()
        listener.close()
        await listener.wait_closed()
        return taken, refused, len(accepted)

    taken, refused, accepted = asyncio.run(main())
    assert (refused, accepted) == (150, 150)
    assert max(taken.values()) == ACCEPT_PER_TURN


def test_a_newcomer_is_set_up_before_a_burst_queued_ahead_of_it_from_one_address(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    order: list[str] = []
    real = ws_server.Server.start_connection_handler

    def noting(self: ws_server.Server, connection: ws_server.ServerConnection) -> None:
        order.append(str(connection.remote_address[0]))
        real(self, connection)

    monkeypatch.setattr(ws_server.Server, "start_connection_handler", noting)

    async def test(server: RunningServer) -> None:
        # the loop is held while 40 sockets of one address, then one of another, connect:
        # the kernel queues them in that order, and the server finds them all at once
        sockets = _burst(server.port, 40, ("127.0.0.21",))
        sockets += _burst(server.port, 1, ("127.0.0.22",))
        for _ in range(400):
            if len(order) >= 41:
                break
            await asyncio.sleep(0.01)
        for sock in sockets:
            sock.close()

    run(test)
    assert len(order) == 41
    # set up second (the shares in turn), not 41st (first come, first served)
    assert order.index("127.0.0.22") == 1


def test_a_failing_refusal_check_lets_the_connection_in() -> None:
    async def main() -> list[str]:
        accepted: list[str] = []

        def refuse(host: str) -> bool:
            raise RuntimeError("a bug of ours")

        listener, _, port = await _listen(refuse, accepted)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        assert await asyncio.wait_for(reader.read(), 10) == b""
        writer.close()
        listener.close()
        await listener.wait_closed()
        return accepted

    assert asyncio.run(main()) == ["127.0.0.1"]
