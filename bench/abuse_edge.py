"""Abuse at the edge (issue 25, items 7 and 8): slow half-open handshakes from several
addresses beside an honest player, and floods of HEAD and malformed requests measured
in log bytes.

    python3 bench/abuse_edge.py                     # about 45 s
    python3 bench/abuse_edge.py --seconds 5 --addresses 4 --sockets 300

Starts ``python3 -m server`` (default limits, a throw-away SQLite file, log level INFO
to a file) on 127.0.0.1. Phases, each ``--seconds`` long:

- ``baseline``: the honest player connects, says hello and pings, again and again, from
  eight addresses in turn (127.0.0.1, .201 to .207; :data:`CONNECTORS`); its
  connect-to-welcome time (p50, p99 in ms; ``honest_ok``: the sample) and failures are
  counted.
- ``half_open``: ``--addresses`` attacker addresses (127.0.0.2, .3, ...) each keep up to
  ``--sockets`` connections that send a request line and then one 6 KB header line a
  second, never finishing; the honest player goes on beside them. Recorded: how many
  the attackers opened, how many looked open to them at the end (some wait unaccepted in
  the listen backlog), the server's peak growth in open files and in RSS.
- ``head_flood`` and ``garbage_flood``: 8 connections from 127.0.0.9 send ``HEAD /``
  (or a malformed request line) as fast as answers come back; recorded: requests sent,
  answers with a status line, log bytes the server wrote (per second and per request;
  the honest player's own lines are in them: ``log_bytes_over_baseline_per_request``
  takes them out at the baseline's rate).

The attacks run in a process of their own at the attack niceness of
``bench/abuse_kit.py`` (``$SPADES_ATTACK_NICE``, default 19), as in the other suites: an
attacker's own CPU, on this machine's cores, would otherwise count as the server's delay
to the honest player (and with one shared loop, the honest player waited behind the
attacker's own coroutines). Every loop is bounded in count and time, all traffic stays
on loopback. Prints one JSON object on its last line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import multiprocessing
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from websockets.asyncio.client import connect

from bench._procstat import (
    cpu_seconds,
    machine_busy_seconds,
    net_softirqs,
    rss_kib,
    schedstat,
    tcp_counters,
)
from bench.abuse_kit import join, place_clients, placement, server_placement, spawn, stop_server
from bench.abuse_stats import Ledger, Sample, quantile
from protocol import messages as m
from protocol.codec import MAX_SERVER_MESSAGE_BYTES, decode_server, encode

CONNECTORS = ("127.0.0.1", *(f"127.0.0.{n}" for n in range(201, 208)))
"""The honest player's addresses, taken in turn: a connect every 20 ms or so, some 40 a
second, each address well under its connection rate (10 a second). With a pause of
100 ms and one address, a phase had some 60 connects, and its p99 was its slowest. One
connect at a time: concurrent ones would wait for each other in this process's loop."""
PAUSE = 0.02


STEPS = ("tcp", "upgrade", "hello", "ping", "close")
"""The steps of one honest connect, each timed (``honest_STEP_p99_ms``): where its tail
is spent."""


def _ms_at(values: list[float], q: float) -> float | None:
    late = quantile(values, q)
    return None if late is None else round(late * 1000, 2)


