"""The reference opponents of bench/reference: legal, reproducible, and blind to hidden cards."""

from collections import Counter

import pytest

from bench.reference import (
    REFERENCES,
    IsmctsPlayer,
    PimcPlayer,
    ReferencePlayer,
    ReferencePlayerError,
    make_reference,
)
from bench.reference.common import best_bid, bid_value
from bench.reference.pimc import distinct_cards
from engine import Bid, GameState, Phase, Play, PlayerView
from engine.bot import Bot
from tests.bot.helpers import CLASSIC, FIVE_HUNDRED, cards, play_game, play_view, seed_of
from tests.bot.test_fairness import drive, swap_hidden_card

# small efforts: the properties tested do not depend on the effort
SMALL = {"ismcts": 150, "pimc": 3}


def small(name: str, seed: int) -> ReferencePlayer:
    return make_reference(name, seed=seed, iterations=SMALL[name])


@pytest.mark.parametrize("name", REFERENCES)
def test_reference_players_only_return_legal_actions(name: str) -> None:
    # play_game asserts every action is in view.legal_actions()
    for number, rules in enumerate((CLASSIC, FIVE_HUNDRED)):
        players = [small(name, seed=number), Bot("easy", seed=number)]
        if number % 2:
            players.reverse()
        state = play_game(rules, players, seed=300 + number, max_hands=2)  # type: ignore[arg-type]
        assert len(state.hand_results) >= 1


@pytest.mark.parametrize("name", REFERENCES)
def test_reference_players_against_each_other_stay_legal(name: str) -> None:
    other = "pimc" if name == "ismcts" else "ismcts"
    players = [small(name, seed=5), small(other, seed=6)]
    state = play_game(CLASSIC, players, seed=310, max_hands=1)  # type: ignore[arg-type]
    assert len(state.hand_results) == 1


def _positions() -> list[PlayerView]:
    views = []
    for number, (rules, phase, tricks) in enumerate(
        [
            (CLASSIC, Phase.BIDDING, 0),
            (CLASSIC, Phase.PLAY, 0),
            (CLASSIC, Phase.PLAY, 5),
            (FIVE_HUNDRED, Phase.PLAY, 3),
        ]
    ):
        state = drive(rules, seed_of("reference", number), number % 2, phase, tricks)
        views.append(state.view_for(number % 2))
    return views


@pytest.mark.parametrize("name", REFERENCES)
def test_reference_players_are_deterministic_for_a_seed(name: str) -> None:
    views = _positions()
    first = [small(name, seed=11).choose(view) for view in views]
    again = [small(name, seed=11).choose(view) for view in views]
    assert first == again
    # and one player's stream of decisions repeats too
    one, two = small(name, seed=12), small(name, seed=12)
    assert [one.choose(view) for view in views] == [two.choose(view) for view in views]


@pytest.mark.parametrize("name", REFERENCES)
def test_reference_players_never_read_hidden_cards(name: str) -> None:
    cases = [
        (CLASSIC, Phase.BIDDING, 0),
        (CLASSIC, Phase.PLAY, 0),
        (CLASSIC, Phase.PLAY, 4),
        (FIVE_HUNDRED, Phase.PLAY, 2),
        (FIVE_HUNDRED, Phase.BIDDING, 0),
    ]
    for number, (rules, phase, tricks) in enumerate(cases):
        bot_seat = number % 2
        state: GameState = drive(rules, seed_of("ref-fair", number), bot_seat, phase, tricks)
        twin = swap_hidden_card(state, bot_seat)
        opp = 1 - bot_seat
        assert set(state.hand_of(opp)) != set(twin.hand_of(opp))  # the worlds differ
        view, twin_view = state.view_for(bot_seat), twin.view_for(bot_seat)
        assert view == twin_view
        assert small(name, seed=99).choose(view) == small(name, seed=99).choose(twin_view)


def test_make_reference_names_and_errors() -> None:
    assert isinstance(make_reference("ismcts", seed=1), IsmctsPlayer)
    assert isinstance(make_reference("pimc", seed=1), PimcPlayer)
    with pytest.raises(ReferencePlayerError):
        make_reference("hard")
    with pytest.raises(ReferencePlayerError):
        IsmctsPlayer(seed=1, rollout="smart")
    with pytest.raises(ReferencePlayerError):
        PimcPlayer(seed=1, iterations=0)


def test_bid_value_charges_bags_and_sets() -> None:
    assert bid_value(CLASSIC, 0, 4, 4) == 40
    assert bid_value(CLASSIC, 0, 4, 3) == -40
    assert bid_value(CLASSIC, 0, 4, 6) == 42 - 2 * 10  # two bags, each charged 10
    assert bid_value(CLASSIC, 0, 0, 0) == 100
    assert bid_value(CLASSIC, 0, 0, 1) == -100
    # the tenth bag is in the points already (the penalty): not charged twice
    assert bid_value(CLASSIC, 9, 4, 5) == 41 - 100


def test_best_bid_follows_the_sampled_tricks() -> None:
    assert best_bid(CLASSIC, 0, Counter({(5, 3): 10})) == 5
    assert best_bid(CLASSIC, 0, Counter({(2, 0): 10})) == 0  # a safe nil beats 20 points
    # a trick count that varies: the bid stays under the likely set
    assert best_bid(CLASSIC, 0, Counter({(6, 2): 5, (5, 2): 5, (3, 2): 1})) == 5


def test_pimc_distinct_cards_keep_one_of_each_run() -> None:
    hand = int(sum(1 << int(card) for card in cards("2H 3H 5H KH AH")))
    separators = int(sum(1 << int(card) for card in cards("4H QH")))
    # 2H 3H are one run (nothing of others between), 5H alone, KH AH one run
    assert distinct_cards(hand, separators) == [int(c) for c in cards("2H 5H KH")]


def test_pimc_takes_a_sure_last_trick_it_needs() -> None:
    past = [
        (0, "AC", "2C"),
        (0, "AD", "2D"),
        (0, "AH", "2H"),
        (0, "KC", "3C"),
        (0, "KD", "3D"),
        (0, "KH", "3H"),
        (0, "QC", "4C"),
        (0, "QD", "4D"),
        (0, "QH", "4H"),
        (0, "JC", "5C"),
        (0, "JD", "5D"),
    ]
    view = play_view("AS 2S", opp_size=2, bids=(12, 1), past=past, spades_broken=True)
    action = PimcPlayer(seed=1, iterations=4).choose(view)
    assert action == Play(cards("AS")[0])


def test_ismcts_bids_a_strong_hand_high_and_a_weak_one_low() -> None:
    from tests.bot.helpers import bid_view

    strong = bid_view("AS KS QS JS 10S 9S AH KH AD KD AC KC QC", "2C 3C 4C 5C 6C 7C")
    weak = bid_view("2S 3S 4H 5H 6H 2D 3D 4D 7C 8C 9C 10C 2C", "AS KS AH KH")
    assert isinstance(high := IsmctsPlayer(seed=1, iterations=300).choose(strong), Bid)
    assert high.tricks >= 10
    low = IsmctsPlayer(seed=1, iterations=300).choose(weak)
    assert isinstance(low, Bid) and low.tricks <= 2
