"""The accounts' attempt limits of a cluster, counted once in a real Redis: two nodes share
one account's 5 sign-ins per 15 minutes (not 5 each), in the counter itself and through
two real server nodes; without Redis a node counts in its own memory meanwhile."""

from __future__ import annotations

import asyncio

import pytest
from websockets.asyncio.client import connect

from protocol import messages as m
from protocol.codec import MAX_SERVER_MESSAGE_BYTES, decode_server, encode
from server.accounts.limits import (
    ALLOWANCES,
    REGISTER_ADDRESS,
    SIGN_IN_ACCOUNT,
    SIGN_IN_ADDRESS,
    Allowance,
    MemoryAttempts,
)
from server.cluster.redis_limits import RedisAttempts
from tests.cluster.nodes import Node, stop_all
from tests.redisfixture import RedisServer

PASSWORD = "correct horse"


def test_the_memory_counter_refills_a_bucket_over_its_window() -> None:
    clock = [1000.0]
    attempts = MemoryAttempts(ALLOWANCES, clock=lambda: clock[0])

    async def scenario() -> None:
        assert [await attempts.take(SIGN_IN_ACCOUNT, "carol") for _ in range(6)] == [
            *[True] * 5,
            False,
        ]
        assert await attempts.take(SIGN_IN_ACCOUNT, "dave")  # another account's own bucket
        await attempts.give_back(SIGN_IN_ACCOUNT, "carol")  # a right password
        assert await attempts.take(SIGN_IN_ACCOUNT, "carol")
        assert not await attempts.take(SIGN_IN_ACCOUNT, "carol")
        clock[0] += 900.0 / 5  # a fifth of 15 minutes: one attempt back
        assert await attempts.take(SIGN_IN_ACCOUNT, "carol")
        assert not await attempts.take(SIGN_IN_ACCOUNT, "carol")

    asyncio.run(scenario())


def test_two_nodes_counters_share_one_accounts_allowance_in_redis(
    redis_server: RedisServer,
) -> None:
    async def scenario() -> None:
        a, b = RedisAttempts(redis_server.url), RedisAttempts(redis_server.url)
        try:
            taken = [await (a if i % 2 else b).take(SIGN_IN_ACCOUNT, "carol") for i in range(5)]
            assert taken == [True] * 5
            # the sixth is refused on either node: one allowance for the cluster, not two
            assert not await a.take(SIGN_IN_ACCOUNT, "carol")
            assert not await b.take(SIGN_IN_ACCOUNT, "carol")
            # a right password on one node gives the attempt back to every node
            await a.give_back(SIGN_IN_ACCOUNT, "carol")
            assert await b.take(SIGN_IN_ACCOUNT, "carol")
            assert not await a.take(SIGN_IN_ACCOUNT, "carol")
            # other keys and kinds are buckets of their own
            assert await a.take(SIGN_IN_ACCOUNT, "dave")
            assert await b.take(SIGN_IN_ADDRESS, "carol")
            registered = [await (a, b)[i % 2].take(REGISTER_ADDRESS, "10.0.0.9") for i in range(4)]
            assert registered == [True, True, True, False]
            # many attempts at once from both nodes: exactly the burst is granted (atomic)
            many = await asyncio.gather(
                *((a, b)[i % 2].take(SIGN_IN_ACCOUNT, "erin") for i in range(40))
            )
            assert many.count(True) == ALLOWANCES[SIGN_IN_ACCOUNT].burst
            # each bucket expires with its window: Redis keeps only what was tried lately
            ttl = await a.client.pttl("spades:limits:sign_in_account:carol")
            assert 0 < ttl <= 900_000
        finally:
            await a.close()
            await b.close()

    asyncio.run(scenario())


def test_a_bucket_refills_by_redis_s_clock(redis_server: RedisServer) -> None:
    fast = {SIGN_IN_ACCOUNT: Allowance(2, 0.2)}  # two per 200 ms: refilled within a second

    async def scenario() -> None:
        attempts = RedisAttempts(redis_server.url, fast, prefix="refill:")
        try:
            assert [await attempts.take(SIGN_IN_ACCOUNT, "k") for _ in range(3)] == [
                True,
                True,
                False,
            ]
            for _ in range(100):  # polled: the refill is Redis's time, not a count
                await asyncio.sleep(0.05)
                if await attempts.take(SIGN_IN_ACCOUNT, "k"):
                    break
            else:
                pytest.fail("the bucket never refilled")
        finally:
            await attempts.close()

    asyncio.run(scenario())


def test_without_redis_a_node_counts_in_its_own_memory(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        attempts = RedisAttempts(redis_server.url)
        try:
            assert await attempts.take(SIGN_IN_ACCOUNT, "carol")
            redis_server.stop()
            # Redis gone: this node's own allowance (5), not a refusal of everyone
            assert [await attempts.take(SIGN_IN_ACCOUNT, "carol") for _ in range(6)] == [
                *[True] * 5,
                False,
            ]
        finally:
            redis_server.start()
            await attempts.close()

    asyncio.run(scenario())


def _open(url: str) -> connect:
    return connect(url, max_size=MAX_SERVER_MESSAGE_BYTES, compression=None)


async def _answer(ws: object, request_id: int) -> m.ServerMessage:
    while True:
        message = decode_server(await ws.recv())  # type: ignore[attr-defined]
        if getattr(message, "id", None) == request_id:
            return message


def test_two_nodes_share_one_accounts_five_sign_ins(redis_server: RedisServer, pg_dsn: str) -> None:
    nodes = [Node(pg_dsn, redis_server.url, f"n{i}") for i in range(2)]
    try:

        async def scenario() -> None:
            async with _open(nodes[0].url) as ws:
                await ws.send(encode(m.Hello(protocol_version=1, protocol_minor=2, name="x")))
                await ws.send(encode(m.Register(name="carol", password=PASSWORD, id=1)))
                assert isinstance(await _answer(ws, 1), m.SignedIn)
            sockets = [_open(node.url) for node in nodes]
            first, second = [await opened.__aenter__() for opened in sockets]
            try:
                for index, ws in enumerate((first, second)):
                    hello = m.Hello(protocol_version=1, protocol_minor=2, name=f"thief{index}")
                    await ws.send(encode(hello))
                codes = []
                # five wrong guesses spread over both nodes, then the right password
                for index in range(6):
                    ws = (first, second)[index % 2]
                    guess = PASSWORD if index == 5 else f"guess {index}"
                    await ws.send(encode(m.SignIn(name="carol", password=guess, id=10 + index)))
                    answer = await _answer(ws, 10 + index)
                    assert isinstance(answer, m.ErrorMessage), answer
                    codes.append(answer.code)
                assert codes == ["bad_credentials"] * 5 + ["rate_limited"]
            finally:
                for opened in sockets:
                    await opened.__aexit__(None, None, None)

        asyncio.run(asyncio.wait_for(scenario(), 120))
    finally:
        stop_all(nodes)
