"""Ask Linux for a short time slice for the calling thread (the event loop's).

    request_slice(100)        # this thread: 100 µs slices; True if the kernel took it
    request_slice(0)          # back to the kernel's default slice
    slice_ns()                # this thread's slice now, in ns (None where unknown)
    with yielding():          # a worker's job: hand the core back every millisecond
        think()

Why: on a core shared with busy processes at the same priority (attackers' clients at the
``shared`` placement of bench/abuse.py, a host's other services), the kernel's scheduler
(EEVDF, Linux 6.6 and later) lets the process on the core finish its slice (1.4 ms on
2 cores) before a waking one runs. The event loop sleeps most of the time and works in
short bursts; each wake-up (a ping, a move) could wait a whole slice. Since Linux 6.12 a
thread may ask for a shorter slice (``sched_setattr``, ``sched_runtime`` for a normal
thread), and a waking thread with a shorter slice than the running one takes the core at
once. It changes no thread's share of the CPU, only how soon it gets it.
``bench/abuse_prio.py --probe-slice-us 100`` measures it: a probe at normal priority
waking every 2 ms beside two busy processes at normal priority was 4.7 to 5.0 ms late at
p99 with the default slice, 1.2 to 1.4 ms with 100 µs (docs/benchmarks.md, Round 7).

Processes the server starts inherit the slice; the bot workers go back to the default
(:func:`server.bots.lower_priority`): they think in long runs, and a short slice would
only switch them more often. Elsewhere than Linux on x86-64 or arm64, and on kernels
without the call, nothing changes and :func:`request_slice` returns ``False``; it raises
nothing.

A worker that thinks on the loop's core must also give the core back: a woken thread
whose fair share is spent for the moment (the loop, after a burst of work beside the
workers) is not let in until the running one is stopped, and a busy thread is stopped
only at the kernel's tick (4 ms at 250 Hz). Traced (``perf sched``) through
bench/abuse_shares.py's ``bot_tables`` at ``split``: the loop waited more than 1 ms for
the core 39 to 62 times in 22 s, up to 5 to 11 ms, each time behind a bot worker.
:func:`yielding` makes the worker offer the core every millisecond while it works
(``sched_yield`` from a ``SIGALRM`` handler): 9 to 17 times, docs/benchmarks.md (Round 8).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import platform
import signal
import struct
import sys
import threading
from collections.abc import Iterator

__all__ = ["DEFAULT_LOOP_SLICE_US", "YIELD_EVERY_S", "request_slice", "slice_ns", "yielding"]

DEFAULT_LOOP_SLICE_US = 100
"""What ``spades serve`` asks for its loop unless told ``--loop-slice-us``: the kernel's
shortest (it clamps a request to 100 µs .. 100 ms)."""

# struct sched_attr (include/uapi/linux/sched/types.h), the 56-byte first version:
# size, policy, flags, nice, priority, runtime, deadline, period, util_min, util_max
_ATTR = struct.Struct("=IIQiIQQQII")
# syscall numbers of sched_setattr and sched_getattr
_SYSCALLS = {"x86_64": (314, 315), "aarch64": (274, 275), "arm64": (274, 275)}


def _calls() -> tuple[int, int] | None:
    if not sys.platform.startswith("linux"):
        return None
    return _SYSCALLS.get(platform.machine())


def _libc() -> ctypes.CDLL | None:
    try:
        return ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None


def request_slice(microseconds: int) -> bool:
    """Ask for ``microseconds`` slices for the calling thread (``0``: the kernel's default),
    keeping its policy (normal) and niceness. ``True`` if the kernel took it; ``False``
    where it cannot (another system, an older kernel, a thread not at the normal policy,
    no permission). ``ValueError`` for a negative value; nothing else is raised."""
    if microseconds < 0:
        raise ValueError(f"a slice is 0 (the default) or more microseconds, not {microseconds}")
    calls, libc = _calls(), _libc()
    if calls is None or libc is None or os.sched_getscheduler(0) != os.SCHED_OTHER:
        return False
    nice = os.getpriority(os.PRIO_PROCESS, 0)
    attr = ctypes.create_string_buffer(
        _ATTR.pack(_ATTR.size, os.SCHED_OTHER, 0, nice, 0, microseconds * 1000, 0, 0, 0, 0),
        _ATTR.size,
    )
    if int(libc.syscall(calls[0], 0, attr, 0)) != 0:
        return False
    # kernels before 6.12 take the call and ignore the runtime of a normal thread
    return microseconds == 0 or slice_ns() == min(max(microseconds * 1000, 100_000), 100_000_000)


def slice_ns() -> int | None:
    """The calling thread's slice in nanoseconds, as the kernel reports it (the default
    when none was asked for); ``None`` where :func:`request_slice` cannot work."""
    calls, libc = _calls(), _libc()
    if calls is None or libc is None:
        return None
    attr = ctypes.create_string_buffer(_ATTR.size)
    if int(libc.syscall(calls[1], 0, attr, _ATTR.size, 0)) != 0:
        return None
    runtime: int = _ATTR.unpack(attr.raw)[5]
    return runtime


YIELD_EVERY_S = 0.001
"""How often a working bot or analysis worker offers its core (:func:`yielding`)."""


def _offer_core(signum: int, frame: object) -> None:
    os.sched_yield()


@contextlib.contextmanager
def yielding(every_s: float = YIELD_EVERY_S) -> Iterator[None]:
    """While the block runs, the process offers its core every ``every_s`` seconds
    (``sched_yield``; free when nothing else waits for the core), so a thread it keeps
    waiting (the event loop) gets in within about that long, not at the kernel's next
    tick. Armed only for the block (an idle worker is not woken). Only in the main thread
    of a process whose ``SIGALRM`` is unused (no handler, no timer); elsewhere (another
    thread, a process with an alarm of its own, a system without ``setitimer`` or
    ``sched_yield``) it does nothing. Raises nothing of its own."""
    if (
        every_s <= 0
        or not hasattr(signal, "setitimer")
        or not hasattr(os, "sched_yield")
        or threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGALRM) is not signal.SIG_DFL  # someone else's alarm
        or signal.getitimer(signal.ITIMER_REAL) != (0.0, 0.0)
    ):
        yield
        return
    signal.signal(signal.SIGALRM, _offer_core)
    signal.setitimer(signal.ITIMER_REAL, every_s, every_s)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)
