"""Load benchmark: the server under many tables, side by side with a bare echo server.

    python3 bench/load.py --tables 1000 --rate 1 --duration 30      # paced
    python3 bench/load.py --tables 100 --rate 0 --duration 20       # saturation
    python3 bench/load.py --tables 50 --bot-tables 100 --duration 20

Starts ``python3 -m server`` as its own process on loopback (a throw-away SQLite file in
a temporary folder) and drives it from ``--workers`` other processes: each table is two
protocol clients playing random legal actions, at ``--rate`` actions per second per table
(``0``: as fast as they can). Latency is the time from sending an action to both seats
having received the resulting ``events``. Then the same number of connections and the
same rate go to a bare ``websockets`` echo server, and the ratios are printed.
Every loop is bounded by ``--duration``; all traffic stays on 127.0.0.1.
Prints one JSON object on its last line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

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


# --------------------------------------------------------------------------- our server


async def _table(
    url: str, rate: float, stop_at: float, rng: random.Random, bot: str | None, out: dict[str, Any]
) -> None:
    from websockets.asyncio.client import connect

    from protocol import messages as m
    from protocol.codec import decode_server, encode

    async def hello(ws: Any, name: str) -> None:
        await ws.send(encode(m.Hello(protocol_version=1, name=name)))
        while not isinstance(decode_server(await ws.recv()), m.Welcome):
            pass

    seats = 1 if bot else 2
    sockets = [
        await connect(url, compression=None, max_size=2**20, open_timeout=60) for _ in range(seats)
    ]
    try:
        await hello(sockets[0], "load-a")
        await sockets[0].send(
            encode(
                m.CreateTable(
                    preset="classic", private=True, bot=bot, overrides={"target_score": 10_000}
                )
            )
        )
        code = None
        while code is None:
            message = decode_server(await sockets[0].recv())
            if isinstance(message, m.Snapshot):
                code = message.table.code
            elif isinstance(message, m.ErrorMessage):
                out["errors"] += 1
                return
        if not bot:
            await hello(sockets[1], "load-b")
            await sockets[1].send(encode(m.JoinTable(code=code)))
        pending: dict[str, Any] = {"version": None, "sent": 0.0, "seen": set()}
        seq = [0, 0]

        async def reader(index: int) -> None:
            ws = sockets[index]
            while time.monotonic() < stop_at:
                try:
                    raw = await asyncio.wait_for(
                        ws.recv(), timeout=max(0.1, stop_at - time.monotonic())
                    )
                except TimeoutError:
                    return
                message = decode_server(raw)
                if isinstance(message, m.Events):
                    version = pending["version"]
                    if version is not None and message.version > version:
                        pending["seen"].add(index)
                        if len(pending["seen"]) == seats:
                            out["latencies"].append(time.monotonic() - pending["sent"])
                            pending["version"] = None
                elif isinstance(message, m.YourTurn):
                    if rate > 0:
                        await asyncio.sleep(rng.expovariate(rate) if out["poisson"] else 1 / rate)
                    if time.monotonic() >= stop_at:
                        return
                    if message.phase == "exchange":
                        action: Any = m.ExchangeAction(cards=())
                    else:
                        action = rng.choice(message.legal)
                    seq[index] += 1
                    pending.update(version=message.version, sent=time.monotonic(), seen=set())
                    await ws.send(
                        encode(
                            m.Act(
                                code=code,
                                action=action,
                                version=message.version,
                                seq=seq[index],
                            )
                        )
                    )
                    out["actions"] += 1
                elif isinstance(message, m.GameOver):
                    await ws.send(encode(m.Rematch(code=code)))
                elif isinstance(message, m.ErrorMessage):
                    out["errors"] += 1
                    out["error_codes"][message.code] = out["error_codes"].get(message.code, 0) + 1

        await asyncio.gather(*(reader(i) for i in range(seats)))
    finally:
        for ws in sockets:
            await ws.close()


async def _drive(
    url: str, tables: int, bot_tables: int, rate: float, duration: float, seed: int
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "latencies": [],
        "actions": 0,
        "errors": 0,
        "error_codes": {},
        "poisson": True,
    }
    bot_out: dict[str, Any] = dict(out, latencies=[], error_codes={})
    rng = random.Random(seed)
    stop_at = time.monotonic() + duration
    opening = asyncio.Semaphore(50)

    async def one(target: dict[str, Any], bot: str | None, bot_rate: float) -> None:
        async with opening:
            await asyncio.sleep(0)
        try:
            await _table(url, bot_rate, stop_at, random.Random(rng.random()), bot, target)
        except Exception as error:  # a failed connection counts as an error
            target["errors"] += 1
            target["error_codes"][type(error).__name__] = (
                target["error_codes"].get(type(error).__name__, 0) + 1
            )

    await asyncio.gather(
        *(one(out, None, rate) for _ in range(tables)),
        *(one(bot_out, "normal", 0) for _ in range(bot_tables)),
    )
    out["bot_actions"] = bot_out["actions"]
    return out


def _worker(args: tuple[str, int, int, float, float, int]) -> dict[str, Any]:
    return asyncio.run(_drive(*args))


# --------------------------------------------------------------------------- echo server


async def _echo_pairs(
    url: str, pairs: int, rate: float, duration: float, seed: int
) -> dict[str, Any]:
    from websockets.asyncio.client import connect

    rng = random.Random(seed)
    latencies: list[float] = []
    stop_at = time.monotonic() + duration
    payload = bytes(60)

    async def pair() -> None:
        sockets = [await connect(url, compression=None) for _ in range(2)]
        try:
            turn = 0
            while time.monotonic() < stop_at:
                if rate > 0:
                    await asyncio.sleep(rng.expovariate(rate))
                ws = sockets[turn]
                sent = time.monotonic()
                await ws.send(payload)
                await ws.recv()
                latencies.append(time.monotonic() - sent)
                turn = 1 - turn
        finally:
            for ws in sockets:
                await ws.close()

    await asyncio.gather(*(pair() for _ in range(pairs)))
    return {"latencies": latencies, "actions": len(latencies), "errors": 0}


def _echo_worker(args: tuple[str, int, float, float, int]) -> dict[str, Any]:
    return asyncio.run(_echo_pairs(*args))


# --------------------------------------------------------------------------- main


def _spread(total: int, workers: int) -> list[int]:
    return [total // workers + (1 if i < total % workers else 0) for i in range(workers)]


def run_ours(args: argparse.Namespace, bot_tables: int) -> dict[str, Any]:
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
            ]
        )
        try:
            url = f"ws://127.0.0.1:{port}/"
            time.sleep(0.5)
            rss_start = rss_kib(server.pid)
            cpu_start = cpu_seconds(server.pid)
            started = time.monotonic()
            with multiprocessing.Pool(args.workers) as pool:
                shares = zip(
                    _spread(args.tables, args.workers),
                    _spread(bot_tables, args.workers),
                    strict=True,
                )
                results = pool.map(
                    _worker,
                    [
                        (url, t, b, args.rate, args.duration, args.seed + i)
                        for i, (t, b) in enumerate(shares)
                    ],
                )
            elapsed = time.monotonic() - started
            cpu = cpu_seconds(server.pid) - cpu_start
            rss_end = rss_kib(server.pid)
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
        "elapsed": elapsed,
        "cpu_seconds": cpu,
        "rss_start_kib": rss_start,
        "rss_end_kib": rss_end,
    }


def run_echo(args: argparse.Namespace) -> dict[str, Any]:
    server, port = start_process([sys.executable, "-c", ECHO_SERVER])
    try:
        url = f"ws://127.0.0.1:{port}/"
        with multiprocessing.Pool(args.workers) as pool:
            results = pool.map(
                _echo_worker,
                [
                    (url, n, args.rate, args.duration, args.seed + i)
                    for i, n in enumerate(_spread(args.tables, args.workers))
                ],
            )
    finally:
        server.terminate()
        server.wait(timeout=30)
    latencies = [x for r in results for x in r["latencies"]]
    return {"latencies": latencies, "actions": len(latencies)}


async def _idle(url: str, count: int, hold: float) -> int:
    from websockets.asyncio.client import connect

    from protocol import messages as m
    from protocol.codec import encode

    sockets = []
    for index in range(count):
        ws = await connect(url, compression=None)
        await ws.send(encode(m.Hello(protocol_version=1, name=f"idle{index}")))
        await ws.recv()
        sockets.append(ws)
    await asyncio.sleep(hold)
    for ws in sockets:
        await ws.close()
    return len(sockets)


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
            url = f"ws://127.0.0.1:{port}/"
            count = args.idle
            process = multiprocessing.Process(target=lambda: asyncio.run(_idle(url, count, 6.0)))
            process.start()
            time.sleep(5.0)
            during = rss_kib(server.pid)
            process.join()
        finally:
            server.terminate()
            server.wait(timeout=30)
    return (during - before) / max(1, args.idle)


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
        "--server-args",
        default="--max-connections 10000 --max-tables 10000 --bot-delay 0",
        help="extra flags for python3 -m server",
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
        "actions_per_s": round(ours["actions"] / ours["elapsed"], 1),
        "bot_actions": ours["bot_actions"],
        "errors": ours["errors"],
        "error_codes": ours["error_codes"],
        "server_cpu_percent": round(100 * ours["cpu_seconds"] / ours["elapsed"], 1),
        "server_rss_kib_per_connection": round(
            (ours["rss_end_kib"] - ours["rss_start_kib"])
            / max(1, 2 * args.tables + args.bot_tables),
            1,
        ),
    }
    if args.bot_tables:
        figures["bot_tables"] = args.bot_tables
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
