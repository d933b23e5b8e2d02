"""The browser checks every card too (client/web/verify.js, run under node): every honest
hand passes for both seats, 1.1 values and 1.3 commit-reveal alike, blind-nil exchanges
included; each forged hand of tests/protocol/forged_hands.py raises the alarm with the
same problems protocol.verify names; a withheld reveal is reported, not an alarm. Node
is required: CI installs it."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from protocol import messages as m
from protocol.codec import encode_for, json_from_msgpack
from protocol.verify import HandCollector
from tests.protocol.forged_hands import SeatHand, forgeries, seat_hands

WEB = Path(__file__).resolve().parents[2] / "client" / "web"
RUNNER = Path(__file__).with_name("verify_runner.mjs")


def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.fail("node (Node.js) is not installed: apt-get install nodejs (tests/web needs it)")
    return found


def wire(message: Any) -> Any:
    """The message as a 1.3 JSON connection receives it."""
    data = encode_for(message, 3)
    assert data is not None
    return json.loads(json_from_msgpack(data))


def case(name: str, hand: SeatHand) -> dict[str, Any]:
    events = [event for frame in hand.frames for event in wire(frame)["events"]]
    relayed = None if hand.relayed is None else wire(hand.relayed)["commitments"]
    return {
        "name": name,
        "seat": hand.seat,
        "value": hand.value.hex(),
        "events": events,
        "relayed": relayed,
        "result": wire(hand.result),
    }


def run_cases(cases: list[dict[str, Any]]) -> dict[str, tuple[bool, list[str], list[int]]]:
    done = subprocess.run(
        [node(), str(RUNNER), str(WEB)],
        input=json.dumps({"cases": cases}),
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    out = {}
    for line in done.stdout.splitlines():
        name, ok, problems, withheld = json.loads(line)
        out[name] = (ok, problems, withheld)
    return out


def python_problems(hand: SeatHand) -> list[str]:
    collector = HandCollector(seat=hand.seat, value=hand.value.hex())
    for event in hand.events:
        collector.add(event)
    if hand.relayed is not None:
        collector.relayed(hand.relayed)
    return collector.check(hand.result)


HANDS = [
    hand
    for seed, preset in enumerate(("classic", "five-hundred"))
    for committing in (True, False)
    for hand in seat_hands(preset, seed + 10, 4, committing)
]


def test_every_honest_hand_passes_in_the_browser() -> None:
    verdicts = run_cases([case(f"honest {i}", hand) for i, hand in enumerate(HANDS)])
    assert len(verdicts) == len(HANDS)
    for name, (ok, problems, withheld) in verdicts.items():
        assert ok and problems == [] and withheld == [], name
    assert (
        sum(any(isinstance(e, m.ExchangeEvent) and e.count for e in h.events) for h in HANDS) >= 2
    )


def test_each_forged_hand_raises_the_alarm_in_the_browser() -> None:
    cases, expected, ways = [], {}, set()
    for i, hand in enumerate(HANDS):
        for way, forged in forgeries(hand).items():
            name = f"{way} {i}"
            cases.append(case(name, forged))
            expected[name] = python_problems(forged)
            ways.add(way)
    assert len(ways) == 11
    verdicts = run_cases(cases)
    for name, (ok, problems, _) in verdicts.items():
        assert not ok, f"{name}: the browser saw nothing"
        assert problems == expected[name], name  # the same words as protocol.verify


def test_a_withheld_reveal_is_reported_in_the_browser() -> None:
    hand = next(h for h in HANDS if h.relayed is not None)
    other = 1 - hand.seat
    entropy = list(hand.result.entropy)
    entropy[other] = ""
    result = hand.result.model_copy(update={"entropy": tuple(entropy)})
    withheld = [other == 0, other == 1]
    frames = tuple(
        frame.model_copy(
            update={
                "events": tuple(
                    e.model_copy(update={"withheld": tuple(withheld)})
                    if isinstance(e, m.ShuffledEvent)
                    else e
                    for e in frame.events
                )
            }
        )
        for frame in hand.frames
    )
    withholding = SeatHand(hand.seat, hand.value, frames, hand.relayed, result, hand.start)
    ((_, (_, problems, seats)),) = run_cases([case("withheld", withholding)]).items()
    assert seats == [other]
    assert not any("commitment" in p or "withheld" in p for p in problems)
