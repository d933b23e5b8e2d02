"""The web page's event fold (client/web/fold.js, run under node) keeps its view equal to
the server's snapshot view for that viewer after every message, on random engine games.

The messages are built as the server builds them for a JSON connection (protocol 1.1):
each action's ``events`` frame for that viewer, then the ``hand_result`` of a scored hand,
then the ``your_turn`` of the seat to move, each encoded to msgpack and re-encoded as
JSON. Each viewer (seat 0, seat 1, a spectator) joins at its own random point of the game
with a snapshot, as a page does on join or reload. Node is required: CI installs it.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from engine import Commit, Exchange, GameState, Phase, RuleSet, Shuffle
from protocol import convert
from protocol import messages as m
from protocol.codec import encode_for, json_from_msgpack

WEB = Path(__file__).resolve().parents[2] / "client" / "web"
RUNNER = Path(__file__).with_name("fold_runner.mjs")
CODE = "F0LD"
VIEWERS: tuple[int | None, ...] = (0, 1, None)
# what reaches the page after the events frame, in the next messages of the same action
LATE_FIELDS = ("offered", "hand_results", "bags")


def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.fail("node (Node.js) is not installed: apt-get install nodejs (tests/web needs it)")
    return found


def wire(message: Any) -> Any:
    """The message as a JSON connection receives it (the server's msgpack, re-encoded)."""
    data = encode_for(message, 1)
    assert data is not None
    return json.loads(json_from_msgpack(data))


def table_info(rules: RuleSet, seat: int | None) -> m.TableInfo:
    human = m.SeatInfo(kind="human", name="ann", connected=True)
    return m.TableInfo(
        code=CODE,
        private=False,
        preset=rules.preset_name(),
        rules=convert.rules_message(rules),
        seats=(human, human.model_copy(update={"name": "bob"})),
        status="playing",
        your_seat=seat,
        on_hold_expiry="bot",
        hold_seconds=60,
        turn_seconds=None,
        rematch=(False, False),
    )


def snapshot(state: GameState, seat: int | None, rules: RuleSet) -> Any:
    view = state.view_for(seat)
    turn = convert.your_turn_message(view, CODE) if view.my_turn else None
    return wire(
        m.Snapshot(
            table=table_info(rules, seat),
            view=convert.view_message(view, CODE),
            your_turn=turn,
        )
    )


def random_action(state: GameState, rng: random.Random) -> tuple[int | None, Any]:
    seat = state.current_player
    if seat is None:
        if state.awaiting_shuffle:
            # a seat that sent no entropy counts as b"" (its timer ran out)
            entropy = tuple(rng.choice([b"", rng.randbytes(32)]) for _ in range(2))
            return None, Shuffle(entropy)  # type: ignore[arg-type]
        return None, Commit(hashlib.sha256(rng.randbytes(8)).digest())
    if state.phase is Phase.EXCHANGE:
        hand = state.hand_of(seat)
        return seat, Exchange(tuple(rng.sample(hand, rng.randrange(0, 4))))
    legal = state.legal_actions(seat)
    if state.phase is Phase.BLIND_NIL:
        # declared now and then: a blind nil is mostly lost, and the game must end
        declare = [a for a in legal if getattr(a, "declare", False)]
        return seat, declare[0] if declare and rng.random() < 0.15 else legal[-1]
    # low bids are mostly made, so the scores climb and the game ends
    modest = [a for a in legal if 1 <= getattr(a, "tricks", 1) <= 3]
    return seat, rng.choice(modest or legal)


def play_game(
    rules: RuleSet, seed: int, until: int | None = None
) -> tuple[dict[str, list[Any]], dict[str, list[Any]]]:
    """Every viewer's messages, and after each message the server's view (JSON) then: of
    the whole game, or of its first ``until`` actions (a test of a game's opening)."""
    rng = random.Random(seed)
    state = GameState(rules)
    streams: dict[str, list[Any]] = {str(v): [] for v in VIEWERS}
    expected: dict[str, list[Any]] = {str(v): [] for v in VIEWERS}
    total = 0
    # seat 0 from the start; seat 1 and the spectator join (or reload) in the first hands
    joins = {0: 0, 1: rng.randrange(1, 120), None: rng.randrange(1, 120)}
    for step in range(5000 if until is None else until):
        if state.is_over:
            break
        for viewer in VIEWERS:
            if step == joins[viewer]:
                streams[str(viewer)].append(snapshot(state, viewer, rules))
                expected[str(viewer)].append(("settled", wire_view(state, viewer)))
        seat, action = random_action(state, rng)
        outcome = state.apply(seat, action)
        total += 1
        results = [
            wire(convert.hand_result_message(e.result, CODE))
            for e in outcome.for_viewer(None)
            if type(e).__name__ == "HandScored"
        ]
        for viewer in VIEWERS:
            if step < joins[viewer]:
                continue
            name = str(viewer)
            events = convert.event_messages(outcome.for_viewer(viewer))
            frame = m.Events(table=CODE, version=outcome.version, events=events)
            batch = [wire(frame), *results]
            view = state.view_for(viewer)
            if view.my_turn:
                batch.append(wire(convert.your_turn_message(view, CODE)))
            for index, message in enumerate(batch):
                streams[name].append(message)
                last = index == len(batch) - 1
                expected[name].append(("settled" if last else "early", wire_view(state, viewer)))
    assert until is not None or state.is_over, f"seed {seed}: the game did not end in 5000 actions"
    assert total > 100
    return streams, expected


def wire_view(state: GameState, viewer: int | None) -> Any:
    return wire(
        m.Snapshot(
            table=table_info(state.rules, viewer),
            view=convert.view_message(state.view_for(viewer), CODE),
        )
    )["view"]


def run_fold(rules: RuleSet, streams: dict[str, list[Any]], tmp_path: Path) -> dict[str, list[Any]]:
    """Run the page's fold under node on ``streams``; each stream's (view, gap) list."""
    modules = tmp_path / "web"
    modules.mkdir()
    for name in ("fold.js", "cards.js", "i18n.js"):
        shutil.copy(WEB / name, modules / name)
    # the page's modules are ES modules; node reads .js as such only when told
    (modules / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
    runner = modules / RUNNER.name
    shutil.copy(RUNNER, runner)
    document = json.dumps({"rules": rules.to_dict(), "streams": streams})
    done = subprocess.run(
        [node(), str(runner), str(modules)],
        input=document,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out: dict[str, list[Any]] = {name: [] for name in streams}
    for line in done.stdout.splitlines():
        name, index, view, gap = json.loads(line)
        assert index == len(out[name])
        out[name].append((view, gap))
    return out


def late_fields_dropped(view: Any) -> Any:
    return {key: value for key, value in view.items() if key not in LATE_FIELDS}


GAMES = [
    ("classic", 11, {"target_score": 250, "bag_limit": 60}),
    ("classic", 12, {"target_score": 200, "see_card_after_keep": False, "lose_score": -200}),
    ("five-hundred", 21, {"target_score": 250, "bag_limit": 60, "lose_score": -400}),
    ("five-hundred", 22, {"target_score": 200, "blind_nil_exchange": 0, "lose_score": -400}),
    ("five-hundred", 23, {"target_score": 200, "nil": False, "lose_score": -400}),
    ("five-hundred", 24, {"target_score": 200, "blind_nil_min_deficit": 50, "lose_score": -400}),
]


@pytest.mark.parametrize(("preset", "seed", "overrides"), GAMES)
def test_folded_view_equals_the_snapshot_view_after_every_message(
    preset: str, seed: int, overrides: dict[str, Any], tmp_path: Path
) -> None:
    rules = RuleSet.preset(preset, **overrides)
    streams, expected = play_game(rules, seed)
    folded = run_fold(rules, streams, tmp_path)
    compared = 0
    for name, wanted in expected.items():
        assert len(folded[name]) == len(wanted)
        for index, ((kind, view), (mine, gap)) in enumerate(zip(wanted, folded[name], strict=True)):
            where = f"viewer {name}, message {index} ({streams[name][index]['type']})"
            assert not gap, f"{where}: the fold saw a gap"
            if kind == "settled":
                assert mine == view, where
            else:
                assert late_fields_dropped(mine) == late_fields_dropped(view), where
            compared += 1
    assert compared > 300


def test_a_missed_frame_is_a_gap_and_the_view_waits_for_a_snapshot(tmp_path: Path) -> None:
    preset, seed, overrides = GAMES[1]
    rules = RuleSet.preset(preset, **overrides)
    streams, _ = play_game(rules, seed)
    stream = streams["0"]
    frames = [i for i, message in enumerate(stream) if message["type"] == "events"]
    dropped = frames[len(frames) // 2]
    cut = stream[:dropped] + stream[dropped + 1 :]
    folded = run_fold(rules, {"cut": cut}, tmp_path)["cut"]
    before_view = folded[dropped - 1][0]
    view, gap = folded[dropped]  # the frame after the missing one
    assert gap
    assert view == before_view  # nothing folded on top of a hole
    # every later frame is a gap too, until a snapshot comes
    later = [
        gap
        for (_, gap), message in zip(folded[dropped:], cut[dropped:], strict=True)
        if message["type"] == "events"
    ]
    assert later and all(later)


def test_a_frame_already_in_the_view_changes_nothing(tmp_path: Path) -> None:
    preset, seed, overrides = GAMES[3]
    rules = RuleSet.preset(preset, **overrides)
    streams, _ = play_game(rules, seed)
    stream = streams["1"]
    frames = [i for i, message in enumerate(stream) if message["type"] == "events"]
    again = frames[3]
    doubled = [*stream[: again + 1], stream[again], *stream[again + 1 :]]
    folded = run_fold(rules, {"twice": doubled}, tmp_path)["twice"]
    assert folded[again + 1] == (folded[again][0], False)


def test_a_turn_the_view_does_not_expect_is_a_gap(tmp_path: Path) -> None:
    preset, seed, overrides = GAMES[2]
    rules = RuleSet.preset(preset, **overrides)
    streams, _ = play_game(rules, seed, until=200)
    stream = streams["0"]
    turns = [i for i, message in enumerate(stream) if message["type"] == "your_turn"]
    at = turns[5]
    wrong_phase = {**stream[at], "phase": "play" if stream[at]["phase"] != "play" else "bidding"}
    ahead = {**stream[at], "version": stream[at]["version"] + 1}
    behind = {**stream[at], "version": stream[at]["version"] - 1}
    cases = {
        "phase": [*stream[:at], wrong_phase],
        "ahead": [*stream[:at], ahead],
        "behind": [*stream[:at], behind],
    }
    folded = run_fold(rules, cases, tmp_path)
    before = folded["phase"][at - 1][0]
    assert folded["phase"][at] == (before, True)
    assert folded["ahead"][at] == (before, True)
    assert folded["behind"][at] == (before, False)  # an old turn: nothing to do


def test_an_event_that_does_not_fit_is_a_gap(tmp_path: Path) -> None:
    preset, seed, overrides = GAMES[0]
    rules = RuleSet.preset(preset, **overrides)
    streams, _ = play_game(rules, seed, until=200)  # the spectator is in by action 120
    stream = streams["None"]
    plays = [
        i
        for i, message in enumerate(stream)
        if message["type"] == "events"
        and any(event["kind"] == "card_played" for event in message["events"])
    ]
    at = plays[0]
    broken = json.loads(json.dumps(stream[at]))
    for event in broken["events"]:
        if event["kind"] == "card_played":
            event["card"] = None  # not a card: the fold cannot place it
    folded = run_fold(rules, {"broken": [*stream[:at], broken]}, tmp_path)["broken"]
    assert folded[at] == (folded[at - 1][0], True)
