"""What every abuse suite shares: clients from a chosen loopback address, the honest
players beside the attacks, the server process, and the measured window of one phase.

    async with server_process(db_path) as (server, url):     # python3 -m server, /metrics
        honest = Honest(url)                                 # plays the easy bot, pings
        tasks = honest.start()
        child = spawn(attack_function, (name, url, deadline, results))   # or None
        window = await measure(server, honest, warmup, deadline)
        join(child, 30)
        figures = honest_figures(window)     # ping p50/p99 ms, bot reply p50 s, CPU %, ...
        honest.stop = True

``hello`` raises ``ConnectionError`` when the server answers the hello with an error,
and what ``websockets.connect`` raises when the connection is refused. ``server_process``
raises ``TimeoutError`` if the server prints no address within 30 s. Every loop here is
bounded by ``stop`` or a deadline; all traffic stays on loopback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import random
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from bench._procstat import cpu_seconds, machine_busy_seconds, rss_kib
from bench.abuse_stats import Sample
from bench.loadlib.rawclient import free_port
from bench.loadlib.scrape import gc_pauses, loop_lag, metrics_page
from protocol import messages as m
from protocol.codec import JSON_SUBPROTOCOL, MAX_SERVER_MESSAGE_BYTES, decode_server, encode

__all__ = [
    "HONEST",
    "PLACEMENTS",
    "PROBES",
    "Honest",
    "Served",
    "Window",
    "hello",
    "honest_figures",
    "join",
    "measure",
    "open_ws",
    "percentile",
    "place_clients",
    "placement",
    "ratio",
    "server_placement",
    "server_process",
    "spawn",
    "stop_server",
    "until",
]

HONEST = "127.0.0.1"  # the honest players' address; attacks use 127.0.0.2 and up
PROBES = ("127.0.0.1", "127.0.0.201", "127.0.0.202", "127.0.0.203", "127.0.0.204", "127.0.0.205")
"""The honest pinger's addresses, one probe connection each: six probes every 40 ms give
a phase over 1,000 round trips (one connection alone, held to 30 messages a second by its
budget, gave some 270 in 14 s: its p99 was its third worst)."""
PROBE_INTERVAL = 0.04
ROOT = Path(__file__).resolve().parent.parent

# Where the processes run. ``split`` (the default): the server (and the bot workers it
# starts) on the first core, every client process (this one: the honest players; the
# attacks; the manager) on the other. An attacker's CPU is not on the server's machine,
# nor is an honest player's: sharing two cores, the clients' own work shows up as the
# honest player's latency. ``shared``: every process on every core, as the figures
# before this option were measured. ``--placement`` of bench/abuse.py sets it for every
# suite's script (through SPADES_BENCH_PLACEMENT).
PLACEMENTS = ("split", "shared")
PLACEMENT_ENV = "SPADES_BENCH_PLACEMENT"
SERVER_ARGS_ENV = "SPADES_BENCH_SERVER_ARGS"  # more `spades serve` options for every server
SERVER_CPUS = frozenset({0})
CLIENT_CPUS = frozenset({1})


def placement() -> str:
    """``split`` or ``shared`` (see :data:`PLACEMENTS`); ``shared`` on a one-core machine.
    Raises ``ValueError`` when the environment names another."""
    chosen = os.environ.get(PLACEMENT_ENV, "split")
    if chosen not in PLACEMENTS:
        raise ValueError(f"{PLACEMENT_ENV} must be one of {PLACEMENTS}, not {chosen!r}")
    if chosen == "split" and (os.cpu_count() or 1) < 2:
        return "shared"
    return chosen


def place_clients() -> None:
    """Run this process (and every process it starts from now on) on the clients' core,
    when the placement is ``split``; call it first thing in a suite's ``main``."""
    if placement() == "split":
        os.sched_setaffinity(0, CLIENT_CPUS)


def server_placement() -> Callable[[], None] | None:
    """A ``preexec_fn`` for the server's ``Popen``: the server's core when ``split``
    (set before it runs a line, so its workers start there too); else ``None``."""
    if placement() != "split":
        return None
    return _on_server_cpus


def _on_server_cpus() -> None:
    os.sched_setaffinity(0, SERVER_CPUS)


async def open_ws(url: str, source: str, json_wire: bool = False) -> ClientConnection:
    """A websocket from the local address ``source`` (no keep-alive pings of ours)."""
    return await connect(
        url,
        compression=None,
        max_size=MAX_SERVER_MESSAGE_BYTES,
        local_addr=(source, 0),
        ping_interval=None,
        open_timeout=10,
        subprotocols=[JSON_SUBPROTOCOL] if json_wire else None,  # type: ignore[list-item]
    )


