"""Card play by one search tree over the seat's information sets (engine/bot/tree.py)."""

import random
from dataclasses import replace

from engine import Deal, GameState, Phase, RuleSet, legal_play_mask
from engine.bot import LEVEL_CONFIGS, Bot
from engine.bot.evaluate import modes_table
from engine.bot.knowledge import read_knowledge
from engine.bot.search import search_play
from engine.bot.tree import tree_card
from engine.cards import CARDS
from tests.bot.helpers import play_view, seed_of
from tests.bot.test_endgame import _guess_view, mask

SMALL_TREE = replace(LEVEL_CONFIGS["hard"].scaled(600), tree_iterations=1500)


def test_the_tree_bares_no_king_where_flat_sampling_guesses() -> None:
    # Three tricks left, the bot leads holding KH KD 3C and needs one trick; the opponent
    # holds AC 2S and a five, of hearts or of diamonds, as likely. After 3C it wins with
    # AC and leads 2S, and the bot must bare a king: a guess. Solved deal by deal the bot
    # always guesses right, so 3C looks as good as a king (test_endgame); the tree
    # chooses the bot's discard once for both deals, so it leads a king, made for sure.
    hand = mask("KH KD 3C")
    worlds = [mask("AC 2S 5H"), mask("AC 2S 5D")]
    turn = iter(range(10**6))
    util = [0.0] * 11 + [1.0, 0.99, 0.98]  # one more trick makes the bid; bags cost
    for iterations in (2000, 20_000):
        for seed in range(2):
            card = tree_card(
                hand,
                -1,
                True,
                (10, 0),
                modes_table((11, 2)),
                util,
                lambda: worlds[next(turn) % 2],
                random.Random(seed),
                iterations,
                50,
            )
            assert str(CARDS[card]) in ("KD", "KH")


def test_the_tree_follows_its_beliefs_where_flat_sampling_guesses() -> None:
    # The same ending in a hand (test_endgame): hard's sampler, reading the opponent's
    # follows, puts the five of diamonds with the opponent in most deals, so the tree
    # leads 3C and keeps KD for the last trick (no bag, set in the rare other deals),
    # as flat sampling does.
    view = _guess_view()
    know = read_knowledge(view)
    served = LEVEL_CONFIGS["hard"]
    assert served.tree_iterations == 26_000
    assert str(search_play(view, know, random.Random(0), served)) == "3C"
    assert (
        str(search_play(view, know, random.Random(0), replace(served, tree_iterations=0))) == "3C"
    )


def test_the_tree_takes_the_trick_the_bid_needs() -> None:
    # last two tricks: the bot has 2 of its 3 tricks, the opponent led KH; only AH wins
    past = [
        (0, "AS", "2S"),
        (0, "KS", "3S"),
        (1, "QC", "2D"),
        (1, "JC", "3D"),
        (1, "TC", "4D"),
        (1, "9C", "5D"),
        (1, "8C", "6D"),
        (1, "7C", "7D"),
        (1, "6C", "8D"),
        (1, "5C", "9D"),
        (1, "4C", "TD"),
    ]
    view = play_view("AH 2C", past=past, bids=(3, 8), current="KH")
    know = read_knowledge(view)
    for seed in range(3):
        assert str(search_play(view, know, random.Random(seed), SMALL_TREE)) == "AH"


def test_tree_cards_are_legal_and_reproducible_through_a_hand() -> None:
    rules = RuleSet.preset("classic")
    state = GameState(rules)
    players = [Bot("easy", seed=3), Bot("easy", seed=4)]
    state.apply(None, Deal(seed_of("tree", 1)))
    checked = 0
    while not state.hand_results:
        seat = state.current_player
        assert seat is not None
        view = state.view_for(seat)
        if view.phase is Phase.PLAY and len(view.legal_actions()) > 1:
            know = read_knowledge(view)
            config = replace(SMALL_TREE, tree_iterations=300)
            card = search_play(view, know, random.Random(checked), config)
            again = search_play(view, know, random.Random(checked), config)
            assert card == again
            assert legal_play_mask(know.hand, view.lead_suit, view.spades_broken) >> int(card) & 1
            checked += 1
        state.apply(seat, players[seat].choose(view))
    assert checked >= 10


def test_tree_card_draws_its_pool_once_and_plays_only_the_seats_cards() -> None:
    hand = mask("AH KH 2C")
    other = mask("QH 3C 4D")
    calls = []

    def draw() -> int:
        calls.append(1)
        return other

    util = [0.0, 0.4, 0.8, 1.0]
    card = tree_card(
        hand, -1, False, (0, 0), modes_table((3, 3)), util, draw, random.Random(1), 400, 25
    )
    assert len(calls) == 25
    assert hand >> card & 1


def test_while_a_nil_is_live_flat_sampling_plays() -> None:
    # hunting the opponent's nil, and covering the bot's own: the tree's cards would be
    # others (it leads 10D or JH into the hunt), the served cards are flat sampling's
    hunt = play_view("2C 9C KC 5D 10D AD 5H JH 6S 9S KS QD", bids=(5, 0), past=[(0, "4C", "KH")])
    cover = play_view("2H 3H 4H 6H 2D 4D 5D 7D 8D 9D KD 2S 3S", current="JC", bids=(0, 5))
    served = LEVEL_CONFIGS["hard"].scaled(1500)
    flat = replace(served, tree_iterations=0)
    for view in (hunt, cover):
        know = read_knowledge(view)
        for seed in range(2):
            card = search_play(view, know, random.Random(seed), served)
            assert card == search_play(view, know, random.Random(seed), flat)
    know = read_knowledge(hunt)
    assert str(search_play(hunt, know, random.Random(1), served)) in ("5D", "5H")


def test_the_field_scales_with_the_effort_and_normal_keeps_flat_sampling() -> None:
    assert LEVEL_CONFIGS["normal"].tree_iterations == 0
    assert LEVEL_CONFIGS["hard"].scaled(3000).tree_iterations == 13_000
    config = replace(LEVEL_CONFIGS["normal"], tree_iterations=20_000)
    assert config.scaled(config.playouts // 2).tree_iterations == 10_000
    assert LEVEL_CONFIGS["normal"].scaled(100).tree_iterations == 0
