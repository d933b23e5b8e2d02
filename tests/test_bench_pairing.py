"""bench/pairing.py still measures what it says (it once ran with every seek refused):
a small run on one node pairs its seekers with no error, and its last line is one JSON
object."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_small_pairing_run_pairs_its_seekers_without_errors() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "bench/pairing.py",
            *("--seekers", "24", "--seconds", "2"),
            *("--runs", "1", "--patience", "4", "--seed", "3"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=240,
    )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    (run,) = figures["runs"]
    assert run["failed"] == 0 and run["error_codes"] == [], run
    assert run["paired_seekers"] >= 20, run  # the window widens while they wait
    assert run["paired_seekers"] % 2 == 0, run
