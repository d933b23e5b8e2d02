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
- ``seeks:node:ID``: the node's lease, set with a TTL of :data:`NODE_LEASE_SECONDS` and
  renewed every :data:`HEARTBEAT_SECONDS` while the node lives (and deleted when it
  closes). A seek whose node's lease is gone is a dead node's: every other node leaves it
  out of its candidates and sweeps it, so a killed node's seekers are forgotten within a
  lease (a few heartbeats), not :data:`MAX_SEEK_SECONDS`. A node that finds its own
  lease lapsed (Redis restarted, or the node was cut off longer than a lease) puts its
  seekers back in, since the others may have swept them meanwhile.

A claim is a Lua script that takes both players out only if both entries are still the
ones the claiming node read and both their nodes' leases are alive, so two nodes never
pair one seeker twice nor anyone with a dead node's seeker. A sweep is a script too: it
takes out only the entry it judged (not a new seek the player made since on a live
node). A seek older than :data:`MAX_SEEK_SECONDS` is swept as well (a backstop).
Each node tries only its own seekers; the node that makes a pair makes the table. The
notice to the partner's node goes once this node holds the table's lease, so the
partner's ``join_table`` is redirected to it at once. Every Redis error is raised as
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

__all__ = ["HEARTBEAT_SECONDS", "MAX_SEEK_SECONDS", "NODE_LEASE_SECONDS", "RedisSeekPool"]

log = logging.getLogger("server.cluster")

MAX_SEEK_SECONDS = 600.0
"""A seek this old is left out and swept whatever its node (a live node's players pair
sooner or take the bot); a dead node's go sooner, with its lease."""

HEARTBEAT_SECONDS = 1.0
"""How often a node renews its lease in the pool."""

NODE_LEASE_SECONDS = 5.0
"""A node's lease lives this long unrenewed: five heartbeats, so a loop busy for a few
seconds does not lose its seekers, and a dead node's go within five seconds."""

CANDIDATE_LIMIT = 200  # seekers read per try, half above the rating and half below

LEASE_WAIT_SECONDS = 5.0  # how long a notice waits for its table's lease to appear

NOTICE_SECONDS = 120  # a pair notice is kept this long for a seeker who missed it

# KEYS[1] the queue, KEYS[2] the entry hash, KEYS[3..] the leases of a's and b's nodes;
# ARGV: a's id, a's JSON, b's id, b's JSON
CLAIM = """
if redis.call('HGET', KEYS[2], ARGV[1]) ~= ARGV[2] then return 0 end
if redis.call('HGET', KEYS[2], ARGV[3]) ~= ARGV[4] then return 0 end
for i = 3, #KEYS do
  if redis.call('EXISTS', KEYS[i]) == 0 then return 0 end
end
redis.call('ZREM', KEYS[1], ARGV[1], ARGV[3])
redis.call('HDEL', KEYS[2], ARGV[1], ARGV[3])
return 1
"""


