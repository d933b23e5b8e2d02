"""The engine's history shares one (seat, action) entry per common action; the record
and the replay are unchanged by it."""

from __future__ import annotations

import json
import random

from engine import Bid, Commit, Discard, GameState, Keep, Play, RuleSet, Shuffle, game_record
from engine.cards import Card
from engine.events import HandScored
from engine.game import _history_entry
from engine.record import replay
from tests.engine.helpers import seat_turns


def _random_game(seed: int, cap: int = 400) -> GameState:
    rnd = random.Random(seed)
    state = GameState()
    for state, seat in seat_turns(RuleSet(), rnd, cap):
        state.apply(seat, rnd.choice(state.legal_actions(seat)))
    return state


def test_common_actions_share_their_history_entry_across_games() -> None:
    first, second = _random_game(41), _random_game(42)
    shared = {id(entry) for entry in first.actions if isinstance(entry[1], Play | Bid | Keep)}
    again = [entry for entry in second.actions if isinstance(entry[1], Play | Bid | Keep)]
    assert len(shared) < 200  # at most 2 x (52 + 14 + 1) distinct entries
    assert any(id(entry) in shared for entry in again)
    chance = [entry for entry in first.actions if isinstance(entry[1], Commit | Shuffle)]
    assert chance and all(entry[0] is None for entry in chance)


def test_the_record_replays_to_the_same_state_and_prints_the_same() -> None:
    state = _random_game(43)
    record = game_record(state)
    texts = [[seat, str(action)] for seat, action in state.actions]
    assert record["actions"] == texts
    again = replay(json.loads(json.dumps(record)))
    assert again == state
    assert game_record(again) == record


def test_an_action_of_other_types_than_the_shared_ones_gets_its_own_entry() -> None:
    five: Card = 5  # type: ignore[assignment]  # a plain int where a Card belongs
    plain = _history_entry(0, Play(five))
    assert plain == (0, Play(five)) and str(plain[1]) == "play 5"
    assert _history_entry(0, Play(Card(5))) is _history_entry(0, Play(Card(5)))
    assert _history_entry(1, Discard()) is _history_entry(1, Discard())
    assert _history_entry(0, Discard()) is not _history_entry(1, Discard())


def test_an_outcome_names_the_hands_it_scored_as_the_spectators_view_does() -> None:
    """``Outcome.scored`` gives the ``HandScored`` events of the action, the same as a
    spectator's view of it (a score is public), and nothing for other actions."""
    rng = random.Random(23)
    scored = 0
    for state, seat in seat_turns(RuleSet(), rng, 400):
        outcome = state.apply(seat, rng.choice(state.legal_actions(seat)))
        public = tuple(e for e in outcome.for_viewer(None) if isinstance(e, HandScored))
        assert outcome.scored() == public
        scored += len(public)
    assert scored >= 1
