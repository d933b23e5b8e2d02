"""The server's websockets protocol keeps its two lists (events parsed, bytes to send) for
the connection's life (server/net/guard.py ``keep_lists``): the library's
fresh lists per frame were half the young objects of every collection at 2,000
connections. What goes through them is unchanged."""

from __future__ import annotations

import gc

from websockets.server import ServerProtocol

from protocol import messages as m
from server import RunningServer
from server.net.guard import keep_lists
from tests.server.helpers import Client, run


def test_a_connection_keeps_its_protocol_lists_through_many_messages() -> None:
    async def test(server: RunningServer) -> None:
        client = await Client.hello(server.url, "lists")
        (connection,) = server.server.handlers
        protocol = connection.protocol
        assert type(protocol).__name__ == "Keeping_FrontDoorProtocol"
        events, writes = protocol.events, protocol.writes
        for nonce in range(50):
            await client.send(m.Ping(nonce=nonce))
            pong = await client.expect(m.Pong)
            assert pong.nonce == nonce  # every message in and its answer out, in order
        assert protocol.events is events and protocol.writes is writes
        assert events == [] and writes == []
        assert not gc.is_tracked(events) or gc.get_referrers(events) == [vars(protocol)]
        await client.ws.close()

    run(test)


def test_handed_out_lists_are_copies_and_the_kept_ones_empty() -> None:
    protocol = ServerProtocol()
    keep_lists(protocol)
    assert isinstance(protocol, ServerProtocol)
    protocol.events.extend(["a", "b"])  # type: ignore[list-item]
    protocol.writes.extend([b"x", b""])
    kept_events, kept_writes = protocol.events, protocol.writes
    assert protocol.events_received() == ["a", "b"]
    assert protocol.data_to_send() == [b"x", b""]
    assert protocol.events_received() == [] and protocol.data_to_send() == []
    assert protocol.events is kept_events and protocol.writes is kept_writes
    assert kept_events == [] and kept_writes == []