# KEYS[1] the entry hash, KEYS[2..] every queue; ARGV: the id, the entry's JSON as it was
# judged ("" for none). Takes the seek out only if it is still that one.
SWEEP = """
local now = redis.call('HGET', KEYS[1], ARGV[1]) or ''
if now ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
for i = 2, #KEYS do redis.call('ZREM', KEYS[i], ARGV[1]) end
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
        heartbeat: float = HEARTBEAT_SECONDS,
        node_lease: float = NODE_LEASE_SECONDS,
    ) -> None:
        self.url, self.node_id, self.spawn, self.prefix = url, node_id, spawn, prefix
        self.heartbeat, self.node_lease = heartbeat, node_lease
        self.leased = leased  # whether this node holds table CODE's lease (the directory's)
        self.client: aioredis.Redis | None = None
        self._claim: Any = None
        self._sweep_script: Any = None
        self._mine: dict[str, SeekEntry] = {}  # this node's seeks in the pool
        self._beating: asyncio.Task[None] | None = None
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
        self._sweep_script = self.client.register_script(SWEEP)
        try:
            await self.client.ping()
            await self.beat()
        except RedisError as error:
            raise SeekError(f"cannot reach Redis at {self.url}: {error}") from None
        self._beating = asyncio.get_running_loop().create_task(self._beat_forever())
        self._listening = asyncio.get_running_loop().create_task(self._listen_forever())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._subscribed.wait(), 5.0)

    async def close(self) -> None:
        """Stop listening and beating, give up the lease (the other nodes forget this
        node's seeks at once) and disconnect."""
        for task in (self._listening, self._beating):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._listening = self._beating = None
        if self.client is not None:
            with contextlib.suppress(RedisError, OSError):
                await self.client.delete(self._node_key(self.node_id))
        for client in (self.client, self._subscriber):
            if client is not None:
                with contextlib.suppress(Exception):
                    await client.aclose()
                    await client.connection_pool.disconnect()
        self.client = self._subscriber = None

    # ---- this node's lease ---------------------------------------------------------------

    def _node_key(self, node: str) -> str:
        return self._key("node", node)

    async def beat(self) -> None:
        """Renew this node's lease; if it had lapsed, put this node's seeks back in (the
        other nodes may have swept them). Raises ``RedisError``."""
        redis = self._redis
        self.ops += 1
        lapsed = (
            await redis.set(
                self._node_key(self.node_id), "1", px=round(self.node_lease * 1000), get=True
            )
            is None
        )
        if lapsed and self._mine:
            log.warning("the seek pool's lease had lapsed: %d seeks put back", len(self._mine))
            for entry in list(self._mine.values()):
                # a pair notice on its way is kept: the seeker may have been paired just
                # before the lease lapsed (its notice then sweeps this entry again)
                await self._put(entry, new_seek=False)

    async def _beat_forever(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat)
            try:
                await self.beat()
            except (RedisError, OSError, SeekError) as error:
                log.error("cannot renew the seek pool's lease: %s", error)

    # ---- the pool -----------------------------------------------------------------------

    async def add(self, entry: SeekEntry) -> None:
        await self._put(entry, new_seek=True)

    async def _put(self, entry: SeekEntry, new_seek: bool) -> None:
        try:
            self.ops += len(_queues()) + (3 if new_seek else 2)
            async with self._redis.pipeline(transaction=True) as pipe:
                for queue in _queues():
                    pipe.zrem(self._key("q", queue), entry.player_id)
                pipe.zadd(self._key("q", entry.pool_key), {entry.player_id: entry.rating})
                pipe.hset(self._key("entry"), entry.player_id, entry.to_json())
                if new_seek:  # no pair yet: an old notice of this player is void
                    pipe.delete(self._key("paired", entry.player_id))
                await pipe.execute()
        except RedisError as error:
            raise SeekError(f"cannot add a seek: {error}") from None
        if entry.node == self.node_id:
            self._mine[entry.player_id] = entry

    async def remove(self, player_id: str) -> None:
        self._mine.pop(player_id, None)
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
            return await self._alive(ids, texts)
        except RedisError as error:
            raise SeekError(f"cannot read the seeks: {error}") from None

    async def queue(self, pool_key: str) -> list[SeekEntry]:
        redis = self._redis
        try:
            self.ops += 1
            ids = [str(i) for i in await redis.zrange(self._key("q", pool_key), 0, -1)]
            if not ids:
                return []
            self.ops += 1
            texts: list[Any] = await redis.hmget(self._key("entry"), ids)
            return await self._alive(ids, texts)
        except RedisError as error:
            raise SeekError(f"cannot read the seeks: {error}") from None

    async def _alive(self, ids: list[str], texts: list[Any]) -> list[SeekEntry]:
        """The entries read whose nodes hold their leases; a dead node's, a too old or an
        unreadable one is swept instead. Raises ``RedisError``."""
        found: list[tuple[str, str, SeekEntry | None]] = []
        oldest = time.time() - MAX_SEEK_SECONDS
        for player_id, text in zip(ids, texts, strict=True):
            try:
                entry = SeekEntry.from_json(str(text)) if text else None
            except (ValueError, TypeError):
                entry = None
            if entry is not None and entry.since < oldest:
                entry = None
            found.append((player_id, str(text) if text else "", entry))
        others = sorted(
            {e.node for _, _, e in found if e is not None and e.node and e.node != self.node_id}
        )
        dead: set[str] = set()
        if others:
            self.ops += len(others)
            async with self._redis.pipeline(transaction=False) as pipe:
                for node in others:
                    pipe.exists(self._node_key(node))
                alive = await pipe.execute()
            dead = {node for node, lives in zip(others, alive, strict=True) if not lives}
        out: list[SeekEntry] = []
        for player_id, text, entry in found:
            if entry is None or entry.node in dead:
                self.spawn(self._sweep(player_id, text))
            else:
                out.append(entry)
        return out

    async def _sweep(self, player_id: str, judged: str) -> None:
        """Take out ``player_id``'s seek if it is still the one judged stale."""
        keys = [self._key("entry"), *(self._key("q", queue) for queue in _queues())]
        with contextlib.suppress(RedisError, SeekError):
            self.ops += 1
            await self._sweep_script(keys=keys, args=[player_id, judged])

    async def claim(self, a: SeekEntry, b: SeekEntry) -> bool:
        try:
            self.ops += 5
            taken = await self._claim(
                keys=[
                    self._key("q", a.pool_key),
                    self._key("entry"),
                    *(self._node_key(node) for node in {a.node, b.node} if node),
                ],
                args=[a.player_id, a.to_json(), b.player_id, b.to_json()],
            )
        except RedisError as error:
            raise SeekError(f"cannot claim a pair: {error}") from None
        if taken:
            self._mine.pop(a.player_id, None)
            self._mine.pop(b.player_id, None)
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
        mine = self._mine.pop(paired.player_id, None)
        if mine is not None:  # claimed by another node: out of the pool already, unless
            # this node put it back meanwhile (its lease had lapsed): then out again
            self.spawn(self._sweep(paired.player_id, mine.to_json()))
        self.spawn(self._forget_notice(paired.player_id))
        if self._on_paired is not None:
            self._on_paired(paired)

    async def _forget_notice(self, player_id: str) -> None:
        with contextlib.suppress(RedisError, SeekError):
            self.ops += 1
            await self._redis.delete(self._key("paired", player_id))
