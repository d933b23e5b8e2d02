"""The terminal client's account flow in a real terminal: ``spades serve`` in the
background, ``spades play`` in tmux at 80x24: register, a rated game against the bot
given up after a move, the profile shows it, and Enter on the game opens its replay in
the terminal replay viewer (driven with send-keys, read with capture-pane)."""

from __future__ import annotations

import os
import re
import shlex
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.client.test_e2e_tmux import TMUX, Terminal


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait(terminal: Terminal, ready: Callable[[str], bool], what: str, seconds: float = 40) -> str:
    deadline = time.monotonic() + seconds
    screen = ""
    while time.monotonic() < deadline:
        screen = terminal.screen()
        if ready(screen):
            return screen
        time.sleep(0.2)
    raise AssertionError(f"no {what} on screen:\n{screen}")


def _type(terminal: Terminal, text: str) -> None:
    terminal.keys("-l", text)


@pytest.mark.timeout(180)
def test_register_play_rated_and_see_the_profile_in_tmux(tmp_path: Path) -> None:
    assert os.path.exists(TMUX), "tmux is needed for the end-to-end test"
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    server = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", str(port), "--db", str(tmp_path / "s.db"),
         "--bot-delay", "0"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    play = [sys.executable, "-m", "client.cli", "play", f"ws://127.0.0.1:{port}/", "--name", "zoe"]
    terminal = Terminal(f"HOME={shlex.quote(str(tmp_path))} {shlex.join(play)}")
    try:
        time.sleep(1.0)
        terminal.start()
        _wait(terminal, lambda s: "a sign in or register" in s, "lobby")
        terminal.keys("a")
        _wait(terminal, lambda s: "Sign in" in s, "the account window")
        terminal.keys("Tab")
        _wait(terminal, lambda s: "Register" in s, "the register form")
        _type(terminal, "zoe")
        terminal.keys("Enter")
        _type(terminal, "a long password")
        terminal.keys("Enter")
        _wait(terminal, lambda s: "zoe: classic 1500? · five-hundred 1500?" in s, "signed in")
        terminal.keys("c")
        _wait(terminal, lambda s: "rated (R changes)" in s, "the create window")
        terminal.keys("Enter")
        _wait(terminal, lambda s: "k keep the card" in s.splitlines()[-2], "the draft")
        terminal.keys("k")
        _wait(terminal, lambda s: "You kept" in s, "the move in the log")
        terminal.keys("x")
        _wait(terminal, lambda s: "Leave the table?" in s, "the question")
        terminal.keys("y")
        _wait(terminal, lambda s: "a sign in or register" not in s and "m my profile" in s, "lobby")
        terminal.keys("m")
        screen = _wait(terminal, lambda s: "Profile of zoe" in s and "rated" in s, "the profile")
        assert "lost" in screen and "bot (normal)" in screen
        assert re.search(r"classic\s+1[0-4]\d\d\?", screen), screen
        # the game (the newest, chosen): Enter fetches its record and opens the viewer
        assert "Enter its replay" in screen
        terminal.keys("Enter")
        screen = _wait(terminal, lambda s: "Replay · hand 1 of 1" in s, "the replay viewer")
        assert "Seat 0" in screen and "Seat 1" in screen
        terminal.keys("q")  # the viewer ends: back to the client, the profile still open
        _wait(terminal, lambda s: "Profile of zoe" in s and "Replay" not in s, "the profile")
        # a: its analysis (spades analyze of zoe's seat), from the record already fetched
        terminal.keys("a")
        screen = _wait(terminal, lambda s: "Press Enter to go back" in s, "the analysis")
        assert "Analysis of seat 0" in screen and "Accuracy" in screen, screen
        terminal.keys("Enter")
        _wait(terminal, lambda s: "Profile of zoe" in s, "the profile after the analysis")
    finally:
        terminal.stop()
        server.terminate()
        server.wait(30)  # a loaded machine (the whole suite on 2 cores) stops it slowly
