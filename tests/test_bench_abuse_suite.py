"""bench/abuse.py runs each suite in a process group of its own: a suite that hangs is
ended with everything it started (a hung suite once left its server running and
skewed the next suite's figures)."""

from __future__ import annotations

import sys
import textwrap
import time
from pathlib import Path

from bench.abuse import run_suite


def _gone(pid: int) -> bool:
    """The process ``pid`` has ended (or is a zombie waiting for its parent)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state == "Z"


def test_a_suite_past_its_timeout_is_ended_with_the_processes_it_started(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    script = tmp_path / "hung_suite.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import subprocess, sys, time
            child = subprocess.Popen([{sys.executable!r}, "-c", "import time; time.sleep(120)"])
            open({str(pid_file)!r}, "w").write(str(child.pid))
            time.sleep(120)
            """
        )
    )
    result = run_suite(str(script), timeout=3.0)  # time to start its child, even on a busy machine
    assert result["error"] == "timed out after 3 s"
    child = int(pid_file.read_text())
    # the killed child is reaped by whoever adopts it; give that a moment
    for _ in range(200):
        if _gone(child):
            break
        time.sleep(0.01)
    assert _gone(child)


def test_a_suite_that_ends_gives_its_last_json_line(tmp_path: Path) -> None:
    script = tmp_path / "quick_suite.py"
    script.write_text('print("warming up")\nprint(\'{"benchmark": "quick", "phases": {}}\')\n')
    assert run_suite(str(script)) == {"benchmark": "quick", "phases": {}}


def test_a_suite_that_fails_reports_its_exit_and_stderr(tmp_path: Path) -> None:
    script = tmp_path / "failing_suite.py"
    script.write_text('import sys\nsys.stderr.write("no server\\n")\nsys.exit(3)\n')
    result = run_suite(str(script))
    assert result["error"] == "exit 3"
    assert "no server" in result["stderr"]
