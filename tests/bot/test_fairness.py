"""The bot cannot see hidden cards: states differing only in them give the same decision."""

import copy

from engine import Deal, GameState, Phase, RuleSet
from engine.bot import LEVELS, Bot
from tests.bot.helpers import CLASSIC, FIVE_HUNDRED, seed_of


def swap_hidden_card(state: GameState, bot_seat: int) -> GameState:
    """A copy of ``state`` where the opponent holds a different card the bot never saw.

    One card of the opponent's hand changes places with a face-down pile card that the
    bot's seat has not seen: everything the bot's seat knows is unchanged.
    """
    other = copy.deepcopy(state)
    hand = other._hand
    assert hand is not None
    opp = 1 - bot_seat
    seen_by_bot = int(state.view_for(bot_seat).seen_cards_mask())
    opp_cards = [c for c in range(52) if hand.hands[opp] >> c & 1]
    hidden_pile = [c for c in hand.pile if not seen_by_bot >> c & 1]
    assert opp_cards and hidden_pile
    give, take = opp_cards[0], hidden_pile[-1]
    hand.hands[opp] = hand.hands[opp] & ~(1 << give) | (1 << take)
    hand.pile[hand.pile.index(take)] = give
    return other


def drive(rules: RuleSet, seed: bytes, bot_seat: int, stop: Phase, tricks: int = 0) -> GameState:
    """Deal and let easy bots act until ``stop`` (and ``tricks`` tricks into the play)."""
    state = GameState(rules)
    state.apply(None, Deal(seed))
    bots = [Bot("easy", seed=1), Bot("easy", seed=2)]
    while True:
        seat = state.current_player
        assert seat is not None
        view = state.view_for(seat)
        at_stop = seat == bot_seat and state.phase is stop
        if at_stop and (stop is not Phase.PLAY or len(view.tricks) >= tricks):
            return state
        state.apply(seat, bots[seat].choose(view))


def test_views_and_decisions_match_when_only_hidden_cards_differ() -> None:
    cases = [
        (CLASSIC, Phase.BIDDING, 0),
        (CLASSIC, Phase.PLAY, 0),
        (CLASSIC, Phase.PLAY, 4),
        (FIVE_HUNDRED, Phase.PLAY, 2),
        (FIVE_HUNDRED, Phase.BIDDING, 0),
    ]
    for number, (rules, phase, tricks) in enumerate(cases):
        bot_seat = number % 2
        state = drive(rules, seed_of("fair", number), bot_seat, phase, tricks)
        twin = swap_hidden_card(state, bot_seat)
        opp = 1 - bot_seat
        assert set(state.hand_of(opp)) != set(twin.hand_of(opp))  # the worlds differ
        view, twin_view = state.view_for(bot_seat), twin.view_for(bot_seat)
        assert view == twin_view  # ... but not for the bot's seat
        for level in LEVELS:
            first = Bot(level, seed=99, iterations=12).choose(view)
            second = Bot(level, seed=99, iterations=12).choose(twin_view)
            assert first == second


def test_choose_takes_only_the_view() -> None:
    import inspect

    params = list(inspect.signature(Bot.choose).parameters)
    assert params == ["self", "view"]
