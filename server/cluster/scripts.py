"""The Lua scripts :mod:`server.cluster.presence` runs in Redis (each one atomic there)."""

from __future__ import annotations

__all__ = ["ACQUIRE", "RAISE", "RELEASE", "RENEW"]

# KEYS[1] lease, KEYS[2] generation counter; ARGV node id, ttl ms. A lease held by nobody
# is taken with the next generation; returns it, or nil if someone holds the lease.
ACQUIRE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return false end
local generation = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. generation, 'PX', ARGV[2])
return generation
"""

# KEYS: leases; ARGV[1] ttl ms, ARGV[2..]: the values this node set. Returns, per key,
# 1 if the lease was still ours and is extended, 0 if it is gone or someone else's.
RENEW = """
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[i + 1] then
    redis.call('PEXPIRE', key, ARGV[1])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""

# KEYS[1] lease; ARGV[1] our value: delete only a lease that is still ours
RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


# KEYS[1] generation counter; ARGV[1] floor: the counter is at least the floor afterwards
RAISE = """
local now = tonumber(redis.call('GET', KEYS[1]) or '0')
if now < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end
return 1
"""
