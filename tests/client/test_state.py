"""The client's event folding keeps its view equal to the engine's view for that seat."""

from __future__ import annotations

import dataclasses
import random

import pytest

from client.state import apply_events
from engine import Deal, Exchange, GameState, Phase, RuleSet
from protocol.convert import event_messages, view_from_message, view_message
from tests.client.helpers import seed_of


def _comparable(view: object) -> object:
    # the card on offer reaches the client in a snapshot only; hand results in hand_result
    return dataclasses.replace(view, offered=None, hand_results=(), bags=(0, 0))  # type: ignore[type-var]


@pytest.mark.parametrize(
    ("preset", "seed"), [("classic", 1), ("five-hundred", 2), ("five-hundred", 3)]
)
def test_events_fold_into_the_engine_view(preset: str, seed: int) -> None:
    rules = RuleSet.preset(preset, target_score=150)
    rng = random.Random(seed)
    state = GameState(rules)
    views = {s: view_from_message(view_message(state.view_for(s)), rules) for s in (0, 1, None)}
    steps = 0
    while not state.is_over and steps < 600:
        steps += 1
        current = state.current_player
        if current is None:
            action: object = Deal(seed_of(rng.randrange(10**6)))
        elif state.phase is Phase.EXCHANGE:
            hand = state.hand_of(current)
            action = Exchange(tuple(rng.sample(hand, rng.randrange(0, 4))))
        else:
            legal = state.legal_actions(current)
            declare = [a for a in legal if getattr(a, "declare", False)]
            action = declare[0] if declare and rng.random() < 0.5 else rng.choice(legal)
        outcome = state.apply(current, action)  # type: ignore[arg-type]
        for seat in (0, 1, None):
            events = event_messages(outcome.for_viewer(seat))
            views[seat] = apply_events(views[seat], events, outcome.version)
            expected = state.view_for(seat)
            assert _comparable(views[seat]) == _comparable(expected), (seat, steps, action)
