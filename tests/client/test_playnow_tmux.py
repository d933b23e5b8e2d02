"""Play now end to end in real terminals: two ``spades play`` clients in tmux (80x24) on
one server; each presses p in the lobby, then Enter; both are paired and sit at one
table, where the game begins."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
import time

import pytest

from tests.client.test_e2e_tmux import TMUX, Terminal
from tests.redisfixture import free_port


def start_server(port: int) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", str(port), "--db", ":memory:",
         "--bot-delay", "0", "--entropy-seconds", "0", "--log-level", "WARNING"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )  # fmt: skip
    assert process.stdout is not None
    line = process.stdout.readline()
    assert "listening" in line, line
    return process


def wait_for(terminal: Terminal, words: str, seconds: float = 40.0) -> str:
    """The screen once ``words`` are on it (a bounded wait, never a timing assert)."""
    screen = ""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        screen = terminal.screen()
        if words in screen:
            return screen
        time.sleep(0.1)
    raise AssertionError(f"{words!r} never came on the screen:\n{screen}")


@pytest.mark.timeout(120)
def test_two_players_press_play_now_and_meet_at_a_table_in_tmux() -> None:
    assert os.path.exists(TMUX), "tmux is needed for the end-to-end test"
    port = free_port()
    server = start_server(port)
    terminals: list[Terminal] = []
    try:
        with tempfile.TemporaryDirectory(prefix="spades-playnow-") as home:
            for name in ("ada", "bo"):
                os.makedirs(os.path.join(home, name))
                command = shlex.join([sys.executable, "-m", "client.cli", "play",
                                      f"ws://127.0.0.1:{port}/", "--name", name,
                                      "--new-session"])  # fmt: skip
                terminal = Terminal(f"HOME={shlex.quote(home)}/{name} {command}")
                terminal.socket += f"-{name}"
                terminal.start()
                terminals.append(terminal)
            for terminal in terminals:
                lobby = wait_for(terminal, "Play now: press p")
                # play now is the lobby's first choice: its line comes before the tables
                assert lobby.index("Play now") < lobby.index("Open tables")
                terminal.keys("p")
                window = wait_for(terminal, "Enter find an opponent")
                assert "classic" in window and "casual" in window
                terminal.keys("Enter")
            wait_for(terminals[0], "At table")
            wait_for(terminals[1], "At table")
            for terminal, other in zip(terminals, ("bo", "ada"), strict=True):
                screen = wait_for(terminal, other)
                assert "Looking for an opponent" not in screen
                rows = screen.splitlines()
                assert len(rows) <= 24 and all(len(row) <= 80 for row in rows)
    finally:
        for terminal in terminals:
            terminal.stop()
        server.terminate()
        server.wait(20)
