"""The accounts' attempt limits of a cluster, counted once in Redis for every node.

    attempts = RedisAttempts("redis://127.0.0.1:6379/0", ALLOWANCES)
    if not await attempts.take("sign_in_account", skeleton): ...   # refused
    await attempts.give_back("sign_in_account", skeleton)
    await attempts.close()

Each bucket is a hash ``limits:KIND:KEY`` (under ``prefix``, ``spades:`` by default) of
its tokens and the time they were counted, read and written by one Lua script, so two
nodes spending the same account's attempt at once never both get the last one. The
script reads Redis's own clock (``TIME``): every node counts by one clock. A bucket
expires once it would be full again (its window), so Redis keeps only the keys that were
tried lately. The buckets are those of :class:`~server.accounts.limits.MemoryAttempts`
(the same :class:`~server.accounts.limits.Allowance` each).

Nothing raises: while Redis cannot be reached, attempts are counted in this node's memory
(one node's allowance, as a server on its own has) and the failure is logged once until
Redis answers again; a limit of sign-ins must not stop sign-ins when Redis blinks.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from server.accounts.limits import ALLOWANCES, Allowance, MemoryAttempts

__all__ = ["RedisAttempts"]

log = logging.getLogger("server.cluster")

# KEYS[1] the bucket; ARGV burst, rate (tokens a second), window ms. Returns 1 when an
# attempt was taken, 0 when none was left.
TAKE = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1000000
local burst, rate = tonumber(ARGV[1]), tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens, at = tonumber(state[1]), tonumber(state[2])
if tokens == nil or at == nil then tokens, at = burst, t end
tokens = math.min(burst, tokens + math.max(0, t - at) * rate)
local taken = 0
if tokens >= 1 then
  tokens = tokens - 1
  taken = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(t))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return taken
"""

# KEYS[1] the bucket; ARGV burst. One token back, never above the burst.
GIVE_BACK = """
local tokens = tonumber(redis.call('HGET', KEYS[1], 'tokens'))
if tokens == nil then return 0 end
redis.call('HSET', KEYS[1], 'tokens', tostring(math.min(tonumber(ARGV[1]), tokens + 1)))
return 1
"""


class RedisAttempts:
    """The :class:`~server.accounts.limits.Attempts` of a cluster node (see the module)."""

    def __init__(
        self,
        url: str,
        allowances: Mapping[str, Allowance] = ALLOWANCES,
        prefix: str = "spades:",
    ) -> None:
        self.url, self.allowances, self.prefix = url, allowances, prefix
        # connects at the first command (redis-py opens connections as they are needed)
        self.client = aioredis.Redis.from_url(
            url, decode_responses=True, socket_timeout=2.0, socket_connect_timeout=2.0
        )
        self._take: Any = self.client.register_script(TAKE)
        self._give_back: Any = self.client.register_script(GIVE_BACK)
        self.fallback = MemoryAttempts(allowances)  # while Redis cannot be reached
        self._failing = False

    def _key(self, kind: str, key: str) -> str:
        return f"{self.prefix}limits:{kind}:{key}"

    async def take(self, kind: str, key: str) -> bool:
        allowance = self.allowances[kind]
        window_ms = max(1, round(allowance.window * 1000))
        try:
            taken = await self._take(
                keys=[self._key(kind, key)], args=[allowance.burst, allowance.rate, window_ms]
            )
        except (RedisError, OSError) as error:
            self._failed(error)
            return self.fallback.take_now(kind, key)
        self._failing = False
        return bool(taken)

    async def give_back(self, kind: str, key: str) -> None:
        try:
            await self._give_back(keys=[self._key(kind, key)], args=[self.allowances[kind].burst])
        except (RedisError, OSError) as error:
            self._failed(error)
        self.fallback.give_back_now(kind, key)

    def _failed(self, error: Exception) -> None:
        if not self._failing:
            log.error("attempt limits counted on this node only: Redis failed: %s", error)
        self._failing = True

    async def close(self) -> None:
        try:
            await self.client.aclose()
            await self.client.connection_pool.disconnect()
        except (RedisError, OSError):
            pass
