"""The bag probe's classes (bench/bag_probe.py) and the chase share of the playouts."""

from bench.bag_probe import bag_class
from engine import Card
from engine.cards import card_mask
from tests.bot.helpers import cards


def _mask(text: str) -> int:
    return card_mask(cards(text))


def test_bag_class_reads_a_follow() -> None:
    # the other seat led the queen of hearts: holding the two, the seat could lose it
    assert bag_class(_mask("AH 2H"), 0, Card.parse("QH"), True, False) == "followed_could_lose"
    assert bag_class(_mask("AH KH"), 0, Card.parse("QH"), True, False) == "followed_forced"
    # void in hearts: any spade wins, a club loses
    assert bag_class(_mask("2S 3C"), 0, Card.parse("QH"), True, False) == "followed_could_lose"
    assert bag_class(_mask("2S"), 0, Card.parse("QH"), True, False) == "followed_forced"


def test_bag_class_reads_a_lead() -> None:
    # the other hand holds the king of hearts: a lead of the two could lose
    other = _mask("KH 4C")
    assert bag_class(_mask("AH 2H"), other, -1, False, True) == "led_could_lose"
    assert bag_class(_mask("AH AC"), other, -1, False, True) == "led_all_winners"


def test_modes_table_chase_share() -> None:
    from engine.bot.evaluate import modes_table

    # seat 0 bid 3 and took 3; seat 1 bid 5 and took 2, needs 3 of the 8 tricks left
    index = 3 * 14 + 2
    assert modes_table((3, 5))[index] & 1 == 0  # 3 of 8 is under half: no chase
    assert modes_table((3, 5), chase=0.3)[index] & 1 == 1  # chases from 30%
    # needing 5 of 10 (took none): chased at a half, not at two thirds
    assert modes_table((3, 5))[3 * 14] & 1 == 1
    assert modes_table((3, 5), chase=0.67)[3 * 14] & 1 == 0
    # seat 1's mood does not depend on seat 0's chase share
    assert [m & 2 for m in modes_table((3, 5), chase=0.9)] == [m & 2 for m in modes_table((3, 5))]
