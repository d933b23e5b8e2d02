"""The page's replay model (client/web/replay/model.js, run under node) rebuilds every hand
of a record as the engine played it: the hands when play began (after the draft and a
blind-nil exchange), every trick's winner, the scores; and it numbers each seat's
decisions as the analysis does."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

from engine import Action, BlindNil, GameState, Phase, PlayerView, game_record, parse_action
from engine.analysis import analyze_record
from tests.analysis.helpers import CLASSIC, FIVE_HUNDRED, play

WEB = Path(__file__).resolve().parents[2] / "client" / "web"
RUNNER = Path(__file__).with_name("replay_runner.mjs")


def run_model(record: dict[str, Any]) -> dict[str, Any]:
    node = shutil.which("node") or "node"
    done = subprocess.run(
        [node, str(RUNNER), str(WEB)],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def engine_start_of_play(record: dict[str, Any]) -> dict[int, list[set[str]]]:
    """Each hand's two hands when play began, as the engine holds them."""
    from engine import RuleSet

    state = GameState(RuleSet.from_dict(record["rules"]))
    found: dict[int, list[set[str]]] = {}
    for seat, text in record["actions"]:
        if state.phase is Phase.PLAY and state.hand_number not in found:
            found[state.hand_number] = [{str(c) for c in state.hand_of(s)} for s in (0, 1)]
        state.apply(seat, parse_action(text))
    return found


def seat_0_goes_blind(state: GameState, seat: int, view: PlayerView, action: Action) -> Action:
    if view.phase is Phase.BLIND_NIL:
        return BlindNil(seat == 0)
    return action


def test_the_replay_rebuilds_every_hand_as_the_engine_played_it() -> None:
    games = [
        play(CLASSIC, "web-replay", two_step=True),
        play(
            FIVE_HUNDRED,
            "web-blind",
            override=seat_0_goes_blind,
            stop=lambda s: len(s.hand_results) >= 2,
        ),
    ]
    for state in games:
        record = game_record(state)
        model = run_model(record)
        assert "error" not in model, model
        steps = model["steps"]
        start = engine_start_of_play(record)
        for hand, bounds in zip(record["hands"], model["hands"], strict=True):
            assert bounds["number"] == hand["hand_number"]
            in_hand = steps[bounds["first"] : bounds["last"] + 1]
            first_play = next(s for s in in_hand if s["kind"] == "play")
            before = in_hand[in_hand.index(first_play) - 1]
            assert [set(cards) for cards in before["hands"]] == start[hand["hand_number"]]
            won = [s["won"] for s in in_hand if s["won"] is not None]
            assert len(won) == 13 and [won.count(0), won.count(1)] == hand["tricks"]
            assert in_hand[-1]["kind"] == "scored" and in_hand[-1]["scores"] == hand["scores"]
        # one step per action of a seat, and one for each hand's start and end
        moves = [a for a in record["actions"] if a[0] is not None]
        assert len(steps) == len(moves) + 2 * len(record["hands"])
    exchanges = [s for s in run_model(game_record(games[1]))["steps"] if s["kind"] == "exchange"]
    assert exchanges and all(len(s["received"]) == len(s["given"]) for s in exchanges)


def test_decisions_are_numbered_as_the_analysis_numbers_them() -> None:
    state = play(CLASSIC, "web-decisions", stop=lambda s: bool(s.hand_results))
    record = game_record(state)
    model = run_model(record)
    analysis = analyze_record(record, 1, level="easy")
    for decision in analysis.decisions:
        step = model["steps"][model["decisions"][1][decision.index]]
        assert step["seat"] == 1 and step["text"] == str(decision.action), decision


def test_a_file_that_is_not_a_record_is_refused() -> None:
    assert "not a spades-record/1" in run_model({"format": "something else"})["error"]
    record = game_record(play(CLASSIC, "x", stop=lambda s: bool(s.hand_results)))
    no_stock = {"hand_number": 1, "stock": "", "actions": [[0, "keep"]], "first_drafter": 0}
    assert "past the stock" in run_model({**record, "hands": [no_stock]})["error"]
