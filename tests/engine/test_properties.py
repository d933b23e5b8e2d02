"""Property tests: random seeds, random rule sets, random legal play of whole games.

Every state reached is checked for: 52 cards conserved; what each view and each per-viewer
event may hold; that the views' legal actions agree with the state's; that every kind of
illegal action raises and leaves the state byte-for-byte unchanged. Every hand is checked
for 13 tricks and its score, and the record replays (through JSON) to an equal state.

Random bidding drifts scores downwards, so the games use a low target, mostly a lose
score, and a cap on the number of hands.
"""

from __future__ import annotations

import contextlib
import json
import pickle
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    CARDS,
    Action,
    Bid,
    BlindNil,
    Deal,
    Discard,
    EngineError,
    Exchange,
    GameState,
    IllegalActionError,
    Keep,
    Outcome,
    Phase,
    Play,
    RuleSet,
    TrickWon,
    game_record,
    replay,
    score_seat,
)
from tests.engine.helpers import all_cards_in, random_action

PROPERTY = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

MAX_HANDS = 5

rule_sets = st.builds(
    RuleSet,
    target_score=st.integers(50, 150),
    first_bidder=st.sampled_from(["first_drafter", "second_drafter"]),
    see_card_after_keep=st.booleans(),
    nil=st.booleans(),
    nil_bonus=st.integers(0, 200),
    blind_nil=st.booleans(),
    blind_nil_bonus=st.integers(0, 300),
    blind_nil_exchange=st.integers(0, 13),
    blind_nil_min_deficit=st.none() | st.integers(0, 120),
    bag_limit=st.integers(1, 12),
    bag_penalty=st.integers(0, 150),
    failed_nil_tricks_are_bags=st.booleans(),
    lose_score=st.none() | st.integers(-200, -20),
)


def preset_with(name: str) -> st.SearchStrategy[RuleSet]:
    return st.builds(
        lambda target, lose: RuleSet.preset(name, target_score=target, lose_score=lose),
        st.integers(50, 150),
        st.none() | st.integers(-150, -40),
    )


presets = st.sampled_from(["classic", "five-hundred"]).flatmap(preset_with)


