"""The JSON subprotocol: the same messages as msgpack, in text frames, validated the same."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import msgpack
import pytest
from hypothesis import given
from hypothesis import strategies as st
from websockets.asyncio.client import connect

from protocol import messages as m
from protocol.codec import (
    JSON_SUBPROTOCOL,
    MAX_SERVER_MESSAGE_BYTES,
    decode_client,
    decode_client_json,
    decode_server,
    decode_server_json,
    encode,
    encode_json,
    json_from_msgpack,
)
from protocol.errors import DecodeError
from protocol.examples import client_examples, server_examples
from server import RunningServer
from tests.protocol.strategies import FIXED, client_data, server_data
from tests.server.helpers import FAST, Client, play_to_end, run


class JsonClient(Client):
    """The test client speaking the JSON subprotocol (text frames) instead of msgpack."""

    @classmethod
    async def open(cls, url: str) -> Client:
        ws = await connect(
            url,
            max_size=MAX_SERVER_MESSAGE_BYTES,
            compression=None,
            subprotocols=[JSON_SUBPROTOCOL],  # type: ignore[list-item]
        )
        assert ws.subprotocol == JSON_SUBPROTOCOL
        return cls(ws)

    async def _read(self) -> None:
        try:
            async for data in self.ws:
                assert isinstance(data, str), "the server sent a binary frame"
                self.raw.append(data.encode())
                await self.inbox.put(decode_server_json(data))
        except Exception:
            pass
        finally:
            await self.inbox.put(None)

    async def send(self, message: Any) -> None:
        await self.ws.send(encode_json(message))


@pytest.mark.parametrize("message", client_examples(), ids=lambda x: x.type)
def test_every_client_message_round_trips_through_json(message: m.ClientMessage) -> None:
    text = encode_json(message)
    assert decode_client_json(text) == message
    # the same fields and values as the msgpack encoding
    assert json.loads(json_from_msgpack(encode(message))) == json.loads(text)


@pytest.mark.parametrize("message", server_examples(), ids=lambda x: x.type)
def test_every_server_message_round_trips_through_json(message: m.ServerMessage) -> None:
    text = encode_json(message)
    assert decode_server_json(text) == message
    assert json.loads(json_from_msgpack(encode(message))) == json.loads(text)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("[1, 2]", "JSON object"),
        ("not json", "not valid JSON"),
        ('{"type": "ping", "nonce": NaN}', "not valid JSON"),
        ('{"type": "hello", "protocol_version": 1.0, "name": "a"}', "protocol_version"),
        ('{"type": "hello", "protocol_version": true, "name": "a"}', "protocol_version"),
        ('{"type": "hello", "protocol_version": 1, "name": "a", "extra": 1}', "extra"),
        ('{"type": "teleport"}', "type"),
        ('{"type": "join_table", "code": "../x"}', "code"),
        (
            '{"type": "action", "code": "AB", "action": {"kind": "play", "card": "1S"}, '
            '"version": 1, "seq": 1}',
            "card",
        ),
    ],
)
def test_bad_json_is_refused_with_a_reason(text: str, reason: str) -> None:
    with pytest.raises(DecodeError) as caught:
        decode_client_json(text)
    assert reason in str(caught.value)
    assert caught.value.code == "bad_message"


def test_json_size_is_counted_in_utf8_bytes() -> None:
    name = "é" * 24  # 24 characters, 48 bytes
    text = encode_json(m.Hello(protocol_version=1, name=name))
    assert decode_client_json(text).name == name  # type: ignore[union-attr]
    with pytest.raises(DecodeError) as caught:
        decode_client_json(text, max_size=len(text) + 10)
    assert caught.value.code == "too_large"
    with pytest.raises(DecodeError):
        decode_client_json(text.encode())  # type: ignore[arg-type]  # bytes: not a text frame


def test_msgpack_codec_is_unchanged_by_json() -> None:
    hello = m.Hello(protocol_version=1, name="ada")
    assert decode_client(encode(hello)) == hello
    with pytest.raises(DecodeError):
        decode_client(encode_json(hello).encode())


def test_a_json_client_plays_a_whole_game_against_the_bot() -> None:
    async def test(server: RunningServer) -> None:
        client = await JsonClient.hello(server.url, "browser")
        snap = await client.request(
            m.CreateTable(preset="classic", overrides=FAST, bot="easy"), m.Snapshot
        )
        assert snap.view.seat == 0
        over = await play_to_end(client, random.Random(13))
        assert isinstance(over, m.GameOver)
        assert all(isinstance(frame, bytes) for frame in client.raw)
        await client.close()

    run(test)


def test_json_and_msgpack_seats_hear_the_same_public_events() -> None:
    async def test(server: RunningServer) -> None:
        browser = await JsonClient.hello(server.url, "browser")
        terminal = await Client.hello(server.url, "terminal")
        snap = await browser.request(
            m.CreateTable(preset="classic", overrides=FAST, private=True), m.Snapshot
        )
        code = snap.table.code
        joined = await terminal.request(m.JoinTable(code=code), m.Snapshot)
        assert joined.view.seat == 1
        rng = random.Random(5)
        # play both seats until the first trick is won, then compare public events
        seen: dict[str, list[m.Events]] = {"browser": [], "terminal": []}

        async def pump(who: str, client: Client) -> None:
            while True:
                message = await client.recv(20)
                if isinstance(message, m.Events):
                    seen[who].append(message)
                    if any(e.kind == "trick_won" for e in message.events):
                        return
                elif isinstance(message, m.YourTurn):
                    action = rng.choice(message.legal) if message.legal else m.ExchangeAction()
                    client.seq += 1
                    await client.send(
                        m.Act(code=code, action=action, version=message.version, seq=client.seq)
                    )
                elif isinstance(message, m.ErrorMessage):
                    raise AssertionError(message)

        await asyncio.gather(pump("browser", browser), pump("terminal", terminal))
        public = [
            [e for e in events.events if e.kind in ("bid", "card_played", "trick_won")]
            for events in seen["browser"]
        ]
        public_terminal = [
            [e for e in events.events if e.kind in ("bid", "card_played", "trick_won")]
            for events in seen["terminal"]
        ]
        assert public == public_terminal and any(public)
        await browser.close()
        await terminal.close()

    run(test)


def test_bad_frames_on_a_json_connection_get_errors_and_change_nothing() -> None:
    async def test(server: RunningServer) -> None:
        client = await JsonClient.hello(server.url, "browser")
        snap = await client.request(
            m.CreateTable(preset="classic", overrides=FAST, bot="easy"), m.Snapshot
        )
        code = snap.table.code
        turn = await client.expect(m.YourTurn)
        before = await client.snapshot(code)
        for frame in [b"\x81\xa4type\xa4ping", "{", '{"type": "ping", "nonce": -1}']:
            await client.send_raw(frame)
            error = await client.expect(m.ErrorMessage)
            assert error.code == "bad_message"
        # a readable type and id are echoed, as for msgpack (protocol 1.1)
        await client.send_raw('{"type": "ping", "nonce": -1, "id": 9}')
        error = await client.expect(m.ErrorMessage)
        assert (error.code, error.request, error.id) == ("bad_message", "ping", 9)
        await client.send_raw(
            json.dumps(
                {
                    "type": "action",
                    "code": code,
                    "action": {"kind": "bid", "tricks": 3},
                    "version": turn.version,
                    "seq": 1,
                    "id": 7,
                }
            )
        )
        error = await client.expect(m.ErrorMessage)
        assert error.code == "illegal_action" and error.id == 7
        after = await client.snapshot(code)
        assert after.view == before.view
        await client.close()

    run(test)


def test_a_client_offering_no_or_unknown_subprotocols_speaks_msgpack() -> None:
    async def test(server: RunningServer) -> None:
        for offered in (None, ["chat"]):
            ws = await connect(server.url, subprotocols=offered)  # type: ignore[arg-type]
            assert ws.subprotocol is None
            await ws.send(encode(m.Hello(protocol_version=1, name="old")))
            data = await ws.recv()
            assert isinstance(data, bytes)
            await ws.close()

    run(test)


def json_values() -> st.SearchStrategy[Any]:
    """Any value JSON can carry (finite numbers only), nested a little."""
    scalars = (
        st.none()
        | st.booleans()
        | st.integers(-(2**63), 2**64 - 1)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(max_size=20)
        | st.sampled_from(["type", "kind", "hello", "action", "ping", "QS", "10H", "K7QF"])
    )
    return st.recursive(
        scalars,
        lambda children: (
            st.lists(children, max_size=4)
            | st.dictionaries(st.text(max_size=8), children, max_size=4)
        ),
        max_leaves=8,
    )


def both_ways(data: Any) -> tuple[Any, Any]:
    """The outcome of decoding ``data`` as msgpack and as JSON: a message or "refused"."""
    outcomes = []
    for decode, blob in (
        (decode_client, msgpack.packb(data, use_bin_type=True)),
        (decode_client_json, json.dumps(data)),
    ):
        try:
            outcomes.append(decode(blob))  # type: ignore[operator]
        except DecodeError:
            outcomes.append("refused")
    return outcomes[0], outcomes[1]


@FIXED
@given(client_data())
def test_json_and_msgpack_decode_every_valid_client_message_alike(data: dict[str, Any]) -> None:
    via_msgpack, via_json = both_ways(data)
    assert via_msgpack != "refused" and via_json == via_msgpack


@FIXED
@given(server_data())
def test_json_and_msgpack_decode_every_valid_server_message_alike(data: dict[str, Any]) -> None:
    assert decode_server_json(json.dumps(data)) == decode_server(msgpack.packb(data))


@FIXED
@given(client_data(), st.data())
def test_json_refuses_exactly_what_msgpack_refuses(message: dict[str, Any], draw: Any) -> None:
    broken = dict(message)
    key = draw.draw(st.sampled_from(sorted(broken)), label="field")
    how = draw.draw(st.sampled_from(["drop", "replace", "extra"]), label="how")
    if how == "drop":
        del broken[key]
    elif how == "replace":
        broken[key] = draw.draw(json_values(), label="value")
    else:
        broken["unexpected_" + key] = 1
    via_msgpack, via_json = both_ways(broken)
    assert via_json == via_msgpack


@FIXED
@given(st.text(max_size=200))
def test_any_text_is_a_message_or_a_decode_error(text: str) -> None:
    try:
        message = decode_client_json(text)
    except DecodeError as error:
        assert error.code in ("bad_message", "too_large")
    else:
        assert decode_client_json(encode_json(message)) == message
