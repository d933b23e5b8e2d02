"""Store benchmark: what committing an action costs on SQLite and on PostgreSQL.

    python3 bench/store.py                       # about 30 s
    python3 bench/store.py --actions 3000 --max-seconds 8
    python3 bench/store.py --server-seconds 10      # and whole servers under bench/load.py

Drives each store the way the hub does (``autocommit=False``: the writes of one turn of
the event loop, then one ``commit`` before anything is sent): one ``append_action`` per
action and a ``save_table`` every 70 actions of a table (what a real game writes: 280
actions, 4 table saves). Three regimes per store:

- ``one``: one action per commit (a quiet server: each action alone in its turn of the
  loop); ``ms_per_action`` p50/p99 is the time the event loop is held by the store for it;
- ``batch``: ``--batch`` actions of as many tables per commit (a busy server);
- ``fenced``: ``one`` with every table claimed (``claim_table``): each commit also checks
  the fences inside its transaction.

SQLite is a file in a temporary folder, as ``spades serve`` keeps it (WAL,
``synchronous=NORMAL``: each commit survives the server process being killed, not the
machine losing power). PostgreSQL is a real server started in a temporary folder by the
tests' fixture code (``tests/pgfixture.py``) on 127.0.0.1 with PostgreSQL's durable
defaults: ``postgresql`` waits at each COMMIT for its WAL to reach the disk (what a
cluster node does by default); ``postgresql_async_commit`` is the same server with
``synchronous_commit=off`` for the store's session (``?options=-csynchronous_commit%3Doff``
in its URL: a commit survives the game server's crash, and the last fraction of a second
of commits is lost only if PostgreSQL itself or its machine fails).
``round_trips_per_action`` counts the client/server exchanges (PostgreSQL; SQLite has
none, it is a library), ``statements_per_action`` the SQL statements (BEGIN, the fence
check and COMMIT included). Each regime stops at ``--actions`` actions or
``--max-seconds``, whichever comes first.

``--server-seconds S`` adds ``servers``: ``bench/load.py`` at saturation for ``S`` seconds
(``--server-tables`` tables of two clients acting as fast as they can, one load worker)
against ``python3 -m server`` on each store: actions/s, action-to-both-seats latency
p50/p99, the server's CPU. Prints one JSON object on its last line.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.store import Store
from server.store.pg import PgStore
from tests.pgfixture import PgServer

ROOT = Path(__file__).resolve().parent.parent
SAVE_EVERY = 70  # a real game: about 280 actions and 4 table saves
TABLE_DATA = {"seats": [{"kind": "human", "name": "alice"}, {"kind": "bot"}], "rules": {}}


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else 0.0


def run_regime(
    store: Any,
    statements: Callable[[], int],
    round_trips: Callable[[], int] | None,
    prefix: str,
    per_commit: int,
    fenced: bool,
    actions: int,
    max_seconds: float,
) -> dict[str, Any]:
    """Commit ``actions`` actions, ``per_commit`` tables' worth per commit."""
    codes = [f"{prefix}{index:04d}" for index in range(per_commit)]
    for code in codes:
        if fenced:
            store.claim_table(code, 1)
        store.save_table(code, TABLE_DATA, "playing", 1)
    store.commit()
    statements_before = statements()
    trips_before = round_trips() if round_trips is not None else 0
    commit_times: list[float] = []
    done = 0
    index = 0
    started = time.perf_counter()
    deadline = started + max_seconds
    while done < actions and time.perf_counter() < deadline:
        index += 1
        begin = time.perf_counter()
        for code in codes:
            store.append_action(code, 1, index, index % 2, f"play {index}", index)
            if index % SAVE_EVERY == 0:
                store.save_table(code, TABLE_DATA, "playing", 1)
        store.commit()
        commit_times.append(time.perf_counter() - begin)
        done += len(codes)
    elapsed = time.perf_counter() - started
    figures: dict[str, Any] = {
        "actions": done,
        "actions_per_commit": per_commit,
        "actions_per_s": round(done / elapsed, 1),
        "commit_ms_p50": round(1000 * percentile(commit_times, 0.5), 3),
        "commit_ms_p99": round(1000 * percentile(commit_times, 0.99), 3),
        "ms_per_action_p50": round(1000 * percentile(commit_times, 0.5) / per_commit, 3),
        "ms_per_action_p99": round(1000 * percentile(commit_times, 0.99) / per_commit, 3),
        "statements_per_action": round((statements() - statements_before) / done, 3),
    }
    if round_trips is not None:
        figures["round_trips_per_action"] = round((round_trips() - trips_before) / done, 3)
    return figures


