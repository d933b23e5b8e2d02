"""Replay and analysis on the page (issue 29): a finished game stepped through action by
action with keys and buttons, from a record file or a link (#r=RECORD_ID); the analysis
of either seat (protocol get_analysis) with its accuracy and costliest decisions, each
shown as it was: what the seat knew beside all cards shown."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.keys import Keys

from engine import Action, BlindNil, GameState, Phase, PlayerView, game_record
from engine.analysis import analyze_record
from tests.analysis.helpers import CLASSIC, FIVE_HUNDRED, play
from tests.web.browser import DESKTOP, Page, ServerThread
from tests.web.play import act, create, enter, wait_turn_or_window

RECORD_ID = "WebReplay0001"


def seat_0_goes_blind(state: GameState, seat: int, view: PlayerView, action: Action) -> Action:
    if view.phase is Phase.BLIND_NIL:
        return BlindNil(seat == 0)
    return action


@pytest.fixture(scope="module")
def blind_record() -> dict[str, Any]:
    """Two hands of five-hundred rules, seat 0 bidding blind nil (so it exchanges)."""
    state = play(
        FIVE_HUNDRED,
        "web-page",
        override=seat_0_goes_blind,
        stop=lambda s: len(s.hand_results) >= 2,
    )
    return game_record(state)


@pytest.fixture
def served() -> Iterator[tuple[ServerThread, Page]]:
    server = ServerThread()
    page = Page(DESKTOP)
    try:
        yield server, page
    finally:
        page.close()
        server.close()


def at(page: Page) -> int:
    return int(page.js("return document.querySelector('#replay').dataset.at"))


def key(page: Page, name: str) -> None:
    page.find("body").send_keys(name)


def test_a_record_file_is_stepped_through_with_keys_and_buttons(
    served: tuple[ServerThread, Page], blind_record: dict[str, Any], tmp_path: Path
) -> None:
    server, page = served
    path = tmp_path / "a game I kept.json"  # no record id in its name
    path.write_text(json.dumps(blind_record), encoding="utf-8")
    enter(page, server.base, "Rita")
    page.wait(lambda: page.visible("#record-file"), "the lobby's record field")
    page.find("#record-file").send_keys(str(path))
    page.wait(lambda: page.visible("#replay .replay-board"), "the replay")
    assert at(page) == 0
    moves = [a for a in blind_record["actions"] if a[0] is not None]
    total = len(moves) + 2 * len(blind_record["hands"])
    assert f"of {total}" in page.text("#replay .topline")
    key(page, Keys.ARROW_RIGHT)
    page.wait(lambda: at(page) == 1, "one action on")
    assert "blind nil" in page.text("#replay .said")  # the first action, in words
    page.click("#replay-next")
    page.wait(lambda: at(page) == 2, "the next button")
    page.click("#replay-prev")
    page.wait(lambda: at(page) == 1, "the previous button")
    # on to the first card played: both hands of 13 cards face up, the card on the table
    while page.js("return document.querySelector('#replay').dataset.kind") != "play":
        before = at(page)
        key(page, Keys.ARROW_RIGHT)
        page.wait(lambda before=before: at(page) == before + 1, "a step")
    counts = page.js(
        "return [...document.querySelectorAll('#replay .seat .faces')]"
        ".map(f => f.querySelectorAll('.card').length)"
    )
    assert sorted(counts) == [12, 13], counts
    assert len(page.all("#replay .trick .card.face")) == 1
    key(page, Keys.ARROW_DOWN)  # the next hand
    page.wait(lambda: page.js("return document.querySelector('#replay').dataset.hand") == "2", "2")
    key(page, Keys.END)
    page.wait(lambda: at(page) == total - 1, "the end")
    assert page.js("return document.querySelector('#replay').dataset.kind") == "scored"
    key(page, Keys.HOME)
    page.wait(lambda: at(page) == 0, "the start")
    # without a record id the server knows, the analysis says where to open it from
    assert "from the game or its link" in page.text("#replay .side")
    key(page, Keys.ESCAPE)
    page.wait(lambda: page.visible("#lobby"), "back in the lobby")
    assert not page.errors()


def test_a_replay_link_shows_the_analysis_of_a_seat_each_decision_as_it_was(
    served: tuple[ServerThread, Page],
) -> None:
    server, page = served
    record = game_record(play(CLASSIC, "web-analysis", stop=lambda s: bool(s.hand_results)))
    server.call(lambda: server.hub.store.save_record(RECORD_ID, "WEBREPLY", 1, record))
    expected = analyze_record(record, 1, level="easy")
    enter(page, server.base, "Omar")
    page.wait(lambda: page.visible("#create"), "the lobby")
    page.open(server.base + "#r=" + RECORD_ID)
    page.wait(lambda: page.visible("#replay .replay-board"), "the replay from its link")
    # a friend who opens the link with no name yet gives one, then sees the replay
    friend = Page(DESKTOP)
    try:
        enter(friend, server.base + "#r=" + RECORD_ID, "Fay")
        friend.wait(lambda: friend.visible("#replay .replay-board"), "the linked replay")
        assert not friend.errors()
    finally:
        friend.close()
    page.click('[data-analyse="1"]')
    page.wait(lambda: page.visible('.analysis[data-seat="1"]'), "the analysis", timeout=120)
    text = page.text('.analysis[data-seat="1"]')
    assert f"Accuracy {round(expected.accuracy, 2)}%" in text.replace(".0%", "%"), text
    buttons = page.all('.analysis[data-seat="1"] .costliest [data-decision]')
    assert len(buttons) == len(expected.costliest)
    worst = expected.costliest[0]
    assert buttons[0].get_attribute("data-decision") == f"1:{worst.index}"
    buttons[0].click()
    page.wait(lambda: page.visible(".decision .knew"), "the decision side by side")
    # what the seat knew: the opponent's cards face down; all cards shown: face up
    assert not page.all(".decision .knew .opponent .card.face")
    assert page.all(".decision .knew .opponent .back")
    assert page.all(".decision .all-shown .opponent .card.face")
    if worst.kind.value == "play":
        assert page.all(".decision .knew .mine .card.chosen")
    assert "lost" in page.text(".decision .said")
    key(page, Keys.ESCAPE)
    page.wait(lambda: page.visible("#replay .replay-board"), "back to the replay")
    assert not page.errors()


def test_after_a_game_player_and_spectator_both_open_its_replay(
    served: tuple[ServerThread, Page],
) -> None:
    server, page = served
    rng = random.Random(2931)
    enter(page, server.base, "Pia")
    code = create(page, bot="easy", private=False, target=10)
    watcher = Page(DESKTOP)
    try:
        enter(watcher, server.base, "Wes")
        watcher.wait(lambda: watcher.visible("#code-input"), "the lobby")
        watcher.find("#code-input").send_keys(code)
        watcher.click("#watch-code")
        watcher.wait(lambda: watcher.table_data().get("phase") not in (None, ""), "watching")
        while not page.visible("#game-over"):
            phase = wait_turn_or_window(page)
            if phase == "window":
                page.click("#close-hand")
                page.wait(
                    lambda: page.visible("#game-over") or not page.visible("#hand-window"),
                    "the window closed",
                )
            elif not page.visible("#game-over"):
                act(page, rng)
        record_id = server.call(lambda: server.hub.tables[code].table.record_id)
        record = json.loads(server.call(lambda: server.hub.store.record_json(record_id)))
        steps = len([a for a in record["actions"] if a[0] is not None]) + 2 * len(record["hands"])
        for viewer, name in ((page, "Pia"), (watcher, "Wes")):
            viewer.wait(
                lambda viewer=viewer: (
                    viewer.visible("#game-over") or viewer.visible("#hand-window")
                ),
                "the last hand's window or game over",
            )
            if viewer.visible("#hand-window"):
                viewer.click("#close-hand")
            viewer.wait(lambda viewer=viewer: viewer.visible("#game-over"), "game over")
            viewer.click("#replay-game")
            viewer.wait(lambda viewer=viewer: viewer.visible("#replay .replay-board"), "replay")
            assert f"of {steps}" in viewer.text("#replay .topline"), name
            names = viewer.text("#replay .side")
            assert "Analyse Pia" in names and "Analyse bot" in names, names
            assert viewer.js("return location.hash") == f"#r={record_id}"
            viewer.find("body").send_keys(Keys.ESCAPE)
            viewer.wait(lambda viewer=viewer: viewer.visible("#game-over"), "back to the table")
            assert not viewer.errors()
    finally:
        watcher.close()
