import random

from engine import Deal, GameState, RuleSet, game_record, replay


def test_a_random_hand_scores_and_replays() -> None:
    rng = random.Random(5)
    state = GameState(RuleSet.preset("five-hundred"))
    state.apply(None, Deal(rng.randbytes(32)))
    while not state.hand_results:
        seat = state.current_player
        assert seat is not None
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    result = state.hand_results[0]
    assert sum(result.tricks) == 13
    assert replay(game_record(state)) == state
