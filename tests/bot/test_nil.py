"""Nil like a player: cover a live nil by shedding danger, and keep it alive when following."""

import random

import pytest

from engine import Bid, Card, Discard, Play
from engine.bot import LEVELS, Bot
from engine.bot.draft import search_draft
from tests.bot.helpers import bid_view, play_view
from tests.bot.test_draft import draft_view


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_live_nil_void_in_the_led_suit_sheds_its_king(level: str, seed: int) -> None:
    # no club to follow with: the king of hearts is the one card that can still win a
    # trick later, so it goes now (a spade would win this trick)
    view = play_view("2H 3H 4H 6H KH 2D 4D 5D 7D 8D 9D 2S 3S", current="9C", bids=(0, 5))
    assert Bot(level, seed=seed).choose(view) == Play(Card.parse("KH"))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_live_nil_sheds_a_high_card_before_a_low_one(seed: int) -> None:
    # the king of diamonds over six low diamonds against a club lead: hard sheds the king
    # (its rollouts value the king and the low diamonds within sampling noise)
    view = play_view("2H 3H 4H 6H 2D 4D 5D 7D 8D 9D KD 2S 3S", current="JC", bids=(0, 5))
    assert Bot("hard", seed=seed).choose(view) == Play(Card.parse("KD"))


LOW_PILE = "AC KC QC JC AD KD QD AH KH QH JS 10S 9S"


def test_hard_bids_nil_with_low_cards_and_low_spades() -> None:
    # every honour went to the pile in the draft; the spades held are the deuce and three
    view = bid_view("2C 3C 4C 5C 2D 3D 4D 2H 3H 4H 5H 2S 3S", LOW_PILE)
    assert Bot("hard", seed=5).choose(view) == Bid(0)


def test_hard_does_not_bid_nil_holding_the_ace_and_king_of_spades() -> None:
    # the same low side cards, but the two top spades: two sure tricks, never a nil
    view = bid_view("2C 3C 4C 5C 2D 3D 4D 2H 3H 4H 5H AS KS", LOW_PILE.replace("JS", "2S"))
    action = Bot("hard", seed=5).choose(view)
    assert isinstance(action, Bid)
    assert action.tricks >= 2


# Going after the opponent's nil: a seat that bid nil must be made to win a trick, so the
# hunter leads low (the nil seat has to go over it) and never into a suit the nil seat
# showed void in (it would shed a high card there for free).


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hunting_a_nil_leads_the_lowest_card(level: str, seed: int) -> None:
    view = play_view("2C 9C KC 3D 10D AD 5H JH 6S 9S KS QD 8C", bids=(5, 0))
    assert Bot(level, seed=seed).choose(view) == Play(Card.parse("2C"))


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hunting_a_nil_leads_away_from_the_suit_it_showed_void_in(level: str, seed: int) -> None:
    # the nil seat shed the king of hearts on a club lead: it has no club left, so the
    # deuce of clubs would let it shed another high card; a low diamond or heart must be
    # followed (the lowest card of the hand is no longer the right lead)
    view = play_view("2C 9C KC 5D 10D AD 5H JH 6S 9S KS QD", bids=(5, 0), past=[(0, "4C", "KH")])
    action = Bot(level, seed=seed).choose(view)
    assert action in (Play(Card.parse("5D")), Play(Card.parse("5H")))


def test_a_draft_leaning_to_nil_passes_the_ace_of_spades() -> None:
    # eight low cards after eight turns: the trick plan keeps the ace of spades (a sure
    # trick); with ``nil_lean`` the nil plan's survival reaches the lean, and the ace (a
    # sure end of any nil) goes to the pile
    view = draft_view("2C 3C 4D 5D 2H 3H 4H 2S", "AS", 8)
    assert all(search_draft(view, random.Random(seed), 160) for seed in range(6))
    assert not any(search_draft(view, random.Random(seed), 160, 0.3) for seed in range(6))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_hard_drafts_a_nil_leaning_hand_for_nil(seed: int) -> None:
    # hard as served leans to nil (``draft_nil_lean``): the same hand passes the ace
    view = draft_view("2C 3C 4D 5D 2H 3H 4H 2S", "AS", 8)
    assert Bot("hard", seed=seed).choose(view) == Discard()
