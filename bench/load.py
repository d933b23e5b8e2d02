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
``server_rss_kib_per_connection`` under load, ``idle_rss_kib_per_connection``;
``client`` and ``echo_client``: the load generator's own CPU (percent of a core, summed
over the workers; microseconds an action), its loop's lateness (10 ms probes: p50,
p99, max in ms, probes over 5 and 20 ms) and its preemptions in each window;
``server_preempted``: how many times the kernel took the core from the server's main
thread while it could run, in the window (a machine with more work than cores).
``server_cpu_us_per_action`` (the server's CPU time per action in the window: on a
shared machine the throughput one core would give is about a million over it), ``store``.
``--store postgresql`` runs the server on a throw-away PostgreSQL server (durable
commits; ``tests/pgfixture.py``) instead of a SQLite file. ``--metrics FILE`` serves
the server's ``/metrics`` (``--metrics-port``), saves the page
in FILE half a second before the window ends (every client still connected) and adds its
``spades_*`` counters to the JSON line. ``--pin`` runs the server (and then the echo
server) on one core and the load generator on the others, as when the players are on
other machines: the kernel then never stops the server to run a client it just woke
(``pinned`` in the JSON line). ``--event-loop uvloop`` runs our server and the echo
server alike on uvloop (``event_loop`` in the JSON line; the load generator stays on
asyncio's loop for both).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench._procstat import cpu_seconds, rss_kib
from bench.loadlib.echo import run_echo
from bench.loadlib.rawclient import (
    free_port,
    percentile,
    pin,
    raw_connect,
    split_cores,
    spread,
    start_process,
)
from bench.loadlib.scrape import counters, gc_pauses, loop_lag, metrics_page
from bench.loadlib.selfprobe import merge, preemptions
from bench.loadlib.tables import worker


@contextlib.contextmanager
def store_flags(kind: str, folder: str) -> Iterator[list[str]]:
    """The server's store flags: a SQLite file in ``folder``, or a database on a
    throw-away PostgreSQL server (durable commits, loopback; stopped at the end)."""
    if kind == "sqlite":
        yield ["--db", f"{folder}/load.db"]
        return
    from tests.pgfixture import PgServer  # PostgreSQL only when asked for

    pg = PgServer.start(durable=True)
    try:
        yield ["--store", pg.create_database()]
    finally:
        pg.stop()


def run_ours(args: argparse.Namespace, bot_tables: int) -> dict[str, Any]:
    metrics_port = free_port()  # the loop lag is read from it in every run
    cores = split_cores() if args.pin else None
    with tempfile.TemporaryDirectory() as folder, store_flags(args.store, folder) as store:
        server, port = start_process(
            [
                sys.executable,
                "-m",
                "server",
                "--port",
                "0",
                *store,
                *args.server_args.split(),
                *("--metrics-port", str(metrics_port)),
                *("--event-loop", args.event_loop),
            ],
            cpus=cores[0] if cores else None,
        )
        try:
            time.sleep(0.5)
            rss_start = rss_kib(server.pid)
            setup = args.setup if args.setup else 3.0 + (args.tables + bot_tables) / 150
            start_at = time.monotonic() + setup
            stop_at = start_at + args.duration
            shares = zip(
                spread(args.tables, args.workers), spread(bot_tables, args.workers), strict=True
            )
            with multiprocessing.Pool(
                args.workers, initializer=pin, initargs=(cores[1] if cores else None,)
            ) as pool:
                pending = pool.map_async(
                    worker,
                    [
                        (port, t, b, args.rate, start_at, stop_at, args.seed + i)
                        for i, (t, b) in enumerate(shares)
                    ],
                )
                time.sleep(max(0.0, start_at - time.monotonic()))
                cpu_start = cpu_seconds(server.pid)
                preempted_start = preemptions(server.pid)
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
                preempted = preemptions(server.pid) - preempted_start
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
        "preempted": preempted,
        "rss_start_kib": rss_start,
        "rss_end_kib": rss_end,
        "metrics": metrics,
        "loop_lag": loop_lag(page_start, page_end),
        "gc": gc_pauses(page_start, page_end),
        "client": merge(
            [r["client"] for r in results],
            args.duration,
            sum(r["actions"] + r["bot_actions"] for r in results),
        ),
    }


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
                *("--event-loop", args.event_loop),
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
    parser.add_argument(
        "--store",
        choices=("sqlite", "postgresql"),
        default="sqlite",
        help="the server's store: a SQLite file, or a throw-away PostgreSQL 15 server "
        "(tests/pgfixture.py, durable commits)",
    )
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
        "--address-rate 1000000 --actions-rate 1000 --creations-burst 100000 "
        "--connects-per-second-per-address 0",
        help="extra flags for python3 -m server (the defaults open the per-address budgets)",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="the server (and the echo server) on one core, the load generator on the "
        "others, as when the players are on other machines (default: wherever the kernel "
        "puts them)",
    )
    parser.add_argument(
        "--event-loop",
        choices=("asyncio", "uvloop"),
        default="asyncio",
        help="the event loop of our server and of the echo server alike (uvloop: pip "
        "install uvloop); the load generator stays on asyncio's for both",
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
        "store": args.store,
        "pinned": bool(args.pin and split_cores()),
        "event_loop": args.event_loop,
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
        # the server's CPU per action in the window: what a busy machine cannot hide
        "server_cpu_us_per_action": round(
            1e6 * ours["cpu_seconds"] / max(1, ours["actions"] + ours["bot_actions"]), 1
        ),
        # times the kernel took the core from the server's loop while it could run
        "server_preempted": ours["preempted"],
        "server_rss_kib_per_connection": round(
            (ours["rss_end_kib"] - ours["rss_start_kib"])
            / max(1, 2 * args.tables + args.bot_tables),
            1,
        ),
    }
    figures["loop_lag"] = ours["loop_lag"]
    figures["gc"] = ours["gc"]
    # the load generator's own share: its CPU and how late its loop ran (our clients
    # get three frames an action, the echo's one)
    figures["client"] = ours["client"]
    if args.bot_tables:
        figures["bot_tables"] = args.bot_tables
    if ours["metrics"] is not None:
        figures["metrics"] = ours["metrics"]
    if not args.no_echo:
        echo = run_echo(args)
        figures["echo"] = summary(echo["latencies"])
        figures["echo_client"] = echo["client"]
        figures["p50_ratio"] = round(figures["ours"]["p50_ms"] / figures["echo"]["p50_ms"], 2)
        figures["p99_ratio"] = round(figures["ours"]["p99_ms"] / figures["echo"]["p99_ms"], 2)
    if args.idle:
        figures["idle_connections"] = args.idle
        figures["idle_rss_kib_per_connection"] = round(idle_memory(args), 1)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
