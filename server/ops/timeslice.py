"""Ask Linux for a short time slice for the calling thread (the event loop's).

    request_slice(100)        # this thread: 100 µs slices; True if the kernel took it
    request_slice(0)          # back to the kernel's default slice
    slice_ns()                # this thread's slice now, in ns (None where unknown)

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
"""

from __future__ import annotations

import ctypes
import os
import platform
import struct
import sys

__all__ = ["DEFAULT_LOOP_SLICE_US", "request_slice", "slice_ns"]

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
