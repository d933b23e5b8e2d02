"""Presence in Redis: which node owns which table, the nodes' open tables, and notices.

    presence = await Presence.connect("redis://127.0.0.1:6379/0", node_id, "ws://h:8765/")
    generation = await presence.acquire("K7QX2M9A")   # None: another node holds it
    presence.holds("K7QX2M9A")                         # False once the lease may have expired
    owner = await presence.owner("K7QX2M9A")           # Lease(node_id, generation) or None
    await presence.node_url(owner.node_id)             # that node's public URL
    await presence.publish_open({"K7QX2M9A": summary_json})
    await presence.close()                             # releases every lease

What lives in Redis (every key under ``prefix``, ``spades:`` by default):

- ``lease:CODE`` = ``NODE GENERATION``, set with NX and a TTL (``lease_ms``); a task renews
  every lease this node holds every quarter of the TTL, with a script that only extends a
  lease still holding this node's value. ``gen:CODE`` is an INCR counter: each new lease
  of a table gets a strictly higher generation (the fence the store checks).
- ``tables``: the set of codes of tables that are not closed (a node scans it for tables
  whose lease is gone: :meth:`orphans`).
- ``node:ID`` = the node's public URL, with the same TTL, renewed with the leases;
  ``nodes``: the set of node ids that ever registered (dead ones are filtered out).
- ``open:ID``: a hash, code -> the JSON of that node's open table's summary, expiring
  with the node: the lobby lists every live node's (:meth:`open_tables`).
- ``player:ID``: the codes of the tables a player sits at (a resuming player is sent to
  the node of their table).
- channels ``lobby`` (a node's open tables changed) and ``notice`` (JSON notices between
  nodes); :meth:`Presence.connect` takes a callback for each message.

Whether this node may still write for a table is decided locally: :meth:`holds` is true
only until the TTL measured from the start of the last renewal that succeeded, less a
safety margin, has passed. A node cut off from Redis so stops writing before any other
node can take the lease (Redis's TTL started later than our clock's). Every Redis error
is raised as :class:`PresenceError`. ``redis`` (redis-py) is imported here only: a
server without ``--presence`` never imports this module.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from server.cluster.scripts import ACQUIRE, RAISE, RELEASE, RENEW
from server.errors import ServerError

__all__ = ["Lease", "Presence", "PresenceError"]

log = logging.getLogger("server.presence")


class PresenceError(ServerError):
    """Redis could not be reached or refused a command (the message says which)."""


@dataclass(frozen=True)
class Lease:
    """Who holds a table: a node id and the lease's generation."""

    node_id: str
    generation: int


