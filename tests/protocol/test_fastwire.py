"""protocol.fastwire packs exactly the bytes of the model path, for every minor version it
serves (random legal games, fixed seeds)."""

from __future__ import annotations

import random

import pytest

from engine import Commit, GameState, RuleSet, Shuffle
from protocol import convert
from protocol import messages as m
from protocol.codec import encode_for
from protocol.fastwire import ack_bytes, events_bytes, serves, your_turn_bytes
from tests.engine.helpers import seat_turns

TABLE = "K7QX2M9A"
MINORS = [minor for minor in range(m.PROTOCOL_MINOR + 1) if serves(minor)]


def test_every_minor_version_is_served_today() -> None:
    assert list(range(m.PROTOCOL_MINOR + 1)) == MINORS


def _model_events(outcome: object, viewer: int | None, minor: int) -> bytes | None:
    events = convert.event_messages(outcome.for_viewer(viewer))  # type: ignore[attr-defined]
    message = m.Events(table=TABLE, version=outcome.version, events=events)  # type: ignore[attr-defined]
    return encode_for(message, minor)


def test_events_bytes_equal_the_model_path_for_every_viewer() -> None:
    rnd = random.Random(31)
    covered = total = 0
    for number in range(6):
        state = GameState(RuleSet(blind_nil=bool(number % 2)))
        while not state.is_over and state.version < 700:
            if state.is_chance_node:
                outcome = state.apply(None, Commit(rnd.randbytes(32)))
                assert events_bytes(TABLE, outcome.version, outcome.for_viewer(0)) is None
                state.apply(None, Shuffle((b"", b"")))
                continue
            seat = state.current_player
            assert seat is not None
            outcome = state.apply(seat, rnd.choice(state.legal_actions(seat)))
            for viewer in (0, 1, None):
                fast = events_bytes(TABLE, outcome.version, outcome.for_viewer(viewer))
                total += 1
                if fast is not None:
                    covered += 1
                    for minor in MINORS:
                        assert fast == _model_events(outcome, viewer, minor)
    assert total > 3000
    assert covered / total > 0.9


def test_your_turn_bytes_equal_the_model_path() -> None:
    rnd = random.Random(32)
    covered = total = 0
    for number in range(6):
        for state, seat in seat_turns(RuleSet(blind_nil=bool(number % 2)), rnd, 700):
            left = None if state.version % 3 else round(rnd.uniform(0, 30), 1)
            fast = your_turn_bytes(state, seat, TABLE, left)
            assert your_turn_bytes(state, 1 - seat, TABLE, left) is None
            total += 1
            if fast is not None:
                covered += 1
                model = convert.your_turn_message(state.view_for(seat), TABLE, left)
                for minor in MINORS:
                    assert fast == encode_for(model, minor)
            state.apply(seat, rnd.choice(state.legal_actions(seat)))
    assert total > 1000
    assert covered / total > 0.9


def test_draft_card_of_one_seat_never_reaches_the_other() -> None:
    """Hidden information: the other seat's events of a draft turn carry no card."""
    rnd = random.Random(33)
    state = GameState(RuleSet())
    state.apply(None, Commit(rnd.randbytes(32)))
    state.apply(None, Shuffle((b"", b"")))
    seat = state.current_player
    assert seat is not None
    offered = state.offered_to(seat)
    assert offered is not None and state.offered_to(1 - seat) is None
    outcome = state.apply(seat, state.legal_actions(seat)[0])
    other = events_bytes(TABLE, outcome.version, outcome.for_viewer(1 - seat))
    spectator = events_bytes(TABLE, outcome.version, outcome.for_viewer(None))
    own = events_bytes(TABLE, outcome.version, outcome.for_viewer(seat))
    assert other is not None and spectator is not None and own is not None
    assert str(offered).encode() in own
    assert str(offered).encode() not in other
    assert other == spectator


@pytest.mark.parametrize("req_id", [None, 0, 7, 2**53])
def test_ack_bytes_equal_the_model_path(req_id: int | None) -> None:
    model = m.Ack(table=TABLE, seq=12, version=345, id=req_id)
    for minor in MINORS:
        assert ack_bytes(TABLE, 12, 345, req_id) == encode_for(model, minor)


def test_values_past_the_protocol_range_take_the_model_path() -> None:
    assert ack_bytes(TABLE, 1, 1_000_001, None) is None
    assert ack_bytes(TABLE, 1, 3, 2**53 + 1) is None
    assert events_bytes(TABLE, 1_000_001, ()) is None
