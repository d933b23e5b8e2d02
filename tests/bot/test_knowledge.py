"""What the bot reads from its view: unseen cards, voids, and consistent sampled hands."""

import random

from engine import Card, card_mask
from engine.bot.knowledge import read_knowledge, sample_hand
from tests.bot.helpers import cards, play_view


def test_voids_and_unseen_cards() -> None:
    past = [(0, "AH", "2C"), (0, "AD", "3D")]  # the opponent showed out of hearts
    view = play_view(
        "KH 5C 6C 7C 8D 9D 10D 2S 3S 4S 5S", past=past, pile_seen="QH JH 9C", bids=(3, 3)
    )
    know = read_knowledge(view)
    assert know.voids == 0b0100  # hearts
    assert know.opp_played == card_mask(cards("2C 3D"))
    seen = card_mask(cards("KH 5C 6C 7C 8D 9D 10D 2S 3S 4S 5S QH JH 9C AH 2C AD 3D"))
    assert know.unseen == ((1 << 52) - 1) & ~seen
    assert know.opp_size == 11


def test_a_spade_led_before_they_broke_shows_only_spades() -> None:
    past = [(1, "2S", "3S")]
    view = play_view("KH 5C 6C 7C 8D 9D 10D 4S 5S 6S AH 2H", past=past, leader=1, bids=(3, 3))
    assert read_knowledge(view).voids == 0b0111


def test_sampled_hands_are_consistent() -> None:
    past = [(0, "AH", "2C"), (0, "AD", "3D")]
    view = play_view("KH 5C 6C 7C 8D 9D 10D 2S 3S 4S 5S", past=past, pile_seen="QH JH 9C")
    know = read_knowledge(view)
    rng = random.Random(1)
    hearts = card_mask(Card(26 + r) for r in range(13))
    for _ in range(300):
        hand = sample_hand(know, rng, weight=lambda mask: 0.5)
        assert hand.bit_count() == know.opp_size
        assert hand & ~know.unseen == 0
        assert hand & hearts == 0


def test_hard_infers_from_a_follow_that_did_not_win() -> None:
    # The bot led the 9 of hearts; the opponent, still short of its bid of 5, played the 3
    # instead of winning: it most likely holds no heart above the 9.
    from engine.bot.search import follow_exclusions

    view = play_view("KC 5C 6C 7C 8D 9D 10D 2S 3S 4S 5S 2H", past=[(0, "9H", "3H")], bids=(3, 5))
    know = read_knowledge(view)
    assert follow_exclusions(view, know) == card_mask(cards("10H JH QH KH AH"))
    # content with its bid? no: at 0 of 5 it wanted the trick; a nil opponent ducks, which
    # says nothing about higher hearts
    nil_view = play_view(
        "KC 5C 6C 7C 8D 9D 10D 2S 3S 4S 5S 2H", past=[(0, "9H", "3H")], bids=(3, 0)
    )
    assert follow_exclusions(nil_view, read_knowledge(nil_view)) == 0


def test_a_ducking_opponent_that_won_held_nothing_lower() -> None:
    from engine.bot.search import follow_exclusions

    # the opponent bid nil and still won the bot's 6 of clubs with the 8: no lower club
    view = play_view("KC 5C 7C 8D 9D 10D 2S 3S 4S 5S 2H 3H", past=[(0, "6C", "8C")], bids=(3, 0))
    know = read_knowledge(view)
    assert follow_exclusions(view, know) == card_mask(cards("2C 3C 4C"))


def test_hard_weighs_a_discard_by_the_follow_model() -> None:
    # The bot led the 4 of clubs; the opponent, short of its bid of 5, showed out and threw
    # the 3 of hearts instead of ruffing: a hand with a spade would have ruffed (low), so
    # hands with spades are less likely; hands without spades fit the discard.
    from engine.bot.search import opponent_play_weight

    view = play_view("KC 5C 6C 7C 8D 9D 10D 2S 3S 4S 5S 2H", past=[(0, "4C", "3H")], bids=(3, 5))
    know = read_knowledge(view)
    weight = opponent_play_weight(view, know)
    assert weight is not None
    no_spades = card_mask(cards("4H 5H 6H 7H 8H 9H 4D 5D 6D 7D 8D 9D"))
    with_spade = card_mask(cards("4H 5H 6H 7H 8H 9H 4D 5D 6D 7D 8D 7S"))
    assert weight(no_spades) == 1.0
    assert weight(with_spade) < 0.5
    # with no spade and no hope of the trick, the model throws its lowest-ranked card: a
    # hand holding the 2 of diamonds would have thrown that, not the 3 of hearts
    lower_side = card_mask(cards("4H 5H 6H 7H 8H 9H 2D 5D 6D 7D 8D 9D"))
    assert weight(lower_side) < 1.0


def test_play_weighting_follows_the_equivalent_cards() -> None:
    from engine.bot.search import opponent_play_weight

    # at 0 of 5 the opponent won the bot's 9 of hearts with the queen; holding only the
    # queen and the king above the 9, the queen is the model's own card (the cheapest win)
    view = play_view("KC 5C 6C 7C 8D 9D 10D 2S 3S 4S 5S 2H", past=[(0, "9H", "QH")], bids=(3, 5))
    weight = opponent_play_weight(view, read_knowledge(view))
    assert weight is not None
    assert weight(card_mask(cards("KH 3H 4H 5H 6H 7H 2D 3D 4D 5D 6D 7D"))) == 1.0
    # with the 10 and the jack the model wins with the 10: the 10, jack and queen touch
    # in the opponent's hand, so the queen is as good a card (equivalent)
    assert weight(card_mask(cards("10H JH 4H 5H 6H 7H 2D 3D 4D 5D 6D 7D"))) == 1.0
    # with the 10 but not the jack (which lies elsewhere) the queen was not the model's card
    assert weight(card_mask(cards("10H 3H 4H 5H 6H 7H 2D 3D 4D 5D 6D 7D"))) < 1.0
    # no follow yet, or no bids: nothing to weigh
    fresh = play_view("KC 5C 6C 7C 8D 9D 10D 2S 3S 4S 5S 2H 9H", bids=(3, 5))
    assert opponent_play_weight(fresh, read_knowledge(fresh)) is None
