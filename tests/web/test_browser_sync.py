"""The page keeps its view by folding events: after its first snapshot it asks for none
while a whole hand is played, and what it shows is the server's view for its seat."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from tests.web.browser import Page, ServerThread
from tests.web.play import act, create, enter, hand_cards, wait_turn_or_window


@pytest.fixture
def server() -> Iterator[ServerThread]:
    running = ServerThread()
    try:
        yield running
    finally:
        running.close()


def snapshots_seen(page: Page) -> int:
    trace: list[str] = page.js("return globalThis.spadesTrace")
    return sum(1 for line in trace if line.startswith("snapshot:"))


def test_a_whole_hand_without_a_snapshot_after_the_first(server: ServerThread, page: Page) -> None:
    rng = random.Random(31)
    enter(page, server.base, "dee")
    code = create(page, bot="easy", preset="five-hundred")
    steps = 0
    while True:
        phase = wait_turn_or_window(page)
        if phase == "window":
            break
        # the page and the server agree on the version and this seat's cards at each turn
        version, _ = server.known_cards(code, 0)
        assert page.table_data()["version"] == str(version)
        held = server.call(lambda: [str(c) for c in server.hub.tables[code].state.hand_of(0)])
        assert sorted(hand_cards(page)) == sorted(held)
        act(page, rng)
        steps += 1
    assert steps >= 14  # 13 draft turns, a blind nil answer, a bid, and the cards played
    # the trace keeps the last 40 messages: a hand's end, and not one snapshot among them
    trace: list[str] = page.js("return globalThis.spadesTrace")
    assert len(trace) == 40 and any(line.startswith("events:") for line in trace)
    assert snapshots_seen(page) == 0
    assert page.js("return globalThis.spadesErrors") == []
    # the score sheet comes from the folded hand_result
    # Enter closes the hand window once its key grace is over
    page.wait(lambda: page.exists("#hand-window[data-keys=on]"), "the window to take keys")
    page.find("body").send_keys("\ue007")
    page.find("body").send_keys("s")
    page.wait(lambda: page.all(".sheet tbody tr td"), "the score sheet")
    assert page.text(".sheet tbody tr td") == "1"
