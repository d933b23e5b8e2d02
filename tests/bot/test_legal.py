"""The bot only ever returns a legal action: every phase, both presets, random rule sets."""

import random

import pytest

from engine import BlindNil, Exchange, GameState, Phase, RuleSet
from engine.actions import Deal
from engine.bot import LEVELS, Bot
from tests.bot.helpers import CLASSIC, FIVE_HUNDRED, play_game, seed_of


def random_rules(rng: random.Random) -> RuleSet:
    base = RuleSet.preset(rng.choice(["classic", "five-hundred"]))
    target = rng.choice([50, 100, 150])
    return base.replace(
        target_score=target,
        first_bidder=rng.choice(["first_drafter", "second_drafter"]),
        see_card_after_keep=rng.random() < 0.5,
        nil=rng.random() < 0.8,
        nil_bonus=rng.choice([50, 100, 150]),
        blind_nil=rng.random() < 0.6,
        blind_nil_bonus=rng.choice([100, 200]),
        blind_nil_exchange=rng.choice([0, 1, 3, 5]),
        blind_nil_min_deficit=rng.choice([None, 0, 50]),
        bag_limit=rng.choice([3, 5, 10]),
        bag_penalty=rng.choice([50, 100]),
        failed_nil_tricks_are_bags=rng.random() < 0.5,
        lose_score=rng.choice([None, -100, -200]),
    )


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("preset", [CLASSIC, FIVE_HUNDRED])
def test_presets_against_random_play(level: str, preset: RuleSet) -> None:
    for game in range(3):
        rules = preset.replace(target_score=120)
        bot = Bot(level, seed=game, iterations=4)
        seats = [bot, None] if game % 2 == 0 else [None, bot]
        play_game(rules, seats, seed=game, max_hands=4)


def test_random_rule_sets_all_levels() -> None:
    rng = random.Random(20)
    for game in range(10):
        rules = random_rules(rng)
        bots = [
            Bot(LEVELS[game % 3], seed=game, iterations=3),
            Bot(LEVELS[(game + 1) % 3], seed=game + 50, iterations=3),
        ]
        play_game(rules, bots, seed=100 + game, max_hands=3)


def test_bot_after_its_own_blind_nil() -> None:
    """Force blind nil for the bot's seat, so it drafts, exchanges, and plays a blind nil."""
    for game, level in enumerate(LEVELS * 2):
        rules = FIVE_HUNDRED.replace(blind_nil_exchange=(3, 13)[game % 2])
        state = GameState(rules)
        state.apply(None, Deal(seed_of("blind", game)))
        bot = Bot(level, seed=game, iterations=4)
        rng = random.Random(game)
        exchanged = False
        while not state.hand_results:
            seat = state.current_player
            assert seat is not None
            if state.phase is Phase.BLIND_NIL:
                action = BlindNil(seat == 0 or game % 3 == 0)
            elif seat == 0 or (state.phase is Phase.EXCHANGE and seat == 1 and game % 2):
                view = state.view_for(seat)
                action = bot.choose(view)
                assert action in view.legal_actions() or (
                    isinstance(action, Exchange) and state.phase is Phase.EXCHANGE
                )
                exchanged |= isinstance(action, Exchange)
            elif state.phase is Phase.EXCHANGE:
                action = Exchange(())
            else:
                action = rng.choice(state.legal_actions(seat))
            state.apply(seat, action)
        assert exchanged


def test_bots_against_each_other_random_rules() -> None:
    rng = random.Random(7)
    for game in range(6):
        rules = random_rules(rng)
        bots = [Bot("normal", seed=game, iterations=3), Bot("hard", seed=game, iterations=2)]
        play_game(rules, bots, seed=300 + game, max_hands=2)
