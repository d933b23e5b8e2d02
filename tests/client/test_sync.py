"""The terminal client folds events (client/state.py) and asks for a snapshot only when
the stream has a gap: then it takes the snapshot's view and its turn."""

from __future__ import annotations

from engine import GameState, Phase
from protocol import messages as m
from protocol.convert import event_messages, your_turn_message
from tests.client.helpers import CODE, advance_to, dealt, model_at, snapshot


def _events(state: GameState, seat: int | None) -> m.Events:
    """The next move of whoever is to move, as ``seat`` gets it."""
    current = state.current_player
    assert current is not None
    outcome = state.apply(current, state.legal_actions(current)[0])
    return m.Events(
        table=CODE, version=outcome.version, events=event_messages(outcome.for_viewer(seat))
    )


def test_events_in_step_are_folded_without_asking_the_server() -> None:
    state = advance_to(dealt(), Phase.BIDDING, 1)
    model = model_at(state)
    model.handle(_events(state, 0))  # seat 1 bids
    assert model.view is not None and model.view == state.view_for(0)
    assert not any(isinstance(sent, m.JoinTable | m.WatchTable) for sent in model.sent)


def test_a_gap_in_the_events_asks_for_a_snapshot_and_takes_its_turn() -> None:
    state = advance_to(dealt(), Phase.BIDDING, 1)
    model = model_at(state)
    before = model.view
    _events(state, 0)  # seat 1 bids: this frame is lost
    state.apply(0, state.legal_actions(0)[0])  # seat 0 bids (the your_turn never came)
    current = state.current_player
    assert current is not None
    model.handle(_events(state, 0))  # one frame too far on
    assert model.view == before  # nothing folded out of step
    assert model.sent[-1] == m.JoinTable(code=CODE)
    assert "out of step" in model.flash
    fresh = snapshot(state, 0)
    if state.current_player == 0:
        fresh = fresh.model_copy(update={"your_turn": your_turn_message(state.view_for(0), CODE)})
    model.handle(fresh)
    assert model.view == state.view_for(0)
    assert (model.turn is not None) == (state.current_player == 0)


def test_a_spectator_out_of_step_watches_again() -> None:
    state = advance_to(dealt(), Phase.PLAY, 0)
    model = model_at(state, None)
    state.apply(0, state.legal_actions(0)[0])
    model.handle(_events(state, None))  # the frame before it was lost
    assert model.sent[-1] == m.WatchTable(code=CODE)
