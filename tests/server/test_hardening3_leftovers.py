"""Issue 25 (hardening 3), the leftovers of round 3: the order of the two request
budgets, msgpack frames bloated with keys, the analysis nobody waits for, and the
analysis and report settings as options of ``spades serve``."""

from __future__ import annotations

import asyncio
import msgpack
import pytest
from websockets.asyncio import server as ws_server

from protocol import messages as m
from server import RunningServer
from server.gateway import router as router_module
from tests.server.helpers import Client, run

# ---- the connection's token is spent only when the address's budget allows -------------


def test_a_request_the_address_budget_refuses_costs_the_connection_no_token() -> None:
    async def test(server: RunningServer) -> None:
        client = await Client.hello(server.url, "alice")
        session = next(iter(server.hub.transport.sessions))
        session.rate.tokens = 5.0
        session.rate.rate = 0.0  # nothing comes back while the test runs
        budget = server.hub.router.budgets
        bucket = next(iter(budget.buckets.values()))
        bucket.tokens, bucket.rate = 0.0, 0.0  # the address has nothing left
        refused = []
        for _ in range(3):
            refused.append(await client.error(m.Ping(), "rate_limited"))
        assert len(refused) == 3
        assert session.rate.tokens == 5.0  # the connection kept every token
        bucket.tokens = 10.0
        await client.request(m.Ping(nonce=1), m.Pong)
        assert session.rate.tokens == 4.0  # an answered request costs one

    run(test)


# ---- a msgpack frame of hundreds of keys is refused before the decoder ----------------


def test_msgpack_with_hundreds_of_unknown_keys_is_refused_before_decoding(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    decoded: list[bytes] = []
    real = router_module.decode_client

    def counting(data: bytes, limit: int) -> m.ClientMessage:
        decoded.append(data)
        return real(data, limit)

    monkeypatch.setattr(router_module, "decode_client", counting)

    async def test(server: RunningServer) -> None:
        client = await Client.hello(server.url, "alice")
        decoded.clear()
        bloated = {"type": "ping", "id": 3, **{f"k{i}": 0 for i in range(300)}}
        await client.send_raw(msgpack.packb(bloated))
        error = await client.expect(m.ErrorMessage)
        assert error.code == "bad_message"
        assert decoded == []  # never unpacked into a dict nor handed to the validator
        nested = {"type": "create_table", "overrides": {f"k{i}": 0 for i in range(100)}}
        await client.send_raw(msgpack.packb(nested))
        assert (await client.expect(m.ErrorMessage)).code == "bad_message"
        assert decoded == []
        # an ordinary request of the largest kind still goes through
        create = m.CreateTable(overrides={"target_score": 300, "nil": True}, bot="easy")
        await client.request(create, m.Snapshot)
        assert len(decoded) == 1

    run(test)


# ---- a handshake shed past the per-address bound costs no task ------------------------


def test_a_connection_shed_past_the_half_open_bound_starts_no_handshake(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started: list[object] = []
    real = ws_server.Server.start_connection_handler

    def counting(self: ws_server.Server, connection: ws_server.ServerConnection) -> None:
        started.append(connection)
        real(self, connection)

    monkeypatch.setattr(ws_server.Server, "start_connection_handler", counting)

    async def test(server: RunningServer) -> None:
        writers = []
        for _ in range(22):  # never finish their request
            _, writer = await asyncio.open_connection(
                "127.0.0.1", server.port, local_addr=("127.0.0.9", 0)
            )
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
            writers.append(writer)
        honest = await Client.hello(server.url, "honest")  # after the 22 in the backlog
        assert (await honest.request(m.Ping(nonce=7), m.Pong)).nonce == 7
        # the two admitted sockets and the honest one got a handshake; 20 shed got none
        assert len(started) == 3
        for writer in writers:
            writer.close()

    run(test, handshake_timeout=60, max_half_open_per_address=2)
