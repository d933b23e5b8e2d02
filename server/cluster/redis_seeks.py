"""The seek pool of a cluster, in Redis: every node's seekers in one place.

    pool = RedisSeekPool("redis://127.0.0.1:6379/0", node_id, spawn, leased=presence.holds)
    await pool.start()                      # connects, subscribes to the pairs channel
    await pool.add(entry); found = await pool.candidates(entry, 600.0)
    if await pool.claim(entry, found[0]): ...   # atomic: both out, or neither
    await pool.close()

What lives in Redis (every key under ``prefix``, ``spades:`` by default):

- ``seeks:q:PRESET:KIND``: a sorted set per queue (``classic:casual``...), member the
  player id, score the rating: the seekers within reach are one ``ZRANGEBYSCORE``.
- ``seeks:entry``: a hash, player id -> the entry's JSON (name, since, node...).
- ``seeks:paired:ID``: a pair made by one node for another node's seeker (JSON, kept
  :data:`NOTICE_SECONDS`), and the same on channel ``seeks:paired`` with the node id it
  is for: that node tells its seeker to join the table. A notice the channel lost (a
  subscription being made again) is found in the key at the seeker's next try.

A claim is a Lua script that takes both players out only if both entries are still the
ones the claiming node read, so two nodes never pair one seeker twice. A seek older than
:data:`MAX_SEEK_SECONDS` (its node died) is ignored and swept. Each node tries only its
own seekers; the node that makes a pair makes the table. The notice to the partner's
node goes once this node holds the table's lease, so the partner's ``join_table`` is
redirected to it at once. Every Redis error is raised as
:class:`~server.lobby.seeks.SeekError`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict
from typing import Any, get_args

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from protocol import messages as m
from server.lobby.seeks import Paired, SeekEntry, SeekError

__all__ = ["MAX_SEEK_SECONDS", "RedisSeekPool"]

log = logging.getLogger("server.cluster")

MAX_SEEK_SECONDS = 600.0
"""A seek this old is taken for one whose node died (a live node's players pair sooner
or take the bot): left out of the candidates, and swept."""

CANDIDATE_LIMIT = 200  # seekers read per try, half above the rating and half below

LEASE_WAIT_SECONDS = 5.0  # how long a notice waits for its table's lease to appear

NOTICE_SECONDS = 120  # a pair notice is kept this long for a seeker who missed it

# KEYS[1] the queue, KEYS[2] the entry hash; ARGV: a's id, a's JSON, b's id, b's JSON
CLAIM = """
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then return 0 end
if redis.call('HGET', KEYS[2], ARGV[3]) ~= ARGV[4] then return 0 end
redis.call('ZREM', KEYS[1], ARGV[1], ARGV[3])
redis.call('HDEL', KEYS[2], ARGV[1], ARGV[3])
return 1
"""


def _queues() -> tuple[str, ...]:
    return tuple(
        f"{preset}:{kind}" for preset in get_args(m.SeekPreset) for kind in ("rated", "casual")
    )


class RedisSeekPool:
    """The :class:`~server.lobby.seeks.SeekPool` of a cluster node (see the module)."""

    def __init__(
        self,
        url: str,
        node_id: str,
        spawn: Callable[[Awaitable[None]], object],
        leased: Callable[[str], bool] = lambda code: True,
        prefix: str = "spades:",
    ) -> None:
        self.url, self.node_id, self.spawn, self.prefix = url, node_id, spawn, prefix
        self.leased = leased  # whether this node holds table CODE's lease (the directory's)
        self.client: aioredis.Redis | None = None
        self._claim: Any = None
        self._on_paired: Callable[[Paired], None] | None = None
        self._listening: asyncio.Task[None] | None = None
        self._subscriber: aioredis.Redis | None = None
        self._subscribed = asyncio.Event()
        self.ops = 0  # Redis commands sent (benchmarks read it)

    def _key(self, *parts: str) -> str:
        return self.prefix + ":".join(("seeks", *parts))

    @property
    def _redis(self) -> aioredis.Redis:
        if self.client is None:
            raise SeekError("the seek pool is not started")
        return self.client

    async def start(self) -> None:
        """Connect and subscribe to the pairs channel. Raises :class:`SeekError`."""
        options: dict[str, Any] = {"decode_responses": True, "socket_timeout": 5.0}
        pool = aioredis.BlockingConnectionPool.from_url(
            self.url, max_connections=32, timeout=10.0, **options
        )
        self.client = aioredis.Redis(connection_pool=pool)
        # the subscription waits for messages as long as there are none: no read timeout
        # (one would drop it, and the notices sent meanwhile, every few quiet seconds)
        self._subscriber = aioredis.Redis.from_url(
            self.url, decode_responses=True, socket_timeout=None, health_check_interval=30
        )
        self._claim = self.client.register_script(CLAIM)
        try:
            await self.client.ping()
        except RedisError as error:
            raise SeekError(f"cannot reach Redis at {self.url}: {error}") from None
        self._listening = asyncio.get_running_loop().create_task(self._listen_forever())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._subscribed.wait(), 5.0)

    async def close(self) -> None:
        """Stop listening and disconnect (this node's seeks end with its connections)."""
        if self._listening is not None:
            self._listening.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listening
        for client in (self.client, self._subscriber):
            if client is not None:
                with contextlib.suppress(Exception):
                    await client.aclose()
                    await client.connection_pool.disconnect()
        self.client = self._subscriber = None

    # ---- the pool -----------------------------------------------------------------------

    async def add(self, entry: SeekEntry) -> None:
        try:
            self.ops += 2 + len(_queues())
            async with self._redis.pipeline(transaction=True) as pipe:
                for queue in _queues():
                    pipe.zrem(self._key("q", queue), entry.player_id)
                pipe.zadd(self._key("q", entry.pool_key), {entry.player_id: entry.rating})
                pipe.hset(self._key("entry"), entry.player_id, entry.to_json())
                pipe.delete(self._key("paired", entry.player_id))  # a new seek: none yet
                await pipe.execute()
        except RedisError as error:
            raise SeekError(f"cannot add a seek: {error}") from None

    async def remove(self, player_id: str) -> None:
        try:
            self.ops += 1 + len(_queues())
            async with self._redis.pipeline(transaction=True) as pipe:
                for queue in _queues():
                    pipe.zrem(self._key("q", queue), player_id)
                pipe.hdel(self._key("entry"), player_id)
                await pipe.execute()
        except RedisError as error:
            raise SeekError(f"cannot remove a seek: {error}") from None

    async def candidates(self, entry: SeekEntry, reach: float) -> list[SeekEntry]:
        redis = self._redis
        queue, rating, half = self._key("q", entry.pool_key), entry.rating, CANDIDATE_LIMIT // 2
        try:
            self.ops += 3
            async with redis.pipeline(transaction=False) as pipe:
                pipe.get(self._key("paired", entry.player_id))
                # the nearest ratings on each side first (a crowded queue is cut there)
                pipe.zrangebyscore(queue, rating, rating + reach, start=0, num=half)
                pipe.zrevrangebyscore(queue, rating, rating - reach, start=0, num=half)
                missed, above, below = await pipe.execute()
            if missed is not None:
                self._deliver(str(missed), entry.player_id)
                return []
            nearest = dict.fromkeys(str(i) for i in (*above, *below))
            ids = [i for i in nearest if i != entry.player_id]
            if not ids:
                return []
            self.ops += 1
            texts: list[Any] = await redis.hmget(self._key("entry"), ids)
        except RedisError as error:
            raise SeekError(f"cannot read the seeks: {error}") from None
        return self._parse(ids, texts)

    async def queue(self, pool_key: str) -> list[SeekEntry]:
        redis = self._redis
        try:
            self.ops += 1
            ids = [str(i) for i in await redis.zrange(self._key("q", pool_key), 0, -1)]
            if not ids:
                return []
            self.ops += 1
            texts: list[Any] = await redis.hmget(self._key("entry"), ids)
        except RedisError as error:
            raise SeekError(f"cannot read the seeks: {error}") from None
        return self._parse(ids, texts)

    def _parse(self, ids: list[str], texts: list[Any]) -> list[SeekEntry]:
        """The entries read (a stale or unreadable one is swept instead)."""
        out: list[SeekEntry] = []
        stale: list[str] = []
        oldest = time.time() - MAX_SEEK_SECONDS
        for player_id, text in zip(ids, texts, strict=True):
            try:
                found = SeekEntry.from_json(str(text)) if text else None
            except (ValueError, TypeError):
                found = None
            if found is None or found.since < oldest:
                stale.append(player_id)
            else:
                out.append(found)
        for player_id in stale:
            self.spawn(self._sweep(player_id))
        return out

    async def _sweep(self, player_id: str) -> None:
        with contextlib.suppress(SeekError):
            await self.remove(player_id)

    async def claim(self, a: SeekEntry, b: SeekEntry) -> bool:
        try:
            self.ops += 5
            taken = await self._claim(
                keys=[self._key("q", a.pool_key), self._key("entry")],
                args=[a.player_id, a.to_json(), b.player_id, b.to_json()],
            )
        except RedisError as error:
            raise SeekError(f"cannot claim a pair: {error}") from None
        return bool(taken)

    # ---- pairs made for another node's seekers ------------------------------------------

    async def tell(self, paired: Paired, node: str) -> None:
        notice = json.dumps({"node": node, **asdict(paired)})
        # the lease is this node's to take: wait (here, asking nobody) until it is held, so
        # the partner's join_table finds the table's node at once
        deadline = time.monotonic() + LEASE_WAIT_SECONDS
        while not self.leased(paired.table) and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        try:
            self.ops += 2
            async with self._redis.pipeline(transaction=False) as pipe:
                pipe.set(self._key("paired", paired.player_id), notice, ex=NOTICE_SECONDS)
                pipe.publish(self._key("paired"), notice)
                await pipe.execute()
        except RedisError as error:
            raise SeekError(f"cannot tell node {node} of its pair: {error}") from None

    def listen(self, on_paired: Callable[[Paired], None]) -> None:
        self._on_paired = on_paired

    async def _listen_forever(self) -> None:
        channel = self._key("paired")
        while True:
            try:
                if self._subscriber is None:
                    raise SeekError("the seek pool is not started")
                async with self._subscriber.pubsub() as pubsub:
                    await pubsub.subscribe(channel)
                    self._subscribed.set()
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            self._deliver(str(message["data"]))
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError, SeekError) as error:
                log.error("lost the seek pool's subscription: %s", error)
                await asyncio.sleep(1.0)

    def _deliver(self, data: str, player_id: str | None = None) -> None:
        """A pair notice (from the channel, or found by ``player_id``'s next try)."""
        try:
            notice = json.loads(data)
            if not isinstance(notice, dict) or notice.pop("node", None) != self.node_id:
                return
            paired = Paired(**notice)
        except (ValueError, TypeError):
            log.error("a malformed pair notice was ignored")
            return
        if player_id is not None and paired.player_id != player_id:
            return
        self.spawn(self._forget_notice(paired.player_id))
        if self._on_paired is not None:
            self._on_paired(paired)

    async def _forget_notice(self, player_id: str) -> None:
        with contextlib.suppress(RedisError, SeekError):
            self.ops += 1
            await self._redis.delete(self._key("paired", player_id))
