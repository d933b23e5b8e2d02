"""How the abuse suites tell an attack's effect on the honest tail from noise.

    sample = Sample(round_trips, started_at)            # seconds, time.monotonic
    figures = compare(attacked, adjacent, pooled)       # ratios and their 95% intervals
    verdict(figures["ping_p99_ratio_adjacent_ci95"])    # "met", "missed" or "unclear"

A p99 of some 2,000 round trips is set by its 20 slowest, and those come in bursts (a
stall of the machine delays every probe at once), so the p99 of one 14 s window moves by
a factor of two between windows with nothing changed. Each attack phase is therefore
compared with a quiet window of the same length and the same honest load measured just
before it (``adjacent``), and with every quiet window of the suite pooled (``pooled``);
each ratio gets a 95% interval from a block bootstrap: the round trips are cut into
blocks of :data:`BLOCK_SECONDS` by when they started (a burst stays inside its block),
each window is resampled block by block, independently, and the ratio of the two
resampled p99s is taken :data:`RESAMPLES` times with a fixed seed. Resampling single
round trips instead would treat a burst's 12 slow pings as 12 independent draws and
give an interval that looks far surer than the data is.

Nothing here raises on empty input: a missing figure is ``None``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "BLOCK_SECONDS",
    "RESAMPLES",
    "Ledger",
    "Sample",
    "bracketed",
    "compare",
    "interval",
    "quantile",
    "verdict",
]

BLOCK_SECONDS = 0.5
RESAMPLES = 400
TARGET = 2.0  # issue 25: honest ping p99 within 2x of baseline


def quantile(values: Sequence[float], q: float) -> float | None:
    """The ``q`` quantile of ``values`` as the suites have always taken it (the value at
    index ``int(q * n)`` of the sorted list), ``None`` for no values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Sample:
    """Round trips (s) and when each started (``time.monotonic``), in the same order."""

    values: list[float] = field(default_factory=list)
    starts: list[float] = field(default_factory=list)

    def blocks(self) -> list[list[float]]:
        """The values cut into :data:`BLOCK_SECONDS` blocks by start time (empty ones
        left out)."""
        if not self.values:
            return []
        first = min(self.starts) if self.starts else 0.0
        grouped: dict[int, list[float]] = {}
        for index, value in enumerate(self.values):
            start = self.starts[index] if index < len(self.starts) else first
            grouped.setdefault(int((start - first) / BLOCK_SECONDS), []).append(value)
        return [grouped[key] for key in sorted(grouped)]

    @staticmethod
    def pooled(samples: Sequence[Sample]) -> Sample:
        """One sample of several windows; blocks never straddle two windows (each
        window's start times stay its own)."""
        values: list[float] = []
        starts: list[float] = []
        for sample in samples:
            values.extend(sample.values)
            starts.extend(sample.starts)
        return Sample(values, starts)


def _resample(blocks: list[list[float]], rng: random.Random) -> list[float]:
    drawn: list[float] = []
    for chosen in rng.choices(blocks, k=len(blocks)):
        drawn.extend(chosen)
    return drawn


def interval(
    attacked: Sample, base: Sample | None = None, q: float = 0.99, seed: int = 25
) -> list[float] | None:
    """The 95% block-bootstrap interval of ``attacked``'s ``q`` quantile (ms), or, with
    ``base``, of the ratio of the two quantiles; ``None`` if either has no values."""
    mine = attacked.blocks()
    theirs = base.blocks() if base is not None else None
    if not mine or (base is not None and not theirs):
        return None
    rng = random.Random(seed)
    draws: list[float] = []
    for _ in range(RESAMPLES):
        top = quantile(_resample(mine, rng), q) or 0.0
        if theirs is None:
            draws.append(top * 1000)
            continue
        bottom = quantile(_resample(theirs, rng), q) or 0.0
        if bottom > 0:
            draws.append(top / bottom)
    if not draws:
        return None
    draws.sort()
    low = draws[int(0.025 * len(draws))]
    high = draws[min(len(draws) - 1, int(0.975 * len(draws)))]
    return [round(low, 2), round(high, 2)]


def _ratio(top: float | None, bottom: float | None) -> float | None:
    return None if not bottom or top is None else round(top / bottom, 2)


def verdict(ci95: list[float] | None, target: float = TARGET) -> str:
    """``met`` when the whole interval of the ratio is at most ``target``, ``missed``
    when all of it is above, else ``unclear`` (the windows cannot tell)."""
    if ci95 is None:
        return "unclear"
    if ci95[1] <= target:
        return "met"
    if ci95[0] > target:
        return "missed"
    return "unclear"


def compare(
    attacked: Sample, adjacent: Sample, pooled: Sample, prefix: str = "ping"
) -> dict[str, Any]:
    """An attack phase's p99 against its adjacent quiet window and against the pooled
    quiet windows: the ratios (as measured), their 95% intervals, the phase's own p99
    interval (ms) and the verdict against the 2x target (from the adjacent interval)."""
    top = quantile(attacked.values, 0.99)
    near = quantile(adjacent.values, 0.99)
    every = quantile(pooled.values, 0.99)
    adjacent_ci = interval(attacked, adjacent)
    return {
        f"{prefix}_p99_ms_ci95": interval(attacked),
        f"quiet_{prefix}_p99_ms": None if near is None else round(near * 1000, 2),
        f"{prefix}_p99_ratio_adjacent": _ratio(top, near),
        f"{prefix}_p99_ratio_adjacent_ci95": adjacent_ci,
        f"pooled_{prefix}_p99_ms": None if every is None else round(every * 1000, 2),
        f"{prefix}_p99_ratio_pooled": _ratio(top, every),
        f"{prefix}_p99_ratio_pooled_ci95": interval(attacked, pooled),
        f"{prefix}_within_2x": verdict(adjacent_ci),
    }


