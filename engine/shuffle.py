"""The fair, verifiable shuffle.

A hand's randomness is a server seed of at least 256 bits (32 bytes) from outside the
engine, optionally mixed with one random value per seat. The commitment, published
before the first card is drawn, is ``SHA-256(seed)`` in hex; the seed has 256 bits of
entropy, so the hash hides it. When the hand is over the seed is revealed and anyone can
check it::

    deck = shuffled_deck(seed, entropy)          # the stock, top card first
    assert verify(commitment, seed, entropy, deck)

The stream behind the shuffle is SHA-256 in counter mode over
``b"spades/v1" + seed + for each entropy value: 2-byte length + value``; Fisher-Yates
draws each index by rejection sampling, so every deck order is equally likely. The same
stream then decides the first drafter of a game's first hand and the cards a blind-nil
seat draws from the pile.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence

from engine.errors import ShuffleError

__all__ = [
    "MAX_ENTROPY_BYTES",
    "MIN_SEED_BYTES",
    "RandomStream",
    "commitment_of",
    "shuffled_deck",
    "verify",
]

MIN_SEED_BYTES = 32
MAX_SEED_BYTES = 64
MAX_ENTROPY_BYTES = 64


def _check(seed: bytes, entropy: Sequence[bytes]) -> None:
    if not isinstance(seed, bytes) or not MIN_SEED_BYTES <= len(seed) <= MAX_SEED_BYTES:
        raise ShuffleError(
            f"a shuffle seed must be {MIN_SEED_BYTES}..{MAX_SEED_BYTES} bytes (256+ bits)"
        )
    if len(entropy) > 2:
        raise ShuffleError("at most one entropy value per seat (two in all)")
    for value in entropy:
        if not isinstance(value, bytes) or len(value) > MAX_ENTROPY_BYTES:
            raise ShuffleError(f"a seat's entropy must be at most {MAX_ENTROPY_BYTES} bytes")


def commitment_of(seed: bytes) -> str:
    """The public commitment to ``seed``: SHA-256 of it, in lowercase hex."""
    return hashlib.sha256(seed).hexdigest()


class RandomStream:
    """A deterministic stream of unbiased integers drawn from a seed and seat entropy.

    Raises :class:`~engine.errors.ShuffleError` if the seed or entropy is unusable.
    """

    __slots__ = ("_buffer", "_counter", "_key")

    def __init__(self, seed: bytes, entropy: Sequence[bytes] = ()) -> None:
        _check(seed, entropy)
        key = b"spades/v1" + seed
        for value in entropy:
            key += len(value).to_bytes(2, "big") + value
        self._key = hashlib.sha256(key).digest()
        self._counter = 0
        self._buffer = b""

    def _word(self) -> int:
        if len(self._buffer) < 4:
            block = hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._buffer += block
        word, self._buffer = self._buffer[:4], self._buffer[4:]
        return int.from_bytes(word, "big")

    def below(self, bound: int) -> int:
        """A uniform integer in ``0 .. bound - 1`` (``bound`` at most 2**32)."""
        limit = (1 << 32) - (1 << 32) % bound
        while True:
            word = self._word()
            if word < limit:
                return word % bound

    def shuffle(self, items: list[int]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[int], count: int) -> list[int]:
        """``count`` distinct items drawn uniformly, in draw order."""
        pool = list(items)
        chosen = []
        for _ in range(count):
            chosen.append(pool.pop(self.below(len(pool))))
        return chosen


def shuffled_deck(seed: bytes, entropy: Sequence[bytes] = ()) -> list[int]:
    """The stock order for ``seed`` and ``entropy``: 52 card indices, top card first."""
    deck = list(range(52))
    RandomStream(seed, entropy).shuffle(deck)
    return deck


def verify(
    commitment: str, seed: bytes, entropy: Sequence[bytes], deck: Sequence[int] | None = None
) -> bool:
    """Whether ``seed`` matches ``commitment`` and (if given) produces ``deck``.

    Anyone can call it after a hand with the revealed seed; it never raises.
    """
    try:
        if not hmac.compare_digest(commitment_of(seed), commitment.lower()):
            return False
        return deck is None or list(deck) == shuffled_deck(seed, entropy)
    except (ShuffleError, TypeError, AttributeError):
        return False