async def hello(url: str, name: str, source: str, minor: int | None = None) -> ClientConnection:
    """A welcomed connection from ``source`` (``minor``: the protocol minor it says)."""
    ws = await open_ws(url, source)
    said = m.Hello(protocol_version=1, name=name)
    if minor is not None:
        said = m.Hello(protocol_version=1, protocol_minor=minor, name=name)
    await ws.send(encode(said))
    while True:
        message = decode_server(await ws.recv())  # type: ignore[arg-type]
        if isinstance(message, m.Welcome):
            return ws
        if isinstance(message, m.ErrorMessage):
            raise ConnectionError(message.code)


async def until(ws: ClientConnection, *kinds: type[Any], limit: int = 200) -> Any:
    """The next message of one of ``kinds`` or an error (others skipped); ``None`` after
    ``limit`` other messages."""
    for _ in range(limit):
        message = decode_server(await ws.recv())  # type: ignore[arg-type]
        if isinstance(message, (*kinds, m.ErrorMessage)):
            return message
    return None


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ratio(base: float | None, worst: float | None) -> float | None:
    """``worst / base`` to two places (``None`` when either is missing or zero)."""
    return None if not base or worst is None else round(worst / base, 2)


class Honest:
    """A human playing the easy bot (its default delay) from :data:`HONEST`, and a probe
    connection from each of :data:`PROBES` pinging every :data:`PROBE_INTERVAL` s."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.pings: list[float] = []
        self.ping_starts: list[float] = []  # when each of ``pings`` was sent
        self.replies: list[float] = []
        self.errors = 0
        self.stop = False

    def start(self) -> list[asyncio.Task[None]]:
        spread = PROBE_INTERVAL / len(PROBES)
        probes = [asyncio.create_task(self.ping(s, i * spread)) for i, s in enumerate(PROBES)]
        return [asyncio.create_task(self.play()), *probes]

    async def play(self) -> None:
        rng = random.Random(5)
        while not self.stop:
            ws = await hello(self.url, "honest", HONEST)
            await ws.send(encode(m.CreateTable(bot="easy", overrides={"target_score": 500})))
            sent: float | None = None
            seq = 0
            async for data in ws:
                message = decode_server(data)  # type: ignore[arg-type]
                if isinstance(message, m.YourTurn):
                    if sent is not None:
                        self.replies.append(time.monotonic() - sent)
                    if self.stop:
                        break
                    seq += 1
                    action = rng.choice(message.legal)
                    act = m.Act(code=message.table, action=action, version=message.version, seq=seq)
                    sent = time.monotonic()
                    await ws.send(encode(act))
                elif isinstance(message, m.ErrorMessage):
                    self.errors += 1
                elif isinstance(message, m.GameOver):
                    break
            await ws.close()

    async def ping(self, source: str = HONEST, offset: float = 0.0) -> None:
        # each probe on its own grid, the six spread over the interval: a stall of the
        # machine delays one ping, not six at once (six times the moments sampled)
        ws = await hello(self.url, f"pinger{source.rsplit('.', 1)[-1]}", source)
        nonce = 0
        slot = time.monotonic() + offset
        while not self.stop:
            await asyncio.sleep(max(0.0, slot - time.monotonic()))
            slot = max(slot + PROBE_INTERVAL, time.monotonic())
            nonce += 1
            start = time.monotonic()
            await ws.send(encode(m.Ping(nonce=nonce)))
            while True:
                reply = decode_server(await ws.recv())  # type: ignore[arg-type]
                if isinstance(reply, m.Pong) and reply.nonce == nonce:
                    break
            self.pings.append(time.monotonic() - start)
            self.ping_starts.append(start)
        await ws.close()

    def take(self) -> tuple[Sample, list[float]]:
        """The ping round trips (with when each was sent) and bot replies (s) since the
        last take."""
        pings, replies = Sample(self.pings, self.ping_starts), self.replies
        self.pings, self.ping_starts, self.replies = [], [], []
        return pings, replies


WAKE_SLEEP = 0.01  # the wake probe's sleep, s


def _wake_probe(path: str, cpus: frozenset[int] | None, parent: int) -> None:
    """In a process of its own: sleep :data:`WAKE_SLEEP` again and again and note how
    late each wake-up came (``monotonic lateness_ms`` lines), until ``parent`` is gone."""
    if cpus:
        os.sched_setaffinity(0, cpus)
    with open(path, "w", buffering=1) as out:
        while os.getppid() == parent:
            start = time.monotonic()
            time.sleep(WAKE_SLEEP)
            now = time.monotonic()
            out.write(f"{now:.6f} {(now - start - WAKE_SLEEP) * 1000:.3f}\n")


class WakeProbe:
    """How late a process at normal priority on the server's cores wakes from a short
    sleep: the machine's part of any latency there (the server does nothing for it).
    ``side="client"``: on the clients' core instead (``split``; else on every core).

    ``late_ms(start, end)``: the lateness (ms) of the wake-ups between two
    ``time.monotonic`` readings."""

    def __init__(self, path: str, side: str = "server") -> None:
        self.path = path
        cpus = None
        if placement() == "split":
            cpus = SERVER_CPUS if side == "server" else CLIENT_CPUS
        self.process = multiprocessing.get_context("spawn").Process(
            target=_wake_probe, args=(path, cpus, os.getpid()), daemon=True
        )
        self.process.start()

    def late_ms(self, start: float, end: float) -> list[float]:
        try:
            with open(self.path) as lines:
                pairs = [line.split() for line in lines]
        except OSError:
            return []
        return [float(p[1]) for p in pairs if len(p) == 2 and start <= float(p[0]) <= end]

    def stop(self) -> None:
        self.process.kill()
        self.process.join(5)


@dataclass
class Served:
    """A server process: its websocket URL and the port of its ``/metrics`` page (and the
    wake probe beside it, if any)."""

    process: subprocess.Popen[str]
    url: str
    metrics_port: int
    wake: WakeProbe | None = None
    client_wake: WakeProbe | None = None

    @property
    def pid(self) -> int:
        return self.process.pid

    def poll(self) -> int | None:
        return self.process.poll()


def stop_server(server: subprocess.Popen[str]) -> None:
    """End a benchmark's server process: asked first, killed after 20 s."""
    server.terminate()
    try:
        server.wait(20)
    except subprocess.TimeoutExpired:
        server.kill()


