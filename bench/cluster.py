"""Cluster benchmark: the load benchmark across 1, 2 and 3 nodes, and a failover.

    python3 bench/cluster.py                              # ~2 minutes on this machine
    python3 bench/cluster.py --tables 150 --rate 2 --duration 8 --nodes 1 2 3

Starts a real PostgreSQL (``tests/pgfixture.py``) and a real ``redis-server``
(``tests/redisfixture.py``) in temporary folders on loopback, then runs one server on
PostgreSQL without Redis (the baseline, ``--nodes 0``) and, for each node count N:
N ``python3 -m server --store postgresql://... --presence redis://...`` nodes on a fresh
database (lease TTL 5 s, the default), and one load process per node driving
``--tables``/N tables on that node (``bench/load.py``'s light client: two seats playing
random legal actions, ``--rate`` actions per second per table, Poisson). Per node and in
total: p50/p99 latency (from sending an action to both seats having its events), actions
per second; for the whole run PostgreSQL commits and rows written per action
(``pg_stat_database``) and Redis commands per action and per second (``INFO stats``:
leases, the lobby, notices of every node).

Then the failover: ``--failover-tables`` tables of one human client and the easy bot on
node 0 of a 2-node cluster (lease TTL ``--lease-ms``, 2 s; clients that reconnect with
their token and follow redirects, ``tests/cluster/nodes.py``), node 0 killed with SIGKILL
mid-game: the time from the kill to the first action acknowledged again on any of its
tables, to every table having one, and the count of actions lost or applied twice and
records that do not replay (all must be 0). Every loop is bounded in count and time; all
traffic stays on 127.0.0.1. Prints one JSON object on its last line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import redis

from bench._procstat import cpu_seconds
from bench.loadlib.rawclient import percentile, spread
from bench.loadlib.tables import worker
from protocol import messages as m
from tests.cluster.nodes import RULES, Node, Player, check_games, stop_all
from tests.pgfixture import PgServer
from tests.redisfixture import RedisServer


def _pg_counters(dsn: str) -> tuple[int, int]:
    import psycopg

    with psycopg.connect(dsn) as db:
        row = db.execute(
            "SELECT xact_commit, tup_inserted + tup_updated + tup_deleted "
            "FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
    assert row is not None
    return int(row[0]), int(row[1])


def _redis_commands(url: str) -> int:
    import redis

    client = redis.Redis.from_url(url)
    try:
        return int(client.info("stats")["total_commands_processed"])
    finally:
        client.close()


def _ms(value: float) -> float:
    return round(value * 1000, 2)


def run_load(pg: PgServer, redis_url: str, count: int, args: argparse.Namespace) -> dict[str, Any]:
    """``count`` nodes under the load; ``count`` 0: one server without Redis (the same
    PostgreSQL store, no presence), the baseline a node's cluster work adds to."""
    dsn = pg.create_database()
    presence = redis_url if count else ""  # the baseline's commands are counted too: none
    count = max(count, 1)
    nodes = [Node(dsn, presence, f"load{count}-{i}", lease_ms=5000,
                  extra=("--max-tables", "10000", "--max-connections", "10000"))
             for i in range(count)]  # fmt: skip
    try:
        setup = 3.0 + args.tables / 40  # every table created and claimed before the window
        start_at = time.monotonic() + setup
        stop_at = start_at + args.duration
        shares = spread(args.tables, count)
        with multiprocessing.Pool(count) as pool:
            pending = pool.map_async(
                worker,
                [
                    (node.port, share, 0, args.rate, start_at, stop_at, args.seed + i)
                    for i, (node, share) in enumerate(zip(nodes, shares, strict=True))
                ],
            )
            time.sleep(max(0.0, start_at - time.monotonic()))
            pg_before, redis_before = _pg_counters(dsn), _redis_commands(redis_url)
            cpu_before = [cpu_seconds(n.process.pid) for n in nodes if n.process]
            time.sleep(max(0.0, stop_at - time.monotonic()))
            pg_after, redis_after = _pg_counters(dsn), _redis_commands(redis_url)
            cpu = [
                cpu_seconds(n.process.pid) - before
                for n, before in zip(nodes, cpu_before, strict=True)
                if n.process
            ]
            results = pending.get(timeout=args.duration + setup + 300)
    finally:
        stop_all(nodes)
    per_node = []
    for result, used in zip(results, cpu, strict=True):
        per_node.append(
            {
                "p50_ms": _ms(percentile(result["latencies"], 0.5)),
                "p99_ms": _ms(percentile(result["latencies"], 0.99)),
                "actions_per_s": round(result["actions"] / args.duration, 1),
                "errors": result["errors"],
                "error_codes": result["error_codes"],
                "cpu_percent": round(100 * used / args.duration, 1),
            }
        )
    latencies = [x for r in results for x in r["latencies"]]
    actions = sum(r["actions"] for r in results)
    return {
        "nodes": count if presence else "1 (no Redis)",
        "tables": args.tables,
        "p50_ms": _ms(percentile(latencies, 0.5)),
        "p99_ms": _ms(percentile(latencies, 0.99)),
        "actions_per_s": round(actions / args.duration, 1),
        "errors": sum(r["errors"] for r in results),
        "pg_commits_per_action": round((pg_after[0] - pg_before[0]) / max(1, actions), 3),
        "pg_rows_per_action": round((pg_after[1] - pg_before[1]) / max(1, actions), 3),
        "redis_ops_per_action": round((redis_after - redis_before) / max(1, actions), 3),
        "redis_ops_per_s": round((redis_after - redis_before) / args.duration, 1),
        "per_node": per_node,
    }


