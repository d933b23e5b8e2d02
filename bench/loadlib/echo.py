"""The bare websockets echo server the load benchmark compares against, and its clients.

    figures = run_echo(args)     # {"latencies": [...], "actions": n, "client": {...}}

``client``: the echo's load generator's own CPU and loop lateness in the window
(:func:`bench.loadlib.selfprobe.merge`); ``args`` as bench/load.py's.

The same number of connection pairs as tables, at the same pace, with the same light
client: each pair sends in turn and times the echo. The echo server runs on the event
loop ``args.event_loop`` names, as our server does. Raises ``RuntimeError`` if the echo
server reports no port.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import sys
import time
from typing import Any

from bench.loadlib.rawclient import RawClient, pin, raw_connect, split_cores, spread, start_process
from bench.loadlib.selfprobe import SelfProbe, merge

__all__ = ["ECHO_SERVER", "run_echo"]

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
factory = None
if sys.argv[1:] == ["uvloop"]:
    import uvloop
    factory = uvloop.new_event_loop
with asyncio.Runner(loop_factory=factory) as runner:
    runner.run(main())
"""
"""The echo server's script; its one argument names its event loop (``asyncio`` or
``uvloop``), as our server's ``--event-loop``."""


async def _echo_pairs(
    port: int, pairs: int, rate: float, start_at: float, stop_at: float, seed: int
) -> dict[str, Any]:
    """Pairs of connections to the echo server; each sends in turn at the same pace and
    counts the time until its echo is back."""
    rng = random.Random(seed)
    probe = SelfProbe(start_at, stop_at)
    probe.start()
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
    return {
        "latencies": latencies,
        "actions": len(latencies),
        "errors": 0,
        "client": probe.figures(),
    }


def _echo_worker(args: tuple[int, int, float, float, float, int]) -> dict[str, Any]:
    return asyncio.run(_echo_pairs(*args))


def run_echo(args: argparse.Namespace) -> dict[str, Any]:
    cores = split_cores() if args.pin else None
    server, port = start_process(
        [sys.executable, "-c", ECHO_SERVER, args.event_loop], cpus=cores[0] if cores else None
    )
    try:
        start_at = time.monotonic() + (args.setup if args.setup else 3.0 + args.tables / 150)
        stop_at = start_at + args.duration
        with multiprocessing.Pool(
            args.workers, initializer=pin, initargs=(cores[1] if cores else None,)
        ) as pool:
            results = pool.map(
                _echo_worker,
                [
                    (port, n, args.rate, start_at, stop_at, args.seed + i)
                    for i, n in enumerate(spread(args.tables, args.workers))
                ],
            )
    finally:
        server.terminate()
        server.wait(timeout=30)
    latencies = [x for r in results for x in r["latencies"]]
    client = merge([r["client"] for r in results], args.duration, len(latencies))
    return {"latencies": latencies, "actions": len(latencies), "client": client}
