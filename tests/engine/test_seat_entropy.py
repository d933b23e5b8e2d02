"""RULES.md §1: each seat may mix in a random value of its own, sent after the server's
commitment and before the first card is drawn, so that not even the server can choose
the deck. The engine's two-step deal: ``Commit(seed)`` then ``Shuffle((e0, e1))``."""

from __future__ import annotations

import copy
import json
import random

import pytest

from engine import (
    Commit,
    Deal,
    EngineError,
    GameState,
    HandStarted,
    IllegalActionError,
    Keep,
    Phase,
    Shuffle,
    Shuffled,
    game_record,
    parse_action,
    replay,
    shuffled_deck,
    verify,
)
from engine.shuffle import commitment_of
from tests.engine.helpers import CLASSIC, FIVE_HUNDRED, seed_of

E0, E1 = b"\x01" * 32, b"seat one's own random value....."


def test_rule_each_seat_may_mix_in_entropy_after_the_commitment() -> None:
    seed = seed_of(11)
    state = GameState(CLASSIC)
    outcome = state.apply(None, Commit(seed))
    for viewer in (0, 1, None):
        (started,) = outcome.for_viewer(viewer)
        assert isinstance(started, HandStarted)
        assert started.commitment == commitment_of(seed) and started.hand_number == 1
    # the hand has started, nothing is drawn, nobody may act but chance
    assert state.phase is Phase.DEAL and state.current_player is None
    assert state.awaiting_shuffle and state.is_chance_node and state.stocks == []
    view = state.view_for(0)
    assert view.commitment == commitment_of(seed) and view.stock_left == 52 and not view.hand
    outcome = state.apply(None, Shuffle((E0, E1)))
    (shuffled,) = outcome.for_viewer(1)
    assert shuffled == Shuffled(1, (True, True))
    assert state.stocks == [shuffled_deck(seed, (E0, E1))]
    assert state.stocks[0] != shuffled_deck(seed)  # the seats' values changed the deck
    assert verify(commitment_of(seed), seed, (E0, E1), state.stocks[0])
    assert state.phase is Phase.DRAFT and state.current_player == started.first_drafter
    assert state.view_for(state.current_player).offered is not None


def test_rule_seat_entropy_a_silent_seat_contributes_nothing() -> None:
    seed = seed_of(12)
    state = GameState(FIVE_HUNDRED)
    state.apply(None, Commit(seed))
    (shuffled,) = state.apply(None, Shuffle((b"", E1))).for_viewer(None)
    assert shuffled == Shuffled(1, (False, True))
    assert state.stocks[0] == shuffled_deck(seed, (b"", E1))
    assert state.phase is Phase.BLIND_NIL


def test_rule_seat_entropy_first_drafter_is_known_when_the_hand_starts() -> None:
    # whatever the seats send, the first drafter was fixed by the commitment's seed
    drafters = set()
    for entropy in ((b"", b""), (E0, E1), (b"\x07", b"\x09")):
        state = GameState(CLASSIC)
        (started,) = state.apply(None, Commit(seed_of(13))).for_viewer(None)
        state.apply(None, Shuffle(entropy))
        assert state.current_player == started.first_drafter
        drafters.add(started.first_drafter)
    assert len(drafters) == 1


def _illegal_inputs(state: GameState) -> list[tuple[int | None, object]]:
    return [
        (None, Shuffle((E0, E1))),
        (None, Commit(seed_of(1))),
        (None, Deal(seed_of(1))),
        (0, Keep()),
        (0, Shuffle((E0, E1))),
        (None, Shuffle((b"x" * 65, b""))),
        (None, Shuffle((E0,))),  # type: ignore[arg-type]
        (None, Commit(b"short")),
    ]


