"""server.cluster.presence against a real redis-server: leases, generations, renewal, release,
the open-table directory, pub/sub notices and the players' tables."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from server.cluster.presence import Lease, Presence, PresenceError
from tests.redisfixture import RedisServer, Relay


def run(coro: Awaitable[None], timeout: float = 30.0) -> None:
    async def main() -> None:
        await asyncio.wait_for(coro, timeout)

    asyncio.run(main())


async def node(server_url: str, name: str, lease_ms: int = 2000, **kw: Any) -> Presence:
    return await Presence.connect(
        server_url, name, f"ws://127.0.0.1:1/{name}", lease_ms=lease_ms, **kw
    )


async def until(condition: Callable[[], Awaitable[bool]], timeout: float = 10.0) -> None:
    async def wait() -> None:
        while not await condition():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(wait(), timeout)


def test_a_lease_has_one_owner_and_its_generation(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        a = await node(redis_server.url, "a")
        b = await node(redis_server.url, "b")
        assert await a.acquire("T1") == 1
        assert await b.acquire("T1") is None
        assert await a.acquire("T1") is None  # held, even by itself
        assert await b.owner("T1") == Lease("a", 1)
        assert await b.node_url("a") == "ws://127.0.0.1:1/a"
        assert a.holds("T1") and not b.holds("T1")
        assert await b.acquire("T2") == 1  # counters are per table
        await a.close()
        await b.close()

    run(scenario())


def test_renewal_keeps_a_lease_past_its_ttl(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        a = await node(redis_server.url, "a", lease_ms=1000)
        b = await node(redis_server.url, "b", lease_ms=1000)
        await a.acquire("T1")
        for _ in range(8):  # 4 s: four TTLs
            await asyncio.sleep(0.5)
            assert await b.acquire("T1") is None
            assert a.holds("T1")
        await a.close()
        await b.close()

    run(scenario())


def test_a_dead_nodes_lease_expires_and_the_next_owner_gets_a_higher_generation(
    redis_server: RedisServer,
) -> None:
    async def scenario() -> None:
        a = await node(redis_server.url, "a", lease_ms=1000)
        b = await node(redis_server.url, "b", lease_ms=1000)
        assert await a.acquire("T1") == 1
        await a.close(release=False)  # a crash: nothing released
        assert await b.orphans() == []
        await until(lambda: _gone(b, "T1"))
        assert await b.orphans() == ["T1"]
        assert await b.node_url("a") is None  # its registration expired too
        assert await b.acquire("T1") == 2
        await b.close()

    run(scenario())


async def _gone(presence: Presence, code: str) -> bool:
    return await presence.owner(code) is None


def test_a_clean_shutdown_releases_at_once(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        a = await node(redis_server.url, "a", lease_ms=60_000)
        b = await node(redis_server.url, "b", lease_ms=60_000)
        await a.acquire("T1")
        await a.publish_open({"T1": "{}"})
        await a.close()
        assert await b.owner("T1") is None
        assert await b.acquire("T1") == 2
        assert "a" not in await b.open_tables()
        await b.close()

    run(scenario())


def test_a_lease_taken_over_is_reported_lost_and_no_longer_held(
    redis_server: RedisServer,
) -> None:
    async def scenario() -> None:
        lost: list[list[str]] = []
        a = await node(redis_server.url, "a", lease_ms=1000)
        a.on_lost = lost.append
        b = await node(redis_server.url, "b", lease_ms=1000)
        await a.acquire("T1")
        await a.acquire("T2")
        await b.client.delete("spades:lease:T1")  # as if it expired during a long pause
        assert await b.acquire("T1") == 2
        await until(lambda: _true(bool(lost)))
        assert lost == [["T1"]]
        assert not a.holds("T1") and a.holds("T2")
        assert "T1" not in a.leases
        await a.close()  # releasing T1 must not delete b's lease
        assert await b.owner("T1") == Lease("b", 2)
        await b.close()

    run(scenario())


async def _true(value: bool) -> bool:
    return value


def test_a_node_cut_off_from_redis_stops_holding_before_the_lease_expires(
    redis_server: RedisServer,
) -> None:
    async def scenario() -> None:
        relay = Relay(redis_server.port)
        try:
            a = await node(relay.url, "a", lease_ms=2000)
            b = await node(redis_server.url, "b", lease_ms=2000)
            await a.acquire("T1")
            relay.cut()
            while a.holds("T1"):
                await asyncio.sleep(0.01)
            # a stops trusting its lease while Redis still has it: nobody else can have
            # taken the table yet
            assert await b.owner("T1") is not None
            await until(lambda: _gone(b, "T1"))
            assert await b.acquire("T1") == 2
            with pytest.raises(PresenceError):
                await a.acquire("T9")
            await a.close(release=False)
            await b.close()
        finally:
            relay.close()

    run(scenario())


def test_the_directory_lists_every_live_nodes_open_tables(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        changes: list[str] = []
        a = await node(redis_server.url, "a", lease_ms=1000)
        b = await node(redis_server.url, "b", lease_ms=1000)
        c = await node(redis_server.url, "c", lease_ms=1000, on_lobby=changes.append)
        await asyncio.sleep(0.1)  # c's subscription is in place
        await a.publish_open({"A1": '{"code": "A1"}', "A2": '{"code": "A2"}'})
        await b.publish_open({"B1": '{"code": "B1"}'})
        listing = await c.open_tables()
        assert listing == {
            "a": {"A1": '{"code": "A1"}', "A2": '{"code": "A2"}'},
            "b": {"B1": '{"code": "B1"}'},
        }
        await until(lambda: _true(changes[:2] == ["a", "b"]))
        await a.publish_open({"A2": '{"code": "A2"}'})
        assert (await c.open_tables())["a"] == {"A2": '{"code": "A2"}'}
        await asyncio.sleep(2.5)  # renewed: still there after two TTLs
        assert set(await c.open_tables()) == {"a", "b"}
        await b.close(release=False)  # b dies: its list expires with it
        await until(lambda: _true_async(c, "b"))
        await a.close()
        await c.close()

    run(scenario())


async def _true_async(presence: Presence, dead: str) -> bool:
    return dead not in await presence.open_tables()


def test_notices_reach_the_other_nodes_only(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        heard_a: list[dict[str, Any]] = []
        heard_b: list[dict[str, Any]] = []
        a = await node(redis_server.url, "a", on_notice=heard_a.append)
        b = await node(redis_server.url, "b", on_notice=heard_b.append)
        await asyncio.sleep(0.1)
        await a.notice({"kind": "taken_over", "table": "T1"})
        await until(lambda: _true(bool(heard_b)))
        assert heard_b == [{"from": "a", "kind": "taken_over", "table": "T1"}]
        await asyncio.sleep(0.1)
        assert heard_a == []
        await a.close()
        await b.close()

    run(scenario())


def test_a_players_tables_and_the_orphan_scan(redis_server: RedisServer) -> None:
    async def scenario() -> None:
        a = await node(redis_server.url, "a")
        await a.seat("p1", "T1")
        await a.seat("p1", "T2")
        await a.seat("p2", "T2")
        await a.unseat("p1", "T1")
        assert await a.player_tables("p1") == ["T2"]
        assert await a.player_tables("nobody") == []
        await a.add_tables(["T1", "T2", "T3"])
        await a.acquire("T2")
        assert await a.orphans() == ["T1", "T3"]
        await a.forget_table("T3")
        assert await a.orphans() == ["T1"]
        await a.forget_table("T2")  # closed: released and off the list
        assert await a.owner("T2") is None and await a.orphans() == ["T1"]
        await a.close()

    run(scenario())


def test_redis_unreachable_at_start_is_one_clear_error() -> None:
    async def scenario() -> None:
        from tests.redisfixture import free_port

        with pytest.raises(PresenceError, match="cannot reach Redis"):
            await node(f"redis://127.0.0.1:{free_port()}/0", "a")

    run(scenario())