class Honest:
    """Connect, hello, ping, close: again and again until ``stop``, from each of
    ``sources`` in turn."""

    def __init__(self, url: str, sources: tuple[str, ...] = CONNECTORS) -> None:
        self.url = url
        self.sources = sources
        self.times: list[float] = []
        self.starts: list[float] = []  # when each of ``times`` began (time.monotonic)
        self.failures = 0
        self.stop = False
        self.since = time.monotonic()
        self.last = Sample()  # the connect times of the last take, with their starts
        parts = urllib.parse.urlsplit(url)
        self.target = (parts.hostname or "127.0.0.1", parts.port or 80)
        self.steps: dict[str, list[float]] = {step: [] for step in STEPS}

    async def run(self) -> None:
        nonce = 0
        turn = 0
        while not self.stop:
            source = self.sources[turn % len(self.sources)]
            turn += 1
            start = time.monotonic()
            marks = [start]
            try:
                async with asyncio.timeout(10):
                    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                    sock.setblocking(False)
                    sock.bind((source, 0))
                    await asyncio.get_running_loop().sock_connect(sock, self.target)
                    marks.append(time.monotonic())  # tcp: the kernel's handshake
                    ws = await connect(
                        self.url,
                        max_size=MAX_SERVER_MESSAGE_BYTES,
                        compression=None,
                        sock=sock,
                    )
                    marks.append(time.monotonic())  # upgrade: the HTTP request and its 101
                    await ws.send(encode(m.Hello(protocol_version=1, name="honest")))
                    while not isinstance(decode_server(await ws.recv()), m.Welcome):  # type: ignore[arg-type]
                        pass
                    marks.append(time.monotonic())  # hello: to the welcome
                    nonce += 1
                    await ws.send(encode(m.Ping(nonce=nonce)))
                    while not isinstance(decode_server(await ws.recv()), m.Pong):  # type: ignore[arg-type]
                        pass
                    marks.append(time.monotonic())  # ping: to the pong
                    await ws.close()
                    marks.append(time.monotonic())  # close: the closing handshake
                self.times.append(marks[-1] - start)
                self.starts.append(start)
                for step, (began, ended) in zip(STEPS, itertools.pairwise(marks), strict=True):
                    self.steps[step].append(ended - began)
            except Exception:
                self.failures += 1
            await asyncio.sleep(PAUSE)

    def take(self) -> dict[str, Any]:
        """The figures since the last take: connects, failures, p50/p99 (ms), and when
        the slowest connect began (s into the window)."""
        worst_at = None
        ranked = sorted(range(len(self.times)), key=self.times.__getitem__, reverse=True)
        if ranked:
            worst_at = round(self.starts[ranked[0]] - self.since, 2)
        # the four slowest connects: when each began (s into the window), its total and
        # its steps (ms), in the order of STEPS: which step the tail is spent in
        slowest = [
            [round(self.starts[i] - self.since, 2), round(self.times[i] * 1000, 1)]
            + [round(self.steps[step][i] * 1000, 1) for step in STEPS]
            for i in ranked[:4]
        ]
        self.last = Sample(self.times, self.starts)
        times, failures = sorted(self.times), self.failures
        self.times, self.starts, self.failures = [], [], 0
        self.since = time.monotonic()

        def at(q: float) -> float | None:
            return (
                round(times[min(len(times) - 1, int(q * len(times)))] * 1000, 1) if times else None
            )

        steps = {f"honest_{step}_p99_ms": _ms_at(self.steps[step], 0.99) for step in STEPS}
        self.steps = {step: [] for step in STEPS}
        return {"honest_ok": len(times), "honest_failed": failures, "honest_p50_ms": at(0.5),
                "honest_p99_ms": at(0.99), "honest_slowest_at_s": worst_at, **steps,
                "honest_slowest_4": slowest}  # fmt: skip


async def _slow_sockets(port: int, source: str, limit: int, deadline: float) -> dict[str, int]:
    """Up to ``limit`` connections from ``source`` that never finish their headers."""
    opened = refused = 0
    held: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    while time.monotonic() < deadline:
        held = [(r, w) for r, w in held if not r.at_eof() and not w.is_closing()]
        while len(held) < limit and time.monotonic() < deadline:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(source, 0)
                )
            except OSError:
                refused += 1
                break
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
            held.append((reader, writer))
            opened += 1
        for _, writer in held:  # one more header line each, 6 KB: headers that grow
            with contextlib.suppress(Exception):
                writer.write(b"X-Slow: " + b"a" * 6000 + b"\r\n")
        await asyncio.sleep(1.0)
    still = sum(1 for r, w in held if not r.at_eof() and not w.is_closing())
    for _, writer in held:
        writer.close()
    return {"opened": opened, "connect_refused": refused, "held_at_end": still}


async def _flood(port: int, request: bytes, deadline: float) -> dict[str, int]:
    sent = answered = 0
    while time.monotonic() < deadline:
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=("127.0.0.9", 0)
            )
            writer.write(request)
            sent += 1
            async with asyncio.timeout(5):
                data = await reader.read()
            answered += data.startswith(b"HTTP/1.1 ")
            writer.close()
        except (OSError, TimeoutError):
            await asyncio.sleep(0.01)
    return {"sent": sent, "answered": answered}


FLOODS = {
    "head_flood": b"HEAD / HTTP/1.1\r\nHost: x\r\n\r\n",
    "garbage_flood": b"\x16\x03\x01\x02\x00 not http\r\n\r\n",
}


START_DELAY = 2.0
"""Seconds between starting an attack's process and its attack (and the window): a new
interpreter importing the client's modules takes a core for a few hundred ms, at the
normal priority until it lowers its own, and that start-up is this benchmark's, not the
attack's (the other suites leave it in their warm-up)."""


