"""Whatever the bytes, the decoders return a valid message or raise DecodeError.

Hypothesis draws random bytes, random msgpack objects, mutations of valid encodings
(flipped bytes, truncations, splices, insertions) and valid messages with one field
broken; a plain seeded fuzz loop adds many more mutations. Oversized input is refused
before msgpack ever sees it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from protocol import codec
from protocol import messages as m
from protocol.codec import (
    MAX_CLIENT_MESSAGE_BYTES,
    MAX_SERVER_MESSAGE_BYTES,
    decode_client,
    decode_server,
    encode,
)
from protocol.errors import DecodeError
from protocol.examples import client_examples, server_examples
from tests.protocol.strategies import FIXED, client_data, msgpack_objects, server_data

Decoder = Callable[[bytes], BaseModel]
DECODERS: list[tuple[Decoder, Any]] = [
    (decode_client, m.CLIENT_ADAPTER),
    (decode_server, m.SERVER_ADAPTER),
]
VALID = [encode(x) for x in (*client_examples(), *server_examples())]


def check(data: Any) -> None:
    """Both decoders: a valid message (that re-validates and re-encodes) or DecodeError."""
    for decode, adapter in DECODERS:
        try:
            message = decode(data)
        except DecodeError as error:
            assert error.code in m.ERROR_CODES
            assert str(error)
            continue
        assert adapter.validate_python(message) == message
        again = encode(message)
        assert decode(again) == message


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One random mutation of ``data``."""
    buf = bytearray(data)
    how = rng.randrange(6)
    if how == 0 and buf:  # flip bits of a few bytes
        for _ in range(rng.randint(1, 4)):
            buf[rng.randrange(len(buf))] ^= 1 << rng.randrange(8)
    elif how == 1 and buf:  # set a byte to an interesting value
        buf[rng.randrange(len(buf))] = rng.choice([0x00, 0x7F, 0x80, 0xC0, 0xC1, 0xFF, 0xDC, 0xDE])
    elif how == 2:  # truncate
        del buf[rng.randrange(len(buf) + 1) :]
    elif how == 3:  # splice with another valid message
        other = rng.choice(VALID)
        cut, at = rng.randrange(len(buf) + 1), rng.randrange(len(other) + 1)
        buf = buf[:cut] + other[at:]
    elif how == 4:  # insert random bytes
        at = rng.randrange(len(buf) + 1)
        buf[at:at] = rng.randbytes(rng.randint(1, 8))
    else:  # duplicate a slice
        a = rng.randrange(len(buf) + 1)
        b = rng.randrange(a, len(buf) + 1)
        buf[b:b] = buf[a:b]
    return bytes(buf)


@settings(FIXED, max_examples=1500)
@given(st.binary(max_size=600))
def test_random_bytes(data: bytes) -> None:
    check(data)


@settings(FIXED, max_examples=300)
@given(msgpack_objects())
def test_random_msgpack_objects(obj: Any) -> None:
    check(msgpack.packb(obj, use_bin_type=True))


@settings(FIXED, max_examples=1500)
@given(st.sampled_from(VALID), st.randoms(use_true_random=False), st.integers(1, 5))
def test_mutated_valid_messages(data: bytes, rng: random.Random, rounds: int) -> None:
    for _ in range(rounds):
        data = mutate(data, rng)
    check(data)


@settings(FIXED, max_examples=250)
@given(st.one_of(client_data(), server_data()), st.data())
def test_valid_messages_with_one_field_broken(message: dict[str, Any], draw: st.DataObject) -> None:
    broken = dict(message)
    key = draw.draw(st.sampled_from(sorted(broken)), label="field")
    how = draw.draw(st.sampled_from(["drop", "replace", "extra"]), label="how")
    if how == "drop":
        del broken[key]
    elif how == "replace":
        broken[key] = draw.draw(msgpack_objects(), label="value")
    else:
        broken["unexpected_" + key] = 1
    check(msgpack.packb(broken, use_bin_type=True))
    if how == "extra":
        for decode, _ in DECODERS:
            with pytest.raises(DecodeError):
                decode(msgpack.packb(broken, use_bin_type=True))


def test_seeded_fuzz_loop() -> None:
    """Many cheap mutations, fixed seed: a broader sweep than hypothesis alone."""
    rng = random.Random(1130)
    decoded = 0
    for _ in range(30_000):
        data = rng.choice(VALID)
        for _ in range(rng.randint(1, 3)):
            data = mutate(data, rng)
        for decode, _adapter in DECODERS:
            try:
                decode(data)
                decoded += 1
            except DecodeError:
                pass
    assert decoded > 0  # some mutations still decode (a changed seat, a shorter string...)


