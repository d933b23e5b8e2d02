"""Protocol 1.2's one message, ``redirect``: valid URLs only, never on a 1.0/1.1 wire."""

from __future__ import annotations

import msgpack
import pytest

from protocol import messages as m
from protocol.codec import decode_server, encode, encode_for, wire_dict
from protocol.errors import DecodeError

REDIRECT = m.Redirect(url="ws://10.0.0.2:8765/", table="K7QX2M9A", request="join_table", id=3)


def test_a_redirect_round_trips_and_names_the_request() -> None:
    assert decode_server(encode(REDIRECT)) == REDIRECT
    assert wire_dict(REDIRECT, 2) == {
        "type": "redirect",
        "url": "ws://10.0.0.2:8765/",
        "table": "K7QX2M9A",
        "request": "join_table",
        "id": 3,
    }


@pytest.mark.parametrize("minor", [0, 1])
def test_a_redirect_never_reaches_a_1_0_or_1_1_connection(minor: int) -> None:
    assert encode_for(REDIRECT, minor) is None
    assert wire_dict(REDIRECT, minor) is None


@pytest.mark.parametrize("url", ["http://h/", "", "javascript:alert(1)", "ws:/" + "x" * 600])
def test_a_redirect_to_anything_but_a_websocket_url_is_refused(url: str) -> None:
    fields = wire_dict(REDIRECT, 2)
    assert fields is not None
    data = msgpack.packb({**fields, "url": url})
    with pytest.raises(DecodeError, match="url"):
        decode_server(data)


def test_1_2_added_redirect_only_and_other_messages_are_unchanged_for_1_1() -> None:
    assert m.PROTOCOL_MINOR >= 2 and set(m.ADDED_IN_1_2) == {m.Redirect}
    pong = m.Pong(nonce=1, id=2)
    assert encode_for(pong, 1) == encode_for(pong, 2) == encode(pong)
