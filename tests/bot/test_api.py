import random

import pytest

from engine import Bid, EngineError, GameState, Keep, Phase
from engine.bot import LEVELS, Bot
from tests.bot.helpers import CLASSIC, play_view, seed_of


def test_levels_and_unknown_level() -> None:
    assert LEVELS == ("easy", "normal", "hard")
    for level in LEVELS:
        Bot(level)
    with pytest.raises(EngineError):
        Bot("grandmaster")
    with pytest.raises(EngineError):
        Bot("normal", iterations=0)


def test_no_legal_action_is_an_error() -> None:
    state = GameState(CLASSIC)
    with pytest.raises(EngineError):
        Bot("easy").choose(state.view_for(0))


def test_single_legal_action_returns_it() -> None:
    # one heart left and a heart led: it must follow
    view = play_view("4H 2C 3C", current="9H", opp_size=2)
    for level in LEVELS:
        assert Bot(level, seed=1, iterations=5).choose(view).card.suit == 2  # type: ignore[union-attr]


def test_same_seed_same_decisions() -> None:
    from engine import Deal

    for level in ("normal", "hard"):
        picks = []
        for _ in range(2):
            state = GameState(CLASSIC)
            state.apply(None, Deal(seed_of("repro", level)))
            bots = [Bot(level, seed=5, iterations=8), Bot(level, seed=6, iterations=8)]
            actions = []
            while state.hand_results == [] and not state.is_over:
                seat = state.current_player
                assert seat is not None
                action = bots[seat].choose(state.view_for(seat))
                actions.append(action)
                state.apply(seat, action)
            picks.append(actions)
        assert picks[0] == picks[1]


def test_rng_argument_is_used() -> None:
    view = play_view("AH KH 2H 3C 4C 5C 6D 7D 8D 9S 10S JS QS", bids=(4, 4))
    a = Bot("normal", rng=random.Random(3), iterations=10).choose(view)
    b = Bot("normal", rng=random.Random(3), iterations=10).choose(view)
    assert a == b


def test_draft_and_bid_are_actions_of_their_phase() -> None:
    state = GameState(CLASSIC)
    from engine import Deal

    state.apply(None, Deal(seed_of("phases")))
    bot = Bot("easy", seed=2)
    while state.phase is Phase.DRAFT:
        seat = state.current_player
        assert seat is not None
        action = bot.choose(state.view_for(seat))
        assert action in (Keep(), Keep().__class__(), *state.legal_actions(seat))
        state.apply(seat, action)
    seat = state.current_player
    assert seat is not None
    assert isinstance(bot.choose(state.view_for(seat)), Bid)