def bracketed(
    attacked: Sample, before: Sample, after: Sample, prefix: str = "ping"
) -> dict[str, Any]:
    """An attack phase against the quiet windows on both sides of it pooled (the one just
    before, the one just after): twice the reference of the adjacent ratio, and a drift of
    the machine over the three windows is on both sides of the ratio. The keys: the after
    window's p99 (ms), the ratio, its 95% block-bootstrap interval and the verdict against
    2x from that interval (``{prefix}_within_2x_bracketed``)."""
    both = Sample.pooled([before, after])
    late = quantile(after.values, 0.99)
    ci95 = interval(attacked, both)
    return {
        f"quiet_after_{prefix}_p99_ms": None if late is None else round(late * 1000, 2),
        f"{prefix}_p99_ratio_bracketed": _ratio(
            quantile(attacked.values, 0.99), quantile(both.values, 0.99)
        ),
        f"{prefix}_p99_ratio_bracketed_ci95": ci95,
        f"{prefix}_within_2x_bracketed": verdict(ci95),
    }


def _median(values: Sequence[float]) -> float | None:
    return quantile(values, 0.5)


class Ledger:
    """A suite's quiet windows and attack phases, in the order measured.

    ``quiet(sample, replies)`` after each quiet window (the suite's ``baseline`` first,
    then one before each later attack, and one after the last); ``attacked(name, sample,
    replies)`` after each attack phase (compared with the latest quiet window, and with it
    and the next quiet window pooled: :func:`bracketed`); ``figures(name)`` the phase's
    comparison (:func:`compare`, :func:`bracketed` once a quiet window followed it, and
    the honest bot reply's p50 ratio to the adjacent window's); ``summary()`` the suite's
    worst ratios and its verdicts."""

    def __init__(self) -> None:
        self._quiet: list[Sample] = []
        self._latest: tuple[Sample, list[float]] | None = None
        self._phases: dict[str, tuple[Sample, list[float], Sample, list[float]]] = {}
        self._after: dict[str, Sample] = {}  # phase -> the quiet window measured next
        self._unfollowed: list[str] = []  # phases no quiet window has followed yet
        self.settled: list[float] = []  # s each quiet window waited for leftovers to stop

    def quiet(self, sample: Sample, replies: list[float] | None = None) -> None:
        self._quiet.append(sample)
        self._latest = (sample, list(replies or []))
        for name in self._unfollowed:
            self._after[name] = sample
        self._unfollowed = []

    def attacked(self, name: str, sample: Sample, replies: list[float] | None = None) -> None:
        near, near_replies = self._latest or (Sample(), [])
        self._phases[name] = (sample, list(replies or []), near, near_replies)
        self._unfollowed.append(name)

    def figures(self, name: str, prefix: str = "ping") -> dict[str, Any]:
        sample, replies, near, near_replies = self._phases[name]
        figures = compare(sample, near, Sample.pooled(self._quiet), prefix)
        # the adjacent window's sample size, named as the phase's own count is
        figures["quiet_pings" if prefix == "ping" else f"quiet_{prefix}_ok"] = len(near.values)
        if replies or near_replies:
            figures["bot_reply_ratio_adjacent"] = _ratio(_median(replies), _median(near_replies))
        after = self._after.get(name)
        if after is not None and after.values and near.values:
            figures.update(bracketed(sample, near, after, prefix))
        return figures

    def summary(self, prefix: str = "ping") -> dict[str, Any]:
        """The worst ratios over the attack phases (adjacent and pooled), the phases whose
        whole interval is above 2x (``missed``) or straddles it (``unclear``), and the
        quiet windows' p99s (ms): how far the reference itself moved."""
        every = {name: self.figures(name, prefix) for name in self._phases}
        quiet_p99 = [quantile(s.values, 0.99) for s in self._quiet]

        def worst(key: str) -> float | None:
            found = [f[key] for f in every.values() if f.get(key) is not None]
            return max(found) if found else None

        return {
            f"worst_{prefix}_p99_ratio_adjacent": worst(f"{prefix}_p99_ratio_adjacent"),
            f"worst_{prefix}_p99_ratio_pooled": worst(f"{prefix}_p99_ratio_pooled"),
            f"{prefix}_2x_missed": [
                n for n, f in every.items() if f[f"{prefix}_within_2x"] == "missed"
            ],
            f"{prefix}_2x_unclear": [
                n for n, f in every.items() if f[f"{prefix}_within_2x"] == "unclear"
            ],
            f"quiet_{prefix}_p99s_ms": [
                None if v is None else round(v * 1000, 2) for v in quiet_p99
            ],
            "quiet_settle_s": list(self.settled),
            **{
                f"{prefix}_2x_{word}_bracketed": [
                    n for n, f in every.items() if f.get(f"{prefix}_within_2x_bracketed") == word
                ]
                for word in ("met", "missed", "unclear")
            },
        }
