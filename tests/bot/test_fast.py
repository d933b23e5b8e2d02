"""The bitmask fast path: the exact solver against brute-force minimax, the playouts."""

import random

from engine import card_mask, cards_in, legal_play_mask, parse_cards, trick_winner
from engine.bot.evaluate import modes_table
from engine.fast import greedy_playout, random_playout, solve


def brute(
    h0: int, h1: int, leader: int, card: int, broken: bool, won0: int, util: list[float]
) -> float:
    if card < 0:
        if not h0:
            return util[won0]
        held = h0 if leader == 0 else h1
        values = []
        for play in cards_in(legal_play_mask(held, -1, broken)):
            c = int(play)
            if leader == 0:
                values.append(brute(h0 & ~(1 << c), h1, leader, c, broken, won0, util))
            else:
                values.append(brute(h0, h1 & ~(1 << c), leader, c, broken, won0, util))
        return max(values) if leader == 0 else min(values)
    player = 1 - leader
    held = h0 if player == 0 else h1
    values = []
    for play in cards_in(legal_play_mask(held, card // 13, broken)):
        c = int(play)
        winner = trick_winner(leader, card, c)
        now_broken = broken or c // 13 == 3 or card // 13 == 3
        n0 = h0 & ~(1 << c) if player == 0 else h0
        n1 = h1 & ~(1 << c) if player == 1 else h1
        values.append(brute(n0, n1, winner, -1, now_broken, won0 + (winner == 0), util))
    return max(values) if player == 0 else min(values)


def deal(rng: random.Random, size: int) -> tuple[int, int]:
    cards = rng.sample(range(52), 2 * size)
    return sum(1 << c for c in cards[:size]), sum(1 << c for c in cards[size:])


def test_solver_matches_brute_force() -> None:
    rng = random.Random(11)
    for _ in range(250):
        size = rng.randint(1, 4)
        h0, h1 = deal(rng, size)
        util = [rng.uniform(-1.0, 1.0) for _ in range(14)]
        leader = rng.randrange(2)
        broken = rng.random() < 0.5
        won0 = rng.randint(0, 13 - size)
        assert (
            abs(
                solve(h0, h1, leader, -1, broken, won0, util)
                - brute(h0, h1, leader, -1, broken, won0, util)
            )
            < 1e-9
        )
        # with a card already led
        held = h0 if leader == 0 else h1
        led = int(cards_in(legal_play_mask(held, -1, broken))[0])
        n0 = h0 & ~(1 << led) if leader == 0 else h0
        n1 = h1 & ~(1 << led) if leader == 1 else h1
        expected = brute(n0, n1, leader, led, broken, won0, util)
        assert abs(solve(n0, n1, leader, led, broken, won0, util) - expected) < 1e-9


def test_playouts_play_every_card() -> None:
    rng = random.Random(3)
    modes = modes_table((4, 0))
    for _ in range(200):
        h0, h1 = deal(rng, 13)
        won0, won1, e0, e1, _, _ = greedy_playout(h0, h1, rng.randrange(2), -1, False, 0, 0, modes)
        assert won0 + won1 == 13 and e0 == e1 == 0
        assert sum(random_playout([h0, h1], 0, -1, False, [0, 0], rng)) == 13
        # stopping early leaves equal hands of the asked size
        won0, won1, e0, e1, _, _ = greedy_playout(h0, h1, 0, -1, False, 0, 0, modes, 4)
        assert won0 + won1 == 9 and e0.bit_count() == e1.bit_count() == 4


def test_fog_keeps_a_leader_from_cashing_a_card_it_cannot_know_is_high() -> None:
    # seat 0 holds KH 2C, seat 1 QH 3C; AH is out of both hands (in the pile)
    h0 = card_mask(parse_cards("KH 2C"))
    h1 = card_mask(parse_cards("QH 3C"))
    modes = modes_table((13, 13))
    seen = greedy_playout(h0, h1, 0, -1, False, 0, 0, modes, 1)
    # seeing seat 1's hand, seat 0 knows its king is the top heart and cashes it
    assert seen[2] == card_mask(parse_cards("2C")) and seen[0] == 1
    fogged = greedy_playout(h0, h1, 0, -1, False, 0, 0, modes, 1, card_mask(parse_cards("AH")))
    # not knowing where the ace is, it leads low in the suit seat 1 must follow instead
    assert fogged[2] == card_mask(parse_cards("KH")) and fogged[1] == 1
    # the fog of the other seat does not change seat 0's lead
    other_fog = greedy_playout(
        h0, h1, 0, -1, False, 0, 0, modes, 1, 0, card_mask(parse_cards("AH"))
    )
    assert other_fog == seen
