"""The abuse suites' verdicts (bench/abuse_stats.py): each attack phase is also judged
against the quiet windows on both sides of it pooled, beside the old adjacent keys."""

from __future__ import annotations

import random

from bench.abuse_stats import Ledger, Sample, compare


def _window(start: float, slow_ms: float, seed: int, seconds: float = 10.0) -> Sample:
    """A window of 200 pings a second: about 1 ms each, one in forty ``slow_ms``."""
    rng = random.Random(seed)
    sample = Sample()
    steps = int(seconds * 200)
    for step in range(steps):
        at = start + step / 200
        slow = step % 40 == 0
        sample.values.append((slow_ms if slow else 1.0 + rng.random() * 0.2) / 1000)
        sample.starts.append(at)
    return sample


def test_a_phase_is_bracketed_by_the_quiet_windows_on_both_sides_and_keeps_its_old_keys() -> None:
    ledger = Ledger()
    before, attacked, after = _window(0, 4.0, 1), _window(20, 5.0, 2), _window(40, 6.0, 3)
    ledger.quiet(before)
    ledger.attacked("flood", attacked)
    assert "ping_p99_ratio_bracketed" not in ledger.figures("flood")  # nothing after it yet
    ledger.quiet(after)
    figures = ledger.figures("flood")
    # the adjacent keys mean what they meant: the window just before only
    old = compare(attacked, before, Sample.pooled([before, after]))
    assert {k: figures[k] for k in old} == old
    assert figures["ping_p99_ratio_adjacent"] == 1.25
    assert figures["quiet_after_ping_p99_ms"] == 6.0
    # against both sides pooled: the p99 of both windows' pings together
    assert figures["ping_p99_ratio_bracketed"] == round(5.0 / 6.0, 2)
    low, high = figures["ping_p99_ratio_bracketed_ci95"]
    assert low <= figures["ping_p99_ratio_bracketed"] <= high
    assert figures["ping_within_2x_bracketed"] == "met"
    summary = ledger.summary()
    assert summary["ping_2x_met_bracketed"] == ["flood"]
    assert summary["ping_2x_missed_bracketed"] == [] == summary["ping_2x_unclear_bracketed"]


def test_a_phase_far_over_both_neighbours_is_missed_bracketed() -> None:
    ledger = Ledger()
    ledger.quiet(_window(0, 2.0, 4))
    ledger.attacked("heavy", _window(20, 9.0, 5))
    ledger.attacked("second", _window(40, 2.0, 6))  # two phases, one quiet window after both
    ledger.quiet(_window(60, 2.0, 7))
    heavy, second = ledger.figures("heavy"), ledger.figures("second")
    assert heavy["ping_within_2x_bracketed"] == "missed"
    assert heavy["quiet_after_ping_p99_ms"] == second["quiet_after_ping_p99_ms"] == 2.0
    assert second["ping_within_2x_bracketed"] == "met"