@contextlib.asynccontextmanager
async def server_process(db: str, *extra: str) -> AsyncIterator[tuple[Served, str]]:
    """``python3 -m server`` on a free loopback port with its store at ``db`` (and its
    ``/metrics`` on another; ``extra``: more of its options): the process and its
    websocket URL; terminated (killed if it must be) at the end."""
    metrics_port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", "0", "--db", db, "--log-level", "ERROR",
         "--metrics-port", str(metrics_port), *extra,
         *shlex.split(os.environ.get(SERVER_ARGS_ENV, ""))],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=server_placement(),
    )  # fmt: skip
    wake, client_wake = WakeProbe(f"{db}.wake"), WakeProbe(f"{db}.client-wake", "client")
    try:
        assert server.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(server.stdout.readline), 30)
        url = line.split()[-1]
        yield Served(server, url, metrics_port, wake, client_wake), url
    finally:
        wake.stop()
        client_wake.stop()
        stop_server(server)


# An attacker's machines are not the server's: here the attack runs on the same cores as
# the server and the honest pinger, so its own CPU would show up as the honest player's
# latency. Its process runs at the lowest priority: it takes what the server and the
# honest players leave (most of a core on 2 cores), and the figures show the server's
# answer to the attack rather than a contest for the machine. ``--attack-nice 0`` puts
# it back on equal terms (it sets SPADES_ATTACK_NICE, which every suite's script reads).
ATTACK_NICENESS = 19


def _attack_at(niceness: int, target: Callable[..., None], args: tuple[Any, ...]) -> None:
    os.nice(niceness)
    # an attack keeps writing to sockets the server has dropped, and asyncio warns of each
    # such write ("socket.send() raised exception."): 78,000 lines in one core run
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    target(*args)


def spawn(
    target: Callable[..., None], args: tuple[Any, ...], niceness: int | None = None
) -> BaseProcess:
    """Start an attack in a process of its own (spawned: nothing of this one shared), at
    ``niceness`` (default: ``$SPADES_ATTACK_NICE``, else ``ATTACK_NICENESS``) above this
    process's."""
    chosen = niceness
    if chosen is None:
        chosen = int(os.environ.get("SPADES_ATTACK_NICE", ATTACK_NICENESS))
    child = multiprocessing.get_context("spawn").Process(
        target=_attack_at, args=(chosen, target, args)
    )
    child.start()
    return child


def join(child: BaseProcess | None, seconds: float) -> None:
    """Wait for an attack's process to end; killed after ``seconds``."""
    if child is not None:
        child.join(seconds)
        if child.is_alive():
            child.kill()


