"""Every message type round-trips through encode/decode unchanged."""

from __future__ import annotations

import typing
from typing import Any

import msgpack
import pytest
from hypothesis import given
from pydantic import BaseModel

from protocol import messages as m
from protocol.codec import (
    MAX_CLIENT_MESSAGE_BYTES,
    MAX_SERVER_MESSAGE_BYTES,
    decode_client,
    decode_server,
    encode,
)
from protocol.errors import DecodeError
from protocol.examples import action_examples, client_examples, event_examples, server_examples
from tests.protocol.strategies import FIXED, client_data, server_data


def members(union: Any) -> list[type[BaseModel]]:
    """The model classes of an ``Annotated[A | B | ..., Field(discriminator=...)]`` union."""
    inner = typing.get_args(union)[0]
    return list(typing.get_args(inner))


def test_examples_cover_every_message_type() -> None:
    assert [type(x) for x in client_examples()] == members(m.ClientMessage)
    assert [type(x) for x in server_examples()] == members(m.ServerMessage)
    assert [type(x) for x in action_examples()] == members(m.ActionMessage)
    assert [type(x) for x in event_examples()] == members(m.EventMessage)


@pytest.mark.parametrize("message", client_examples(), ids=lambda x: x.type)
def test_client_message_round_trips(message: m.ClientMessage) -> None:
    data = encode(message)
    assert len(data) <= MAX_CLIENT_MESSAGE_BYTES
    assert decode_client(data) == message
    assert encode(decode_client(data)) == data


@pytest.mark.parametrize("message", server_examples(), ids=lambda x: x.type)
def test_server_message_round_trips(message: m.ServerMessage) -> None:
    data = encode(message)
    assert decode_server(data) == message
    assert encode(decode_server(data)) == data


@pytest.mark.parametrize("action", action_examples(), ids=lambda x: x.kind)
def test_every_action_kind_round_trips_inside_act_and_your_turn(action: m.ActionMessage) -> None:
    act = m.Act(code="T1", action=action, version=3, seq=1)
    assert decode_client(encode(act)) == act
    turn = m.YourTurn(table="T1", version=3, phase="play", legal=(action, action))
    assert decode_server(encode(turn)) == turn


@pytest.mark.parametrize("event", event_examples(), ids=lambda x: x.kind)
def test_every_event_kind_round_trips_inside_events(event: m.EventMessage) -> None:
    message = m.Events(table="T1", version=9, events=(event,))
    assert decode_server(encode(message)) == message


def test_client_messages_are_not_server_messages_and_back() -> None:
    """The two directions are separate unions: a message of one is refused by the other
    decoder unless a class of the same tag exists on both sides (``chat``)."""
    server_tags = {cls.model_fields["type"].default for cls in members(m.ServerMessage)}
    for message in client_examples():
        if message.type not in server_tags:
            with pytest.raises(DecodeError, match=r"type|tag"):
                decode_server(encode(message))


def test_missing_defaults_are_filled_in_and_encode_sends_every_field() -> None:
    minimal = msgpack.packb({"type": "ping"})
    assert decode_client(minimal) == m.Ping()
    full = msgpack.unpackb(encode(m.Ping()))
    assert full == {"type": "ping", "nonce": 0, "id": None}


@FIXED
@given(client_data())
def test_any_valid_client_data_round_trips(data: dict[str, Any]) -> None:
    message = m.CLIENT_ADAPTER.validate_python(data)
    wire = encode(message)
    assert decode_client(wire, max_size=MAX_SERVER_MESSAGE_BYTES) == message
    assert decode_client(msgpack.packb(data), max_size=MAX_SERVER_MESSAGE_BYTES) == message


@FIXED
@given(server_data())
def test_any_valid_server_data_round_trips(data: dict[str, Any]) -> None:
    message = m.SERVER_ADAPTER.validate_python(data)
    wire = encode(message)
    assert decode_server(wire) == message
    assert decode_server(msgpack.packb(data)) == message
