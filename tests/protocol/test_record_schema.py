"""The record format ``spades-record/1``: its JSON Schema is generated from
``protocol/record_format.py`` and real records of every kind validate against it, so
the schema in ``docs/`` cannot go stale without a test failing."""

from __future__ import annotations

import json
import random
from typing import Any

import jsonschema
import pytest
from pydantic import ValidationError

from engine import Commit, Deal, GameState, Phase, RuleSet, Shuffle, game_record
from protocol.record_format import GameRecordModel, RecordHand, record_json_schema
from protocol.schema import RECORD_SCHEMA_PATH, record_schema_text


def _play(rules: RuleSet, seed: int, two_step: bool, stop_after: int | None = None) -> GameState:
    rng = random.Random(seed)
    state = GameState(rules)
    steps = 0
    while not state.is_over and (stop_after is None or steps < stop_after):
        steps += 1
        seat = state.current_player
        if seat is None:
            if not two_step:
                state.apply(None, Deal(rng.randbytes(32)))
            elif state.awaiting_shuffle:
                state.apply(None, Shuffle((rng.randbytes(32), rng.choice((b"", b"\x05")))))
            else:
                state.apply(None, Commit(rng.randbytes(32)))
            continue
        view = state.view_for(seat)
        if view.phase is Phase.EXCHANGE:
            hand = list(view.hand)
            from engine import Exchange

            state.apply(seat, Exchange(tuple(rng.sample(hand, rng.randint(0, 3)))))
        else:
            state.apply(seat, rng.choice(view.legal_actions()))
    return state


FAST = {"target_score": 150, "lose_score": -150}


def _records() -> list[dict[str, Any]]:
    classic = RuleSet.preset("classic", **FAST)
    five = RuleSet.preset("five-hundred", **FAST)
    states = [
        _play(classic, 1, two_step=False),
        _play(five, 2, two_step=True),  # blind nils and exchanges, entropy from both
        _play(five, 3, two_step=True, stop_after=1),  # cut right after the commitment
        _play(five, 4, two_step=True, stop_after=70),  # cut mid-hand
        _play(classic, 5, two_step=False, stop_after=40),
    ]
    return [json.loads(json.dumps(game_record(state))) for state in states]


RECORDS = _records()


def test_the_schema_file_is_generated_from_the_models() -> None:
    assert RECORD_SCHEMA_PATH.read_text(encoding="utf-8") == record_schema_text(), (
        "docs/spades-record-1.schema.json is stale: run python3 -m protocol.schema --write"
    )
    jsonschema.Draft202012Validator.check_schema(record_json_schema())


@pytest.mark.parametrize("index", range(len(RECORDS)))
def test_real_records_validate_against_the_schema(index: int) -> None:
    record = RECORDS[index]
    schema = json.loads(RECORD_SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.validate(record, schema, cls=jsonschema.Draft202012Validator)
    GameRecordModel.model_validate(record)
    # every key the engine writes is in the models, and a scored hand has every field
    assert set(record) == set(GameRecordModel.model_fields)
    for hand in record["hands"]:
        if "points" in hand:
            assert set(hand) == set(RecordHand.model_fields)
        else:
            required = {n for n, f in RecordHand.model_fields.items() if f.is_required()}
            assert set(hand) == required


def test_the_schema_covers_the_cut_and_two_step_cases() -> None:
    texts = {text.split()[0] for record in RECORDS for _, text in record["actions"]}
    assert {"deal", "commit", "shuffle", "keep", "discard", "bid", "play"} <= texts
    assert any(not record["hands"][-1]["stock"] for record in RECORDS)  # cut before the draw
    assert any("points" not in record["hands"][-1] for record in RECORDS)


@pytest.mark.parametrize(
    "damage",
    [
        lambda r: r["actions"].append([0, "fly away"]),
        lambda r: r["hands"][0].pop("seed"),
        lambda r: r["hands"][0].update(entropy=["zz"]),
        lambda r: r.update(format="spades-record/2"),
        lambda r: r.update(extra=1),
        lambda r: r["hands"][0].update(stock="QS QS"),
    ],
)
def test_a_damaged_record_does_not_validate(damage: Any) -> None:
    record = json.loads(json.dumps(RECORDS[1]))
    damage(record)
    schema = record_json_schema()
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(record, schema, cls=jsonschema.Draft202012Validator)
    with pytest.raises(ValidationError):
        GameRecordModel.model_validate(record)
