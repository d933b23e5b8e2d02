"""The shuffle's test vectors and worked examples, as ``docs/protocol.md`` shows them.

:mod:`protocol.schema` writes :func:`shuffle_example` into the document's
``shuffle-example`` region; every figure in it comes from :mod:`engine.shuffle` (or from
SHA-256 over bytes laid out exactly as the document says), so a re-implementation can be
checked against it byte by byte::

    from protocol.shuffle_vectors import shuffle_example, key_preimage
    text = shuffle_example()                              # Markdown
    data = key_preimage(SHUFFLE_SEED, WORKED_ENTROPY)     # the bytes SHA-256 makes the key of

Nothing here raises for the fixed inputs it is used with.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Final

from engine import CARDS, shuffled_deck

__all__ = [
    "DOMAIN",
    "SHUFFLE_ENTROPY",
    "SHUFFLE_SEED",
    "WORKED_ENTROPY",
    "first_drafter_of_seed",
    "key_preimage",
    "shuffle_example",
]

DOMAIN: Final = b"spades/v1"
"""The bytes every shuffle key starts with."""
SHUFFLE_SEED: Final = bytes(range(32))
SHUFFLE_ENTROPY: Final = (b"\x01\x02\x03", b"seat one")
WORKED_ENTROPY: Final = (b"", b"seat one")
"""The worked example's entropy: seat 0 sent none (``""``), seat 1 sent ``b"seat one"``."""


def key_preimage(seed: bytes, entropy: Sequence[bytes]) -> bytes:
    """The bytes whose SHA-256 is the shuffle key: domain, seed, then each value with its
    2-byte length (an empty value is its length ``00 00`` alone)."""
    return DOMAIN + seed + b"".join(len(e).to_bytes(2, "big") + e for e in entropy)


def first_drafter_of_seed(seed: bytes) -> int:
    """The first drafter of a game's first hand (since 1.1): the first ``below(2)`` of the
    stream of the seed alone. Its first word is always taken (2**32 is even)."""
    key = hashlib.sha256(DOMAIN + seed).digest()
    block = hashlib.sha256(key + bytes(8)).digest()
    return int.from_bytes(block[:4], "big") % 2


def _stock(seed: bytes, entropy: Sequence[bytes]) -> str:
    return " ".join(str(CARDS[i]) for i in shuffled_deck(seed, tuple(entropy)))


def _vectors() -> list[str]:
    lines = []
    for entropy in ((), SHUFFLE_ENTROPY, WORKED_ENTROPY):
        deck = shuffled_deck(SHUFFLE_SEED, entropy)
        entropy_text = json.dumps([value.hex() for value in entropy])
        lines += [
            f"- seed `{SHUFFLE_SEED.hex()}`, entropy `{entropy_text}`",
            f"  - commitment `{hashlib.sha256(SHUFFLE_SEED).hexdigest()}`",
            f"  - indices `{' '.join(str(i) for i in deck)}`",
            f"  - stock, top card first: `{_stock(SHUFFLE_SEED, entropy)}`",
        ]
    return lines


def _worked_key() -> list[str]:
    seed, entropy = SHUFFLE_SEED, WORKED_ENTROPY
    data = key_preimage(seed, entropy)
    key = hashlib.sha256(data).digest()
    block = hashlib.sha256(key + bytes(8)).digest()
    words = " ".join(block[k : k + 4].hex() for k in range(0, 32, 4))
    skipped = tuple(value for value in entropy if value)
    wrong_key = hashlib.sha256(key_preimage(seed, skipped)).hexdigest()
    seed_key = hashlib.sha256(DOMAIN + seed).digest()
    seed_block = hashlib.sha256(seed_key + bytes(8)).hexdigest()
    rows = [
        ("`7370616465732f7631`", 9, 'the domain, `b"spades/v1"`'),
        (f"`{seed.hex()}`", 32, "the seed"),
        ("`0000`", 2, 'seat 0\'s length: 0 (its value `""` adds no bytes, its length does)'),
        ("`0008`", 2, "seat 1's length: 8"),
        (f"`{entropy[1].hex()}`", 8, 'seat 1\'s value, `b"seat one"`'),
    ]
    assert b"".join(bytes.fromhex(row[0].strip("`")) for row in rows) == data
    return [
        "The key, byte by byte, for the third vector (seat 0 sent nothing, seat 1 "
        '`b"seat one"`; `entropy` is `["", "73656174206f6e65"]` in `hand_result`):',
        "",
        "| bytes (hex) | length | what |",
        "| --- | --- | --- |",
        *(f"| {hex_text} | {length} | {what} |" for hex_text, length, what in rows),
        "",
        f"- the {len(data)} bytes: `{data.hex()}`",
        f"- `key` = SHA-256 of them: `{key.hex()}`",
        f"- block 0 = SHA-256(`key` + `0000000000000000`): `{block.hex()}`, words `{words}`",
        f"- leaving seat 0's empty value out (the {len(key_preimage(seed, skipped))} bytes "
        f"without `0000`) gives another key, `{wrong_key}`, "
        f"and another stock: `{_stock(seed, skipped)}`: wrong for this hand.",
        f"- the first drafter of a game whose first hand has this seed: the first word of the "
        f"seed's own stream (`key` = SHA-256(`7370616465732f7631` + seed) = "
        f"`{seed_key.hex()}`, block 0 = `{seed_block}`) "
        f"mod 2: seat {first_drafter_of_seed(seed)}.",
    ]


def shuffle_example() -> str:
    """Test vectors for re-implementations of the shuffle, and the worked key."""
    return "\n".join([*_vectors(), "", *_worked_key()])
