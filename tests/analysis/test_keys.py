"""The analysis from a screen: ``show_analysis`` and the ``a`` key of ``spades replay``."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import shutil
import sys
import time
from pathlib import Path

import pytest

from client.analyze import show_analysis
from client.model import ClientModel, Intent
from client.render import fragments_text, render_prompt
from client.session import start_embedded_server
from engine import GameState, Phase, game_record
from tests.client.test_e2e_tmux import TMUX, Terminal
from tests.client.test_live import connected, until

from .helpers import FIVE_HUNDRED, play


def _early(state: GameState) -> bool:
    """Three draft turns of seat 0 into the first hand of five-hundred."""
    return state.phase is Phase.DRAFT and state.view_for(0).draft_turns[0] >= 3


@pytest.fixture(scope="module")
def record_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("records") / "early.json"
    path.write_text(json.dumps(game_record(play(FIVE_HUNDRED, "keys", stop=_early))))
    return path


def test_show_analysis_asks_the_seat_and_prints_the_report(
    record_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(record_path.read_text())
    asked: list[str] = []
    answers = iter(["1", ""])

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return next(answers)

    show_analysis(record, level="easy", ascii_only=True, ask=ask)
    out = capsys.readouterr().out
    assert asked == ["Analyse which seat, 0 or 1? [0] ", "Press Enter to go back. "]
    assert out.startswith("Analysis of seat 1 (five-hundred, level easy): unfinished")
    assert "Hand 1: no bid, took -" in out


def test_show_analysis_refuses_a_seat_that_does_not_exist(
    record_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = iter(["7", ""])
    show_analysis(json.loads(record_path.read_text()), ask=lambda prompt: next(answers))
    out = capsys.readouterr().out
    assert "There is no seat 7." in out and "Analysis of" not in out
    broken = {"format": "something else"}
    show_analysis(broken, seat=0, ask=lambda prompt: "")
    assert "cannot be analysed" in capsys.readouterr().out


def _wait(terminal: Terminal, text: str, seconds: float = 40.0) -> str:
    deadline = time.monotonic() + seconds
    screen = ""
    while time.monotonic() < deadline:
        screen = terminal.screen()
        if text in screen:
            return screen
        time.sleep(0.2)
    raise AssertionError(f"{text!r} did not appear; the screen:\n{screen}")


@pytest.mark.timeout(120)
def test_the_replay_key_a_opens_the_analysis_in_tmux(record_path: Path) -> None:
    assert os.path.exists(TMUX), "tmux is needed for the end-to-end test"
    script = shutil.which("spades")
    base = [script] if script else [sys.executable, "-m", "client.cli"]
    terminal = Terminal(shlex.join([*base, "replay", str(record_path)]))
    terminal.start()
    try:
        _wait(terminal, "a analysis")
        terminal.keys("a")
        _wait(terminal, "Analyse which seat")
        terminal.keys("0", "Enter")
        screen = _wait(terminal, "Press Enter to go back")
        assert "Analysing the game" in screen  # prompt_toolkit's progress bar
        assert "Analysis of seat 0 (five-hundred, level normal)" in screen
        terminal.keys("Enter")
        _wait(terminal, "a analysis")
        terminal.keys("q")
        _wait(terminal, "EXITED 0")
    finally:
        terminal.stop()


@pytest.mark.timeout(90)
def test_the_game_over_key_a_analyses_the_record_of_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wanted: list[tuple[str, int | None]] = []

    async def run() -> None:
        server = await start_embedded_server(bot_delay=0.0)
        try:
            intent = Intent(kind="create", bot="easy", overrides={"target_score": 1})
            model = ClientModel("alice", intent=intent)
            model.record_dir = tmp_path
            model.on_analysis = lambda text, seat: wanted.append((text, seat))
            async with connected(server.url, model):
                await until(lambda: model.game_over is not None, [model])
                assert "a analysis" in fragments_text(render_prompt(model))
                model.press("a")
                await until(lambda: bool(wanted), [])
                await until(lambda: model.saved_record is not None, [])
                assert model.table is not None
                assert wanted == [(model.record_json, model.table.your_seat)]
                assert model.saved_record is not None
                assert json.loads(model.saved_record.read_text()) == json.loads(wanted[0][0])
                model.press("s")  # saving again does not analyse again
                await until(lambda: model.analysis_wanted is False, [])
                await asyncio.sleep(0.2)
                assert len(wanted) == 1
        finally:
            await server.close()

    asyncio.run(run())
    record_json, seat = wanted[0]
    # what the screen then runs: the analysis of that record for that seat
    show_analysis(json.loads(record_json), seat, level="easy", ask=lambda prompt: "")
    out = capsys.readouterr().out
    assert out.startswith(f"Analysis of seat {seat} (")
    assert "Hand 1: " in out
