"""Play now benchmark: seekers arriving over a minute, on one node and across two.

    python3 bench/pairing.py                         # 2,000 seekers over 60 s, ~3 minutes
    python3 bench/pairing.py --seekers 400 --seconds 20 --runs 1 2

Starts a real PostgreSQL (``tests/pgfixture.py``) and a real ``redis-server``
(``tests/redisfixture.py``) on loopback. Each run starts its nodes on a fresh database:
one node (the seek pool in memory), or two nodes sharing Redis (the pool there). The
nodes are this script in ``--node`` mode: ``python3 -m server``'s server with one
change, a rating source that reads each player's rating from their name (``s17r1620``
is rated 1620), so the seekers' ratings spread as players' do: normal around 1500
(sd ``--sd``), seeded. Every seek is rated, preset classic.

``--seekers`` clients arrive at random (Poisson) over ``--seconds``, each on a node in
turn; each connects, says hello, sends ``seek`` and waits for ``seek_paired`` (at most
``--patience`` seconds; a bot offer is ignored: they keep waiting). Time to pair: from
sending ``seek`` to ``seek_paired``. Then a seated player leaves the table and closes.
Reported per run: pairs, unpaired seekers, p50/p99/max of the time to pair, bot offers,
the nodes' CPU seconds over the run and as a share of one core, Redis commands. Prints
one JSON object on its last line.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from bench._procstat import cpu_seconds
from protocol import messages as m
from protocol.codec import MAX_SERVER_MESSAGE_BYTES, decode_server, encode
from tests.pgfixture import PgServer
from tests.redisfixture import RedisServer, free_port

ROOT = Path(__file__).resolve().parent.parent


def percentile(values: list[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


# ---- node mode: the server, rating each player by their name ---------------------------


class NameRatings:
    """A rating source for the benchmark: ``s17r1620`` is rated 1620."""

    def __init__(self, roster: Any) -> None:
        self.roster = roster

    def rating_of(self, player_id: str, preset: str) -> float | None:
        player = self.roster.by_id.get(player_id)
        if player is None or "r" not in player.name:
            return None
        try:
            return float(player.name.rsplit("r", 1)[1])
        except ValueError:
            return None


async def _serve_node(argv: list[str]) -> None:
    from server.app import start_server
    from server.cli import add_serve_arguments, config_from_args

    parser = argparse.ArgumentParser()
    add_serve_arguments(parser)
    config = config_from_args(parser.parse_args(argv))
    running = await start_server(config)
    running.hub.seeks.ratings = NameRatings(running.hub.roster)
    # a rated seek needs an account; the benchmark's seekers stand for signed-in players
    # (2,000 registrations would measure argon2, not the pairing)
    running.hub.seeks.lobby.is_account = lambda player_id: True
    print(f"listening on {running.url}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    await running.close()


class BenchNode:
    """One node process (this script with ``--node``)."""

    def __init__(self, store: str, presence: str, node_id: str) -> None:
        self.port = free_port()
        self.url = f"ws://127.0.0.1:{self.port}/"
        cluster = ("--presence", presence, "--public-url", self.url, "--node-id", node_id)
        self.process = subprocess.Popen(
            [
                sys.executable, str(Path(__file__).resolve()), "--node",
                "--port", str(self.port), "--store", store,
                *(cluster if presence else ()),
                "--bot-workers", "0", "--entropy-seconds", "0",
                "--rate", "10000", "--rate-burst", "10000",
                "--max-connections-per-address", "100000",
                "--connects-per-second-per-address", "0",
                "--max-tables-per-address", "100000",
                "--max-bot-tables-per-address", "100000",
                # every seeker comes from 127.0.0.1: the per-address budgets that protect a
                # public server from one attacker are opened up, as for many players
                "--max-connections", "10000", "--max-tables", "10000",
                "--address-rate", "1000000", "--creations-burst", "100000",
                "--max-half-open-per-address", "0",
                "--log-level", "WARNING",
            ],
            cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
            stdout=subprocess.PIPE, stderr=self._log(node_id), text=True,
        )  # fmt: skip
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if "listening" not in line:
            self.process.kill()
            raise RuntimeError(f"node {node_id} did not start: {line!r}")

    @staticmethod
    def _log(node_id: str) -> Any:
        """Where the node's log goes: ``$SPADES_NODE_LOG.NODE`` if set, else nowhere."""
        folder = os.environ.get("SPADES_NODE_LOG")
        return open(f"{folder}.{node_id}", "w") if folder else subprocess.DEVNULL

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)


# ---- the seekers ------------------------------------------------------------------------


class Tally:
    def __init__(self) -> None:
        self.waits: list[float] = []
        self.unpaired = 0
        self.offers = 0
        self.failed = 0
        self.errors: list[str] = []
        self.unpaired_ratings: list[int] = []