class Checker:
    """Follows a game from outside, knowing what each seat has legitimately seen."""

    def __init__(self, state: GameState, rng: random.Random) -> None:
        self.state = state
        self.rng = rng
        self.seen: list[set[int]] = [set(), set()]
        self.played: set[int] = set()
        self.tricks_this_hand = 0
        self.checked_illegal = 0

    # ---- independent bookkeeping ------------------------------------------------------

    def before(self, seat: int | None, action: Action) -> dict[str, Any]:
        state = self.state
        note: dict[str, Any] = {}
        if state.phase is Phase.DRAFT:
            pos = 52 - state.view_for(None).stock_left
            note["top"], note["next"] = state.stocks[-1][pos], state.stocks[-1][pos + 1]
        if seat is not None:
            note["held"] = {int(c) for c in state.hand_of(seat)}
        return note

    def after(
        self, seat: int | None, action: Action, note: dict[str, Any], outcome: Outcome
    ) -> None:
        state = self.state
        if isinstance(action, Deal):
            self.seen = [set(), set()]
            self.played = set()
            self.tricks_this_hand = 0
        elif isinstance(action, Keep | Discard):
            assert seat is not None
            self.seen[seat].add(note["top"])
            if isinstance(action, Discard) or state.rules.see_card_after_keep:
                self.seen[seat].add(note["next"])
        elif isinstance(action, Exchange):
            assert seat is not None
            received = {int(c) for c in state.hand_of(seat)} - note["held"]
            assert len(received) == len(action.cards)
            self.seen[seat] |= received
        elif isinstance(action, Play):
            self.played.add(int(action.card))
        self.tricks_this_hand += sum(isinstance(e, TrickWon) for e in outcome.for_viewer(None))
        self.check_events(outcome)

    # ---- the checks ------------------------------------------------------------------

    def check_conservation(self) -> None:
        state = self.state
        hand = state._hand
        if hand is None:
            return
        parts = [hand.hands[0], hand.hands[1]]
        for card in hand.pile:
            parts.append(1 << card)
        for card in hand.stock[hand.stock_pos :]:
            parts.append(1 << card)
        for trick in hand.tricks:
            parts.extend(1 << c for c in trick.cards)
        parts.extend(1 << c for c in hand.trick)
        union = 0
        total = 0
        for part in parts:
            assert union & part == 0, "a card is in two places"
            union |= part
            total += part.bit_count()
        assert union == (1 << 52) - 1 and total == 52
        assert {int(c) for c in state.hand_of(0)} <= self.seen[0]
        assert {int(c) for c in state.hand_of(1)} <= self.seen[1]

    def allowed(self, viewer: int | None) -> set[int]:
        if viewer is None:
            return set(self.played)
        return self.seen[viewer] | self.played

    def check_views(self) -> None:
        state = self.state
        spectator = state.view_for(None)
        assert all_cards_in(spectator) <= self.played
        assert spectator.hand == () and spectator.offered is None
        for viewer in (0, 1):
            view = state.view_for(viewer)
            allowed = self.allowed(viewer)
            if state.phase is Phase.DRAFT and state.current_player == viewer:
                top = state.stocks[-1][52 - spectator.stock_left]
                assert view.offered == CARDS[top]
                allowed = allowed | {top}
            else:
                assert view.offered is None
            cards = all_cards_in(view)
            assert cards <= allowed, f"seat {viewer} sees {sorted(cards - allowed)}"
            assert view.hand == state.hand_of(viewer)
            assert not {int(c) for c in view.hand} & {int(c) for c in state.hand_of(1 - viewer)}
            if state.phase is not Phase.EXCHANGE or (
                viewer == state.current_player and state.rules.blind_nil_exchange <= 4
            ):
                assert view.legal_actions() == state.legal_actions(viewer)
            # public fields agree with the spectator's
            for name in ("scores", "bags", "bids", "tricks", "tricks_won", "blind_nil", "phase"):
                assert getattr(view, name) == getattr(spectator, name)

    def check_events(self, outcome: Outcome) -> None:
        for viewer in (0, 1, None):
            cards = all_cards_in(outcome.for_viewer(viewer))
            assert cards <= self.allowed(viewer), f"viewer {viewer} told {sorted(cards)}"

    def check_hand_over(self) -> None:
        state = self.state
        assert self.tricks_this_hand == 13
        result = state.hand_results[-1]
        assert sum(result.tricks) == 13
        assert state.scores == [sum(r.points[s] for r in state.hand_results) for s in (0, 1)]
        bags_before = state.hand_results[-2].bags if len(state.hand_results) > 1 else (0, 0)
        for seat in (0, 1):
            expected = score_seat(
                state.rules,
                result.bids[seat],
                result.blind_nil[seat],
                result.tricks[seat],
                bags_before[seat],
            )
            assert (result.points[seat], result.bags_added[seat]) == expected[:2]
            assert (result.bag_penalties[seat], result.bags[seat]) == expected[2:]
            assert (result.bids[seat] is None) == result.blind_nil[seat]
        assert list(result.bags) == state.bags
        self.check_replay()

    def check_replay(self) -> None:
        record = json.loads(json.dumps(game_record(self.state)))
        assert replay(record) == self.state

    # ---- illegal actions -------------------------------------------------------------

    def illegal_candidates(self) -> list[tuple[int | None, Any]]:
        state, rng = self.state, self.rng
        seat = state.current_player
        some_card = CARDS[rng.randrange(52)]
        everything: list[Any] = [
            Keep(),
            Discard(),
            BlindNil(True),
            BlindNil(False),
            Bid(3),
            Exchange(()),
            Play(some_card),
        ]
        if state.is_over:
            return [(s, a) for s in (0, 1) for a in everything] + [(None, Deal(bytes(32)))]
        if seat is None:
            return [(s, a) for s in (0, 1) for a in everything] + [
                (0, Deal(bytes(32))),
                (None, Keep()),
                (None, Play(some_card)),
            ]
        other = 1 - seat
        legal = state.legal_actions(seat) if state.phase is not Phase.EXCHANGE else (Exchange(()),)
        out: list[tuple[int | None, Any]] = [
            (other, legal[0]),
            (None, legal[0]),
            (2, legal[0]),
            (None, Deal(bytes(32))),
            (seat, Deal(bytes(32))),
        ]
        wanted = {
            Phase.BLIND_NIL: BlindNil,
            Phase.DRAFT: Keep | Discard,
            Phase.EXCHANGE: Exchange,
            Phase.BIDDING: Bid,
            Phase.PLAY: Play,
        }[state.phase]
        out += [(seat, a) for a in everything if not isinstance(a, wanted)]
        mine = state.hand_of(seat)
        theirs = state.hand_of(other)
        if state.phase is Phase.BIDDING:
            out += [(seat, Bid(14)), (seat, Bid(-1)), (seat, Bid(True))]
            if not state.rules.nil:
                out.append((seat, Bid(0)))
        elif state.phase is Phase.PLAY:
            if theirs:
                out.append((seat, Play(rng.choice(theirs))))
            legal_cards = {a.card for a in legal if isinstance(a, Play)}
            out += [(seat, Play(c)) for c in mine if c not in legal_cards]
            out.append((seat, Play(51)))  # an int is not a Card
        elif state.phase is Phase.EXCHANGE:
            limit = state.rules.blind_nil_exchange
            if limit + 1 <= len(mine):
                out.append((seat, Exchange(tuple(mine[: limit + 1]))))
            out.append((seat, Exchange((theirs[0],))))
            if limit >= 2:
                out.append((seat, Exchange((mine[0], mine[0]))))
        elif state.phase is Phase.BLIND_NIL and BlindNil(True) not in legal:
            out.append((seat, BlindNil(True)))
        return out

    def check_illegal(self) -> None:
        """Every candidate raises; the state is byte-for-byte what it was after all of them.

        (Pickling the whole state per candidate is slow; one comparison after the batch
        catches any change, and a failure is then narrowed down to the guilty candidate.)
        """
        state = self.state
        before = pickle.dumps(state)
        candidates = self.illegal_candidates()
        for seat, action in candidates:
            with pytest.raises(IllegalActionError):
                state.apply(seat, action)
            self.checked_illegal += 1
        if state.is_chance_node:
            with pytest.raises(EngineError):
                state.apply(None, Deal(b"\x01" * 31))
        if pickle.dumps(state) != before:
            for seat, action in candidates:
                fresh = pickle.loads(before)
                with contextlib.suppress(EngineError):
                    fresh.apply(seat, action)
                assert pickle.dumps(fresh) == before, f"{seat}: {action} changed the state"
            raise AssertionError("an illegal Deal changed the state")
        assert pickle.loads(before) == state


