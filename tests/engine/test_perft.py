"""Exact legal-action counts ("perft") for fixed seeds.

The numbers were computed once with the engine and are cross-checked here against an
independent legal-move generator written from RULES.md, so a change to move generation
cannot pass unnoticed. Paths are deterministic: always the first legal action, always the
last, or a fixed pattern.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from math import comb

from engine import (
    Action,
    Bid,
    BlindNil,
    Deal,
    Discard,
    Exchange,
    GameState,
    Keep,
    Phase,
    RuleSet,
)
from tests.engine.helpers import CLASSIC, FIVE_HUNDRED

SEED_A = bytes(range(32))
SEED_B = bytes(range(32, 64))


def reference_count(state: GameState) -> int:
    """How many actions RULES.md allows the seat to move, computed without the engine's
    move generator: from the seat's cards, the trick and the broken flag as a view shows."""
    seat = state.current_player
    assert seat is not None
    view = state.view_for(seat)
    rules = state.rules
    if view.phase is Phase.BLIND_NIL:
        deficit = view.scores[1 - seat] - view.scores[seat]
        minimum = rules.blind_nil_min_deficit
        return 2 if minimum is None or deficit >= minimum else 1
    if view.phase is Phase.DRAFT:
        return 2
    if view.phase is Phase.EXCHANGE:
        return sum(comb(len(view.hand), k) for k in range(min(13, rules.blind_nil_exchange) + 1))
    if view.phase is Phase.BIDDING:
        return 14 if rules.nil else 13
    assert view.phase is Phase.PLAY
    hand = [(c.suit, c.rank) for c in view.hand]
    if view.current_trick:
        led = view.current_trick[0].suit
        following = [c for c in hand if c[0] == led]
        return len(following) if following else len(hand)
    if view.spades_broken:
        return len(hand)
    plain = [c for c in hand if c[0] != 3]
    return len(plain) if plain else len(hand)


def walk(
    rules: RuleSet, seed: bytes, pick: Callable[[tuple[Action, ...], int], Action]
) -> tuple[GameState, list[int]]:
    state = GameState(rules)
    state.apply(None, Deal(seed))
    counts: list[int] = []
    while not state.is_chance_node:
        seat = state.current_player
        legal = state.legal_actions(seat)
        assert len(legal) == reference_count(state)
        assert len(set(legal)) == len(legal)
        counts.append(len(legal))
        state.apply(seat, pick(legal, len(counts)))
    return state, counts


DRAFT = [2] * 26

CLASSIC_FIRST = [
    *DRAFT, 14, 14,
    8, 3, 7, 2, 10, 3, 9, 1, 4, 9, 3, 8, 2, 4, 1, 3, 5, 1, 4, 4, 3, 3, 2, 2, 1, 1,
]  # fmt: skip
CLASSIC_LAST = [
    *DRAFT, 14, 14,
    9, 4, 8, 3, 7, 2, 7, 10, 9, 3, 8, 2, 7, 1, 6, 4, 5, 2, 4, 2, 3, 2, 2, 1, 1, 1,
]  # fmt: skip
FIVE_HUNDRED_FIRST = [
    2, 2, *DRAFT, 378, 378,
    11, 2, 10, 1, 6, 3, 8, 10, 7, 9, 6, 8, 5, 7, 4, 6, 3, 5, 4, 2, 3, 1, 2, 2, 1, 1,
]  # fmt: skip
FIVE_HUNDRED_PATTERN = [
    2, 2, *DRAFT, 378, 14,
    10, 5, 9, 4, 8, 3, 7, 3, 5, 1, 4, 2, 3, 3, 3, 1, 2, 5, 4, 3, 3, 3, 2, 2, 1, 1,
]  # fmt: skip


def test_perft_classic_first_legal_action_path() -> None:
    state, counts = walk(CLASSIC, SEED_A, lambda legal, i: legal[0])
    assert state.first_drafter == 1
    assert counts == CLASSIC_FIRST and sum(counts) == 183
    assert state.hand_results[0].tricks == (2, 11)


def test_perft_classic_last_legal_action_path() -> None:
    state, counts = walk(CLASSIC, SEED_A, lambda legal, i: legal[-1])
    assert counts == CLASSIC_LAST and sum(counts) == 193
    assert state.hand_results[0].tricks == (8, 5)


def test_perft_five_hundred_first_legal_action_path() -> None:
    # the first legal action declares blind nil: both seats exchange, nobody bids
    state, counts = walk(FIVE_HUNDRED, SEED_B, lambda legal, i: legal[0])
    assert state.first_drafter == 1
    assert counts == FIVE_HUNDRED_FIRST and sum(counts) == 939
    assert state.hand_results[0].tricks == (7, 6)
    assert state.hand_results[0].blind_nil == (True, True)