async def _seeker(url: str, name: str, patience: float, tally: Tally) -> None:
    try:
        async with connect(url, max_size=MAX_SERVER_MESSAGE_BYTES, compression=None) as ws:
            await ws.send(encode(m.Hello(protocol_version=1, protocol_minor=2, name=name)))
            sent = 0.0
            async with asyncio.timeout(patience):
                async for data in ws:
                    message = decode_server(data)  # type: ignore[arg-type]
                    if isinstance(message, m.Welcome):
                        sent = time.monotonic()
                        await ws.send(encode(m.Seek(preset="classic", rated=True)))
                    elif isinstance(message, m.SeekBotOffer):
                        tally.offers += 1
                    elif isinstance(message, m.ErrorMessage):
                        tally.failed += 1
                        tally.errors.append(message.code)
                        return
                    elif isinstance(message, m.SeekPaired):
                        tally.waits.append(time.monotonic() - sent)
                        if message.seated:
                            await ws.send(encode(m.Leave(code=message.table)))
                        return
    except TimeoutError:
        tally.unpaired += 1
        tally.unpaired_ratings.append(int(name.rsplit("r", 1)[1]))
    except (OSError, InvalidHandshake, ConnectionClosed):
        tally.failed += 1


async def _arrivals(urls: list[str], args: argparse.Namespace, tally: Tally) -> None:
    rng = random.Random(args.seed)
    rate = args.seekers / args.seconds
    tasks: list[asyncio.Task[None]] = []
    start = time.monotonic()
    due = 0.0
    for index in range(args.seekers):
        due += rng.expovariate(rate)
        delay = start + due - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        rating = round(min(2600.0, max(600.0, rng.gauss(1500.0, args.sd))))
        name = f"s{index}r{rating}"
        url = urls[index % len(urls)]
        tasks.append(asyncio.create_task(_seeker(url, name, args.patience, tally)))
    await asyncio.gather(*tasks)


def _redis_commands(url: str) -> int:
    import redis

    client = redis.Redis.from_url(url)
    try:
        return int(client.info("stats")["total_commands_processed"])
    finally:
        client.close()


def run(pg: PgServer, redis_url: str, count: int, args: argparse.Namespace) -> dict[str, Any]:
    dsn = pg.create_database()
    presence = redis_url if count > 1 else ""
    nodes = [BenchNode(dsn, presence, f"n{i}") for i in range(count)]
    try:
        time.sleep(1.0)  # the nodes settle (joined, first scans done)
        commands = _redis_commands(redis_url)
        cpu = [cpu_seconds(node.process.pid) for node in nodes]
        tally = Tally()
        started = time.monotonic()
        asyncio.run(_arrivals([n.url for n in nodes], args, tally))
        wall = time.monotonic() - started
        used = [cpu_seconds(n.process.pid) - before for n, before in zip(nodes, cpu, strict=True)]
        redis_used = _redis_commands(redis_url) - commands
    finally:
        for node in nodes:
            node.stop()
    waits = tally.waits

    def ms(value: float | None) -> float | None:
        return None if value is None else round(value * 1000, 1)

    return {
        "nodes": count,
        "pool": "redis" if presence else "memory",
        "seekers": args.seekers,
        "paired_seekers": len(waits),
        "unpaired": tally.unpaired,
        "unpaired_ratings": sorted(tally.unpaired_ratings),
        "failed": tally.failed,
        "error_codes": sorted(set(tally.errors)),
        "bot_offers": tally.offers,
        "pair_ms_p50": ms(percentile(waits, 0.5)),
        "pair_ms_p99": ms(percentile(waits, 0.99)),
        "pair_ms_max": ms(max(waits) if waits else None),
        "wall_s": round(wall, 1),
        "server_cpu_s": [round(u, 2) for u in used],
        "server_cpu_share_of_a_core": [round(u / wall, 3) for u in used],
        "redis_commands": redis_used if presence else 0,
    }


def main() -> None:
    if sys.argv[1:2] == ["--node"]:
        asyncio.run(_serve_node(sys.argv[2:]))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seekers", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=60.0, help="arrivals spread over")
    parser.add_argument("--runs", type=int, nargs="+", default=[1, 2], help="node counts")
    parser.add_argument("--sd", type=float, default=300.0, help="rating spread")
    parser.add_argument("--patience", type=float, default=60.0, help="a seeker's wait, at most")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    begun = time.monotonic()
    pg = PgServer.start()
    with tempfile.TemporaryDirectory(prefix="spades-bench-redis-") as folder:
        redis_server = RedisServer(Path(folder))
        redis_server.start()
        try:
            runs = [run(pg, redis_server.url, count, args) for count in args.runs]
        finally:
            redis_server.stop()
            with contextlib.suppress(Exception):
                pg.stop()
    print(
        json.dumps(
            {
                "benchmark": "pairing",
                "seekers": args.seekers,
                "arrival_seconds": args.seconds,
                "rating_sd": args.sd,
                "runs": runs,
                "wall_s": round(time.monotonic() - begun, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
