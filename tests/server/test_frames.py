"""A frame built for a view is encoded once per wire format, whatever the number of
sockets: a room with msgpack and JSON spectators (real gateway sessions over a fake
socket), the encoders counted."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from protocol import codec, fastwire
from protocol import messages as m
from protocol.codec import JSON_SUBPROTOCOL, decode_server, decode_server_json
from server.config import ServerConfig
from server.gateway.session import Session
from server.rooms import frames, requests
from server.rooms.frames import Frame
from tests.server.test_rooms import Host, a_room, play, seat_both


class _Socket:
    """What a session reads of its websocket: the subprotocol and the peer."""

    def __init__(self, json: bool) -> None:
        self.subprotocol = JSON_SUBPROTOCOL if json else None
        self.transport = None
        self.remote_address = ("203.0.113.7", 4000)
        self.request = None


class _Hub:
    """Keeps what the sessions queue (the unit of work's flush is not run)."""

    def dirty(self, conn: Session) -> None: ...

    def flush(self) -> None: ...


def _session(json: bool) -> Session:
    return Session(_Socket(json), ServerConfig(port=0), _Hub())  # type: ignore[arg-type]


class _Counted:
    """Counts the calls of an encoder by the message's type (or by call)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.packed: Counter[str] = Counter()
        self.texts = 0

        def encode_for(message: Any, minor: int) -> bytes | None:
            self.packed[type(message).__name__] += 1
            return codec.encode_for(message, minor)

        def json_from_msgpack(data: bytes) -> str:
            self.texts += 1
            return codec.json_from_msgpack(data)

        def events_bytes(*args: Any) -> bytes | None:
            data = fastwire.events_bytes(*args)
            if data is not None:  # packed without a model (the newest minor version)
                self.packed["Events"] += 1
            return data

        monkeypatch.setattr(frames, "encode_for", encode_for)
        monkeypatch.setattr(frames, "events_bytes", events_bytes)
        monkeypatch.setattr(frames, "json_from_msgpack", json_from_msgpack)


def test_a_move_is_encoded_once_per_view_and_once_per_format_for_every_spectator(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    host = Host()
    room, _ = a_room(host)
    alice, bob = seat_both(host, room)
    packed_sockets = [_session(json=False) for _ in range(4)]
    json_sockets = [_session(json=True) for _ in range(4)]
    for index, session in enumerate(packed_sockets + json_sockets):
        requests.watch(room, session, f"watcher{index}", m.WatchTable(code=room.code))
        session.pending = []  # the snapshot each was sent on arrival
    counted = _Counted(monkeypatch)
    play(room, {0: alice, 1: bob}, moves=12)
    events = [decode_server(data) for data in packed_sockets[0].pending]
    events = [message for message in events if isinstance(message, m.Events)]
    assert len(events) >= 12
    # msgpack: one encoding per commit for each viewer kind (seat 0, seat 1, spectators)
    assert counted.packed["Events"] == 3 * len(events)
    # JSON: one text per frame that reaches a JSON socket, not one per JSON socket
    assert counted.texts == len(packed_sockets[0].pending)
    assert all(len(s.pending) == len(packed_sockets[0].pending) for s in json_sockets)


def test_json_and_msgpack_sockets_receive_the_same_messages() -> None:
    host = Host()
    room, _ = a_room(host)
    alice, bob = seat_both(host, room)
    packed, text, also_text = _session(json=False), _session(json=True), _session(json=True)
    for index, session in enumerate((packed, text, also_text)):
        requests.watch(room, session, f"watcher{index}", m.WatchTable(code=room.code))
        session.pending = []
    play(room, {0: alice, 1: bob}, moves=30, seed=11)
    assert len(packed.pending) >= 30
    assert [decode_server(data) for data in packed.pending] == [
        decode_server_json(data.decode()) for data in text.pending
    ]
    # the second JSON socket got the very same bytes objects: made once, shared
    assert all(a is b for a, b in zip(text.pending, also_text.pending, strict=True))


def test_a_frame_makes_its_json_text_on_first_use_only(monkeypatch: pytest.MonkeyPatch) -> None:
    counted = _Counted(monkeypatch)
    frame = Frame.of(m.Pong(nonce=5, id=2), m.PROTOCOL_MINOR)
    assert frame is not None and counted.texts == 0
    first = frame.text()
    assert frame.text() is first and counted.texts == 1
    assert decode_server_json(first.decode()) == decode_server(frame.data)
