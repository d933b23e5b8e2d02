"""Shared helpers for the engine tests: dealing, driving drafts, random play, seen-card tracking."""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from engine import (
    CARDS,
    Action,
    Bid,
    BlindNil,
    Card,
    Commit,
    Deal,
    Discard,
    Exchange,
    GameState,
    Keep,
    Phase,
    RuleSet,
    Shuffle,
)

CLASSIC = RuleSet.preset("classic")
FIVE_HUNDRED = RuleSet.preset("five-hundred")


def seed_of(n: int) -> bytes:
    """A fixed 32-byte seed for test number ``n``."""
    return hashlib.sha256(b"spades-test-seed" + n.to_bytes(8, "big")).digest()


def dealt(rules: RuleSet, seed: bytes = b"\x00" * 32, entropy: tuple[bytes, ...] = ()) -> GameState:
    state = GameState(rules)
    state.apply(None, Deal(seed, entropy))
    return state


def stock(state: GameState) -> list[int]:
    """The current hand's stock order, top card first (from the record side of the state)."""
    return state.stocks[-1]


def stock_pos(state: GameState) -> int:
    return 52 - state.view_for(None).stock_left


# A draft policy sees (seat, top card, next card) and answers True for keep.
DraftPolicy = Callable[[int, Card, Card], bool]


def decline_blind_nil(state: GameState, declare: Iterable[int] = ()) -> None:
    """Answer the blind-nil declarations (declaring for the seats in ``declare``)."""
    wanted = set(declare)
    while state.phase is Phase.BLIND_NIL:
        seat = state.current_player
        assert seat is not None
        state.apply(seat, BlindNil(seat in wanted))


def run_draft(state: GameState, policy: DraftPolicy) -> None:
    """Play the whole draft with ``policy`` (which may peek at the next stock card)."""
    while state.phase is Phase.DRAFT:
        seat = state.current_player
        assert seat is not None
        pos = stock_pos(state)
        deck = stock(state)
        keep = policy(seat, CARDS[deck[pos]], CARDS[deck[pos + 1]])
        state.apply(seat, Keep() if keep else Discard())


def keep_all(seat: int, top: Card, following: Card) -> bool:
    return True


def prefer(scores: Callable[[int, Card], float]) -> DraftPolicy:
    """A draft policy taking, of the two cards it can get, the one with the higher score."""

    def policy(seat: int, top: Card, following: Card) -> bool:
        return scores(seat, top) >= scores(seat, following)

    return policy


def run_exchanges(
    state: GameState, choose: Callable[[int, tuple[Card, ...]], tuple[Card, ...]]
) -> None:
    while state.phase is Phase.EXCHANGE:
        seat = state.current_player
        assert seat is not None
        state.apply(seat, Exchange(choose(seat, state.hand_of(seat))))


def run_bids(state: GameState, bids: dict[int, int] | Callable[[int], int]) -> None:
    while state.phase is Phase.BIDDING:
        seat = state.current_player
        assert seat is not None
        state.apply(seat, Bid(bids[seat] if isinstance(bids, dict) else bids(seat)))


def random_action(state: GameState, rng: random.Random) -> tuple[int | None, Action]:
    """A uniformly chosen legal action for whoever moves now (a Deal at chance nodes).

    In the exchange phase it samples a subset directly instead of enumerating all of them.
    """
    seat = state.current_player
    if seat is None:
        entropy = tuple(rng.randbytes(rng.randrange(0, 9)) for _ in range(rng.randrange(0, 3)))
        return None, Deal(rng.randbytes(32), entropy)
    if state.phase is Phase.EXCHANGE:
        held = list(state.hand_of(seat))
        size = rng.randrange(0, min(state.rules.blind_nil_exchange, len(held)) + 1)
        return seat, Exchange(tuple(rng.sample(held, size)))
    return seat, rng.choice(state.legal_actions(seat))


def random_game(
    rules: RuleSet, rng: random.Random, max_hands: int = 10_000
) -> Iterator[tuple[GameState, int | None, Action, Any]]:
    """Play random legal actions; yields ``(state, seat, action, outcome)`` after each one.

    Stops at game over, or before the Deal of hand ``max_hands + 1``.
    """
    state = GameState(rules)
    while not state.is_over:
        if state.is_chance_node and len(state.hand_results) >= max_hands:
            return
        seat, action = random_action(state, rng)
        outcome = state.apply(seat, action)
        yield state, seat, action, outcome


