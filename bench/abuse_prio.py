"""What the bot workers' priority costs a process at normal priority on their core.

    python3 bench/abuse_prio.py [--seconds 8] [--cpu 0] [--modes 10,19,idle] [--neighbour]
                                [--probe-slice-us 100]

At the ``split`` placement of the abuse suites the server and its bot worker processes
share one core; while attackers keep the hard bots of their tables thinking, both
workers are always runnable, and every wake-up of the server's loop (a ping, a move)
must take the core from one of them. This measures that alone, without a server: on
``--cpu``, two worker processes at each priority (``10``/``19``: ``os.nice``; ``idle``:
``SCHED_IDLE``) spin on Python work, and a probe at normal priority wakes every 2 ms,
works 0.2 ms (about a ping's answer) and sleeps again. Per mode: the probe's wake-up
lateness (p50/p99/max, ms) and the workers' work done a second (units of 10,000 loop
steps: what a bot decision gets). ``--neighbour`` adds a third spinning process at
nice 19 on the same core (a long job of the host's): the workers' share against it.
``--probe-slice-us N`` has the probe ask the kernel for ``N`` µs slices first, as
``spades serve --loop-slice-us`` does for the event loop (:mod:`server.ops.timeslice`;
mode ``0`` puts the two workers at normal priority, like busy processes of the host).
One JSON object on the last line; nothing here raises on a busy machine (the figures
just move), ``ValueError`` for an unknown mode.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.ops.timeslice import request_slice

__all__ = ["main", "set_priority"]


def set_priority(mode: str) -> None:
    """This process at ``mode``: a niceness (``"10"``, ``"19"``) or ``"idle"``."""
    if mode == "idle":
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    else:
        os.nice(int(mode))


def _spin(cpu: int, mode: str, until: float, done: Any) -> None:
    os.sched_setaffinity(0, {cpu})
    set_priority(mode)
    units = 0
    while time.monotonic() < until:
        for _ in range(10_000):
            pass
        units += 1
    with done.get_lock():
        done.value += units


def _probe(cpu: int, until: float, out: Any, slice_us: int) -> None:
    os.sched_setaffinity(0, {cpu})
    if slice_us and not request_slice(slice_us):
        raise SystemExit(f"the kernel did not take a {slice_us} µs slice")
    late: list[float] = []
    while time.monotonic() < until:
        wanted = time.monotonic() + 0.002
        time.sleep(0.002)
        late.append(max(0.0, time.monotonic() - wanted) * 1000)
        end = time.monotonic() + 0.0002
        while time.monotonic() < end:
            pass
    late.sort()
    out.put(
        {
            "wakes": len(late),
            "late_p50_ms": round(late[len(late) // 2], 3),
            "late_p99_ms": round(late[int(0.99 * len(late))], 3),
            "late_max_ms": round(late[-1], 3),
        }
    )


def measure(
    mode: str, seconds: float, cpu: int, neighbour: bool, slice_us: int = 0
) -> dict[str, Any]:
    """One mode's figures (see the module)."""
    if mode != "idle":
        int(mode)  # ValueError for a bad mode, before anything starts
    ctx = multiprocessing.get_context("spawn")
    start = time.monotonic() + 1.0  # the processes' start-up out of the window
    until = start + seconds
    done = ctx.Value("q", 0)
    other = ctx.Value("q", 0)
    out = ctx.Queue()
    spinners = [ctx.Process(target=_spin, args=(cpu, mode, until, done)) for _ in range(2)]
    if neighbour:
        spinners.append(ctx.Process(target=_spin, args=(cpu, "19", until, other)))
    probe = ctx.Process(target=_probe, args=(cpu, until, out, slice_us))
    for process in spinners:
        process.start()
    time.sleep(max(0.0, start - time.monotonic()))
    probe.start()
    figures: dict[str, Any] = out.get(timeout=seconds + 30)
    for process in [*spinners, probe]:
        process.join(seconds + 30)
    figures["worker_units_per_s"] = round(done.value / (seconds + 1.0), 1)
    if neighbour:
        figures["neighbour_units_per_s"] = round(other.value / (seconds + 1.0), 1)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--cpu", type=int, default=0)
    parser.add_argument("--modes", default="10,19,idle")
    parser.add_argument("--neighbour", action="store_true")
    parser.add_argument("--repeat", type=int, default=1, help="rounds of every mode")
    parser.add_argument("--probe-slice-us", type=int, default=0, help="0: the kernel's")
    args = parser.parse_args()
    results: dict[str, list[dict[str, Any]]] = {}
    for _ in range(args.repeat):
        for mode in args.modes.split(","):
            figures = measure(mode, args.seconds, args.cpu, args.neighbour, args.probe_slice_us)
            results.setdefault(mode, []).append(figures)
            print(mode, figures, file=sys.stderr, flush=True)
    print(
        json.dumps(
            {
                "benchmark": "abuse_prio",
                "seconds": args.seconds,
                "cpu": args.cpu,
                "neighbour": args.neighbour,
                "probe_slice_us": args.probe_slice_us,
                "modes": results,
            }
        )
    )


if __name__ == "__main__":
    main()