class Presence:
    """One node's presence in Redis (see the module docstring). Use :meth:`connect`."""

    def __init__(
        self,
        client: aioredis.Redis,
        beat: aioredis.Redis,
        node_id: str,
        public_url: str,
        lease_ms: int,
        prefix: str,
        on_lobby: Callable[[str], None] | None,
        on_notice: Callable[[dict[str, Any]], None] | None,
    ) -> None:
        self.client = client
        # the heartbeat's own connection: renewing the leases never waits behind a burst
        # of lookups (50 players resuming at once after a failover)
        self.beat = beat
        self.node_id = node_id
        self.public_url = public_url
        self.lease_ms = lease_ms
        self.prefix = prefix
        self.on_lobby = on_lobby
        self.on_notice = on_notice
        # code -> generation of every lease this node holds
        self.leases: dict[str, int] = {}
        # code -> monotonic time until which this node may still act as its owner
        self._valid_until: dict[str, float] = {}
        self.on_lost: Callable[[list[str]], None] | None = None
        self.ops = 0  # Redis commands sent (a pipeline or script counts its commands)
        self._acquire = client.register_script(ACQUIRE)
        self._renew = client.register_script(RENEW)
        self._release = client.register_script(RELEASE)
        self._raise = client.register_script(RAISE)
        self._open: dict[str, str] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._closed = False

    @classmethod
    async def connect(
        cls,
        url: str,
        node_id: str,
        public_url: str,
        *,
        lease_ms: int = 5000,
        prefix: str = "spades:",
        on_lobby: Callable[[str], None] | None = None,
        on_notice: Callable[[dict[str, Any]], None] | None = None,
    ) -> Presence:
        """Connect to Redis at ``url``, register this node and start renewing its leases.

        ``on_lobby(node_id)`` is called when a node's open tables change, ``on_notice(obj)``
        for every notice another node publishes. Raises :class:`PresenceError` if Redis
        does not answer.
        """
        # a reply later than half a TTL is no better than none (and a busy event loop
        # reads replies late: a shorter timeout would fail commands that did succeed)
        timeout = max(0.2, lease_ms / 2000)
        options: dict[str, Any] = {
            "socket_timeout": timeout,
            "socket_connect_timeout": timeout,
            "decode_responses": True,
        }
        # a few connections, shared: a burst of commands waits for one instead of opening
        # a connection each (50 new tables at once would open 50)
        pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=16, timeout=max(10.0, lease_ms / 500), **options
        )
        # a renewal's reply may come late (a busy machine) and still count: the proof runs
        # from when it was sent, so waiting for it a whole TTL costs nothing in safety
        beat_options = {**options, "socket_timeout": lease_ms / 1000}
        beat_pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=1, timeout=lease_ms / 1000, **beat_options
        )
        client = aioredis.Redis(connection_pool=pool)
        beat = aioredis.Redis(connection_pool=beat_pool)
        presence = cls(client, beat, node_id, public_url, lease_ms, prefix, on_lobby, on_notice)
        try:
            await presence._heartbeat()
            await client.sadd(presence._key("nodes"), node_id)
        except RedisError as error:
            await presence._disconnect()
            raise PresenceError(f"cannot reach Redis at {url}: {error}") from None
        loop = asyncio.get_running_loop()
        presence._tasks.append(loop.create_task(presence._renew_forever()))
        if on_lobby is not None or on_notice is not None:
            presence._tasks.append(loop.create_task(presence._listen_forever()))
        return presence

    def _key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    # ---- leases ---------------------------------------------------------------------

    async def acquire(self, code: str) -> int | None:
        """Take the lease of table ``code``: its new generation, or ``None`` if another
        node (or this one) holds it. Raises :class:`PresenceError`."""
        started = time.monotonic()
        try:
            self.ops += 3
            result = await self._acquire(
                keys=[self._key("lease", code), self._key("gen", code)],
                args=[self.node_id, self.lease_ms],
            )
            if result is None:
                return None
            generation = int(result)
            self.ops += 1
            await self.client.sadd(self._key("tables"), code)
        except RedisError as error:
            raise PresenceError(f"cannot take the lease of {code}: {error}") from None
        self.leases[code] = generation
        self._valid_until[code] = started + self._safe_seconds()
        return generation

    def _safe_seconds(self) -> float:
        # Redis starts a lease's TTL when it runs the command, after we sent it, so the
        # lease is ours for at least the TTL from the send; 80% of it leaves room for the
        # two clocks running at slightly different rates (and for a commit under way: the
        # store's fence catches one that ends after a takeover)
        return self.lease_ms / 1000 * 0.8

    def holds(self, code: str) -> bool:
        """Whether this node can still prove it owns ``code`` (its lease is held and was
        renewed recently enough that it cannot have expired in Redis yet)."""
        until = self._valid_until.get(code)
        return until is not None and time.monotonic() < until

    async def release(self, code: str) -> None:
        """Give up the lease of ``code`` (if it is still ours); the table is closed or
        this node stops. Raises :class:`PresenceError`."""
        generation = self.leases.pop(code, None)
        self._valid_until.pop(code, None)
        if generation is None:
            return
        try:
            self.ops += 1
            await self._release(
                keys=[self._key("lease", code)], args=[f"{self.node_id} {generation}"]
            )
        except RedisError as error:
            raise PresenceError(f"cannot release the lease of {code}: {error}") from None

    async def raise_generation(self, code: str, floor: int) -> None:
        """Make the next lease of ``code`` come with a generation above ``floor`` (Redis
        lost its counters, say after a restart, while the store kept the fences).
        Raises :class:`PresenceError`."""
        try:
            self.ops += 1
            await self._raise(keys=[self._key("gen", code)], args=[floor])
        except RedisError as error:
            raise PresenceError(f"cannot raise the generation of {code}: {error}") from None

    def forget(self, code: str) -> None:
        """Stop renewing the lease of ``code`` without telling Redis (it is lost)."""
        self.leases.pop(code, None)
        self._valid_until.pop(code, None)

    async def owner(self, code: str) -> Lease | None:
        """Who holds table ``code`` now, or ``None``. Raises :class:`PresenceError`."""
        try:
            self.ops += 1
            value = await self.client.get(self._key("lease", code))
        except RedisError as error:
            raise PresenceError(f"cannot read the lease of {code}: {error}") from None
        if value is None:
            return None
        node_id, _, generation = str(value).partition(" ")
        return Lease(node_id, int(generation))

    async def node_url(self, node_id: str) -> str | None:
        """The public URL of a live node, or ``None``. Raises :class:`PresenceError`."""
        try:
            self.ops += 1
            value = await self.client.get(self._key("node", node_id))
        except RedisError as error:
            raise PresenceError(f"cannot read node {node_id}: {error}") from None
        return None if value is None else str(value)

    async def forget_table(self, code: str) -> None:
        """Table ``code`` is closed: off the set of tables and released. Raises
        :class:`PresenceError`."""
        try:
            self.ops += 1
            await self.client.srem(self._key("tables"), code)
        except RedisError as error:
            raise PresenceError(f"cannot forget table {code}: {error}") from None
        await self.release(code)

    async def add_tables(self, codes: list[str]) -> None:
        """Record tables that exist (say, every unfinished table of the store at start)."""
        if not codes:
            return
        try:
            self.ops += 1
            await self.client.sadd(self._key("tables"), *codes)
        except RedisError as error:
            raise PresenceError(f"cannot record tables: {error}") from None

    async def orphans(self, limit: int = 1000) -> list[str]:
        """Codes of tables that exist but whose lease nobody holds (at most ``limit``).
        Raises :class:`PresenceError`."""
        try:
            self.ops += 1
            codes = sorted(str(c) for c in await self.client.smembers(self._key("tables")))
            if not codes:
                return []
            out: list[str] = []
            for start in range(0, len(codes), 500):
                chunk = codes[start : start + 500]
                self.ops += 1
                values = await self.client.mget([self._key("lease", c) for c in chunk])
                out.extend(code for code, value in zip(chunk, values, strict=True) if not value)
                if len(out) >= limit:
                    break
            return out[:limit]
        except RedisError as error:
            raise PresenceError(f"cannot scan the tables: {error}") from None

    # ---- players ----------------------------------------------------------------------

    async def seat(self, player_id: str, code: str) -> None:
        """``player_id`` sits at ``code``. Raises :class:`PresenceError`."""
        try:
            self.ops += 1
            await self.client.sadd(self._key("player", player_id), code)
        except RedisError as error:
            raise PresenceError(f"cannot record a seat: {error}") from None

    async def unseat(self, player_id: str, code: str) -> None:
        """``player_id`` no longer sits at ``code``. Raises :class:`PresenceError`."""
        try:
            self.ops += 1
            await self.client.srem(self._key("player", player_id), code)
        except RedisError as error:
            raise PresenceError(f"cannot record a seat: {error}") from None

    async def player_tables(self, player_id: str) -> list[str]:
        """The codes of the tables ``player_id`` sits at. Raises :class:`PresenceError`."""
        try:
            self.ops += 1
            members = await self.client.smembers(self._key("player", player_id))
            return sorted(str(c) for c in members)
        except RedisError as error:
            raise PresenceError(f"cannot read a player's tables: {error}") from None

    # ---- the lobby --------------------------------------------------------------------

    async def publish_open(self, summaries: dict[str, str]) -> None:
        """Make ``summaries`` (code -> JSON) this node's whole list of open tables and tell
        the other nodes. Raises :class:`PresenceError`."""
        key = self._key("open", self.node_id)
        try:
            async with self.client.pipeline(transaction=True) as pipe:
                pipe.delete(key)
                if summaries:
                    pipe.hset(key, mapping=dict[Any, Any](summaries))
                    pipe.pexpire(key, self.lease_ms)
                pipe.publish(self._key("lobby"), self.node_id)
                self.ops += 4
                await pipe.execute()
        except RedisError as error:
            raise PresenceError(f"cannot publish the open tables: {error}") from None
        self._open = dict(summaries)

    async def open_tables(self) -> dict[str, dict[str, str]]:
        """Every live node's open tables: node id -> (code -> summary JSON). Raises
        :class:`PresenceError`."""
        try:
            self.ops += 1
            nodes = sorted(str(n) for n in await self.client.smembers(self._key("nodes")))
            out: dict[str, dict[str, str]] = {}
            for node_id in nodes:
                self.ops += 1
                tables = await self.client.hgetall(self._key("open", node_id))
                if tables:
                    out[node_id] = {str(k): str(v) for k, v in tables.items()}
            return out
        except RedisError as error:
            raise PresenceError(f"cannot read the open tables: {error}") from None

    async def notice(self, obj: dict[str, Any]) -> None:
        """Publish a notice (a JSON object) to every node. Raises :class:`PresenceError`."""
        try:
            self.ops += 1
            await self.client.publish(
                self._key("notice"), json.dumps({"from": self.node_id, **obj})
            )
        except RedisError as error:
            raise PresenceError(f"cannot publish a notice: {error}") from None

    # ---- background -------------------------------------------------------------------

    async def _heartbeat(self) -> None:
        """Renew this node's registration, its open tables and every lease it holds."""
        started = time.monotonic()
        held = dict(self.leases)  # as of now: a lease taken or released meanwhile waits
        codes = list(held)
        async with self.beat.pipeline(transaction=False) as pipe:
            pipe.set(self._key("node", self.node_id), self.public_url, px=self.lease_ms)
            if self._open:
                pipe.pexpire(self._key("open", self.node_id), self.lease_ms)
            self.ops += 2
            await pipe.execute()
        if not codes:
            return
        kept: list[int] = []
        for start in range(0, len(codes), 500):
            chunk = codes[start : start + 500]
            self.ops += 2 * len(chunk)
            kept.extend(
                await self._renew(
                    client=self.beat,
                    keys=[self._key("lease", c) for c in chunk],
                    args=[self.lease_ms, *(f"{self.node_id} {held[c]}" for c in chunk)],
                )
            )
        lost: list[str] = []
        until = started + self._safe_seconds()
        for code, ok in zip(codes, kept, strict=True):
            if self.leases.get(code) != held[code]:
                continue  # released (or taken again) meanwhile
            if ok:
                self._valid_until[code] = until
            else:
                lost.append(code)
                self.forget(code)
        if lost:
            log.error("leases lost (taken over or expired): %s", ", ".join(lost))
            if self.on_lost is not None:
                self.on_lost(lost)

    async def _renew_forever(self) -> None:
        # four renewals per TTL: three may be late (a busy loop) before the trust ends
        interval = self.lease_ms / 1000 / 4
        while not self._closed:
            await asyncio.sleep(interval)
            try:
                await self._heartbeat()
            except RedisError as error:
                # nothing renewed: holds() turns false by itself when the margin runs out
                log.error("cannot renew the leases: %s", error)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lease renewal failed")

    async def _listen_forever(self) -> None:
        lobby, notice = self._key("lobby"), self._key("notice")
        while not self._closed:
            try:
                async with self.client.pubsub() as pubsub:
                    await pubsub.subscribe(lobby, notice)
                    async for message in pubsub.listen():
                        if message.get("type") != "message":
                            continue
                        self._deliver(str(message["channel"]), str(message["data"]))
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as error:
                log.error("lost the Redis subscription: %s", error)
                await asyncio.sleep(self.lease_ms / 1000 / 3)

    def _deliver(self, channel: str, data: str) -> None:
        try:
            if channel == self._key("lobby") and self.on_lobby is not None:
                self.on_lobby(data)
            elif channel == self._key("notice") and self.on_notice is not None:
                obj = json.loads(data)
                if isinstance(obj, dict) and obj.get("from") != self.node_id:
                    self.on_notice(obj)
        except Exception:
            log.exception("a presence message could not be handled")

    async def close(self, release: bool = True) -> None:
        """Stop renewing; with ``release``, give up every lease and this node's open
        tables (a clean shutdown: other nodes take the tables over at once)."""
        self._closed = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if release:
            with contextlib.suppress(RedisError, PresenceError):
                for code in list(self.leases):
                    await self.release(code)
                async with self.client.pipeline(transaction=False) as pipe:
                    pipe.delete(self._key("open", self.node_id))
                    pipe.delete(self._key("node", self.node_id))
                    pipe.publish(self._key("lobby"), self.node_id)
                    await pipe.execute()
        self.leases.clear()
        self._valid_until.clear()
        await self._disconnect()

    async def _disconnect(self) -> None:
        for client in (self.client, self.beat):
            with contextlib.suppress(Exception):
                await client.aclose()
                await client.connection_pool.disconnect()
