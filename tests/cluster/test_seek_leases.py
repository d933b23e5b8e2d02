"""A dead node's seeks leave the cluster's pool within its lease (a few heartbeats), not
after MAX_SEEK_SECONDS: the other nodes leave them out, sweep them and never claim them;
a live node whose lease lapsed puts its seekers back. With a real redis-server, and a real
node killed with SIGKILL. Waits are counted in heartbeats, never asserted in seconds."""

from __future__ import annotations

import asyncio
import math
import time

from websockets.asyncio.client import connect

from protocol import messages as m
from protocol.codec import MAX_SERVER_MESSAGE_BYTES, decode_server, encode
from server.cluster.redis_seeks import HEARTBEAT_SECONDS, NODE_LEASE_SECONDS, RedisSeekPool
from server.lobby.seeks import Paired, SeekEntry
from tests.cluster.nodes import Node, stop_all
from tests.redisfixture import RedisServer

QUEUE = "classic:casual"


def _entry(player: str, rating: float, node: str) -> SeekEntry:
    return SeekEntry(player, player, "classic", False, rating, True, time.time(), node=node)


def _spawner() -> tuple[set[asyncio.Future[None]], object]:
    tasks: set[asyncio.Future[None]] = set()

    def spawn(work: object) -> None:
        tasks.add(asyncio.ensure_future(work))  # type: ignore[arg-type]

    return tasks, spawn


async def _settled(tasks: set[asyncio.Future[None]]) -> None:
    """Every sweep spawned so far has run (a count of tasks, not a time)."""
    if tasks:
        await asyncio.gather(*list(tasks))


def test_a_node_whose_lease_is_gone_has_its_seeks_left_out_swept_and_never_claimed(
    redis_server: RedisServer,
) -> None:
    async def scenario() -> None:
        tasks, spawn = _spawner()
        a = RedisSeekPool(redis_server.url, "na", spawn, prefix="lease1:")
        b = RedisSeekPool(redis_server.url, "nb", spawn, prefix="lease1:")
        await a.start()
        await b.start()
        heard: list[Paired] = []
        a.listen(heard.append)
        try:
            ada, bo = _entry("ada", 1500, "na"), _entry("bo", 1510, "nb")
            await a.add(ada)
            await b.add(bo)
            assert [e.player_id for e in await b.candidates(bo, 100)] == ["ada"]
            # na stops beating as a killed node does: its lease ends (deleted here
            # instead of waited for, so the test counts steps, not seconds)
            assert b.client is not None
            await b.client.delete("lease1:seeks:node:na")
            assert await b.candidates(bo, 100) == []
            assert not await b.claim(bo, ada)  # a dead node's seeker is never paired
            await _settled(tasks)
            assert not await b.client.hexists("lease1:seeks:entry", "ada")  # swept
            assert [e.player_id for e in await b.queue(QUEUE)] == ["bo"]
            # na was alive after all (cut off longer than its lease): its next beat finds
            # the lease lapsed and puts its seeker back, and the pairing can go on
            await a.beat()
            assert [e.player_id for e in await b.candidates(bo, 100)] == ["ada"]
            assert await b.claim(bo, ada)
            # nb paired ada: na hears it, and a later lapse of na's lease does not put
            # ada back (she is at a table, not seeking)
            await b.tell(Paired("ada", "TBL23456", "bo", "classic", False), "na")
            for _ in range(200):  # the notice comes through the channel
                if heard:
                    break
                await asyncio.sleep(0.01)
            assert [p.player_id for p in heard] == ["ada"]
            await b.client.delete("lease1:seeks:node:na")
            await a.beat()
            await _settled(tasks)
            assert await b.queue(QUEUE) == []
            # a sweep judged on an old entry does not take out the player's new seek
            await a.add(_entry("cy", 1500, "na"))
            await b.client.delete("lease1:seeks:node:na")
            await b.queue(QUEUE)  # judges cy stale: a sweep is spawned
            await a.beat()  # meanwhile na puts cy back as it was: the same entry...
            newer = _entry("cy", 1600, "na")
            await a.add(newer)  # ...and cy seeks again: a new entry
            await _settled(tasks)
            assert await b.client.hget("lease1:seeks:entry", "cy") == newer.to_json()
            # a node that closes gives its lease up: its seeks are left out at once
            await a.close()
            assert await b.candidates(_entry("x", 1600, "nb"), 100) == []
        finally:
            await a.close()
            await b.close()
            await _settled(tasks)

    asyncio.run(scenario())


async def _seek(url: str, name: str) -> object:
    ws = await connect(url, max_size=MAX_SERVER_MESSAGE_BYTES, compression=None)
    await ws.send(encode(m.Hello(protocol_version=1, protocol_minor=m.PROTOCOL_MINOR, name=name)))
    await ws.send(encode(m.Seek(preset="classic", id=1)))
    while True:
        message = decode_server(await ws.recv())  # type: ignore[arg-type]
        if isinstance(message, m.Seeking):
            return ws


def test_a_killed_nodes_seekers_are_forgotten_within_its_lease(
    redis_server: RedisServer, pg_dsn: str
) -> None:
    node = Node(pg_dsn, redis_server.url, "n0")
    try:

        async def scenario() -> None:
            tasks, spawn = _spawner()
            other = RedisSeekPool(redis_server.url, "watcher", spawn)
            await other.start()
            try:
                ws = await _seek(node.url, "ada")
                for _ in range(200):  # "seeking" goes out before the pool has the seek
                    seen = await other.queue(QUEUE)
                    if seen:
                        break
                    await asyncio.sleep(0.05)
                assert [(e.name, e.node) for e in seen] == [("ada", "n0")]
                node.kill()  # SIGKILL: no goodbye, no removal, its lease just stops
                # the lease outlives the node by at most NODE_LEASE_SECONDS: counted in
                # heartbeats, the seeker must be gone within that many and two more
                budget = math.ceil(NODE_LEASE_SECONDS / HEARTBEAT_SECONDS) + 2
                beats = 0
                while await other.queue(QUEUE):
                    beats += 1
                    assert beats <= budget, f"still seen after {beats} heartbeats"
                    await asyncio.sleep(HEARTBEAT_SECONDS)
                await _settled(tasks)
                assert other.client is not None
                assert await other.client.hlen("spades:seeks:entry") == 0  # swept too
                assert await other.client.zcard(f"spades:seeks:q:{QUEUE}") == 0
                await ws.close()  # type: ignore[attr-defined]
            finally:
                await other.close()
                await _settled(tasks)

        asyncio.run(asyncio.wait_for(scenario(), 120))
    finally:
        stop_all([node])
