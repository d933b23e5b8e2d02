"""Load benchmark: the server under many tables, side by side with a bare echo server.

    python3 bench/load.py --tables 1000 --rate 1 --duration 30      # paced
    python3 bench/load.py --tables 200 --rate 0 --duration 10 --workers 2 --no-echo --idle 0
    python3 bench/load.py --tables 200 --bot-tables 100 --no-echo --idle 0

Starts ``python3 -m server`` as its own process on loopback (a throw-away SQLite file in
a temporary folder) and drives it from ``--workers`` other processes: each table is two
protocol clients playing random legal actions, at ``--rate`` actions per second per table
(Poisson; ``0``: as fast as they can). ``--bot-tables`` adds tables of one client and the
server's normal bot (thinking in the server's worker processes, no bot delay). The clients
are a minimal websocket implementation over plain asyncio protocols that decode with bare
msgpack, so that the load generator, which shares this machine's cores with the server,
costs as little as possible. All tables connect first (``--setup`` seconds, automatic by
default); only then does the measured window of ``--duration`` seconds start.

Latency is the time from sending an action to both seats having received the resulting
``events`` (for a bot table: its one client). Then the same number of connection pairs at
the same rate go to a bare ``websockets`` echo server with the same client, and the ratios
of our p50/p99 to the echo's are printed. ``--idle`` connections that only said hello give
the resident memory per idle connection. ``--py-spy FILE`` records the server's stacks.
Every loop is bounded by ``--duration``; all traffic stays on 127.0.0.1. Prints one JSON
object on its last line: ``ours``/``echo`` latencies in ms, ``actions_per_s`` in the
window, ``errors`` (with ``error_codes``), ``loop_lag`` (the server's
:mod:`server.ops.looplag` histogram in the window: probes, mean, bucket bounds of p50/p99/p99.9
in ms, probes over 5 and 20 ms), ``gc`` (collections in the window by generation: count,
total and mean ms), ``server_cpu_percent`` (of one core) and
``server_rss_kib_per_connection`` under load, ``idle_rss_kib_per_connection``.
``--metrics FILE`` serves the server's ``/metrics`` (``--metrics-port``), saves the page
in FILE half a second before the window ends (every client still connected) and adds its
``spades_*`` counters to the JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import msgpack

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._procstat import cpu_seconds, rss_kib

ECHO_SERVER = """
import asyncio, sys
from websockets.asyncio.server import serve
async def echo(ws):
    async for message in ws:
        await ws.send(message)
async def main():
    async with serve(echo, "127.0.0.1", 0, compression=None, max_size=4096) as server:
        print(server.sockets[0].getsockname()[1], flush=True)
        await asyncio.Future()