def seat_turns(rules: RuleSet, rng: random.Random, cap: int) -> Iterator[tuple[GameState, int]]:
    """Walk a game whose chance input is the server's (a commit, then an empty shuffle):
    yields ``(state, seat)`` at each seat's turn, and the caller applies that seat's
    action before asking for the next (else the same turn comes again). Stops at game
    over or once ``state.version`` reaches ``cap``."""
    state = GameState(rules)
    while not state.is_over and state.version < cap:
        if state.is_chance_node:
            state.apply(None, Commit(rng.randbytes(32)))
            state.apply(None, Shuffle((b"", b"")))
            continue
        seat = state.current_player
        assert seat is not None
        yield state, seat


def all_cards_in(value: Any) -> set[int]:
    """Every Card anywhere inside ``value`` (dataclasses, tuples, lists, dicts)."""
    found: set[int] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, Card):
            found.add(int(item))
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            stack.extend(getattr(item, f.name) for f in dataclasses.fields(item))
        elif isinstance(item, tuple | list | set | frozenset):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return found


def cards_of(state: GameState, seat: int) -> set[int]:
    return {int(c) for c in state.hand_of(seat)}


def to_play(
    rules: RuleSet,
    seed: bytes,
    policy: DraftPolicy = keep_all,
    bids: dict[int, int] | Callable[[int], int] = lambda seat: 3,
    declare: Iterable[int] = (),
    exchange: Callable[[int, tuple[Card, ...]], tuple[Card, ...]] = lambda seat, held: (),
) -> GameState:
    """Deal ``seed`` and run declarations, draft, exchanges and bids up to the first trick."""
    state = dealt(rules, seed)
    decline_blind_nil(state, declare)
    run_draft(state, policy)
    run_exchanges(state, exchange)
    run_bids(state, bids)
    assert state.phase is Phase.PLAY
    return state


PlayPolicy = Callable[[GameState, int, tuple[Action, ...]], Action]


def lowest(state: GameState, seat: int, legal: tuple[Action, ...]) -> Action:
    return legal[0]


def play_hand(state: GameState, choose: PlayPolicy = lowest) -> None:
    """Play the rest of the current hand with ``choose``."""
    while state.phase is Phase.PLAY:
        seat = state.current_player
        assert seat is not None
        state.apply(seat, choose(state, seat, state.legal_actions(seat)))


def find_play_state(
    rules: RuleSet,
    predicate: Callable[[GameState], bool],
    choose: PlayPolicy = lowest,
    policy: DraftPolicy = keep_all,
    seeds: Iterable[int] = range(500),
) -> GameState:
    """The first play-phase state (over test seeds, in play order) where ``predicate`` holds."""
    for n in seeds:
        state = to_play(rules, seed_of(n), policy)
        while state.phase is Phase.PLAY:
            if predicate(state):
                return state
            seat = state.current_player
            assert seat is not None
            state.apply(seat, choose(state, seat, state.legal_actions(seat)))
    raise AssertionError("no test seed reaches the wanted position")


class ReferenceStream:
    """An independent re-implementation of the documented shuffle stream (engine.shuffle).

    Key = SHA-256(b"spades/v1" + seed + per entropy value: 2-byte big-endian length + value);
    block i = SHA-256(key + i as 8 bytes big-endian); words are 4-byte big-endian; an index
    below ``bound`` is drawn by rejection sampling under the largest multiple of ``bound``.
    """

    def __init__(self, seed: bytes, entropy: tuple[bytes, ...] = ()) -> None:
        material = b"spades/v1" + seed + b"".join(len(e).to_bytes(2, "big") + e for e in entropy)
        self.key = hashlib.sha256(material).digest()
        self.words: list[int] = []
        self.block = 0

    def word(self) -> int:
        if not self.words:
            digest = hashlib.sha256(self.key + self.block.to_bytes(8, "big")).digest()
            self.block += 1
            self.words = [int.from_bytes(digest[i : i + 4], "big") for i in range(0, 32, 4)]
        return self.words.pop(0)

    def below(self, bound: int) -> int:
        limit = 2**32 - (2**32 % bound)
        while True:
            w = self.word()
            if w < limit:
                return w % bound

    def deck(self) -> list[int]:
        cards = list(range(52))
        for i in range(51, 0, -1):
            j = self.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cards
