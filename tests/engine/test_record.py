"""The game record: complete, JSON-ready, replayable, and checked on replay."""

from __future__ import annotations

import copy
import json
import random

import pytest

from engine import (
    RECORD_FORMAT,
    Deal,
    Exchange,
    GameState,
    Phase,
    RecordError,
    format_cards,
    game_record,
    replay,
    shuffled_deck,
    verify,
)
from tests.engine.helpers import (
    CLASSIC,
    FIVE_HUNDRED,
    dealt,
    decline_blind_nil,
    keep_all,
    random_game,
    run_draft,
    seed_of,
)


def _finished_game() -> GameState:
    rules = FIVE_HUNDRED.replace(target_score=60, lose_score=-60)
    states = [state for state, _, _, _ in random_game(rules, random.Random(800))]
    assert states[-1].is_over
    return states[-1]


def test_record_is_complete_and_self_describing() -> None:
    state = _finished_game()
    record = game_record(state)
    assert json.loads(json.dumps(record)) == record
    assert record["format"] == RECORD_FORMAT
    assert record["rules"] == state.rules.to_dict()
    assert record["winner"] == state.winner and record["finished"] is True
    assert record["scores"] == state.scores and record["bags"] == state.bags
    assert len(record["actions"]) == len(state.actions) == record["version"]
    assert len(record["hands"]) == len(state.hand_results) >= 1
    for entry, result in zip(record["hands"], state.hand_results, strict=True):
        seed = bytes.fromhex(entry["seed"])
        entropy = tuple(bytes.fromhex(value) for value in entry["entropy"])
        deck = shuffled_deck(seed, entropy)
        assert entry["stock"] == format_cards(deck)
        assert verify(entry["commitment"], seed, entropy, deck)
        assert entry["points"] == list(result.points) and entry["tricks"] == list(result.tricks)
        assert sum(entry["tricks"]) == 13
        assert entry["actions"][0][0] is None and entry["actions"][0][1].startswith("deal ")
    assert sum(len(h["actions"]) for h in record["hands"]) == len(record["actions"])


def test_record_replays_to_the_identical_state() -> None:
    state = _finished_game()
    again = replay(json.loads(json.dumps(game_record(state))))
    assert again == state
    assert game_record(again) == game_record(state)
    # and mid-hand
    partial = dealt(CLASSIC, seed_of(801))
    run_draft(partial, keep_all)
    assert replay(json.loads(json.dumps(game_record(partial)))) == partial


def test_record_replay_detects_tampering() -> None:
    state = _finished_game()
    record = json.loads(json.dumps(game_record(state)))
    for mutate in (
        lambda r: r.__setitem__("winner", 1 - r["winner"]),
        lambda r: r["scores"].__setitem__(0, r["scores"][0] + 1),
        lambda r: r["hands"][0].__setitem__("stock", "2C"),
        lambda r: r["hands"][0]["points"].__setitem__(1, 999),
    ):
        bad = copy.deepcopy(record)
        mutate(bad)
        with pytest.raises(RecordError):
            replay(bad)
        replay(bad, check=False)  # the actions themselves still apply
    for broken in (
        {},
        {"format": "other"},
        {**record, "rules": {"target_score": 0}},
        {**record, "actions": [[None, "deal zz"]]},
        {**record, "actions": [[0, "keep"]]},
        {**record, "actions": [*record["actions"][:1], [5, "keep"]]},
        {**record, "actions": None},
    ):
        with pytest.raises(RecordError):
            replay(broken)


def test_record_of_an_exchange_named_in_any_order_replays() -> None:
    # regression: the record writes exchange cards sorted; the state must do the same, or a
    # replay differs (and with two blind-nil seats, the second draw from the pile changes)
    state = dealt(FIVE_HUNDRED, seed_of(802))
    decline_blind_nil(state, declare=[0, 1])
    run_draft(state, keep_all)
    while state.phase is Phase.EXCHANGE:
        seat = state.current_player
        held = state.hand_of(seat)
        state.apply(seat, Exchange((held[9], held[2], held[5])))
    assert replay(json.loads(json.dumps(game_record(state)))) == state


def test_record_of_a_deal_with_empty_or_listed_entropy_replays() -> None:
    # regression: an empty entropy value used to vanish from the text form of the Deal
    for entropy in ((b"",), (b"", b"\x01"), [b"\x02", b""]):
        state = GameState(CLASSIC)
        state.apply(None, Deal(seed_of(803), entropy))  # type: ignore[arg-type]
        assert replay(json.loads(json.dumps(game_record(state)))) == state