asyncio.run(main())
"""


def start_process(argv: list[str]) -> tuple[subprocess.Popen[str], int]:
    """Start a server process and read the port it prints."""
    process = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1
    )
    assert process.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        for word in line.replace("/", " ").replace(":", " ").split():
            if word.isdigit() and int(word) > 1000:
                return process, int(word)
    process.kill()
    raise RuntimeError(f"{argv} did not report a port")


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


# --------------------------------------------------------------------------- a light client


class RawClient(asyncio.Protocol):
    """A minimal websocket client over a plain asyncio protocol (RFC 6455, binary frames,
    answers pings), so that the load generator costs far less CPU than the server it
    measures: the two share this machine's cores."""

    def __init__(self, host: str, port: int, on_message: Any) -> None:
        self.host, self.port = host, port
        self.on_message = on_message
        self.buf = bytearray()
        self.open = False
        self.transport: asyncio.Transport | None = None
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(
            f"GET / HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )

    def connection_lost(self, exc: Exception | None) -> None:
        self.open = False
        if not self.ready.done():
            self.ready.set_exception(ConnectionError("connection lost during the handshake"))

    def data_received(self, data: bytes) -> None:
        buf = self.buf
        buf += data
        if not self.open:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            status = bytes(buf[: buf.find(b"\r\n")])
            del buf[: end + 4]
            if b" 101 " not in status:
                if not self.ready.done():
                    self.ready.set_exception(ConnectionError(status.decode(errors="replace")))
                return
            self.open = True
            if not self.ready.done():
                self.ready.set_result(None)
        while len(buf) >= 2:
            size, offset = buf[1] & 0x7F, 2
            if size == 126:
                if len(buf) < 4:
                    return
                size, offset = int.from_bytes(buf[2:4], "big"), 4
            elif size == 127:
                if len(buf) < 10:
                    return
                size, offset = int.from_bytes(buf[2:10], "big"), 10
            if len(buf) < offset + size:
                return
            opcode = buf[0] & 0x0F
            payload = bytes(buf[offset : offset + size])
            del buf[: offset + size]
            if opcode == 2:
                self.on_message(payload)
            elif opcode == 9:
                self.send(payload, 0xA)
            elif opcode == 8 and self.transport is not None:
                self.open = False
                self.transport.close()

    def send(self, payload: bytes, opcode: int = 2) -> None:
        """One masked frame (with a zero mask: the payload goes as it is)."""
        size = len(payload)
        if size < 126:
            header = bytes((0x80 | opcode, 0x80 | size))
        else:
            header = bytes((0x80 | opcode, 0x80 | 126)) + size.to_bytes(2, "big")
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(header + b"\0\0\0\0" + payload)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


async def raw_connect(host: str, port: int, on_message: Any) -> RawClient:
    loop = asyncio.get_running_loop()
    _, client = await loop.create_connection(lambda: RawClient(host, port, on_message), host, port)
    await asyncio.wait_for(client.ready, 60)
    return client


def _count(out: dict[str, Any], code: str) -> None:
    out["errors"] += 1
    out["error_codes"][code] = out["error_codes"].get(code, 0) + 1


# --------------------------------------------------------------------------- our server


class _Table:
    """One table: two seats (or one seat and the server's bot) playing random legal actions."""

    def __init__(
        self,
        rate: float,
        start_at: float,
        stop_at: float,
        rng: random.Random,
        bot: str | None,
        out: dict[str, Any],
    ) -> None:
        self.rate, self.start_at, self.stop_at = rate, start_at, stop_at
        self.rng, self.bot, self.out = rng, bot, out
        self.seats = 1 if bot else 2
        self.clients: list[RawClient] = []
        self.code: str | None = None
        self.seq = [0, 0]
        self.pending_version: int | None = None
        self.sent = 0.0
        self.seen: set[int] = set()
        self.joined: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def start(self, host: str, port: int) -> None:
        for index in range(self.seats):
            self.clients.append(
                await raw_connect(host, port, lambda data, i=index: self.on_message(i, data))
            )
        self.clients[0].send(msgpack.packb({"type": "hello", "protocol_version": 1, "name": "a"}))
        await asyncio.wait_for(self.joined, 120)

    def on_message(self, index: int, data: bytes) -> None:
        message = msgpack.unpackb(data)
        kind = message["type"]
        out = self.out
        if kind == "events":
            if self.pending_version is not None and message["version"] > self.pending_version:
                self.seen.add(index)
                if len(self.seen) == self.seats:
                    if self.sent >= self.start_at:
                        out["latencies"].append(time.monotonic() - self.sent)
                    self.pending_version = None
        elif kind == "your_turn":
            now = time.monotonic()
            if now >= self.stop_at:
                return
            delay = max(0.0, self.start_at - now)
            if self.rate > 0:
                delay += self.rng.expovariate(self.rate)
            if delay > 0:
                asyncio.get_running_loop().call_later(delay, self.act, index, message)
            else:
                self.act(index, message)
        elif kind == "ack":
            pass
        elif kind == "welcome":
            if index == 0:
                create: dict[str, Any] = {
                    "type": "create_table",
                    "preset": "classic",
                    "private": True,
                    "overrides": {"target_score": 10_000},
                }
                if self.bot:
                    create["bot"] = self.bot
                self.clients[0].send(msgpack.packb(create))
            else:
                self.clients[1].send(msgpack.packb({"type": "join_table", "code": self.code}))
        elif kind == "snapshot":
            if self.code is None:
                self.code = message["table"]["code"]
                if self.bot:
                    self.joined.set_result(None)
                else:
                    hello = {"type": "hello", "protocol_version": 1, "name": "b"}
                    self.clients[1].send(msgpack.packb(hello))
            elif index == 1 and not self.joined.done():
                self.joined.set_result(None)
        elif kind == "game_over":
            self.clients[index].send(msgpack.packb({"type": "rematch", "code": self.code}))
        elif kind == "error":
            _count(out, message["code"])
            if not self.joined.done():
                self.joined.set_exception(RuntimeError(message["message"]))

    def act(self, index: int, turn: dict[str, Any]) -> None:
        now = time.monotonic()
        if now >= self.stop_at:
            return
        if turn["phase"] == "exchange":
            action: Any = {"kind": "exchange", "cards": []}
        else:
            action = self.rng.choice(turn["legal"])
        self.seq[index] += 1
        self.pending_version, self.sent, self.seen = turn["version"], now, set()
        self.clients[index].send(
            msgpack.packb(
                {
                    "type": "action",
                    "code": self.code,
                    "action": action,
                    "version": turn["version"],
                    "seq": self.seq[index],
                }
            )
        )
        if now >= self.start_at:
            out = self.out
            out["actions"] += 1
            if out["first"] is None:
                out["first"] = now
            out["last"] = now

    def close(self) -> None:
        for client in self.clients:
            client.close()


def _new_out() -> dict[str, Any]:
    return {
        "latencies": [],
        "actions": 0,
        "errors": 0,
        "error_codes": {},
        "first": None,
        "last": None,
    }


async def _drive(
    port: int,
    tables: int,
    bot_tables: int,
    rate: float,
    start_at: float,
    stop_at: float,
    seed: int,
) -> dict[str, Any]:
    out, bot_out = _new_out(), _new_out()
    rng = random.Random(seed)
    opening = asyncio.Semaphore(20)
    made: list[_Table] = []

    async def one(target: dict[str, Any], bot: str | None, table_rate: float) -> None:
        table = _Table(table_rate, start_at, stop_at, random.Random(rng.random()), bot, target)
        made.append(table)
        try:
            async with opening:
                await table.start("127.0.0.1", port)
        except Exception as error:  # a failed connection counts as an error
            _count(target, type(error).__name__)

    await asyncio.gather(
        *(one(out, None, rate) for _ in range(tables)),
        *(one(bot_out, "normal", 0) for _ in range(bot_tables)),
    )
    out["ready_late_s"] = max(0.0, time.monotonic() - start_at)
    await asyncio.sleep(max(0.0, stop_at - time.monotonic()) + 0.5)
    for table in made:
        table.close()
    out["bot_actions"] = bot_out["actions"]
    out["errors"] += bot_out["errors"]
    for code, count in bot_out["error_codes"].items():
        out["error_codes"][code] = out["error_codes"].get(code, 0) + count
    return out


def _worker(args: tuple[int, int, int, float, float, float, int]) -> dict[str, Any]:
    return asyncio.run(_drive(*args))


# --------------------------------------------------------------------------- echo server


async def _echo_pairs(
    port: int, pairs: int, rate: float, start_at: float, stop_at: float, seed: int
) -> dict[str, Any]:
    """Pairs of connections to the echo server; each sends in turn at the same pace and
    counts the time until its echo is back."""
    rng = random.Random(seed)
    latencies: list[float] = []
    loop = asyncio.get_running_loop()
    payload = bytes(60)
    clients: list[RawClient] = []
    opening = asyncio.Semaphore(20)

    class Pair:
        def __init__(self) -> None:
            self.turn = 0
            self.sent = 0.0
            self.sockets: list[RawClient] = []

        def on_message(self, data: bytes) -> None:
            now = time.monotonic()
            if self.sent >= start_at:
                latencies.append(now - self.sent)
            self.turn = 1 - self.turn
            self.schedule()

        def schedule(self) -> None:
            now = time.monotonic()
            if now >= stop_at:
                return
            delay = max(0.0, start_at - now) + (rng.expovariate(rate) if rate > 0 else 0.0)
            loop.call_later(delay, self.fire)

        def fire(self) -> None:
            if time.monotonic() >= stop_at:
                return
            self.sent = time.monotonic()
            self.sockets[self.turn].send(payload)

    async def pair() -> None:
        p = Pair()
        async with opening:
            for _ in range(2):
                client = await raw_connect("127.0.0.1", port, p.on_message)
                p.sockets.append(client)
                clients.append(client)
        p.schedule()

    await asyncio.gather(*(pair() for _ in range(pairs)))
    await asyncio.sleep(max(0.0, stop_at - time.monotonic()) + 0.5)
    for client in clients:
        client.close()
    return {"latencies": latencies, "actions": len(latencies), "errors": 0}


def _echo_worker(args: tuple[int, int, float, float, float, int]) -> dict[str, Any]:
    return asyncio.run(_echo_pairs(*args))


# --------------------------------------------------------------------------- main


def _spread(total: int, workers: int) -> list[int]:
    return [total // workers + (1 if i < total % workers else 0) for i in range(workers)]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


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


def run_ours(args: argparse.Namespace, bot_tables: int) -> dict[str, Any]:
    metrics_port = _free_port()  # the loop lag is read from it in every run
    with tempfile.TemporaryDirectory() as folder:
        server, port = start_process(
            [
                sys.executable,
                "-m",
                "server",
                "--port",
                "0",
                "--db",
                f"{folder}/load.db",
                *args.server_args.split(),
                *("--metrics-port", str(metrics_port)),
            ]
        )
        try:
            time.sleep(0.5)
            rss_start = rss_kib(server.pid)
            setup = args.setup if args.setup else 3.0 + (args.tables + bot_tables) / 150
            start_at = time.monotonic() + setup
            stop_at = start_at + args.duration
            shares = zip(
                _spread(args.tables, args.workers), _spread(bot_tables, args.workers), strict=True
            )
            with multiprocessing.Pool(args.workers) as pool:
                pending = pool.map_async(
                    _worker,
                    [
                        (port, t, b, args.rate, start_at, stop_at, args.seed + i)
                        for i, (t, b) in enumerate(shares)
                    ],
                )
                time.sleep(max(0.0, start_at - time.monotonic()))
                cpu_start = cpu_seconds(server.pid)
                page_start = metrics_page(metrics_port)
                spy = None
                if args.py_spy:
                    spy = subprocess.Popen(
                        [
                            *("py-spy", "record", "-p", str(server.pid), "-o", args.py_spy),
                            # a .json file: speedscope (samples in time order, to find
                            # stalls); any other name: raw collapsed stacks
                            *(
                                ("-f", "speedscope", "--idle")
                                if args.py_spy.endswith(".json")
                                else ("-f", "raw")
                            ),
                            *("-r", "200", "-d", str(int(args.duration))),
                        ],
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                    )
                # just before the window ends: every client still connected
                time.sleep(max(0.0, stop_at - 0.5 - time.monotonic()))
                page_end = metrics_page(metrics_port)
                metrics = None
                if args.metrics:
                    Path(args.metrics).write_text(page_end, encoding="utf-8")
                    metrics = counters(page_end)
                time.sleep(max(0.0, stop_at - time.monotonic()))
                cpu = cpu_seconds(server.pid) - cpu_start
                rss_end = rss_kib(server.pid)
                results = pending.get(timeout=args.duration + setup + 300)
            if spy is not None:
                spy.wait(timeout=60)
        finally:
            server.terminate()
            server.wait(timeout=30)
    latencies = [x for r in results for x in r["latencies"]]
    codes: dict[str, int] = {}
    for r in results:
        for code, count in r["error_codes"].items():
            codes[code] = codes.get(code, 0) + count
    return {
        "latencies": latencies,
        "actions": sum(r["actions"] for r in results),
        "bot_actions": sum(r["bot_actions"] for r in results),
        "errors": sum(r["errors"] for r in results),
        "error_codes": codes,
        "elapsed": args.duration,
        "ready_late_s": round(max(r["ready_late_s"] for r in results), 2),
        "window": max(
            1e-9,
            max((r["last"] for r in results if r["last"] is not None), default=0.0)
            - min((r["first"] for r in results if r["first"] is not None), default=0.0),
        ),
        "cpu_seconds": cpu,
        "rss_start_kib": rss_start,
        "rss_end_kib": rss_end,
        "metrics": metrics,
        "loop_lag": loop_lag(page_start, page_end),
        "gc": gc_pauses(page_start, page_end),
    }


def run_echo(args: argparse.Namespace) -> dict[str, Any]:
    server, port = start_process([sys.executable, "-c", ECHO_SERVER])
    try:
        start_at = time.monotonic() + (args.setup if args.setup else 3.0 + args.tables / 150)
        stop_at = start_at + args.duration
        with multiprocessing.Pool(args.workers) as pool:
            results = pool.map(
                _echo_worker,
                [
                    (port, n, args.rate, start_at, stop_at, args.seed + i)
                    for i, n in enumerate(_spread(args.tables, args.workers))
                ],
            )
    finally:
        server.terminate()
        server.wait(timeout=30)
    latencies = [x for r in results for x in r["latencies"]]
    return {"latencies": latencies, "actions": len(latencies)}


async def _idle(port: int, count: int, ready: Any, done: Any) -> None:
    clients = []
    welcomed = asyncio.Semaphore(0)
    for index in range(count):
        client = await raw_connect("127.0.0.1", port, lambda data: welcomed.release())
        client.send(msgpack.packb({"type": "hello", "protocol_version": 1, "name": f"i{index}"}))
        clients.append(client)
    for _ in range(count):
        await welcomed.acquire()
    ready.set()
    await asyncio.to_thread(done.wait, 120)
    for client in clients:
        client.close()


def _idle_process(port: int, count: int, ready: Any, done: Any) -> None:
    asyncio.run(_idle(port, count, ready, done))


def idle_memory(args: argparse.Namespace) -> float:
    """KiB of server memory per idle (welcomed) connection."""
    with tempfile.TemporaryDirectory() as folder:
        server, port = start_process(
            [
                sys.executable,
                "-m",
                "server",
                "--port",
                "0",
                "--db",
                f"{folder}/idle.db",
                *args.server_args.split(),
            ]
        )
        try:
            time.sleep(0.5)
            before = rss_kib(server.pid)
            ready, done = multiprocessing.Event(), multiprocessing.Event()
            process = multiprocessing.Process(
                target=_idle_process, args=(port, args.idle, ready, done)
            )
            process.start()
            ready.wait(120)
            time.sleep(1.0)
            during = rss_kib(server.pid)
            done.set()
            process.join(60)
        finally:
            server.terminate()
            server.wait(timeout=30)
    return float(during - before) / max(1, args.idle)


def summary(latencies: list[float]) -> dict[str, float]:
    ms = [x * 1000 for x in latencies]
    return {
        "p50_ms": round(percentile(ms, 0.50), 3),
        "p99_ms": round(percentile(ms, 0.99), 3),
        "max_ms": round(max(ms), 3) if ms else float("nan"),
        "mean_ms": round(statistics.fmean(ms), 3) if ms else float("nan"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument(
        "--bot-tables", type=int, default=0, help="extra tables of a client and the normal bot"
    )
    parser.add_argument(
        "--rate", type=float, default=1.0, help="actions per second per table; 0 = flat out"
    )
    parser.add_argument("--duration", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2) - 1))
    parser.add_argument(
        "--idle", type=int, default=1000, help="idle connections for the memory figure (0: skip)"
    )
    parser.add_argument("--no-echo", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--setup", type=float, default=0.0, help="seconds to connect before measuring (0: auto)"
    )
    parser.add_argument(
        "--py-spy",
        default="",
        help="record the server with py-spy into this file (FILE.json: speedscope, in time "
        "order; other names: raw collapsed stacks)",
    )
    parser.add_argument(
        "--server-args",
        # every client comes from 127.0.0.1: the per-address budgets that protect a
        # public server from one attacker are opened up, as for a test of many players
        default="--max-connections 10000 --max-tables 10000 --bot-delay 0 "
        "--address-rate 1000000 --actions-rate 1000 --creations-burst 100000",
        help="extra flags for python3 -m server (the defaults open the per-address budgets)",
    )
    parser.add_argument(
        "--metrics",
        default="",
        help="serve the server's /metrics, save the page in this file at the end, and add "
        "its spades_* counters to the JSON line",
    )
    args = parser.parse_args()

    ours = run_ours(args, args.bot_tables)
    figures: dict[str, Any] = {
        "tables": args.tables,
        "connections": 2 * args.tables + args.bot_tables,
        "rate_per_table": args.rate,
        "duration_s": args.duration,
        "ours": summary(ours["latencies"]),
        "actions": ours["actions"],
        "actions_per_s": round((ours["actions"] + ours["bot_actions"]) / ours["window"], 1),
        "bot_actions": ours["bot_actions"],
        "errors": ours["errors"],
        "error_codes": ours["error_codes"],
        "ready_late_s": ours["ready_late_s"],
        "server_cpu_percent": round(100 * ours["cpu_seconds"] / ours["elapsed"], 1),
        "server_rss_kib_per_connection": round(
            (ours["rss_end_kib"] - ours["rss_start_kib"])
            / max(1, 2 * args.tables + args.bot_tables),
            1,
        ),
    }
    figures["loop_lag"] = ours["loop_lag"]
    figures["gc"] = ours["gc"]
    if args.bot_tables:
        figures["bot_tables"] = args.bot_tables
    if ours["metrics"] is not None:
        figures["metrics"] = ours["metrics"]
    if not args.no_echo:
        echo = run_echo(args)
        figures["echo"] = summary(echo["latencies"])
        figures["p50_ratio"] = round(figures["ours"]["p50_ms"] / figures["echo"]["p50_ms"], 2)
        figures["p99_ratio"] = round(figures["ours"]["p99_ms"] / figures["echo"]["p99_ms"], 2)
    if args.idle:
        figures["idle_connections"] = args.idle
        figures["idle_rss_kib_per_connection"] = round(idle_memory(args), 1)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
