"""Enter pressed twice to end the last trick's pause must not close the hand's result
unseen (issue 29, item 3), even when the page is busy checking the shuffle and handles
the second key late: the grace is judged by the key's own time (``event.timeStamp``),
not by the time the page gets round to it. Run under node."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.web.test_verify_web import WEB, node

RUNNER = Path(__file__).with_name("key_grace_runner.mjs")


def keys_at(opened: float, keys: list[float]) -> list[dict[str, bool]]:
    done = subprocess.run(
        [node(), str(RUNNER), str(WEB), json.dumps({"opened": opened, "keys": keys})],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    result: list[dict[str, bool]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_an_enter_pressed_before_or_just_after_the_window_opened_keeps_it_open() -> None:
    # a key made before the window opened (the one that ended the pause, handled late)
    # and one 400 ms after it: both taken, the window stays
    assert keys_at(100_000.0, [99_950.0, 100_400.0]) == [
        {"taken": True, "open": True},
        {"taken": True, "open": True},
    ]


def test_an_enter_pressed_after_the_grace_closes_the_window() -> None:
    assert keys_at(100_000.0, [100_200.0, 100_600.0]) == [
        {"taken": True, "open": True},
        {"taken": True, "open": False},
    ]