@dataclass
class Window:
    """What one phase measured: honest pings and bot replies (s), the server's CPU (% of
    one core), its largest RSS (KiB), its loop lag and its garbage collector's passes
    (see bench/loadlib/scrape.py) in the window."""

    sample: Sample
    replies: list[float]
    cpu_pct: float
    rss_kib: int
    loop_lag: dict[str, float]
    gc: dict[str, dict[str, float]] | None = None
    machine_busy_pct: float = 0.0
    clients_cpu_pct: float = 0.0
    wake_late_ms: list[float] | None = None
    client_wake_late_ms: list[float] | None = None

    @property
    def pings(self) -> list[float]:
        return self.sample.values


async def _page(server: Served) -> str:
    try:
        return await asyncio.to_thread(metrics_page, server.metrics_port)
    except OSError:  # no page: no loop-lag figures for this window
        return ""


async def measure(
    server: Served,
    honest: Honest,
    warmup: float,
    deadline: float,
    at_start: Callable[[], Awaitable[None]] | None = None,
    rss_floor: int = 0,
) -> Window:
    """Wait out ``warmup`` (what the honest side saw meanwhile is dropped), then measure
    until ``deadline`` (``time.monotonic``); ``at_start`` runs as the window opens."""
    await asyncio.sleep(warmup)
    honest.take()
    cpu_start, window_start = cpu_seconds(server.pid), time.monotonic()
    busy_start, own_start = machine_busy_seconds(), _own_cpu()
    page_start = await _page(server)
    if at_start is not None:
        await at_start()
    rss = rss_floor
    while time.monotonic() < deadline:
        rss = max(rss, rss_kib(server.pid))
        await asyncio.sleep(0.25)
    pings, replies = honest.take()
    cpu = cpu_seconds(server.pid) - cpu_start
    busy, own = machine_busy_seconds() - busy_start, _own_cpu() - own_start
    page_end = await _page(server) if page_start else ""
    lag = loop_lag(page_start, page_end) if page_end else {}
    passes = gc_pauses(page_start, page_end) if page_end else None
    seconds = time.monotonic() - window_start
    machine, honest_cpu = 100 * busy / seconds, 100 * own / seconds
    end = time.monotonic()
    late = None if server.wake is None else server.wake.late_ms(window_start, end)
    client = None if server.client_wake is None else server.client_wake.late_ms(window_start, end)
    return Window(
        pings, replies, 100 * cpu / seconds, rss, lag, passes, machine, honest_cpu, late, client
    )


def _own_cpu() -> float:
    """CPU seconds of this process (the honest players and probes) so far."""
    times = os.times()
    return times.user + times.system


def _p99_ms(values: list[float] | None) -> float | None:
    late = percentile(values or [], 0.99)
    return None if late is None else round(late, 2)


def honest_figures(window: Window) -> dict[str, Any]:
    """The honest side's figures of a window, as every suite reports them."""
    p50, p99 = percentile(window.pings, 0.5), percentile(window.pings, 0.99)
    return {
        "ping_p50_ms": None if p50 is None else round(p50 * 1000, 2),
        "ping_p99_ms": None if p99 is None else round(p99 * 1000, 2),
        "server_cpu_pct": round(window.cpu_pct, 1),
        "pings": len(window.pings),  # the p99's sample: all probes' round trips
        "ping_probes": len(PROBES),
        "bot_reply_p50_s": None
        if not window.replies
        else round(statistics.median(window.replies), 3),
        "bot_replies": len(window.replies),
        # how late the server's own loop ran its probe: a ping tail the loop does not
        # show is the machine's (scheduling), not the server's
        "loop_lag_p99_ms": window.loop_lag.get("p99_ms"),
        "loop_lag_over_5ms": window.loop_lag.get("over_5ms"),
        # the collector's passes in the window (young and middle generations; a full
        # pass is rare): what an attacker's leftovers cost every player
        "gc_passes": None if window.gc is None else sum(g["count"] for g in window.gc.values()),
        "gc_ms": None
        if window.gc is None
        else round(sum(g["total_ms"] for g in window.gc.values()), 1),
        # every process of the machine (% of one core; 200 is two cores busy), and the
        # honest side's own process: how much of the machine the server had to share
        "machine_busy_pct": round(window.machine_busy_pct, 1),
        "honest_cpu_pct": round(window.clients_cpu_pct, 1),
        # a process at normal priority on the server's cores, sleeping 10 ms again and
        # again: how late it woke (p99, ms), the machine's part of the ping's tail
        "wake_late_p99_ms": _p99_ms(window.wake_late_ms),
        # the same on the clients' core (the honest players' side of the round trip)
        "client_wake_late_p99_ms": _p99_ms(window.client_wake_late_ms),
        "placement": placement(),
    }


QUIET_SETTLE = 1.0  # s after an attack's process has ended before a quiet window opens
