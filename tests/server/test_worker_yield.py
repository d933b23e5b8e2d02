"""A working bot or analysis worker offers its core every millisecond, so the event loop
on the same core is not kept waiting until the kernel's tick (docs/benchmarks.md,
Round 8; :func:`server.ops.timeslice.yielding`)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# run in a fresh interpreter: the test runner keeps an alarm of its own (pytest-timeout),
# and a worker process has none
OFFERS = """
import json, os, signal
from server.ops import timeslice
offers = []
os.sched_yield = lambda: offers.append(1)
with timeslice.yielding(0.0005):
    armed = signal.getitimer(signal.ITIMER_REAL)[1]
    spins = 0
    while len(offers) < 3 and spins < 50_000_000:  # busy, as a worker thinking
        spins += 1
print(json.dumps({"armed": armed, "offers": len(offers),
                  "after": signal.getitimer(signal.ITIMER_REAL),
                  "handler_default": signal.getsignal(signal.SIGALRM) is signal.SIG_DFL}))
"""

DECISION = """
import json, signal
from engine.bot import Bot
from server import bots
from tests.bot.helpers import play_view
armed = []
class Watching(Bot):
    def choose(self, view):
        armed.append(signal.getitimer(signal.ITIMER_REAL)[1])
        return super().choose(view)
bots.Bot = Watching
action = bots.choose(play_view("4H 2C 3C", current="9H", opp_size=2), "easy", 1, None)
print(json.dumps({"armed": armed, "suit": action.card.suit,
                  "after": signal.getitimer(signal.ITIMER_REAL)}))
"""


def run_fresh(code: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    answer: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def test_a_working_block_offers_the_core_on_a_timer_and_puts_everything_back() -> None:
    seen = run_fresh(OFFERS)
    assert seen["armed"] == 0.0005
    assert isinstance(seen["offers"], int) and seen["offers"] >= 3
    assert seen["after"] == [0.0, 0.0]  # disarmed: an idle worker is not woken
    assert seen["handler_default"] is True


def test_a_bot_decision_runs_with_the_core_offered_every_millisecond() -> None:
    seen = run_fresh(DECISION)
    assert seen["armed"] == [0.001]
    assert seen["suit"] == 2  # a heart led: it followed
    assert seen["after"] == [0.0, 0.0]


def test_a_process_with_an_alarm_of_its_own_or_another_thread_is_left_alone() -> None:
    from server.ops.timeslice import yielding

    before = (signal.getsignal(signal.SIGALRM), signal.getitimer(signal.ITIMER_REAL)[1])
    seen: list[float] = []

    def work() -> None:
        with yielding():
            seen.append(signal.getitimer(signal.ITIMER_REAL)[1])

    thread = threading.Thread(target=work)
    thread.start()
    thread.join(30)
    previous = signal.signal(signal.SIGALRM, lambda *_: None)  # an alarm of its own
    try:
        with yielding():
            seen.append(signal.getitimer(signal.ITIMER_REAL)[1])
    finally:
        signal.signal(signal.SIGALRM, previous)
    assert seen == [before[1], before[1]]  # no timer of ours armed either time
    assert (signal.getsignal(signal.SIGALRM), signal.getitimer(signal.ITIMER_REAL)[1]) == before