def _attack(
    kind: str, port: int, deadline: float, options: dict[str, int], results: Any, start: float
) -> None:
    """Run in a child process: the attack ``kind`` until ``deadline`` (time.monotonic);
    ``results[kind]`` gets each attacking coroutine's counts."""

    async def attack() -> list[dict[str, int]]:
        if kind == "half_open":
            return await asyncio.gather(
                *(
                    _slow_sockets(port, f"127.0.0.{2 + i}", options["sockets"], deadline)
                    for i in range(options["addresses"])
                )
            )
        return await asyncio.gather(*(_flood(port, FLOODS[kind], deadline) for _ in range(8)))

    try:
        time.sleep(max(0.0, start - time.monotonic()))  # the window opens then
        results[kind] = asyncio.run(attack())
    except BaseException as error:  # report, never hang the benchmark
        results[kind] = [{"attack_error": repr(error)}]


def _counts(reported: Any, keys: tuple[str, ...]) -> dict[str, Any]:
    """The attack's counts summed over its coroutines (and its error, if it failed)."""
    entries = list(reported or [])
    sums: dict[str, Any] = {key: sum(int(e.get(key, 0)) for e in entries) for key in keys}
    errors = [e["attack_error"] for e in entries if "attack_error" in e]
    if errors or not entries:
        sums["attack_error"] = errors[0] if errors else "no result"
    return sums


