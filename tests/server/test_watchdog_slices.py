"""The stalled-output watchdog looks at the connections a slice per turn of the loop: a
pass over thousands at once held every player's turn for milliseconds once a second."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from websockets.asyncio.server import ServerConnection

from server.net.guard import scan_stalled


class _Transport:
    def __init__(self, log: list[int], index: int, unsent: int) -> None:
        self.log, self.index, self.unsent = log, index, unsent
        self.aborted = False

    def get_write_buffer_size(self) -> int:
        self.log.append(self.index)
        return self.unsent

    def is_closing(self) -> bool:
        return self.aborted

    def abort(self) -> None:
        self.aborted = True


class _Connection:
    def __init__(self, transport: _Transport) -> None:
        self.transport = transport
        self.remote_address = ("127.0.0.9", 40000 + transport.index)
        self.stalled_since: float | None = None


def _connections(count: int, stalled: set[int], waiting: set[int]) -> tuple[list[Any], list[int]]:
    looked_at: list[int] = []
    connections = []
    for index in range(count):
        unsent = 4096 if index in stalled | waiting else 0
        connection = _Connection(_Transport(looked_at, index, unsent))
        if index in stalled:
            connection.stalled_since = -1e9  # stalled since long before the budget
        connections.append(connection)
    return connections, looked_at


def test_a_watchdog_pass_yields_to_the_loop_between_slices_and_still_drops_the_stalled() -> None:
    connections, looked_at = _connections(450, stalled={3, 449}, waiting={250})
    seen_when_other_work_ran: list[int] = []

    async def main() -> None:
        loop = asyncio.get_running_loop()
        loop.call_soon(lambda: seen_when_other_work_ran.append(len(looked_at)))
        await scan_stalled(cast(list[ServerConnection], connections), budget=10.0, slice_size=200)

    asyncio.run(main())
    # the other callback ran after the first slice and before the rest
    assert seen_when_other_work_ran == [200]
    assert sorted(looked_at) == list(range(450))
    aborted = [c.transport.index for c in connections if c.transport.aborted]
    assert aborted == [3, 449]
    # a connection with output waiting is marked, not dropped, on its first sighting
    assert connections[250].stalled_since is not None
    assert connections[10].stalled_since is None


def test_a_pass_over_fewer_connections_than_a_slice_does_not_yield() -> None:
    connections, looked_at = _connections(50, stalled={49}, waiting=set())
    seen_when_other_work_ran: list[int] = []

    async def main() -> None:
        asyncio.get_running_loop().call_soon(
            lambda: seen_when_other_work_ran.append(len(looked_at))
        )
        await scan_stalled(cast(list[ServerConnection], connections), budget=10.0)

    asyncio.run(main())
    assert seen_when_other_work_ran == [50]  # the whole pass ran before anything else
    assert connections[49].transport.aborted
