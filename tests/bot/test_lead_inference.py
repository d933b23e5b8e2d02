"""The opponent's own leads as evidence about its hand (``SearchConfig.lead_mismatch``)."""

from __future__ import annotations

from dataclasses import replace

from engine import card_mask
from engine.bot import LEVEL_CONFIGS
from engine.bot.inference import opponent_lead_weight
from engine.bot.knowledge import read_knowledge
from tests.bot.helpers import cards, play_view

# The opponent (seat 1), short of its bid of 5, led the king of hearts and won it.
_VIEW = play_view("KC 5C 6C 7C 8D 9D 10D 2S 3S 4S 5S 3H", past=[(1, "KH", "2H")], bids=(3, 5))


def test_a_lead_the_model_would_not_make_lowers_the_weight() -> None:
    weight = opponent_lead_weight(_VIEW, read_knowledge(_VIEW), 0.5)
    assert weight is not None
    # with the ace the king is a master's equal: the model cashes the ace, the same card
    with_ace = card_mask(cards("AH 4H 5H 6H 7H 8H 2D 3D 4D 5D 6D 7D"))
    assert weight(with_ace) == 1.0
    # without the ace (unseen, so possibly the bot's) the model leads low in diamonds
    without_ace = card_mask(cards("QH 4H 5H 6H 7H 8H 2D 3D 4D 5D 6D 7D"))
    assert weight(without_ace) == 0.5


def test_leads_are_not_read_when_off_or_before_any_lead() -> None:
    know = read_knowledge(_VIEW)
    assert opponent_lead_weight(_VIEW, know, 1.0) is None
    fresh = play_view("KC 5C 6C 7C 8D 9D 10D 2S 3S 4S 5S 2H 3H", bids=(3, 5))
    assert opponent_lead_weight(fresh, read_knowledge(fresh), 0.5) is None


def test_served_hard_does_not_read_leads_and_scaling_keeps_the_field() -> None:
    hard = LEVEL_CONFIGS["hard"]
    assert hard.lead_mismatch == 1.0
    assert replace(hard, lead_mismatch=0.5).scaled(3000).lead_mismatch == 0.5