class Costs:
    """What the machine spent from its making to :meth:`figures`: the server's CPU (% of
    one core), how long its main thread waited runnable for a core (ms a second), the
    machine's busy CPU (% of one core) and its network softirqs a second (the kernel's
    TCP work, which no process's niceness governs)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.began = time.monotonic()
        self.cpu, self.sched = cpu_seconds(pid), schedstat(pid)
        self.busy, self.softirqs = machine_busy_seconds(), net_softirqs()
        self.tcp = tcp_counters()

    def figures(self) -> dict[str, float]:
        seconds = max(1e-9, time.monotonic() - self.began)
        sched = schedstat(self.pid)
        return {
            "server_cpu_pct": round(100 * (cpu_seconds(self.pid) - self.cpu) / seconds, 1),
            "server_runnable_wait_ms_per_s": round((sched[1] - self.sched[1]) / 1e6 / seconds, 2),
            "machine_busy_pct": round(100 * (machine_busy_seconds() - self.busy) / seconds, 1),
            "net_softirqs_per_s": round((net_softirqs() - self.softirqs) / seconds),
            # the whole machine's, in the window: a full listening queue, resent segments
            **{
                f"tcp_{name.lower()}": count - self.tcp.get(name, 0)
                for name, count in tcp_counters().items()
            },
        }


def _fds(pid: int) -> int:
    """Open files of the process ``pid`` (its sockets among them)."""
    return len(os.listdir(f"/proc/{pid}/fd"))


async def run(args: argparse.Namespace) -> dict[str, Any]:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    with tempfile.TemporaryDirectory() as folder:
        log_path = os.path.join(folder, "server.log")
        with open(log_path, "wb") as log_file:
            server = subprocess.Popen(
                [sys.executable, "-m", "server", "--port", "0", "--db", f"{folder}/edge.db",
                 "--log-level", "INFO"],
                cwd=Path(__file__).resolve().parent.parent,
                stdout=subprocess.PIPE, stderr=log_file, text=True,
                preexec_fn=server_placement(),
            )  # fmt: skip
        try:
            assert server.stdout is not None
            line = await asyncio.wait_for(asyncio.to_thread(server.stdout.readline), 30)
            url = line.split()[-1]
            port = int(url.rsplit(":", 1)[1].strip("/"))
            honest = Honest(url)
            honest_task = asyncio.create_task(honest.run())
            phases: dict[str, Any] = {}
            await asyncio.sleep(1.0)
            honest.take()
            before = os.path.getsize(log_path)
            costs = Costs(server.pid)
            await asyncio.sleep(args.seconds)
            spent = costs.figures()
            base_rss = rss_kib(server.pid)
            ledger = Ledger()
            phases["baseline"] = {
                **honest.take(),
                "server_rss_mib": round(base_rss / 1024, 1),
                # the honest player's own lines (connection opened, closed)
                "log_bytes_per_s": round((os.path.getsize(log_path) - before) / args.seconds, 1),
                **spent,
            }

            ledger.quiet(honest.last)
            manager = multiprocessing.get_context("spawn").Manager()
            shared = manager.dict()
            options = {"sockets": args.sockets, "addresses": args.addresses}
            start = time.monotonic() + START_DELAY
            deadline = start + args.seconds
            child = spawn(_attack, ("half_open", port, deadline, options, shared, start))
            await asyncio.sleep(max(0.0, start - time.monotonic()))
            honest.take()  # the attack's process starting: not the attack
            peak, base_fds, fds = base_rss, _fds(server.pid), 0
            costs = Costs(server.pid)
            while time.monotonic() < deadline:
                peak = max(peak, rss_kib(server.pid))
                fds = max(fds, _fds(server.pid))
                await asyncio.sleep(0.25)
            spent = costs.figures()
            await asyncio.to_thread(join, child, 30)
            counts = _counts(shared.get("half_open"), ("opened", "held_at_end", "connect_refused"))
            phases["half_open"] = {
                **honest.take(),
                "addresses": args.addresses,
                **counts,  # held_at_end: as the attacker sees them
                "server_open_files_growth_peak": fds - base_fds,
                "server_rss_growth_mib": round((peak - base_rss) / 1024, 1),
                **spent,
            }
            ledger.attacked("half_open", honest.last)
            base_rate = phases["baseline"]["log_bytes_per_s"]
            for name in [flood for flood in FLOODS if flood in args.phases]:
                # the flood's own reference: a quiet window just before it
                await asyncio.sleep(1.0)
                honest.take()
                await asyncio.sleep(args.seconds)
                honest.take()
                ledger.quiet(honest.last)
                start = time.monotonic() + START_DELAY
                deadline = start + args.seconds
                child = spawn(_attack, (name, port, deadline, options, shared, start))
                await asyncio.sleep(max(0.0, start - time.monotonic()))
                honest.take()  # the attack's process starting: not the attack
                before, began = os.path.getsize(log_path), time.monotonic()
                await asyncio.sleep(max(0.0, deadline - time.monotonic()))
                await asyncio.to_thread(join, child, 30)
                counts = _counts(shared.get(name), ("sent", "answered"))
                await asyncio.sleep(1.5)  # this phase's last tally line
                logged = os.path.getsize(log_path) - before
                # the flood's own: less the honest player's lines at the baseline's rate
                own = logged - base_rate * (time.monotonic() - began)
                sent = counts.pop("sent")
                phases[name] = {
                    **honest.take(),
                    "requests": sent,
                    **counts,  # answered (and the attack's error, if any)
                    "requests_per_s": round(sent / args.seconds, 1),
                    "log_bytes": logged,
                    "log_bytes_per_s": round(logged / args.seconds, 1),
                    "log_bytes_per_request": round(logged / sent, 3) if sent else None,
                    "log_bytes_over_baseline_per_request": round(own / sent, 3) if sent else None,
                }
                ledger.attacked(name, honest.last)
            # the last attack's quiet window after it (each phase bracketed by two)
            await asyncio.sleep(1.0)
            honest.take()
            await asyncio.sleep(args.seconds)
            honest.take()
            ledger.quiet(honest.last)
            manager.shutdown()
            honest.stop = True
            honest_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await honest_task
        finally:
            stop_server(server)
        errors = sum(1 for line in Path(log_path).read_text().splitlines() if "ERROR" in line)
    for name in [phase for phase in ("half_open", *FLOODS) if phase in phases]:
        phases[name].update(ledger.figures(name, "honest"))
    return {
        "benchmark": "abuse_edge",
        "placement": placement(),
        "seconds_per_phase": args.seconds,
        "phases": phases,
        "server_error_lines": errors,
        **ledger.summary("honest"),
        "honest_failed": sum(p["honest_failed"] for p in phases.values()),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=8.0, help="per phase")
    parser.add_argument("--addresses", type=int, default=4, help="half-open attackers")
    parser.add_argument("--sockets", type=int, default=250, help="per attacking address")
    parser.add_argument(
        "--phases",
        default="half_open,head_flood,garbage_flood",
        help="comma-separated; half_open always runs (the baseline is its reference)",
    )
    args = parser.parse_args()
    args.phases = [phase for phase in args.phases.split(",") if phase]
    place_clients()  # before any process starts: they all run where this one does
    print(json.dumps(asyncio.run(run(args))))


if __name__ == "__main__":
    main()