class TimedPlayer(Player):
    """A :class:`Player` that notes when each acknowledgement came."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ack_times: list[tuple[float, int]] = []  # (when, on which connection)

    async def _handle(self, ws: Any, message: m.ServerMessage) -> None:
        if isinstance(message, m.Ack):
            self.ack_times.append((time.monotonic(), self.reconnects))
        await super()._handle(ws, message)


async def _failover(dsn: str, redis_url: str, args: argparse.Namespace) -> dict[str, Any]:
    nodes = [Node(dsn, redis_url, f"fail-{i}", lease_ms=args.lease_ms) for i in range(2)]
    try:
        urls = [n.url for n in nodes]
        players = [
            TimedPlayer(urls, home=0, seed=500 + i, name=f"f{i}", pace=0.1)
            for i in range(args.failover_tables)
        ]
        create = m.CreateTable(preset="classic", overrides=RULES, bot="easy")
        runs = [asyncio.create_task(p.run(create, attempts=400)) for p in players]
        async with asyncio.timeout(120):
            while not all(len(p.acked) >= 3 for p in players):
                await asyncio.sleep(0.05)
        owners = redis.Redis.from_url(redis_url, decode_responses=True)
        leases = owners.mget([f"spades:lease:{p.code}" for p in players])
        owners.close()
        # the tables node 0 runs at the kill, games not over (under heavy load a table
        # may have moved before, when its node could not renew a lease in time)
        live = [
            p
            for p, lease in zip(players, leases, strict=True)
            if str(lease).startswith("fail-0 ") and not p.done.is_set()
        ]
        killed_at = time.monotonic()
        nodes[0].kill()
        # an ack read after the kill may have left node 0 before it: only acks on a
        # connection opened after the kill count as resumed
        connection_at_kill = {id(p): p.reconnects for p in live}
        await asyncio.wait_for(asyncio.gather(*runs), 300)
        firsts = [
            min(
                (t for t, conn in p.ack_times if conn > connection_at_kill[id(p)]),
                default=float("nan"),
            )
            - killed_at
            for p in live
        ]
        return {
            "tables": args.failover_tables,
            "tables_on_killed_node": len(live),
            "lease_ms": args.lease_ms,
            "first_resumed_action_s": round(min(firsts), 3),
            "all_tables_resumed_s": round(max(firsts), 3),
            **check_games(dsn, players),
        }
    finally:
        stop_all(nodes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--nodes", type=int, nargs="+", default=[0, 1, 2, 3], help="node counts (0: no Redis)"
    )
    parser.add_argument("--tables", type=int, default=150, help="tables in all (split by node)")
    parser.add_argument("--rate", type=float, default=2.0, help="actions/s per table")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds measured")
    parser.add_argument("--failover-tables", type=int, default=30)
    parser.add_argument("--lease-ms", type=int, default=2000, help="the failover's lease TTL")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    started = time.monotonic()
    pg = PgServer.start()
    with tempfile.TemporaryDirectory(prefix="spades-bench-redis-") as folder:
        redis_server = RedisServer(Path(folder))
        redis_server.start()
        try:
            runs = [run_load(pg, redis_server.url, count, args) for count in args.nodes]
            failover = asyncio.run(_failover(pg.create_database(), redis_server.url, args))
        finally:
            redis_server.stop()
            pg.stop()
    print(
        json.dumps(
            {
                "benchmark": "cluster",
                "rate_per_table": args.rate,
                "duration_s": args.duration,
                "runs": runs,
                "failover": failover,
                "wall_s": round(time.monotonic() - started, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
