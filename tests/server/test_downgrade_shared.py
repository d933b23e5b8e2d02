"""Sockets that speak protocol 1.0 share one downgraded frame per move: the downgrade runs
once per view and minor version, whatever the number of such sockets, and what they get
is what the codec gives a 1.0 connection (nothing added since 1.0)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from protocol import codec
from protocol import messages as m
from protocol.codec import decode_server
from server.rooms import frames, requests
from tests.server.test_frames import _session
from tests.server.test_rooms import Host, a_room, play, seat_both


@pytest.mark.parametrize("fastwire", [False, True])
def test_many_1_0_spectators_share_one_downgrade_per_move(
    monkeypatch: pytest.MonkeyPatch, fastwire: bool
) -> None:
    """``fastwire``: the moves packed by protocol.fastwire (no model, no encode_for), else
    each move's model downgraded by the codec."""
    host = Host()
    room, _ = a_room(host)
    alice, bob = seat_both(host, room)
    old = [_session(json=False) for _ in range(5)]
    new = [_session(json=False) for _ in range(2)]
    for index, session in enumerate(old + new):
        session.minor = 0 if session in old else m.PROTOCOL_MINOR
        requests.watch(room, session, f"watcher{index}", m.WatchTable(code=room.code))
        session.pending = []  # the snapshot each was sent on arrival
    packed: Counter[tuple[str, int]] = Counter()

    def encode_for(message: Any, minor: int) -> bytes | None:
        packed[type(message).__name__, minor] += 1
        return codec.encode_for(message, minor)

    monkeypatch.setattr(frames, "encode_for", encode_for)
    if not fastwire:
        monkeypatch.setattr(frames, "serves", lambda minor: False)
    play(room, {0: alice, 1: bob}, moves=12)
    events = [decode_server(data) for data in old[0].pending]
    moves = [message for message in events if isinstance(message, m.Events)]
    assert len(moves) >= 12
    # one downgrade per move for all five 1.0 spectators, not one per socket
    assert packed["Events", 0] == (0 if fastwire else len(moves))
    # the very same bytes reach every 1.0 spectator
    for session in old[1:]:
        assert len(session.pending) == len(old[0].pending)
        assert all(a is b for a, b in zip(session.pending, old[0].pending, strict=True))
    # and they are what the codec makes for a 1.0 connection
    for data, message in zip(old[0].pending, events, strict=True):
        assert data == codec.encode_for(message, 0)