def test_nested_depth_is_refused_cleanly() -> None:
    deep = b"\x91" * 3000 + b"\xc0"  # 3000 nested one-element arrays
    check(deep)
    deep_map = b"\x81\xa1k" * 1300 + b"\xc0"
    check(deep_map)


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\xc1",  # never used in msgpack
        b"\x93\x01\x02\x03",  # an array, not a map
        msgpack.packb({"type": "hello"}),  # missing fields
        msgpack.packb({"type": "nope"}),  # unknown type
        msgpack.packb({"kind": "keep"}),  # no type
        msgpack.packb({1: 2}),  # non-string key
        msgpack.packb({"type": b"ping"}, use_bin_type=True),  # bytes, not a string
        msgpack.packb({"type": "ping", "nonce": True}),  # bool is not an int
        msgpack.packb({"type": "ping", "nonce": 1.0}),  # float is not an int
        msgpack.packb({"type": "ping", "nonce": 2**64 - 1}),  # out of range
        msgpack.packb({"type": "ping", "id": -1}),
        msgpack.packb({"type": "ping", "extra": 1}),  # unknown field
        msgpack.packb({"type": "ping"}) + b"\x00",  # trailing bytes
        msgpack.packb(msgpack.ExtType(5, b"xx")),
        b"\xa3\xff\xfe\xfd",  # invalid UTF-8 string
        b"\xdd\xff\xff\xff\xff",  # array claiming 4 billion items
        b"\xdf\xff\xff\xff\xff",  # map claiming 4 billion pairs
    ],
)
def test_known_bad_inputs_raise_decode_error(data: bytes) -> None:
    for decode, _ in DECODERS:
        with pytest.raises(DecodeError) as caught:
            decode(data)
        assert caught.value.code == "bad_message"


@pytest.mark.parametrize("text", ["", '{"type": "ping"}', "\x81\xa4type\xa4ping"])
def test_text_input_raises_decode_error(text: str) -> None:
    for decode, _ in DECODERS:
        with pytest.raises(DecodeError, match="binary"):
            decode(text)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [None, 5, ["a"], {"type": "ping"}])
def test_other_python_values_raise_decode_error(value: Any) -> None:
    for decode, _ in DECODERS:
        with pytest.raises(DecodeError):
            decode(value)


def test_bytearray_and_memoryview_are_accepted() -> None:
    data = encode(m.Ping(nonce=3))
    assert decode_client(bytearray(data)) == m.Ping(nonce=3)  # type: ignore[arg-type]
    assert decode_client(memoryview(data)) == m.Ping(nonce=3)  # type: ignore[arg-type]


def oversized(limit: int) -> bytes:
    """A valid message one byte over ``limit``."""
    size = limit - 32
    while True:
        data = msgpack.packb({"type": "chat", "code": "T1", "text": "x" * size})
        if len(data) >= limit + 1:
            assert len(data) == limit + 1
            return data
        size += 1


@pytest.mark.parametrize(
    ("decode", "limit"),
    [(decode_client, MAX_CLIENT_MESSAGE_BYTES), (decode_server, MAX_SERVER_MESSAGE_BYTES)],
)
def test_oversized_input_is_refused_before_unpacking(
    decode: Decoder, limit: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = oversized(limit)
    unpacked: list[int] = []
    real = msgpack.unpackb

    def spy(packed: bytes, **kwargs: Any) -> Any:
        unpacked.append(len(packed))
        return real(packed, **kwargs)

    monkeypatch.setattr(codec.msgpack, "unpackb", spy)
    with pytest.raises(DecodeError) as caught:
        decode(data)
    assert caught.value.code == "too_large"
    assert str(limit) in str(caught.value)
    assert unpacked == []
    # exactly at the limit it is read (and then judged on its content)
    at_limit = data[:-1]
    with pytest.raises(DecodeError) as caught:
        decode(at_limit)
    assert caught.value.code == "bad_message"
    assert unpacked == [limit]


def test_client_limit_is_4_kib() -> None:
    assert MAX_CLIENT_MESSAGE_BYTES == 4096
    chat = m.Chat(code="T1", text="é" * 1000)  # the longest chat fits
    assert len(encode(chat)) <= MAX_CLIENT_MESSAGE_BYTES


def test_a_wide_memoryview_is_measured_in_bytes() -> None:
    import array

    words = array.array("I", [0] * (MAX_CLIENT_MESSAGE_BYTES // 4 + 1))  # 4100 bytes
    view = memoryview(words)
    assert len(view) < MAX_CLIENT_MESSAGE_BYTES < view.nbytes
    with pytest.raises(DecodeError) as caught:
        decode_client(view)  # type: ignore[arg-type]
    assert caught.value.code == "too_large"
