"""Figures read from the server's ``/metrics`` page by the load benchmark.

    text = metrics_page(port)
    counters(text)                     # spades_* counters summed by name
    loop_lag(before, after)            # the loop-lag histogram between two pages
    gc_pauses(before, after)           # collections by generation between two pages

``metrics_page`` raises ``urllib.error.URLError`` when the page cannot be read.
"""

from __future__ import annotations

import urllib.request

__all__ = ["counters", "gc_pauses", "loop_lag", "metrics_page"]


def metrics_page(port: int) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as response:
        return str(response.read().decode())


def counters(text: str) -> dict[str, float]:
    """The spades_* counters of a /metrics page, summed by name."""
    totals: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith("spades_") and ("_total" in line or "_count" in line):
            name = line.split("{", 1)[0].split(" ", 1)[0]
            labels = line.split("{", 1)[1].split("}", 1)[0] if "{" in line else ""
            key = f"{name}{{{labels}}}" if labels else name
            totals[key] = totals.get(key, 0.0) + float(line.rsplit(" ", 1)[1])
    return totals


def _lag_buckets(text: str) -> tuple[list[tuple[float, float]], float]:
    """The loop-lag histogram of a page: (upper bound, cumulative count) and the sum."""
    buckets, total = [], 0.0
    for line in text.splitlines():
        if line.startswith("spades_loop_lag_seconds_bucket"):
            bound = line.split('le="', 1)[1].split('"', 1)[0]
            buckets.append((float(bound), float(line.rsplit(" ", 1)[1])))
        elif line.startswith("spades_loop_lag_seconds_sum"):
            total = float(line.rsplit(" ", 1)[1])
    return buckets, total


def loop_lag(before: str, after: str) -> dict[str, float]:
    """The server's loop lag in the window (two pages of /metrics): probes, mean, and the
    bucket bound under which 50/99/99.9% of the probes fell (ms; inf past the last)."""
    first, sum_first = _lag_buckets(before)
    last, sum_last = _lag_buckets(after)
    if not last:
        return {}
    start = dict(first)
    counts = [(bound, count - start.get(bound, 0.0)) for bound, count in last]
    probes = counts[-1][1]
    figures = {
        "probes": probes,
        "mean_ms": round(1000 * (sum_last - sum_first) / max(1, probes), 3),
    }
    for name, fraction in (("p50_ms", 0.5), ("p99_ms", 0.99), ("p999_ms", 0.999)):
        bound = next((b for b, c in counts if c >= fraction * probes), float("inf"))
        figures[name] = round(1000 * bound, 3)
    over = {b: probes - c for b, c in counts}
    figures["over_5ms"] = over.get(0.005, 0.0)
    figures["over_20ms"] = over.get(0.02, 0.0)
    return figures


def gc_pauses(before: str, after: str) -> dict[str, dict[str, float]]:
    """Collections in the window by generation: how many, and their total and mean ms."""

    def read(text: str) -> dict[str, float]:
        out = {}
        for line in text.splitlines():
            if line.startswith(("spades_gc_pause_seconds_count", "spades_gc_pause_seconds_sum")):
                generation = line.split('generation="', 1)[1].split('"', 1)[0]
                kind = "count" if "_count" in line else "sum"
                out[f"{kind}{generation}"] = float(line.rsplit(" ", 1)[1])
        return out

    first, last = read(before), read(after)
    figures = {}
    for generation in "012":
        count = last.get(f"count{generation}", 0.0) - first.get(f"count{generation}", 0.0)
        total = last.get(f"sum{generation}", 0.0) - first.get(f"sum{generation}", 0.0)
        figures[f"gen{generation}"] = {
            "count": count,
            "total_ms": round(1000 * total, 1),
            "mean_ms": round(1000 * total / max(1.0, count), 3),
        }
    return figures