def test_perft_five_hundred_pattern_path() -> None:
    state, counts = walk(FIVE_HUNDRED, SEED_B, lambda legal, i: legal[i * 7 % len(legal)])
    assert counts == FIVE_HUNDRED_PATTERN and sum(counts) == 545
    assert state.hand_results[0].tricks == (6, 7)


def _start_of_play(rules: RuleSet, seed: bytes) -> GameState:
    state = GameState(rules)
    state.apply(None, Deal(seed))
    while state.phase is not Phase.PLAY:
        seat = state.current_player
        state.apply(seat, state.legal_actions(seat)[0])
    return state


def perft(state: GameState, depth: int) -> int:
    if depth == 0 or state.phase is not Phase.PLAY:
        return 1
    seat = state.current_player
    legal = state.legal_actions(seat)
    assert len(legal) == reference_count(state)
    if depth == 1:
        return len(legal)
    total = 0
    snapshot = pickle.dumps(state)
    for action in legal:
        child = pickle.loads(snapshot)
        child.apply(seat, action)
        total += perft(child, depth - 1)
    return total


def reference_perft(
    hands: tuple[frozenset[int], frozenset[int]],
    leader: int,
    led: int | None,
    broken: bool,
    depth: int,
) -> int:
    """Leaf count of the play tree, on plain sets of cards, straight from RULES.md 6."""
    if depth == 0 or not (hands[0] or hands[1]):
        return 1
    seat = leader if led is None else 1 - leader
    held = hands[seat]
    if led is not None:
        moves = {c for c in held if c // 13 == led // 13} or set(held)
    elif broken:
        moves = set(held)
    else:
        moves = {c for c in held if c // 13 != 3} or set(held)
    total = 0
    for card in moves:
        rest = list(hands)
        rest[seat] = held - {card}
        now_broken = broken or card // 13 == 3
        if led is None:
            total += reference_perft((rest[0], rest[1]), leader, card, now_broken, depth - 1)
        else:
            first, second = led, card
            if second // 13 == first // 13:
                winner = leader if first > second else seat
            else:
                winner = seat if second // 13 == 3 else leader
            total += reference_perft((rest[0], rest[1]), winner, None, now_broken, depth - 1)
    return total


def _reference_tree(state: GameState, depth: int) -> int:
    view = state.view_for(None)
    hands = (
        frozenset(int(c) for c in state.hand_of(0)),
        frozenset(int(c) for c in state.hand_of(1)),
    )
    led = int(view.current_trick[0]) if view.current_trick else None
    assert view.leader is not None
    return reference_perft(hands, view.leader, led, view.spades_broken, depth)


def test_perft_tree_from_the_first_trick_classic() -> None:
    state = _start_of_play(CLASSIC, SEED_A)
    counts = [perft(state, depth) for depth in range(1, 5)]
    assert counts == [8, 28, 240, 614]
    assert counts == [_reference_tree(state, depth) for depth in range(1, 5)]
    assert _reference_tree(state, 6) == 12830


def test_perft_tree_from_the_first_trick_five_hundred() -> None:
    state = _start_of_play(FIVE_HUNDRED, SEED_B)
    counts = [perft(state, depth) for depth in range(1, 5)]
    assert counts == [11, 28, 244, 628]
    assert counts == [_reference_tree(state, depth) for depth in range(1, 5)]


def test_perft_tree_from_mid_hand() -> None:
    state = _start_of_play(CLASSIC, SEED_A)
    for _ in range(14):  # seven tricks
        seat = state.current_player
        state.apply(seat, state.legal_actions(seat)[-1])
    assert state.view_for(None).hand_sizes == (6, 6)
    counts = [perft(state, depth) for depth in range(1, 7)]
    assert counts == [6, 18, 90, 210, 840, 1584]
    assert counts == [_reference_tree(state, depth) for depth in range(1, 7)]
    # and the whole rest of the hand, by the reference alone
    assert _reference_tree(state, 12) == 33264


def test_perft_bidding_and_draft_branching() -> None:
    state = GameState(CLASSIC.replace(nil=False))
    state.apply(None, Deal(SEED_A))
    assert state.legal_actions(state.current_player) == (Keep(), Discard())
    while state.phase is Phase.DRAFT:
        state.apply(state.current_player, Discard())
    assert state.legal_actions(state.current_player) == tuple(Bid(n) for n in range(1, 14))
    five = GameState(FIVE_HUNDRED.replace(blind_nil_min_deficit=1))
    five.apply(None, Deal(SEED_B))
    assert five.legal_actions(five.current_player) == (BlindNil(False),)
    exchange = GameState(FIVE_HUNDRED.replace(blind_nil_exchange=13))
    exchange.apply(None, Deal(SEED_B))
    while exchange.phase is not Phase.EXCHANGE:
        seat = exchange.current_player
        exchange.apply(seat, exchange.legal_actions(seat)[0])
    legal = exchange.legal_actions(exchange.current_player)
    assert len(legal) == 2**13 == reference_count(exchange)
    assert legal[0] == Exchange(()) and all(isinstance(a, Exchange) for a in legal)