@pytest.mark.parametrize("stage", ["before_commit", "awaiting_shuffle", "drafting"])
def test_rule_seat_entropy_bad_steps_change_nothing(stage: str) -> None:
    state = GameState(CLASSIC)
    if stage != "before_commit":
        state.apply(None, Commit(seed_of(14)))
    if stage == "drafting":
        state.apply(None, Shuffle((E0, E1)))
    refused = 0
    for seat, action in _illegal_inputs(state):
        allowed = (stage == "before_commit" and isinstance(action, Deal | Commit)) or (
            stage == "awaiting_shuffle" and action == Shuffle((E0, E1)) and seat is None
        )
        allowed = allowed and (not isinstance(action, Commit) or len(action.seed) >= 32)
        if stage == "drafting" and seat == 0 and isinstance(action, Keep):
            allowed = state.current_player == 0
        if allowed:
            continue
        before = copy.deepcopy(state)
        with pytest.raises(EngineError):
            state.apply(seat, action)  # type: ignore[arg-type]
        assert state == before
        refused += 1
    assert refused >= 5


def _play_two_step(rules: object, rng: random.Random, hands: int | None = None) -> GameState:
    state = GameState(rules)  # type: ignore[arg-type]
    while not state.is_over and (hands is None or len(state.hand_results) < hands):
        seat = state.current_player
        if seat is None:
            if state.awaiting_shuffle:
                entropy = (rng.randbytes(rng.choice((0, 32))), rng.randbytes(rng.choice((0, 32))))
                state.apply(None, Shuffle(entropy))
            else:
                state.apply(None, Commit(rng.randbytes(32)))
            continue
        view = state.view_for(seat)
        if view.phase is Phase.EXCHANGE:
            continue_with = parse_action("exchange")
        else:
            continue_with = rng.choice(view.legal_actions())
        state.apply(seat, continue_with)
    return state


def test_rule_seat_entropy_records_replay_and_every_hand_verifies() -> None:
    state = _play_two_step(FIVE_HUNDRED.__class__.preset("five-hundred"), random.Random(3), hands=3)
    record = json.loads(json.dumps(game_record(state)))
    assert replay(record) == state
    texts = [text for _, text in record["actions"]]
    assert sum(t.startswith("commit ") for t in texts) == len(record["hands"])
    assert sum(t.startswith("shuffle ") for t in texts) >= len(record["hands"]) - 1
    for hand in record["hands"]:
        entropy = [bytes.fromhex(value) for value in hand["entropy"]]
        seed = bytes.fromhex(hand["seed"])
        stock = shuffled_deck(seed, entropy)
        assert verify(hand["commitment"], seed, entropy, stock)
        assert hand["actions"][0][1] == f"commit {hand['seed']}"
        assert len(hand["entropy"]) == 2


@pytest.mark.parametrize("cut_at", [1, 2, 30])
def test_rule_seat_entropy_a_hand_cut_short_reveals_its_seed(cut_at: int) -> None:
    # a game forfeited mid-hand: after the commit (cut_at 1), right after the shuffle (2)
    # or mid-draft; the record still reveals the cut hand's seed and it verifies
    rng = random.Random(cut_at)
    state = _play_two_step(CLASSIC, rng, hands=1)
    for _ in range(cut_at):
        seat = state.current_player
        if seat is None:
            if state.awaiting_shuffle:
                state.apply(None, Shuffle((E0, b"")))
            else:
                state.apply(None, Commit(rng.randbytes(32)))
        else:
            state.apply(seat, rng.choice(state.view_for(seat).legal_actions()))
    record = game_record(state)
    last = record["hands"][-1]
    assert "points" not in last  # not scored: cut short
    seed = bytes.fromhex(last["seed"])
    assert commitment_of(seed) == last["commitment"]
    if cut_at >= 2:
        entropy = [bytes.fromhex(value) for value in last["entropy"]]
        assert last["entropy"] == [E0.hex(), ""]
        assert verify(last["commitment"], seed, entropy, [_index(c) for c in last["stock"].split()])
    else:
        assert last["stock"] == "" and last["entropy"] == []
    assert replay(record) == state


def _index(text: str) -> int:
    from engine import Card

    return int(Card.parse(text))


def test_rule_seat_entropy_text_forms_round_trip() -> None:
    for action in (Commit(seed_of(2)), Shuffle((E0, b"")), Shuffle((b"", b""))):
        assert parse_action(str(action)) == action
    assert str(Shuffle((b"", b"\xab"))) == "shuffle - ab"
    with pytest.raises(IllegalActionError):
        GameState(CLASSIC).apply(None, Shuffle((b"", b"")))