def run_game(rules: RuleSet, game_seed: int, illegal_every: int = 1) -> Checker:
    rng = random.Random(game_seed)
    state = GameState(rules)
    checker = Checker(state, rng)
    step = 0
    checker.check_illegal()
    while not state.is_over:
        if state.is_chance_node and len(state.hand_results) >= MAX_HANDS:
            break
        seat, action = random_action(state, rng)
        note = checker.before(seat, action)
        outcome = state.apply(seat, action)
        checker.after(seat, action, note, outcome)
        checker.check_conservation()
        checker.check_views()
        step += 1
        if step % illegal_every == 0 or state.is_chance_node:
            checker.check_illegal()
        if state.is_chance_node:
            checker.check_hand_over()
        elif rng.random() < 0.01:
            checker.check_replay()
    if state.is_over:
        assert state.winner is not None
        first, second = state.scores
        assert (first > second) == (state.winner == 0) and first != second
        target, lose = state.rules.target_score, state.rules.lose_score
        assert max(first, second) >= target or (lose is not None and min(first, second) <= lose)
    return checker


@pytest.mark.parametrize("preset", ["classic", "five-hundred"])
@settings(PROPERTY, max_examples=25)
@given(data=st.data(), game_seed=st.integers(0, 2**64 - 1))
def test_property_whole_games_under_the_presets(
    preset: str, data: st.DataObject, game_seed: int
) -> None:
    rules = data.draw(preset_with(preset))
    checker = run_game(rules, game_seed)
    assert checker.checked_illegal > 0


@settings(PROPERTY, max_examples=40)
@given(rules=rule_sets, game_seed=st.integers(0, 2**64 - 1))
def test_property_whole_games_under_random_rule_sets(rules: RuleSet, game_seed: int) -> None:
    checker = run_game(rules, game_seed, illegal_every=3)
    assert checker.checked_illegal > 0


@settings(PROPERTY, max_examples=40)
@given(
    rules=presets,
    seed=st.binary(min_size=32, max_size=64),
    entropy=st.lists(st.binary(max_size=64), max_size=2).map(tuple),
    choices=st.lists(st.integers(0, 1000), min_size=60, max_size=60),
)
def test_property_one_hand_from_any_seed_and_entropy(
    rules: RuleSet, seed: bytes, entropy: tuple[bytes, ...], choices: list[int]
) -> None:
    """Hypothesis picks the seed, the seat entropy and every choice of a hand."""
    state = GameState(rules)
    state.apply(None, Deal(seed, entropy))
    assert sorted(state.stocks[-1]) == list(range(52))
    for choice in choices:
        seat = state.current_player
        if seat is None:
            break
        if state.phase is Phase.EXCHANGE:
            held = state.hand_of(seat)
            action: Action = Exchange(tuple(held[: choice % 4]))
        else:
            legal = state.legal_actions(seat)
            action = legal[choice % len(legal)]
        before = pickle.dumps(state)
        state.apply(seat, action)
        assert pickle.dumps(state) != before
    record = json.loads(json.dumps(game_record(state)))
    assert replay(record) == state
    if state.hand_results:
        assert sum(state.hand_results[0].tricks) == 13
        assert state.hand_of(0) == state.hand_of(1) == ()
