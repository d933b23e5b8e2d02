"""The one fold (client/state.py) against the engine: on random games, the view folded
from the server's messages equals ``view_for(viewer)`` after every action, for both seats
and a spectator, and a gap in the stream is caught rather than folded."""

from __future__ import annotations

import json

import pytest

from client.state import OutOfStep, fold
from engine import PlayerView
from protocol import messages as m
from protocol.codec import decode_server_json
from protocol.convert import view_from_message, view_message
from tests.client.fold_cases import CODE, FoldCase, fold_cases, fold_cases_json

GAMES = 8  # per preset, seeds 0..GAMES-1


def _decode(data: dict[str, object]) -> m.ServerMessage:
    return decode_server_json(json.dumps(data))


def _start(case: FoldCase) -> PlayerView:
    snapshot = _decode(case.snapshot)
    assert isinstance(snapshot, m.Snapshot)
    return view_from_message(snapshot.view, snapshot.table.rules)


def _as_json(view: PlayerView) -> dict[str, object]:
    data: dict[str, object] = json.loads(view_message(view, CODE).model_dump_json())
    return data


def _fold_frame(view: PlayerView, frame: list[dict[str, object]]) -> PlayerView:
    for data in frame:
        message = _decode(data)
        assert isinstance(message, m.Events | m.HandResult | m.YourTurn)
        view = fold(view, message)
    return view


@pytest.mark.parametrize("preset", ["classic", "five-hundred"])
@pytest.mark.parametrize("seed", range(GAMES))
def test_the_folded_view_equals_the_engine_view_after_every_action(preset: str, seed: int) -> None:
    viewers = []
    for case in fold_cases(seed, preset):
        viewers.append(case.viewer)
        view = _start(case)
        assert case.frames, "the game made no move"
        for step, (frame, expected) in enumerate(zip(case.frames, case.views, strict=True)):
            view = _fold_frame(view, frame)
            assert _as_json(view) == expected, (case.viewer, step, frame)
        assert view.phase.value == "game_over"
    assert viewers == [0, 1, None]


def test_a_missed_events_frame_is_out_of_step() -> None:
    case = next(iter(fold_cases(1, "classic")))
    view = _fold_frame(_start(case), case.frames[0])
    later = _decode(case.frames[2][0])
    assert isinstance(later, m.Events)
    with pytest.raises(OutOfStep):
        fold(view, later)


def test_a_your_turn_for_another_version_is_out_of_step() -> None:
    case = next(iter(fold_cases(1, "classic")))
    view = _start(case)
    for frame in case.frames:
        turns = [data for data in frame if data["type"] == "your_turn"]
        if turns:
            turn = _decode(turns[0])
            assert isinstance(turn, m.YourTurn)
            break
        view = _fold_frame(view, frame)
    else:
        raise AssertionError("seat 0 never had a turn")
    with pytest.raises(OutOfStep):
        fold(view, turn)  # its events frame was not folded: the version is one behind


def test_no_stream_carries_the_other_seats_cards() -> None:
    """Hidden information: the draft and exchange events of a seat reach the other seat
    and the spectator without their cards, and no view holds another seat's hand."""
    checked = 0
    for case in fold_cases(2, "five-hundred"):
        for frame, view in zip(case.frames, case.views, strict=True):
            assert view["seat"] == case.viewer
            if case.viewer is None:
                assert view["hand"] == [] and view["offered"] is None
            for data in frame:
                for event in data.get("events", []):
                    if event["kind"] in ("draft_turn", "exchange") and event["seat"] != case.viewer:
                        checked += 1
                        assert event.get("card") is None and event.get("other_card") is None
                        assert not event.get("given") and not event.get("received")
    assert checked > 100


def test_the_cases_as_one_json_document() -> None:
    cases = list(fold_cases(5, "classic"))
    document = json.loads(fold_cases_json(5, "classic"))
    assert [case["viewer"] for case in document] == [0, 1, None]
    assert document[2]["views"] == cases[2].views
    assert document[0]["frames"][-1] == cases[0].frames[-1]
