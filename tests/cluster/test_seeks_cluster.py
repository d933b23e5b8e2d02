"""Play now across a cluster: the seek pool in a real Redis (atomic claims, notices to the
partner's node), and two real nodes on PostgreSQL + Redis pairing a seeker on each."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time

from websockets.asyncio.client import connect

from protocol import messages as m
from protocol.codec import MAX_SERVER_MESSAGE_BYTES, decode_server, encode
from server.cluster.redis_seeks import RedisSeekPool
from server.lobby.seeks import Paired, SeekEntry
from tests.cluster.nodes import Node, stop_all
from tests.redisfixture import RedisServer


def entry(player: str, rating: float, node: str) -> SeekEntry:
    # since now: a seek older than MAX_SEEK_SECONDS is taken for a dead node's
    return SeekEntry(player, player, "classic", False, rating, True, time.time(), node=node)


def test_the_redis_pool_claims_each_seeker_once_and_tells_the_partner_node(
    redis_server: RedisServer,
) -> None:
    async def scenario() -> None:
        tasks: set[asyncio.Task[None]] = set()

        def spawn(work: object) -> None:
            tasks.add(asyncio.ensure_future(work))  # type: ignore[arg-type]

        leases: set[str] = set()
        a, b = (
            RedisSeekPool(redis_server.url, "na", spawn, leased=leases.__contains__),
            RedisSeekPool(redis_server.url, "nb", spawn),
        )
        await a.start()
        await b.start()
        heard: list[Paired] = []
        b.listen(heard.append)
        try:
            ada, bo, cy = entry("ada", 1500, "na"), entry("bo", 1520, "nb"), entry("cy", 1510, "nb")
            for one, pool in ((ada, a), (bo, b), (cy, b)):
                await pool.add(one)
            seen = await a.candidates(ada, 100)
            assert {e.player_id for e in seen} == {"bo", "cy"}
            assert await a.candidates(ada, 5) == []
            # two nodes race for bo: one claim wins, the other changes nothing
            won = await asyncio.gather(a.claim(ada, bo), b.claim(cy, bo))
            assert sorted(won) == [False, True]
            left = {e.player_id for e in await b.candidates(entry("x", 1500, "nb"), 100)}
            assert "bo" not in left and len(left) == 1
            # an entry that changed since it was read (sought again) is not claimed
            await a.add(entry("dee", 1500, "na"))
            stale = SeekEntry("dee", "dee", "classic", False, 1500, True, time.time() - 9, "na")
            survivor = next(iter(left))
            mine = ada if survivor == "ada" else cy
            assert not await a.claim(mine, stale)
            await b.remove("cy")
            await a.remove("ada")

            # the notice waits until this node holds the table's lease, then reaches nb only
            async def lease_later() -> None:
                await asyncio.sleep(0.1)
                assert not heard
                leases.add("TBL12345")

            paired = Paired("bo", "TBL12345", "ada", "classic", False)
            await asyncio.gather(a.tell(paired, "nb"), lease_later())
            for _ in range(200):
                if heard:
                    break
                await asyncio.sleep(0.01)
            assert heard == [paired]
            # a notice the channel lost (b was subscribing again) is found at cy's next try
            lost = Paired("cy", "TBL67890", "ada", "classic", False)
            assert a.client is not None
            text = json.dumps({"node": "nb", **dataclasses.asdict(lost)})
            await a.client.set("spades:seeks:paired:cy", text)
            assert await b.candidates(entry("cy", 1510, "nb"), 600) == []
            assert heard == [paired, lost]
            for _ in range(200):
                if not await a.client.exists("spades:seeks:paired:cy"):
                    break
                await asyncio.sleep(0.01)
            assert not await a.client.exists("spades:seeks:paired:cy")  # delivered once
        finally:
            await a.close()
            await b.close()
            for task in tasks:
                task.cancel()

    asyncio.run(scenario())


class Seeker:
    """A guest on one node who seeks, and follows its pair to the table (redirects too)."""

    def __init__(self, url: str, name: str) -> None:
        self.url, self.name = url, name
        self.token: str | None = None
        self.paired: m.SeekPaired | None = None
        self.snapshot: m.Snapshot | None = None
        self.redirects = 0

    async def run(self) -> None:
        request: m.ClientMessage = m.Seek(preset="classic", id=1)
        for _ in range(5):
            async with connect(self.url, max_size=MAX_SERVER_MESSAGE_BYTES) as ws:
                hello = m.Hello(protocol_version=1, protocol_minor=m.PROTOCOL_MINOR,
                                name=self.name, token=self.token)  # fmt: skip
                await ws.send(encode(hello))
                async for data in ws:
                    message = decode_server(data)  # type: ignore[arg-type]
                    if isinstance(message, m.Welcome):
                        self.token = message.token
                        await ws.send(encode(request))
                    elif isinstance(message, m.SeekPaired):
                        self.paired = message
                        if not message.seated:
                            request = m.JoinTable(code=message.table, id=2)
                            await ws.send(encode(request))
                    elif isinstance(message, m.Redirect):
                        self.redirects += 1
                        self.url = message.url
                        break
                    elif isinstance(message, m.Snapshot):
                        self.snapshot = message
                        if message.table.status == "playing":
                            return
                    elif (
                        isinstance(message, m.TableUpdate)
                        and self.snapshot is not None
                        and message.table.status == "playing"
                    ):
                        self.snapshot = self.snapshot.model_copy(update={"table": message.table})
                        return
        raise AssertionError(f"{self.name} never sat at a game")


def test_a_seeker_on_node_a_pairs_with_one_on_node_b(
    redis_server: RedisServer, pg_dsn: str
) -> None:
    nodes = [Node(pg_dsn, redis_server.url, f"n{i}") for i in range(2)]
    try:

        async def scenario() -> None:
            ada, bo = Seeker(nodes[0].url, "ada"), Seeker(nodes[1].url, "bo")
            first = asyncio.create_task(ada.run())
            await asyncio.sleep(0.3)  # ada waits in the pool first (no timing asserted)
            await asyncio.wait_for(asyncio.gather(first, bo.run()), 60)
            assert ada.paired is not None and bo.paired is not None
            assert ada.paired.table == bo.paired.table
            # the node of whoever came second made the pair and the table: the one who
            # waited there joined it through a redirect
            assert [ada.paired.seated, bo.paired.seated].count(True) == 1
            joiner = ada if not ada.paired.seated else bo
            assert joiner.redirects == 1
            for one in (ada, bo):
                assert one.snapshot is not None and one.snapshot.table.code == ada.paired.table
                assert {s.name for s in one.snapshot.table.seats} == {"ada", "bo"}

        asyncio.run(scenario())
    finally:
        stop_all(nodes)
