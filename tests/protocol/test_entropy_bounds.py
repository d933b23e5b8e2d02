"""An ``entropy`` value is 1 to 32 whole bytes in lowercase hex, and anything else is a
``bad_message`` refused while decoding, before any table is looked at (issue 26: the
server took up to 64 bytes, and answered an odd number of digits with the table's own
error). Checked at the decoder (msgpack and JSON frames, the request's type and id
echoed), in the generated field reference, and end to end against a server started in
this process: the refusal is the same for an unknown table and a real one, and the real
table's hand still waits for the seat's value afterwards."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import msgpack
import pytest
from websockets.asyncio.client import ClientConnection, connect

from protocol import messages as m
from protocol import schema
from protocol.codec import decode_client, decode_client_json
from protocol.errors import DecodeError
from server import start_server
from server.config import ServerConfig

# what the document promises: lowercase hex, two digits a byte, 1 to 32 bytes
REFUSED = {
    "33 bytes": "ab" * 33,
    "64 bytes (today's server took them)": "ab" * 64,
    "odd length, three digits": "abc",
    "odd length, one digit": "a",
    "odd length, 63 digits": "a" * 63,
    "uppercase": "AB" * 32,
    "mixed case": "Ab" * 32,
    "empty": "",
    "not hex": "zz" * 32,
    "a 0x prefix": "0x" + "ab" * 31,
}
ACCEPTED = ("00", "ab" * 32, "0123456789abcdef" * 4)


def entropy_frame(value: str, code: str = "ABCD", request_id: int = 41) -> dict[str, Any]:
    return {"type": "entropy", "code": code, "hand_number": 1, "value": value, "id": request_id}


@pytest.mark.parametrize("value", REFUSED.values(), ids=REFUSED.keys())
def test_an_entropy_value_that_is_not_1_to_32_lowercase_bytes_is_a_bad_message(
    value: str,
) -> None:
    with pytest.raises(DecodeError) as from_msgpack:
        decode_client(msgpack.packb(entropy_frame(value)))
    with pytest.raises(DecodeError) as from_json:
        decode_client_json(json.dumps(entropy_frame(value)))
    for refused in (from_msgpack.value, from_json.value):
        assert refused.code == "bad_message"
        assert (refused.request, refused.request_id) == ("entropy", 41)
        assert "value" in str(refused)


@pytest.mark.parametrize("value", ACCEPTED)
def test_an_entropy_value_of_1_to_32_lowercase_bytes_decodes(value: str) -> None:
    message = decode_client(msgpack.packb(entropy_frame(value)))
    assert message == m.Entropy(code="ABCD", hand_number=1, value=value, id=41)
    assert 1 <= len(bytes.fromhex(value)) <= m.ENTROPY_MAX_BYTES


def test_the_field_reference_states_the_entropy_bounds() -> None:
    field = m.Entropy.model_json_schema()["properties"]["value"]
    assert (field["minLength"], field["maxLength"]) == (2, 2 * m.ENTROPY_MAX_BYTES)
    assert field["pattern"] == m.ENTROPY_HEX_PATTERN
    doc = schema.DOC_PATH.read_text(encoding="utf-8")
    (row,) = [line for line in doc.splitlines() if line.startswith("| `value` | hex string (")]
    assert row.startswith(f"| `value` | hex string (1 to {m.ENTROPY_MAX_BYTES} bytes) |")
    assert "Where today's server differs" not in doc
    assert "up to 64 bytes" not in doc
    assert "only once the table's own checks" not in m.ERROR_CODE_MEANINGS["bad_message"]


class RawSeat:
    """One connection speaking msgpack maps, as a client written from the document does."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(msgpack.packb(message))

    async def next(self, kind: str) -> dict[str, Any]:
        """The next message of type ``kind``, skipping others (a table_update, events)."""
        while True:
            frame = await asyncio.wait_for(self.ws.recv(), 60)
            assert isinstance(frame, bytes)  # binary frames: msgpack
            message: dict[str, Any] = msgpack.unpackb(frame)
            if message["type"] == kind:
                return message
            assert message["type"] != "error", message

    async def hand_started(self) -> dict[str, Any]:
        while True:
            events = await self.next("events")
            for event in events["events"]:
                if event["kind"] == "hand_started":
                    return dict(event)


def test_a_server_refuses_bad_entropy_for_an_unknown_and_a_real_table_alike() -> None:
    # the server waits 10 minutes for the seat's value, so the hand is still waiting at the end
    config = ServerConfig(
        port=0, db_path=":memory:", bot_workers=0, bot_delay=0.0, entropy_seconds=600.0
    )

    async def main() -> None:
        running = await start_server(config)
        try:
            async with connect(running.url) as ws:
                seat = RawSeat(ws)
                await seat.send(
                    {"type": "hello", "protocol_version": 1, "protocol_minor": 2, "name": "ann"}
                )
                await seat.next("welcome")
                await seat.send({"type": "create_table", "preset": "classic", "bot": "easy"})
                code = (await seat.next("snapshot"))["table"]["code"]
                started = await seat.hand_started()
                assert started["hand_number"] == 1
                await seat.send({"type": "join_table", "code": code, "id": 1})
                before = await seat.next("snapshot")
                assert before["view"]["phase"] == "deal"
                request_id = 100
                for value in REFUSED.values():
                    for table in ("ZZZZZZZZ", code):
                        request_id += 1
                        await seat.send(entropy_frame(value, table, request_id))
                        error = await seat.next("error")
                        assert (error["code"], error["request"], error["id"]) == (
                            "bad_message",
                            "entropy",
                            request_id,
                        ), (value, table, error)
                await seat.send({"type": "join_table", "code": code, "id": 2})
                after = await seat.next("snapshot")
                assert after["view"] == before["view"]
                # nothing went in: the hand still takes this seat's one value
                await seat.send(entropy_frame("cd" * 32, code, 3))
                accepted = await seat.next("entropy_accepted")
                assert (accepted["table"], accepted["hand_number"], accepted["id"]) == (code, 1, 3)
        finally:
            await running.close()

    asyncio.run(main())
