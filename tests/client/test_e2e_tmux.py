"""End to end in a real terminal: the ``spades`` command in tmux at 80x24, one whole hand
against the easy bot on the embedded server, driven with send-keys and read back with
capture-pane."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time

import pytest

TMUX = shutil.which("tmux") or "/usr/bin/tmux"
# a bare CI environment may have no TERM and a C locale: tmux then draws ♠ as _


def tmux_env() -> dict[str, str]:
    """The environment now (the test's own settings folder included), in a UTF-8 locale."""
    return {**os.environ, "TERM": "xterm-256color", "LC_ALL": "C.UTF-8", "LANG": "C.UTF-8"}


def spades_command() -> str:
    script = shutil.which("spades")
    base = [script] if script else [sys.executable, "-m", "client.cli"]
    return shlex.join([*base, "--level", "easy", "--name", "tester", "--bot-delay", "0"])


class Terminal:
    def __init__(self, command: str) -> None:
        self.socket = f"spades-e2e-{os.getpid()}"
        self.command = command

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            [TMUX, "-u", "-L", self.socket, *args],
            capture_output=True,
            text=True,
            encoding="utf-8",
            timeout=10,
            env=tmux_env(),
        )
        return done.stdout

    def start(self) -> None:
        env = f"cd {shlex.quote(os.getcwd())} && SPADES_BOT_DELAY=0 TERM=xterm-256color"
        shell = f"{env} {self.command}; echo EXITED $?; sleep 30"
        subprocess.run(
            [TMUX, "-u", "-L", self.socket, "-f", "/dev/null", "new-session", "-d", "-s", "e2e",
             "-x", "80", "-y", "24", shell],
            check=True, timeout=10, env=tmux_env(),
        )  # fmt: skip

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "e2e")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "e2e", *keys)

    def stop(self) -> None:
        self.tmux("kill-server")


@pytest.mark.timeout(120)
def test_a_whole_hand_against_the_bot_in_tmux() -> None:
    assert os.path.exists(TMUX), "tmux is needed for the end-to-end test"
    terminal = Terminal(spades_command())
    terminal.start()
    seen: set[str] = set()
    try:
        deadline = time.monotonic() + 90
        screen = ""
        while time.monotonic() < deadline:
            screen = terminal.screen()
            if "Hand 1 result" in screen:
                break
            if "trick 13" in screen and ("takes trick 13" in screen or "take trick 13" in screen):
                seen.add("last trick")  # the trick pause shows it before the hand window
            lines = screen.splitlines()
            prompt = lines[-2] if len(lines) >= 2 else ""
            if "k keep the card" in prompt:
                seen.add("draft")
                assert "Card on offer" in screen
                terminal.keys("k" if len(seen) % 2 else "d")
            elif "Your bid" in prompt:
                seen.add("bid")
                terminal.keys("3", "Enter")
            elif "Your turn: ←/→" in prompt:
                seen.add("play")
                assert "Trick" in screen
                terminal.keys("Enter")
            elif "BLIND NIL" in prompt:
                terminal.keys("n")
            time.sleep(0.1)
        else:
            raise AssertionError("no hand result on the screen:\n" + screen)
        assert {"draft", "bid", "play", "last trick"} <= seen
        rows = screen.splitlines()
        assert len(rows) <= 24 and all(len(row) <= 80 for row in rows)
        assert "shuffle verified, your entropy included ✓" in screen
        assert "tricks" in screen and "points" in screen and "total" in screen
        # Enter closes the result (once it has been up for its short grace, which
        # keeps a key meant for the table from closing it unseen); Ctrl-C quits cleanly
        time.sleep(0.6)
        terminal.keys("Enter")
        time.sleep(0.3)
        assert "Hand 1 result" not in terminal.screen()
        terminal.keys("C-c")  # during a game it asks first
        time.sleep(0.3)
        assert "Quit spades?" in terminal.screen()
        terminal.keys("y")
        for _ in range(50):
            if "EXITED" in terminal.screen():
                break
            time.sleep(0.1)
        assert "EXITED 0" in terminal.screen()
    finally:
        terminal.stop()