def regimes(
    store: Any,
    statements: Callable[[], int],
    round_trips: Callable[[], int] | None,
    args: argparse.Namespace,
) -> dict[str, Any]:
    return {
        "one": run_regime(
            store, statements, round_trips, "ONE", 1, False, args.actions, args.max_seconds
        ),
        "batch": run_regime(
            store, statements, round_trips, "BAT", args.batch, False, args.actions, args.max_seconds
        ),
        "fenced": run_regime(
            store, statements, round_trips, "FEN", 1, True, args.actions, args.max_seconds
        ),
    }


def bench_sqlite(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        store = Store(f"{folder}/bench.db", autocommit=False)
        count = [0]

        def traced(statement: str) -> None:
            count[0] += 1

        db: sqlite3.Connection = store._db
        db.set_trace_callback(traced)
        try:
            return regimes(store, lambda: count[0], None, args)
        finally:
            store.close()


def bench_postgresql(args: argparse.Namespace) -> dict[str, Any]:
    server = PgServer.start(durable=True)
    figures: dict[str, Any] = {}
    try:
        # PostgreSQL's default (every COMMIT waits for its WAL flush), then the same
        # server with the session setting an operator can put in the store's URL
        for name, options in (
            ("postgresql", ""),
            ("postgresql_async_commit", "?options=-csynchronous_commit%3Doff"),
        ):
            store = PgStore(server.create_database() + options, autocommit=False)
            try:
                figures[name] = regimes(
                    store,
                    lambda pg=store: pg.statements,  # type: ignore[misc]
                    lambda pg=store: pg.round_trips,  # type: ignore[misc]
                    args,
                )
            finally:
                store.close()
    finally:
        server.stop()
    return figures


def bench_servers(args: argparse.Namespace) -> dict[str, Any]:
    """``bench/load.py`` at saturation (``--server-tables`` tables of two clients playing
    as fast as they can) against a real server on each store: what a whole node gives."""
    server = PgServer.start(durable=True)
    figures: dict[str, Any] = {}
    try:
        for name, store_args in (
            ("sqlite", ""),
            ("postgresql", f"--store {server.create_database()}"),
            (
                "postgresql_async_commit",
                f"--store {server.create_database()}?options=-csynchronous_commit%3Doff",
            ),
        ):
            run = subprocess.run(
                [
                    sys.executable, str(ROOT / "bench" / "load.py"),
                    "--tables", str(args.server_tables), "--rate", "0",
                    "--duration", str(args.server_seconds), "--workers", "1",
                    "--no-echo", "--idle", "0", "--server-args",
                    f"--max-connections 10000 --max-tables 10000 --bot-delay 0 {store_args}",
                ],
                capture_output=True,
                text=True,
                timeout=120 + 3 * args.server_seconds,
                cwd=ROOT,
            )  # fmt: skip
            if run.returncode != 0:
                figures[name] = {"error": run.stderr.strip().splitlines()[-1:]}
                continue
            load = json.loads(run.stdout.strip().splitlines()[-1])
            figures[name] = {
                "actions_per_s": load["actions_per_s"],
                "p50_ms": load["ours"]["p50_ms"],
                "p99_ms": load["ours"]["p99_ms"],
                "server_cpu_percent": load["server_cpu_percent"],
                "errors": load["errors"],
            }
    finally:
        server.stop()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--actions", type=int, default=5000, help="actions per regime")
    parser.add_argument("--max-seconds", type=float, default=5.0, help="time cap per regime")
    parser.add_argument("--batch", type=int, default=32, help="actions per commit in 'batch'")
    parser.add_argument(
        "--server-seconds",
        type=float,
        default=0.0,
        help="also run bench/load.py at saturation this long against a server on each store",
    )
    parser.add_argument("--server-tables", type=int, default=200)
    args = parser.parse_args()
    figures: dict[str, Any] = {"sqlite": bench_sqlite(args), **bench_postgresql(args)}
    if args.server_seconds > 0:
        figures["servers"] = bench_servers(args)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
